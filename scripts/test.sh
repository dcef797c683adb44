#!/usr/bin/env bash
# Builds (if needed) and runs the whole test suite with CTest.
#   scripts/test.sh [CTEST_ARGS...]          build/ (RelWithDebInfo)
#   scripts/test.sh --asan [CTEST_ARGS...]   build-asan/: AddressSanitizer + UBSan (any
#                                            report fails the test); skips the arrow-js check
set -euo pipefail
cd "$(dirname "$0")/.."
B=build
extra=()
if [ "${1:-}" = "--asan" ]; then
  shift
  B=build-asan
  # Not rerun under the sanitizers: node reading our IPC (not our code), and the limit/offset
  # windows, which decode the same pages as the full golden scans (the slowest test under ASan).
  extra=(-E '^(arrow_ipc_read_by_arrow_js|scan limit and offset select the same rows as Lance)$')
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:strict_string_checks=1}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
  if [ ! -f $B/CMakeCache.txt ]; then
    launcher=()
    command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
    cmake -S . -B $B -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLANCE_CLI_SANITIZE=ON "${launcher[@]}" >/dev/null
  fi
fi
[ -f $B/CMakeCache.txt ] || cmake -S . -B $B -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build $B -j"$(nproc)"
cd $B && ctest --output-on-failure -j"$(nproc)" "${extra[@]}" "$@"
