/* gpurf_dataflow_analyze: rebuilds basic blocks and the control-flow graph
 * from what gpurf_dataflow_add gathered, then runs the register analyses
 * over them. Each phase reads what the earlier ones left in df, so the order
 * in gpurf_dataflow_analyze, at the end of this file, matters. */
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "trace/dataflow_internal.h"

/* Edge lists handed from phase to phase; freed when the analysis ends. */
typedef struct df_work {
  uint32_t *ef, *et; /* executed instruction edges, by index in PC order */
  size_t m;
  uint32_t *bf, *bt; /* block edges, the CSR graphs' source */
  size_t bm;
} df_work;

static int nomem(gpurf_ctx *ctx) { return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory"); }

static int is_jump(const char *op) {
  static const char *const j[] = {"BRA", "BRX", "JMP", "JMX", "RET", "EXIT", "CALL", "CAL",
                                  "JCAL", "BRK", "CONT", "SYNC", "KILL", "BREAK", "PRET", "PEXIT"};
  size_t n = strcspn(op, ".");
  for (size_t i = 0; i < sizeof j / sizeof j[0]; i++)
    if (strlen(j[i]) == n && memcmp(op, j[i], n) == 0) return 1;
  return 0;
}

/* ---- blocks and the control-flow graph ---- */

/* Intake numbers instructions in the order the trace first ran them; blocks,
 * fall-throughs and backward branches are all defined by layout. */
static int order_by_pc(gpurf_ctx *ctx, gpurf_dataflow *df, df_work *w) {
  size_t m = df->ecount;
  uint32_t *old2new = malloc(df->n * sizeof *old2new);
  w->ef = malloc((m ? m : 1) * sizeof *w->ef);
  w->et = malloc((m ? m : 1) * sizeof *w->et);
  int ok = old2new && w->ef && w->et && df_sort_by_pc(df, old2new) == 0;
  if (ok) {
    df_edge_list(df, old2new, w->ef, w->et);
    w->m = m;
  }
  free(old2new);
  return ok ? GPURF_OK : nomem(ctx);
}

static int find_basic_blocks(gpurf_ctx *ctx, gpurf_dataflow *df, const df_work *w) {
  size_t n = df->n;
  uint8_t *leader = calloc(n + 1, 1);
  if (!leader) return nomem(ctx);
  /* Control enters mid-layout where a warp started, after a jump, and at the
   * target of an executed edge that is not a fall-through; the source of
   * such an edge must end its block. */
  leader[0] = 1;
  for (size_t i = 0; i < n; i++) {
    if (df->extra[i].entry) leader[i] = 1;
    if (is_jump(df->insts[i].opcode) && i + 1 < n) leader[i + 1] = 1;
  }
  for (size_t e = 0; e < w->m; e++)
    if (w->et[e] != w->ef[e] + 1) {
      leader[w->et[e]] = 1;
      if (w->ef[e] + 1 < n) leader[w->ef[e] + 1] = 1;
    }
  size_t nb = 0;
  for (size_t i = 0; i < n; i++) nb += leader[i];
  df->blocks = calloc(nb, sizeof *df->blocks);
  if (!df->blocks) {
    free(leader);
    return nomem(ctx);
  }
  df->nblocks = nb;
  for (size_t i = 0, b = 0; i < n; i++) {
    if (leader[i] && i > 0) b++;
    if (leader[i]) {
      df->blocks[b].first = (uint32_t)i;
      df->blocks[b].start_pc = df->insts[i].pc;
      df->blocks[b].reconv = -1;
    }
    df->blocks[b].count++;
    df->insts[i].block = (uint32_t)b;
  }
  free(leader);
  return GPURF_OK;
}

/* Block edges: the executed edges that cross blocks, and the fall-through of
 * every block not ending in a jump, which exists even when no warp took it. */
static int build_cfg(gpurf_ctx *ctx, gpurf_dataflow *df, df_work *w) {
  size_t nb = df->nblocks, bm = 0;
  w->bf = malloc((w->m + nb + 1) * sizeof *w->bf);
  w->bt = malloc((w->m + nb + 1) * sizeof *w->bt);
  if (!w->bf || !w->bt) return nomem(ctx);
  for (size_t e = 0; e < w->m; e++) {
    uint32_t a = df->insts[w->ef[e]].block, b = df->insts[w->et[e]].block;
    if (w->ef[e] != df->blocks[a].first + df->blocks[a].count - 1) continue; /* inside a block */
    if (w->et[e] != df->blocks[b].first) continue;
    w->bf[bm] = a, w->bt[bm] = b, bm++;
  }
  for (size_t b = 0; b + 1 < nb; b++) {
    uint32_t last = df->blocks[b].first + df->blocks[b].count - 1;
    if (!is_jump(df->insts[last].opcode)) w->bf[bm] = (uint32_t)b, w->bt[bm] = (uint32_t)b + 1, bm++;
  }
  w->bm = df_dedup_edges(w->bf, w->bt, bm); /* a fall-through may also have been executed */
  if (df_build_csr(nb, w->bf, w->bt, w->bm, &df->succ_off, &df->succ) ||
      df_build_csr(nb, w->bt, w->bf, w->bm, &df->pred_off, &df->pred))
    return nomem(ctx);
  return GPURF_OK;
}

/* ---- liveness and last uses ---- */

static int compute_liveness(gpurf_ctx *ctx, gpurf_dataflow *df) {
  size_t nb = df->nblocks;
  gpurf_regset *use = calloc(nb, sizeof *use), *def = calloc(nb, sizeof *def);
  if (!use || !def) {
    free(use), free(def);
    return nomem(ctx);
  }
  for (size_t b = 0; b < nb; b++) {
    gpurf_regset live;
    memset(&live, 0, sizeof live);
    const gpurf_dataflow_block *B = &df->blocks[b];
    for (uint32_t i = B->first + B->count; i-- > B->first;) {
      gpurf_regset u, d;
      df_inst_sets(&df->insts[i], &u, &d);
      df_rs_or(&def[b], &d);
      df_step_back(&df->insts[i], &live);
    }
    use[b] = live;
  }
  /* Backward problem: visiting blocks last to first lets most successors,
   * which lie later in layout, settle before their predecessors read them. */
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t b = nb; b-- > 0;) {
      gpurf_dataflow_block *B = &df->blocks[b];
      gpurf_regset out;
      memset(&out, 0, sizeof out);
      for (uint32_t e = df->succ_off[b]; e < df->succ_off[b + 1]; e++)
        df_rs_or(&out, &df->blocks[df->succ[e]].live_in);
      gpurf_regset in;
      for (int i = 0; i < 4; i++) in.w[i] = use[b].w[i] | (out.w[i] & ~def[b].w[i]);
      if (!df_rs_eq(&in, &B->live_in) || !df_rs_eq(&out, &B->live_out)) {
        B->live_in = in;
        B->live_out = out;
        changed = 1;
      }
    }
  }
  free(use);
  free(def);
  return GPURF_OK;
}

