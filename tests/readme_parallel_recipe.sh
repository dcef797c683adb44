#!/bin/sh
# CTest readme_parallel_recipe: runs the GNU parallel + jq recipe of README.md (the block
# between <!-- recipe: parallel-scan --> and <!-- /recipe -->) exactly as written, with DS a
# multi-fragment dataset with deletions and lance-cli on PATH, and checks that its all.jsonl
# equals one full scan and Lance's own reading (data/golden).
# Usage: tests/readme_parallel_recipe.sh LANCE_CLI   (run from the source directory)
# Skipped (77), or failed under CI=true, when parallel or jq is missing.
set -eu
. tests/missing_component.sh
cli=$1
for tool in parallel jq; do
  command -v $tool >/dev/null 2>&1 || missing_component "$tool not installed (Debian: apt-get install parallel jq)"
done
src=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk '/^<!-- recipe: parallel-scan -->$/ { on = 1; next }
     /^<!-- \/recipe -->$/ { on = 0 }
     on && /^```/ { fence = !fence; next }
     on && fence { print }' README.md > "$tmp/recipe.sh"
[ -s "$tmp/recipe.sh" ] || { echo "README.md has no parallel-scan recipe block"; exit 1; }
mkdir "$tmp/bin" "$tmp/work"
ln -s "$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")" "$tmp/bin/lance-cli"
cat "$tmp/recipe.sh"
check() {  # check DATASET GOLDEN [extra env]
  rm -rf "$tmp/work" && mkdir "$tmp/work"
  (cd "$tmp/work" && PATH="$tmp/bin:$PATH" DS="$src/$1" OUT=parts sh -eu "$tmp/recipe.sh")
  [ "$(jq '.shards | length' "$tmp/work/plan.json")" -ge 2 ]
  "$cli" scan "$1" -f jsonl > "$tmp/full.jsonl"
  cmp "$tmp/work/all.jsonl" "$tmp/full.jsonl"
  cmp "$tmp/work/all.jsonl" "$2"
}
check data/datasets/appends data/golden/ds_appends.jsonl   # fragments 0, 2, 3, with deletions
check data/datasets/v2_2 data/golden/ds_v2_2.jsonl
echo "readme_parallel_recipe: ok"
