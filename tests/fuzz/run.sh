#!/usr/bin/env bash
# Builds the trace-parser fuzz targets with clang's libFuzzer (plus ASan and
# UBSan) and runs each for SECONDS (default 20), seeded with the test traces.
# Usage: bash tests/fuzz/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-20}
out=${FUZZ_BUILD:-build-fuzz}
mkdir -p "$out"
srcs=(src/core/context.c src/core/error.c src/trace/*.c)
flags=(-std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g -Iinclude -Isrc
       -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -DGPURF_VERSION_STRING=\"fuzz\")
mkdir -p "$out/corpus-accelsim" "$out/corpus-text" "$out/corpus-binary"
cp tests/data/traces/*/kernel-*.traceg tests/data/traces/bad/*.traceg "$out/corpus-accelsim/" 2>/dev/null || true
cp tests/data/traces/handwritten/kernelslist.g "$out/corpus-accelsim/list.g"
for f in tests/data/traces/*.gtrace tests/data/traces/bad/*.gtrace; do
  tail -n +2 "$f" > "$out/corpus-text/$(basename "$f")"
done
for target in accelsim native_text native_binary; do
  clang "${flags[@]}" "tests/fuzz/fuzz_$target.c" "${srcs[@]}" -lm -o "$out/fuzz_$target"
done
# A binary seed: the handwritten traces converted, minus the magic bytes.
if [ -x build/src/gpurf ]; then
  build/src/gpurf trace convert tests/data/traces/handwritten "$out/seed.gtraceb" &&
    tail -c +9 "$out/seed.gtraceb" > "$out/corpus-binary/handwritten"
fi
"$out/fuzz_accelsim" -max_total_time="$seconds" -max_len=4096 -timeout=5 "$out/corpus-accelsim"
"$out/fuzz_native_text" -max_total_time="$seconds" -max_len=4096 -timeout=5 "$out/corpus-text"
"$out/fuzz_native_binary" -max_total_time="$seconds" -max_len=4096 -timeout=5 "$out/corpus-binary"
