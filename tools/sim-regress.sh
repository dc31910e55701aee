#!/usr/bin/env bash
# Pipeline results against a saved reference: every shipped trace and every
# synthetic preset through `gpurf sim` (JSON) with every technique, on
# fermi-baseline under a set of SM parameter variants and on the designs the
# reproduce plans use, plus `gpurf reproduce all` in CSV and JSON. The same
# inputs as binary native traces (the reader's brief path, which text traces
# never take) run under a few of the variants.
#
#   tools/sim-regress.sh record GPURF DIR   # write the reference into DIR
#   tools/sim-regress.sh check  GPURF DIR   # run again, diff against DIR
#
# Run from the repository root (the traces are repository-relative). A
# speed-up of the pipeline must leave every output byte-identical.
set -u
mode=${1:?record|check}
gpurf=${2:?path to gpurf}
dir=${3:?directory}
jobs=${JOBS:-2}
case "$mode" in record | check) ;; *) echo "mode: record or check" >&2; exit 2 ;; esac
out="$dir/ref"
[ "$mode" = check ] && out="$dir/new"
rm -rf "$out"
mkdir -p "$out"

inputs=""
for w in $("$gpurf" trace gen --list | grep -E '^[a-z][a-z0-9-]*$'); do
  inputs="$inputs --workload $w"
done
for t in tests/data/traces/handwritten tests/data/traces/matrixmul-32-32-trace \
  tests/data/traces/vectoradd-100-32-trace tests/data/traces/dataflow.gtrace \
  tests/data/traces/nregs/*; do
  inputs="$inputs --trace $t"
done
techniques=$("$gpurf" sim --technique list | awk '{print $1}')

# The binary forms, written by the gpurf under test at a repository-relative
# path (outputs name their trace, so record and check must use the same one).
bin=build/sim-regress-traces
rm -rf "$bin"
mkdir -p "$bin"
binputs=""
for w in $("$gpurf" trace gen --list | grep -E '^[a-z][a-z0-9-]*$'); do
  "$gpurf" trace gen --workload "$w" --seed 1 -o "$bin/$w.gtraceb" >/dev/null || exit 1
  binputs="$binputs --trace $bin/$w.gtraceb"
done
for t in $(echo "$inputs" | tr ' ' '\n' | grep -v -e '^--' -e '^$' | grep /); do
  b="$bin/$(basename "$t").gtraceb"
  "$gpurf" trace convert "$t" "$b" >/dev/null || exit 1
  binputs="$binputs --trace $b"
done

# One line per run: NAME MODEL [--set ...] --technique T; the inputs are added (sh -c
# takes NAME as $0, so "$@" starts with the model).
{
  for set in "" "policy=lrr" "policy=two_level" "bank_map=reg" "banks=12" "warp_in_flight=1" \
    "bank_write_cycles=3" "arbiter=reads_first" "issue_width=2" "latency_alu=3000" \
    "collectors_sp=2" "result_bus_width=1" "read_cycles=3"; do
    for t in $techniques; do
      name="fermi-baseline.${set:-default}.$t"
      echo "$name fermi-baseline ${set:+--set $set} --technique $t"
    done
  done
  for m in gebhart-hw-rfc gebhart-l0-l1 gebhart-mrf jeon-baseline jeon-shrink \
    jing-128k-16bk-straight jing-128k-32bk-straight jing-128k-8bk-stealing \
    jing-128k-8bk-straight simtight-baseline simtight-vrf1024 warrf-sram warrf-stt \
    warrf-stt-sbw warrf-stt-sbw-wpool; do
    for t in $techniques; do echo "$m.$t $m --technique $t"; done
  done
  for set in "" "policy=lrr" "policy=two_level" "banks=12" "read_cycles=3"; do
    for t in $techniques; do
      echo "binary.${set:-default}.$t fermi-baseline ${set:+--set $set} --technique $t"
    done
  done
} >"$out/runs.txt"
# QUICK=1: fermi-baseline only, no reproduce (for iterating; the full run before a commit).
if [ "${QUICK:-0}" = 1 ]; then
  grep '^fermi-baseline' "$out/runs.txt" >"$out/runs.q"
  mv "$out/runs.q" "$out/runs.txt"
fi

export gpurf out inputs binputs
# shellcheck disable=SC2016
xargs -P "$jobs" -L 1 sh -c 'name=$0; in=$inputs; case $name in binary.*) in=$binputs ;; esac
  "$gpurf" sim "$@" $in --format json \
  >"$out/$name.json" 2>"$out/$name.err"; echo "rc $?" >>"$out/$name.err"' <"$out/runs.txt"
if [ "${QUICK:-0}" != 1 ]; then
  for f in csv json; do
    "$gpurf" reproduce all --jobs "$jobs" --quiet --format $f >"$out/reproduce.$f" \
      2>"$out/reproduce-$f.err"
    echo "rc $?" >>"$out/reproduce-$f.err"
  done
fi

if [ "$mode" = check ]; then
  ref="$dir/ref"
  if [ "${QUICK:-0}" = 1 ]; then
    ref="$dir/ref-quick"; rm -rf "$ref"; mkdir -p "$ref"
    for f in "$out"/*; do cp "$dir/ref/$(basename "$f")" "$ref/"; done
    cp "$out/runs.txt" "$ref/runs.txt"
  fi
  if diff -r -q "$ref" "$out"; then
    echo "identical: $(ls "$out" | wc -l) files"
  else
    echo "DIFFERENT" >&2
    exit 1
  fi
fi
