/* 2-D 5-point stencil on an n x n grid (boundary copied), blocks of
 * 32 x (T / 32) threads over 2-D tiles. */
#include "../rt.h"

typedef struct args {
  const int32_t *in;
  int32_t *out;
  uint32_t n;
} args;

static int32_t point(const int32_t *g, uint32_t n, uint32_t x, uint32_t y) {
  if (x == 0 || y == 0 || x == n - 1 || y == n - 1) return g[y * n + x];
  return 4 * g[y * n + x] - g[y * n + x - 1] - g[y * n + x + 1] - g[(y - 1) * n + x] -
         g[(y + 1) * n + x];
}

static void kernel(const rt_ctx *c, const void *p) {
  const args *a = p;
  uint32_t x = c->block.x * c->block_dim.x + c->thread.x;
  uint32_t y = c->block.y * c->block_dim.y + c->thread.y;
  converge {
    if (x < a->n && y < a->n) a->out[y * a->n + x] = point(a->in, a->n, x, y);
  }
}

int main(void) {
  rt_params p = rt_get_params(40);
  uint32_t n = p.size, T = rt_block_threads(&p), seed = 23;
  int32_t *in = rt_alloc(4 * n * n), *out = rt_alloc(4 * n * n);
  for (uint32_t i = 0; i < n * n; i++) {
    in[i] = (int32_t)(rt_rand(&seed) & 0xFFFF) - 0x8000;
    out[i] = 0;
  }
  args a = {in, out, n};
  rt_launch l = rt_grid_1d(&p, kernel, &a, 1, 0);
  l.block_dim.x = 32;
  l.block_dim.y = T / 32;
  l.grid_dim.x = (n + 31) / 32;
  l.grid_dim.y = (n + l.block_dim.y - 1) / l.block_dim.y;
  int ok = rt_run(&p, &l) == 0;
  for (uint32_t y = 0; y < n && ok; y++)
    for (uint32_t x = 0; x < n && ok; x++) ok = out[y * n + x] == point(in, n, x, y);
  return rt_report(ok);
}
