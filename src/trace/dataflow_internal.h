/* Private state of the register dataflow analysis and what its parts share:
 * dataflow.c gathers instructions and executed edges from the trace and
 * serves the results; dataflow_analyze.c runs the analysis, from blocks and
 * the control-flow graph through liveness, reconvergence and loops;
 * dataflow_defuse.c holds its last phases, which follow writes to reads;
 * dataflow_graph.c holds register sets and graph algorithms. */
#ifndef GPURF_DATAFLOW_INTERNAL_H
#define GPURF_DATAFLOW_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "gpurf/dataflow.h"

/* What the trace told about an instruction beyond its encoding. */
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

/* ---- dataflow.c: the gathered instructions and edges ---- */

/* Puts the instructions in PC order, which is the layout order every later
 * phase relies on, and keeps the PC index in step. old2new (n entries)
 * receives each instruction's new index. -1 when out of memory. */
int df_sort_by_pc(gpurf_dataflow *df, uint32_t *old2new);

/* The ecount distinct executed edges, renumbered through old2new. */
void df_edge_list(const gpurf_dataflow *df, const uint32_t *old2new, uint32_t *from, uint32_t *to);

/* ---- dataflow_graph.c: register sets ---- */

void df_rs_add(gpurf_regset *s, unsigned r);
/* Every register of o; nothing for RZ. */
void df_rs_add_op(gpurf_regset *s, const gpurf_trace_operand *o);
void df_rs_or(gpurf_regset *a, const gpurf_regset *b);
int df_rs_eq(const gpurf_regset *a, const gpurf_regset *b);
/* Whether a and b share a register. */
int df_rs_any(const gpurf_regset *a, const gpurf_regset *b);
int df_rs_empty(const gpurf_regset *a);

/* Registers d reads (use) and writes (def). */
void df_inst_sets(const gpurf_dataflow_inst *d, gpurf_regset *use, gpurf_regset *def);
/* Live before d, given live after it. */
void df_step_back(const gpurf_dataflow_inst *d, gpurf_regset *live);

/* ---- dataflow_graph.c: graphs ---- */

/* CSR adjacency (n nodes) of the m edges from[e] -> to[e], in edge order.
 * -1 when out of memory. */
int df_build_csr(size_t n, const uint32_t *from, const uint32_t *to, size_t m, uint32_t **off_out,
                 uint32_t **adj_out);

/* Drops repeated edges, keeping the first of each in order; returns the new
 * count. */
size_t df_dedup_edges(uint32_t *from, uint32_t *to, size_t m);

/* A dominator tree with the scratch space its search needs. */
typedef struct df_domtree {
  int32_t *idom;  /* immediate dominator; the root is its own, -1 if unreached */
  int32_t *order; /* position in reverse postorder, -1 if unreached */
  int32_t *rpo;   /* nodes in reverse postorder */
  int32_t *stack; /* free for the caller's own walks once the tree is built */
  uint8_t *seen;  /* likewise */
} df_domtree;

/* Room for n nodes; -1 when out of memory (t is then freed). */
int df_domtree_alloc(df_domtree *t, size_t n);
void df_domtree_free(df_domtree *t);

/* Dominators of the n-node graph (off, adj) from root; (poff, padj) lists
 * each node's predecessors. -1 when out of memory. */
int df_dominators(df_domtree *t, size_t n, int32_t root, const uint32_t *off, const uint32_t *adj,
                  const uint32_t *poff, const uint32_t *padj);

/* Whether a dominates b in the tree idom. */
int df_dominates(const int32_t *idom, int32_t a, int32_t b);

/* Post-dominators of the nb-node graph of the m edges from[e] -> to[e]: the
 * dominators of the reversed graph from a virtual exit node nb, which every
 * node without successors (per succ_off) reaches. t needs room for nb + 1
 * nodes. -1 when out of memory. */
int df_postdominators(df_domtree *t, size_t nb, const uint32_t *from, const uint32_t *to, size_t m,
                      const uint32_t *succ_off);

/* ---- dataflow_defuse.c: phases of gpurf_dataflow_analyze ---- */

/* Strand numbers, start reasons and ends of every instruction. */
int df_form_strands(gpurf_ctx *ctx, gpurf_dataflow *df);

/* df->defs and df->defs_off, behind gpurf_dataflow_reaching_defs. */
int df_find_reaching_defs(gpurf_ctx *ctx, gpurf_dataflow *df);

#endif
