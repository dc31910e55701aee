/* Native binary trace: reader and writer. Little-endian, tagged records; an
 * opcode is spelled once and referred to by number afterwards. Layout in
 * docs/trace-format.md. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "trace/trace_internal.h"

#define NB_BUF (1u << 20)
#define NB_MAX_RECORD 4096 /* larger than the largest instruction record */
#define NB_MAX_OPCODES 65536

typedef struct nb_op {
  char name[GPURF_TRACE_OPCODE_MAX];
  uint32_t bv; /* binary version the class below was looked up for */
  uint8_t cls, lat, mem, valid;
} nb_op;

typedef struct nb_state {
  FILE *f;
  char path[TR_PATH_MAX];
  unsigned char *buf;
  size_t mapped; /* buf maps the whole file (its size), or 0: buf is ours */
  size_t pos, end;
  uint64_t consumed; /* bytes before buf[0] */
  int eof, ended, have_kernel, have_cta, have_warp;
  uint32_t cta[3], warp;
  uint64_t count;
  nb_op *ops;
  uint32_t n_ops, cap_ops;
} nb_state;

static int nb_fail(gpurf_ctx *ctx, nb_state *st, const char *what) {
  return gpurf_fail_at(ctx, GPURF_EPARSE, st->path, 0, 0, NULL, "byte %llu: %s",
                       (unsigned long long)(st->consumed + st->pos), what);
}

/* Makes at least `need` bytes available unless the file ends first. */
static int nb_fill(gpurf_ctx *ctx, nb_state *st, size_t need) {
  if (st->end - st->pos >= need || st->eof) return GPURF_OK;
  memmove(st->buf, st->buf + st->pos, st->end - st->pos);
  st->consumed += st->pos;
  st->end -= st->pos;
  st->pos = 0;
  while (!st->eof && st->end < NB_BUF) {
    size_t got = fread(st->buf + st->end, 1, NB_BUF - st->end, st->f);
    if (got == 0) {
      if (ferror(st->f))
        return gpurf_fail_at(ctx, GPURF_EIO, st->path, 0, 0, NULL, "read error: %s", strerror(errno));
      st->eof = 1;
    }
    st->end += got;
    if (st->end - st->pos >= need) break;
  }
  return GPURF_OK;
}

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
static int64_t rdz(cur *c) {
  uint64_t u = rdv(c);
  return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
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
  return GPURF_OK;
}

