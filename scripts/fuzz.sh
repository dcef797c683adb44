#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan) into build-fuzz/, extracts seed corpora
# from the fixtures, and runs each target for a fixed time, one after another on one core.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default 60 s, all fuzz/fuzz_*.cpp)
#
# Corpora grow in build-fuzz/corpus/<target>/ (seeds: build-fuzz/seeds/<target>/); crash
# inputs land in build-fuzz/findings/<target>/. Turn each finding into a regression input
# under data/fuzz-regressions/<target>/ (tests/test_fuzz_regressions.cpp replays them).
# Environment: FUZZ_NICE (default 10) niceness of the fuzzers, FUZZ_JOBS build jobs.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
B=build-fuzz
if [ ! -f $B/CMakeCache.txt ]; then
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  CC=clang CXX=clang++ cmake -S . -B $B -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLANCE_CLI_FUZZ=ON -DBUILD_TESTING=OFF \
    "${launcher[@]}" >/dev/null
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in fuzz/fuzz_*.cpp; do targets+=("$(basename "$f" .cpp)"); done
fi
cmake --build $B -j"${FUZZ_JOBS:-$(nproc)}" --target extract_seeds "${targets[@]}"
[ -d $B/seeds ] || $B/extract_seeds $B/seeds data/fixtures/*.lance
# Dataset-layer targets: manifests, transactions and deletion files of the committed datasets.
[ -d $B/seeds/fuzz_manifest ] || find data/datasets data/writers data/fixtures -type f \
  \( -name '*.manifest' -o -name '*.txn' -o -path '*/_deletions/*' \) -print0 | xargs -0 $B/extract_seeds $B/seeds
for t in "${targets[@]}"; do
  mkdir -p $B/corpus/$t $B/findings/$t
  seeds=()
  [ -d $B/seeds/$t ] && seeds+=($B/seeds/$t)
  [ -d data/fuzz-regressions/$t ] && seeds+=(data/fuzz-regressions/$t)
  echo "== $t: ${secs}s ($(date +%T))"
  start=$(date +%s)
  # -rss_limit_mb/-malloc_limit_mb: an allocation no small input justifies is a finding.
  # -fork=1 with -ignore_*: keep fuzzing after a finding (all are saved), on one core.
  nice -n "${FUZZ_NICE:-10}" $B/$t $B/corpus/$t "${seeds[@]}" -max_total_time="$secs" -timeout=10 \
    -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -rss_limit_mb=2048 -malloc_limit_mb=1024 -max_len=65536 -artifact_prefix=$B/findings/$t/ \
    -print_final_stats=1 2>&1 | tail -n 25 || echo "== $t: FINDING (see $B/findings/$t/)"
  echo "== $t: ran $(( $(date +%s) - start ))s"
done
