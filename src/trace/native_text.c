/* Native text trace: reader and writer. The format is specified in
 * docs/trace-format.md; this file and the spec change together. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace_internal.h"

typedef struct nt_state {
  tr_lines l;
  int have_kernel, have_cta, in_warp, ended;
  uint32_t cta[3], warp;
  uint64_t count;
} nt_state;

#define FAILT(col, ...)                                                                       \
  gpurf_fail_at(ctx, GPURF_EPARSE, st->l.path, (int)st->l.line_no, (col), NULL, __VA_ARGS__)

static int parse_dim3(const char *s, size_t n, uint32_t out[3]) {
  const char *e = s + n;
  for (int i = 0; i < 3; i++) {
    const char *b = s;
    while (s < e && *s != ',') s++;
    uint64_t v;
    if (tr_parse_u64(b, (size_t)(s - b), &v) || v > UINT32_MAX) return -1;
    out[i] = (uint32_t)v;
    if (i < 2) {
      if (s >= e) return -1;
      s++;
    }
  }
  return s == e ? 0 : -1;
}

static int kernel_line(gpurf_ctx *ctx, gpurf_trace_reader *r, nt_state *st, char *line) {
  gpurf_trace_kernel *k = &r->kernel;
  if (st->have_kernel) r->kernel_index++;
  memset(k, 0, sizeof *k);
  tr_tok tk = {line, line + 6};
  const char *t;
  size_t n;
  int have_regs = 0, have_grid = 0, have_block = 0;
  while ((n = tr_tok_next(&tk, &t)) > 0) {
    const char *eq = memchr(t, '=', n);
    if (!eq) return FAILT(tr_col(&tk, t), "expected key=value, not '%.*s'", (int)n, t);
    size_t kn = (size_t)(eq - t);
    const char *v = eq + 1;
    size_t vn = n - kn - 1;
    uint64_t u;
    int bad = 0;
#define KEY(s) (kn == strlen(s) && memcmp(t, s, kn) == 0)
    if (KEY("name")) {
      /* The name runs to the end of the line and may hold spaces. */
      size_t rest = strlen(v);
      if (rest >= sizeof k->name) return FAILT(tr_col(&tk, v), "kernel name too long");
      memcpy(k->name, v, rest + 1);
      break;
    } else if (KEY("id")) {
      bad = tr_parse_u64(v, vn, &u) || u > UINT32_MAX;
      k->id = (uint32_t)u;
    } else if (KEY("grid")) {
      bad = parse_dim3(v, vn, k->grid) || !k->grid[0] || !k->grid[1] || !k->grid[2];
      have_grid = 1;
    } else if (KEY("block")) {
      bad = parse_dim3(v, vn, k->block) || !k->block[0] || !k->block[1] || !k->block[2];
      have_block = 1;
    } else if (KEY("regs")) {
      bad = tr_parse_u64(v, vn, &u) || u > GPURF_TRACE_NUM_REGS;
      k->nregs = (uint32_t)u;
      have_regs = 1;
    } else if (KEY("shmem")) {
      bad = tr_parse_u64(v, vn, &u) || u > UINT32_MAX;
      k->shmem_bytes = (uint32_t)u;
    } else if (KEY("arch")) {
      bad = tr_parse_u64(v, vn, &u) || (u > 1000 && u != GPURF_TRACE_ARCH_RV32);
      k->binary_version = (uint32_t)u;
    } else if (KEY("tracer")) {
      bad = tr_parse_u64(v, vn, &u) || u > 1000;
      k->tracer_version = (uint32_t)u;
    } else if (KEY("lineinfo")) {
      bad = tr_parse_u64(v, vn, &u) || u > 1;
      k->lineinfo = (uint32_t)u;
    } else if (KEY("stream")) {
      bad = tr_parse_u64(v, vn, &k->stream_id);
    } else if (KEY("shmem_base")) {
      bad = tr_parse_hex(v, vn, &k->shmem_base);
    } else if (KEY("local_base")) {
      bad = tr_parse_hex(v, vn, &k->local_base);
    } else if (KEY("nvbit")) {
      bad = vn >= sizeof k->nvbit_version;
      if (!bad) {
        memcpy(k->nvbit_version, v, vn);
        k->nvbit_version[vn] = '\0';
      }
    } else {
      return FAILT(tr_col(&tk, t), "unknown kernel key '%.*s'", (int)kn, t);
    }
