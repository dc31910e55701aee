/* 256-bin histogram of bytes: per-block bins in shared memory updated with
 * atomics, then added to the global bins. */
#include "../rt.h"

#define BINS 256

typedef struct args {
  const uint8_t *in;
  uint32_t *bins;
  uint32_t n;
} args;

static void kernel(const rt_ctx *c, const void *p) {
  const args *a = p;
  uint32_t *local = c->shared, t = c->thread.x, T = c->block_dim.x;
  for (uint32_t b = t; b < BINS; b += T) local[b] = 0;
  rt_syncthreads();
  uint32_t stride = T * c->grid_dim.x;
  for (uint32_t i = c->block.x * T + t; i < a->n; i += stride) rt_atomic_add(&local[a->in[i]], 1);
  rt_syncthreads();
  for (uint32_t b = t; b < BINS; b += T)
    if (local[b]) rt_atomic_add(&a->bins[b], local[b]);
}

int main(void) {
  rt_params p = rt_get_params(4096);
  uint32_t n = p.size, seed = 7;
  uint8_t *in = rt_alloc(n);
  uint32_t *bins = rt_alloc(4 * BINS), *ref = rt_alloc(4 * BINS);
  for (uint32_t b = 0; b < BINS; b++) bins[b] = ref[b] = 0;
  for (uint32_t i = 0; i < n; i++) {
    /* skewed towards low bins so that lanes collide on the atomics */
    uint32_t r = rt_rand(&seed);
    in[i] = (uint8_t)((r & 1) ? (r >> 8) & 15 : r >> 24);
    ref[in[i]]++;
  }
  args a = {in, bins, n};
  rt_launch l = rt_grid_1d(&p, kernel, &a, n, 4 * BINS);
  if (l.grid_dim.x > 8) l.grid_dim.x = 8; /* grid-stride: each block covers several tiles */
  int ok = rt_run(&p, &l) == 0;
  for (uint32_t b = 0; b < BINS && ok; b++) ok = bins[b] == ref[b];
  return rt_report(ok);
}