/* One backward walk per block gives each instruction its live-out set and,
 * from it, its release flags. */
static void mark_last_uses(gpurf_dataflow *df) {
  for (size_t b = 0; b < df->nblocks; b++) {
    const gpurf_dataflow_block *B = &df->blocks[b];
    gpurf_regset live = B->live_out;
    for (uint32_t i = B->first + B->count; i-- > B->first;) {
      gpurf_dataflow_inst *d = &df->insts[i];
      d->live_out = live;
      gpurf_regset u, dd;
      df_inst_sets(d, &u, &dd);
      /* Last use: every register of the operand is dead after the read,
       * or overwritten by this instruction; a register read by two slots
       * is flagged on the later one. */
      gpurf_regset flagged;
      memset(&flagged, 0, sizeof flagged);
      d->last_use = 0;
      for (unsigned s = d->n_src; s-- > 0;) {
        const gpurf_trace_operand *o = &d->src[s];
        if (o->reg == GPURF_TRACE_REG_ZERO) continue;
        int dead = 1;
        for (unsigned j = 0; j < o->width; j++) {
          unsigned r = o->reg + j;
          if ((gpurf_regset_has(&live, r) && !gpurf_regset_has(&dd, r)) ||
              gpurf_regset_has(&flagged, r))
            dead = 0;
        }
        if (dead) {
          d->last_use |= (uint8_t)(1u << s);
          df_rs_add_op(&flagged, o);
        }
      }
      df_step_back(d, &live);
    }
  }
}