#undef KEY
    if (bad) return FAILT(tr_col(&tk, v), "bad value '%.*s' for %.*s", (int)vn, v, (int)kn, t);
  }
  if (!have_grid || !have_block || !have_regs)
    return FAILT(1, "kernel line needs grid=, block= and regs=");
  st->have_kernel = 1;
  st->have_cta = 0;
  st->in_warp = 0;
  return GPURF_OK;
}

/* R<n>[:w] lists separated by commas, or "-". */
static int parse_operands(gpurf_ctx *ctx, nt_state *st, const tr_tok *tk, const char *t, size_t n,
                          gpurf_trace_operand *ops, unsigned max, uint8_t *count, const char *role) {
  *count = 0;
  if (n == 1 && t[0] == '-') return GPURF_OK;
  const char *e = t + n;
  while (t < e) {
    const char *b = t;
    while (t < e && *t != ',') t++;
    size_t m = (size_t)(t - b);
    if (*count >= max) return FAILT(tr_col(tk, b), "more than %u %s operands", max, role);
    gpurf_trace_operand *o = &ops[*count];
    o->width = 1;
    const char *colon = memchr(b, ':', m);
    size_t rn = colon ? (size_t)(colon - b) : m;
    uint64_t v;
    if (rn == 2 && b[0] == 'R' && b[1] == 'Z') {
      o->reg = GPURF_TRACE_REG_ZERO;
    } else if (rn >= 2 && b[0] == 'R' && tr_parse_u64(b + 1, rn - 1, &v) == 0) {
      if (v > GPURF_TRACE_REG_ZERO)
        return FAILT(tr_col(tk, b), "register %.*s out of range (R0..R255)", (int)rn, b);
      o->reg = (uint8_t)v;
    } else {
      return FAILT(tr_col(tk, b), "bad %s register '%.*s'", role, (int)m, b);
    }
    if (colon) {
      if (tr_parse_u64(colon + 1, m - rn - 1, &v) || (v != 1 && v != 2 && v != 4))
        return FAILT(tr_col(tk, colon + 1), "register width must be 1, 2 or 4");
      o->width = (uint8_t)v;
    }
    (*count)++;
    if (t < e) t++;
  }
  return GPURF_OK;
}

/* HEX,HEX,... for the active lanes of mask. */
static int parse_lane_hex(const char *s, size_t n, uint32_t mask, uint64_t *out64, uint32_t *out32) {
  const char *e = s + n;
  for (int lane = 0; lane < 32; lane++) {
    if (!(mask >> lane & 1)) continue;
    const char *b = s;
    while (s < e && *s != ',') s++;
    uint64_t v;
    if (tr_parse_hex(b, (size_t)(s - b), &v)) return -1;
    if (out32) {
      if (v > UINT32_MAX) return -1;
      out32[lane] = (uint32_t)v;
    } else {
      out64[lane] = v;
    }
    if (s < e) s++;
    else if (lane < 31 && (mask >> (lane + 1)) != 0) return -1;
  }
  return s == e ? 0 : -1;
}

static int parse_values(gpurf_trace_inst *inst, const char *s, size_t n) {
  const char *e = s + n;
  unsigned k = 0;
  while (s < e) {
    const char *b = s;
    while (s < e && *s != ';') s++;
    size_t m = (size_t)(s - b);
    if (k >= inst->n_dst_regs || m < 3 || b[1] != ':') return -1;
    uint32_t *val = inst->values[k];
    memset(val, 0, sizeof inst->values[k]);
    if (b[0] == 'u' || b[0] == 'a') {
      const char *c = memchr(b + 2, ':', m - 2);
      uint64_t base, stride = 0;
      if (b[0] == 'u') {
        if (c || tr_parse_hex(b + 2, m - 2, &base) || base > UINT32_MAX) return -1;
      } else {
        if (!c || tr_parse_hex(b + 2, (size_t)(c - b - 2), &base) || base > UINT32_MAX ||
            tr_parse_hex(c + 1, (size_t)(b + m - c - 1), &stride) || stride > UINT32_MAX)
          return -1;
      }
      for (int l = 0; l < 32; l++)
        if (inst->mask >> l & 1) val[l] = (uint32_t)base + (uint32_t)l * (uint32_t)stride;
    } else if (b[0] == 'l') {
      if (parse_lane_hex(b + 2, m - 2, inst->mask, NULL, val)) return -1;
    } else {
      return -1;
    }
    k++;
    if (s < e) s++;
  }
  return k == inst->n_dst_regs ? 0 : -1;
}

