#!/bin/sh
# CTest dask_scan_example: examples/dask_scan.py on a LocalCluster of 2 workers against a
# dataset with several fragments and deletion files; the parts, concatenated in shard order,
# must equal one full `lance-cli scan` and Lance's own reading (data/golden).
# Usage: tests/dask_scan_example.sh LANCE_CLI   (run from the source directory)
# Exit 77 (skipped) when no python3 with dask.distributed is found.
set -eu
cli=$1
py=
for c in /usr/bin/python3 python3; do
  if command -v "$c" >/dev/null 2>&1 && "$c" -c 'import distributed' >/dev/null 2>&1; then py=$c; break; fi
done
[ -n "$py" ] || { echo "skipped: no python3 with dask.distributed (Debian: python3-distributed)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ds=data/datasets/appends   # v7: fragments 0, 2, 3 with deletions; v4: fragments 0, 1, 2

echo "== latest version, 2 shards, jsonl"
"$py" examples/dask_scan.py "$ds" "$tmp/p7" --shards 2 --workers 2 --format jsonl --lance-cli "$cli" | tee "$tmp/r7"
grep -q "version 7: 247 rows in 2 shards, 2 workers$" "$tmp/r7"
grep -q "^total: 247 rows in 2 parts$" "$tmp/r7"
[ "$(ls "$tmp/p7")" = "$(printf 'part-0.jsonl\npart-1.jsonl')" ]
cat "$tmp"/p7/part-*.jsonl > "$tmp/all7.jsonl"
"$cli" scan "$ds" -f jsonl > "$tmp/full7.jsonl"
cmp "$tmp/all7.jsonl" "$tmp/full7.jsonl"
cmp "$tmp/all7.jsonl" data/golden/ds_appends.jsonl

echo "== version 4, 3 shards, jsonl and arrow"
"$py" examples/dask_scan.py "$ds" "$tmp/p4" --version 4 --shards 3 --workers 2 --format jsonl --lance-cli "$cli" | tee "$tmp/r4"
grep -q "^total: 257 rows in 3 parts$" "$tmp/r4"
cat "$tmp"/p4/part-*.jsonl > "$tmp/all4.jsonl"
cmp "$tmp/all4.jsonl" data/golden/ds_appends-version4.jsonl
"$py" examples/dask_scan.py "$ds" "$tmp/a4" --version 4 --shards 3 --workers 2 --lance-cli "$cli" | tee "$tmp/ra4"
grep -q "^total: 257 rows in 3 parts$" "$tmp/ra4"
[ "$(ls "$tmp/a4" | wc -l)" -eq 3 ]

echo "== a plan that fails is reported, exit status 1"
if "$py" examples/dask_scan.py "$tmp/nowhere" "$tmp/px" --shards 2 --lance-cli "$cli" 2> "$tmp/err"; then
  echo "expected a failure"; exit 1
fi
grep -q "plan" "$tmp/err"
echo "dask_scan_example: ok"
