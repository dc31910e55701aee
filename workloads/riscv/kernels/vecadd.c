/* Vector add: c[i] = a[i] + b[i], one element per thread. */
#include "../rt.h"

typedef struct args {
  const uint32_t *a, *b;
  uint32_t *c;
  uint32_t n;
} args;

static void kernel(const rt_ctx *c, const void *p) {
  const args *a = p;
  uint32_t i = c->block.x * c->block_dim.x + c->thread.x;
  if (i < a->n) a->c[i] = a->a[i] + a->b[i];
}

int main(void) {
  rt_params p = rt_get_params(1000);
  uint32_t n = p.size, seed = 1;
  uint32_t *x = rt_alloc(4 * n), *y = rt_alloc(4 * n), *z = rt_alloc(4 * n);
  for (uint32_t i = 0; i < n; i++) {
    x[i] = rt_rand(&seed);
    y[i] = rt_rand(&seed);
    z[i] = 0;
  }
  args a = {x, y, z, n};
  rt_launch l = rt_grid_1d(&p, kernel, &a, n, 0);
  int ok = rt_run(&p, &l) == 0;
  for (uint32_t i = 0; i < n && ok; i++) ok = z[i] == x[i] + y[i];
  return rt_report(ok);
}
