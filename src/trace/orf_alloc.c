/* The ORF allocation pass of Gebhart et al. (include/gpurf/orf.h).
 *
 * Candidates: a value is a web of in-strand writes of one register joined
 * by the reads they may all reach (one write, or the writes on both sides
 * of a hammock, Fig. 14(c)); a read operand is the group of reads of one
 * register, in one basic block, that only values from outside the strand
 * reach.
 * A read reached both by an in-strand write and from outside (Fig. 14(a))
 * reads the MRF, and the writes it may see write the MRF. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "gpurf/orf.h"

#define MAX_K 4 /* registers of one operand */
#define NO_LEVEL (-1)

struct gpurf_orf {
  size_t n;
  int8_t (*src_level)[GPURF_TRACE_MAX_SRC][MAX_K];
  uint8_t (*src_fill)[GPURF_TRACE_MAX_SRC][MAX_K];
  uint8_t (*dst_mask)[GPURF_TRACE_MAX_DST][MAX_K];
  double reads[GPURF_ORF_LEVELS], writes[GPURF_ORF_LEVELS];
};

typedef struct acc {
  uint32_t inst;
  uint8_t op, k; /* operand slot and register within it */
} acc;

typedef struct cand {
  int read_operand;
  uint32_t strand;
  int32_t begin;
  uint32_t defs_at, n_defs, reads_at, n_reads;
  int needs_mrf, shared;
  unsigned slots; /* operand slots it is read in */
  int level, kept;
  double prio;
} cand;

typedef struct work {
  const gpurf_dataflow *df;
  const gpurf_orf_params *p;
  size_t n;
  uint32_t *pred, *pred_off; /* per block */
  uint32_t *node_first;      /* per instruction: its first write node */
  acc *node;                 /* write nodes (inst, dst, k) */
  uint32_t n_node, *parent, *mark;
  uint8_t *node_mrf;
  uint32_t *stack, stamp;
  uint32_t *vis;
  cand *c;
  size_t n_c, cap_c;
  acc *defs, *reads;
  size_t n_defs, cap_defs, n_reads, cap_reads;
} work;

void gpurf_orf_params_init(gpurf_orf_params *p) {
  memset(p, 0, sizeof *p);
  p->l1_entries = 3;
  p->l0 = 1;
  p->partial = 1;
  p->read_operands = 1;
  p->forward_branches = 1;
  for (int l = 0; l < GPURF_ORF_LEVELS; l++) p->read_j[l] = p->write_j[l] = NAN;
}

/* The SFU, memory and texture units are shared; the rest is the private
 * datapath (Sec. 4.4). */
static int shared_unit(gpurf_trace_class c) {
  return c == GPURF_TRACE_CLASS_SFU || c == GPURF_TRACE_CLASS_LD_GLOBAL ||
         c == GPURF_TRACE_CLASS_ST_GLOBAL || c == GPURF_TRACE_CLASS_LD_SHARED ||
         c == GPURF_TRACE_CLASS_ST_SHARED;
}

/* Write node of register r at instruction i, or -1. */
static int64_t node_of(const work *w, uint32_t i, unsigned r) {
  const gpurf_dataflow_inst *d = gpurf_dataflow_inst_at(w->df, i);
  for (uint32_t q = w->node_first[i]; q < w->node_first[i + 1]; q++) {
    const acc *a = &w->node[q];
    if (d->dst[a->op].reg + a->k == r) return q;
  }
  (void)d;
  return -1;
}

