/* Results in execution, ordered by (ready, seq). Every result of a unit
 * has the same latency and seq grows with its dispatch, so each unit's
 * results arrive already in order: one FIFO per unit and a merge of their heads
 * give the order a priority queue would, at a constant cost per result. */
#include <stdlib.h>

#include "core/ctx_internal.h"
#include "pipeline/pipe_internal.h"

static int res_less(const result *a, const result *b) {
  return a->ready < b->ready || (a->ready == b->ready && a->seq < b->seq);
}

static int grow(gpurf_ctx *ctx, rfifo *f) {
  size_t cap = f->cap ? 2 * f->cap : 32;
  result *r = malloc(cap * sizeof *r);
  if (!r) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  for (size_t i = 0; i < f->n; i++) r[i] = f->r[(f->head + i) & (f->cap - 1)];
  free(f->r);
  f->r = r, f->cap = cap, f->head = 0;
  return GPURF_OK;
}

int pipe_res_push_slow(gpurf_ctx *ctx, gpurf_pipeline *p, int unit, const result *r) {
  rfifo *f = &p->res[unit];
  if (f->n == f->cap) {
    int rc = grow(ctx, f);
    if (rc != GPURF_OK) return rc;
  }
  size_t mask = f->cap - 1, i = f->n++;
  /* Only a clock set back (gpurf_pipeline_reset with results still in
   * flight) can bring an earlier result: it is slid into place so the
   * FIFO stays ordered. */
  while (i > 0 && res_less(r, &f->r[(f->head + i - 1) & mask])) {
    f->r[(f->head + i) & mask] = f->r[(f->head + i - 1) & mask];
    i--;
  }
  f->r[(f->head + i) & mask] = *r;
  p->head_ready[unit] = f->r[f->head].ready, p->head_seq[unit] = f->r[f->head].seq;
  p->res_last[unit] = f->r[(f->head + f->n - 1) & mask].ready;
  pipe_res_first(p);
  return GPURF_OK;
}

void pipe_res_free(gpurf_pipeline *p) {
  for (int u = 0; u < GPURF_PIPELINE_UNIT_COUNT; u++) free(p->res[u].r);
}
