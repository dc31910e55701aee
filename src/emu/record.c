/* Trace recording. Each SIMT warp appends compact records (PC, mask, the
 * destination's per-lane values, per-lane addresses) to its own buffer;
 * when a block ends its warps are written one after another, so records of
 * a warp stay contiguous as the trace formats require. Knowing the warp's
 * whole stream at that point gives the hints exactly: a source operand is a
 * last use when no later instruction of the warp reads the register before
 * it is written again, and a strand ends before the first instruction that
 * reads the result of a long-latency load of the strand (Gebhart et al.,
 * TOCS 2012, Sec. 3). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_internal.h"

enum { R_VALUES = 1, R_ADDR = 2, R_BAR = 4, R_EXIT = 8 };

typedef struct rec_hdr {
  uint32_t pc, mask, flags;
} rec_hdr;

void emu_rec_free(emu_rec *r) {
  free(r->buf);
  memset(r, 0, sizeof *r);
}

/* Active lanes' words to a packed array and back; full warps, the common
 * case, are one copy. */
static void pack(uint8_t *dst, const uint32_t *lanes, uint32_t mask) {
  if (mask == 0xFFFFFFFFu) {
    memcpy(dst, lanes, 4u * EMU_LANES);
    return;
  }
  for (uint32_t mm = mask; mm; mm &= mm - 1, dst += 4) memcpy(dst, &lanes[__builtin_ctz(mm)], 4);
}

static void unpack(uint32_t *lanes, const uint8_t *src, uint32_t mask) {
  if (mask == 0xFFFFFFFFu) {
    memcpy(lanes, src, 4u * EMU_LANES);
    return;
  }
  memset(lanes, 0, 4u * EMU_LANES);
  for (uint32_t mm = mask; mm; mm &= mm - 1, src += 4) memcpy(&lanes[__builtin_ctz(mm)], src, 4);
}

static int writes_rd(int op) {
  return !(op == OP_ILLEGAL || (op >= OP_BEQ && op <= OP_BGEU) || (op >= OP_SB && op <= OP_SW) ||
           op == OP_FENCE || op == OP_ECALL || op == OP_EBREAK || op == OP_PUSH || op == OP_POP ||
           op == OP_FLUSH);
}

/* Source registers of an instruction (0 when it has none in that slot). */
static int sources(const dinst *d, uint8_t src[2]) {
  int op = d->op;
  if (op == OP_LUI || op == OP_AUIPC || op == OP_JAL || op == OP_FENCE || op == OP_PUSH ||
      op == OP_POP || op == OP_FLUSH || op == OP_ECALL || op == OP_EBREAK ||
      (op >= OP_CSRRWI && op <= OP_CSRRCI))
    return 0;
  src[0] = d->rs1;
  if (op == OP_JALR || (op >= OP_LB && op <= OP_LHU) || (op >= OP_ADDI && op <= OP_SRAI) ||
      op == OP_LR || (op >= OP_CSRRW && op <= OP_CSRRC))
    return 1;
  src[1] = d->rs2;
  return 2;
}

static int is_mem(int op) {
  return (op >= OP_LB && op <= OP_SW) || (op >= OP_LR && op <= OP_AMOMAXU);
}

int emu_rec_step(gpurf_emu *e, emu_warp *w, const dinst *d, uint32_t pc, uint32_t mask,
                 const uint32_t *addr) {
  emu_rec *r = &w->rec;
  uint32_t n = (uint32_t)__builtin_popcount(mask);
  int vals = writes_rd(d->op) && d->rd != EMU_SINK;
  size_t need = sizeof(rec_hdr) + (size_t)(vals + (addr != NULL)) * n * 4u;
  if (r->len + need > r->cap) {
    size_t cap = r->cap ? r->cap * 2 : 1u << 16;
    while (cap < r->len + need) cap *= 2;
    uint8_t *b = realloc(r->buf, cap);
    if (!b) return emu_set_fault(e, pc, "out of memory recording the trace");
    r->buf = b, r->cap = cap;
  }
  rec_hdr h = {pc, mask,
               (uint32_t)((vals ? R_VALUES : 0) | (addr ? R_ADDR : 0) |
                          (w->cmd >= 0 ? ((w->cmd & 1) ? R_EXIT : R_BAR) : 0))};
  uint8_t *p = r->buf + r->len;
  memcpy(p, &h, sizeof h);
  p += sizeof h;
  if (vals) {
    pack(p, w->x[d->rd], mask);
    p += 4u * n;
  }
  if (addr) pack(p, addr, mask);
  r->len += need;
  r->n++;
  return 0;
}

