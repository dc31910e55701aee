/* The compressed-register-file technique's private parts: the tag its
 * decode() packs per instruction, and the decoder's per-warp shadow of the
 * register values (for partial writes). */
#ifndef GPURF_COMPRESS_INTERNAL_H
#define GPURF_COMPRESS_INTERNAL_H

#include <stdint.h>

#include "gpurf/trace.h"
#include "pipeline/tech/compress_model.h"

#define CMP_REGS 256

/* Tag: 4 bits per destination register for the first CMP_TAG_DSTS (kind in
 * bits 0-1, stride code in 2-3); flags; main-memory blocks; PC >> 2. */
#define CMP_TAG_DSTS 4
#define CMP_T_FULL (1ull << 16)             /* all 32 lanes active */
#define CMP_T_SCALAR_OP (1ull << 17)        /* an operation the scalar pipe runs */
#define CMP_T_ADD (1ull << 18)              /* an add: uniform + affine scalarises */
#define CMP_T_MERGE_COMPRESSES (1ull << 19) /* a partial write whose merged vector compresses */
#define CMP_T_NO_VALUES (1ull << 20)        /* writes without lane values (stored as vectors) */
#define CMP_T_BLOCKS_SHIFT 24               /* 8 bits: main-memory blocks accessed */
#define CMP_T_PC_SHIFT 32                   /* 16 bits */

static inline int cmp_tag_kind(uint64_t tag, int k) { return (int)(tag >> (4 * k) & 3u); }
static inline int cmp_tag_blocks(uint64_t tag) { return (int)(tag >> CMP_T_BLOCKS_SHIFT & 0xffu); }
static inline uint32_t cmp_tag_pc(uint64_t tag) { return (uint32_t)(tag >> CMP_T_PC_SHIFT & 0xffffu); }

typedef struct cmp_decoder {
  int have;
  uint32_t kernel, cta[3], warp;
  crfm_value val[CMP_REGS];
  uint32_t vec[CMP_REGS][CRFM_LANES]; /* the lanes of registers held as vectors */
} cmp_decoder;

void cmp_decoder_init(cmp_decoder *d);
/* The tag of record t (records of one warp in order). */
uint64_t cmp_decode(cmp_decoder *d, const gpurf_trace_inst *t, int block_bytes);

#endif