/* Little-endian loads from a record known to hold the bytes. */
static inline uint32_t le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t le64(const unsigned char *p) {
  return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* Active lanes; without a call to the compiler's library where the target
 * has no population-count instruction. */
static inline int lanes_of(uint32_t m) {
  m = m - ((m >> 1) & 0x55555555u);
  m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
  return (int)((((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

/* Moves the cursor over n bytes, or marks the record truncated. */
static inline void skip(cur *c, size_t n) {
  if ((size_t)(c->end - c->p) < n) {
    c->bad = 1;
    c->p = c->end;
  } else {
    c->p += n;
  }
}

/* Per-lane addresses (mode 0: one per active lane; mode 1: base and
 * stride). Skipped when the caller does not want them. */
static int nb_addr(gpurf_ctx *ctx, nb_state *st, cur *c, gpurf_trace_inst *inst, int keep) {
  uint8_t mode = rd8(c);
  int lanes = lanes_of(inst->mask);
  if (mode > 1) return nb_fail(ctx, st, "bad address mode");
  if (!keep) {
    if (mode == 0)
      skip(c, (size_t)lanes * 8);
    else
      skip(c, 8), (void)rdz(c);
    return GPURF_OK;
  }
  memset(inst->addr, 0, sizeof inst->addr);
  if (mode == 0 && (size_t)(c->end - c->p) >= (size_t)lanes * 8) {
    for (uint32_t m = inst->mask; m; m &= m - 1, c->p += 8)
      inst->addr[__builtin_ctz(m)] = le64(c->p);
  } else if (mode == 0) {
    for (int l = 0; l < 32; l++)
      if (inst->mask >> l & 1) inst->addr[l] = rd64(c);
  } else {
    uint64_t base = rd64(c);
    uint64_t stride = (uint64_t)rdz(c);
    for (int l = 0, k = 0; l < 32; l++)
      if (inst->mask >> l & 1) inst->addr[l] = base + stride * (uint64_t)k++;
  }
  return GPURF_OK;
}

/* Per-lane destination values (encoding 0 uniform, 1 affine, 2 a list over
 * the active lanes). Skipped when the caller does not want them. */
static int nb_values(gpurf_ctx *ctx, nb_state *st, cur *c, gpurf_trace_inst *inst, int keep) {
  if (inst->n_dst_regs > GPURF_TRACE_MAX_DST_REGS) return nb_fail(ctx, st, "too many values");
  int lanes = lanes_of(inst->mask);
  for (unsigned k = 0; k < inst->n_dst_regs; k++) {
    uint32_t *val = inst->values[k];
    uint8_t enc = rd8(c);
    if (enc > 2) return nb_fail(ctx, st, "bad value encoding");
    if (!keep) {
      skip(c, enc == 2 ? (size_t)lanes * 4 : enc == 1 ? 8 : 4);
    } else if (enc == 2 && (size_t)(c->end - c->p) >= (size_t)lanes * 4) {
      for (uint32_t m = inst->mask; m; m &= m - 1, c->p += 4) val[__builtin_ctz(m)] = le32(c->p);
    } else if (enc == 2) {
      for (int l = 0; l < 32; l++)
        if (inst->mask >> l & 1) val[l] = rd32(c);
    } else {
      uint32_t base = rd32(c), stride = enc == 1 ? rd32(c) : 0;
      for (int l = 0; l < 32; l++) val[l] = base + (uint32_t)l * stride;
    }
  }
  return GPURF_OK;
}

/* Operands cut off by the end of the file: read as zeros, so the message
 * is about their widths, as for any other zero width. */
static int nb_short_operands(gpurf_ctx *ctx, nb_state *st, cur *c, gpurf_trace_inst *inst) {
  for (unsigned i = 0; i < inst->n_dst; i++) {
    inst->dst[i].reg = rd8(c);
    inst->dst[i].width = rd8(c);
  }
  for (unsigned i = 0; i < inst->n_src; i++) {
    inst->src[i].reg = rd8(c);
    inst->src[i].width = rd8(c);
  }
  for (unsigned i = 0; i < inst->n_dst + inst->n_src; i++) {
    uint8_t w = i < inst->n_dst ? inst->dst[i].width : inst->src[i - inst->n_dst].width;
    if (w != 1 && w != 2 && w != 4) return nb_fail(ctx, st, "register width must be 1, 2 or 4");
  }
  return nb_fail(ctx, st, "truncated instruction record");
}

static int nb_inst(gpurf_ctx *ctx, gpurf_trace_reader *r, nb_state *st, cur *c,
                   gpurf_trace_inst *inst) {
  uint64_t id = rdv(c);
  if (c->bad || id >= st->n_ops) return nb_fail(ctx, st, "instruction refers to an undefined opcode");
  nb_op *op = &st->ops[id];
  uint32_t bv = r->kernel.binary_version;
  if (!op->valid || op->bv != bv) {
    gpurf_trace_class cl;
    gpurf_trace_latency la;
    gpurf_trace_mem me;
    gpurf_trace_classify(op->name, bv, &cl, &la, &me);
    op->cls = (uint8_t)cl;
    op->lat = (uint8_t)la;
    op->mem = (uint8_t)me;
    op->bv = bv;
    op->valid = 1;
  }
  memcpy(inst->opcode, op->name, sizeof inst->opcode);
  inst->op_class = (gpurf_trace_class)op->cls;
  inst->latency = (gpurf_trace_latency)op->lat;
  inst->kernel = r->kernel_index;
  memcpy(inst->cta, st->cta, sizeof st->cta);
  inst->warp = st->warp;
  uint8_t flags = rd8(c);
  if (flags & ~0x3fu) return nb_fail(ctx, st, "unknown instruction flags");
  inst->flags = flags;
  inst->pc = rdv(c);
  inst->mask = rd32(c);
  uint8_t nn = rd8(c);
  inst->n_dst = nn & 7;
  inst->n_src = (uint8_t)(nn >> 3);
  if (inst->n_dst > GPURF_TRACE_MAX_DST || inst->n_src > GPURF_TRACE_MAX_SRC)
    return nb_fail(ctx, st, "too many register operands");
  /* Operands: widths checked, the highest register and the destination
   * registers counted on the way, so that a record in range needs no
   * second pass. */
  unsigned n_ops = inst->n_dst + inst->n_src, last = 0, dst_regs = 0;
  if ((size_t)(c->end - c->p) < 2 * n_ops) return nb_short_operands(ctx, st, c, inst);
  for (unsigned i = 0; i < n_ops; i++) {
    gpurf_trace_operand *o = i < inst->n_dst ? &inst->dst[i] : &inst->src[i - inst->n_dst];
    o->reg = c->p[0];
    o->width = c->p[1];
    c->p += 2;
    if (o->width != 1 && o->width != 2 && o->width != 4)
      return nb_fail(ctx, st, "register width must be 1, 2 or 4");
    if (o->reg == GPURF_TRACE_REG_ZERO) continue;
    unsigned hi = (unsigned)o->reg + o->width - 1;
    if (hi > last) last = hi;
    if (i < inst->n_dst) dst_regs += o->width;
  }
  inst->mem_width = rd8(c);
  inst->mem = inst->mem_width == 0 ? GPURF_TRACE_MEM_NONE
              : (op->mem == GPURF_TRACE_MEM_NONE || op->mem == GPURF_TRACE_MEM_CONSTANT)
                  ? GPURF_TRACE_MEM_GENERIC
                  : (gpurf_trace_mem)op->mem;
  if (c->bad) return nb_fail(ctx, st, "truncated instruction record");
  inst->n_dst_regs = (uint8_t)dst_regs;
  int rc;
  if (flags & GPURF_TRACE_HAS_ADDR) {
    if ((rc = nb_addr(ctx, st, c, inst, !(r->omit & GPURF_TRACE_HAS_ADDR))) != GPURF_OK) return rc;
  }
  inst->line = (flags & GPURF_TRACE_HAS_LINE) ? (uint32_t)rdv(c) : 0;
  inst->imm = (flags & GPURF_TRACE_HAS_IMM) ? rdz(c) : 0;
  if (flags & GPURF_TRACE_HAS_VALUES) {
    rc = nb_values(ctx, st, c, inst, !(r->omit & GPURF_TRACE_HAS_VALUES));
    if (rc != GPURF_OK) return rc;
  }
  inst->flags &= ~r->omit;
  inst->last_use = 0;
  inst->strand_end = 0;
  if (flags & GPURF_TRACE_HAS_HINTS) {
    inst->last_use = rd8(c);
    inst->strand_end = rd8(c);
  }
  inst->reconv_pc = (flags & GPURF_TRACE_HAS_RECONV) ? rdv(c) : 0;
  if (c->bad) return nb_fail(ctx, st, "truncated instruction record");
  uint32_t nregs = r->kernel.nregs;
  unsigned lim = nregs > 0 && nregs < GPURF_TRACE_NUM_REGS ? nregs : GPURF_TRACE_NUM_REGS;
  if (last < lim && dst_regs <= GPURF_TRACE_MAX_DST_REGS) return GPURF_OK;
  /* Names the operand at fault, or makes a count the registers exceed unknown. */
  return tr_check_kernel_regs(ctx, r, inst, st->path, 0);
}

static int nb_next(gpurf_ctx *ctx, gpurf_trace_reader *r, gpurf_trace_inst *inst) {
  nb_state *st = r->impl;
  for (;;) {
    int rc = nb_fill(ctx, st, NB_MAX_RECORD);
    if (rc) return rc;
    if (st->pos == st->end) {
      if (!st->ended) return nb_fail(ctx, st, "truncated: the end record is missing");
      return GPURF_TRACE_END;
    }
    cur c = {st->buf + st->pos, st->buf + st->end, 0};
    uint8_t tag = rd8(&c);
    if (st->ended) return nb_fail(ctx, st, "data after the end record");
    switch (tag) {
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
      st->cta[0] = x, st->cta[1] = y, st->cta[2] = z;
      st->have_cta = 1;
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
      st->warp = w;
      st->have_warp = 1;
      break;
    }
    case 'O': {
      uint8_t n = rd8(&c);
      if (c.bad || n == 0 || n >= GPURF_TRACE_OPCODE_MAX || (size_t)(c.end - c.p) < n)
        return nb_fail(ctx, st, "bad opcode record");
      if (st->n_ops >= NB_MAX_OPCODES) return nb_fail(ctx, st, "more than 65536 distinct opcodes");
      if (st->n_ops == st->cap_ops) {
        uint32_t cap = st->cap_ops ? st->cap_ops * 2 : 64;
        nb_op *p = realloc(st->ops, cap * sizeof *p);
        if (!p) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
        st->ops = p;
        st->cap_ops = cap;
      }
      nb_op *op = &st->ops[st->n_ops++];
      memset(op, 0, sizeof *op);
      memcpy(op->name, c.p, n);
      c.p += n;
      if (op->name[0] < 'A' || op->name[0] > 'Z') return nb_fail(ctx, st, "bad opcode name");
      break;
    }
    case 'I':
      if (!st->have_warp) return nb_fail(ctx, st, "instruction before any warp record");
      rc = nb_inst(ctx, r, st, &c, inst);
      if (rc) return rc;
      st->pos = (size_t)(c.p - st->buf);
      st->count++;
      return GPURF_OK;
    case 'E': {
      uint64_t n = rdv(&c);
      if (c.bad) return nb_fail(ctx, st, "truncated end record");
      if (n != st->count) return nb_fail(ctx, st, "end record count differs from the instructions read");
      st->ended = 1;
      break;
    }
    default:
      return nb_fail(ctx, st, "unknown record tag");
    }
    st->pos = (size_t)(c.p - st->buf);
  }
}

static void nb_free(gpurf_trace_reader *r) {
  nb_state *st = r->impl;
  if (!st) return;
  gpurf_input_close(st->f);
  if (st->mapped)
    munmap(st->buf, st->mapped);
  else
    free(st->buf);
  free(st->ops);
  free(st);
  r->impl = NULL;
}

static const tr_ops nb_ops = {nb_next, nb_free};

int tr_binary_open(gpurf_ctx *ctx, gpurf_trace_reader *r, const tr_input *in) {
  nb_state *st = tr_reader_attach(ctx, r, sizeof *st, &nb_ops, GPURF_TRACE_FORMAT_BINARY);
  if (!st) {
    gpurf_input_close(in->f);
    return GPURF_ENOMEM;
  }
  st->f = in->f; /* opened once, its first bytes already read (a pipe cannot rewind) */
  gpurf_strlcpy(st->path, in->name, sizeof st->path);
  /* A regular file is mapped, from its start: records are decoded where they
   * lie, without copying the file through a buffer. Anything else is read in
   * pieces after the bytes the format was told from. */
  struct stat sb;
  if (fstat(fileno(st->f), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
      (uint64_t)sb.st_size <= SIZE_MAX) {
    void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fileno(st->f), 0);
    if (m != MAP_FAILED) {
      posix_madvise(m, (size_t)sb.st_size, POSIX_MADV_SEQUENTIAL);
      st->buf = m;
      st->mapped = st->end = (size_t)sb.st_size;
      st->eof = 1;
    }
  }
  if (!st->mapped) {
    if (!(st->buf = malloc(NB_BUF))) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
    st->end = in->head_len < NB_BUF ? in->head_len : NB_BUF;
    memcpy(st->buf, in->head, st->end);
  }
  int rc = nb_fill(ctx, st, NB_MAX_RECORD);
  if (rc) return rc;
  if (st->end < TR_BINARY_MAGIC_LEN || memcmp(st->buf, TR_BINARY_MAGIC, TR_BINARY_MAGIC_LEN) != 0)
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

/* ---- writer ---- */

typedef struct wbuf {
  unsigned char b[NB_MAX_RECORD];
  size_t n;
} wbuf;

static void w8(wbuf *w, uint8_t v) { w->b[w->n++] = v; }
static void w32(wbuf *w, uint32_t v) {
  for (int i = 0; i < 4; i++) w->b[w->n++] = (unsigned char)(v >> (8 * i));
}
static void w64(wbuf *w, uint64_t v) {
  w32(w, (uint32_t)v);
  w32(w, (uint32_t)(v >> 32));
}
static void wv(wbuf *w, uint64_t v) {
  while (v >= 0x80) {
    w->b[w->n++] = (unsigned char)(v | 0x80);
    v >>= 7;
  }
  w->b[w->n++] = (unsigned char)v;
}
static void wz(wbuf *w, int64_t v) { wv(w, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63)); }

static int nb_wkernel(gpurf_ctx *ctx, gpurf_trace_writer *w, const gpurf_trace_kernel *k) {
  size_t nl = strlen(k->name), vl = strlen(k->nvbit_version);
  unsigned char *b = malloc(128 + nl + vl);
  if (!b) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  wbuf *hdr = malloc(sizeof *hdr);
  if (!hdr) {
    free(b);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  }
  hdr->n = 0;
  w8(hdr, 'K');
  w32(hdr, k->id);
  for (int i = 0; i < 3; i++) w32(hdr, k->grid[i]);
  for (int i = 0; i < 3; i++) w32(hdr, k->block[i]);
  w32(hdr, k->shmem_bytes);
  w32(hdr, k->nregs);
  w32(hdr, k->binary_version);
  w32(hdr, k->tracer_version);
  w32(hdr, k->lineinfo);
  w64(hdr, k->shmem_base);
  w64(hdr, k->local_base);
  w64(hdr, k->stream_id);
  w8(hdr, (uint8_t)nl);
  w8(hdr, (uint8_t)(nl >> 8));
  memcpy(b, hdr->b, hdr->n);
  size_t n = hdr->n;
  memcpy(b + n, k->name, nl);
  n += nl;
  b[n++] = (unsigned char)vl;
  memcpy(b + n, k->nvbit_version, vl);
  n += vl;
  int rc = tr_write(ctx, w, b, n);
  free(hdr);
  free(b);
  return rc;
}

static int nb_wpos(gpurf_ctx *ctx, gpurf_trace_writer *w, int new_cta) {
  wbuf b;
  b.n = 0;
  if (new_cta) {
    w8(&b, 'C');
    for (int i = 0; i < 3; i++) w32(&b, w->cta[i]);
  }
  w8(&b, 'W');
  w32(&b, w->warp);
  return tr_write(ctx, w, b.b, b.n);
}

static uint32_t name_hash(const char *s) {
  uint32_t h = 2166136261u; /* FNV-1a */
  while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
  return (h ^ h >> 8 ^ h >> 16) & 255u;
}

static int opcode_id(gpurf_ctx *ctx, gpurf_trace_writer *w, const char *name, uint32_t *id) {
  /* Traces hold a few dozen distinct opcodes: a hash slot answers most
   * look-ups, the list the rest. */
  uint32_t h = name_hash(name), slot = w->op_hash[h];
  if (slot && strcmp(w->opcodes[slot - 1], name) == 0) {
    *id = slot - 1;
    return GPURF_OK;
  }
  for (uint32_t i = w->n_opcodes; i-- > 0;)
    if (strcmp(w->opcodes[i], name) == 0) {
      *id = i;
      w->op_hash[h] = i + 1;
      return GPURF_OK;
    }
  if (w->n_opcodes >= NB_MAX_OPCODES)
    return gpurf_fail(ctx, GPURF_EUNSUPPORTED, "more than 65536 distinct opcodes");
  if ((w->n_opcodes & (w->n_opcodes - 1)) == 0) {
    uint32_t cap = w->n_opcodes ? w->n_opcodes * 2 : 1;
    char(*p)[GPURF_TRACE_OPCODE_MAX] = realloc(w->opcodes, cap * sizeof *p);
    if (!p) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
    w->opcodes = p;
  }
  size_t n = strlen(name);
  if (n == 0 || n >= GPURF_TRACE_OPCODE_MAX) return gpurf_fail(ctx, GPURF_EINVAL, "bad opcode");
  memcpy(w->opcodes[w->n_opcodes], name, n + 1);
  unsigned char rec[2 + GPURF_TRACE_OPCODE_MAX];
  rec[0] = 'O';
  rec[1] = (unsigned char)n;
  memcpy(rec + 2, name, n);
  int rc = tr_write(ctx, w, rec, n + 2);
  if (rc) return rc;
  *id = w->n_opcodes++;
  w->op_hash[h] = *id + 1;
  return GPURF_OK;
}

static int nb_winst(gpurf_ctx *ctx, gpurf_trace_writer *w, const gpurf_trace_inst *inst) {
  uint32_t id = 0;
  int rc = opcode_id(ctx, w, inst->opcode, &id);
  if (rc) return rc;
  if (inst->n_dst > GPURF_TRACE_MAX_DST || inst->n_src > GPURF_TRACE_MAX_SRC)
    return gpurf_fail(ctx, GPURF_EINVAL, "too many register operands");
  wbuf b;
  b.n = 0;
  w8(&b, 'I');
  wv(&b, id);
  uint8_t flags = (uint8_t)(inst->flags & 0x3fu);
  if (!inst->mem_width) flags &= (uint8_t)~GPURF_TRACE_HAS_ADDR;
  if (!inst->n_dst_regs || !inst->mask) flags &= (uint8_t)~GPURF_TRACE_HAS_VALUES;
  w8(&b, flags);
  wv(&b, inst->pc);
  w32(&b, inst->mask);
  w8(&b, (uint8_t)(inst->n_dst | inst->n_src << 3));
  for (unsigned i = 0; i < inst->n_dst; i++) {
    w8(&b, inst->dst[i].reg);
    w8(&b, inst->dst[i].width);
  }
  for (unsigned i = 0; i < inst->n_src; i++) {
    w8(&b, inst->src[i].reg);
    w8(&b, inst->src[i].width);
  }
  w8(&b, inst->mem_width);
  if (flags & GPURF_TRACE_HAS_ADDR) {
    uint64_t base, stride;
    if (tr_addr_strided(inst, &base, &stride)) {
      w8(&b, 1);
      w64(&b, base);
      wz(&b, (int64_t)stride);
    } else {
      w8(&b, 0);
      for (int l = 0; l < 32; l++)
        if (inst->mask >> l & 1) w64(&b, inst->addr[l]);
    }
  }
  if (flags & GPURF_TRACE_HAS_LINE) wv(&b, inst->line);
  if (flags & GPURF_TRACE_HAS_IMM) wz(&b, inst->imm);
  if (flags & GPURF_TRACE_HAS_VALUES) {
    for (unsigned k = 0; k < inst->n_dst_regs && k < GPURF_TRACE_MAX_DST_REGS; k++) {
      const uint32_t *val = inst->values[k];
      uint32_t base, stride;
      int ok = tr_values_affine(inst->mask, val, &base, &stride);
      if (ok && stride == 0) {
        w8(&b, 0);
        w32(&b, base);
      } else if (ok) {
        w8(&b, 1);
        w32(&b, base);
        w32(&b, stride);
      } else {
        w8(&b, 2);
        for (int l = 0; l < 32; l++)
          if (inst->mask >> l & 1) w32(&b, val[l]);
      }
    }
  }
  if (flags & GPURF_TRACE_HAS_HINTS) {
    w8(&b, inst->last_use);
    w8(&b, inst->strand_end);
  }
  if (flags & GPURF_TRACE_HAS_RECONV) wv(&b, inst->reconv_pc);
  return tr_write(ctx, w, b.b, b.n);
}

static int nb_wfinish(gpurf_ctx *ctx, gpurf_trace_writer *w) {
  wbuf b;
  b.n = 0;
  w8(&b, 'E');
  wv(&b, w->count);
  return tr_write(ctx, w, b.b, b.n);
}

const tr_wops tr_binary_wops = {nb_wkernel, nb_wpos, nb_winst, nb_wfinish};
