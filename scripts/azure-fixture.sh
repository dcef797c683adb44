#!/usr/bin/env bash
# The Azure Blob Storage of the Azure tests (tests/azure/, CTest fixture "azstore"): a real
# Azurite (npm azurite, scripts/node_modules) on loopback, in memory, with the containers,
# files and LanceDB tables of scripts/azure-tables.mjs, and a fault-injecting proxy in front.
#   azure-fixture.sh start DIR   start Azurite on a free port with two accounts (the emulator's
#                                devstoreaccount1 and lanceacct with a fresh random key), let
#                                LanceDB write its tables, start the proxy, write DIR/env
#                                (sourced by the tests) and DIR/golden/ (read back by Lance)
#   azure-fixture.sh stop DIR    stop everything DIR's start began
# Without node or scripts/node_modules, start writes no DIR/env and exits 0 (the tests then
# skip), unless CI=true: then it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=$(pwd)
cmd=${1:?usage: azure-fixture.sh start|stop DIR}; D=${2:?usage: azure-fixture.sh start|stop DIR}
mkdir -p "$D"; D=$(cd "$D" && pwd)

if [ "$cmd" = stop ]; then
  for p in "$D"/*.pid; do [ -f "$p" ] && kill "$(cat "$p")" 2>/dev/null || true; done
  exit 0
fi

unavailable() {
  if [ "${CI:-}" = true ]; then echo "azure-fixture: FAILED: $*" >&2; exit 1; fi
  echo "azure-fixture: skipped (Azure tests will skip): $*" >&2; exit 0
}
rm -f "$D/env"
command -v node >/dev/null || unavailable "node is not installed"
for m in azurite @lancedb/lancedb; do
  [ -d "scripts/node_modules/$m" ] || unavailable "scripts/node_modules/$m is missing (cd scripts && npm ci)"
done

port_free() { ! (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null; }
pick_port() {
  for _ in $(seq 50); do
    local p=$((20000 + RANDOM % 20000))
    port_free $p && { echo $p; return; }
  done
  unavailable "no free port"
}
EMU_KEY='Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=='
KEY=$(head -c 32 /dev/urandom | base64)
SECONDS=0
started=0
for attempt in 1 2 3; do  # a port taken meanwhile: try another
  PORT=$(pick_port)
  # --disableTelemetry: no calls home; --inMemoryPersistence: nothing on disk; --loose and
  # --skipApiVersionCheck: LanceDB's and our API versions and headers as they come.
  (cd "$D" && AZURITE_ACCOUNTS="devstoreaccount1:$EMU_KEY;lanceacct:$KEY" exec node "$SRC/scripts/node_modules/azurite/dist/src/blob/main.js" \
     --blobHost 127.0.0.1 --blobPort "$PORT" --inMemoryPersistence --extentMemoryLimit 256 --disableTelemetry \
     --skipApiVersionCheck --loose --silent </dev/null >"$D/azurite.log" 2>&1) &
  echo $! >"$D/azurite.pid"
  for _ in $(seq 100); do grep -q "successfully listens" "$D/azurite.log" 2>/dev/null && { started=1; break; }; sleep 0.1; done
  [ $started = 1 ] && break
  echo "azure-fixture: attempt $attempt: Azurite did not start on port $PORT:" >&2; cat "$D/azurite.log" >&2
  kill "$(cat "$D/azurite.pid")" 2>/dev/null || true
done
[ $started = 1 ] || unavailable "Azurite did not start (log above)"
EP=http://127.0.0.1:$PORT
(cd scripts && LANCE_AZ_KEY=$KEY node azure-tables.mjs "$EP" "$D") >"$D/lancedb.log" 2>&1 ||
  { cat "$D/lancedb.log" >&2; unavailable "LanceDB could not write its tables"; }

FAULT_PORT=$(pick_port)
node scripts/delayproxy.mjs "$FAULT_PORT" "$PORT" 0 --faults 503,reset,truncate --every 3 </dev/null >/dev/null 2>"$D/faults.log" &
echo $! >"$D/faults.pid"
for _ in $(seq 100); do grep -q listening "$D/faults.log" 2>/dev/null && break; sleep 0.05; done
grep -q listening "$D/faults.log" || unavailable "the fault proxy did not start"

cat >"$D/env" <<ENV
AZ_ENDPOINT=$EP
AZ_ACCOUNT=lanceacct
AZ_KEY=$KEY
AZ_FAULT_ENDPOINT=http://127.0.0.1:$FAULT_PORT
ENV
echo "azure-fixture: Azurite at $EP with LanceDB's tables (${SECONDS} s)"