static uint32_t find_root(uint32_t *parent, uint32_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

static int push_acc(acc **v, size_t *n, size_t *cap, acc a) {
  if (*n == *cap) {
    size_t nc = *cap ? 2 * *cap : 256;
    acc *nv = realloc(*v, nc * sizeof *nv);
    if (!nv) return -1;
    *v = nv, *cap = nc;
  }
  (*v)[(*n)++] = a;
  return 0;
}

static cand *new_cand(work *w) {
  if (w->n_c == w->cap_c) {
    size_t nc = w->cap_c ? 2 * w->cap_c : 256;
    cand *v = realloc(w->c, nc * sizeof *v);
    if (!v) return NULL;
    w->c = v, w->cap_c = nc;
  }
  cand *c = &w->c[w->n_c++];
  memset(c, 0, sizeof *c);
  c->level = NO_LEVEL;
  return c;
}

/* The writes of register r that may reach the read at instruction j, within
 * j's strand (and block without forward branches): their nodes get `mark`
 * = stamp; returns 1 when a value from outside may also reach it. */
static int reaching(work *w, uint32_t j, unsigned r, uint32_t *found, uint32_t *n_found) {
  const gpurf_dataflow_inst *dj = gpurf_dataflow_inst_at(w->df, j);
  uint32_t strand = dj->strand, sp = 0;
  int outside = 0;
  w->stamp++;
  *n_found = 0;
  uint32_t b = dj->block;
  w->vis[b] = w->stamp;
  w->stack[sp++] = b;
  int first = 1;
  while (sp) {
    b = w->stack[--sp];
    const gpurf_dataflow_block *B = gpurf_dataflow_block_at(w->df, b);
    uint32_t end = first ? j : B->first + B->count;
    first = 0;
    int done = 0;
    for (uint32_t x = end; x-- > B->first && !done;) {
      if (gpurf_dataflow_inst_at(w->df, x)->strand != strand) {
        outside = 1, done = 1;
      } else {
        int64_t q = node_of(w, x, r);
        if (q >= 0) {
          if (w->mark[q] != w->stamp) w->mark[q] = w->stamp, found[(*n_found)++] = (uint32_t)q;
          done = 1;
        }
      }
    }
    if (done) continue;
    if (!w->p->forward_branches || w->pred_off[b] == w->pred_off[b + 1]) {
      outside = 1;
      continue;
    }
    for (uint32_t e = w->pred_off[b]; e < w->pred_off[b + 1]; e++) {
      uint32_t q = w->pred[e];
      if (q >= b) { /* a backward edge ends a strand: its values come through the MRF */
        outside = 1;
      } else if (w->vis[q] != w->stamp) {
        w->vis[q] = w->stamp;
        w->stack[sp++] = q;
      }
    }
  }
  return outside;
}

static int build_preds(work *w) {
  size_t nb = gpurf_dataflow_block_count(w->df), ne = 0;
  w->pred_off = calloc(nb + 1, sizeof *w->pred_off);
  if (!w->pred_off) return -1;
  for (size_t b = 0; b < nb; b++) {
    const uint32_t *s;
    size_t k = gpurf_dataflow_succ(w->df, b, &s);
    for (size_t e = 0; e < k; e++) w->pred_off[s[e] + 1]++;
    ne += k;
  }
  for (size_t b = 0; b < nb; b++) w->pred_off[b + 1] += w->pred_off[b];
  w->pred = malloc((ne ? ne : 1) * sizeof *w->pred);
  uint32_t *fill = calloc(nb ? nb : 1, sizeof *fill);
  if (!w->pred || !fill) return free(fill), -1;
  for (size_t b = 0; b < nb; b++) {
    const uint32_t *s;
    size_t k = gpurf_dataflow_succ(w->df, b, &s);
    for (size_t e = 0; e < k; e++) w->pred[w->pred_off[s[e]] + fill[s[e]]++] = (uint32_t)b;
  }
  free(fill);
  w->stack = malloc((nb ? nb : 1) * sizeof *w->stack);
  w->vis = calloc(nb ? nb : 1, sizeof *w->vis);
  return w->stack && w->vis ? 0 : -1;
}

static int build_nodes(work *w) {
  w->node_first = calloc(w->n + 1, sizeof *w->node_first);
  if (!w->node_first) return -1;
  size_t cap = 0;
  for (size_t i = 0; i < w->n; i++) {
    const gpurf_dataflow_inst *d = gpurf_dataflow_inst_at(w->df, i);
    w->node_first[i] = w->n_node;
    for (unsigned o = 0; o < d->n_dst; o++)
      for (unsigned k = 0; k < d->dst[o].width && k < MAX_K; k++) {
        if (d->dst[o].reg + k >= GPURF_TRACE_NUM_REGS) continue;
        size_t n = w->n_node;
        if (push_acc(&w->node, &n, &cap, (acc){(uint32_t)i, (uint8_t)o, (uint8_t)k})) return -1;
        w->n_node = (uint32_t)n;
      }
  }
  w->node_first[w->n] = w->n_node;
  size_t m = w->n_node ? w->n_node : 1;
  w->parent = malloc(m * sizeof *w->parent);
  w->mark = calloc(m, sizeof *w->mark);
  w->node_mrf = calloc(m, 1);
  if (!w->parent || !w->mark || !w->node_mrf) return -1;
  for (uint32_t q = 0; q < w->n_node; q++) w->parent[q] = q;
  return 0;
}

/* Reads classified: joined to webs (webs[] = node per read), read-operand
 * groups (ro[]), or MRF reads (their in-strand writes then write the MRF). */
static int classify_reads(work *w, acc **web_reads, uint32_t **web_node, size_t *n_web,
                          acc **ro, size_t *n_ro) {
  size_t cap_w = 0, cap_n = 0, cap_ro = 0;
  uint32_t *found = malloc((w->n_node ? w->n_node : 1) * sizeof *found);
  if (!found) return -1;
  for (size_t j = 0; j < w->n; j++) {
    const gpurf_dataflow_inst *d = gpurf_dataflow_inst_at(w->df, j);
    for (unsigned o = 0; o < d->n_src; o++)
      for (unsigned k = 0; k < d->src[o].width && k < MAX_K; k++) {
        unsigned r = d->src[o].reg + k;
        if (r >= GPURF_TRACE_NUM_REGS) continue;
        uint32_t nf;
        int outside = reaching(w, (uint32_t)j, r, found, &nf);
        acc a = {(uint32_t)j, (uint8_t)o, (uint8_t)k};
        /* Writes this read may see from another strand, through a back edge
         * (at or after it in layout), or from another block without forward
         * branches reach it through the MRF: they write it. */
        const uint32_t *dd;
        size_t nd = gpurf_dataflow_reaching_defs(w->df, j, o, &dd);
        for (size_t x = 0; x < nd; x++) {
          const gpurf_dataflow_inst *dx = gpurf_dataflow_inst_at(w->df, dd[x]);
          int64_t q = node_of(w, dd[x], r);
          if (q >= 0 && (dd[x] >= j || dx->strand != d->strand ||
                         (!w->p->forward_branches && dx->block != d->block)))
            w->node_mrf[q] = 1;
        }
        if (outside) {
          for (uint32_t f = 0; f < nf; f++) w->node_mrf[found[f]] = 1;
          if (nf == 0 && push_acc(ro, n_ro, &cap_ro, a)) return free(found), -1;
          continue;
        }
        for (uint32_t f = 1; f < nf; f++)
          w->parent[find_root(w->parent, found[f])] = find_root(w->parent, found[0]);
        if (*n_web == cap_n) {
          cap_n = cap_n ? 2 * cap_n : 256;
          uint32_t *v = realloc(*web_node, cap_n * sizeof *v);
          if (!v) return free(found), -1;
          *web_node = v;
        }
        (*web_node)[*n_web] = found[0];
        size_t nw = *n_web;
        if (push_acc(web_reads, &nw, &cap_w, a)) return free(found), -1;
        *n_web = nw;
      }
  }
  free(found);
  return 0;
}

static unsigned reg_of(const work *w, const acc *a, int is_src) {
  const gpurf_dataflow_inst *d = gpurf_dataflow_inst_at(w->df, a->inst);
  return (is_src ? d->src[a->op].reg : d->dst[a->op].reg) + a->k;
}

static int cmp_u32_pair(const void *x, const void *y) {
  const uint64_t *a = x, *b = y;
  return (*a > *b) - (*a < *b);
}

/* One candidate per web, its writes and reads in layout order. */
static int build_webs(work *w, const acc *wr, const uint32_t *wn, size_t n_wr) {
  uint64_t *key = malloc(((w->n_node > n_wr ? w->n_node : n_wr) + 1) * sizeof *key);
  int32_t *cand_of = malloc((w->n_node ? w->n_node : 1) * sizeof *cand_of);
  if (!key || !cand_of) return free(key), free(cand_of), -1;
  for (uint32_t q = 0; q < w->n_node; q++) {
    key[q] = (uint64_t)find_root(w->parent, q) << 32 | q; /* nodes are in layout order */
    cand_of[q] = -1;
  }
  qsort(key, w->n_node, sizeof *key, cmp_u32_pair);
  for (uint32_t x = 0; x < w->n_node; x++) {
    uint32_t root = (uint32_t)(key[x] >> 32), q = (uint32_t)key[x];
    const acc *a = &w->node[q];
    const gpurf_dataflow_inst *d = gpurf_dataflow_inst_at(w->df, a->inst);
    if (cand_of[root] < 0) {
      cand *c = new_cand(w);
      if (!c) return free(key), free(cand_of), -1;
      cand_of[root] = (int32_t)(w->n_c - 1);
      c->strand = d->strand;
      c->begin = (int32_t)a->inst;
      c->defs_at = (uint32_t)w->n_defs;
    }
    cand *c = &w->c[cand_of[root]];
    c->n_defs++;
    c->needs_mrf |= w->node_mrf[q];
    c->shared |= shared_unit(d->op_class);
    if (push_acc(&w->defs, &w->n_defs, &w->cap_defs, *a)) return free(key), free(cand_of), -1;
  }
  for (size_t x = 0; x < n_wr; x++)
    key[x] = (uint64_t)find_root(w->parent, wn[x]) << 32 | x; /* reads are in layout order */
  qsort(key, n_wr, sizeof *key, cmp_u32_pair);
  for (size_t x = 0; x < n_wr; x++) {
    cand *c = &w->c[cand_of[key[x] >> 32]];
    const acc *a = &wr[(uint32_t)key[x]];
    if (c->n_reads == 0) c->reads_at = (uint32_t)w->n_reads;
    c->n_reads++;
    c->slots |= 1u << a->op;
    c->shared |= shared_unit(gpurf_dataflow_inst_at(w->df, a->inst)->op_class);
    if (push_acc(&w->reads, &w->n_reads, &w->cap_reads, *a)) return free(key), free(cand_of), -1;
  }
  free(key);
  free(cand_of);
  return 0;
}

/* Read-operand groups: reads of one register in one basic block that only
 * values from outside the strand reach. One block, so that the first read,
 * which fills the ORF, runs before the others on every path. */
static int build_read_operands(work *w, const acc *ro, size_t n_ro) {
  uint64_t *key = malloc((n_ro ? n_ro : 1) * sizeof *key);
  if (!key) return -1;
  for (size_t x = 0; x < n_ro; x++) key[x] = (uint64_t)reg_of(w, &ro[x], 1) << 32 | x;
  qsort(key, n_ro, sizeof *key, cmp_u32_pair);
  cand *c = NULL;
  uint32_t last_reg = UINT32_MAX, last_strand = 0, last_block = 0;
  for (size_t x = 0; x < n_ro; x++) {
    const acc *a = &ro[(uint32_t)key[x]];
    const gpurf_dataflow_inst *d = gpurf_dataflow_inst_at(w->df, a->inst);
    uint32_t reg = (uint32_t)(key[x] >> 32);
    if (!c || reg != last_reg || d->strand != last_strand || d->block != last_block) {
      if (!(c = new_cand(w))) return free(key), -1;
      c->read_operand = 1;
      c->strand = d->strand;
      c->begin = (int32_t)a->inst;
      c->reads_at = (uint32_t)w->n_reads;
      c->needs_mrf = 1;
    }
    last_reg = reg, last_strand = d->strand, last_block = d->block;
    c->n_reads++;
    c->slots |= 1u << a->op;
    c->shared |= shared_unit(d->op_class);
    if (push_acc(&w->reads, &w->n_reads, &w->cap_reads, *a)) return free(key), -1;
  }
  free(key);
  return 0;
}

/* Fig. 10 (values) and Fig. 13 (read operands) for the first `kept` reads
 * at `level`; a value keeping fewer than all its reads writes the MRF. */
static double savings(const work *w, const cand *c, int level, int kept) {
  const gpurf_orf_params *p = w->p;
  double dr = p->read_j[GPURF_ORF_MRF] - p->read_j[level];
  if (c->read_operand) return (kept - 1) * dr - p->write_j[level];
  double s = kept * dr - c->n_defs * p->write_j[level];
  if (!c->needs_mrf && kept == (int)c->n_reads) s += c->n_defs * p->write_j[GPURF_ORF_MRF];
  return s;
}

static int32_t end_of(const work *w, const cand *c, int kept) {
  return kept > 0 ? (int32_t)w->reads[c->reads_at + kept - 1].inst : c->begin + 1;
}

/* Busy ranges (begin, end] of the entries of one strand. */
typedef struct entries {
  int n;
  size_t len[GPURF_ORF_MAX_ENTRIES], cap[GPURF_ORF_MAX_ENTRIES];
  int32_t *r[GPURF_ORF_MAX_ENTRIES]; /* begin, end pairs */
} entries;

static int fits(const entries *e, int k, int32_t b, int32_t x) {
  for (size_t i = 0; i < e->len[k]; i += 2)
    if (b < e->r[k][i + 1] && e->r[k][i] < x) return 0;
  return 1;
}

static int take(entries *e, int k, int32_t b, int32_t x) {
  if (e->len[k] + 2 > e->cap[k]) {
    size_t nc = e->cap[k] ? 2 * e->cap[k] : 32;
    int32_t *v = realloc(e->r[k], nc * sizeof *v);
    if (!v) return -1;
    e->r[k] = v, e->cap[k] = nc;
  }
  e->r[k][e->len[k]++] = b;
  e->r[k][e->len[k]++] = x;
  return 0;
}

static int by_prio(const void *x, const void *y) {
  const cand *a = *(cand *const *)x, *b = *(cand *const *)y;
  if (a->prio != b->prio) return a->prio < b->prio ? 1 : -1;
  if (a->begin != b->begin) return a->begin < b->begin ? -1 : 1;
  return a < b ? -1 : a > b;
}

/* The L0 bank of a candidate: its operand slot when the L0 is split
 * (-1 when it is read in more than one, or beyond the third). */
static int l0_bank(const work *w, const cand *c) {
  if (!w->p->split_l0) return 0;
  if (c->slots == 0) return 0;
  if (c->slots & (c->slots - 1)) return -1;
  int s = __builtin_ctz(c->slots);
  return s < 3 ? s : -1;
}

/* Greedy allocation of one strand's candidates c[0..n) to one level. */
static int allocate_level(work *w, cand *const *all, size_t n, int level, entries *e) {
  cand **c = malloc((n ? n : 1) * sizeof *c);
  if (!c) return -1;
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    cand *x = all[i];
    if (x->level != NO_LEVEL) continue;
    if (level == GPURF_ORF_L0 && (x->shared || l0_bank(w, x) < 0)) continue;
    if (x->read_operand && x->n_reads < 2) continue;
    double s = savings(w, x, level, (int)x->n_reads);
    if (!(s > 0)) continue;
    int32_t range = end_of(w, x, (int)x->n_reads) - x->begin;
    x->prio = s / (range > 0 ? range : 1);
    c[m++] = x;
  }
  qsort(c, m, sizeof *c, by_prio);
  for (size_t i = 0; i < m; i++) {
    cand *x = c[i];
    int lo = level == GPURF_ORF_L0 ? l0_bank(w, x) : 0;
    int hi = level == GPURF_ORF_L0 ? lo + 1 : e->n;
    for (int kept = (int)x->n_reads; kept >= (x->read_operand ? 2 : 0); kept--) {
      if (kept < (int)x->n_reads &&
          (level == GPURF_ORF_L0 || !w->p->partial || kept == 0 ||
           !(savings(w, x, level, kept) > 0)))
        break;
      int32_t b = x->begin, end = end_of(w, x, kept);
      int got = -1;
      for (int k = lo; k < hi && got < 0; k++)
        if (fits(e, k, b, end)) got = k;
      if (got < 0) continue;
      if (take(e, got, b, end)) return free(c), -1;
      x->level = level, x->kept = kept;
      if (kept < (int)x->n_reads) x->needs_mrf = 1;
      break;
    }
  }
  free(c);
  return 0;
}

