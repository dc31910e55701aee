/* Native binary trace: the reader. Little-endian, tagged records; an opcode
 * is spelled once and referred to by number afterwards. Layout in
 * docs/trace-format.md; the writer is native_binary_write.c.
 *
 * The input is read, never mapped: a file cut short by another process
 * while it is read then ends early, which is reported as an error, where a
 * mapping would raise SIGBUS and end the process. It is read in chunks into
 * one reused buffer followed by TR_BINARY_MAX_RECORD more readable bytes,
 * zeros past the data, so no decoder can read outside the buffer.
 *
 * Instruction records have two decoders. nb_inst_fast takes the common
 * record while TR_BINARY_MAX_RECORD bytes of data or more follow it (more
 * than a record takes), with no bounds check and no call. Anything else goes
 * to nb_inst, which checks once per stage of the record whether it ran past
 * the data, where a cut-off record first shows, and words every message. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace/nb_internal.h"

/* Bytes read at a time: large enough that a refill (and its move of the
 * unread tail) is rare, small enough to stay in a core's L2 cache, from
 * which the records are then decoded. */
#define NB_CHUNK (256u << 10)

/* Kept out of the instruction decoder, whose common path then needs fewer
 * registers. */
#if defined(__GNUC__)
#define NB_NOINLINE __attribute__((noinline))
#else
#define NB_NOINLINE
#endif

int nb_fail(gpurf_ctx *ctx, nb_state *st, const char *what) {
  return gpurf_fail_at(ctx, GPURF_EPARSE, st->path, 0, 0, NULL, "byte %llu: %s",
                       (unsigned long long)(st->consumed + st->pos), what);
}

/* Moves the unread bytes to the front and reads up to a chunk after them.
 * At the end of the input the margin after the data is zeroed. A regular
 * file that ends before the size it had when opened was cut short by
 * someone else meanwhile: an error, not a trace that merely looks
 * truncated. */
static int nb_fill(gpurf_ctx *ctx, nb_state *st) {
  size_t left = st->end - st->pos;
  if (st->pos) memmove(st->buf, st->buf + st->pos, left);
  st->consumed += st->pos;
  st->end = left;
  st->pos = 0;
  if (!st->eof) {
    size_t want = NB_CHUNK - st->end;
    size_t got = fread(st->buf + st->end, 1, want, st->f);
    st->end += got;
    if (got < want) {
      if (ferror(st->f))
        return gpurf_fail_at(ctx, GPURF_EIO, st->path, 0, 0, NULL, "read error: %s",
                             strerror(errno));
      st->eof = 1;
      uint64_t total = st->consumed + st->end;
      if (st->expect && total < st->expect)
        return gpurf_fail_at(ctx, GPURF_EIO, st->path, 0, 0, NULL,
                             "byte %llu (after %llu instructions): the file ends at byte %llu but "
                             "had %llu bytes when opened; it was cut short while being read",
                             (unsigned long long)st->consumed, (unsigned long long)st->count,
                             (unsigned long long)total, (unsigned long long)st->expect);
    }
  }
  if (st->eof) memset(st->buf + st->end, 0, TR_BINARY_MAX_RECORD);
  return GPURF_OK;
}

/* ---- the rare records: a cursor with a check per field ---- */

/* Cursor over one record; any read past `end` marks it truncated. */
typedef struct cur {
  const unsigned char *p, *end;
  int bad;
} cur;

static uint8_t rd8(cur *c) {
  if (c->p >= c->end) {
    c->bad = 1;
    return 0;
  }
  return *c->p++;
}
static uint32_t rd32(cur *c) {
  if (c->end - c->p < 4) {
    c->bad = 1;
    c->p = c->end;
    return 0;
  }
  uint32_t v = (uint32_t)c->p[0] | (uint32_t)c->p[1] << 8 | (uint32_t)c->p[2] << 16 |
               (uint32_t)c->p[3] << 24;
  c->p += 4;
  return v;
}
static uint64_t rd64(cur *c) {
  uint64_t lo = rd32(c);
  return lo | (uint64_t)rd32(c) << 32;
}
static uint64_t rdv(cur *c) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    uint8_t b = rd8(c);
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  c->bad = 1;
  return 0;
}

