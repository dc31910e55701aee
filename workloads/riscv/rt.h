/* Runtime for the RV32 kernels of gpurf's suite: CSR access, convergence
 * markers, a NoCL-like kernel launch on SIMTight's interface, and host-side
 * helpers (parameters from the UART, output, a bump allocator). Integer only:
 * rv32ima has no floating-point unit. */
#ifndef GPURF_RT_H
#define GPURF_RT_H

#include <stdint.h>

#define RT_LANES 32
#define RT_SHARED_BASE 0xBFFF0000u
#define RT_SHARED_BYTES 0x10000u

#define rt_csr_read(csr)                                      \
  ({                                                          \
    uint32_t v_;                                              \
    __asm__ volatile("csrrs %0, " #csr ", zero" : "=r"(v_)); \
    v_;                                                       \
  })
#define rt_csr_write(csr, v) __asm__ volatile("csrrw zero, " #csr ", %0" ::"r"(v) : "memory")

/* SIMTight's nesting-level markers. */
static inline void rt_push(void) { __asm__ volatile(".word 0x00050009" ::: "memory"); }
static inline void rt_pop(void) { __asm__ volatile(".word 0x00051009" ::: "memory"); }

/* converge { ... } : the threads that enter the statement leave it together,
 * however they diverged inside. */
#define converge for (int rt_once_ = (rt_push(), 1); rt_once_; rt_once_ = (rt_pop(), 0))

/* The point where every thread of the warp meets before the next step. */
static inline void rt_converge(void) {
  rt_pop();
  rt_push();
}

/* __syncthreads: converge, then wait for the block's other warps. */
static inline void rt_syncthreads(void) {
  rt_converge();
  rt_csr_write(0x830, 0);
}

typedef struct rt_dim {
  uint32_t x, y;
} rt_dim;

/* What a thread knows about itself (on its own stack). */
typedef struct rt_ctx {
  rt_dim thread, block, block_dim, grid_dim;
  void *shared; /* this block's part of the shared local memory */
} rt_ctx;

typedef void (*rt_kernel_fn)(const rt_ctx *c, const void *args);

/* The launch structure the host passes through CSR 0x826. */
typedef struct rt_launch {
  rt_dim grid_dim, block_dim;
  uint32_t warps;        /* warps of the SIMT core */
  uint32_t shared_bytes; /* per block */
  rt_kernel_fn kernel;
  const void *args;
} rt_launch;

/* Parameters from the UART: size, warps of the core, resident blocks. */
typedef struct rt_params {
  uint32_t size, warps, blocks;
} rt_params;

rt_params rt_get_params(uint32_t default_size);
/* Threads per block for the parameters: warps * 32 / blocks. */
uint32_t rt_block_threads(const rt_params *p);
/* Launches and waits; 0 when every warp terminated with success. */
int rt_run(const rt_params *p, rt_launch *l);
/* A 1-D launch of ceil(n / T) blocks of T = rt_block_threads threads,
 * with shared_bytes of shared local memory per block. */
rt_launch rt_grid_1d(const rt_params *p, rt_kernel_fn k, const void *args, uint32_t n,
                     uint32_t shared_bytes);
/* Atomic add on shared or global memory (amoadd.w); returns the old value. */
static inline uint32_t rt_atomic_add(uint32_t *p, uint32_t v) {
  return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}
static inline uint32_t rt_atomic_swap(uint32_t *p, uint32_t v) {
  return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
}
void rt_puts(const char *s);
void rt_put_u32(uint32_t v);
void *rt_alloc(uint32_t bytes);
/* "Self test: PASSED"/"FAILED" and main's return value. */
int rt_report(int ok);
/* A deterministic generator for inputs (xorshift32). */
static inline uint32_t rt_rand(uint32_t *s) {
  uint32_t x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *s = x;
}

#endif
