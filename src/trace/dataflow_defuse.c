/* The last two phases of gpurf_dataflow_analyze, which follow register
 * writes to the reads they reach: strands end where a long-latency write of
 * the same strand is read, and def-use chains link every read to its
 * writes. Both run over the finished blocks and control-flow graph. */
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "trace/dataflow_internal.h"

/* ---- strands ---- */

/* Blocks that start a strand whatever reaches them. */
static void strand_block_starts(const gpurf_dataflow *df, uint8_t *start) {
  for (size_t b = 0; b < df->nblocks; b++) {
    if (b == 0 || df->extra[df->blocks[b].first].entry) start[b] |= GPURF_STRAND_ENTRY;
    for (uint32_t p = df->pred_off[b]; p < df->pred_off[b + 1]; p++) {
      uint32_t u = df->pred[p];
      uint32_t last = df->blocks[u].first + df->blocks[u].count - 1;
      if (df->insts[last].pc >= df->blocks[b].start_pc) start[b] |= GPURF_STRAND_BACKWARD_TARGET;
    }
  }
}

/* A write ends whatever was pending in its registers; a long-latency write
 * leaves its registers pending until read. */
static void retire_writes(const gpurf_dataflow_inst *d, const gpurf_regset *def, gpurf_regset *pend) {
  for (int w = 0; w < 4; w++) pend->w[w] &= ~def->w[w];
  if (d->latency == GPURF_TRACE_LAT_LONG) df_rs_or(pend, def);
}

/* Pending long-latency registers at each block's entry (pin) and exit
 * (pout). They flow forward; the sets only grow across iterations, so the
 * loop ends, and the bound on iterations is a guard. A block whose
 * predecessors disagree also starts a strand. */
static void propagate_pending(const gpurf_dataflow *df, uint8_t *start, gpurf_regset *pin,
                              gpurf_regset *pout) {
  size_t nb = df->nblocks;
  for (size_t iter = 0, changed = 1; changed && iter < 4 * nb + 8; iter++) {
    changed = 0;
    for (size_t b = 0; b < nb; b++) {
      gpurf_regset in;
      memset(&in, 0, sizeof in);
      int join = 0, npred = 0;
      gpurf_regset first;
      memset(&first, 0, sizeof first);
      for (uint32_t p = df->pred_off[b]; p < df->pred_off[b + 1]; p++) {
        const gpurf_regset *o = &pout[df->pred[p]];
        if (npred++ == 0) first = *o;
        else if (!df_rs_eq(o, &first)) join = 1;
        df_rs_or(&in, o);
      }
      if (join && !df_rs_empty(&in)) start[b] |= GPURF_STRAND_JOIN;
      if (start[b]) memset(&in, 0, sizeof in);
      df_rs_or(&in, &pin[b]);
      if (start[b]) memset(&in, 0, sizeof in);
      pin[b] = in;
      gpurf_regset pend = in;
      const gpurf_dataflow_block *B = &df->blocks[b];
      for (uint32_t i = B->first; i < B->first + B->count; i++) {
        gpurf_regset u, d;
        df_inst_sets(&df->insts[i], &u, &d);
        if (df_rs_any(&u, &pend)) memset(&pend, 0, sizeof pend);
        retire_writes(&df->insts[i], &d, &pend);
      }
      gpurf_regset out = pout[b];
      df_rs_or(&out, &pend);
      if (!df_rs_eq(&out, &pout[b])) {
        pout[b] = out;
        changed = 1;
      }
    }
  }
}

/* Strand numbers follow layout, so a strand's instructions are contiguous. */
static void number_strands(gpurf_dataflow *df, const uint8_t *start, const gpurf_regset *pin) {
  uint32_t strand = 0;
  int after_backward = 0;
  for (size_t b = 0; b < df->nblocks; b++) {
    const gpurf_dataflow_block *B = &df->blocks[b];
    gpurf_regset pend = pin[b];
    for (uint32_t i = B->first; i < B->first + B->count; i++) {
      gpurf_dataflow_inst *d = &df->insts[i];
      uint8_t why = 0;
      if (i == B->first) why |= start[b];
      if (after_backward) why |= GPURF_STRAND_AFTER_BACKWARD;
      after_backward = 0;
      gpurf_regset u, dd;
      df_inst_sets(d, &u, &dd);
      if (df_rs_any(&u, &pend)) why |= GPURF_STRAND_LONG_LATENCY;
      if (why) {
        memset(&pend, 0, sizeof pend);
        if (i > 0) {
          df->insts[i - 1].strand_end = 1;
          strand++;
        }
      }
      d->strand_start = why;
      d->strand = strand;
      retire_writes(d, &dd, &pend);
    }
    uint32_t last = B->first + B->count - 1;
    for (uint32_t e = df->succ_off[b]; e < df->succ_off[b + 1]; e++)
      if (df->blocks[df->succ[e]].start_pc <= df->insts[last].pc) after_backward = 1;
  }
  df->insts[df->n - 1].strand_end = 1;
  df->nstrands = (size_t)strand + 1;
}

