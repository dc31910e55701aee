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

/* ---- the heads of instruction records by pc (native_binary_repeat.c) ---- */

/* A record's head: what a repeat record takes from the last record at its
 * pc, the opcode number and flags (a) and the operand counts, operands and
 * memory width (b), as their bytes. Heads of more than NB_HEAD_MAX bytes
 * (more than eight register operands) are not kept: such a record is
 * written whole, and its pc then has no head. */
#define NB_HEAD_MAX 22
#define NB_HEAD_NONE 255u   /* nb_head.len: the pc is held, without a head */
#define NB_HEADS_CAP 65536u /* pcs kept per kernel */
typedef struct nb_head {
  uint64_t pc;
  uint8_t len, a_len;
  unsigned char bytes[NB_HEAD_MAX];
} nb_head;
typedef struct nb_heads {
  nb_head *slot;  /* n_slots, written only when taken */
  uint64_t *used; /* a bit per slot, after them in one block */
  uint32_t n_slots, n;
} nb_heads;
/* What nb_heads_put did: the pc held this head already (a record with it
 * can be written as a repeat), the head is new for the pc, it replaced
 * another (repeats of the pc now mean this one), the pc's head was dropped
 * (a head too long to keep replaced it: repeats of the pc now mean none),
 * or the pc is not held (the map is full, or the head too long). */
enum {
  NB_HEAD_SAME = 0,
  NB_HEAD_NEW = 1,
  NB_HEAD_REPLACED = 2,
  NB_HEAD_DROPPED = 3,
  NB_HEAD_NOT_KEPT = 4
};
void nb_heads_reset(nb_heads *h); /* empty, as at a kernel record */
void nb_heads_free(nb_heads *h);
const nb_head *nb_heads_find(const nb_heads *h, uint64_t pc);
/* Records that the last record at pc has the head a + b; an NB_HEAD_ value,
 * or GPURF_ENOMEM. */
int nb_heads_put(nb_heads *h, uint64_t pc, const unsigned char *a, unsigned a_len,
                 const unsigned char *b, unsigned b_len);
/* Where the parts of an instruction record (tag 'I') lie. */
typedef struct nb_head_parts {
  const unsigned char *a, *b, *pc_at;
  unsigned a_len, b_len, pc_len;
} nb_head_parts;
/* The parts of the instruction record at rec, before end: 1, or 0 when it
 * is cut short or has an over-long number. */
int nb_head_split(const unsigned char *rec, const unsigned char *end, nb_head_parts *out);

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
  int version;      /* the file's: 1, or 2 with repeat records */
  /* Version 2: the kernel's heads by pc; the pc of the last instruction
   * record since a kernel, CTA or warp record (a repeat's is told from
   * it); whether the last record decoded has its head kept. */
  nb_heads heads;
  uint64_t pc_prev;
  int kept;
  /* The last record decoded, as an instruction record (tag 'I'): in buf,
   * or in syn, where a repeat is spelled out as the record it stands for. */
  const unsigned char *last_rec;
  unsigned char *syn;
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

/* Steps over a record's addresses (mode byte 0: one per lane; 1: a base and
 * a stride); NULL for another mode or a stride that does not end. */
static inline const unsigned char *nb_skip_addrs(const unsigned char *p, size_t lanes) {
  uint64_t v;
  unsigned mode = *p++;
  if (mode == 0) return p + lanes * 8;
  return mode == 1 ? fgetv(p + 8, &v) : NULL;
}

/* Steps over the values of dst_regs registers: bytes after an encoding
 * byte, 4 uniform, 8 affine, 4 per lane; NULL for another encoding. */
static inline const unsigned char *nb_skip_values(const unsigned char *p, size_t lanes,
                                                  unsigned dst_regs) {
  for (unsigned k = 0; k < dst_regs; k++) {
    unsigned enc = *p++;
    if (enc > 2) return NULL;
    p += enc == 2 ? lanes * 4 : 4u << enc;
  }
  return p;
}

