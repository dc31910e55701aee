/* Register dataflow over the static program rebuilt from a trace. */
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "gpurf/dataflow.h"

#define EMPTY UINT64_MAX

typedef struct df_extra {
  uint8_t entry;     /* some warp started here */
  uint8_t divergent; /* branch taken by a proper subset of the previous lanes */
} df_extra;

struct gpurf_dataflow {
  int have_kernel, analyzed;
  uint32_t kernel;
  gpurf_dataflow_inst *insts;
  df_extra *extra;
  size_t n, cap;
  uint64_t *hkeys; /* pc -> instruction index */
  uint32_t *hvals;
  size_t hcap, hcount;
  uint64_t *edges; /* from << 32 | to */
  size_t ecap, ecount;
  int have_prev;
  uint32_t prev_cta[3], prev_warp, prev_idx, prev_mask, prev_active;
  /* Lanes that left a divergent branch on the path not followed first; the
   * next instruction they execute is that path's target. */
  struct { uint32_t idx, lanes; } pend[32];
  int npend;
  /* results */
  gpurf_dataflow_block *blocks;
  size_t nblocks;
  uint32_t *succ, *succ_off; /* CSR */
  uint32_t *pred, *pred_off;
  gpurf_dataflow_loop *loops;
  size_t nloops;
  uint32_t *defs, *defs_off; /* per (inst, slot): inst * MAX_SRC + slot */
  size_t nstrands;
};

static uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

int gpurf_dataflow_alloc(gpurf_ctx *ctx, gpurf_dataflow **out) {
  *out = calloc(1, sizeof **out);
  if (!*out) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  return GPURF_OK;
}

void gpurf_dataflow_free(gpurf_dataflow *df) {
  if (!df) return;
  free(df->insts);
  free(df->extra);
  free(df->hkeys);
  free(df->hvals);
  free(df->edges);
  free(df->blocks);
  free(df->succ);
  free(df->succ_off);
  free(df->pred);
  free(df->pred_off);
  free(df->loops);
  free(df->defs);
  free(df->defs_off);
  free(df);
}

static int pc_rehash(gpurf_dataflow *df, size_t cap) {
  uint64_t *k = malloc(cap * sizeof *k);
  uint32_t *v = malloc(cap * sizeof *v);
  if (!k || !v) {
    free(k);
    free(v);
    return -1;
  }
  for (size_t i = 0; i < cap; i++) k[i] = EMPTY;
  for (size_t i = 0; i < df->hcap; i++) {
    if (df->hkeys[i] == EMPTY) continue;
    size_t j = mix64(df->hkeys[i]) & (cap - 1);
    while (k[j] != EMPTY) j = (j + 1) & (cap - 1);
    k[j] = df->hkeys[i];
    v[j] = df->hvals[i];
  }
  free(df->hkeys);
  free(df->hvals);
  df->hkeys = k;
  df->hvals = v;
  df->hcap = cap;
  return 0;
}

static long pc_find(const gpurf_dataflow *df, uint64_t pc) {
  if (!df->hcap || pc == EMPTY) return -1;
  size_t j = mix64(pc) & (df->hcap - 1);
  while (df->hkeys[j] != EMPTY) {
    if (df->hkeys[j] == pc) return (long)df->hvals[j];
    j = (j + 1) & (df->hcap - 1);
  }
  return -1;
}

static int edge_add(gpurf_dataflow *df, uint32_t from, uint32_t to) {
  uint64_t key = (uint64_t)from << 32 | to;
  if ((df->ecount + 1) * 2 > df->ecap) {
    size_t cap = df->ecap ? df->ecap * 2 : 256;
    uint64_t *e = malloc(cap * sizeof *e);
    if (!e) return -1;
    for (size_t i = 0; i < cap; i++) e[i] = EMPTY;
    for (size_t i = 0; i < df->ecap; i++) {
      if (df->edges[i] == EMPTY) continue;
      size_t j = mix64(df->edges[i]) & (cap - 1);
      while (e[j] != EMPTY) j = (j + 1) & (cap - 1);
      e[j] = df->edges[i];
    }
    free(df->edges);
    df->edges = e;
    df->ecap = cap;
  }
  size_t j = mix64(key) & (df->ecap - 1);
  while (df->edges[j] != EMPTY) {
    if (df->edges[j] == key) return 0;
    j = (j + 1) & (df->ecap - 1);
  }
  df->edges[j] = key;
  df->ecount++;
  return 0;
}

static int same_inst(const gpurf_dataflow_inst *a, const gpurf_trace_inst *b) {
  if (strcmp(a->opcode, b->opcode) != 0 || a->n_dst != b->n_dst || a->n_src != b->n_src) return 0;
  for (unsigned i = 0; i < a->n_dst; i++)
    if (a->dst[i].reg != b->dst[i].reg || a->dst[i].width != b->dst[i].width) return 0;
  for (unsigned i = 0; i < a->n_src; i++)
    if (a->src[i].reg != b->src[i].reg || a->src[i].width != b->src[i].width) return 0;
  return 1;
}

