#!/usr/bin/env bash
# Fails when any function compiled with -fstack-usage (GPURF_STACK_USAGE=ON)
# uses more than LIMIT bytes of stack. A simulator calls the library from
# worker threads whose stacks are often far smaller than a main thread's 8 MB,
# so large scratch memory belongs on the heap or in a workspace.
#
# usage: tools/check-stack.sh BUILD_DIR [LIMIT_BYTES]
# GCC writes one .su file per object: "file:line:col:function<TAB>bytes<TAB>kind",
# kind being static, dynamic or "dynamic,bounded". An unbounded dynamic frame
# (a variable-length array or alloca) has no size to check and is refused too.
set -euo pipefail

build=${1:?usage: check-stack.sh BUILD_DIR [LIMIT_BYTES]}
limit=${2:-65536}

mapfile -d '' files < <(find "$build" -name '*.su' -print0)
if [ "${#files[@]}" -eq 0 ]; then
  echo "check-stack: no .su files under $build (configure with -DGPURF_STACK_USAGE=ON)" >&2
  exit 2
fi

awk -F'\t' -v limit="$limit" '
  NF >= 3 {
    n++
    if ($2 + 0 > limit) { printf "%s: %d bytes of stack (limit %d)\n", $1, $2, limit; bad++ }
    else if ($3 == "dynamic") { printf "%s: unbounded dynamic stack\n", $1; bad++ }
    if ($2 + 0 > max) { max = $2 + 0; where = $1 }
  }
  END {
    if (n == 0) { print "check-stack: the .su files list no functions"; exit 2 }
    printf "check-stack: %d functions, largest frame %d bytes (%s)\n", n, max, where
    exit bad ? 1 : 0
  }' "${files[@]}"