static int parse_line_inst(gpurf_ctx *ctx, gpurf_trace_reader *r, nt_state *st, char *line,
                           gpurf_trace_inst *inst) {
  tr_tok tk = {line, line};
  const char *t;
  size_t n;
  uint64_t v;
  inst->kernel = r->kernel_index;
  inst->flags = 0;
  inst->line = 0;
  inst->imm = 0;
  inst->last_use = 0;
  inst->strand_end = 0;
  inst->reconv_pc = 0;
  n = tr_tok_next(&tk, &t);
  if (tr_parse_hex(t, n, &inst->pc)) return FAILT(tr_col(&tk, t), "bad hex number '%.*s' for the PC", (int)n, t);
  n = tr_tok_next(&tk, &t);
  int hr = tr_parse_hex(t, n, &v);
  if (n == 0 || hr == -1) return FAILT(tr_col(&tk, t), "bad hex number '%.*s' for the active mask", (int)n, t);
  if (hr == -2 || v > 0xffffffffu)
    return FAILT(tr_col(&tk, t), "active mask '%.*s' is wider than the 32 lanes of a warp", (int)n, t);
  inst->mask = (uint32_t)v;
  n = tr_tok_next(&tk, &t);
  if (n == 0 || n >= GPURF_TRACE_OPCODE_MAX || t[0] < 'A' || t[0] > 'Z')
    return FAILT(tr_col(&tk, t), "bad opcode '%.*s'", (int)n, t);
  memcpy(inst->opcode, t, n);
  inst->opcode[n] = '\0';
  gpurf_trace_class cls;
  gpurf_trace_latency lat;
  gpurf_trace_mem mem;
  gpurf_trace_classify(inst->opcode, r->kernel.binary_version, &cls, &lat, &mem);
  inst->op_class = cls;
  inst->latency = lat;
  inst->mem = GPURF_TRACE_MEM_NONE;
  inst->mem_width = 0;
  n = tr_tok_next(&tk, &t);
  if (n == 0) return FAILT(tr_col(&tk, t), "line ends before the destination registers");
  int rc = parse_operands(ctx, st, &tk, t, n, inst->dst, GPURF_TRACE_MAX_DST, &inst->n_dst, "destination");
  if (rc) return rc;
  n = tr_tok_next(&tk, &t);
  if (n == 0) return FAILT(tr_col(&tk, t), "line ends before the source registers");
  rc = parse_operands(ctx, st, &tk, t, n, inst->src, GPURF_TRACE_MAX_SRC, &inst->n_src, "source");
  if (rc) return rc;
  inst->n_dst_regs = tr_count_dst_regs(inst);
  rc = tr_check_kernel_regs(ctx, r, inst, st->l.path, st->l.line_no);
  if (rc) return rc;
  const char *vals = NULL, *addr = NULL;
  size_t vals_n = 0, addr_n = 0;
  while ((n = tr_tok_next(&tk, &t)) > 0) {
    const char *eq = memchr(t, '=', n);
    if (!eq) return FAILT(tr_col(&tk, t), "expected key=value, not '%.*s'", (int)n, t);
    size_t kn = (size_t)(eq - t);
    const char *val = eq + 1;
    size_t vn = n - kn - 1;
    int bad = 0;
#define KEY(s) (kn == strlen(s) && memcmp(t, s, kn) == 0)
    if (KEY("mem")) {
      bad = tr_parse_u64(val, vn, &v) || v == 0 || v > 255;
      inst->mem_width = (uint8_t)v;
      inst->mem = (mem == GPURF_TRACE_MEM_NONE || mem == GPURF_TRACE_MEM_CONSTANT)
                      ? GPURF_TRACE_MEM_GENERIC
                      : mem;
    } else if (KEY("addr")) {
      addr = val;
      addr_n = vn;
    } else if (KEY("line")) {
      bad = tr_parse_u64(val, vn, &v) || v > UINT32_MAX;
      inst->line = (uint32_t)v;
      inst->flags |= GPURF_TRACE_HAS_LINE;
    } else if (KEY("imm")) {
      bad = tr_parse_i64(val, vn, &inst->imm);
      inst->flags |= GPURF_TRACE_HAS_IMM;
    } else if (KEY("val")) {
      vals = val;
      vals_n = vn;
    } else if (KEY("last")) {
      const char *e = val + vn, *s = val;
      while (!bad && s < e) {
        const char *b = s;
        while (s < e && *s != ',') s++;
        bad = tr_parse_u64(b, (size_t)(s - b), &v) || v >= inst->n_src;
        if (!bad) inst->last_use |= (uint8_t)(1u << v);
        if (s < e) s++;
      }
      inst->flags |= GPURF_TRACE_HAS_HINTS;
    } else if (KEY("strand")) {
      bad = !(vn == 3 && memcmp(val, "end", 3) == 0);
      inst->strand_end = 1;
      inst->flags |= GPURF_TRACE_HAS_HINTS;
    } else if (KEY("reconv")) {
      bad = tr_parse_hex(val, vn, &inst->reconv_pc);
      inst->flags |= GPURF_TRACE_HAS_RECONV;
    } else {
      return FAILT(tr_col(&tk, t), "unknown key '%.*s'", (int)kn, t);
    }
#undef KEY
    if (bad) return FAILT(tr_col(&tk, val), "bad value '%.*s' for %.*s", (int)vn, val, (int)kn, t);
  }
  if (addr) {
    int col = (int)(addr - line) + 1;
    if (!inst->mem_width) return FAILT(col, "addr= without mem=");
    memset(inst->addr, 0, sizeof inst->addr);
    int bad = addr_n < 2 || addr[1] != ':';
    if (!bad && addr[0] == 's') {
      const char *c = memchr(addr + 2, ':', addr_n - 2);
      uint64_t base;
      int64_t stride;
      bad = !c || tr_parse_hex(addr + 2, (size_t)(c - addr - 2), &base) ||
            tr_parse_i64(c + 1, (size_t)(addr + addr_n - c - 1), &stride);
      for (int l = 0, k = 0; !bad && l < 32; l++)
        if (inst->mask >> l & 1) inst->addr[l] = base + (uint64_t)stride * (uint64_t)k++;
    } else if (!bad && addr[0] == 'l') {
      bad = parse_lane_hex(addr + 2, addr_n - 2, inst->mask, inst->addr, NULL);
    } else {
      bad = 1;
    }
    if (bad) return FAILT(col, "bad addr= value (s:BASE:STRIDE or l:HEX,... per active lane)");
    inst->flags |= GPURF_TRACE_HAS_ADDR;
  }
  if (vals) {
    if (parse_values(inst, vals, vals_n))
      return FAILT((int)(vals - line) + 1,
                   "bad val= value: one u:HEX, a:BASE:STRIDE or l:HEX,... per destination register");
    inst->flags |= GPURF_TRACE_HAS_VALUES;
  }
  return GPURF_OK;
}

