/* Register dataflow over the static program rebuilt from a trace: the
 * analysis object, the intake of trace records into instructions and
 * executed edges, and the accessors to the results. The analysis itself is
 * in dataflow_analyze.c. */
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "trace/dataflow_internal.h"

/* Marks a free slot in the PC index and the edge set: intake refuses that
 * PC, and instruction indices stay below UINT32_MAX - 1, so no key takes it. */
#define EMPTY UINT64_MAX

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

/* ---- layout order ---- */

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

int df_sort_by_pc(gpurf_dataflow *df, uint32_t *old2new) {
  size_t n = df->n;
  uint32_t *perm = malloc(n * sizeof *perm), *tmp = malloc(n * sizeof *tmp);
  gpurf_dataflow_inst *si = malloc(n * sizeof *si);
  df_extra *sx = malloc(n * sizeof *sx);
  if (!perm || !tmp || !si || !sx) {
    free(perm), free(tmp), free(si), free(sx);
    return -1;
  }
  for (size_t i = 0; i < n; i++) perm[i] = (uint32_t)i;
  sort_idx(perm, tmp, n, df);
  for (size_t i = 0; i < n; i++) {
    si[i] = df->insts[perm[i]];
    sx[i] = df->extra[perm[i]];
    old2new[perm[i]] = (uint32_t)i;
  }
  free(perm), free(tmp);
  free(df->insts);
  free(df->extra);
  df->insts = si;
  df->extra = sx;
  for (size_t i = 0; i < df->hcap; i++)
    if (df->hkeys[i] != EMPTY) df->hvals[i] = old2new[df->hvals[i]];
  return 0;
}

void df_edge_list(const gpurf_dataflow *df, const uint32_t *old2new, uint32_t *from, uint32_t *to) {
  size_t k = 0;
  for (size_t i = 0; i < df->ecap; i++) {
    if (df->edges[i] == EMPTY) continue;
    from[k] = old2new[df->edges[i] >> 32];
    to[k] = old2new[df->edges[i] & 0xffffffffu];
    k++;
  }
}

/* ---- results ---- */

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
