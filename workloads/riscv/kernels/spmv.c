/* Sparse matrix-vector product, CSR, one row per thread; rows hold 0 to 15
 * non-zeros, so the row loop diverges and converges at its end. */
#include "../rt.h"

typedef struct args {
  const uint32_t *row_start, *col, *val, *x;
  uint32_t *y;
  uint32_t rows;
} args;

static void kernel(const rt_ctx *c, const void *p) {
  const args *a = p;
  uint32_t r = c->block.x * c->block_dim.x + c->thread.x;
  converge {
    if (r < a->rows) {
      uint32_t acc = 0;
      for (uint32_t k = a->row_start[r]; k < a->row_start[r + 1]; k++)
        acc += a->val[k] * a->x[a->col[k]];
      a->y[r] = acc;
    }
  }
}

int main(void) {
  rt_params p = rt_get_params(500);
  uint32_t rows = p.size, seed = 19;
  uint32_t *start = rt_alloc(4 * (rows + 1)), *x = rt_alloc(4 * rows), *y = rt_alloc(4 * rows);
  uint32_t *col = rt_alloc(4 * 15 * rows), *val = rt_alloc(4 * 15 * rows), nnz = 0;
  for (uint32_t r = 0; r < rows; r++) {
    start[r] = nnz;
    uint32_t len = rt_rand(&seed) % 16;
    for (uint32_t k = 0; k < len; k++, nnz++) {
      col[nnz] = rt_rand(&seed) % rows;
      val[nnz] = rt_rand(&seed) & 0xFFF;
    }
    x[r] = rt_rand(&seed) & 0xFFF;
    y[r] = 0;
  }
  start[rows] = nnz;
  args a = {start, col, val, x, y, rows};
  rt_launch l = rt_grid_1d(&p, kernel, &a, rows, 0);
  int ok = rt_run(&p, &l) == 0;
  for (uint32_t r = 0; r < rows && ok; r++) {
    uint32_t acc = 0;
    for (uint32_t k = start[r]; k < start[r + 1]; k++) acc += val[k] * x[col[k]];
    ok = y[r] == acc;
  }
  return rt_report(ok);
}