static int by_strand(const void *x, const void *y) {
  const cand *a = *(cand *const *)x, *b = *(cand *const *)y;
  if (a->strand != b->strand) return a->strand < b->strand ? -1 : 1;
  return a < b ? -1 : a > b;
}

static int allocate(work *w) {
  cand **order = malloc((w->n_c ? w->n_c : 1) * sizeof *order);
  if (!order) return -1;
  for (size_t i = 0; i < w->n_c; i++) order[i] = &w->c[i];
  qsort(order, w->n_c, sizeof *order, by_strand);
  entries l0 = {0}, l1 = {0};
  l0.n = w->p->split_l0 ? 3 : 1;
  l1.n = w->p->l1_entries;
  int rc = 0;
  for (size_t i = 0, j; i < w->n_c && rc == 0; i = j) {
    for (j = i; j < w->n_c && order[j]->strand == order[i]->strand;) j++;
    memset(l0.len, 0, sizeof l0.len);
    memset(l1.len, 0, sizeof l1.len);
    if (w->p->l0) rc = allocate_level(w, order + i, j - i, GPURF_ORF_L0, &l0);
    if (rc == 0) rc = allocate_level(w, order + i, j - i, GPURF_ORF_L1, &l1);
  }
  for (int k = 0; k < GPURF_ORF_MAX_ENTRIES; k++) free(l0.r[k]), free(l1.r[k]);
  free(order);
  return rc;
}