static gpurf_trace_mem space_of(uint32_t a) {
  if (a >= GPURF_EMU_PRIVATE_BASE) return GPURF_TRACE_MEM_LOCAL;
  if (a - GPURF_EMU_SHARED_BASE < GPURF_EMU_SHARED_BYTES) return GPURF_TRACE_MEM_SHARED;
  return GPURF_TRACE_MEM_GLOBAL;
}

static uint32_t width_of(int op) {
  return op == OP_LB || op == OP_LBU || op == OP_SB ? 1u : op == OP_LH || op == OP_LHU || op == OP_SH ? 2u : 4u;
}

static int has_imm(int op) {
  return !(op >= OP_ADD && op <= OP_AMOMAXU) && op < OP_FENCE && op != OP_ILLEGAL;
}

/* Fills *t from one compact record; returns the size of the record. */
static size_t build(gpurf_emu *e, const uint8_t *p, gpurf_trace_inst *t, const dinst **dout) {
  rec_hdr h;
  memcpy(&h, p, sizeof h);
  const dinst *d = &e->code[(h.pc - GPURF_EMU_CODE_BASE) >> 2];
  *dout = d;
  uint32_t n = (uint32_t)__builtin_popcount(h.mask);
  const uint8_t *vals = p + sizeof h, *adr = vals + ((h.flags & R_VALUES) ? n * 4u : 0u);
  t->pc = h.pc;
  t->mask = h.mask;
  t->flags = GPURF_TRACE_HAS_HINTS;
  t->n_dst = t->n_src = t->n_dst_regs = 0;
  t->mem_width = 0;
  int op = (h.flags & R_BAR) ? EMU_OP_BAR : (h.flags & R_EXIT) ? EMU_OP_EXIT : d->op;
  int sp = 0;
  if ((h.flags & R_ADDR) && h.mask) {
    uint32_t a0;
    memcpy(&a0, adr, 4);
    gpurf_trace_mem m = space_of(a0);
    sp = m == GPURF_TRACE_MEM_SHARED ? 1 : m == GPURF_TRACE_MEM_LOCAL ? 2 : 0;
    t->mem_width = (uint8_t)width_of(d->op);
    t->flags |= GPURF_TRACE_HAS_ADDR;
    uint32_t a32[EMU_LANES];
    unpack(a32, adr, h.mask); /* inactive lanes 0, as the record requires */
    for (uint32_t l = 0; l < EMU_LANES; l++) t->addr[l] = a32[l];
  }
  emu_opinfo *oi = &e->opinfo[op][sp];
  if (!oi->ready) {
    static const char *const suffix[3] = {"", ".SHARED", ".LOCAL"};
    const char *name = op == EMU_OP_BAR ? "BAR" : op == EMU_OP_EXIT ? "EXIT" : emu_op_name(op);
    snprintf(oi->name, sizeof oi->name, "%s%s", name, suffix[sp]);
    gpurf_trace_classify(oi->name, GPURF_TRACE_ARCH_RV32, &oi->cls, &oi->lat, &oi->mem);
    oi->ready = 1;
  }
  memcpy(t->opcode, oi->name, sizeof t->opcode);
  t->op_class = oi->cls;
  t->latency = oi->lat;
  t->mem = oi->mem;
  if (!is_mem(d->op)) t->mem_width = 0;
  uint8_t src[2] = {0, 0};
  int ns = sources(d, src);
  for (int i = 0; i < ns; i++) {
    t->src[i].reg = src[i] ? src[i] : GPURF_TRACE_REG_ZERO;
    t->src[i].width = 1;
  }
  t->n_src = (uint8_t)ns;
  if (writes_rd(d->op)) {
    t->n_dst = 1;
    t->dst[0].width = 1;
    t->dst[0].reg = d->rd == EMU_SINK ? GPURF_TRACE_REG_ZERO : d->rd;
    if (h.flags & R_VALUES) {
      t->n_dst_regs = 1;
      t->flags |= GPURF_TRACE_HAS_VALUES;
      unpack(t->values[0], vals, h.mask);
    }
  }
  if (has_imm(d->op)) {
    t->flags |= GPURF_TRACE_HAS_IMM;
    t->imm = d->imm;
  } else {
    t->imm = 0;
  }
  return sizeof h + (size_t)(((h.flags & R_VALUES) ? n : 0u) + ((h.flags & R_ADDR) ? n : 0u)) * 4u;
}

