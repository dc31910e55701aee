/* Bitonic sort of each block's tile of T keys in shared memory (T a power
 * of two); the compare-exchange is divergent, so it sits in converge. */
#include "../rt.h"

typedef struct args {
  uint32_t *keys;
  uint32_t n;
} args;

static void kernel(const rt_ctx *c, const void *p) {
  const args *a = p;
  uint32_t *s = c->shared, t = c->thread.x, T = c->block_dim.x, i = c->block.x * T + t;
  s[t] = i < a->n ? a->keys[i] : 0xFFFFFFFFu;
  rt_syncthreads();
  for (uint32_t k = 2; k <= T; k *= 2) {
    for (uint32_t j = k / 2; j > 0; j /= 2) {
      uint32_t x = t ^ j;
      converge {
        if (x > t) {
          uint32_t u = s[t], v = s[x];
          int up = (t & k) == 0;
          if (up ? u > v : u < v) {
            s[t] = v;
            s[x] = u;
          }
        }
      }
      rt_syncthreads();
    }
  }
  if (i < a->n) a->keys[i] = s[t];
}

int main(void) {
  rt_params p = rt_get_params(700);
  uint32_t n = p.size, T = rt_block_threads(&p), seed = 17;
  if (T & (T - 1)) {
    rt_puts("bitonic: threads per block must be a power of two\n");
    return rt_report(0);
  }
  uint32_t *keys = rt_alloc(4 * n), *orig = rt_alloc(4 * n);
  for (uint32_t i = 0; i < n; i++) keys[i] = orig[i] = rt_rand(&seed) % 1000;
  args a = {keys, n};
  rt_launch l = rt_grid_1d(&p, kernel, &a, n, 4 * T);
  int ok = rt_run(&p, &l) == 0;
  /* each tile sorted, and the same multiset as before (insertion sort of
   * the original tile) */
  for (uint32_t b = 0; b < n && ok; b += T) {
    uint32_t e = b + T < n ? b + T : n;
    for (uint32_t i = b + 1; i < e; i++) {
      uint32_t v = orig[i], j = i;
      while (j > b && orig[j - 1] > v) orig[j] = orig[j - 1], j--;
      orig[j] = v;
    }
    for (uint32_t i = b; i < e && ok; i++) ok = keys[i] == orig[i];
  }
  return rt_report(ok);
}
