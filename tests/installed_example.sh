#!/bin/sh
# examples/arrow_stream.c built against an installed copy (CTest entry installed_c_example):
# `cmake --install BUILD_DIR` into a temporary prefix, then the example compiled with
# `cc ... $(pkg-config --cflags --libs lance)` from that prefix alone and run on the sample
# table (CTest checks its output). Also checks the installed man page and completions are there.
#   tests/installed_example.sh BUILD_DIR [CC]
# No pkg-config or C compiler: skipped (77), failed under CI=true (tests/missing_component.sh).
set -eu
. "$(dirname "$0")/missing_component.sh"
build=$1
cc=${2:-cc}
command -v pkg-config >/dev/null 2>&1 || missing_component "pkg-config (Debian package pkg-config)"
command -v "$cc" >/dev/null 2>&1 || missing_component "a C compiler ($cc)"
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/lance-cli share/man/man1/lance-cli.1 share/bash-completion/completions/lance-cli \
         share/zsh/site-functions/_lance-cli share/fish/vendor_completions.d/lance-cli.fish; do
  [ -s "$prefix/$f" ] || { echo "FAILED: cmake --install left no $f" >&2; exit 1; }
done
pc=$(find "$prefix" -name lance.pc | head -n 1)
[ -n "$pc" ] || { echo "FAILED: no lance.pc under the prefix" >&2; exit 1; }
export PKG_CONFIG_PATH="$(dirname "$pc")"
# Only the installed copy: no path of the source or build tree may reach the compiler.
flags=$(pkg-config --cflags --libs lance)
case "$flags" in *"$build"*|*/lib/capi*) echo "FAILED: pkg-config names the build tree: $flags" >&2; exit 1 ;; esac
"$cc" -std=c99 -Wall -Werror -o "$prefix/arrow_stream" examples/arrow_stream.c $flags
LD_LIBRARY_PATH="$(pkg-config --variable=libdir lance)" "$prefix/arrow_stream" data/sample/products.lance
# A C++ program links the same way.
if command -v c++ >/dev/null 2>&1; then
  printf '#include <lance_c.h>\n#include <cstdio>\nint main() { std::printf("c++: [%%s]\\n", lance_last_error()); }\n' > "$prefix/p.cpp"
  c++ -o "$prefix/p" "$prefix/p.cpp" $flags
  LD_LIBRARY_PATH="$(pkg-config --variable=libdir lance)" "$prefix/p"
fi
echo "installed copy: ok"
