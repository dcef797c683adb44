#!/bin/sh
# CTest live_writer_consistency: tests/live_writer.mjs (lance-cli reading a table that LanceDB
# keeps writing to, and cleaning up). Usage: tests/live_writer.sh LANCE_CLI (from the source dir).
# Skipped (77), or failed under CI=true, without node or scripts/node_modules (cd scripts && npm ci).
set -eu
. tests/missing_component.sh
command -v node >/dev/null 2>&1 && [ -d scripts/node_modules/@lancedb/lancedb ] && [ -d scripts/node_modules/apache-arrow ] \
  || missing_component "node or scripts/node_modules"
exec timeout -k 5 120 node tests/live_writer.mjs "$1"