int gpurf_dataflow_add(gpurf_ctx *ctx, gpurf_dataflow *df, const gpurf_trace_inst *inst) {
  if (df->analyzed) return gpurf_fail(ctx, GPURF_EINVAL, "dataflow already analysed");
  if (!df->have_kernel) {
    df->have_kernel = 1;
    df->kernel = inst->kernel;
  } else if (inst->kernel != df->kernel) {
    return gpurf_fail(ctx, GPURF_EINVAL, "records of kernel %u given to the analysis of kernel %u",
                      inst->kernel, df->kernel);
  }
  if (inst->pc == EMPTY) return gpurf_fail(ctx, GPURF_ERANGE, "PC out of range");
  long idx = pc_find(df, inst->pc);
  if (idx < 0) {
    if (df->n >= UINT32_MAX - 1) return gpurf_fail(ctx, GPURF_ENOMEM, "too many instructions");
    if (df->n == df->cap) {
      size_t cap = df->cap ? df->cap * 2 : 256;
      gpurf_dataflow_inst *p = realloc(df->insts, cap * sizeof *p);
      if (!p) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
      df->insts = p;
      df_extra *x = realloc(df->extra, cap * sizeof *x);
      if (!x) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
      df->extra = x;
      df->cap = cap;
    }
    if ((df->hcount + 1) * 2 > df->hcap && pc_rehash(df, df->hcap ? df->hcap * 2 : 512))
      return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
    gpurf_dataflow_inst *d = &df->insts[df->n];
    memset(d, 0, sizeof *d);
    memset(&df->extra[df->n], 0, sizeof df->extra[0]);
    d->pc = inst->pc;
    memcpy(d->opcode, inst->opcode, sizeof d->opcode);
    d->op_class = inst->op_class;
    d->latency = inst->latency;
    d->n_dst = inst->n_dst;
    d->n_src = inst->n_src;
    memcpy(d->dst, inst->dst, sizeof d->dst);
    memcpy(d->src, inst->src, sizeof d->src);
    size_t j = mix64(inst->pc) & (df->hcap - 1);
    while (df->hkeys[j] != EMPTY) j = (j + 1) & (df->hcap - 1);
    df->hkeys[j] = inst->pc;
    df->hvals[j] = (uint32_t)df->n;
    df->hcount++;
    idx = (long)df->n++;
  } else if (!same_inst(&df->insts[idx], inst)) {
    return gpurf_fail(ctx, GPURF_EPARSE, "PC %llx holds two different instructions (%s and %s)",
                      (unsigned long long)inst->pc, df->insts[idx].opcode, inst->opcode);
  }
  df->insts[idx].executions++;
  int same_warp = df->have_prev && inst->warp == df->prev_warp &&
                  memcmp(inst->cta, df->prev_cta, sizeof df->prev_cta) == 0;
  if (same_warp) {
    /* A trace interleaves the paths of a divergent warp, so adjacency alone
     * would invent edges; lane masks tell which lanes moved where. */
    const gpurf_dataflow_inst *pa = &df->insts[df->prev_idx];
    uint32_t T = df->prev_mask, A = df->prev_active, N = A & ~T;
    int add = 1, push = 0;
    uint32_t push_lanes = 0;
    if (pa->op_class == GPURF_TRACE_CLASS_BRANCH && T != 0 && (T & A) != A) {
      if (inst->mask & N) push = 1, push_lanes = T;
      else if (inst->mask & T) push = 1, push_lanes = N;
      else add = 0;
    }
    if (add && edge_add(df, df->prev_idx, (uint32_t)idx)) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
    for (int q = df->npend; q-- > 0;) {
      if (!(df->pend[q].lanes & inst->mask)) continue;
      if (edge_add(df, df->pend[q].idx, (uint32_t)idx)) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
      df->pend[q] = df->pend[--df->npend];
    }
    if (push && push_lanes) {
      if (df->npend == 32) {
        memmove(df->pend, df->pend + 1, 31 * sizeof df->pend[0]);
        df->npend--;
      }
      df->pend[df->npend].idx = df->prev_idx;
      df->pend[df->npend].lanes = push_lanes;
      df->npend++;
    }
    if (inst->op_class == GPURF_TRACE_CLASS_BRANCH && inst->mask != 0 &&
        (inst->mask & df->prev_active) != df->prev_active)
      df->extra[idx].divergent = 1;
  } else {
    df->extra[idx].entry = 1;
    df->npend = 0;
    df->prev_active = 0xffffffffu;
  }
  if (inst->op_class != GPURF_TRACE_CLASS_BRANCH && inst->mask != 0) df->prev_active = inst->mask;
  df->have_prev = 1;
  memcpy(df->prev_cta, inst->cta, sizeof df->prev_cta);
  df->prev_warp = inst->warp;
  df->prev_idx = (uint32_t)idx;
  df->prev_mask = inst->mask;
  return GPURF_OK;
}

