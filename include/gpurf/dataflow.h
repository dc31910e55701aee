/* Register dataflow over the static program of one kernel, rebuilt from its
 * trace: basic blocks and the edges that executed, def-use chains,
 * liveness, last uses per operand (Jeon et al.'s per-instruction release
 * flags), reconvergence points of branches with their per-branch release
 * sets, loop-carried registers, and strands (Gebhart et al.).
 *
 * Only paths the trace executed are known: a branch never taken has no
 * target, and code never reached is absent. Predication is not visible in
 * a trace, so every write counts as a kill. */
#ifndef GPURF_DATAFLOW_H
#define GPURF_DATAFLOW_H

#include <stddef.h>
#include <stdint.h>

#include "gpurf/context.h"
#include "gpurf/export.h"
#include "gpurf/trace.h"

GPURF_BEGIN_DECLS

/* A set of registers R0..R254. */
typedef struct gpurf_regset {
  uint64_t w[4];
} gpurf_regset;

static inline int gpurf_regset_has(const gpurf_regset *s, unsigned r) {
  return r < 256 && (int)(s->w[r >> 6] >> (r & 63) & 1);
}

/* Why a strand starts at an instruction (gpurf_dataflow_inst.strand_start). */
#define GPURF_STRAND_ENTRY 0x01u           /* first instruction of the kernel */
#define GPURF_STRAND_LONG_LATENCY 0x02u    /* reads a long-latency result of this strand */
#define GPURF_STRAND_BACKWARD_TARGET 0x04u /* block targeted by a backward branch */
#define GPURF_STRAND_AFTER_BACKWARD 0x08u  /* follows a backward branch */
#define GPURF_STRAND_JOIN 0x10u            /* predecessors disagree on pending long-latency results */

typedef struct gpurf_dataflow_inst {
  uint64_t pc;
  char opcode[GPURF_TRACE_OPCODE_MAX];
  gpurf_trace_class op_class;
  gpurf_trace_latency latency;
  uint8_t n_dst, n_src;
  gpurf_trace_operand dst[GPURF_TRACE_MAX_DST];
  gpurf_trace_operand src[GPURF_TRACE_MAX_SRC];
  uint32_t block;
  uint64_t executions;   /* warp executions seen in the trace */
  uint8_t last_use;      /* bit i: src[i] may be released after this read */
  uint32_t strand;       /* index, from 0, in layout order */
  uint8_t strand_start;  /* GPURF_STRAND_* reasons, 0 inside a strand */
  uint8_t strand_end;    /* the next instruction in layout starts a new strand */
  gpurf_regset live_out; /* registers live after the instruction */
} gpurf_dataflow_inst;

typedef struct gpurf_dataflow_block {
  uint32_t first, count;   /* instruction range */
  uint64_t start_pc;
  gpurf_regset live_in, live_out;
  int loop_header;
  int divergent;           /* its branch was seen with a proper subset of lanes taking it */
  int64_t reconv;          /* immediate post-dominator for blocks with 2+ successors, else -1 */
  uint64_t reconv_pc;
  gpurf_regset release_at_reconv; /* per-branch release flag: live into the branch's
                                     paths, dead at the reconvergence point */
} gpurf_dataflow_block;

typedef struct gpurf_dataflow_loop {
  uint32_t header, latch;  /* blocks of a natural loop's back edge */
  gpurf_regset carried;    /* live at the header and written in the loop body */
} gpurf_dataflow_loop;

typedef struct gpurf_dataflow gpurf_dataflow;

GPURF_API int gpurf_dataflow_alloc(gpurf_ctx *ctx, gpurf_dataflow **out);
GPURF_API void gpurf_dataflow_free(gpurf_dataflow *df);

/* Feeds one record; all records must belong to one kernel. Memory grows with
 * the static code size, not with the trace length. */
GPURF_API int gpurf_dataflow_add(gpurf_ctx *ctx, gpurf_dataflow *df, const gpurf_trace_inst *inst);

/* Builds blocks and runs every analysis; call once, after the last record. */
GPURF_API int gpurf_dataflow_analyze(gpurf_ctx *ctx, gpurf_dataflow *df);

GPURF_API size_t gpurf_dataflow_inst_count(const gpurf_dataflow *df);
GPURF_API const gpurf_dataflow_inst *gpurf_dataflow_inst_at(const gpurf_dataflow *df, size_t i);
/* Index of the instruction at pc; -1 when the trace never executed it. */
GPURF_API long gpurf_dataflow_find_pc(const gpurf_dataflow *df, uint64_t pc);

GPURF_API size_t gpurf_dataflow_block_count(const gpurf_dataflow *df);
GPURF_API const gpurf_dataflow_block *gpurf_dataflow_block_at(const gpurf_dataflow *df, size_t i);
/* Successor blocks of block b. */
GPURF_API size_t gpurf_dataflow_succ(const gpurf_dataflow *df, size_t b, const uint32_t **succ);

GPURF_API size_t gpurf_dataflow_loop_count(const gpurf_dataflow *df);
GPURF_API const gpurf_dataflow_loop *gpurf_dataflow_loop_at(const gpurf_dataflow *df, size_t i);

GPURF_API size_t gpurf_dataflow_strand_count(const gpurf_dataflow *df);

/* Def-use: instructions whose writes may reach source operand `slot` of
 * instruction i (none when the value comes from before the kernel). */
GPURF_API size_t gpurf_dataflow_reaching_defs(const gpurf_dataflow *df, size_t i, unsigned slot,
                                              const uint32_t **defs);

GPURF_END_DECLS

#endif
