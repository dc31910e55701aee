/* Register release flags from lifetime analysis (Jeon et al., MICRO 2015,
 * Sec. 6): a pass over a kernel's dataflow (dataflow.h) that turns last
 * uses and reconvergence-point releases into the metadata instructions a
 * compiler would add, counts them statically and dynamically, estimates
 * each register's value lifetime, and picks the registers left out of
 * renaming when the renaming table has a size budget (Sec. 7.1).
 *
 * - pir (per-instruction release flag): one 64-bit meta instruction at the
 *   start of a basic block and after every 18 instructions in it, 3 flag
 *   bits per covered instruction (one per source operand).
 * - pbr (per-branch release flag): at a reconvergence point, up to nine
 *   6-bit register ids per meta instruction; more registers take more.
 *
 * A release flag cache (Sec. 7.2) holds decoded pir flags, shared by the
 * warps of an SM: a warp entering a pir's range decodes it only on a miss. */
#ifndef GPURF_RELEASE_H
#define GPURF_RELEASE_H

#include <stddef.h>
#include <stdint.h>

#include "gpurf/context.h"
#include "gpurf/dataflow.h"
#include "gpurf/export.h"

GPURF_BEGIN_DECLS

#define GPURF_RELEASE_PIR_INSTS 18   /* instructions covered by one pir (54 flag bits / 3) */
#define GPURF_RELEASE_PBR_REGS 9     /* register ids in one pbr (54 bits / 6) */
#define GPURF_RELEASE_PIR_BYTES 6.75 /* 54 flag bits cached per entry: 10 entries = 68 B */

/* What the flags say at one instruction. */
typedef struct gpurf_release_inst {
  gpurf_regset at_entry;   /* released before it issues (pbr at a reconvergence point) */
  gpurf_regset after_read; /* released once it has read its sources (pir bits set) */
  uint32_t pir;            /* index of the pir meta instruction covering it */
  uint8_t pir_start;       /* 1: the first instruction of its pir's range */
  uint8_t pbr_count;       /* pbr meta instructions in front of it */
} gpurf_release_inst;

/* Static and dynamic (per warp execution, from the trace) counts. */
typedef struct gpurf_release_counts {
  uint64_t static_insts, static_pir, static_pbr;
  uint64_t dynamic_insts, dynamic_pir, dynamic_pbr;
  uint64_t pbr_regs; /* register ids in all pbrs (static) */
} gpurf_release_counts;

typedef struct gpurf_release gpurf_release;

/* Builds the flags of an analysed dataflow (gpurf_dataflow_analyze done).
 * The dataflow may be freed afterwards. */
GPURF_API int gpurf_release_build(gpurf_ctx *ctx, const gpurf_dataflow *df, gpurf_release **out);
GPURF_API void gpurf_release_free(gpurf_release *rel);

/* The flags at pc; NULL when the analysis never saw pc (nothing is
 * released there: a register then stays until its warp ends). */
GPURF_API const gpurf_release_inst *gpurf_release_at(const gpurf_release *rel, uint64_t pc);
GPURF_API void gpurf_release_counts_get(const gpurf_release *rel, gpurf_release_counts *out);

/* Registers the code touches, and each one's value lifetime: static writes
 * (value instances; registers read but never written count one, from
 * before the kernel) and the mean number of instructions, in layout order,
 * from a write to the flag that releases its value (to the end of the code
 * when none does). */
GPURF_API gpurf_regset gpurf_release_used(const gpurf_release *rel);
GPURF_API int gpurf_release_lifetime(const gpurf_release *rel, unsigned reg, double *mean_insts,
                                     unsigned *instances);

/* Registers a renaming table renames per warp within budget_bytes for
 * `warps` resident warps with entries of ceil(log2(phys_regs)) bits. */
GPURF_API unsigned gpurf_release_renamable(double budget_bytes, unsigned warps, unsigned phys_regs);
/* Bytes of a table renaming regs registers of each of `warps` warps. */
GPURF_API double gpurf_release_table_bytes(unsigned warps, unsigned regs, unsigned phys_regs);
/* The used registers left out of renaming when only `renamable` may be
 * renamed: the longest-lived first, ties to the one with more value
 * instances (Sec. 7.1), then to the lower id. */
GPURF_API gpurf_regset gpurf_release_exempt(const gpurf_release *rel, unsigned renamable);

/* The release flag cache: direct-mapped by pir index. entries = 0: no
 * cache, every entry into a pir range decodes it. */
typedef struct gpurf_release_cache {
  unsigned entries;
  uint32_t tag[64];
  uint8_t valid[64];
  uint64_t hits, misses;
} gpurf_release_cache;

/* GPURF_EINVAL past 64 entries. */
GPURF_API int gpurf_release_cache_init(gpurf_release_cache *c, unsigned entries);
/* A warp enters pir's range: 1 on a hit, 0 when it is fetched and decoded. */
GPURF_API int gpurf_release_cache_access(gpurf_release_cache *c, uint32_t pir);

GPURF_END_DECLS

#endif
