/* Matrix-vector product y = A x, one row per thread. */
#include "../rt.h"

typedef struct args {
  const uint32_t *m, *x;
  uint32_t *y;
  uint32_t n;
} args;

static void kernel(const rt_ctx *c, const void *p) {
  const args *a = p;
  uint32_t r = c->block.x * c->block_dim.x + c->thread.x, n = a->n;
  if (r < n) {
    uint32_t acc = 0;
    for (uint32_t k = 0; k < n; k++) acc += a->m[r * n + k] * a->x[k];
    a->y[r] = acc;
  }
}

int main(void) {
  rt_params p = rt_get_params(96);
  uint32_t n = p.size, seed = 9;
  uint32_t *m = rt_alloc(4 * n * n), *x = rt_alloc(4 * n), *y = rt_alloc(4 * n);
  for (uint32_t i = 0; i < n * n; i++) m[i] = rt_rand(&seed) & 0xFF;
  for (uint32_t i = 0; i < n; i++) x[i] = rt_rand(&seed) & 0xFF, y[i] = 0;
  args a = {m, x, y, n};
  rt_launch l = rt_grid_1d(&p, kernel, &a, n, 0);
  int ok = rt_run(&p, &l) == 0;
  for (uint32_t r = 0; r < n && ok; r++) {
    uint32_t acc = 0;
    for (uint32_t k = 0; k < n; k++) acc += m[r * n + k] * x[k];
    ok = y[r] == acc;
  }
  return rt_report(ok);
}
