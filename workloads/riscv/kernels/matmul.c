/* Tiled matrix multiply C = A B with S x S tiles of A and B in shared
 * memory, S x S = T threads per block (T = 64, 256 or 1024). n is rounded
 * up to a multiple of S. */
#include "../rt.h"

typedef struct args {
  const uint32_t *a, *b;
  uint32_t *c;
  uint32_t n, s;
} args;

static void kernel(const rt_ctx *c, const void *p) {
  const args *a = p;
  uint32_t s = a->s, n = a->n, tx = c->thread.x, ty = c->thread.y;
  uint32_t *ta = c->shared, *tb = ta + s * s;
  uint32_t row = c->block.y * s + ty, col = c->block.x * s + tx, acc = 0;
  for (uint32_t k0 = 0; k0 < n; k0 += s) {
    ta[ty * s + tx] = a->a[row * n + k0 + tx];
    tb[ty * s + tx] = a->b[(k0 + ty) * n + col];
    rt_syncthreads();
    for (uint32_t k = 0; k < s; k++) acc += ta[ty * s + k] * tb[k * s + tx];
    rt_syncthreads();
  }
  a->c[row * n + col] = acc;
}

int main(void) {
  rt_params p = rt_get_params(32);
  uint32_t T = rt_block_threads(&p), s = T == 64 ? 8 : T == 256 ? 16 : T == 1024 ? 32 : 0;
  if (!s) {
    rt_puts("matmul: threads per block must be 64, 256 or 1024\n");
    return rt_report(0);
  }
  uint32_t n = (p.size + s - 1) / s * s, seed = 13;
  uint32_t *A = rt_alloc(4 * n * n), *B = rt_alloc(4 * n * n), *C = rt_alloc(4 * n * n);
  for (uint32_t i = 0; i < n * n; i++) {
    A[i] = rt_rand(&seed) & 0x3FF;
    B[i] = rt_rand(&seed) & 0x3FF;
    C[i] = 0;
  }
  args a = {A, B, C, n, s};
  rt_launch l = rt_grid_1d(&p, kernel, &a, 1, 8 * s * s);
  l.block_dim.x = l.block_dim.y = s;
  l.grid_dim.x = l.grid_dim.y = n / s;
  int ok = rt_run(&p, &l) == 0;
  for (uint32_t r = 0; r < n && ok; r++)
    for (uint32_t col = 0; col < n && ok; col++) {
      uint32_t acc = 0;
      for (uint32_t k = 0; k < n; k++) acc += A[r * n + k] * B[k * n + col];
      ok = C[r * n + col] == acc;
    }
  return rt_report(ok);
}
