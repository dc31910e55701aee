#!/usr/bin/env bash
# A Slurm job array that spreads `gpurf reproduce` over N nodes, one shard
# each, then merges the shards into one report. Submit from the directory
# holding the gpurf checkout (or set GPURF), for example with 8 shards:
#
#   sbatch --array=0-7 tools/reproduce-slurm.sh all results/
#   # when every task has finished:
#   gpurf reproduce merge results/shard-*-of-8.results --out report
#
# Each task runs the jobs j with j mod N = I (N = the array's size) on the
# CPUs Slurm gave it; the merged report is byte-identical to one run's.
#SBATCH --job-name=gpurf-reproduce
#SBATCH --cpus-per-task=2
#SBATCH --time=01:00:00
set -euo pipefail
papers=${1:-all}
out=${2:-results}
gpurf=${GPURF:-./build/src/gpurf}
count=${SLURM_ARRAY_TASK_COUNT:?run me with sbatch --array=0-N}
index=${SLURM_ARRAY_TASK_ID:?run me with sbatch --array=0-N}
"$gpurf" reproduce "$papers" --quiet --jobs "${SLURM_CPUS_PER_TASK:-1}" \
  --shard "$index/$count" --out "$out"
