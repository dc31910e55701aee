/* The RV32 kernel suite of workloads/riscv/: names and what each stresses.
 * The CMake list in workloads/riscv/kernels.cmake names the same kernels
 * (a test keeps the two in step). */
#include "emu/emu_internal.h"

static const gpurf_emu_kernel_info suite[] = {
    {"vecadd", "vector add, one element per thread", "converged streaming loads"},
    {"histogram", "256-bin byte histogram, shared-memory atomics", "atomic conflicts"},
    {"reduce", "sum reduction, tree in shared memory", "barriers, shrinking activity"},
    {"scan", "inclusive scan of each block's tile (Hillis-Steele)", "shared-memory traffic"},
    {"transpose", "matrix transpose through a padded shared tile", "2-D indexing"},
    {"matvec", "matrix-vector product, one row per thread", "long uniform loops"},
    {"matmul", "tiled matrix multiply with shared memory", "register reuse in the inner loop"},
    {"bitonic", "bitonic sort of each block's tile", "divergent compare-exchange"},
    {"spmv", "sparse matrix-vector product (CSR)", "data-dependent trip counts"},
    {"stencil", "2-D 5-point stencil", "boundary divergence, many live addresses"},
    {"gcd", "greatest common divisors (Euclid)", "data-dependent loops, divider"},
    {"sad", "motion estimation: least sum of absolute differences",
     "nested loops, many live values"},
    {"bfs", "breadth-first search, one launch per level", "irregular frontier, atomics"},
    {"kmeans", "k-means assignment step", "short loops over centroids, compares"},
    {"nbody", "fixed-point 2-D n-body step", "long arithmetic chains"},
    {"scan_carry", "whole-array prefix sum in three launches", "several kernels, carries"},
    {NULL, NULL, NULL}};

const gpurf_emu_kernel_info *gpurf_emu_suite(void) { return suite; }
