/* Recording native traces from the SIMT emulator. Each SIMT warp appends
 * compact records (PC, mask, operands, the destination's per-lane values,
 * per-lane addresses) to its own buffer; when a block ends its warps are
 * written one after another, so records of a warp stay contiguous as the
 * trace formats require. Knowing the warp's whole stream at that point
 * gives the hints exactly: a source operand is a last use when no later
 * instruction of the warp reads the register before it is written again,
 * and a strand ends before the first instruction that reads the result of a
 * long-latency load of the strand (Gebhart et al., TOCS 2012, Sec. 3). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace_internal.h"

enum { R_VALUES = 1, R_ADDR = 2 };
#define OP_BAR GPURF_EMU_OPS
#define OP_EXIT (GPURF_EMU_OPS + 1)
#define SPACES 4

typedef struct rec_hdr {
  uint32_t pc, mask;
  int32_t imm;
  uint8_t op, space, flags, rd, n_src, rs0, rs1, mem_width, writes_rd, has_imm, pad[2];
} rec_hdr;

typedef struct rec_buf {
  uint8_t *buf;
  size_t len, cap;
  uint64_t n;
} rec_buf;

typedef struct opinfo {
  char name[GPURF_TRACE_OPCODE_MAX];
  gpurf_trace_class cls;
  gpurf_trace_latency lat;
  gpurf_trace_mem mem;
  int ready;
} opinfo;

struct gpurf_trace_recorder {
  gpurf_emu *emu;
  gpurf_trace_writer *w;
  gpurf_emu_recorder hooks;
  char name[128];
  uint32_t launches, warps, wpb;
  rec_buf bufs[GPURF_EMU_MAX_WARPS];
  opinfo ops[GPURF_EMU_OPS + 2][SPACES];
  gpurf_trace_kernel kernel;
  gpurf_trace_inst inst;
  size_t *off;
  uint8_t *hint;
  uint64_t scratch_cap;
};

static void pack(uint8_t *dst, const uint32_t *lanes, uint32_t mask) {
  if (mask == 0xFFFFFFFFu) {
    memcpy(dst, lanes, 4u * GPURF_TRACE_WARP_SIZE);
    return;
  }
  for (uint32_t mm = mask; mm; mm &= mm - 1, dst += 4) memcpy(dst, &lanes[__builtin_ctz(mm)], 4);
}

static void unpack(uint32_t *lanes, const uint8_t *src, uint32_t mask) {
  if (mask == 0xFFFFFFFFu) {
    memcpy(lanes, src, 4u * GPURF_TRACE_WARP_SIZE);
    return;
  }
  memset(lanes, 0, 4u * GPURF_TRACE_WARP_SIZE);
  for (uint32_t mm = mask; mm; mm &= mm - 1, src += 4) memcpy(&lanes[__builtin_ctz(mm)], src, 4);
}

static size_t rec_size(const rec_hdr *h) {
  uint32_t n = (uint32_t)__builtin_popcount(h->mask);
  uint32_t words = ((h->flags & R_VALUES) ? n : 0u) + ((h->flags & R_ADDR) ? n : 0u);
  return sizeof *h + (size_t)words * 4u;
}

static const char *const suffix[SPACES] = {"", "", ".SHARED", ".LOCAL"};

static int on_step(void *user, const gpurf_emu_step *s) {
  gpurf_trace_recorder *r = user;
  rec_hdr h;
  memset(&h, 0, sizeof h);
  h.pc = s->pc;
  h.mask = s->mask;
  h.imm = s->imm;
  h.op = s->cmd == GPURF_EMU_CMD_BARRIER ? OP_BAR : s->cmd == GPURF_EMU_CMD_EXIT ? OP_EXIT : s->op;
  h.space = (uint8_t)s->space;
  h.flags = (uint8_t)((s->values ? R_VALUES : 0) | (s->addr && s->mask ? R_ADDR : 0));
  h.rd = s->rd;
  h.n_src = s->n_src;
  h.rs0 = s->rs[0];
  h.rs1 = s->rs[1];
  h.mem_width = s->mem_width;
  h.writes_rd = s->writes_rd;
  h.has_imm = s->has_imm;
  opinfo *oi = &r->ops[h.op][h.space & 3u];
  if (!oi->ready) {
    const char *m = h.op == OP_BAR ? "BAR" : h.op == OP_EXIT ? "EXIT" : s->mnemonic;
    snprintf(oi->name, sizeof oi->name, "%s%s", m, suffix[h.space & 3u]);
    gpurf_trace_classify(oi->name, GPURF_TRACE_ARCH_RV32, &oi->cls, &oi->lat, &oi->mem);
    oi->ready = 1;
  }
  rec_buf *b = &r->bufs[s->warp];
  size_t need = rec_size(&h);
  if (b->len + need > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 1u << 16;
    while (cap < b->len + need) cap *= 2;
    uint8_t *nb = realloc(b->buf, cap);
    if (!nb) return -1;
    b->buf = nb, b->cap = cap;
  }
  uint8_t *p = b->buf + b->len;
  memcpy(p, &h, sizeof h);
  p += sizeof h;
  uint32_t n = (uint32_t)__builtin_popcount(s->mask);
  if (h.flags & R_VALUES) {
    pack(p, s->values, s->mask);
    p += 4u * n;
  }
  if (h.flags & R_ADDR) pack(p, s->addr, s->mask);
  b->len += need;
  b->n++;
  return 0;
}

/* Fills r->inst from one compact record. */
static void build(gpurf_trace_recorder *r, const uint8_t *p) {
  gpurf_trace_inst *t = &r->inst;
  rec_hdr h;
  memcpy(&h, p, sizeof h);
  uint32_t n = (uint32_t)__builtin_popcount(h.mask);
  const uint8_t *vals = p + sizeof h, *adr = vals + ((h.flags & R_VALUES) ? n * 4u : 0u);
  const opinfo *oi = &r->ops[h.op][h.space & 3u];
  memcpy(t->opcode, oi->name, sizeof t->opcode);
  t->op_class = oi->cls;
  t->latency = oi->lat;
  t->mem = oi->mem;
  t->pc = h.pc;
  t->mask = h.mask;
  t->flags = GPURF_TRACE_HAS_HINTS;
  t->mem_width = h.mem_width;
  if (h.flags & R_ADDR) {
    uint32_t a32[GPURF_TRACE_WARP_SIZE];
    unpack(a32, adr, h.mask); /* inactive lanes 0, as the record requires */
    for (int l = 0; l < GPURF_TRACE_WARP_SIZE; l++) t->addr[l] = a32[l];
    t->flags |= GPURF_TRACE_HAS_ADDR;
  }
  t->n_src = h.n_src;
  const uint8_t rs[2] = {h.rs0, h.rs1};
  for (int i = 0; i < h.n_src; i++) {
    t->src[i].reg = rs[i] ? rs[i] : GPURF_TRACE_REG_ZERO;
    t->src[i].width = 1;
  }
  t->n_dst = h.writes_rd;
  t->n_dst_regs = 0;
  if (h.writes_rd) {
    t->dst[0].width = 1;
    t->dst[0].reg = h.rd ? h.rd : GPURF_TRACE_REG_ZERO;
  }
  if (h.flags & R_VALUES) {
    t->n_dst_regs = 1;
    t->flags |= GPURF_TRACE_HAS_VALUES;
    unpack(t->values[0], vals, h.mask);
  }
  t->imm = h.imm;
  if (h.has_imm) t->flags |= GPURF_TRACE_HAS_IMM;
}

