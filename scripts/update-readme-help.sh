#!/bin/sh
# Rewrites the command reference, docs/commands.md (moved there from README.md; the script
# keeps its name), from the binary's --help: every block
#   <!-- help: inspect pages -->
#   ```text
#   ...
#   ```
#   <!-- /help -->
# gets the output of `lance-cli inspect pages --help`. The test "README command reference
# matches --help" fails when the two differ, so run this after changing any option or help text.
#
# Usage: scripts/update-readme-help.sh [path/to/lance-cli]   (default: build/lance-cli)
set -eu
cd "$(dirname "$0")/.."
bin=${1:-build/lance-cli}
[ -x "$bin" ] || { echo "update-readme-help: $bin not found; build first (cmake --build build)" >&2; exit 1; }
tmp=$(mktemp docs/commands.md.XXXXXX)
trap 'rm -f "$tmp"' EXIT
awk -v bin="$bin" '
  /^<!-- help: .* -->$/ {
    print
    args = $0
    sub(/^<!-- help: /, "", args); sub(/ -->$/, "", args)
    cmd = bin
    if (args != "lance-cli") cmd = cmd " " args
    cmd = cmd " --help"
    print "```text"
    while ((cmd | getline line) > 0) print line
    if (close(cmd) != 0) { print "update-readme-help: " cmd " failed" > "/dev/stderr"; exit 1 }
    print "```"
    skipping = 1
    next
  }
  /^<!-- \/help -->$/ { skipping = 0 }
  !skipping { print }
' docs/commands.md > "$tmp"
cat "$tmp" > docs/commands.md
rm -f "$tmp"
trap - EXIT
echo "docs/commands.md: command reference updated from $bin --help"
