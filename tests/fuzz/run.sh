#!/usr/bin/env bash
# Builds a fuzz target for every reader with clang's libFuzzer (plus ASan and
# UBSan) and runs each for SECONDS (default 20), seeded with the shipped and
# test files. Targets: the trace formats (Accel-Sim, native text, native
# binary), technology nodes, cells, designs, primitive tables, counter files,
# validation sets and sweep results. Inputs that broke a target are saved as
# FUZZ_BUILD/crash-* by libFuzzer; copy one into tests/fuzz/regressions/TARGET/
# and it is replayed by ctest from then on.
# Usage: bash tests/fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-20}
shift || true
all=(accelsim native_text native_binary tech cell design table counts validate sweep)
targets=("${@:-${all[@]}}")
out=${FUZZ_BUILD:-build-fuzz}
jobs=${JOBS:-2}
mkdir -p "$out/obj"
cflags=(-std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g -Iinclude -Isrc
        -fno-sanitize-recover=all -DGPURF_VERSION_STRING=\"fuzz\" -DGPURF_INSTALL_DATA_DIR=\"\")
libs=($(pkg-config --libs yaml-0.1 gsl) -lpthread -lm)

# The library (every module but the command line), instrumented once into an
# archive. An object is kept while it is newer than its source and every
# header (a changed header may change any module's layouts): all are
# compiled again after a header changes.
mapfile -t srcs < <(find src -name '*.c' ! -path 'src/cli/*' | sort)
newest_h=$(find src include -name '*.h' -printf '%T@ %p\n' | sort -n | tail -n 1 | cut -d' ' -f2)
for o in "$out"/obj/*.o; do
  [ -f "$o" ] && [ "$newest_h" -nt "$o" ] && rm -f "$o"
done
printf '%s\n' "${srcs[@]}" | xargs -P "$jobs" -I{} sh -c \
  'f="$1"; shift; o="$0/obj/$(echo "$f" | tr / _).o"; [ "$o" -nt "$f" ] || clang "$@" -c "$f" -o "$o"' \
  "$out" {} "${cflags[@]}" -fsanitize=fuzzer-no-link,address,undefined
rm -f "$out/libgpurf-fuzz.a"
ar rcs "$out/libgpurf-fuzz.a" "$out"/obj/*.o

# Seeds: the files gpurf ships and the test data, good and bad.
seed() { # seed TARGET FILE...
  mkdir -p "$out/corpus-$1"
  local t=$1
  shift
  for f in "$@"; do [ -f "$f" ] && cp "$f" "$out/corpus-$t/$(echo "$f" | tr / _)"; done
  return 0
}
seed accelsim tests/data/traces/*/kernel-*.traceg tests/data/traces/bad/*.traceg \
  tests/data/traces/nregs/*.traceg tests/data/traces/handwritten/kernelslist.g
mkdir -p "$out/corpus-native_text" "$out/corpus-native_binary"
for f in tests/data/traces/*.gtrace tests/data/traces/bad/*.gtrace tests/data/traces/nregs/*.gtrace \
  tests/data/microtraces/*.gtrace tests/data/orf/*.gtrace; do
  [ -f "$f" ] && tail -n +2 "$f" > "$out/corpus-native_text/$(echo "$f" | tr / _)"
done
# The recorded kernels, with per-lane values (version 1), and some as
# version 2 (with repeat records).
for f in tests/data/riscv/*.gtraceb tests/data/traces/binary-v2/*.gtraceb; do
  [ -f "$f" ] && tail -c +9 "$f" > "$out/corpus-native_binary/$(echo "$f" | tr / _)"
done
if [ -x build/src/gpurf ]; then # a binary seed: the handwritten traces converted, minus the magic
  build/src/gpurf trace convert tests/data/traces/handwritten "$out/seed.gtraceb" &&
    tail -c +9 "$out/seed.gtraceb" > "$out/corpus-native_binary/handwritten"
fi
seed tech tech/*.yaml tests/data/bad/*.yaml
seed cell tech/cells/*.yaml tests/data/good-cell.yaml tests/data/bad/*.yaml
seed design models/*.yaml tests/data/models-bad/*.yaml
seed table tests/data/tables/*.yaml tests/data/tables/bad/*.yaml
seed counts tests/data/counters/*.tsv tests/data/counters/*.log tests/data/counters/*.txt \
  tests/data/counters/bad/*
seed validate validation/*.tsv tests/data/validation-bad/*
seed sweep tests/data/sweep/*.results
for t in "${all[@]}"; do
  [ -d "tests/fuzz/regressions/$t" ] && seed "$t" "tests/fuzz/regressions/$t"/*
done

for t in "${targets[@]}"; do
  clang "${cflags[@]}" -fsanitize=fuzzer,address,undefined "tests/fuzz/fuzz_$t.c" \
    "$out/libgpurf-fuzz.a" "${libs[@]}" -o "$out/fuzz_$t"
done
for t in "${targets[@]}"; do
  echo "== fuzz_$t ($seconds s)"
  (cd "$out" && GPURF_DATA_DIR="$OLDPWD" "./fuzz_$t" -max_total_time="$seconds" -max_len=8192 \
    -timeout=5 -rss_limit_mb=2048 "corpus-$t")
done
