/* Shared pieces of the trace readers and writers. */
#ifndef GPURF_TRACE_INTERNAL_H
#define GPURF_TRACE_INTERNAL_H

#include <stdio.h>
#include <stdlib.h>

#include "core/ctx_internal.h"
#include "gpurf/trace.h"

/* Longest text line accepted; a list-all Accel-Sim line of 32 64-bit
 * addresses is under 1 KiB, so anything near this is not a trace. */
#define TR_LINE_MAX 65536
#define TR_PATH_MAX 4096

/* Buffered line reader that counts lines and refuses binary data. */
typedef struct tr_lines {
  FILE *f;
  char path[TR_PATH_MAX];
  char *buf;
  size_t cap, start, end;
  int eof;
  long line_no;
} tr_lines;

int tr_lines_open(gpurf_ctx *ctx, tr_lines *l, const char *path);
/* As tr_lines_open over a stream already open, whose first n bytes (head)
 * were read to sniff the format: they are read again from the buffer, so
 * the input is opened once and a pipe works. Takes f even when it fails. */
int tr_lines_attach(gpurf_ctx *ctx, tr_lines *l, const char *name, FILE *f,
                    const unsigned char *head, size_t n);
/* 1 with *line (NUL-terminated, newline stripped), 0 at end, < 0 on error. */
int tr_lines_next(gpurf_ctx *ctx, tr_lines *l, char **line, size_t *len);
void tr_lines_close(tr_lines *l);

/* Sniffs the first bytes of a file: fails with a message when it is gzip,
 * xz, bzip2 or zstd compressed. */
int tr_refuse_compressed(gpurf_ctx *ctx, const char *path, const unsigned char *head, size_t n);

/* Token scanner over one line. */
typedef struct tr_tok {
  const char *s; /* start of the line */
  const char *p; /* cursor */
} tr_tok;

/* Next whitespace-separated token; returns its length (0 at end). */
size_t tr_tok_next(tr_tok *t, const char **tok);
int tr_col(const tr_tok *t, const char *at);

/* Strict number parsers over [s, s+n): 0 on success. */
int tr_parse_hex(const char *s, size_t n, uint64_t *out);
int tr_parse_u64(const char *s, size_t n, uint64_t *out);
int tr_parse_i64(const char *s, size_t n, int64_t *out);

/* Fills class, latency and memory kind of inst from its opcode and sets the
 * operand widths. Returns 1 when the opcode was in the table. */
int tr_decode_opcode(gpurf_trace_inst *inst, uint32_t binary_version);
/* opcode_rv.c: RISC-V mnemonics of emulator traces ("LW", "LW.SHARED"). */
int tr_classify_rv(const char *opcode, gpurf_trace_class *cls, gpurf_trace_latency *lat,
                   gpurf_trace_mem *mem);
uint8_t tr_rv_mem_width(const char *opcode);

/* Highest register an operand of inst touches, + 1 (0 when none does). */
static inline uint32_t tr_regs_used(const gpurf_trace_inst *inst) {
  uint32_t top = 0;
  for (unsigned i = 0; i < inst->n_dst; i++)
    if (inst->dst[i].reg != GPURF_TRACE_REG_ZERO && inst->dst[i].reg + inst->dst[i].width > top)
      top = (uint32_t)inst->dst[i].reg + inst->dst[i].width;
  for (unsigned i = 0; i < inst->n_src; i++)
    if (inst->src[i].reg != GPURF_TRACE_REG_ZERO && inst->src[i].reg + inst->src[i].width > top)
      top = (uint32_t)inst->src[i].reg + inst->src[i].width;
  return top;
}

/* Number of 32-bit destination registers, RZ excluded. */
uint8_t tr_count_dst_regs(const gpurf_trace_inst *inst);

/* Checks operands against the register count; names FILE:LINE on failure. */
int tr_check_regs(gpurf_ctx *ctx, const gpurf_trace_inst *inst, uint32_t nregs,
                  const char *file, long line);

static inline int tr_popcount(uint32_t m) {
#if defined(__GNUC__)
  return __builtin_popcount(m);
#else
  int n = 0;
  for (; m; m &= m - 1) n++;
  return n;
#endif
}

