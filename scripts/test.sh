#!/usr/bin/env bash
# Builds (if needed) and runs the whole test suite with CTest.
#   scripts/test.sh [CTEST_ARGS...]          build/ (RelWithDebInfo)
#   scripts/test.sh --asan                   build-asan/ (-O1): AddressSanitizer + UBSan (any
#                                            report fails the test) on the decoding, bad-input
#                                            and golden tests (ASAN_TESTS below), in two
#                                            parallel processes; then the fuzz regressions
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache keys relative to this checkout, so a fresh clone in another folder (CI) reuses the
# objects of an earlier build.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR=1
B=build
asan=0
if [ "${1:-}" = "--asan" ]; then
  shift
  asan=1
  B=build-asan
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:strict_string_checks=1}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
  if [ ! -f $B/CMakeCache.txt ]; then
    launcher=()
    command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
    # -O1 -g1: half the compile time of -O2 -g, line numbers still in the reports.
    cmake -S . -B $B -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLANCE_CLI_SANITIZE=ON \
          "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1" "${launcher[@]}" >/dev/null
  fi
fi
[ -f $B/CMakeCache.txt ] || cmake -S . -B $B -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
if [ $asan = 1 ]; then
  cmake --build $B -j"$(nproc)" --target sanitizer_suite  # no S3 tests, benches or examples beyond these
else
  cmake --build $B -j"$(nproc)"
fi
if [ $asan = 0 ]; then
  cd $B && exec ctest --output-on-failure -j"$(nproc)" "$@"
fi
# Under the sanitizers: what decodes bytes from files (decoders, layouts, the 2.0 tree, nested
# data, forced encodings, datasets, I/O and planner, other writers incl. legacy v1), the corrupt-file suite and fuzz findings,
# and the full golden scans (every format) and takes.
# Not rerun: CLI plumbing (help, progress, colour, terminals, signals), output formatting,
# inspect, node reading our IPC, and the limit/offset windows (the same pages again).
# The filter goldens run on one storage version here (tests/filter_goldens.h), the vector
# search goldens on two of their four tables (tests/vector_goldens.h).
export LANCE_TEST_FILTER_VERSIONS=${LANCE_TEST_FILTER_VERSIONS:-2_1}
export LANCE_TEST_VECTOR_TABLES=${LANCE_TEST_VECTOR_TABLES:-plain,indexed}
ASAN_TESTS_A='[columns],[search],[encoding],[repdef],[v2_0],[nested],[forced],[dataset],[io],[planner],[fuzz-findings],[arrow],[writers]'
ASAN_TESTS_B='[filter],[corrupt]~[dataset],[take][golden],scan equals Lance*'  # the dataset corrupt sweep ([corrupt][dataset]) runs once, in A
cd $B
status=0
./lance_tests "$ASAN_TESTS_A" "$@" > asan-a.log 2>&1 & a=$!
./lance_tests "$ASAN_TESTS_B" "$@" > asan-b.log 2>&1 & b=$!
wait $a || status=1
wait $b || status=1
tail -n 3 asan-a.log asan-b.log
[ $status = 0 ] || { cat asan-a.log asan-b.log | grep -B2 -A30 -E 'FAILED|ERROR: AddressSanitizer|runtime error' | head -200; exit 1; }
exec ctest --output-on-failure -j"$(nproc)" -R '^(fuzz_regressions_|arrow_c_stream_example$)'

