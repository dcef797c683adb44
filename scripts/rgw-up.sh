#!/usr/bin/env bash
# A real S3-compatible object store on loopback for tests: one-node Ceph (monitor + in-memory OSD) with the
# RADOS Gateway (RGW), from Debian 12's packages. RGW checks SigV4 signatures, serves Range GETs (incl. suffix
# ranges) and ListObjectsV2 with prefix/delimiter, like AWS S3.
#   ceph-rgw-up.sh DIR [PORT]      start (about 12 s); prints the endpoint and credentials
#   ceph-rgw-up.sh --stop DIR      stop what DIR's start began
# Packages: radosgw ceph-mon ceph-osd uuid-runtime (scripts/setup.sh installs them). The S3 tests start it
# through scripts/s3-fixture.sh.
# User: access key LCKEY, secret LCSECRET (override with RGW_ACCESS_KEY / RGW_SECRET_KEY). The OSD keeps
# objects in memory, at most RGW_MEMSTORE_BYTES (default 2 GiB; scripts/bench-s3.mjs --scale 1 wants ~6 GiB).
set -euo pipefail
trap 'echo "rgw-up: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
if [ "${1:-}" = "--stop" ]; then
  pids=()
  for p in "$2"/run/*.pid; do [ -f "$p" ] && pids+=("$(cat "$p")"); done
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for _ in $(seq 50); do  # up to 5 s for them to exit, then SIGKILL
    alive=0; for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && exit 0; sleep 0.1
  done
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  exit 0
fi
D=${1:?usage: ceph-rgw-up.sh DIR [PORT]}; PORT=${2:-7480}
KEY=${RGW_ACCESS_KEY:-LCKEY}; SECRET=${RGW_SECRET_KEY:-LCSECRET}
MONPORT=$((PORT + 100))
rm -rf "$D"; mkdir -p "$D"/{run,log,mon.a,osd.0}; D=$(cd "$D" && pwd); cd "$D"; FSID=$(uuidgen)
cat > ceph.conf <<CONF
[global]
fsid = $FSID
mon host = v1:127.0.0.1:$MONPORT
mon initial members = a
auth cluster required = none
auth service required = none
auth client required = none
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
mon warn on pool no redundancy = false
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
public network = 127.0.0.0/8
ms bind msgr2 = false
run dir = $D/run
pid file = $D/run/\$name.pid
log file = $D/log/\$name.log
admin socket = $D/run/\$name.asok
keyring = $D/keyring
[mon.a]
mon data = $D/mon.a
[osd.0]
osd data = $D/osd.0
osd objectstore = memstore
osd class update on start = false
memstore device bytes = ${RGW_MEMSTORE_BYTES:-2147483648}
[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:$PORT
CONF
export CEPH_CONF=$D/ceph.conf
ceph-authtool --create-keyring keyring --gen-key -n mon. --cap mon 'allow *' >/dev/null
monmaptool --create --addv a "[v1:127.0.0.1:$MONPORT]" --fsid "$FSID" monmap >/dev/null
ceph-mon --mkfs -i a --monmap monmap --keyring keyring
ceph-mon -i a
U=$(uuidgen); timeout 60 ceph osd new "$U" >/dev/null
ceph-osd -i 0 --mkfs --osd-uuid "$U" 2>/dev/null
ceph-osd -i 0 2>/dev/null
radosgw -n client.rgw.a
for i in $(seq 600); do (exec 3<>/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && break; sleep 0.1; done
timeout 60 radosgw-admin user create --uid=lc --display-name=lc --access-key="$KEY" --secret="$SECRET" >/dev/null
echo "endpoint http://127.0.0.1:$PORT  access key $KEY  secret $SECRET"