/* Whether the active lanes' addresses are base + k x stride for the k-th
 * active lane: both native formats then store two numbers, not a list. */
static inline int tr_addr_strided(const gpurf_trace_inst *inst, uint64_t *base, uint64_t *stride) {
  int first = -1, second = -1, ok = 1;
  for (int l = 0; l < 32; l++)
    if (inst->mask >> l & 1) {
      if (first < 0) first = l;
      else if (second < 0) second = l;
    }
  *base = first >= 0 ? inst->addr[first] : 0;
  *stride = second >= 0 ? inst->addr[second] - *base : 0;
  for (int l = 0, k = 0; l < 32; l++)
    if (inst->mask >> l & 1) ok &= inst->addr[l] == *base + *stride * (uint64_t)k++;
  return ok;
}

/* Whether one destination register's active-lane values are base + l x
 * stride for lane l (uniform when stride is 0): both native formats then
 * store one or two numbers, not a list. */
static inline int tr_values_affine(uint32_t mask, const uint32_t *val, uint32_t *base,
                                   uint32_t *stride) {
  int first = -1, second = -1;
  for (int l = 0; l < 32; l++)
    if (mask >> l & 1) {
      if (first < 0) first = l;
      else if (second < 0) second = l;
    }
  *stride = 0;
  if (first < 0) { /* no active lane: nothing to store but a uniform 0 */
    *base = 0;
    return 1;
  }
  int ok = 1;
  if (second >= 0) {
    uint32_t d = val[second] - val[first], dl = (uint32_t)(second - first);
    *stride = d / dl;
    ok = *stride * dl == d;
  }
  *base = val[first] - (uint32_t)first * *stride;
  for (int l = 0; ok && l < 32; l++)
    if ((mask >> l & 1) && val[l] != *base + (uint32_t)l * *stride) ok = 0;
  return ok;
}

/* Shapes of records read in brief (shape.c): slots by a hash of the pc,
 * each holding the fixed fields of the record last seen there. The key
 * half is what the binary reader compares a record's bytes with, the value
 * half what gpurf_trace_reader_shape() gives. */
#define TR_SHAPE_BITS 14
#define TR_SHAPES (1u << TR_SHAPE_BITS) /* at most 1 << 16: tr_shape_key.next */
/* Slots at first: a short trace or a small kernel zeroes and touches little
 * memory. The table grows to TR_SHAPES once records of different pcs take
 * each other's slots (tr_shapes_grow). */
#define TR_SHAPES_FIRST (1u << 10)

/* 64 bytes, one cache line: all that a binary record hitting it reads. */
typedef struct tr_shape_key {
  /* The record's first bytes (tag, opcode number, flags, pc), zero past
   * them; then those after the mask: operand counts, operands, memory
   * width, with keep 0xff over each of them. */
  uint64_t pre, win[2], keep[2];
  uint64_t stamp; /* 0: empty */
  uint32_t gen;   /* the binary reader's nb_state.gen; 0: compared with no bytes */
  uint32_t pc32; /* the record's pc, when below 2^32 (pc_fits) */
  uint8_t pre_shift; /* 64 - 8 x the bytes of pre */
  uint8_t mask_at;   /* where the mask is, from the record's start */
  uint8_t fixed;     /* where the fields by flags start */
  uint8_t flags, n_dst_regs; /* the record's flags byte; for the values it holds */
  uint8_t pc_fits;
  uint16_t next; /* the slot of the record that followed this one last */
} tr_shape_key;
_Static_assert(sizeof(tr_shape_key) == 64, "a shape key is one cache line");

/* What a repeat record (binary version 2) needs of the shape of its pc, 16
 * bytes (four to a cache line): a repeat of pc pc32 stands for the slot's
 * shape while gen is the binary reader's nb_state.gen (0: never). sf: the
 * shape's stamp << 8 | the record's flags byte. */
typedef struct tr_shape_rep {
  uint64_t sf;
  uint32_t pc32, gen;
} tr_shape_rep;

