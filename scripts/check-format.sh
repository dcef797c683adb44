#!/usr/bin/env bash
# Fails when a C++ file of lib/ app/ tests/ fuzz/ bench/ differs from .clang-format's style, and
# names each such file. `scripts/check-format.sh --fix` formats them in place instead.
# Needs clang-format 14 (Debian 12's clang-format package; another major version formats
# some constructs differently).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check-format: clang-format not found (apt-get install clang-format)" >&2; exit 1; }
mapfile -t files < <(git ls-files 'lib/*.h' 'lib/*.cpp' 'app/*.h' 'app/*.cpp' 'tests/*.h' 'tests/*.cpp' \
                                  'fuzz/*.h' 'fuzz/*.cpp' 'bench/*.h' 'bench/*.cpp')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  echo "check-format: ${#bad[@]} file(s) differ from .clang-format (scripts/check-format.sh --fix formats them):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
