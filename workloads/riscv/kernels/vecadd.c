/* Vector add: c[i] = a[i] + b[i], one element per thread (grid-stride). */
#include "../rt.h"

typedef struct args {
  const uint32_t *a, *b;
  uint32_t *c;
  uint32_t n;
} args;

static void kernel(const rt_ctx *c, const void *p) {
  const args *a = p;
  uint32_t stride = c->block_dim.x * c->grid_dim.x;
  for (uint32_t i = c->block.x * c->block_dim.x + c->thread.x; i < a->n; i += stride)
    a->c[i] = a->a[i] + a->b[i];
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
  rt_launch l = {.block_dim = {rt_block_threads(&p), 1}, .kernel = kernel, .args = &a};
  l.grid_dim.x = (n + l.block_dim.x - 1) / l.block_dim.x;
  if (l.grid_dim.x > 16) l.grid_dim.x = 16;
  l.grid_dim.y = 1;
  int ok = rt_run(&p, &l) == 0;
  for (uint32_t i = 0; i < n && ok; i++) ok = z[i] == x[i] + y[i];
  return rt_report(ok);
}