/* ---- reconvergence points ---- */

/* Registers live out of branch block b that die before its reconvergence
 * point are released there, not at their last read inside a path: lanes on
 * the other path may still read them. So their per-instruction flags are
 * cleared in every block between b and the reconvergence point. */
static void clear_flags_in_region(gpurf_dataflow *df, size_t b, df_domtree *t) {
  const gpurf_dataflow_block *B = &df->blocks[b];
  const gpurf_regset L = B->live_out;
  int32_t *stack = t->stack;
  uint8_t *seen = t->seen;
  size_t sp = 0;
  for (size_t q = 0; q < df->nblocks; q++) seen[q] = 0;
  for (uint32_t e = df->succ_off[b]; e < df->succ_off[b + 1]; e++) {
    uint32_t s = df->succ[e];
    if ((int64_t)s != B->reconv && !seen[s]) seen[s] = 1, stack[sp++] = (int32_t)s;
  }
  while (sp) {
    int32_t v = stack[--sp];
    const gpurf_dataflow_block *V = &df->blocks[v];
    for (uint32_t i = V->first; i < V->first + V->count; i++) {
      gpurf_dataflow_inst *d = &df->insts[i];
      for (unsigned s = 0; s < d->n_src; s++) {
        const gpurf_trace_operand *o = &d->src[s];
        if (!(d->last_use >> s & 1)) continue;
        for (unsigned j = 0; j < o->width; j++)
          if (gpurf_regset_has(&L, o->reg + j)) d->last_use &= (uint8_t)~(1u << s);
      }
    }
    for (uint32_t e = df->succ_off[v]; e < df->succ_off[v + 1]; e++) {
      uint32_t s = df->succ[e];
      if ((int64_t)s != B->reconv && !seen[s]) seen[s] = 1, stack[sp++] = (int32_t)s;
    }
  }
}

/* A branch's paths reconverge at its immediate post-dominator; a branch
 * whose paths only meet at the kernel's exit has none. */
static int find_reconvergence(gpurf_ctx *ctx, gpurf_dataflow *df, const df_work *w) {
  size_t nb = df->nblocks;
  df_domtree t;
  if (df_domtree_alloc(&t, nb + 1) || df_postdominators(&t, nb, w->bf, w->bt, w->bm, df->succ_off)) {
    df_domtree_free(&t);
    return nomem(ctx);
  }
  for (size_t b = 0; b < nb; b++) {
    gpurf_dataflow_block *B = &df->blocks[b];
    if (df->succ_off[b + 1] - df->succ_off[b] < 2) continue;
    int32_t p = t.idom[b];
    B->reconv = (p >= 0 && (size_t)p < nb) ? p : -1;
    if (B->reconv >= 0) B->reconv_pc = df->blocks[B->reconv].start_pc;
    B->divergent = df->extra[B->first + B->count - 1].divergent;
    B->release_at_reconv = B->live_out;
    if (B->reconv >= 0) {
      const gpurf_regset *pin = &df->blocks[B->reconv].live_in;
      for (int i = 0; i < 4; i++) B->release_at_reconv.w[i] &= ~pin->w[i];
    }
    clear_flags_in_region(df, b, &t);
  }
  df_domtree_free(&t);
  return GPURF_OK;
}

/* ---- natural loops ---- */

/* Registers written in the body of the loop closed by the back edge
 * latch -> header. The body is every block that reaches the latch without
 * passing the header, so the walk follows predecessors from the latch. */