/* ---- register sets ---- */

static void rs_add(gpurf_regset *s, unsigned r) {
  if (r < GPURF_TRACE_NUM_REGS) s->w[r >> 6] |= 1ULL << (r & 63);
}
static void rs_add_op(gpurf_regset *s, const gpurf_trace_operand *o) {
  if (o->reg == GPURF_TRACE_REG_ZERO) return;
  for (unsigned j = 0; j < o->width; j++) rs_add(s, o->reg + j);
}
static void rs_or(gpurf_regset *a, const gpurf_regset *b) {
  for (int i = 0; i < 4; i++) a->w[i] |= b->w[i];
}
static int rs_eq(const gpurf_regset *a, const gpurf_regset *b) {
  return memcmp(a, b, sizeof *a) == 0;
}
static int rs_any(const gpurf_regset *a, const gpurf_regset *b) {
  for (int i = 0; i < 4; i++)
    if (a->w[i] & b->w[i]) return 1;
  return 0;
}
static int rs_empty(const gpurf_regset *a) { return !(a->w[0] | a->w[1] | a->w[2] | a->w[3]); }

static void inst_sets(const gpurf_dataflow_inst *d, gpurf_regset *use, gpurf_regset *def) {
  memset(use, 0, sizeof *use);
  memset(def, 0, sizeof *def);
  for (unsigned i = 0; i < d->n_src; i++) rs_add_op(use, &d->src[i]);
  for (unsigned i = 0; i < d->n_dst; i++) rs_add_op(def, &d->dst[i]);
}

/* Live before d, given live after it. */
static void step_back(const gpurf_dataflow_inst *d, gpurf_regset *live) {
  gpurf_regset use, def;
  inst_sets(d, &use, &def);
  for (int i = 0; i < 4; i++) live->w[i] = (live->w[i] & ~def.w[i]) | use.w[i];
}

static int is_jump(const char *op) {
  static const char *const j[] = {"BRA", "BRX", "JMP", "JMX", "RET", "EXIT", "CALL", "CAL",
                                  "JCAL", "BRK", "CONT", "SYNC", "KILL", "BREAK", "PRET", "PEXIT"};
  size_t n = strcspn(op, ".");
  for (size_t i = 0; i < sizeof j / sizeof j[0]; i++)
    if (strlen(j[i]) == n && memcmp(op, j[i], n) == 0) return 1;
  return 0;
}

static int cmp_pc(const void *a, const void *b, const gpurf_dataflow *df) {
  uint64_t x = df->insts[*(const uint32_t *)a].pc, y = df->insts[*(const uint32_t *)b].pc;
  return x < y ? -1 : x > y;
}

/* qsort has no context argument in C11: a small merge sort instead. */
static void sort_idx(uint32_t *v, uint32_t *tmp, size_t n, const gpurf_dataflow *df) {
  if (n < 2) return;
  size_t h = n / 2;
  sort_idx(v, tmp, h, df);
  sort_idx(v + h, tmp, n - h, df);
  size_t i = 0, j = h, k = 0;
  while (i < h && j < n) tmp[k++] = cmp_pc(&v[j], &v[i], df) < 0 ? v[j++] : v[i++];
  while (i < h) tmp[k++] = v[i++];
  while (j < n) tmp[k++] = v[j++];
  memcpy(v, tmp, n * sizeof *v);
}

/* Cooper, Harvey and Kennedy's iterative dominators over a CSR graph whose
 * nodes are numbered so that rpo[] lists them in reverse postorder. */
static int intersect(const int32_t *idom, const int32_t *order, int32_t a, int32_t b) {
  while (a != b) {
    while (order[a] > order[b]) a = idom[a];
    while (order[b] > order[a]) b = idom[b];
  }
  return a;
}