/* Levels of every access from the allocation, then the counts. */
static void annotate(const work *w, gpurf_orf *a) {
  for (size_t i = 0; i < a->n; i++) {
    const gpurf_dataflow_inst *d = gpurf_dataflow_inst_at(w->df, i);
    memset(a->src_level[i], NO_LEVEL, sizeof a->src_level[i]);
    for (unsigned o = 0; o < d->n_src; o++)
      for (unsigned k = 0; k < d->src[o].width && k < MAX_K; k++)
        if (d->src[o].reg + k < GPURF_TRACE_NUM_REGS) a->src_level[i][o][k] = GPURF_ORF_MRF;
    for (unsigned o = 0; o < d->n_dst; o++)
      for (unsigned k = 0; k < d->dst[o].width && k < MAX_K; k++)
        if (d->dst[o].reg + k < GPURF_TRACE_NUM_REGS) a->dst_mask[i][o][k] = 1u << GPURF_ORF_MRF;
  }
  for (size_t x = 0; x < w->n_c; x++) {
    const cand *c = &w->c[x];
    if (c->level == NO_LEVEL) continue;
    unsigned bit = 1u << c->level;
    for (uint32_t q = 0; q < c->n_defs; q++) {
      const acc *e = &w->defs[c->defs_at + q];
      a->dst_mask[e->inst][e->op][e->k] = (uint8_t)(bit | (c->needs_mrf ? 1u : 0u));
    }
    for (int r = 0; r < c->kept; r++) {
      const acc *e = &w->reads[c->reads_at + (uint32_t)r];
      if (c->read_operand && r == 0)
        a->src_fill[e->inst][e->op][e->k] = (uint8_t)bit; /* read from the MRF, kept */
      else
        a->src_level[e->inst][e->op][e->k] = (int8_t)c->level;
    }
  }
  for (size_t i = 0; i < a->n; i++) {
    const gpurf_dataflow_inst *d = gpurf_dataflow_inst_at(w->df, i);
    double n = (double)d->executions;
    for (unsigned o = 0; o < GPURF_TRACE_MAX_SRC; o++)
      for (unsigned k = 0; k < MAX_K; k++) {
        if (a->src_level[i][o][k] >= 0) a->reads[a->src_level[i][o][k]] += n;
        for (int l = 0; l < GPURF_ORF_LEVELS; l++)
          if (a->src_fill[i][o][k] >> l & 1) a->writes[l] += n;
      }
    for (unsigned o = 0; o < GPURF_TRACE_MAX_DST; o++)
      for (unsigned k = 0; k < MAX_K; k++)
        for (int l = 0; l < GPURF_ORF_LEVELS; l++)
          if (a->dst_mask[i][o][k] >> l & 1) a->writes[l] += n;
  }
}

