#!/usr/bin/env bash
# Installs the Debian packages gpurf needs to build and test, skipping those
# already present. Used by the README's first command and by .ci/run.
set -euo pipefail

# gnuplot-nox draws `gpurf sweep --plot` figures (and runs its test); xmllint
# (libxml2-utils) checks the report's HTML and SVG; gcc-riscv64-unknown-elf
# compiles the RV32 kernels of workloads/riscv/. With --ci, Chromium too,
# for the test that opens the report in a browser (skipped without it).
packages=(build-essential cmake pkg-config libgsl-dev libyaml-dev libcmocka-dev clang gnuplot-nox
  libxml2-utils gcc-riscv64-unknown-elf)
if [ "${1:-}" = "--ci" ]; then
  packages+=(chromium)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