/* Per record: bits 0-1 last use of source 0/1, bit 7 strand end. */
static void hints(gpurf_emu *e, const emu_rec *r, const size_t *off, uint8_t *hint) {
  uint8_t need[EMU_REGS] = {0};
  for (uint64_t i = r->n; i-- > 0;) {
    rec_hdr h;
    memcpy(&h, r->buf + off[i], sizeof h);
    const dinst *d = &e->code[(h.pc - GPURF_EMU_CODE_BASE) >> 2];
    uint8_t src[2] = {0, 0};
    int ns = sources(d, src);
    uint8_t rd = writes_rd(d->op) ? d->rd : EMU_SINK;
    uint8_t bits = 0;
    for (int k = 0; k < ns; k++)
      if (src[k] && (src[k] == rd || !need[src[k]])) bits |= (uint8_t)(1u << k);
    hint[i] = bits;
    need[rd] = 0;
    for (int k = 0; k < ns; k++) need[src[k]] = 1;
  }
  uint32_t pending = 0; /* registers loaded by long-latency loads of the strand */
  for (uint64_t i = 0; i < r->n; i++) {
    rec_hdr h;
    memcpy(&h, r->buf + off[i], sizeof h);
    const dinst *d = &e->code[(h.pc - GPURF_EMU_CODE_BASE) >> 2];
    uint8_t src[2] = {0, 0};
    int ns = sources(d, src);
    for (int k = 0; k < ns; k++)
      if (src[k] && (pending >> src[k] & 1u) && i > 0) {
        hint[i - 1] |= 0x80u;
        pending = 0;
      }
    if (d->op >= OP_LB && d->op <= OP_LHU && d->rd != EMU_SINK && (h.flags & R_ADDR)) {
      uint32_t a0;
      memcpy(&a0, r->buf + off[i] + sizeof h + ((h.flags & R_VALUES) ? 4u * (uint32_t)__builtin_popcount(h.mask) : 0u), 4);
      if (h.mask && space_of(a0) != GPURF_TRACE_MEM_SHARED) pending |= 1u << d->rd;
    }
  }
  if (r->n) hint[r->n - 1] |= 0x80u; /* the warp's end ends its last strand */
}

int emu_rec_flush(gpurf_ctx *ctx, gpurf_emu *e, uint32_t first_warp, uint32_t nwarps,
                  uint32_t group, uint32_t groups, uint32_t wpb) {
  gpurf_trace_kernel *k = calloc(1, sizeof *k);
  gpurf_trace_inst *t = calloc(1, sizeof *t);
  size_t *off = NULL;
  uint8_t *hint = NULL;
  int rc = GPURF_OK;
  if (!k || !t) {
    rc = gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
    goto done;
  }
  snprintf(k->name, sizeof k->name, "%s", e->trace_name[0] ? e->trace_name : "kernel");
  k->id = e->kernel_id;
  k->grid[0] = groups, k->grid[1] = k->grid[2] = 1;
  k->block[0] = wpb * EMU_LANES, k->block[1] = k->block[2] = 1;
  k->nregs = 32;
  k->binary_version = GPURF_TRACE_ARCH_RV32;
  for (uint32_t i = 0; i < nwarps && rc == GPURF_OK; i++) {
    emu_rec *r = &e->warps[first_warp + i].rec;
    free(off);
    free(hint);
    off = malloc((r->n + 1) * sizeof *off);
    hint = malloc(r->n + 1);
    if (!off || !hint) {
      rc = gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
      break;
    }
    size_t pos = 0;
    for (uint64_t j = 0; j < r->n; j++) {
      off[j] = pos;
      rec_hdr h;
      memcpy(&h, r->buf + pos, sizeof h);
      uint32_t n = (uint32_t)__builtin_popcount(h.mask);
      pos += sizeof h + (size_t)(((h.flags & R_VALUES) ? n : 0u) + ((h.flags & R_ADDR) ? n : 0u)) * 4u;
    }
    hints(e, r, off, hint);
    for (uint64_t j = 0; j < r->n && rc == GPURF_OK; j++) {
      const dinst *d;
      build(e, r->buf + off[j], t, &d);
      t->kernel = e->kernel_id;
      t->cta[0] = group, t->cta[1] = t->cta[2] = 0;
      t->warp = i;
      t->last_use = hint[j] & 3u;
      t->strand_end = hint[j] >> 7;
      rc = gpurf_trace_write(ctx, e->tw, k, t);
    }
    r->len = 0;
    r->n = 0;
  }
done:
  free(off);
  free(hint);
  free(k);
  free(t);
  return rc;
}
