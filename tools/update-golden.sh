#!/usr/bin/env bash
# Regenerates the CLI golden files in tests/data/golden/ from the built CLI.
# Run after an intended output change, then review `git diff`.
set -euo pipefail
cd "$(dirname "$0")/.."
gpurf=${GPURF:-build/src/gpurf}
src=$(pwd)
golden=tests/data/golden
mkdir -p "$golden"
gen() { # FILE ARGS...
  local out=$1; shift
  GPURF_DATA_DIR="$src" "$gpurf" "$@" | sed "s|$src|SRC|g" > "$golden/$out"
}
gen tech-show-40nm.txt tech show 40nm
gen tech-show-28nm-hp.json tech show 28nm --device hp --temp-k 330 --format json
gen bank-40nm-4k-128-1r1w.txt bank --tech 40nm --cell sram --bytes 4096 --width 128 --ports 1r1w --clock-ghz 1
gen bank-32nm-128k-1024-16bk.json bank --tech 32nm --cell sram --bytes 131072 --width 1024 --banks 16 --format json
gen bank-28nm-60x1024-3r1w-lop.json bank --tech 28nm --cell sram --entries 60 --width 1024 --ports 3r1w --device lop --opt energy --temp-k 330 --format json
gen bank-22nm-8k-1024-stt-split.json bank --tech 22 --cell stt-40f2-cal-vol --bytes 8192 --width 1024 --clock-ghz 0.7 --split-write --format json
gen bank-40nm-l0-dff-3r1w.txt bank --tech 40 --cell dff --entries 64 --width 128 --banks 8 --ports 3r1w --clock-ghz 1
gen xbar-32nm-16x16x1024.txt xbar --inputs 16 --outputs 16 --width 1024 --tech 32
gen arbiter-32nm-16bk-5cls.json arbiter --banks 16 --requesters 16 --classes 5 --tech 32 --rf-bytes 131072 --format json
gen table-simtight-f8.csv table simtight-f8 --format csv
gen table-jing-t3.csv table jing-t3 --format csv
band_set=tests/data/validation-band/disagree-22nm-8k.tsv
gen validate-band-22nm-8k.txt validate --set "$src/$band_set"
gen validate-band-22nm-8k.json validate --set "$src/$band_set" --format json
gen validate-band-22nm-8k.csv validate --set "$src/$band_set" --format csv