static void dominators(size_t n, int32_t root, const uint32_t *off, const uint32_t *adj,
                       const uint32_t *poff, const uint32_t *padj, int32_t *idom, int32_t *order,
                       int32_t *rpo, int32_t *stack, uint8_t *seen) {
  /* DFS postorder from root over adj */
  size_t nrpo = 0, sp = 0;
  uint32_t *it = (uint32_t *)calloc(n, sizeof *it);
  for (size_t i = 0; i < n; i++) {
    idom[i] = -1;
    order[i] = -1;
    seen[i] = 0;
  }
  if (!it) return;
  stack[sp++] = root;
  seen[root] = 1;
  int32_t *post = rpo; /* filled in postorder, reversed below */
  while (sp) {
    int32_t v = stack[sp - 1];
    if (it[v] < off[v + 1] - off[v]) {
      int32_t w = (int32_t)adj[off[v] + it[v]++];
      if (!seen[w]) {
        seen[w] = 1;
        stack[sp++] = w;
      }
    } else {
      post[nrpo++] = v;
      sp--;
    }
  }
  free(it);
  for (size_t i = 0; i < nrpo / 2; i++) {
    int32_t t = rpo[i];
    rpo[i] = rpo[nrpo - 1 - i];
    rpo[nrpo - 1 - i] = t;
  }
  for (size_t i = 0; i < nrpo; i++) order[rpo[i]] = (int32_t)i;
  idom[root] = root;
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t k = 1; k < nrpo; k++) {
      int32_t b = rpo[k], nd = -1;
      for (uint32_t e = poff[b]; e < poff[b + 1]; e++) {
        int32_t p = (int32_t)padj[e];
        if (order[p] < 0 || idom[p] < 0) continue;
        nd = nd < 0 ? p : intersect(idom, order, p, nd);
      }
      if (nd >= 0 && idom[b] != nd) {
        idom[b] = nd;
        changed = 1;
      }
    }
  }
}

static int dominates(const int32_t *idom, int32_t a, int32_t b) {
  for (int guard = 0; b >= 0 && guard < 1 << 30; guard++) {
    if (a == b) return 1;
    if (idom[b] == b) return 0;
    b = idom[b];
  }
  return 0;
}

/* Builds CSR adjacency from an edge list. */
static int build_csr(size_t n, const uint32_t *from, const uint32_t *to, size_t m, uint32_t **off_out,
                     uint32_t **adj_out) {
  uint32_t *off = calloc(n + 1, sizeof *off), *adj = malloc((m ? m : 1) * sizeof *adj);
  if (!off || !adj) {
    free(off);
    free(adj);
    return -1;
  }
  for (size_t e = 0; e < m; e++) off[from[e] + 1]++;
  for (size_t i = 0; i < n; i++) off[i + 1] += off[i];
  uint32_t *pos = malloc((n + 1) * sizeof *pos);
  if (!pos) {
    free(off);
    free(adj);
    return -1;
  }
  memcpy(pos, off, (n + 1) * sizeof *pos);
  for (size_t e = 0; e < m; e++) adj[pos[from[e]]++] = to[e];
  free(pos);
  *off_out = off;
  *adj_out = adj;
  return 0;
}

#define NOMEM() gpurf_fail(ctx, GPURF_ENOMEM, "out of memory")

