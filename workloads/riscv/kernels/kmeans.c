/* k-means assignment step: each point goes to its nearest of K centroids
 * (squared distance, integer coordinates); cluster sizes are counted with
 * shared-memory atomics and added to the global counts. */
#include "../rt.h"

#define K 8

typedef struct args {
  const int32_t *px, *py, *cx, *cy;
  uint32_t *assign, *count;
  uint32_t n;
} args;

static uint32_t nearest(const args *a, uint32_t i) {
  uint32_t best = 0xFFFFFFFFu, arg = 0;
  for (uint32_t k = 0; k < K; k++) {
    int32_t dx = a->px[i] - a->cx[k], dy = a->py[i] - a->cy[k];
    uint32_t d = (uint32_t)(dx * dx + dy * dy);
    if (d < best) best = d, arg = k;
  }
  return arg;
}

static void kernel(const rt_ctx *c, const void *p) {
  const args *a = p;
  uint32_t *local = c->shared, t = c->thread.x, i = c->block.x * c->block_dim.x + t;
  if (t < K) local[t] = 0;
  rt_syncthreads();
  converge {
    if (i < a->n) {
      uint32_t k = nearest(a, i);
      a->assign[i] = k;
      rt_atomic_add(&local[k], 1);
    }
  }
  rt_syncthreads();
  if (t < K) rt_atomic_add(&a->count[t], local[t]);
}

int main(void) {
  rt_params p = rt_get_params(1500);
  uint32_t n = p.size, seed = 41;
  int32_t *px = rt_alloc(4 * n), *py = rt_alloc(4 * n), cx[K], cy[K];
  uint32_t *assign = rt_alloc(4 * n), count[K], ref[K];
  for (uint32_t k = 0; k < K; k++) {
    cx[k] = (int32_t)(rt_rand(&seed) % 2000);
    cy[k] = (int32_t)(rt_rand(&seed) % 2000);
    count[k] = ref[k] = 0;
  }
  for (uint32_t i = 0; i < n; i++) {
    uint32_t k = rt_rand(&seed) % K;
    px[i] = cx[k] + (int32_t)(rt_rand(&seed) % 400) - 200;
    py[i] = cy[k] + (int32_t)(rt_rand(&seed) % 400) - 200;
  }
  args a = {px, py, cx, cy, assign, count, n};
  rt_launch l = rt_grid_1d(&p, kernel, &a, n, 4 * K);
  int ok = rt_run(&p, &l) == 0;
  for (uint32_t i = 0; i < n && ok; i++) {
    uint32_t k = nearest(&a, i);
    ok = assign[i] == k;
    ref[k]++;
  }
  for (uint32_t k = 0; k < K && ok; k++) ok = count[k] == ref[k];
  return rt_report(ok);
}
