/* Motion estimation: for each 4 x 4 block of the current frame, the offset
 * within +-2 pixels of the reference frame with the least sum of absolute
 * differences (ties to the first in scan order). One block per thread. */
#include "../rt.h"

#define B 4
#define R 2

typedef struct args {
  const uint8_t *cur, *ref;
  uint32_t *best;
  uint32_t w; /* frame is w x w pixels, w a multiple of 4 */
} args;

static uint32_t search(const uint8_t *cur, const uint8_t *ref, uint32_t w, uint32_t bx,
                       uint32_t by) {
  uint32_t best = 0xFFFFFFFFu, arg = 0;
  for (int dy = -R; dy <= R; dy++)
    for (int dx = -R; dx <= R; dx++) {
      int x0 = (int)(bx * B) + dx, y0 = (int)(by * B) + dy;
      if (x0 < 0 || y0 < 0 || x0 + B > (int)w || y0 + B > (int)w) continue;
      uint32_t s = 0;
      for (int y = 0; y < B; y++)
        for (int x = 0; x < B; x++) {
          int d = (int)cur[(by * B + (uint32_t)y) * w + bx * B + (uint32_t)x] -
                  (int)ref[(uint32_t)(y0 + y) * w + (uint32_t)(x0 + x)];
          s += (uint32_t)(d < 0 ? -d : d);
        }
      if (s < best) best = s, arg = (uint32_t)((dy + R) * (2 * R + 1) + dx + R);
    }
  return best << 8 | arg;
}

static void kernel(const rt_ctx *c, const void *p) {
  const args *a = p;
  uint32_t nb = a->w / B, i = c->block.x * c->block_dim.x + c->thread.x;
  converge {
    if (i < nb * nb) a->best[i] = search(a->cur, a->ref, a->w, i % nb, i / nb);
  }
}

int main(void) {
  rt_params p = rt_get_params(32);
  uint32_t w = (p.size + B - 1) / B * B, nb = w / B, seed = 31;
  uint8_t *cur = rt_alloc(w * w), *ref = rt_alloc(w * w);
  uint32_t *best = rt_alloc(4 * nb * nb);
  for (uint32_t i = 0; i < w * w; i++) ref[i] = (uint8_t)rt_rand(&seed);
  /* the current frame is the reference shifted by one pixel, plus noise */
  for (uint32_t y = 0; y < w; y++)
    for (uint32_t x = 0; x < w; x++)
      cur[y * w + x] = (uint8_t)(ref[y * w + (x + 1) % w] + (rt_rand(&seed) & 3));
  args a = {cur, ref, best, w};
  rt_launch l = rt_grid_1d(&p, kernel, &a, nb * nb, 0);
  int ok = rt_run(&p, &l) == 0;
  for (uint32_t i = 0; i < nb * nb && ok; i++) ok = best[i] == search(cur, ref, w, i % nb, i / nb);
  return rt_report(ok);
}
