#!/usr/bin/env bash
# The symbol visibility policy: a program linking gpurf sees gpurf_* symbols
# and nothing else. Checks the shared library's dynamic symbol table; for a
# static build, first links the whole archive into a throwaway shared object
# (the library is built position-independent for that reason), which exports
# exactly what a shared build would.
# Usage: exports.sh LIBRARY
set -euo pipefail
lib=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case "$lib" in
  *.a)
    cc -shared -o "$work/libgpurf-exports.so" -Wl,--whole-archive "$lib" -Wl,--no-whole-archive
    so=$work/libgpurf-exports.so ;;
  *) so=$lib ;;
esac
nm -D --defined-only "$so" | awk '{print $NF}' | sort > "$work/symbols"
# Symbols every shared object defines for the loader.
grep -v -E '^(_init|_fini|_edata|_end|__bss_start)$' "$work/symbols" > "$work/api" || true
if grep -v '^gpurf_' "$work/api" > "$work/others"; then
  echo "exported symbols outside the gpurf_ API:" >&2
  cat "$work/others" >&2
  exit 1
fi
# The check must have seen the API itself.
for sym in gpurf_ctx_alloc gpurf_energy_add gpurf_energy_report_get gpurf_rf_table_load \
           gpurf_metrics_summarise gpurf_validate_set_load gpurf_validate_compare; do
  grep -qx "$sym" "$work/api" || { echo "$sym is not exported" >&2; exit 1; }
done
echo "exports: $(wc -l < "$work/api") symbols, all gpurf_*"