typedef struct tr_shape_val {
  uint64_t pc;
  char opcode[GPURF_TRACE_OPCODE_MAX];
  gpurf_trace_class op_class;
  gpurf_trace_latency latency;
  gpurf_trace_mem mem;
  uint8_t mem_width, n_dst, n_src, n_dst_regs;
  gpurf_trace_operand dst[GPURF_TRACE_MAX_DST];
  gpurf_trace_operand src[GPURF_TRACE_MAX_SRC];
} tr_shape_val;

typedef struct tr_shapes {
  /* In key_mem, on a 64-byte boundary; key[n_slots] is readable and names
   * no slot, so that the key after any can be looked at first. */
  tr_shape_key *key;
  tr_shape_rep *rep;  /* after the keys, zeroed with them */
  void *key_mem;      /* the keys, the reps and the values */
  tr_shape_val *val;
  uint64_t stamps; /* the last stamp given */
  uint32_t n_slots; /* a power of two, TR_SHAPES at most */
  uint32_t evicted; /* records that took the slot of another pc, at this size */
  unsigned shift;  /* log2 of the bytes taken for an instruction (tr_shape_slot) */
  uint32_t prev;   /* the slot of the last record read in brief */
  gpurf_trace_inst *rec; /* a record decoded whole, when one must be */
  /* The slots named by the first named_n records of the current read in
   * brief (native_binary_brief.c): entered only when a record would refill
   * a slot in use, cleared at the read's end. */
  uint32_t named_n;
  uint64_t named[TR_SHAPES / 64];
} tr_shapes;

int tr_shapes_alloc(gpurf_ctx *ctx, tr_shapes **out);
void tr_shapes_free(tr_shapes *s);
/* Before a read: TR_SHAPES slots when an eighth of those there are went to
 * a record of another pc than the one they held, each shape moved with its
 * stamp to the slot of its pc (a shape number of an earlier read may then
 * name another shape: its stamp tells). */
int tr_shapes_grow(gpurf_ctx *ctx, tr_shapes *s);
/* The slot of a pc: the pc in instructions, modulo the slots, so that
 * code run in sequence takes a slot per instruction. */
static inline uint32_t tr_shape_slot(const tr_shapes *s, uint64_t pc) {
  return (uint32_t)(pc >> s->shift) & (s->n_slots - 1);
}
/* The slot of a pc not yet kept: instructions are taken to be as long as
 * the longest power of two that every pc seen is a multiple of (16 bytes
 * at first; 4 for the emulator's RISC-V code). */
static inline uint32_t tr_shape_slot_new(tr_shapes *s, uint64_t pc) {
  if (pc && (unsigned)__builtin_ctzll(pc) < s->shift) s->shift = (unsigned)__builtin_ctzll(pc);
  return tr_shape_slot(s, pc);
}
/* Makes slot hold the fixed fields of inst under a new stamp, compared
 * with no bytes (key.gen 0) until the caller sets them. */
void tr_shape_set(tr_shapes *s, uint32_t slot, const gpurf_trace_inst *inst);
/* Whether slot holds the fixed fields of inst. */
int tr_shape_same(const tr_shapes *s, uint32_t slot, const gpurf_trace_inst *inst);
/* The slot of inst's pc, refilled unless it holds the same fields. */
uint32_t tr_shape_find(tr_shapes *s, const gpurf_trace_inst *inst);

/* The reader variants behind gpurf_trace_reader. briefs may be NULL: the
 * records are then read one at a time by next and given shapes by
 * tr_shape_find. */
typedef struct tr_ops {
  int (*next)(gpurf_ctx *ctx, gpurf_trace_reader *r, gpurf_trace_inst *inst);
  void (*free)(gpurf_trace_reader *r);
  int (*briefs)(gpurf_ctx *ctx, gpurf_trace_reader *r, gpurf_trace_brief *out, size_t cap,
                size_t *n, gpurf_trace_where *where);
} tr_ops;

struct gpurf_trace_reader {
  const tr_ops *ops;
  gpurf_trace_format format;
  gpurf_trace_kernel kernel;
  uint32_t kernel_index; /* of kernel, from 0 */
  uint64_t memcpy_count, memcpy_bytes;
  uint32_t omit; /* GPURF_TRACE_HAS_* fields the caller does not need */
  void *impl;
  tr_shapes *shapes; /* from the first read in brief */
};

