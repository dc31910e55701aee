/* Sum reduction: grid-stride partial sums, a tree in shared memory, one
 * atomic add per block. */
#include "../rt.h"

typedef struct args {
  const uint32_t *in;
  uint32_t *sum;
  uint32_t n;
} args;

static void kernel(const rt_ctx *c, const void *p) {
  const args *a = p;
  uint32_t *s = c->shared, t = c->thread.x, T = c->block_dim.x;
  uint32_t acc = 0, stride = T * c->grid_dim.x;
  for (uint32_t i = c->block.x * T + t; i < a->n; i += stride) acc += a->in[i];
  s[t] = acc;
  rt_syncthreads();
  for (uint32_t h = T / 2; h > 0; h /= 2) {
    if (t < h) s[t] += s[t + h];
    rt_syncthreads();
  }
  if (t == 0) rt_atomic_add(a->sum, s[0]);
}

int main(void) {
  rt_params p = rt_get_params(5000);
  uint32_t n = p.size, seed = 3, ref = 0;
  uint32_t *in = rt_alloc(4 * n), *sum = rt_alloc(4);
  for (uint32_t i = 0; i < n; i++) ref += in[i] = rt_rand(&seed) >> 8;
  *sum = 0;
  args a = {in, sum, n};
  rt_launch l = rt_grid_1d(&p, kernel, &a, n, 4 * rt_block_threads(&p));
  if (l.grid_dim.x > 4) l.grid_dim.x = 4;
  int ok = rt_run(&p, &l) == 0 && *sum == ref;
  return rt_report(ok);
}
