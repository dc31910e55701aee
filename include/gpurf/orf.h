/* Compile-time allocation of a software-managed operand register file
 * (ORF) hierarchy (Gebhart et al., ACM TOCS 2012, Sec. 5): over the
 * dataflow of a kernel (dataflow.h), each strand's values are ranked by the
 * energy their ORF allocation saves (Fig. 10) divided by the instruction
 * slots they would hold an entry, and placed greedily into the first entry
 * free over their range (Fig. 11). Options: partial ranges (Sec. 5.3: a
 * value that does not fit keeps only its first reads in the ORF), read
 * operands (Sec. 5.4, Fig. 13: a value read several times but written in
 * an earlier strand is filled into the ORF by its first read), values
 * across forward branches (Sec. 5.5, Fig. 14: a read whose value may come
 * from outside the strand, or from a def on one side of a hammock only,
 * reads the MRF, and those defs write the MRF too), and a three-level
 * hierarchy (Sec. 5.6: an L0 of one entry per thread, or one per operand
 * slot when split, filled first, for values only the private datapath
 * touches; a value goes to the L0 or the L1, never both).
 *
 * Every access of the kernel gets a level; counts weighted by the number
 * of times the trace executed each instruction give the accesses of each
 * level, as the paper counts them with a functional simulator. */
#ifndef GPURF_ORF_H
#define GPURF_ORF_H

#include <stddef.h>

#include "gpurf/context.h"
#include "gpurf/dataflow.h"
#include "gpurf/export.h"

GPURF_BEGIN_DECLS

/* Levels, in the order of rfhier.h's gpurf_rfhier_level. */
#define GPURF_ORF_MRF 0
#define GPURF_ORF_L1 1
#define GPURF_ORF_L0 2
#define GPURF_ORF_LEVELS 3
#define GPURF_ORF_MAX_ENTRIES 8

typedef struct gpurf_orf_params {
  int l1_entries;       /* per thread, 1..8 */
  int l0;               /* 1: an L0 in front of the L1 */
  int split_l0;         /* 1: one L0 entry per operand slot (three) */
  int partial;          /* partial-range allocation */
  int read_operands;    /* read-operand allocation */
  int forward_branches; /* 0: values stay in the ORF within a basic block only */
  /* Energy of one warp access of each level (array and wires), by level. */
  double read_j[GPURF_ORF_LEVELS], write_j[GPURF_ORF_LEVELS];
} gpurf_orf_params;

/* 3 L1 entries, an L0, unified; partial ranges, read operands and forward
 * branches on. Energies are NaN: the caller sets them (rfhier.h). */
GPURF_API void gpurf_orf_params_init(gpurf_orf_params *p);

typedef struct gpurf_orf gpurf_orf;

/* Runs the pass on an analysed dataflow. GPURF_EINVAL (field named) for
 * entries out of range or energies that are not finite and positive. */
GPURF_API int gpurf_orf_alloc(gpurf_ctx *ctx, const gpurf_dataflow *df,
                              const gpurf_orf_params *p, gpurf_orf **out);
GPURF_API void gpurf_orf_free(gpurf_orf *a);

/* Level a source register is read from: instruction i (dataflow index),
 * source operand slot, k-th register of the operand (0 for 32-bit ones).
 * -1 for no such register. */
GPURF_API int gpurf_orf_src_level(const gpurf_orf *a, size_t i, unsigned slot, unsigned k);
/* Levels (bit 1 << level) a read fills: a read operand's first read
 * writes the ORF level it is then read from. 0 when none. */
GPURF_API unsigned gpurf_orf_src_fill(const gpurf_orf *a, size_t i, unsigned slot, unsigned k);
/* Levels (bit 1 << level) a destination register is written to. */
GPURF_API unsigned gpurf_orf_dst_levels(const gpurf_orf *a, size_t i, unsigned dst, unsigned k);

/* Warp accesses of each level over the trace (executions x annotation);
 * writes include the fills of read operands. */
GPURF_API void gpurf_orf_counts(const gpurf_orf *a, double reads[GPURF_ORF_LEVELS],
                                double writes[GPURF_ORF_LEVELS]);

GPURF_END_DECLS

#endif