static int nt_next(gpurf_ctx *ctx, gpurf_trace_reader *r, gpurf_trace_inst *inst) {
  nt_state *st = r->impl;
  for (;;) {
    char *line;
    size_t len;
    int rc = tr_lines_next(ctx, &st->l, &line, &len);
    if (rc < 0) return rc;
    if (rc == 0) {
      if (!st->ended)
        return gpurf_fail_at(ctx, GPURF_EPARSE, st->l.path, (int)st->l.line_no, 0, NULL,
                             "truncated: no 'end' line after %llu instructions",
                             (unsigned long long)st->count);
      return GPURF_TRACE_END;
    }
    if (len == 0 || line[0] == '#') continue;
    if (st->ended) return FAILT(1, "text after the 'end' line");
    if (strncmp(line, "kernel ", 7) == 0) {
      rc = kernel_line(ctx, r, st, line);
      if (rc) return rc;
      continue;
    }
    if (strncmp(line, "cta ", 4) == 0) {
      if (!st->have_kernel) return FAILT(1, "'cta' before any 'kernel' line");
      uint32_t c[3];
      if (parse_dim3(line + 4, len - 4, c)) return FAILT(5, "expected 'cta X,Y,Z'");
      const uint32_t *g = r->kernel.grid;
      if (c[0] >= g[0] || c[1] >= g[1] || c[2] >= g[2])
        return FAILT(5, "cta %u,%u,%u outside the grid %u,%u,%u", c[0], c[1], c[2], g[0], g[1], g[2]);
      memcpy(st->cta, c, sizeof c);
      st->have_cta = 1;
      st->in_warp = 0;
      continue;
    }
    if (strncmp(line, "warp ", 5) == 0) {
      if (!st->have_cta) return FAILT(1, "'warp' before any 'cta' line");
      uint64_t w;
      if (tr_parse_u64(line + 5, len - 5, &w)) return FAILT(6, "expected 'warp N'");
      const uint32_t *b = r->kernel.block;
      uint64_t warps = ((uint64_t)b[0] * b[1] * b[2] + 31) / 32;
      if (w >= warps) return FAILT(6, "warp %llu out of range: a block has %llu warps",
                                   (unsigned long long)w, (unsigned long long)warps);
      st->warp = (uint32_t)w;
      st->in_warp = 1;
      continue;
    }
    if (strncmp(line, "end", 3) == 0 && (line[3] == ' ' || line[3] == '\0')) {
      uint64_t n;
      if (tr_parse_u64(line + 4, len > 4 ? len - 4 : 0, &n))
        return FAILT(5, "expected 'end N' with the number of instructions");
      if (n != st->count)
        return FAILT(5, "'end %llu' but the trace holds %llu instructions", (unsigned long long)n,
                     (unsigned long long)st->count);
      st->ended = 1;
      continue;
    }
    if (!st->in_warp) return FAILT(1, "instruction before any 'warp' line");
    memcpy(inst->cta, st->cta, sizeof st->cta);
    inst->warp = st->warp;
    rc = parse_line_inst(ctx, r, st, line, inst);
    if (rc) return rc;
    st->count++;
    return GPURF_OK;
  }
}

