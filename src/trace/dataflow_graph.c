/* Register sets and the graph algorithms the dataflow analysis runs over its
 * blocks: CSR adjacency, dominators and post-dominators. */
#include <stdlib.h>
#include <string.h>

#include "trace/dataflow_internal.h"

/* ---- register sets ---- */

void df_rs_add(gpurf_regset *s, unsigned r) {
  if (r < GPURF_TRACE_NUM_REGS) s->w[r >> 6] |= 1ULL << (r & 63);
}
void df_rs_add_op(gpurf_regset *s, const gpurf_trace_operand *o) {
  if (o->reg == GPURF_TRACE_REG_ZERO) return;
  for (unsigned j = 0; j < o->width; j++) df_rs_add(s, o->reg + j);
}
void df_rs_or(gpurf_regset *a, const gpurf_regset *b) {
  for (int i = 0; i < 4; i++) a->w[i] |= b->w[i];
}
int df_rs_eq(const gpurf_regset *a, const gpurf_regset *b) {
  return memcmp(a, b, sizeof *a) == 0;
}
int df_rs_any(const gpurf_regset *a, const gpurf_regset *b) {
  for (int i = 0; i < 4; i++)
    if (a->w[i] & b->w[i]) return 1;
  return 0;
}
int df_rs_empty(const gpurf_regset *a) { return !(a->w[0] | a->w[1] | a->w[2] | a->w[3]); }

void df_inst_sets(const gpurf_dataflow_inst *d, gpurf_regset *use, gpurf_regset *def) {
  memset(use, 0, sizeof *use);
  memset(def, 0, sizeof *def);
  for (unsigned i = 0; i < d->n_src; i++) df_rs_add_op(use, &d->src[i]);
  for (unsigned i = 0; i < d->n_dst; i++) df_rs_add_op(def, &d->dst[i]);
}

void df_step_back(const gpurf_dataflow_inst *d, gpurf_regset *live) {
  gpurf_regset use, def;
  df_inst_sets(d, &use, &def);
  for (int i = 0; i < 4; i++) live->w[i] = (live->w[i] & ~def.w[i]) | use.w[i];
}

/* ---- edge lists and CSR ---- */

int df_build_csr(size_t n, const uint32_t *from, const uint32_t *to, size_t m, uint32_t **off_out,
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

size_t df_dedup_edges(uint32_t *from, uint32_t *to, size_t m) {
  size_t w = 0;
  for (size_t e = 0; e < m; e++) {
    int dup = 0;
    for (size_t q = 0; q < w && !dup; q++) dup = from[q] == from[e] && to[q] == to[e];
    if (!dup) from[w] = from[e], to[w] = to[e], w++;
    if (w > 4096 && e > w) { /* large graphs: skip the quadratic check past here */
      for (size_t r = e + 1; r < m; r++) from[w] = from[r], to[w] = to[r], w++;
      break;
    }
  }
  return w;
}

/* ---- dominators ---- */

int df_domtree_alloc(df_domtree *t, size_t n) {
  t->idom = malloc(n * sizeof *t->idom);
  t->order = malloc(n * sizeof *t->order);
  t->rpo = malloc(n * sizeof *t->rpo);
  t->stack = malloc(n * sizeof *t->stack);
  t->seen = malloc(n);
  if (t->idom && t->order && t->rpo && t->stack && t->seen) return 0;
  df_domtree_free(t);
  return -1;
}

void df_domtree_free(df_domtree *t) {
  free(t->idom), free(t->order), free(t->rpo), free(t->stack), free(t->seen);
  memset(t, 0, sizeof *t);
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

int df_dominators(df_domtree *t, size_t n, int32_t root, const uint32_t *off, const uint32_t *adj,
                  const uint32_t *poff, const uint32_t *padj) {
  int32_t *idom = t->idom, *order = t->order, *rpo = t->rpo, *stack = t->stack;
  uint8_t *seen = t->seen;
  /* DFS postorder from root over adj */
  size_t nrpo = 0, sp = 0;
  uint32_t *it = (uint32_t *)calloc(n, sizeof *it);
  for (size_t i = 0; i < n; i++) {
    idom[i] = -1;
    order[i] = -1;
    seen[i] = 0;
  }
  if (!it) return -1;
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
    int32_t v = rpo[i];
    rpo[i] = rpo[nrpo - 1 - i];
    rpo[nrpo - 1 - i] = v;
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
  return 0;
}

int df_dominates(const int32_t *idom, int32_t a, int32_t b) {
  for (int guard = 0; b >= 0 && guard < 1 << 30; guard++) {
    if (a == b) return 1;
    if (idom[b] == b) return 0;
    b = idom[b];
  }
  return 0;
}

int df_postdominators(df_domtree *t, size_t nb, const uint32_t *from, const uint32_t *to, size_t m,
                      const uint32_t *succ_off) {
  size_t N = nb + 1, em = m;
  uint32_t *rf = malloc((m + nb + 1) * sizeof *rf), *rt = malloc((m + nb + 1) * sizeof *rt);
  uint32_t *roff = NULL, *radj = NULL, *rpoff = NULL, *rpadj = NULL;
  int rc = -1;
  if (rf && rt) {
    for (size_t e = 0; e < m; e++) rf[e] = to[e], rt[e] = from[e];
    for (size_t b = 0; b < nb; b++)
      if (succ_off[b] == succ_off[b + 1]) rf[em] = (uint32_t)nb, rt[em] = (uint32_t)b, em++;
    if (!df_build_csr(N, rf, rt, em, &roff, &radj) && !df_build_csr(N, rt, rf, em, &rpoff, &rpadj)) {
      rc = df_dominators(t, N, (int32_t)nb, roff, radj, rpoff, rpadj);
    }
  }
  free(rf), free(rt), free(roff), free(radj), free(rpoff), free(rpadj);
  return rc;
}