int df_form_strands(gpurf_ctx *ctx, gpurf_dataflow *df) {
  size_t nb = df->nblocks;
  gpurf_regset *pin = calloc(nb, sizeof *pin), *pout = calloc(nb, sizeof *pout);
  uint8_t *start = calloc(nb, 1);
  if (!pin || !pout || !start) {
    free(pin), free(pout), free(start);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  }
  strand_block_starts(df, start);
  propagate_pending(df, start, pin, pout);
  number_strands(df, start, pin);
  free(pin), free(pout), free(start);
  return GPURF_OK;
}

/* ---- def-use chains ---- */

/* df->defs while it is being filled. */
typedef struct def_lists {
  size_t cap, cnt;
  size_t begin;   /* where the current operand's list starts */
  uint8_t *vis;   /* per block, for the backward walk */
  uint32_t *stk;
} def_lists;

/* An operand of several registers may reach the same write through more
 * than one of them; it is listed once. -1 when out of memory. */
static int push_def(gpurf_dataflow *df, def_lists *L, uint32_t def) {
  for (size_t z = L->begin; z < L->cnt; z++)
    if (df->defs[z] == def) return 0;
  if (L->cnt == L->cap) {
    uint32_t *p = realloc(df->defs, L->cap * 2 * sizeof *p);
    if (!p) return -1;
    df->defs = p;
    L->cap *= 2;
  }
  df->defs[L->cnt++] = def;
  return 0;
}

/* The last instruction in [first, end) that writes r, or -1. */
static int64_t last_write(const gpurf_dataflow *df, uint32_t first, uint32_t end, unsigned r) {
  for (uint32_t q = end; q-- > first;) {
    gpurf_regset u, dd;
    df_inst_sets(&df->insts[q], &u, &dd);
    if (gpurf_regset_has(&dd, r)) return q;
  }
  return -1;
}

/* Walks back from instruction i's read of r, first inside its own block,
 * then through predecessor blocks; a path ends at its first write of r. */
static int reaching_defs_of_reg(gpurf_dataflow *df, size_t i, unsigned r, def_lists *L) {
  uint32_t b = df->insts[i].block;
  int64_t q = last_write(df, df->blocks[b].first, (uint32_t)i, r);
  if (q >= 0) return push_def(df, L, (uint32_t)q);
  size_t sp = 0;
  memset(L->vis, 0, df->nblocks);
  for (uint32_t p = df->pred_off[b]; p < df->pred_off[b + 1]; p++)
    if (!L->vis[df->pred[p]]) L->vis[df->pred[p]] = 1, L->stk[sp++] = df->pred[p];
  while (sp) {
    uint32_t v = L->stk[--sp];
    const gpurf_dataflow_block *V = &df->blocks[v];
    q = last_write(df, V->first, V->first + V->count, r);
    if (q >= 0) {
      if (push_def(df, L, (uint32_t)q)) return -1;
      continue;
    }
    for (uint32_t p = df->pred_off[v]; p < df->pred_off[v + 1]; p++)
      if (!L->vis[df->pred[p]]) L->vis[df->pred[p]] = 1, L->stk[sp++] = df->pred[p];
  }
  return 0;
}

int df_find_reaching_defs(gpurf_ctx *ctx, gpurf_dataflow *df) {
  size_t n = df->n, slots = n * GPURF_TRACE_MAX_SRC;
  def_lists L = {.cap = 1024};
  df->defs_off = calloc(slots + 1, sizeof *df->defs_off);
  L.vis = malloc(df->nblocks);
  L.stk = malloc(df->nblocks * sizeof *L.stk);
  df->defs = malloc(L.cap * sizeof *df->defs);
  if (!df->defs_off || !L.vis || !L.stk || !df->defs) {
    free(L.vis), free(L.stk);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  }
  int rc = GPURF_OK;
  for (size_t i = 0; i < n && rc == GPURF_OK; i++) {
    const gpurf_dataflow_inst *d = &df->insts[i];
    for (unsigned s = 0; s < GPURF_TRACE_MAX_SRC && rc == GPURF_OK; s++) {
      df->defs_off[i * GPURF_TRACE_MAX_SRC + s] = (uint32_t)L.cnt;
      if (s >= d->n_src || d->src[s].reg == GPURF_TRACE_REG_ZERO) continue;
      L.begin = L.cnt;
      for (unsigned j = 0; j < d->src[s].width && rc == GPURF_OK; j++)
        if (reaching_defs_of_reg(df, i, d->src[s].reg + j, &L))
          rc = gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
    }
  }
  df->defs_off[slots] = (uint32_t)L.cnt;
  free(L.vis), free(L.stk);
  return rc;
}