/* Per record: bits 0-1 last use of source 0/1, bit 7 strand end. */
static void hints(gpurf_trace_recorder *r, const rec_buf *b) {
  uint8_t need[33] = {0};
  for (uint64_t i = b->n; i-- > 0;) {
    rec_hdr h;
    memcpy(&h, b->buf + r->off[i], sizeof h);
    const uint8_t rs[2] = {h.rs0, h.rs1};
    uint8_t rd = h.rd ? h.rd : 32, bits = 0; /* 32: no register */
    for (int k = 0; k < h.n_src; k++)
      if (rs[k] && (rs[k] == rd || !need[rs[k]])) bits |= (uint8_t)(1u << k);
    r->hint[i] = bits;
    need[rd] = 0;
    for (int k = 0; k < h.n_src; k++) need[rs[k]] = 1;
  }
  uint32_t pending = 0; /* registers loaded by long-latency loads of the strand */
  for (uint64_t i = 0; i < b->n; i++) {
    rec_hdr h;
    memcpy(&h, b->buf + r->off[i], sizeof h);
    const uint8_t rs[2] = {h.rs0, h.rs1};
    for (int k = 0; k < h.n_src; k++)
      if (rs[k] && (pending >> rs[k] & 1u) && i > 0) {
        r->hint[i - 1] |= 0x80u;
        pending = 0;
      }
    const opinfo *oi = &r->ops[h.op][h.space & 3u];
    if (h.rd && h.mem_width && oi->lat == GPURF_TRACE_LAT_LONG) pending |= 1u << h.rd;
  }
  if (b->n) r->hint[b->n - 1] |= 0x80u; /* the warp's end ends its last strand */
}