int gpurf_dataflow_analyze(gpurf_ctx *ctx, gpurf_dataflow *df) {
  if (df->analyzed) return gpurf_fail(ctx, GPURF_EINVAL, "dataflow already analysed");
  df->analyzed = 1;
  size_t n = df->n;
  if (n == 0) return GPURF_OK;
  int rc = GPURF_OK;
  uint32_t *perm = malloc(n * sizeof *perm), *tmp = malloc(n * sizeof *tmp);
  uint32_t *old2new = malloc(n * sizeof *old2new);
  if (!perm || !tmp || !old2new) {
    free(perm), free(tmp), free(old2new);
    return NOMEM();
  }
  for (size_t i = 0; i < n; i++) perm[i] = (uint32_t)i;
  sort_idx(perm, tmp, n, df);
  gpurf_dataflow_inst *si = malloc(n * sizeof *si);
  df_extra *sx = malloc(n * sizeof *sx);
  if (!si || !sx) {
    free(perm), free(tmp), free(old2new), free(si), free(sx);
    return NOMEM();
  }
  for (size_t i = 0; i < n; i++) {
    si[i] = df->insts[perm[i]];
    sx[i] = df->extra[perm[i]];
    old2new[perm[i]] = (uint32_t)i;
  }
  free(df->insts);
  free(df->extra);
  df->insts = si;
  df->extra = sx;
  for (size_t i = 0; i < df->hcap; i++)
    if (df->hkeys[i] != EMPTY) df->hvals[i] = old2new[df->hvals[i]];
  /* Edges in new numbering; leaders. */
  size_t m = df->ecount;
  uint32_t *ef = malloc((m ? m : 1) * sizeof *ef), *et = malloc((m ? m : 1) * sizeof *et);
  uint8_t *leader = calloc(n + 1, 1);
  if (!ef || !et || !leader) {
    free(perm), free(tmp), free(old2new), free(ef), free(et), free(leader);
    return NOMEM();
  }
  size_t k = 0;
  for (size_t i = 0; i < df->ecap; i++) {
    if (df->edges[i] == EMPTY) continue;
    ef[k] = old2new[df->edges[i] >> 32];
    et[k] = old2new[df->edges[i] & 0xffffffffu];
    k++;
  }
  leader[0] = 1;
  for (size_t i = 0; i < n; i++) {
    if (df->extra[i].entry) leader[i] = 1;
    if (is_jump(df->insts[i].opcode) && i + 1 < n) leader[i + 1] = 1;
  }
  for (size_t e = 0; e < m; e++)
    if (et[e] != ef[e] + 1) {
      leader[et[e]] = 1;
      if (ef[e] + 1 < n) leader[ef[e] + 1] = 1;
    }
  /* Blocks. */
  size_t nb = 0;
  for (size_t i = 0; i < n; i++) nb += leader[i];
  df->blocks = calloc(nb, sizeof *df->blocks);
  uint32_t *blk = malloc(n * sizeof *blk);
  if (!df->blocks || !blk) {
    free(perm), free(tmp), free(old2new), free(ef), free(et), free(leader), free(blk);
    return NOMEM();
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
    blk[i] = (uint32_t)b;
    df->insts[i].block = (uint32_t)b;
  }
  /* Block edges: observed inter-block edges, and the fall-through of a block
   * that ends in a non-jump. */
  uint32_t *bf = malloc((m + nb + 1) * sizeof *bf), *bt = malloc((m + nb + 1) * sizeof *bt);
  if (!bf || !bt) {
    rc = NOMEM();
    goto done;
  }
  size_t bm = 0;
  for (size_t e = 0; e < m; e++) {
    uint32_t a = blk[ef[e]], b = blk[et[e]];
    if (ef[e] != df->blocks[a].first + df->blocks[a].count - 1) continue; /* inside a block */
    if (et[e] != df->blocks[b].first) continue;
    bf[bm] = a, bt[bm] = b, bm++;
  }
  for (size_t b = 0; b + 1 < nb; b++) {
    uint32_t last = df->blocks[b].first + df->blocks[b].count - 1;
    if (!is_jump(df->insts[last].opcode)) bf[bm] = (uint32_t)b, bt[bm] = (uint32_t)b + 1, bm++;
  }
  /* Deduplicate (the fall-through may also have been observed). */
  {
    size_t w = 0;
    for (size_t e = 0; e < bm; e++) {
      int dup = 0;
      for (size_t q = 0; q < w && !dup; q++) dup = bf[q] == bf[e] && bt[q] == bt[e];
      if (!dup) bf[w] = bf[e], bt[w] = bt[e], w++;
      if (w > 4096 && e > w) { /* large graphs: skip the quadratic check past here */
        for (size_t r = e + 1; r < bm; r++) bf[w] = bf[r], bt[w] = bt[r], w++;
        break;
      }
    }
    bm = w;
  }
  if (build_csr(nb, bf, bt, bm, &df->succ_off, &df->succ) ||
      build_csr(nb, bt, bf, bm, &df->pred_off, &df->pred)) {
    rc = NOMEM();
    goto done;
  }
  /* Liveness. */
  {
    gpurf_regset *use = calloc(nb, sizeof *use), *def = calloc(nb, sizeof *def);
    if (!use || !def) {
      free(use), free(def);
      rc = NOMEM();
      goto done;
    }
    for (size_t b = 0; b < nb; b++) {
      gpurf_regset live;
      memset(&live, 0, sizeof live);
      const gpurf_dataflow_block *B = &df->blocks[b];
      for (uint32_t i = B->first + B->count; i-- > B->first;) {
        gpurf_regset u, d;
        inst_sets(&df->insts[i], &u, &d);
        rs_or(&def[b], &d);
        step_back(&df->insts[i], &live);
      }
      use[b] = live;
    }
    for (int changed = 1; changed;) {
      changed = 0;
      for (size_t b = nb; b-- > 0;) {
        gpurf_dataflow_block *B = &df->blocks[b];
        gpurf_regset out;
        memset(&out, 0, sizeof out);
        for (uint32_t e = df->succ_off[b]; e < df->succ_off[b + 1]; e++)
          rs_or(&out, &df->blocks[df->succ[e]].live_in);
        gpurf_regset in;
        for (int i = 0; i < 4; i++) in.w[i] = use[b].w[i] | (out.w[i] & ~def[b].w[i]);
        if (!rs_eq(&in, &B->live_in) || !rs_eq(&out, &B->live_out)) {
          B->live_in = in;
          B->live_out = out;
          changed = 1;
        }
      }
    }
    free(use);
    free(def);
    for (size_t b = 0; b < nb; b++) {
      const gpurf_dataflow_block *B = &df->blocks[b];
      gpurf_regset live = B->live_out;
      for (uint32_t i = B->first + B->count; i-- > B->first;) {
        gpurf_dataflow_inst *d = &df->insts[i];
        d->live_out = live;
        gpurf_regset u, dd;
        inst_sets(d, &u, &dd);
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
            rs_add_op(&flagged, o);
          }
        }
        step_back(d, &live);
      }
    }
  }
  /* Post-dominators on the reversed graph with a virtual exit node nb. */
  {
    size_t N = nb + 1;
    size_t em = bm;
    uint32_t *rf = malloc((bm + nb + 1) * sizeof *rf), *rt = malloc((bm + nb + 1) * sizeof *rt);
    int32_t *idom = malloc(N * sizeof *idom), *order = malloc(N * sizeof *order);
    int32_t *rpo = malloc(N * sizeof *rpo), *stack = malloc(N * sizeof *stack);
    uint8_t *seen = malloc(N);
    uint32_t *roff = NULL, *radj = NULL, *rpoff = NULL, *rpadj = NULL;
    if (!rf || !rt || !idom || !order || !rpo || !stack || !seen) {
      rc = NOMEM();
    } else {
      for (size_t e = 0; e < bm; e++) rf[e] = bt[e], rt[e] = bf[e]; /* reversed */
      for (size_t b = 0; b < nb; b++)
        if (df->succ_off[b] == df->succ_off[b + 1]) rf[em] = (uint32_t)nb, rt[em] = (uint32_t)b, em++;
      if (build_csr(N, rf, rt, em, &roff, &radj) || build_csr(N, rt, rf, em, &rpoff, &rpadj)) {
        rc = NOMEM();
      } else {
        dominators(N, (int32_t)nb, roff, radj, rpoff, rpadj, idom, order, rpo, stack, seen);
        for (size_t b = 0; b < nb; b++) {
          gpurf_dataflow_block *B = &df->blocks[b];
          if (df->succ_off[b + 1] - df->succ_off[b] < 2) continue;
          int32_t p = idom[b];
          B->reconv = (p >= 0 && (size_t)p < nb) ? p : -1;
          if (B->reconv >= 0) B->reconv_pc = df->blocks[B->reconv].start_pc;
          uint32_t last = B->first + B->count - 1;
          B->divergent = df->extra[last].divergent;
          /* Registers live into the branch's paths that die before the
           * reconvergence point are released there, not at their last read
           * inside a path: lanes on the other path may still read them. */
          gpurf_regset L = B->live_out;
          B->release_at_reconv = L;
          if (B->reconv >= 0) {
            const gpurf_regset *pin = &df->blocks[B->reconv].live_in;
            for (int i = 0; i < 4; i++) B->release_at_reconv.w[i] &= ~pin->w[i];
          }
          /* Clear per-instruction flags of L inside the region. */
          size_t sp = 0;
          for (size_t q = 0; q < nb; q++) seen[q] = 0;
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
      }
    }
    /* Dominators from the entry block, for natural loops. */
    if (rc == GPURF_OK) {
      dominators(nb, 0, df->succ_off, df->succ, df->pred_off, df->pred, idom, order, rpo, stack, seen);
      size_t cap = 0;
      for (size_t b = 0; b < nb && rc == GPURF_OK; b++)
        for (uint32_t e = df->succ_off[b]; e < df->succ_off[b + 1]; e++) {
          uint32_t h = df->succ[e];
          if (order[b] < 0 || order[h] < 0 || !dominates(idom, (int32_t)h, (int32_t)b)) continue;
          if (df->nloops == cap) {
            cap = cap ? cap * 2 : 8;
            gpurf_dataflow_loop *p = realloc(df->loops, cap * sizeof *p);
            if (!p) {
              rc = NOMEM();
              break;
            }
            df->loops = p;
          }
          gpurf_dataflow_loop *L = &df->loops[df->nloops++];
          L->header = h;
          L->latch = (uint32_t)b;
          df->blocks[h].loop_header = 1;
          /* Body: blocks reaching the latch without passing the header. */
          gpurf_regset defs;
          memset(&defs, 0, sizeof defs);
          size_t sp = 0;
          for (size_t q = 0; q < nb; q++) seen[q] = 0;
          seen[h] = 1;
          if (!seen[b]) seen[b] = 1, stack[sp++] = (int32_t)b;
          while (sp) {
            int32_t v = stack[--sp];
            for (uint32_t p = df->pred_off[v]; p < df->pred_off[v + 1]; p++) {
              uint32_t u = df->pred[p];
              if (!seen[u]) seen[u] = 1, stack[sp++] = (int32_t)u;
            }
          }
          for (size_t q = 0; q < nb; q++) {
            if (!seen[q]) continue;
            const gpurf_dataflow_block *V = &df->blocks[q];
            for (uint32_t i = V->first; i < V->first + V->count; i++)
              for (unsigned s = 0; s < df->insts[i].n_dst; s++) rs_add_op(&defs, &df->insts[i].dst[s]);
          }
          for (int i = 0; i < 4; i++) L->carried.w[i] = df->blocks[h].live_in.w[i] & defs.w[i];
        }
    }
    free(rf), free(rt), free(idom), free(order), free(rpo), free(stack), free(seen);
    free(roff), free(radj), free(rpoff), free(rpadj);
    if (rc) goto done;
  }
  /* Strands. Pending long-latency registers flow forward; the sets only
   * grow across iterations, so the loop ends. */
  {
    gpurf_regset *pin = calloc(nb, sizeof *pin), *pout = calloc(nb, sizeof *pout);
    uint8_t *start = calloc(nb, 1);
    if (!pin || !pout || !start) {
      free(pin), free(pout), free(start);
      rc = NOMEM();
      goto done;
    }
    for (size_t b = 0; b < nb; b++) {
      if (b == 0 || df->extra[df->blocks[b].first].entry) start[b] |= GPURF_STRAND_ENTRY;
      for (uint32_t p = df->pred_off[b]; p < df->pred_off[b + 1]; p++) {
        uint32_t u = df->pred[p];
        uint32_t last = df->blocks[u].first + df->blocks[u].count - 1;
        if (df->insts[last].pc >= df->blocks[b].start_pc) start[b] |= GPURF_STRAND_BACKWARD_TARGET;
      }
    }
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
          else if (!rs_eq(o, &first)) join = 1;
          rs_or(&in, o);
        }
        if (join && !rs_empty(&in)) start[b] |= GPURF_STRAND_JOIN;
        if (start[b]) memset(&in, 0, sizeof in);
        rs_or(&in, &pin[b]);
        if (start[b]) memset(&in, 0, sizeof in);
        pin[b] = in;
        gpurf_regset pend = in;
        const gpurf_dataflow_block *B = &df->blocks[b];
        for (uint32_t i = B->first; i < B->first + B->count; i++) {
          gpurf_regset u, d;
          inst_sets(&df->insts[i], &u, &d);
          if (rs_any(&u, &pend)) memset(&pend, 0, sizeof pend);
          for (int w = 0; w < 4; w++) pend.w[w] &= ~d.w[w];
          if (df->insts[i].latency == GPURF_TRACE_LAT_LONG) rs_or(&pend, &d);
        }
        gpurf_regset out = pout[b];
        rs_or(&out, &pend);
        if (!rs_eq(&out, &pout[b])) {
          pout[b] = out;
          changed = 1;
        }
      }
    }
    /* Final pass in layout order assigns strand numbers. */
    uint32_t strand = 0;
    int after_backward = 0;
    for (size_t b = 0; b < nb; b++) {
      const gpurf_dataflow_block *B = &df->blocks[b];
      gpurf_regset pend = pin[b];
      for (uint32_t i = B->first; i < B->first + B->count; i++) {
        gpurf_dataflow_inst *d = &df->insts[i];
        uint8_t why = 0;
        if (i == B->first) why |= start[b];
        if (after_backward) why |= GPURF_STRAND_AFTER_BACKWARD;
        after_backward = 0;
        gpurf_regset u, dd;
        inst_sets(d, &u, &dd);
        if (rs_any(&u, &pend)) why |= GPURF_STRAND_LONG_LATENCY;
        if (why) {
          memset(&pend, 0, sizeof pend);
          if (i > 0) {
            df->insts[i - 1].strand_end = 1;
            strand++;
          }
        }
        d->strand_start = why;
        d->strand = strand;
        for (int w = 0; w < 4; w++) pend.w[w] &= ~dd.w[w];
        if (d->latency == GPURF_TRACE_LAT_LONG) rs_or(&pend, &dd);
      }
      uint32_t last = B->first + B->count - 1;
      for (uint32_t e = df->succ_off[b]; e < df->succ_off[b + 1]; e++)
        if (df->blocks[df->succ[e]].start_pc <= df->insts[last].pc) after_backward = 1;
    }
    df->insts[n - 1].strand_end = 1;
    df->nstrands = (size_t)strand + 1;
    free(pin), free(pout), free(start);
  }
  /* Def-use: walk back from each operand to the writes that reach it. */
  {
    size_t slots = n * GPURF_TRACE_MAX_SRC;
    df->defs_off = calloc(slots + 1, sizeof *df->defs_off);
    uint8_t *vis = malloc(nb);
    uint32_t *stk = malloc(nb * sizeof *stk);
    size_t cap = 1024, cnt = 0;
    df->defs = malloc(cap * sizeof *df->defs);
    if (!df->defs_off || !vis || !stk || !df->defs) {
      free(vis), free(stk);
      rc = NOMEM();
      goto done;
    }
    for (size_t i = 0; i < n && rc == GPURF_OK; i++) {
      const gpurf_dataflow_inst *d = &df->insts[i];
      for (unsigned s = 0; s < GPURF_TRACE_MAX_SRC && rc == GPURF_OK; s++) {
        size_t slot = i * GPURF_TRACE_MAX_SRC + s;
        df->defs_off[slot] = (uint32_t)cnt;
        if (s >= d->n_src || d->src[s].reg == GPURF_TRACE_REG_ZERO) continue;
        size_t begin = cnt;
        for (unsigned j = 0; j < d->src[s].width; j++) {
          unsigned r = d->src[s].reg + j;
          memset(vis, 0, nb);
          size_t sp = 0;
          /* Inside the instruction's own block first. */
          uint32_t b = d->block;
          int found = 0;
          for (uint32_t q = (uint32_t)i; q-- > df->blocks[b].first && !found;) {
            gpurf_regset u, dd;
            inst_sets(&df->insts[q], &u, &dd);
            if (gpurf_regset_has(&dd, r)) {
              found = 1;
              uint32_t def = q;
              int dup = 0;
              for (size_t z = begin; z < cnt; z++) dup |= df->defs[z] == def;
              if (!dup) {
                if (cnt == cap) {
                  uint32_t *p = realloc(df->defs, (cap *= 2) * sizeof *p);
                  if (!p) {
                    rc = NOMEM();
                    break;
                  }
                  df->defs = p;
                }
                df->defs[cnt++] = def;
              }
            }
          }
          if (found || rc) continue;
          for (uint32_t p = df->pred_off[b]; p < df->pred_off[b + 1]; p++)
            if (!vis[df->pred[p]]) vis[df->pred[p]] = 1, stk[sp++] = df->pred[p];
          while (sp && rc == GPURF_OK) {
            uint32_t v = stk[--sp];
            const gpurf_dataflow_block *V = &df->blocks[v];
            int hit = 0;
            for (uint32_t q = V->first + V->count; q-- > V->first && !hit;) {
              gpurf_regset u, dd;
              inst_sets(&df->insts[q], &u, &dd);
              if (!gpurf_regset_has(&dd, r)) continue;
              hit = 1;
              int dup = 0;
              for (size_t z = begin; z < cnt; z++) dup |= df->defs[z] == q;
              if (dup) continue;
              if (cnt == cap) {
                uint32_t *np = realloc(df->defs, (cap *= 2) * sizeof *np);
                if (!np) {
                  rc = NOMEM();
                  break;
                }
                df->defs = np;
              }
              df->defs[cnt++] = q;
            }
            if (hit) continue;
            for (uint32_t p = df->pred_off[v]; p < df->pred_off[v + 1]; p++)
              if (!vis[df->pred[p]]) vis[df->pred[p]] = 1, stk[sp++] = df->pred[p];
          }
        }
      }
    }
    df->defs_off[slots] = (uint32_t)cnt;
    free(vis);
    free(stk);
  }
