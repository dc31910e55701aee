#!/usr/bin/env bash
# Installs gpurf from BUILD into a temporary prefix, then builds and runs a C
# consumer through pkg-config and a C++ consumer through find_package(gpurf).
# Usage: run.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

# The README's example is this very program.
awk '/<!-- example: tests\/install\/consumer.c -->/{f=1; next} f && /^```c$/{g=1; next} g && /^```$/{exit} g' \
  "$src/README.md" > "$work/readme-example.c"
if ! cmp -s "$work/readme-example.c" "$src/tests/install/consumer.c"; then
  echo "README.md's example differs from tests/install/consumer.c" >&2
  diff "$work/readme-example.c" "$src/tests/install/consumer.c" >&2 || true
  exit 1
fi
cmake --install "$build" --prefix "$prefix" > /dev/null

# The installed command finds its data next to itself.
env -u GPURF_DATA_DIR "$prefix/bin/gpurf" tech show 40nm --device hp > /dev/null

pcdir=$(dirname "$(find "$prefix" -name gpurf.pc | head -n 1)")
export PKG_CONFIG_PATH=$pcdir
datadir=$(pkg-config --variable=datadir gpurf)
cc -std=c11 -Wall -Werror "$src/tests/install/consumer.c" \
  $(pkg-config --cflags --libs gpurf) -o "$work/consumer_c"
LD_LIBRARY_PATH="$prefix/lib:$prefix/lib64:${LD_LIBRARY_PATH:-}" "$work/consumer_c" "$datadir"

cmake -S "$src/tests/install" -B "$work/cxx" -DCMAKE_PREFIX_PATH="$prefix" > /dev/null
cmake --build "$work/cxx" > /dev/null
LD_LIBRARY_PATH="$prefix/lib:$prefix/lib64:${LD_LIBRARY_PATH:-}" "$work/cxx/consumer_cxx" "$datadir"
echo "install test: C (pkg-config) and C++ (find_package) consumers built and ran"
