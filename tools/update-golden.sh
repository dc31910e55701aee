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
