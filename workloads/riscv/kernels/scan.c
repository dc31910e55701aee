/* Inclusive scan of each block's tile (Hillis-Steele in shared memory,
 * double-buffered). */
#include "../rt.h"

typedef struct args {
  const uint32_t *in;
  uint32_t *out;
  uint32_t n;
} args;

static void kernel(const rt_ctx *c, const void *p) {
  const args *a = p;
  uint32_t t = c->thread.x, T = c->block_dim.x, i = c->block.x * T + t;
  uint32_t *buf[2] = {c->shared, (uint32_t *)c->shared + T};
  buf[0][t] = i < a->n ? a->in[i] : 0;
  rt_syncthreads();
  int cur = 0;
  for (uint32_t d = 1; d < T; d *= 2) {
    uint32_t v = buf[cur][t];
    if (t >= d) v += buf[cur][t - d];
    buf[cur ^ 1][t] = v;
    cur ^= 1;
    rt_syncthreads();
  }
  if (i < a->n) a->out[i] = buf[cur][t];
}

int main(void) {
  rt_params p = rt_get_params(1000);
  uint32_t n = p.size, seed = 11, T = rt_block_threads(&p);
  uint32_t *in = rt_alloc(4 * n), *out = rt_alloc(4 * n);
  for (uint32_t i = 0; i < n; i++) in[i] = rt_rand(&seed) & 0xFFFF, out[i] = 0;
  args a = {in, out, n};
  rt_launch l = rt_grid_1d(&p, kernel, &a, n, 8 * T);
  int ok = rt_run(&p, &l) == 0;
  uint32_t run = 0;
  for (uint32_t i = 0; i < n && ok; i++) {
    run = (i % T ? run : 0) + in[i];
    ok = out[i] == run;
  }
  return rt_report(ok);
}