static void loop_body_defs(const gpurf_dataflow *df, uint32_t header, uint32_t latch, df_domtree *t,
                           gpurf_regset *defs) {
  int32_t *stack = t->stack;
  uint8_t *seen = t->seen;
  size_t sp = 0;
  memset(defs, 0, sizeof *defs);
  for (size_t q = 0; q < df->nblocks; q++) seen[q] = 0;
  seen[header] = 1;
  if (!seen[latch]) seen[latch] = 1, stack[sp++] = (int32_t)latch;
  while (sp) {
    int32_t v = stack[--sp];
    for (uint32_t p = df->pred_off[v]; p < df->pred_off[v + 1]; p++) {
      uint32_t u = df->pred[p];
      if (!seen[u]) seen[u] = 1, stack[sp++] = (int32_t)u;
    }
  }
  for (size_t q = 0; q < df->nblocks; q++) {
    if (!seen[q]) continue;
    const gpurf_dataflow_block *V = &df->blocks[q];
    for (uint32_t i = V->first; i < V->first + V->count; i++)
      for (unsigned s = 0; s < df->insts[i].n_dst; s++) df_rs_add_op(defs, &df->insts[i].dst[s]);
  }
}

/* A back edge is one whose target dominates its source; each closes a
 * natural loop. Only a register both live at the header and written in the
 * body carries a value from one iteration to the next. */
static int find_loops(gpurf_ctx *ctx, gpurf_dataflow *df) {
  size_t nb = df->nblocks, cap = 0;
  df_domtree t;
  if (df_domtree_alloc(&t, nb)) return nomem(ctx);
  if (df_dominators(&t, nb, 0, df->succ_off, df->succ, df->pred_off, df->pred)) {
    df_domtree_free(&t);
    return nomem(ctx);
  }
  for (size_t b = 0; b < nb; b++)
    for (uint32_t e = df->succ_off[b]; e < df->succ_off[b + 1]; e++) {
      uint32_t h = df->succ[e];
      if (t.order[b] < 0 || t.order[h] < 0 || !df_dominates(t.idom, (int32_t)h, (int32_t)b)) continue;
      if (df->nloops == cap) {
        cap = cap ? cap * 2 : 8;
        gpurf_dataflow_loop *p = realloc(df->loops, cap * sizeof *p);
        if (!p) {
          df_domtree_free(&t);
          return nomem(ctx);
        }
        df->loops = p;
      }
      gpurf_dataflow_loop *L = &df->loops[df->nloops++];
      L->header = h;
      L->latch = (uint32_t)b;
      df->blocks[h].loop_header = 1;
      gpurf_regset defs;
      loop_body_defs(df, h, (uint32_t)b, &t, &defs);
      for (int i = 0; i < 4; i++) L->carried.w[i] = df->blocks[h].live_in.w[i] & defs.w[i];
    }
  df_domtree_free(&t);
  return GPURF_OK;
}

/* ---- the analysis ---- */

int gpurf_dataflow_analyze(gpurf_ctx *ctx, gpurf_dataflow *df) {
  if (df->analyzed) return gpurf_fail(ctx, GPURF_EINVAL, "dataflow already analysed");
  df->analyzed = 1;
  if (df->n == 0) return GPURF_OK;
  df_work w;
  memset(&w, 0, sizeof w);
  int rc = order_by_pc(ctx, df, &w);
  if (rc == GPURF_OK) rc = find_basic_blocks(ctx, df, &w);
  if (rc == GPURF_OK) rc = build_cfg(ctx, df, &w);
  if (rc == GPURF_OK) rc = compute_liveness(ctx, df);
  if (rc == GPURF_OK) mark_last_uses(df);
  /* After the last uses: it withdraws some of their flags. */
  if (rc == GPURF_OK) rc = find_reconvergence(ctx, df, &w);
  if (rc == GPURF_OK) rc = find_loops(ctx, df);
  if (rc == GPURF_OK) rc = df_form_strands(ctx, df);
  if (rc == GPURF_OK) rc = df_find_reaching_defs(ctx, df);
  free(w.ef), free(w.et), free(w.bf), free(w.bt);
  return rc;
}