static void nt_free(gpurf_trace_reader *r) {
  nt_state *st = r->impl;
  if (!st) return;
  tr_lines_close(&st->l);
  free(st);
  r->impl = NULL;
}

static const tr_ops nt_ops = {nt_next, nt_free, NULL};

int tr_text_open(gpurf_ctx *ctx, gpurf_trace_reader *r, const tr_input *in) {
  nt_state *st = tr_reader_attach(ctx, r, sizeof *st, &nt_ops, GPURF_TRACE_FORMAT_TEXT);
  if (!st) {
    gpurf_input_close(in->f);
    return GPURF_ENOMEM;
  }
  int rc = tr_lines_attach(ctx, &st->l, in->name, in->f, in->head, in->head_len);
  if (rc) return rc;
  char *line;
  size_t len;
  rc = tr_lines_next(ctx, &st->l, &line, &len);
  if (rc < 0) return rc;
  if (rc == 0 || strcmp(line, TR_TEXT_MAGIC) != 0)
    return FAILT(1, "first line must be '%s'", TR_TEXT_MAGIC);
  /* Read up to the first kernel line so its header is known before any record. */
  for (;;) {
    rc = tr_lines_next(ctx, &st->l, &line, &len);
    if (rc < 0) return rc;
    if (rc == 0) return GPURF_OK;
    if (len == 0 || line[0] == '#') continue;
    if (strncmp(line, "kernel ", 7) != 0) return FAILT(1, "expected a 'kernel' line");
    return kernel_line(ctx, r, st, line);
  }
}

/* ---- writer ---- */

static int wprintf(gpurf_ctx *ctx, gpurf_trace_writer *w, const char *fmt, ...)
    GPURF_PRINTF(3, 4);

static int wprintf(gpurf_ctx *ctx, gpurf_trace_writer *w, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vfprintf(w->f, fmt, ap);
  va_end(ap);
  if (n < 0) return gpurf_fail_at(ctx, GPURF_EIO, w->path, 0, 0, NULL, "write failed");
  return GPURF_OK;
}

static int nt_wkernel(gpurf_ctx *ctx, gpurf_trace_writer *w, const gpurf_trace_kernel *k) {
  if (strchr(k->name, '\n')) return gpurf_fail(ctx, GPURF_EINVAL, "kernel name holds a newline");
  return wprintf(ctx, w,
                 "kernel id=%" PRIu32 " grid=%" PRIu32 ",%" PRIu32 ",%" PRIu32 " block=%" PRIu32
                 ",%" PRIu32 ",%" PRIu32 " regs=%" PRIu32 " shmem=%" PRIu32 " arch=%" PRIu32
                 " tracer=%" PRIu32 " lineinfo=%" PRIu32 " stream=%" PRIu64 " shmem_base=%" PRIx64
                 " local_base=%" PRIx64 "%s%s name=%s\n",
                 k->id, k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2],
                 k->nregs, k->shmem_bytes, k->binary_version, k->tracer_version, k->lineinfo,
                 k->stream_id, k->shmem_base, k->local_base, k->nvbit_version[0] ? " nvbit=" : "",
                 k->nvbit_version, k->name);
}