/* Registers at or above the kernel's count (or R255) go to the full check. */
static void nb_set_limit(const gpurf_trace_reader *r, nb_state *st) {
  uint32_t nregs = r->kernel.nregs;
  unsigned lim = nregs > 0 && nregs < GPURF_TRACE_NUM_REGS ? nregs : GPURF_TRACE_NUM_REGS;
  if (lim != st->reg_limit || st->bv_key != st->gen_bv) st->gen++, st->gen_bv = st->bv_key;
  st->reg_limit = lim;
  for (unsigned w = 0; w < 8; w++)
    for (unsigned reg = 0; reg < 256; reg++)
      st->operand[w << 8 | reg] = (uint8_t)(w != 1 && w != 2 && w != 4  ? 1
                                            : reg == GPURF_TRACE_REG_ZERO ? 0
                                            : reg + w > lim              ? 1
                                                                         : 2 * w);
}

static int nb_kernel(gpurf_ctx *ctx, gpurf_trace_reader *r, nb_state *st, cur *c) {
  gpurf_trace_kernel *k = &r->kernel;
  if (st->have_kernel) r->kernel_index++;
  memset(k, 0, sizeof *k);
  k->id = rd32(c);
  for (int i = 0; i < 3; i++) k->grid[i] = rd32(c);
  for (int i = 0; i < 3; i++) k->block[i] = rd32(c);
  k->shmem_bytes = rd32(c);
  k->nregs = rd32(c);
  k->binary_version = rd32(c);
  k->tracer_version = rd32(c);
  k->lineinfo = rd32(c);
  k->shmem_base = rd64(c);
  k->local_base = rd64(c);
  k->stream_id = rd64(c);
  uint32_t nl = rd8(c);
  nl |= (uint32_t)rd8(c) << 8;
  if (c->bad) return nb_fail(ctx, st, "truncated kernel record");
  if (nl >= sizeof k->name || (size_t)(c->end - c->p) < nl)
    return nb_fail(ctx, st, "bad kernel name length");
  memcpy(k->name, c->p, nl);
  c->p += nl;
  uint32_t vl = rd8(c);
  if (c->bad || vl >= sizeof k->nvbit_version || (size_t)(c->end - c->p) < vl)
    return nb_fail(ctx, st, "bad nvbit version length");
  memcpy(k->nvbit_version, c->p, vl);
  c->p += vl;
  if (!k->grid[0] || !k->grid[1] || !k->grid[2] || !k->block[0] || !k->block[1] || !k->block[2])
    return nb_fail(ctx, st, "kernel grid and block dimensions must be at least 1");
  if (k->nregs > GPURF_TRACE_NUM_REGS) return nb_fail(ctx, st, "kernel register count above 255");
  if (k->lineinfo > 1) return nb_fail(ctx, st, "bad lineinfo flag");
  st->have_kernel = 1;
  st->have_cta = st->have_warp = 0;
  st->where[0] = r->kernel_index;
  /* Repeats name the records of their own kernel: none kept yet, and no
   * shape kept in brief stands for a kept head (gen). */
  nb_heads_reset(&st->heads);
  st->pc_prev = 0;
  if (++st->gen == 0) st->gen = 1;
  st->bv_key = (uint64_t)k->binary_version + 1;
  nb_set_limit(r, st);
  return GPURF_OK;
}

