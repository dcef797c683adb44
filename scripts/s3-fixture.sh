#!/usr/bin/env bash
# The object store of the S3 tests (tests/s3/, CTest fixture "s3store"): a real Ceph RGW on
# loopback with the test data in it, and fault-injecting proxies in front of it.
#   s3-fixture.sh start DIR    start RGW (scripts/rgw-up.sh) on a free port, create bucket
#                              "lance", upload data/fixtures, data/datasets, data/sample (and the
#                              v1 dataset data/writers/l0_10_nested) under
#                              data/..., let LanceDB write its tables (scripts/s3-tables.mjs),
#                              start the proxies, write DIR/env (sourced by the tests)
#   s3-fixture.sh stop DIR     stop everything DIR's start began
# Without the Ceph packages or node, start writes no DIR/env and exits 0 (the tests then skip),
# unless CI=true: then it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=$(pwd)
cmd=${1:?usage: s3-fixture.sh start|stop DIR}; D=${2:?usage: s3-fixture.sh start|stop DIR}
KEY=${RGW_ACCESS_KEY:-LCKEY}; SECRET=${RGW_SECRET_KEY:-LCSECRET}; BUCKET=lance

if [ "$cmd" = stop ]; then
  [ -d "$D/rgw" ] && bash scripts/rgw-up.sh --stop "$D/rgw"
  for p in "$D"/*.pid; do [ -f "$p" ] && kill "$(cat "$p")" 2>/dev/null || true; done
  exit 0
fi

unavailable() {
  if [ "${CI:-}" = true ]; then echo "s3-fixture: FAILED: $*" >&2; exit 1; fi
  echo "s3-fixture: skipped (S3 tests will skip): $*" >&2; exit 0
}
mkdir -p "$D"; rm -f "$D/env"
for c in radosgw ceph-mon ceph-osd uuidgen curl node; do command -v $c >/dev/null || unavailable "$c is not installed"; done
[ -d scripts/node_modules/@lancedb/lancedb ] || unavailable "scripts/node_modules is missing (cd scripts && npm ci)"

port_free() { ! (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null; }
pick_port() {  # a free port P with P+100 (the monitor's) free too
  for _ in $(seq 50); do
    local p=$((20000 + RANDOM % 20000))
    port_free $p && port_free $((p + 100)) && { echo $p; return; }
  done
  unavailable "no free port"
}
SECONDS=0
started=0
for attempt in 1 2 3 4 5; do  # a port taken meanwhile, a daemon that lost a race: try again elsewhere
  PORT=$(pick_port)
  if timeout 120 bash scripts/rgw-up.sh "$D/rgw" "$PORT" >"$D/rgw-up.log" 2>&1; then started=1; break; fi
  echo "s3-fixture: attempt $attempt: RGW did not start on port $PORT:" >&2
  cat "$D/rgw-up.log" >&2
  tail -n 3 "$D"/rgw/log/*.log >&2 2>/dev/null || true
  bash scripts/rgw-up.sh --stop "$D/rgw" || true
  # Seen once on a loaded machine: three quick attempts in a row whose OSD came up with a
  # zero fsid ("wrong fsid"); give the machine a moment before the next one.
  sleep $((2 * attempt))
done
[ $started = 1 ] || unavailable "RGW did not start (log above)"
EP=http://127.0.0.1:$PORT
sig=(--aws-sigv4 "aws:amz:us-east-1:s3" --user "$KEY:$SECRET" -H "x-amz-content-sha256: UNSIGNED-PAYLOAD")
for _ in $(seq 50); do curl -sf "${sig[@]}" -X PUT "$EP/$BUCKET" >/dev/null && break; sleep 0.2; done
# One curl process for all uploads (the connection is reused).
{
  find data/fixtures data/datasets data/sample data/writers/l0_10_nested data/filters/2_1 data/filters/2_1_indexed data/vectors/indexed -type f | sort | while read -r f; do
    printf 'upload-file = "%s"\nurl = "%s/%s/%s"\n' "$f" "$EP" "$BUCKET" "$f"
  done
} >"$D/upload.curl"
curl -sf "${sig[@]}" -K "$D/upload.curl" -o /dev/null || unavailable "uploading data/ failed"
# A public-read object (plain http URL, no signature) and a presigned-style URL target.
curl -sf "${sig[@]}" -H "x-amz-acl: public-read" -T data/sample/products.lance "$EP/$BUCKET/public/products.lance" -o /dev/null
(cd scripts && RGW_ACCESS_KEY=$KEY RGW_SECRET_KEY=$SECRET node s3-tables.mjs write "$EP" "$BUCKET") >"$D/lancedb.log" 2>&1 ||
  { cat "$D/lancedb.log" >&2; unavailable "LanceDB could not write its tables"; }

# Proxies: faults (every 3rd request) and latency.
FAULT_PORT=$(pick_port); STALL_PORT=$(pick_port); DELAY_PORT=$(pick_port)
start_proxy() {  # NAME PORT ARGS...
  local name=$1 p=$2; shift 2
  node scripts/delayproxy.mjs "$p" "$PORT" "$@" </dev/null >/dev/null 2>"$D/$name.log" & echo $! >"$D/$name.pid"
  for _ in $(seq 100); do grep -q listening "$D/$name.log" 2>/dev/null && return; sleep 0.05; done
  unavailable "proxy $name did not start"
}
start_proxy faults "$FAULT_PORT" 0 --faults 503,reset,truncate --every 3
start_proxy stall "$STALL_PORT" 0 --faults stall --every 1
start_proxy delay "$DELAY_PORT" 25

cat >"$D/env" <<ENV
S3_ENDPOINT=$EP
S3_PORT=$PORT
S3_BUCKET=$BUCKET
S3_KEY=$KEY
S3_SECRET=$SECRET
S3_FAULT_ENDPOINT=http://127.0.0.1:$FAULT_PORT
S3_STALL_ENDPOINT=http://127.0.0.1:$STALL_PORT
S3_DELAY_ENDPOINT=http://127.0.0.1:$DELAY_PORT
ENV
echo "s3-fixture: RGW at $EP with data/ and LanceDB's tables (${SECONDS} s)"
