/* Greatest common divisors by Euclid's algorithm: the loop runs a
 * data-dependent number of times in each lane. */
#include "../rt.h"

typedef struct args {
  const uint32_t *a, *b;
  uint32_t *g;
  uint32_t n;
} args;

static uint32_t gcd(uint32_t a, uint32_t b) {
  while (b) {
    uint32_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static void kernel(const rt_ctx *c, const void *p) {
  const args *a = p;
  uint32_t i = c->block.x * c->block_dim.x + c->thread.x;
  converge {
    if (i < a->n) a->g[i] = gcd(a->a[i], a->b[i]);
  }
}

int main(void) {
  rt_params p = rt_get_params(800);
  uint32_t n = p.size, seed = 29;
  uint32_t *x = rt_alloc(4 * n), *y = rt_alloc(4 * n), *g = rt_alloc(4 * n);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t f = 1 + rt_rand(&seed) % 64;
    x[i] = f * (1 + rt_rand(&seed) % 5000);
    y[i] = f * (1 + rt_rand(&seed) % 5000);
    g[i] = 0;
  }
  args a = {x, y, g, n};
  rt_launch l = rt_grid_1d(&p, kernel, &a, n, 0);
  int ok = rt_run(&p, &l) == 0;
  for (uint32_t i = 0; i < n && ok; i++) ok = g[i] == gcd(x[i], y[i]);
  return rt_report(ok);
}