/* C, W, O, K and E records; st->pos is moved past the record. */
static int nb_other(gpurf_ctx *ctx, gpurf_trace_reader *r, nb_state *st) {
  cur c = {st->buf + st->pos + 1, st->buf + st->end, 0};
  int rc;
  switch (st->buf[st->pos]) {
  case 'K':
    rc = nb_kernel(ctx, r, st, &c);
    if (rc) return rc;
    break;
  case 'C': {
    uint32_t x = rd32(&c), y = rd32(&c), z = rd32(&c);
    if (c.bad) return nb_fail(ctx, st, "truncated CTA record");
    if (!st->have_kernel) return nb_fail(ctx, st, "CTA record before any kernel");
    const uint32_t *g = r->kernel.grid;
    if (x >= g[0] || y >= g[1] || z >= g[2]) return nb_fail(ctx, st, "CTA outside the grid");
    st->where[1] = x, st->where[2] = y, st->where[3] = z;
    st->have_cta = 1;
    st->pc_prev = 0;
    st->have_warp = 0;
    break;
  }
  case 'W': {
    uint32_t w = rd32(&c);
    if (c.bad) return nb_fail(ctx, st, "truncated warp record");
    if (!st->have_cta) return nb_fail(ctx, st, "warp record before any CTA");
    const uint32_t *b = r->kernel.block;
    if ((uint64_t)w * 32 >= (uint64_t)b[0] * b[1] * b[2])
      return nb_fail(ctx, st, "warp outside the block");
    st->where[4] = w;
    st->have_warp = 1;
    st->pc_prev = 0;
    break;
  }
  case 'O': {
    uint8_t n = rd8(&c);
    if (c.bad || n == 0 || n >= GPURF_TRACE_OPCODE_MAX || (size_t)(c.end - c.p) < n)
      return nb_fail(ctx, st, "bad opcode record");
    if (st->n_ops >= TR_BINARY_MAX_OPCODES)
      return nb_fail(ctx, st, "more than 65536 distinct opcodes");
    if (st->n_ops == st->cap_ops) {
      uint32_t cap = st->cap_ops ? st->cap_ops * 2 : 64;
      nb_op *p = realloc(st->ops, cap * sizeof *p);
      if (!p) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
      st->ops = p;
      st->cap_ops = cap;
    }
    nb_op *op = &st->ops[st->n_ops++];
    memset(op, 0, sizeof *op);
    memcpy(op->img, c.p, n);
    c.p += n;
    if (op->img[0] < 'A' || op->img[0] > 'Z') return nb_fail(ctx, st, "bad opcode name");
    break;
  }
  case 'E': {
    uint64_t n = rdv(&c);
    if (c.bad) return nb_fail(ctx, st, "truncated end record");
    if (n != st->count) return nb_fail(ctx, st, "end record count differs from the instructions read");
    st->ended = 1;
    st->have_warp = 0;
    break;
  }
  default:
    return nb_fail(ctx, st, "unknown record tag");
  }
  st->pos = (size_t)(c.p - st->buf);
  return GPURF_OK;
}

/* ---- instruction records: no check per field ---- */

/* Unsigned LEB128 of at most 10 bytes; more sets *bad. PCs take two or
 * three bytes, so those are unrolled. */
