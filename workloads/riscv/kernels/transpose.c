/* Matrix transpose through a padded 32 x 33 shared tile; blocks of 32 x
 * (T / 32) threads, each thread moving 32 / (T / 32) elements per tile. */
#include "../rt.h"

#define TILE 32

typedef struct args {
  const uint32_t *in;
  uint32_t *out;
  uint32_t n;
} args;

static void kernel(const rt_ctx *c, const void *p) {
  const args *a = p;
  uint32_t(*tile)[TILE + 1] = c->shared;
  uint32_t tx = c->thread.x, ty = c->thread.y, rows = c->block_dim.y, n = a->n;
  uint32_t x = c->block.x * TILE + tx;
  for (uint32_t k = ty; k < TILE; k += rows) {
    uint32_t y = c->block.y * TILE + k;
    if (x < n && y < n) tile[k][tx] = a->in[y * n + x];
  }
  rt_syncthreads();
  x = c->block.y * TILE + tx;
  for (uint32_t k = ty; k < TILE; k += rows) {
    uint32_t y = c->block.x * TILE + k;
    if (x < n && y < n) a->out[y * n + x] = tile[tx][k];
  }
}

int main(void) {
  rt_params p = rt_get_params(48);
  uint32_t n = p.size, seed = 5, T = rt_block_threads(&p);
  uint32_t *in = rt_alloc(4 * n * n), *out = rt_alloc(4 * n * n);
  for (uint32_t i = 0; i < n * n; i++) in[i] = rt_rand(&seed), out[i] = 0;
  args a = {in, out, n};
  rt_launch l = rt_grid_1d(&p, kernel, &a, 1, 4 * TILE * (TILE + 1));
  l.block_dim.x = TILE;
  l.block_dim.y = T / TILE;
  l.grid_dim.x = l.grid_dim.y = (n + TILE - 1) / TILE;
  int ok = T >= TILE && T <= TILE * TILE && rt_run(&p, &l) == 0;
  for (uint32_t y = 0; y < n && ok; y++)
    for (uint32_t x = 0; x < n && ok; x++) ok = out[y * n + x] == in[x * n + y];
  return rt_report(ok);
}
