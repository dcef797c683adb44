#!/bin/sh
# CTest dask_scan_example: examples/dask_scan.py on a LocalCluster of 2 workers against a
# dataset with several fragments and deletion files; the parts, concatenated in shard order,
# must equal one full `lance-cli scan` and Lance's own reading (data/golden).
# Usage: tests/dask_scan_example.sh LANCE_CLI   (run from the source directory)
# Skipped (77), or failed under CI=true, when no python3 with dask.distributed is found.
set -eu
. tests/missing_component.sh
cli=$1
py=
for c in /usr/bin/python3 python3; do
  if command -v "$c" >/dev/null 2>&1 && "$c" -c 'import distributed' >/dev/null 2>&1; then py=$c; break; fi
done
[ -n "$py" ] || missing_component "no python3 with dask.distributed (Debian: python3-distributed)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
limit="timeout -k 5 120"   # a stuck cluster fails the test instead of hanging it
run() {  # run REPORT ARGS...: examples/dask_scan.py ARGS; its report goes to REPORT and is shown
  report=$1; shift
  status=0
  $limit "$py" examples/dask_scan.py "$@" --lance-cli "$cli" > "$report" || status=$?
  cat "$report"
  return $status
}
ds=data/datasets/appends   # v7: fragments 0, 2, 3 with deletions; v4: fragments 0, 1, 2

echo "== latest version, 2 shards, jsonl"
run "$tmp/r7" "$ds" "$tmp/p7" --shards 2 --workers 2 --format jsonl
grep -q "version 7: 247 rows in 2 shards, 2 workers$" "$tmp/r7"
grep -q "^total: 247 rows in 2 parts$" "$tmp/r7"
[ "$(ls "$tmp/p7")" = "$(printf 'part-0.jsonl\npart-1.jsonl')" ]
cat "$tmp"/p7/part-*.jsonl > "$tmp/all7.jsonl"
"$cli" scan "$ds" -f jsonl > "$tmp/full7.jsonl"
cmp "$tmp/all7.jsonl" "$tmp/full7.jsonl"
cmp "$tmp/all7.jsonl" data/golden/ds_appends.jsonl

echo "== version 4, 3 shards, jsonl and arrow"
run "$tmp/r4" "$ds" "$tmp/p4" --version 4 --shards 3 --workers 2 --format jsonl
grep -q "^total: 257 rows in 3 parts$" "$tmp/r4"
cat "$tmp"/p4/part-*.jsonl > "$tmp/all4.jsonl"
cmp "$tmp/all4.jsonl" data/golden/ds_appends-version4.jsonl
run "$tmp/ra4" "$ds" "$tmp/a4" --version 4 --shards 3 --workers 2
grep -q "^total: 257 rows in 3 parts$" "$tmp/ra4"
[ "$(ls "$tmp/a4" | wc -l)" -eq 3 ]

echo "== --scheduler: an existing cluster of 2 worker processes (loopback)"
cat > "$tmp/cluster.py" <<'PY'
import subprocess, sys
from distributed import LocalCluster
if __name__ == "__main__":  # worker processes re-import this file
    py, cli, ds, out = sys.argv[1:]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as c:
        sys.exit(subprocess.call([py, "examples/dask_scan.py", ds, out, "--shards", "3", "--format", "jsonl",
                                  "--scheduler", c.scheduler_address, "--lance-cli", cli]))
PY
$limit "$py" "$tmp/cluster.py" "$py" "$cli" "$ds" "$tmp/ps" > "$tmp/rs"
cat "$tmp/rs"
grep -q "version 7: 247 rows in 3 shards, 2 workers$" "$tmp/rs"
cat "$tmp"/ps/part-*.jsonl | cmp - data/golden/ds_appends.jsonl

echo "== a plan that fails is reported, exit status 1"
if $limit "$py" examples/dask_scan.py "$tmp/nowhere" "$tmp/px" --shards 2 --lance-cli "$cli" 2> "$tmp/err"; then
  echo "expected a failure"; exit 1
fi
grep -q "plan" "$tmp/err"
echo "dask_scan_example: ok"