static void work_free(work *w) {
  free(w->pred), free(w->pred_off), free(w->node_first), free(w->node), free(w->parent);
  free(w->mark), free(w->node_mrf), free(w->stack), free(w->vis), free(w->c), free(w->defs);
  free(w->reads);
}

static int check(gpurf_ctx *ctx, const gpurf_orf_params *p) {
  if (p->l1_entries < 1 || p->l1_entries > GPURF_ORF_MAX_ENTRIES)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "l1_entries",
                         "L1 entries per thread must be 1..%d", GPURF_ORF_MAX_ENTRIES);
  for (int l = 0; l < GPURF_ORF_LEVELS; l++)
    if (!(p->read_j[l] > 0) || !(p->write_j[l] > 0) || !isfinite(p->read_j[l]) ||
        !isfinite(p->write_j[l]))
      return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, l ? "l1_or_l0_energy" : "mrf_energy",
                           "access energies must be finite and positive");
  return GPURF_OK;
}

int gpurf_orf_alloc(gpurf_ctx *ctx, const gpurf_dataflow *df, const gpurf_orf_params *p,
                    gpurf_orf **out) {
  *out = NULL;
  int rc = check(ctx, p);
  if (rc != GPURF_OK) return rc;
  if (gpurf_dataflow_block_count(df) == 0 && gpurf_dataflow_inst_count(df) > 0)
    return gpurf_fail(ctx, GPURF_EINVAL, "the dataflow is not analysed");
  work w = {.df = df, .p = p, .n = gpurf_dataflow_inst_count(df)};
  gpurf_orf *a = calloc(1, sizeof *a);
  acc *wr = NULL, *ro = NULL;
  uint32_t *wn = NULL;
  size_t n_wr = 0, n_ro = 0;
  size_t m = w.n ? w.n : 1;
  int bad = !a;
  if (!bad) {
    a->n = w.n;
    a->src_level = malloc(m * sizeof *a->src_level);
    a->src_fill = calloc(m, sizeof *a->src_fill);
    a->dst_mask = calloc(m, sizeof *a->dst_mask);
    bad = !a->src_level || !a->src_fill || !a->dst_mask;
  }
  if (!bad) bad = build_preds(&w) || build_nodes(&w);
  if (!bad) bad = classify_reads(&w, &wr, &wn, &n_wr, &ro, &n_ro);
  if (!bad) bad = build_webs(&w, wr, wn, n_wr);
  if (!bad && p->read_operands) bad = build_read_operands(&w, ro, n_ro);
  if (!bad) bad = allocate(&w);
  if (!bad) annotate(&w, a);
  free(wr), free(wn), free(ro);
  work_free(&w);
  if (bad) {
    gpurf_orf_free(a);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  }
  *out = a;
  return GPURF_OK;
}

