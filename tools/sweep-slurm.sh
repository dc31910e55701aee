#!/usr/bin/env bash
# A Slurm job array that spreads `gpurf sweep` over N nodes, one shard each;
# the merge then prints the whole sweep. Submit from the directory holding
# the gpurf checkout (or set GPURF), with the results directory first and the
# sweep after it, for example with 8 shards:
#
#   sbatch --array=0-7 tools/sweep-slurm.sh results jing-128k-16bk-straight \
#     --set 'banks[0].count+banks[0].entries=8:128,16:64,32:32' --set 'clock_hz=7e8,1e9,1.4e9'
#   # when every task has finished:
#   gpurf sweep merge results/shard-*-of-8.results --format csv
#
# Each task evaluates the points p with p mod N = I (N = the array's size) on
# the CPUs Slurm gave it and writes results/shard-I-of-N.results; the merged
# output is byte-identical to the unsharded sweep's.
#SBATCH --job-name=gpurf-sweep
#SBATCH --cpus-per-task=2
#SBATCH --time=00:30:00
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: sbatch --array=0-N $0 OUTDIR MODEL --set KEY=V1,V2,... [--set ...]" >&2
  exit 2
fi
out=$1
shift
gpurf=${GPURF:-./build/src/gpurf}
count=${SLURM_ARRAY_TASK_COUNT:?run me with sbatch --array=0-N}
index=${SLURM_ARRAY_TASK_ID:?run me with sbatch --array=0-N}
# The trailing '/' makes --out a directory, created when missing.
"$gpurf" sweep "$@" --jobs "${SLURM_CPUS_PER_TASK:-1}" --shard "$index/$count" --out "${out%/}/"