/* Gives r a zeroed state of size bytes and its variant's ops before the open
 * reads anything, so that freeing the reader cleans up after a failed open
 * too. NULL (error set) when out of memory. */
static inline void *tr_reader_attach(gpurf_ctx *ctx, gpurf_trace_reader *r, size_t size,
                                     const tr_ops *ops, gpurf_trace_format format) {
  void *st = calloc(1, size);
  if (!st) {
    gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
    return NULL;
  }
  r->impl = st;
  r->ops = ops;
  r->format = format;
  return st;
}

/* The input as the opener finds it: open once, its first bytes already
 * read. The format's opener owns f from the call on, failing or not. */
typedef struct tr_input {
  FILE *f;
  const char *name; /* for messages ("<stdin>" for "-") */
  const unsigned char *head;
  size_t head_len;
} tr_input;

int tr_accelsim_open(gpurf_ctx *ctx, gpurf_trace_reader *r, const tr_input *in, int is_list);
int tr_text_open(gpurf_ctx *ctx, gpurf_trace_reader *r, const tr_input *in);
int tr_binary_open(gpurf_ctx *ctx, gpurf_trace_reader *r, const tr_input *in);

/* tr_check_regs for the native formats: a register past the kernel's count
 * (a trace converted from an Accel-Sim one whose -nregs fell short) makes the
 * count unknown (0, inferred by the readers' users) with one warning, as the
 * Accel-Sim reader does. */
int tr_check_kernel_regs(gpurf_ctx *ctx, gpurf_trace_reader *r, const gpurf_trace_inst *inst,
                         const char *file, long line);

/* Magic bytes of the native formats. */
#define TR_TEXT_MAGIC "gpurf-trace 1"
/* Version 2 adds repeat records; version 1 files are read as before. */
#define TR_BINARY_MAGIC "GPURFTB2"
#define TR_BINARY_MAGIC_V1 "GPURFTB1"
#define TR_BINARY_MAGIC_LEN 8
/* Bounds of binary records: an instruction record takes at most about
 * 2.4 KB (32 addresses and 16 value lists), a kernel record 4.2 KB. */
#define TR_BINARY_MAX_INST 4096
#define TR_BINARY_MAX_RECORD 8192
#define TR_BINARY_MAX_OPCODES 65536

/* Writer back ends. */
typedef struct tr_wops {
  int (*kernel)(gpurf_ctx *ctx, gpurf_trace_writer *w, const gpurf_trace_kernel *k);
  /* w->cta and w->warp changed; new_cta when the CTA did. */
  int (*pos)(gpurf_ctx *ctx, gpurf_trace_writer *w, int new_cta);
  int (*inst)(gpurf_ctx *ctx, gpurf_trace_writer *w, const gpurf_trace_inst *inst);
  int (*finish)(gpurf_ctx *ctx, gpurf_trace_writer *w);
} tr_wops;

struct gpurf_trace_writer {
  const tr_wops *ops;
  FILE *f;
  char path[TR_PATH_MAX];
  char tmp[TR_PATH_MAX + 16];
  int committed;
  int have_kernel;
  uint32_t kernel_index;
  int have_cta;
  uint32_t cta[3], warp;
  int have_warp;
  uint64_t count;
  /* binary: opcode dictionary */
  uint32_t n_opcodes;
  char (*opcodes)[GPURF_TRACE_OPCODE_MAX];
  uint32_t op_hash[256]; /* opcode id + 1 by hash of the name, 0 empty */
  /* binary: the kernel's heads by pc, for repeat records, and the pc of the
   * last instruction record since a kernel, CTA or warp record */
  struct nb_heads *heads;
  uint64_t pc_prev;
};

extern const tr_wops tr_text_wops;
extern const tr_wops tr_binary_wops;

/* Writes all bytes or fails with the output path in the error. */
int tr_write(gpurf_ctx *ctx, gpurf_trace_writer *w, const void *p, size_t n);

#endif
