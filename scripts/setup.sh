#!/usr/bin/env bash
# Installs the build dependencies (Debian 12 packages) and builds lance-cli into build/.
# Usage: scripts/setup.sh            (as root, or with sudo available)
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache keys relative to this checkout, so a fresh clone in another folder (CI) reuses the
# objects of an earlier build.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR=1

PACKAGES=(cmake g++ make pkg-config ccache libcli11-dev libfmt-dev libspdlog-dev libzstd-dev liblz4-dev
          libboost-dev catch2 nlohmann-json3-dev libprotobuf-dev protobuf-compiler libflatbuffers-dev flatbuffers-compiler
          libroaring-dev python3-distributed parallel jq
          libcurl4-openssl-dev  # S3 and HTTP(S) reads (lib/io/http_client.cpp)
          radosgw ceph-mon ceph-osd uuid-runtime curl  # the S3 tests' Ceph RGW (scripts/rgw-up.sh)
          bsdutils  # script(1): the pseudo-terminal tests
          zsh fish groff-base)  # the completion scripts' syntax checks, the man page's lint (groff -ww)
# Node.js (>= 18: @lancedb/lancedb 0.31) for the tests that read through LanceDB and arrow-js;
# Debian's nodejs and npm unless a node is already on PATH.
command -v node >/dev/null 2>&1 || PACKAGES+=(nodejs npm)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "Installing: ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Node deps (apache-arrow, @lancedb/lancedb, exact versions from the lock file) for the arrow-js
# check of `-f arrow`, the live-writer test and regenerating fixtures. Under CI=true their tests
# fail without them.
if [ ! -d scripts/node_modules/@lancedb/lancedb ] || [ scripts/package-lock.json -nt scripts/node_modules ]; then
  (cd scripts && npm ci --no-audit --no-fund)
fi

# ccache: a rebuild (CI on a machine that built before, a second build dir) recompiles only
# what changed.
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLANCE_CLI_WERROR="${LANCE_CLI_WERROR:-OFF}" \
      -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache >/dev/null
cmake --build build -j"$(nproc)" --target lance-cli  # the tests are built by scripts/test.sh