/* Steps over the fields after the memory width (addresses, line,
 * immediate, values, hints, reconvergence pc) by flags; NULL for anything
 * the checked decoder must look at. Reads at most about 2.4 KB past p. */
static inline const unsigned char *nb_skip(const unsigned char *p, unsigned flags, uint32_t mask,
                                           unsigned dst_regs) {
  uint64_t v;
  size_t lanes = mask == 0xffffffffu ? 32 : lanes_of(mask);
  if ((flags & GPURF_TRACE_HAS_ADDR) && !(p = nb_skip_addrs(p, lanes))) return NULL;
  if ((flags & GPURF_TRACE_HAS_LINE) && !(p = fgetv(p, &v))) return NULL;
  if ((flags & GPURF_TRACE_HAS_IMM) && !(p = fgetv(p, &v))) return NULL;
  if ((flags & GPURF_TRACE_HAS_VALUES) && !(p = nb_skip_values(p, lanes, dst_regs))) return NULL;
  if (flags & GPURF_TRACE_HAS_HINTS) p += 2;
  if ((flags & GPURF_TRACE_HAS_RECONV) && !(p = fgetv(p, &v))) return NULL;
  return p;
}

/* Whether a record's tag is an instruction record's in the file's version. */
static inline int nb_is_inst(const nb_state *st, unsigned tag) {
  return tag == 'I' || (st->version >= 2 && (tag == 'S' || tag == 'R'));
}

/* The bytes st->syn holds: the longest instruction record, and zeros past
 * it for the decoders' fixed-size reads. */
#define NB_SYN_BYTES (TR_BINARY_MAX_RECORD + 64)

/* What nb_expand found wrong with a repeat record. */
enum { NB_REP_CUT = 1, NB_REP_BAD = 2, NB_REP_UNKNOWN = 3 };

/* Where a repeat record's tail starts, in the input and in st->syn. */
typedef struct nb_rep {
  size_t in_head, syn_head;
  const unsigned char *syn_end;
  uint64_t pc;
} nb_rep;

/* The repeat record at rec (tag R or S; the data ends at end) as the
 * instruction record it stands for, in st->syn (native_binary_repeat.c):
 * 0, or an NB_REP_ defect. */
int nb_expand(nb_state *st, const unsigned char *rec, const unsigned char *end, nb_rep *x);
/* After the instruction record at rec (tag 'I') that ends at past was
 * decoded: its pc's head kept for repeats; GPURF_OK or GPURF_ENOMEM. */
int nb_learn(nb_state *st, const unsigned char *rec, const unsigned char *past, uint64_t pc);

/* native_binary.c */
int nb_fail(gpurf_ctx *ctx, nb_state *st, const char *what);
/* Goes through the records up to the next instruction (refilling the
 * buffer, reading kernel, CTA, warp and opcode records): GPURF_OK with
 * st->pos at an instruction record of a warp, GPURF_TRACE_END, or an error. */
int nb_seek_inst(gpurf_ctx *ctx, gpurf_trace_reader *r, nb_state *st);
/* The instruction record at st->pos (I, or a repeat: R, S) into *inst,
 * every field checked and each defect worded; omit as
 * gpurf_trace_reader_omit. st->last_rec then holds it as an I record. */
int nb_inst(gpurf_ctx *ctx, gpurf_trace_reader *r, nb_state *st, gpurf_trace_inst *inst,
            uint32_t omit);
/* The common instruction record at st->pos (I, R or S), at least
 * TR_BINARY_MAX_RECORD bytes before the end of the data: 1 when decoded
 * (st->pos past it, st->last_rec as for nb_inst), 0, st's position
 * untouched, for anything nb_inst must look at. */
int nb_inst_common(nb_state *st, gpurf_trace_inst *inst, uint32_t omit);
/* native_binary_brief.c */
int nb_briefs(gpurf_ctx *ctx, gpurf_trace_reader *r, gpurf_trace_brief *out, size_t cap,
              size_t *n, gpurf_trace_where *where);

#endif