static inline uint64_t getv_long(const unsigned char **pp, int *bad) {
  const unsigned char *p = *pp;
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    if (shift >= 64) {
      *bad = 1;
      v = 0;
      break;
    }
    uint64_t b = *p++;
    v |= (b & 0x7f) << shift;
    if (b < 0x80) break;
  }
  *pp = p;
  return v;
}
static inline uint64_t getv(const unsigned char **pp, int *bad) {
  const unsigned char *p = *pp;
  uint64_t v = p[0];
  if (v < 0x80) {
    *pp = p + 1;
    return v;
  }
  uint64_t b = p[1];
  v = (v & 0x7f) | (b & 0x7f) << 7;
  if (b < 0x80) {
    *pp = p + 2;
    return v;
  }
  b = p[2];
  v |= (b & 0x7f) << 14;
  if (b < 0x80) {
    *pp = p + 3;
    return v;
  }
  return getv_long(pp, bad);
}
static inline int64_t getz(const unsigned char **pp, int *bad) {
  uint64_t u = getv(pp, bad);
  return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* Per-lane addresses (mode 0: one per active lane; mode 1: base and
 * stride), decoded. */
static NB_NOINLINE const unsigned char *nb_addr(const unsigned char *p, uint8_t mode,
                                                gpurf_trace_inst *inst, int *bad) {
  memset(inst->addr, 0, sizeof inst->addr);
  if (mode == 0) {
    for (uint32_t m = inst->mask; m; m &= m - 1, p += 8) inst->addr[__builtin_ctz(m)] = le64(p);
  } else {
    uint64_t base = le64(p);
    p += 8;
    uint64_t stride = (uint64_t)getz(&p, bad);
    uint64_t a = base;
    for (uint32_t m = inst->mask; m; m &= m - 1, a += stride) inst->addr[__builtin_ctz(m)] = a;
  }
  return p;
}

/* Per-lane values of each destination register (encoding 0 uniform, 1
 * affine: every lane set; 2 a list over the active lanes, the others left
 * as they were), decoded; NULL for a bad encoding. */
static NB_NOINLINE const unsigned char *nb_values(const unsigned char *p, unsigned n,
                                                  gpurf_trace_inst *inst) {
  for (unsigned k = 0; k < n; k++) {
    uint32_t *val = inst->values[k];
    uint8_t enc = *p++;
    if (enc > 2) return NULL;
    if (enc == 2) {
      for (uint32_t m = inst->mask; m; m &= m - 1, p += 4) val[__builtin_ctz(m)] = le32(p);
      continue;
    }
    uint32_t base = le32(p), stride = enc == 1 ? le32(p + 4) : 0;
    for (int l = 0; l < 32; l++) val[l] = base + (uint32_t)l * stride;
    p += enc == 1 ? 8 : 4;
  }
  return p;
}

/* Register widths: 1, 2 or 4. */
static const uint8_t nb_width_ok[256] = {[1] = 1, [2] = 1, [4] = 1};

/* Class, latency and memory kind of an opcode for the kernel's binary
 * version, looked up once per opcode and kernel version. */
static void nb_classify(const gpurf_trace_reader *r, const nb_state *st, nb_op *op) {
  gpurf_trace_class cl;
  gpurf_trace_latency la;
  gpurf_trace_mem me;
  gpurf_trace_classify((const char *)op->img, r->kernel.binary_version, &cl, &la, &me);
  memcpy(op->img + (offsetof(gpurf_trace_inst, op_class) - NB_OPIMG_AT), &cl, sizeof cl);
  memcpy(op->img + (offsetof(gpurf_trace_inst, latency) - NB_OPIMG_AT), &la, sizeof la);
  op->mem_access = (uint8_t)(me == GPURF_TRACE_MEM_NONE || me == GPURF_TRACE_MEM_CONSTANT
                                 ? GPURF_TRACE_MEM_GENERIC
                                 : me);
  op->bv_key = st->bv_key;
}

/* The instruction record at rec (tag 'I'; the data ends at end), checked as
 * it is decoded (see the top); *past: where it ends. A message names the
 * byte at st->pos, where the record starts in the input. */
static NB_NOINLINE int nb_dec(gpurf_ctx *ctx, gpurf_trace_reader *r, nb_state *st,
                              const unsigned char *rec, const unsigned char *end,
                              gpurf_trace_inst *inst, uint32_t omit,
                              const unsigned char **past) {
  const unsigned char *p = rec + 1;
  unsigned char *dst_bytes = (unsigned char *)inst;
  int bad = 0;
  uint64_t id = getv(&p, &bad);
  if (bad || p > end || id >= st->n_ops)
    return nb_fail(ctx, st, "instruction refers to an undefined opcode");
  nb_op *op = &st->ops[id];
  if (__builtin_expect(op->bv_key != st->bv_key, 0)) nb_classify(r, st, op);
  memcpy(dst_bytes + NB_OPIMG_AT, op->img, NB_OPIMG_LEN);
  memcpy(dst_bytes + NB_WHERE_AT, st->where, NB_WHERE_LEN);
  uint32_t flags = *p++;
  if (flags & ~0x3fu) return nb_fail(ctx, st, "unknown instruction flags");
  inst->pc = getv(&p, &bad);
  uint32_t mask = le32(p);
  inst->mask = mask;
  unsigned nn = p[4];
  p += 5;
  unsigned n_dst = nn & 7, n_src = nn >> 3;
  if (n_dst > GPURF_TRACE_MAX_DST || n_src > GPURF_TRACE_MAX_SRC)
    return nb_fail(ctx, st, "too many register operands");
  inst->n_dst = (uint8_t)n_dst;
  inst->n_src = (uint8_t)n_src;
  /* Operands are stored as gpurf_trace_operand is laid out, (register,
   * width) byte pairs, and copied as whole arrays (fixed sizes, no loop):
   * the entries past n_dst and n_src then hold whatever followed. Widths
   * are checked, the highest register and the destination registers
   * counted in one pass. */
  memcpy(inst->dst, p, sizeof inst->dst);
  memcpy(inst->src, p + 2 * n_dst, sizeof inst->src);
  unsigned last = 0, dst_regs = 0, bad_width = 0;
  const unsigned char *o = p;
  for (const unsigned char *e = p + 2 * n_dst; o < e; o += 2) {
    unsigned reg = o[0], w = o[1];
    bad_width |= nb_width_ok[w] ^ 1u;
    unsigned hi = reg + w - 1, live = reg != GPURF_TRACE_REG_ZERO;
    last = live && hi > last ? hi : last;
    dst_regs += live ? w : 0;
  }
  for (const unsigned char *e = o + 2 * n_src; o < e; o += 2) {
    unsigned reg = o[0], w = o[1];
    bad_width |= nb_width_ok[w] ^ 1u;
    unsigned hi = reg + w - 1;
    last = reg != GPURF_TRACE_REG_ZERO && hi > last ? hi : last;
  }
  p = o;
  if (bad_width) return nb_fail(ctx, st, "register width must be 1, 2 or 4");
  unsigned mem_width = *p++;
  inst->mem_width = (uint8_t)mem_width;
  inst->mem = mem_width ? (gpurf_trace_mem)op->mem_access : GPURF_TRACE_MEM_NONE;
  if (bad || p > end) return nb_fail(ctx, st, "truncated instruction record");
  inst->n_dst_regs = (uint8_t)dst_regs;
  if (flags & GPURF_TRACE_HAS_ADDR) {
    uint8_t mode = *p++;
    if (mode > 1) return nb_fail(ctx, st, "bad address mode");
    if (!(omit & GPURF_TRACE_HAS_ADDR))
      p = nb_addr(p, mode, inst, &bad);
    else if (mode == 0)
      p += (size_t)lanes_of(mask) * 8;
    else
      p += 8, (void)getv(&p, &bad);
  }
  inst->line = (flags & GPURF_TRACE_HAS_LINE) ? (uint32_t)getv(&p, &bad) : 0;
  inst->imm = (flags & GPURF_TRACE_HAS_IMM) ? getz(&p, &bad) : 0;
  if (flags & GPURF_TRACE_HAS_VALUES) {
    if (!(omit & GPURF_TRACE_HAS_VALUES)) {
      if (!(p = nb_values(p, dst_regs, inst))) return nb_fail(ctx, st, "bad value encoding");
    } else {
      /* Bytes after an encoding byte: 4 uniform, 8 affine, 4 per lane. */
      size_t list = (size_t)(mask == 0xffffffffu ? 32 : lanes_of(mask)) * 4;
      for (unsigned k = 0; k < dst_regs; k++) {
        unsigned enc = *p++;
        if (enc > 2) return nb_fail(ctx, st, "bad value encoding");
        p += enc == 2 ? list : 4u << enc;
      }
    }
  }
  inst->flags = flags & ~omit;
  inst->last_use = 0;
  inst->strand_end = 0;
  if (flags & GPURF_TRACE_HAS_HINTS) {
    inst->last_use = p[0];
    inst->strand_end = p[1];
    p += 2;
  }
  inst->reconv_pc = (flags & GPURF_TRACE_HAS_RECONV) ? getv(&p, &bad) : 0;
  if (bad || p > end) return nb_fail(ctx, st, "truncated instruction record");
  if (__builtin_expect(last >= st->reg_limit, 0)) {
    /* Names the operand at fault, or makes a count the registers exceed unknown. */
    int rc = tr_check_kernel_regs(ctx, r, inst, st->path, 0);
    if (rc) return rc;
    nb_set_limit(r, st);
  }
  *past = p;
  return GPURF_OK;
}

/* Everything but an instruction of the current warp well inside the data
 * read: filling the buffer, the end, the other records. */
int nb_seek_inst(gpurf_ctx *ctx, gpurf_trace_reader *r, nb_state *st) {
  for (;;) {
    if (st->end - st->pos < TR_BINARY_MAX_RECORD && !st->eof) {
      int rc = nb_fill(ctx, st);
      if (rc) return rc;
    }
    if (st->pos == st->end) {
      if (!st->ended) return nb_fail(ctx, st, "truncated: the end record is missing");
      return GPURF_TRACE_END;
    }
    if (st->ended) return nb_fail(ctx, st, "data after the end record");
    if (nb_is_inst(st, st->buf[st->pos])) {
      if (!st->have_warp) return nb_fail(ctx, st, "instruction before any warp record");
      return GPURF_OK;
    }
    int rc = nb_other(ctx, r, st);
    if (rc) return rc;
  }
}

static NB_NOINLINE int nb_next_slow(gpurf_ctx *ctx, gpurf_trace_reader *r, nb_state *st,
                                    gpurf_trace_inst *inst) {
  int rc = nb_seek_inst(ctx, r, st);
  return rc ? rc : nb_inst(ctx, r, st, inst, r->omit);
}

/* The common instruction record: no call, no bounds check (at least
 * TR_BINARY_MAX_RECORD bytes follow, more than a record takes). Returns 0,
 * st untouched, for anything else: an opcode to classify, addresses or
 * values the caller keeps, a register to look at closely, a defect; nb_inst
 * then decodes the record again, the general way. */
static inline const unsigned char *nb_dec_fast(const nb_state *st, const unsigned char *rec,
                                               gpurf_trace_inst *inst, uint32_t omit) {
  const unsigned char *p = rec + 1;
  uint64_t id, pc, v;
  if (!(p = fgetv(p, &id)) || id >= st->n_ops) return NULL;
  const nb_op *op = &st->ops[id];
  uint32_t flags = p[0];
  if (op->bv_key != st->bv_key || (flags & ~0x3fu) ||
      (flags & ~omit & (GPURF_TRACE_HAS_ADDR | GPURF_TRACE_HAS_VALUES)))
    return NULL;
  if (!(p = fgetv(p + 1, &pc))) return NULL;
  uint32_t mask = le32(p);
  unsigned n_dst = p[4] & 7, n_src = p[4] >> 3;
  p += 5;
  if (n_dst > GPURF_TRACE_MAX_DST || n_src > GPURF_TRACE_MAX_SRC) return NULL;
  memcpy(inst->dst, p, sizeof inst->dst);
  memcpy(inst->src, p + 2 * n_dst, sizeof inst->src);
  /* One look-up per operand; a width of 8 or more is a defect too. */
  unsigned regs2 = 0, defect = 0;
  for (unsigned i = 0; i < n_dst; i++) {
    unsigned pair = (unsigned)p[2 * i] | (unsigned)p[2 * i + 1] << 8;
    unsigned t = st->operand[pair & 0x7ff];
    defect |= (pair >> 11) | (t & 1);
    regs2 += t;
  }
  const unsigned char *o = p + 2 * n_dst;
  for (unsigned i = 0; i < n_src; i++) {
    unsigned pair = (unsigned)o[2 * i] | (unsigned)o[2 * i + 1] << 8;
    defect |= (pair >> 11) | (st->operand[pair & 0x7ff] & 1);
  }
  if (defect) return NULL;
  unsigned dst_regs = regs2 >> 1;
  p = o + 2 * n_src;
  unsigned mem_width = *p++;
  size_t lanes = mask == 0xffffffffu ? 32 : lanes_of(mask);
  if ((flags & GPURF_TRACE_HAS_ADDR) && !(p = nb_skip_addrs(p, lanes))) return NULL;
  inst->line = 0;
  inst->imm = 0;
  if (flags & GPURF_TRACE_HAS_LINE) {
    if (!(p = fgetv(p, &v))) return NULL;
    inst->line = (uint32_t)v;
  }
  if (flags & GPURF_TRACE_HAS_IMM) {
    if (!(p = fgetv(p, &v))) return NULL;
    inst->imm = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
  }
  if ((flags & GPURF_TRACE_HAS_VALUES) && !(p = nb_skip_values(p, lanes, dst_regs))) return NULL;
  inst->last_use = 0;
  inst->strand_end = 0;
  if (flags & GPURF_TRACE_HAS_HINTS) {
    inst->last_use = p[0];
    inst->strand_end = p[1];
    p += 2;
  }
  inst->reconv_pc = 0;
  if ((flags & GPURF_TRACE_HAS_RECONV) && !(p = fgetv(p, &inst->reconv_pc))) return NULL;
  unsigned char *bytes = (unsigned char *)inst;
  memcpy(bytes + NB_OPIMG_AT, op->img, NB_OPIMG_LEN);
  memcpy(bytes + NB_WHERE_AT, st->where, NB_WHERE_LEN);
  inst->pc = pc;
  inst->mask = mask;
  inst->n_dst = (uint8_t)n_dst;
  inst->n_src = (uint8_t)n_src;
  inst->n_dst_regs = (uint8_t)dst_regs;
  inst->mem_width = (uint8_t)mem_width;
  inst->mem = mem_width ? (gpurf_trace_mem)op->mem_access : GPURF_TRACE_MEM_NONE;
  inst->flags = flags & ~omit;
  return p;
}

/* ---- records as they are taken: instruction records and repeats ---- */

/* The position moves past the record decoded into inst: an instruction
 * record at rec ending at past, or (x set) a repeat spelled out in syn. */
static inline void nb_took(nb_state *st, const unsigned char *rec, const unsigned char *past,
                           const nb_rep *x, const gpurf_trace_inst *inst) {
  if (x) {
    st->kept = 1;
    st->last_rec = st->syn;
    st->pos += x->in_head + (size_t)(past - (st->syn + x->syn_head));
  } else {
    st->last_rec = rec;
    st->pos = (size_t)(past - st->buf);
  }
  st->pc_prev = inst->pc;
  st->count++;
}

int nb_inst_common(nb_state *st, gpurf_trace_inst *inst, uint32_t omit) {
  const unsigned char *rec = st->buf + st->pos, *past;
  if (*rec == 'I') {
    if (!(past = nb_dec_fast(st, rec, inst, omit)) || nb_learn(st, rec, past, inst->pc) != GPURF_OK)
      return 0;
    nb_took(st, rec, past, NULL, inst);
  } else {
    nb_rep x;
    if (!nb_is_inst(st, *rec) || nb_expand(st, rec, st->buf + st->end, &x) ||
        !(past = nb_dec_fast(st, st->syn, inst, omit)))
      return 0;
    nb_took(st, rec, past, &x, inst);
  }
  return 1;
}

int nb_inst(gpurf_ctx *ctx, gpurf_trace_reader *r, nb_state *st, gpurf_trace_inst *inst,
            uint32_t omit) {
  const unsigned char *rec = st->buf + st->pos, *end = st->buf + st->end, *past;
  int rc;
  if (*rec == 'I') {
    if ((rc = nb_dec(ctx, r, st, rec, end, inst, omit, &past)) != GPURF_OK) return rc;
    if (nb_learn(st, rec, past, inst->pc) != GPURF_OK)
      return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
    nb_took(st, rec, past, NULL, inst);
  } else {
    nb_rep x;
    char what[96];
    switch (nb_expand(st, rec, end, &x)) {
    case NB_REP_CUT:
      return nb_fail(ctx, st, "truncated instruction record");
    case NB_REP_BAD:
      return nb_fail(ctx, st, "bad pc in repeat record");
    case NB_REP_UNKNOWN:
      snprintf(what, sizeof what,
               "repeat record of pc 0x%llx, which has no head to repeat in this kernel",
               (unsigned long long)x.pc);
      return nb_fail(ctx, st, what);
    default:
      break;
    }
    if ((rc = nb_dec(ctx, r, st, st->syn, x.syn_end, inst, omit, &past)) != GPURF_OK) return rc;
    nb_took(st, rec, past, &x, inst);
  }
  return GPURF_OK;
}

static int nb_next(gpurf_ctx *ctx, gpurf_trace_reader *r, gpurf_trace_inst *inst) {
  nb_state *st = r->impl;
  /* have_warp is cleared by the end record, so data after it goes the slow way. */
  if (__builtin_expect(st->end - st->pos >= TR_BINARY_MAX_RECORD && st->have_warp, 1) &&
      __builtin_expect(nb_inst_common(st, inst, r->omit), 1))
    return GPURF_OK;
  return nb_next_slow(ctx, r, st, inst);
}

static void nb_free(gpurf_trace_reader *r) {
  nb_state *st = r->impl;
  if (!st) return;
  gpurf_input_close(st->f);
  free(st->buf);
  free(st->syn);
  free(st->ops);
  nb_heads_free(&st->heads);
  free(st);
  r->impl = NULL;
}

static const tr_ops nb_ops = {nb_next, nb_free, nb_briefs};

int tr_binary_open(gpurf_ctx *ctx, gpurf_trace_reader *r, const tr_input *in) {
  nb_state *st = tr_reader_attach(ctx, r, sizeof *st, &nb_ops, GPURF_TRACE_FORMAT_BINARY);
  if (!st) {
    gpurf_input_close(in->f);
    return GPURF_ENOMEM;
  }
  st->f = in->f; /* opened once, its first bytes already read (a pipe cannot rewind) */
  gpurf_strlcpy(st->path, in->name, sizeof st->path);
  if (!(st->buf = malloc(NB_CHUNK + TR_BINARY_MAX_RECORD)) ||
      !(st->syn = calloc(1, NB_SYN_BYTES)))
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  st->end = in->head_len < NB_CHUNK ? in->head_len : NB_CHUNK;
  memcpy(st->buf, in->head, st->end);
  /* A regular file's size tells a file cut short while it is read from a
   * truncated trace; the stream may not start at the file's beginning. */
  struct stat sb;
  int fd = fileno(st->f);
  long at = ftell(st->f);
  if (fd >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && at >= (long)st->end &&
      (uint64_t)sb.st_size >= (uint64_t)at) {
    st->expect = (uint64_t)sb.st_size - ((uint64_t)at - st->end);
#if defined(POSIX_FADV_SEQUENTIAL)
    posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  }
  int rc = nb_fill(ctx, st);
  if (rc) return rc;
  if (st->end < TR_BINARY_MAGIC_LEN) return nb_fail(ctx, st, "not a gpurf binary trace");
  if (!memcmp(st->buf, TR_BINARY_MAGIC, TR_BINARY_MAGIC_LEN))
    st->version = 2;
  else if (!memcmp(st->buf, TR_BINARY_MAGIC_V1, TR_BINARY_MAGIC_LEN))
    st->version = 1;
  else
    return nb_fail(ctx, st, "not a gpurf binary trace");
  st->pos = TR_BINARY_MAGIC_LEN;
  /* The first kernel record, so its header is known before any record. */
  if (st->pos < st->end && st->buf[st->pos] == 'K') {
    cur c = {st->buf + st->pos + 1, st->buf + st->end, 0};
    rc = nb_kernel(ctx, r, st, &c);
    if (rc) return rc;
    st->pos = (size_t)(c.p - st->buf);
  }
  return GPURF_OK;
}
