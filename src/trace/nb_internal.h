/* Native binary trace reader: the state its files share (native_binary.c
 * reads records one at a time, native_binary_brief.c in brief). */
#ifndef GPURF_NB_INTERNAL_H
#define GPURF_NB_INTERNAL_H

#include <stddef.h>
#include <string.h>

#include "trace/trace_internal.h"

/* The fields a record copies from its position and from its opcode lie
 * together in gpurf_trace_inst: each is one fixed-size copy. */
#define NB_WHERE_AT offsetof(gpurf_trace_inst, kernel)
#define NB_WHERE_LEN (offsetof(gpurf_trace_inst, warp) + sizeof(uint32_t) - NB_WHERE_AT)
#define NB_OPIMG_AT offsetof(gpurf_trace_inst, opcode)
#define NB_OPIMG_LEN \
  (offsetof(gpurf_trace_inst, latency) + sizeof(gpurf_trace_latency) - NB_OPIMG_AT)
_Static_assert(NB_WHERE_LEN == 5 * sizeof(uint32_t), "kernel, cta[3], warp are adjacent");
_Static_assert(NB_OPIMG_LEN == GPURF_TRACE_OPCODE_MAX + sizeof(gpurf_trace_class) +
                                   sizeof(gpurf_trace_latency),
               "opcode, op_class, latency are adjacent");
_Static_assert(sizeof(gpurf_trace_operand) == 2, "operands are byte pairs");

typedef struct nb_op {
  unsigned char img[NB_OPIMG_LEN]; /* opcode (its name), op_class, latency as in a record */
  uint64_t bv_key;    /* binary version + 1 the class was looked up for; 0: not yet */
  uint8_t mem_access; /* the record's mem when it has a memory width */
} nb_op;

typedef struct nb_state {
  FILE *f;
  char path[TR_PATH_MAX];
  unsigned char *buf; /* NB_CHUNK + TR_BINARY_MAX_RECORD bytes */
  size_t pos, end;    /* next record; end of the data read */
  uint64_t consumed;  /* bytes before buf[0] */
  uint64_t expect;    /* size of a regular file when opened (0: not known) */
  int eof, ended, have_kernel, have_cta, have_warp;
  uint32_t where[5];  /* kernel index, CTA, warp: a record's first fields */
  uint64_t bv_key;    /* the kernel's binary version + 1 */
  unsigned reg_limit; /* a register at or above it needs a closer look */
  /* By operand bytes (register | width << 8, widths below 8): 1 for a
   * width other than 1, 2 or 4 or a register past reg_limit, else the
   * registers the operand writes (0 for RZ) times 2. */
  uint8_t operand[8 * 256];
  uint64_t count;
  nb_op *ops;
  uint32_t n_ops, cap_ops;
  /* Changes with what makes the same record bytes mean something else or
   * fail: the kernel's binary version (an opcode's class) and reg_limit.
   * A record's shape kept in brief (native_binary_brief.c) is reused only
   * while it stands; from 1 once a kernel is read. */
  uint32_t gen;
  uint64_t gen_bv; /* bv_key when gen last changed */
} nb_state;

/* Little-endian loads; the buffer holds the bytes (see native_binary.c). */
static inline uint32_t le32(const unsigned char *p) {
  uint32_t v;
  memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap32(v);
#endif
  return v;
}
static inline uint64_t le64(const unsigned char *p) {
  return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* Active lanes; without a call to the compiler's library where the target
 * has no population-count instruction. */
static inline unsigned lanes_of(uint32_t m) {
  m = m - ((m >> 1) & 0x55555555u);
  m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
  return (((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* LEB128 for the unchecked decoders: NULL past 9 bytes (nb_inst then
 * decides). */
static inline const unsigned char *fgetv(const unsigned char *p, uint64_t *v) {
  uint64_t x = *p++;
  if (x < 0x80) {
    *v = x;
    return p;
  }
  uint64_t b1 = *p++;
  x = (x & 0x7f) | (b1 & 0x7f) << 7;
  if (b1 < 0x80) {
    *v = x;
    return p;
  }
  for (int shift = 14; shift < 63; shift += 7) {
    uint64_t b = *p++;
    x |= (b & 0x7f) << shift;
    if (b < 0x80) {
      *v = x;
      return p;
    }
  }
  return NULL;
}

/* native_binary.c */
int nb_fail(gpurf_ctx *ctx, nb_state *st, const char *what);
/* Goes through the records up to the next instruction (refilling the
 * buffer, reading kernel, CTA, warp and opcode records): GPURF_OK with
 * st->pos at an instruction record of a warp, GPURF_TRACE_END, or an error. */
int nb_seek_inst(gpurf_ctx *ctx, gpurf_trace_reader *r, nb_state *st);
/* The instruction record at st->pos into *inst, every field checked and
 * each defect worded; omit as gpurf_trace_reader_omit. */
int nb_inst(gpurf_ctx *ctx, gpurf_trace_reader *r, nb_state *st, gpurf_trace_inst *inst,
            uint32_t omit);
/* The common instruction record at st->pos, at least TR_BINARY_MAX_RECORD
 * bytes before the end of the data: 1 when decoded (st->pos past it), 0,
 * st untouched, for anything nb_inst must look at. */
int nb_inst_common(nb_state *st, gpurf_trace_inst *inst, uint32_t omit);
/* native_binary_brief.c */
int nb_briefs(gpurf_ctx *ctx, gpurf_trace_reader *r, gpurf_trace_brief *out, size_t cap,
              size_t *n, gpurf_trace_where *where);

#endif