void gpurf_orf_free(gpurf_orf *a) {
  if (!a) return;
  free(a->src_level), free(a->src_fill), free(a->dst_mask);
  free(a);
}

static int in_range(const gpurf_orf *a, size_t i, unsigned slot, unsigned k, unsigned max) {
  return a && i < a->n && slot < max && k < MAX_K;
}

int gpurf_orf_src_level(const gpurf_orf *a, size_t i, unsigned slot, unsigned k) {
  return in_range(a, i, slot, k, GPURF_TRACE_MAX_SRC) ? a->src_level[i][slot][k] : -1;
}

unsigned gpurf_orf_src_fill(const gpurf_orf *a, size_t i, unsigned slot, unsigned k) {
  return in_range(a, i, slot, k, GPURF_TRACE_MAX_SRC) ? a->src_fill[i][slot][k] : 0;
}

unsigned gpurf_orf_dst_levels(const gpurf_orf *a, size_t i, unsigned dst, unsigned k) {
  return in_range(a, i, dst, k, GPURF_TRACE_MAX_DST) ? a->dst_mask[i][dst][k] : 0;
}

void gpurf_orf_counts(const gpurf_orf *a, double reads[GPURF_ORF_LEVELS],
                      double writes[GPURF_ORF_LEVELS]) {
  for (int l = 0; l < GPURF_ORF_LEVELS; l++) reads[l] = a->reads[l], writes[l] = a->writes[l];
}
