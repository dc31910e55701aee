/* One step of a 2-D n-body simulation in fixed point: positions in 1/16
 * units on a 16384 grid, a softened inverse-square pull computed with
 * integer division, velocities and positions updated in place (positions
 * read from a copy so that every thread sees the old ones). */
#include "../rt.h"

typedef struct args {
  const int32_t *x0, *y0;
  int32_t *x, *y, *vx, *vy;
  uint32_t n;
} args;

static void accel(const int32_t *x, const int32_t *y, uint32_t n, uint32_t i, int32_t *ax,
                  int32_t *ay) {
  int32_t sx = 0, sy = 0;
  for (uint32_t j = 0; j < n; j++) {
    int32_t dx = (x[j] - x[i]) >> 4, dy = (y[j] - y[i]) >> 4; /* whole units, |d| < 1024 */
    int32_t r2 = dx * dx + dy * dy + 64;                      /* softening */
    int32_t f = (1 << 20) / r2;                               /* up to 16384 */
    sx += dx * f >> 8;
    sy += dy * f >> 8;
  }
  *ax = sx;
  *ay = sy;
}

static void kernel(const rt_ctx *c, const void *p) {
  const args *a = p;
  uint32_t i = c->block.x * c->block_dim.x + c->thread.x;
  if (i < a->n) {
    int32_t ax, ay;
    accel(a->x0, a->y0, a->n, i, &ax, &ay);
    a->vx[i] += ax;
    a->vy[i] += ay;
    a->x[i] = a->x0[i] + (a->vx[i] >> 4);
    a->y[i] = a->y0[i] + (a->vy[i] >> 4);
  }
}

int main(void) {
  rt_params p = rt_get_params(200);
  uint32_t n = p.size, seed = 43;
  int32_t *x0 = rt_alloc(4 * n), *y0 = rt_alloc(4 * n), *x = rt_alloc(4 * n), *y = rt_alloc(4 * n);
  int32_t *vx = rt_alloc(4 * n), *vy = rt_alloc(4 * n);
  int32_t *wx = rt_alloc(4 * n), *wy = rt_alloc(4 * n);
  for (uint32_t i = 0; i < n; i++) {
    x0[i] = (int32_t)(rt_rand(&seed) % 16384);
    y0[i] = (int32_t)(rt_rand(&seed) % 16384);
    vx[i] = wx[i] = (int32_t)(rt_rand(&seed) % 64) - 32;
    vy[i] = wy[i] = (int32_t)(rt_rand(&seed) % 64) - 32;
  }
  args a = {x0, y0, x, y, vx, vy, n};
  rt_launch l = rt_grid_1d(&p, kernel, &a, n, 0);
  int ok = rt_run(&p, &l) == 0;
  for (uint32_t i = 0; i < n && ok; i++) {
    int32_t ax, ay;
    accel(x0, y0, n, i, &ax, &ay);
    wx[i] += ax;
    wy[i] += ay;
    ok = vx[i] == wx[i] && vy[i] == wy[i] && x[i] == x0[i] + (wx[i] >> 4) &&
         y[i] == y0[i] + (wy[i] >> 4);
  }
  return rt_report(ok);
}