static int on_launch_begin(void *user, uint32_t warps, uint32_t wpb) {
  gpurf_trace_recorder *r = user;
  r->warps = warps;
  r->wpb = wpb;
  gpurf_trace_kernel *k = &r->kernel;
  memset(k, 0, sizeof *k);
  snprintf(k->name, sizeof k->name, "%s", r->name[0] ? r->name : "kernel");
  k->id = r->launches;
  k->grid[0] = warps / wpb, k->grid[1] = k->grid[2] = 1;
  k->block[0] = wpb * GPURF_TRACE_WARP_SIZE, k->block[1] = k->block[2] = 1;
  k->nregs = 32;
  k->binary_version = GPURF_TRACE_ARCH_RV32;
  return 0;
}

static int on_block_end(gpurf_ctx *ctx, void *user, uint32_t first_warp, uint32_t block) {
  gpurf_trace_recorder *r = user;
  for (uint32_t i = 0; i < r->wpb; i++) {
    rec_buf *b = &r->bufs[first_warp + i];
    if (b->n + 1 > r->scratch_cap) {
      uint64_t cap = b->n + 1;
      size_t *off = realloc(r->off, cap * sizeof *off);
      if (off) r->off = off;
      uint8_t *hint = realloc(r->hint, cap);
      if (hint) r->hint = hint;
      if (!off || !hint) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
      r->scratch_cap = cap;
    }
    size_t pos = 0;
    for (uint64_t j = 0; j < b->n; j++) {
      r->off[j] = pos;
      rec_hdr h;
      memcpy(&h, b->buf + pos, sizeof h);
      pos += rec_size(&h);
    }
    hints(r, b);
    for (uint64_t j = 0; j < b->n; j++) {
      build(r, b->buf + r->off[j]);
      gpurf_trace_inst *t = &r->inst;
      t->kernel = r->launches;
      t->cta[0] = block, t->cta[1] = t->cta[2] = 0;
      t->warp = i;
      t->last_use = r->hint[j] & 3u;
      t->strand_end = r->hint[j] >> 7;
      int rc = gpurf_trace_write(ctx, r->w, &r->kernel, t);
      if (rc) return rc;
    }
    b->len = 0;
    b->n = 0;
  }
  return GPURF_OK;
}

static int on_launch_end(gpurf_ctx *ctx, void *user) {
  (void)ctx;
  gpurf_trace_recorder *r = user;
  r->launches++;
  return GPURF_OK;
}

int gpurf_trace_recorder_alloc(gpurf_ctx *ctx, gpurf_emu *emu, gpurf_trace_writer *w,
                               const char *name, gpurf_trace_recorder **out) {
  *out = NULL;
  if (!emu || !w) return gpurf_fail(ctx, GPURF_EINVAL, "no emulator or writer");
  gpurf_trace_recorder *r = calloc(1, sizeof *r);
  if (!r) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  if (name && gpurf_strlcpy(r->name, name, sizeof r->name) != 0) {
    free(r);
    return gpurf_fail(ctx, GPURF_EINVAL, "kernel name too long");
  }
  r->emu = emu;
  r->w = w;
  r->hooks.launch_begin = on_launch_begin;
  r->hooks.step = on_step;
  r->hooks.block_end = on_block_end;
  r->hooks.launch_end = on_launch_end;
  gpurf_emu_set_recorder(emu, &r->hooks, r);
  *out = r;
  return GPURF_OK;
}

void gpurf_trace_recorder_free(gpurf_trace_recorder *r) {
  if (!r) return;
  gpurf_emu_set_recorder(r->emu, NULL, NULL);
  for (int i = 0; i < GPURF_EMU_MAX_WARPS; i++) free(r->bufs[i].buf);
  free(r->off);
  free(r->hint);
  free(r);
}