done:
  free(perm), free(tmp), free(old2new), free(ef), free(et), free(leader), free(blk);
  free(bf), free(bt);
  return rc;
}

size_t gpurf_dataflow_inst_count(const gpurf_dataflow *df) { return df->n; }
const gpurf_dataflow_inst *gpurf_dataflow_inst_at(const gpurf_dataflow *df, size_t i) {
  return i < df->n ? &df->insts[i] : NULL;
}
long gpurf_dataflow_find_pc(const gpurf_dataflow *df, uint64_t pc) { return pc_find(df, pc); }
size_t gpurf_dataflow_block_count(const gpurf_dataflow *df) { return df->nblocks; }
const gpurf_dataflow_block *gpurf_dataflow_block_at(const gpurf_dataflow *df, size_t i) {
  return i < df->nblocks ? &df->blocks[i] : NULL;
}
size_t gpurf_dataflow_succ(const gpurf_dataflow *df, size_t b, const uint32_t **succ) {
  if (b >= df->nblocks || !df->succ_off) {
    *succ = NULL;
    return 0;
  }
  *succ = df->succ + df->succ_off[b];
  return df->succ_off[b + 1] - df->succ_off[b];
}
size_t gpurf_dataflow_loop_count(const gpurf_dataflow *df) { return df->nloops; }
const gpurf_dataflow_loop *gpurf_dataflow_loop_at(const gpurf_dataflow *df, size_t i) {
  return i < df->nloops ? &df->loops[i] : NULL;
}
size_t gpurf_dataflow_strand_count(const gpurf_dataflow *df) { return df->nstrands; }
size_t gpurf_dataflow_reaching_defs(const gpurf_dataflow *df, size_t i, unsigned slot,
                                    const uint32_t **defs) {
  *defs = NULL;
  if (!df->defs_off || i >= df->n || slot >= GPURF_TRACE_MAX_SRC) return 0;
  size_t s = i * GPURF_TRACE_MAX_SRC + slot;
  *defs = df->defs + df->defs_off[s];
  return df->defs_off[s + 1] - df->defs_off[s];
}
