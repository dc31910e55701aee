/* Prefix sum of a whole array in three launches: each block scans its tile
 * and writes the tile's total; one block scans the totals (each thread
 * summing a run of them serially, then a tree); each block adds the carry
 * of the tiles before it. */
#include "../rt.h"

typedef struct args {
  uint32_t *data, *sums;
  uint32_t n, tiles;
} args;

static void tile_scan(const rt_ctx *c, const void *p) {
  const args *a = p;
  uint32_t t = c->thread.x, T = c->block_dim.x, i = c->block.x * T + t;
  uint32_t *buf[2] = {c->shared, (uint32_t *)c->shared + T};
  buf[0][t] = i < a->n ? a->data[i] : 0;
  rt_syncthreads();
  int cur = 0;
  for (uint32_t d = 1; d < T; d *= 2) {
    uint32_t v = buf[cur][t];
    if (t >= d) v += buf[cur][t - d];
    buf[cur ^ 1][t] = v;
    cur ^= 1;
    rt_syncthreads();
  }
  if (i < a->n) a->data[i] = buf[cur][t];
  if (t == T - 1) a->sums[c->block.x] = buf[cur][t];
}

/* Exclusive scan of the tile totals by block 0 alone. */
static void sums_scan(const rt_ctx *c, const void *p) {
  const args *a = p;
  uint32_t t = c->thread.x, T = c->block_dim.x, *s = c->shared;
  uint32_t per = (a->tiles + T - 1) / T, b = t * per, e = b + per < a->tiles ? b + per : a->tiles;
  uint32_t run = 0;
  for (uint32_t k = b; k < e; k++) run += a->sums[k];
  s[t] = run;
  rt_syncthreads();
  if (t == 0) {
    uint32_t acc = 0;
    for (uint32_t k = 0; k < T; k++) {
      uint32_t v = s[k];
      s[k] = acc;
      acc += v;
    }
  }
  rt_syncthreads();
  run = s[t];
  for (uint32_t k = b; k < e; k++) {
    uint32_t v = a->sums[k];
    a->sums[k] = run;
    run += v;
  }
}

static void add_carry(const rt_ctx *c, const void *p) {
  const args *a = p;
  uint32_t i = c->block.x * c->block_dim.x + c->thread.x;
  if (i < a->n) a->data[i] += a->sums[c->block.x];
}

int main(void) {
  rt_params p = rt_get_params(3000);
  uint32_t n = p.size, T = rt_block_threads(&p), seed = 47;
  uint32_t tiles = (n + T - 1) / T;
  uint32_t *data = rt_alloc(4 * n), *in = rt_alloc(4 * n), *sums = rt_alloc(4 * tiles);
  for (uint32_t i = 0; i < n; i++) data[i] = in[i] = rt_rand(&seed) & 0xFFFF;
  args a = {data, sums, n, tiles};
  rt_launch l1 = rt_grid_1d(&p, tile_scan, &a, n, 8 * T);
  rt_launch l2 = rt_grid_1d(&p, sums_scan, &a, 1, 4 * T);
  rt_launch l3 = rt_grid_1d(&p, add_carry, &a, n, 0);
  int ok = rt_run(&p, &l1) == 0 && rt_run(&p, &l2) == 0 && rt_run(&p, &l3) == 0;
  uint32_t run = 0;
  for (uint32_t i = 0; i < n && ok; i++) {
    run += in[i];
    ok = data[i] == run;
  }
  return rt_report(ok);
}