static void put_ops(char **p, const gpurf_trace_operand *ops, unsigned n) {
  if (n == 0) {
    *(*p)++ = '-';
    return;
  }
  for (unsigned i = 0; i < n; i++) {
    if (i) *(*p)++ = ',';
    if (ops[i].reg == GPURF_TRACE_REG_ZERO) *p += sprintf(*p, "RZ");
    else *p += sprintf(*p, "R%u", ops[i].reg);
    if (ops[i].width != 1) *p += sprintf(*p, ":%u", ops[i].width);
  }
}

static int nt_winst(gpurf_ctx *ctx, gpurf_trace_writer *w, const gpurf_trace_inst *inst) {
  /* Longest line: 32 list-encoded 64-bit addresses and 16 x 32 values. */
  char buf[8192];
  char *p = buf;
  p += sprintf(p, "%04" PRIx64 " %08" PRIx32 " %s ", inst->pc, inst->mask, inst->opcode);
  put_ops(&p, inst->dst, inst->n_dst);
  *p++ = ' ';
  put_ops(&p, inst->src, inst->n_src);
  if (inst->mem_width) p += sprintf(p, " mem=%u", inst->mem_width);
  if ((inst->flags & GPURF_TRACE_HAS_ADDR) && inst->mem_width) {
    /* base + k x stride over the k-th active lane when it fits, else a list */
    uint64_t base, stride;
    if (tr_addr_strided(inst, &base, &stride)) {
      p += sprintf(p, " addr=s:%" PRIx64 ":%" PRId64, base, (int64_t)stride);
    } else {
      p += sprintf(p, " addr=l:");
      int k = 0;
      for (int l = 0; l < 32; l++)
        if (inst->mask >> l & 1) p += sprintf(p, "%s%" PRIx64, k++ ? "," : "", inst->addr[l]);
    }
  }
  if (inst->flags & GPURF_TRACE_HAS_LINE) p += sprintf(p, " line=%" PRIu32, inst->line);
  if (inst->flags & GPURF_TRACE_HAS_IMM) p += sprintf(p, " imm=%" PRId64, inst->imm);
  if ((inst->flags & GPURF_TRACE_HAS_VALUES) && inst->n_dst_regs > 0 && inst->mask) {
    p += sprintf(p, " val=");
    for (unsigned k = 0; k < inst->n_dst_regs && k < GPURF_TRACE_MAX_DST_REGS; k++) {
      const uint32_t *val = inst->values[k];
      uint32_t base, stride;
      int ok = tr_values_affine(inst->mask, val, &base, &stride);
      if (k) *p++ = ';';
      if (ok && stride == 0) p += sprintf(p, "u:%" PRIx32, base);
      else if (ok) p += sprintf(p, "a:%" PRIx32 ":%" PRIx32, base, stride);
      else {
        p += sprintf(p, "l:");
        int c = 0;
        for (int l = 0; l < 32; l++)
          if (inst->mask >> l & 1) p += sprintf(p, "%s%" PRIx32, c++ ? "," : "", val[l]);
      }
    }
  }
  if (inst->flags & GPURF_TRACE_HAS_HINTS) {
    if (inst->last_use) {
      p += sprintf(p, " last=");
      int c = 0;
      for (unsigned i = 0; i < inst->n_src; i++)
        if (inst->last_use >> i & 1) p += sprintf(p, "%s%u", c++ ? "," : "", i);
    }
    if (inst->strand_end) p += sprintf(p, " strand=end");
  }
  if (inst->flags & GPURF_TRACE_HAS_RECONV) p += sprintf(p, " reconv=%" PRIx64, inst->reconv_pc);
  *p++ = '\n';
  return tr_write(ctx, w, buf, (size_t)(p - buf));
}

static int nt_wpos(gpurf_ctx *ctx, gpurf_trace_writer *w, int new_cta) {
  int rc = GPURF_OK;
  if (new_cta) rc = wprintf(ctx, w, "cta %" PRIu32 ",%" PRIu32 ",%" PRIu32 "\n", w->cta[0], w->cta[1], w->cta[2]);
  if (rc == GPURF_OK) rc = wprintf(ctx, w, "warp %" PRIu32 "\n", w->warp);
  return rc;
}

static int nt_wfinish(gpurf_ctx *ctx, gpurf_trace_writer *w) {
  return wprintf(ctx, w, "end %" PRIu64 "\n", w->count);
}

const tr_wops tr_text_wops = {nt_wkernel, nt_wpos, nt_winst, nt_wfinish};
