/* Accel-Sim SASS traces (NVBit tracer): kernelslist.g and kernel-N.traceg.
 *
 * Instruction lines, by tracer version:
 *   < 3  TB_X TB_Y TB_Z WARP [LINE] PC MASK NDST DST.. OPCODE NSRC SRC.. WIDTH [ADDR..]
 *   3, 4 [LINE] PC MASK NDST DST.. OPCODE NSRC SRC.. WIDTH [ADDR..]
 *   >= 5 as 3 and 4, then the instruction's immediate
 * LINE is present when the header says "-enable lineinfo = 1". A non-zero
 * WIDTH is followed by an address mode: 0 lists one address per active lane,
 * 1 gives base and stride, 2 gives base and the differences between
 * successive active lanes (one fewer than the active lanes, as the tracer
 * writes them). The header's absent tracer version means an old trace. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace_internal.h"

typedef struct as_state {
  int is_list;
  tr_lines list;
  char dir[TR_PATH_MAX];
  int list_done;
  int have_kernel;
  tr_lines k;
  char *pushback;
  int header_done;
  int in_tb, have_coords;
  uint32_t tb[3];
  int in_warp, have_insts;
  uint32_t warp;
  uint64_t declared, seen;
  uint32_t warps_per_block;
  uint32_t kernels_opened;
  /* Register count of the open kernel: the header's line, whether the header
   * was implausible (then kernel.nregs is 0 and consumers infer it), and the
   * highest register used + 1 so far. */
  long nregs_line;
  int nregs_bad;
  char nregs_text[24]; /* the header's value as written, for the warning */
  uint32_t regs_used;
} as_state;

#define FAILK(st, col, ...)                                                                  \
  gpurf_fail_at(ctx, GPURF_EPARSE, (st)->k.path, (int)(st)->k.line_no, (col), NULL, __VA_ARGS__)

static int starts(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

static const char *skip_ws(const char *s) {
  while (*s == ' ' || *s == '\t') s++;
  return s;
}

/* "x,y,z" or "(x,y,z)" into three numbers. */
static int parse_dim3(const char *s, uint32_t out[3]) {
  s = skip_ws(s);
  int paren = *s == '(';
  if (paren) s++;
  for (int i = 0; i < 3; i++) {
    s = skip_ws(s);
    const char *b = s;
    while (*s >= '0' && *s <= '9') s++;
    uint64_t v;
    if (tr_parse_u64(b, (size_t)(s - b), &v) || v > UINT32_MAX) return -1;
    out[i] = (uint32_t)v;
    s = skip_ws(s);
    if (i < 2) {
      if (*s != ',') return -1;
      s++;
    }
  }
  if (paren) {
    if (*s != ')') return -1;
    s++;
  }
  s = skip_ws(s);
  return *s ? -1 : 0;
}

static int parse_uint_value(const char *s, uint64_t max, uint64_t *out) {
  s = skip_ws(s);
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
  uint64_t v;
  if (tr_parse_u64(s, n, &v) || v > max) return -1;
  *out = v;
  return 0;
}

/* An optionally signed run of decimal digits of any length, blanks around. */
static int is_integer_text(const char *s) {
  s = skip_ws(s);
  if (*s == '-' || *s == '+') s++;
  if (!isdigit((unsigned char)*s)) return 0;
  while (isdigit((unsigned char)*s)) s++;
  return *skip_ws(s) == '\0';
}

static int parse_hex_value(const char *s, uint64_t *out) {
  s = skip_ws(s);
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
  return tr_parse_hex(s, n, out);
}

static int header_line(gpurf_ctx *ctx, as_state *st, gpurf_trace_kernel *k, const char *line) {
  const char *eq = strstr(line, "=");
  if (!eq) return gpurf_fail_at(ctx, GPURF_EPARSE, st->k.path, (int)st->k.line_no, 1, NULL,
                                "header line without '=': '%.60s'", line);
  char key[64];
  const char *b = line + 1;
  size_t n = (size_t)(eq - b);
  while (n > 0 && (b[n - 1] == ' ' || b[n - 1] == '\t')) n--;
  if (n >= sizeof key) n = sizeof key - 1;
  memcpy(key, b, n);
  key[n] = '\0';
  const char *v = eq + 1;
  int col = (int)(v - line) + 1;
  uint64_t u = 0;
  int bad = 0;
  if (strcmp(key, "kernel name") == 0) {
    v = skip_ws(v);
    if (gpurf_strlcpy(k->name, v, sizeof k->name) != 0)
      return gpurf_fail_at(ctx, GPURF_EPARSE, st->k.path, (int)st->k.line_no, col, key,
                           "kernel name longer than %d bytes", GPURF_TRACE_NAME_MAX - 1);
  } else if (strcmp(key, "kernel id") == 0) {
    bad = parse_uint_value(v, UINT32_MAX, &u);
    k->id = (uint32_t)u;
  } else if (strcmp(key, "grid dim") == 0 || strcmp(key, "block dim") == 0) {
    uint32_t *d = key[0] == 'g' ? k->grid : k->block;
    bad = parse_dim3(v, d);
    if (!bad && (d[0] == 0 || d[1] == 0 || d[2] == 0))
      return gpurf_fail_at(ctx, GPURF_ERANGE, st->k.path, (int)st->k.line_no, col, key,
                           "dimensions must be at least 1");
    if (!bad && key[0] == 'b') {
      uint64_t threads = (uint64_t)d[0] * d[1] * d[2];
      if (threads > 65536)
        return gpurf_fail_at(ctx, GPURF_ERANGE, st->k.path, (int)st->k.line_no, col, key,
                             "%llu threads per block is more than any GPU runs",
                             (unsigned long long)threads);
      st->warps_per_block = (uint32_t)((threads + 31) / 32);
    }
  } else if (strcmp(key, "shmem") == 0) {
    bad = parse_uint_value(v, UINT32_MAX, &u);
    k->shmem_bytes = (uint32_t)u;
  } else if (strcmp(key, "nregs") == 0) {
    /* Traces from the NVBit tracer (version 5) can carry a garbage count, five
     * digits for a kernel using 20 registers: such a count is replaced by the
     * registers the kernel uses, with a warning once the kernel is read. */
    bad = parse_uint_value(v, UINT64_MAX, &u);
    st->nregs_line = st->k.line_no;
    int garbage = bad && is_integer_text(v);
    if (garbage || (!bad && u > GPURF_TRACE_NUM_REGS)) {
      /* A negative count, or one beyond 64 bits, is garbage of the same kind. */
      bad = 0;
      st->nregs_bad = 1;
      k->nregs_header = garbage ? UINT64_MAX : u;
      k->nregs = 0;
      const char *t = skip_ws(v);
      size_t w = strcspn(t, " \t");
      if (w >= sizeof st->nregs_text) w = sizeof st->nregs_text - 4;
      snprintf(st->nregs_text, sizeof st->nregs_text, "%.*s%s", (int)w, t,
               t[w] && t[w] != ' ' && t[w] != '\t' ? "..." : "");
    } else {
      k->nregs = (uint32_t)u;
    }
  } else if (strcmp(key, "binary version") == 0) {
    bad = parse_uint_value(v, 1000, &u);
    k->binary_version = (uint32_t)u;
  } else if (strcmp(key, "cuda stream id") == 0) {
    bad = parse_uint_value(v, UINT64_MAX, &u);
    k->stream_id = u;
  } else if (strcmp(key, "shmem base_addr") == 0) {
    bad = parse_hex_value(v, &k->shmem_base);
  } else if (strcmp(key, "local mem base_addr") == 0) {
    bad = parse_hex_value(v, &k->local_base);
  } else if (strcmp(key, "nvbit version") == 0) {
    gpurf_strlcpy(k->nvbit_version, skip_ws(v), sizeof k->nvbit_version);
  } else if (strcmp(key, "accelsim tracer version") == 0) {
    bad = parse_uint_value(v, 1000, &u);
    k->tracer_version = (uint32_t)u;
  } else if (strcmp(key, "enable lineinfo") == 0) {
    bad = parse_uint_value(v, 1, &u);
    k->lineinfo = (uint32_t)u;
  }
  /* Other keys are informational and newer tracers add more: skipped. */
  if (bad)
    return gpurf_fail_at(ctx, GPURF_EPARSE, st->k.path, (int)st->k.line_no, col, key,
                         "bad value '%.60s'", skip_ws(v));
  return GPURF_OK;
}

/* Reads the kernel's header up to the first other line; in is the kernel
 * file, open with its first bytes read (the reader owns in->f from here). */
static int open_kernel_input(gpurf_ctx *ctx, gpurf_trace_reader *r, as_state *st,
                             const tr_input *in) {
  int rc = tr_refuse_compressed(ctx, in->name, in->head, in->head_len);
  if (!rc && in->head_len == 0)
    rc = gpurf_fail_at(ctx, GPURF_EPARSE, in->name, 1, 1, NULL, "empty file");
  if (rc) {
    gpurf_input_close(in->f);
    return rc;
  }
  st->have_kernel = 1; /* st->k owns the stream, and closes it, from here */
  rc = tr_lines_attach(ctx, &st->k, in->name, in->f, in->head, in->head_len);
  if (rc) return rc;
  if (st->kernels_opened > 0) r->kernel_index++;
  st->kernels_opened++;
  memset(&r->kernel, 0, sizeof r->kernel);
  st->warps_per_block = 0;
  st->nregs_line = 0;
  st->nregs_bad = 0;
  st->regs_used = 0;
  st->in_tb = st->in_warp = st->have_insts = 0;
  st->pushback = NULL;
  for (;;) {
    char *line;
    size_t len;
    rc = tr_lines_next(ctx, &st->k, &line, &len);
    if (rc < 0) return rc;
    if (rc == 0) break;
    const char *s = skip_ws(line);
    if (*s == '\0') continue;
    if (*s == '-') {
      rc = header_line(ctx, st, &r->kernel, s);
      if (rc) return rc;
      continue;
    }
    if (*s == '#' && !starts(s, "#BEGIN_TB") && !starts(s, "#END_TB")) continue;
    st->pushback = line;
    break;
  }
  if (r->kernel.block[0] == 0 && st->pushback)
    return FAILK(st, 1, "no '-block dim' in the header: not an Accel-Sim trace");
  return GPURF_OK;
}

/* A kernel file named by kernelslist.g. */
static int open_kernel(gpurf_ctx *ctx, gpurf_trace_reader *r, as_state *st, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return gpurf_fail_at(ctx, GPURF_EIO, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
  unsigned char head[8];
  tr_input in = {f, path, head, fread(head, 1, sizeof head, f)};
  return open_kernel_input(ctx, r, st, &in);
}

/* Resolves the next kernel of the list; 0 when there is none left. */
static int next_list_kernel(gpurf_ctx *ctx, gpurf_trace_reader *r, as_state *st) {
  for (;;) {
    char *line;
    size_t len;
    int rc = tr_lines_next(ctx, &st->list, &line, &len);
    if (rc <= 0) return rc;
    const char *s = skip_ws(line);
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    if (n == 0 || s[0] == '#') continue;
    if (starts(s, "Memcpy")) {
      /* MemcpyHtoD,ADDRESS,BYTES */
      const char *c1 = memchr(s, ',', n);
      const char *c2 = c1 ? memchr(c1 + 1, ',', n - (size_t)(c1 + 1 - s)) : NULL;
      uint64_t addr, bytes;
      if (!c1 || !c2 || tr_parse_hex(c1 + 1, (size_t)(c2 - c1 - 1), &addr) ||
          tr_parse_u64(c2 + 1, n - (size_t)(c2 + 1 - s), &bytes))
        return gpurf_fail_at(ctx, GPURF_EPARSE, st->list.path, (int)st->list.line_no, 1, NULL,
                             "expected 'MemcpyHtoD,0xADDRESS,BYTES', not '%.60s'", s);
      r->memcpy_count++;
      r->memcpy_bytes += bytes;
      continue;
    }
    if (starts(s, "kernel")) {
      char name[TR_PATH_MAX];
      if (n >= sizeof name)
        return gpurf_fail_at(ctx, GPURF_EPARSE, st->list.path, (int)st->list.line_no, 1, NULL,
                             "kernel file name too long");
      memcpy(name, s, n);
      name[n] = '\0';
      if (n > 3 && strcmp(name + n - 3, ".xz") == 0)
        return gpurf_fail_at(ctx, GPURF_EUNSUPPORTED, st->list.path, (int)st->list.line_no, 1,
                             NULL, "'%s' is xz-compressed; decompress it (xz -d) and list the "
                                   ".traceg file",
                             name);
      char path[TR_PATH_MAX];
      if (snprintf(path, sizeof path, "%s/%s", st->dir, name) >= (int)sizeof path)
        return gpurf_fail(ctx, GPURF_EINVAL, "path too long");
      rc = open_kernel(ctx, r, st, path);
      if (rc == GPURF_EIO)
        return gpurf_fail_at(ctx, GPURF_EIO, st->list.path, (int)st->list.line_no, 1, NULL,
                             "cannot open kernel trace '%s'", path);
      return rc == GPURF_OK ? 1 : rc;
    }
    return gpurf_fail_at(ctx, GPURF_EPARSE, st->list.path, (int)st->list.line_no, 1, NULL,
                         "unknown command '%.40s' (expected MemcpyHtoD,... or kernel-N.traceg)",
                         s);
  }
}

static int end_warp(gpurf_ctx *ctx, as_state *st) {
  if (st->in_warp && st->seen != st->declared)
    return FAILK(st, 1,
                 "warp %u of thread block %u,%u,%u has %llu instructions, but 'insts = %llu'",
                 st->warp, st->tb[0], st->tb[1], st->tb[2], (unsigned long long)st->seen,
                 (unsigned long long)st->declared);
  st->in_warp = 0;
  st->have_insts = 0;
  return GPURF_OK;
}

static int parse_reg(const char *t, size_t n, uint8_t *out) {
  if (n == 2 && t[0] == 'R' && t[1] == 'Z') {
    *out = GPURF_TRACE_REG_ZERO;
    return 0;
  }
  uint64_t v;
  if (n < 2 || t[0] != 'R' || tr_parse_u64(t + 1, n - 1, &v)) return -1;
  if (v > GPURF_TRACE_REG_ZERO) return -2;
  *out = (uint8_t)v;
  return 0;
}

#define NEED(tokname)                                                                        \
  do {                                                                                       \
    n = tr_tok_next(&tk, &t);                                                                \
    if (n == 0) return FAILK(st, tr_col(&tk, t), "line ends before the %s", tokname);      \
  } while (0)

static int parse_inst(gpurf_ctx *ctx, gpurf_trace_reader *r, as_state *st, char *line,
                      gpurf_trace_inst *inst) {
  const gpurf_trace_kernel *k = &r->kernel;
  tr_tok tk = {line, line};
  const char *t;
  size_t n;
  uint64_t v;
  inst->flags = 0;
  inst->kernel = r->kernel_index;
  inst->cta[0] = st->tb[0];
  inst->cta[1] = st->tb[1];
  inst->cta[2] = st->tb[2];
  inst->warp = st->warp;
  if (k->tracer_version < 3) {
    uint32_t pre[4];
    for (int i = 0; i < 4; i++) {
      NEED(i < 3 ? "thread block coordinate" : "warp number");
      if (tr_parse_u64(t, n, &v) || v > UINT32_MAX)
        return FAILK(st, tr_col(&tk, t), "bad %s '%.*s' (old trace format)",
                     i < 3 ? "thread block coordinate" : "warp number", (int)n, t);
      pre[i] = (uint32_t)v;
    }
    if (pre[0] != st->tb[0] || pre[1] != st->tb[1] || pre[2] != st->tb[2] || pre[3] != st->warp)
      return FAILK(st, 1,
                   "instruction of thread block %u,%u,%u warp %u listed under thread block "
                   "%u,%u,%u warp %u",
                   pre[0], pre[1], pre[2], pre[3], st->tb[0], st->tb[1], st->tb[2], st->warp);
  }
  if (k->lineinfo) {
    NEED("source line number");
    if (tr_parse_u64(t, n, &v) || v > UINT32_MAX)
      return FAILK(st, tr_col(&tk, t), "bad source line number '%.*s'", (int)n, t);
    inst->line = (uint32_t)v;
    inst->flags |= GPURF_TRACE_HAS_LINE;
  } else {
    inst->line = 0;
  }
  NEED("PC");
  if (tr_parse_hex(t, n, &inst->pc))
    return FAILK(st, tr_col(&tk, t), "bad hex number '%.*s' for the PC", (int)n, t);
  NEED("active mask");
  int hr = tr_parse_hex(t, n, &v);
  if (hr == -1) return FAILK(st, tr_col(&tk, t), "bad hex number '%.*s' for the active mask", (int)n, t);
  if (hr == -2 || v > 0xffffffffu)
    return FAILK(st, tr_col(&tk, t), "active mask '%.*s' is wider than the 32 lanes of a warp",
                 (int)n, t);
  inst->mask = (uint32_t)v;
  NEED("destination count");
  if (tr_parse_u64(t, n, &v))
    return FAILK(st, tr_col(&tk, t), "bad destination count '%.*s'", (int)n, t);
  if (v > GPURF_TRACE_MAX_DST)
    return FAILK(st, tr_col(&tk, t), "%llu destination registers; at most %d are supported",
                 (unsigned long long)v, GPURF_TRACE_MAX_DST);
  inst->n_dst = (uint8_t)v;
  for (unsigned i = 0; i < inst->n_dst; i++) {
    NEED("destination register");
    int pr = parse_reg(t, n, &inst->dst[i].reg);
    if (pr == -2) return FAILK(st, tr_col(&tk, t), "register %.*s out of range (R0..R255)", (int)n, t);
    if (pr) return FAILK(st, tr_col(&tk, t), "bad destination register '%.*s'", (int)n, t);
  }
  NEED("opcode");
  if (n >= GPURF_TRACE_OPCODE_MAX)
    return FAILK(st, tr_col(&tk, t), "opcode longer than %d characters", GPURF_TRACE_OPCODE_MAX - 1);
  for (size_t i = 0; i < n; i++) {
    char c = t[i];
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
          c == '_'))
      return FAILK(st, tr_col(&tk, t), "bad opcode '%.*s'", (int)n, t);
  }
  if (t[0] < 'A' || t[0] > 'Z') return FAILK(st, tr_col(&tk, t), "bad opcode '%.*s'", (int)n, t);
  memcpy(inst->opcode, t, n);
  inst->opcode[n] = '\0';
  NEED("source count");
  if (tr_parse_u64(t, n, &v))
    return FAILK(st, tr_col(&tk, t), "bad source count '%.*s'", (int)n, t);
  if (v > GPURF_TRACE_MAX_SRC)
    return FAILK(st, tr_col(&tk, t), "%llu source registers; at most %d are supported",
                 (unsigned long long)v, GPURF_TRACE_MAX_SRC);
  inst->n_src = (uint8_t)v;
  for (unsigned i = 0; i < inst->n_src; i++) {
    NEED("source register");
    int pr = parse_reg(t, n, &inst->src[i].reg);
    if (pr == -2) return FAILK(st, tr_col(&tk, t), "register %.*s out of range (R0..R255)", (int)n, t);
    if (pr) return FAILK(st, tr_col(&tk, t), "bad source register '%.*s'", (int)n, t);
  }
  NEED("memory width");
  uint64_t width;
  if (tr_parse_u64(t, n, &width) || width > 255)
    return FAILK(st, tr_col(&tk, t), "bad memory width '%.*s'", (int)n, t);
  inst->last_use = 0;
  inst->strand_end = 0;
  inst->reconv_pc = 0;
  tr_decode_opcode(inst, k->binary_version);
  if (width > 0) {
    if (inst->mem == GPURF_TRACE_MEM_NONE || inst->mem == GPURF_TRACE_MEM_CONSTANT) {
      inst->mem = GPURF_TRACE_MEM_GENERIC;
      inst->mem_width = (uint8_t)width;
    }
    NEED("address mode");
    uint64_t mode;
    if (tr_parse_u64(t, n, &mode) || mode > 2)
      return FAILK(st, tr_col(&tk, t), "bad address mode '%.*s' (0, 1 or 2)", (int)n, t);
    memset(inst->addr, 0, sizeof inst->addr);
    if (mode == 0) {
      for (int lane = 0; lane < 32; lane++) {
        if (!(inst->mask >> lane & 1)) continue;
        NEED("address of an active lane");
        if (tr_parse_hex(t, n, &inst->addr[lane]))
          return FAILK(st, tr_col(&tk, t), "bad hex address '%.*s'", (int)n, t);
      }
    } else {
      uint64_t base;
      NEED("base address");
      if (tr_parse_hex(t, n, &base))
        return FAILK(st, tr_col(&tk, t), "bad hex base address '%.*s'", (int)n, t);
      int64_t stride = 0;
      if (mode == 1) {
        NEED("address stride");
        if (tr_parse_i64(t, n, &stride))
          return FAILK(st, tr_col(&tk, t), "bad address stride '%.*s'", (int)n, t);
      }
      uint64_t a = base;
      int k_lane = 0;
      for (int lane = 0; lane < 32; lane++) {
        if (!(inst->mask >> lane & 1)) continue;
        if (k_lane > 0) {
          if (mode == 2) {
            NEED("address delta");
            if (tr_parse_i64(t, n, &stride))
              return FAILK(st, tr_col(&tk, t), "bad address delta '%.*s'", (int)n, t);
          }
          a += (uint64_t)stride;
        }
        inst->addr[lane] = a;
        k_lane++;
      }
    }
    inst->flags |= GPURF_TRACE_HAS_ADDR;
  }
  n = tr_tok_next(&tk, &t);
  if (n > 0) {
    if (tr_parse_i64(t, n, &inst->imm))
      return FAILK(st, tr_col(&tk, t), "unexpected '%.*s' after the instruction", (int)n, t);
    inst->flags |= GPURF_TRACE_HAS_IMM;
    n = tr_tok_next(&tk, &t);
    if (n > 0) return FAILK(st, tr_col(&tk, t), "unexpected '%.*s' after the instruction", (int)n, t);
  } else if (k->tracer_version >= 5) {
    return FAILK(st, tr_col(&tk, t), "line ends before the immediate (tracer version %u)",
                 k->tracer_version);
  } else {
    inst->imm = 0;
  }
  inst->n_dst_regs = tr_count_dst_regs(inst);
  int rc = tr_check_regs(ctx, inst, 0, st->k.path, st->k.line_no);
  if (rc) return rc;
  uint32_t top = tr_regs_used(inst);
  if (top > st->regs_used) st->regs_used = top;
  if (r->kernel.nregs > 0 && top > r->kernel.nregs) {
    /* A header count below the registers the kernel uses is as implausible
     * as one above 255. */
    st->nregs_bad = 1;
    r->kernel.nregs_header = r->kernel.nregs;
    snprintf(st->nregs_text, sizeof st->nregs_text, "%u", r->kernel.nregs);
    r->kernel.nregs = 0;
  }
  return GPURF_OK;
}

static int as_next(gpurf_ctx *ctx, gpurf_trace_reader *r, gpurf_trace_inst *inst) {
  as_state *st = r->impl;
  for (;;) {
    if (!st->have_kernel) {
      if (!st->is_list || st->list_done) return GPURF_TRACE_END;
      int rc = next_list_kernel(ctx, r, st);
      if (rc < 0) return rc;
      if (rc == 0) {
        st->list_done = 1;
        return GPURF_TRACE_END;
      }
    }
    char *line;
    size_t len;
    if (st->pushback) {
      line = st->pushback;
      st->pushback = NULL;
    } else {
      int rc = tr_lines_next(ctx, &st->k, &line, &len);
      if (rc < 0) return rc;
      if (rc == 0) {
        if (st->in_warp && (!st->have_insts || st->seen < st->declared))
          return gpurf_fail_at(ctx, GPURF_EPARSE, st->k.path, (int)st->k.line_no, 0, NULL,
                               "truncated: file ends in warp %u of thread block %u,%u,%u after "
                               "%llu of %llu instructions",
                               st->warp, st->tb[0], st->tb[1], st->tb[2],
                               (unsigned long long)st->seen, (unsigned long long)st->declared);
        if (st->in_tb)
          return gpurf_fail_at(ctx, GPURF_EPARSE, st->k.path, (int)st->k.line_no, 0, NULL,
                               "truncated: file ends inside thread block %u,%u,%u (no #END_TB)",
                               st->tb[0], st->tb[1], st->tb[2]);
        if (st->nregs_bad)
          gpurf_warn_at(ctx, st->k.path, (int)st->nregs_line, 0, "nregs",
                        "-nregs %s is implausible; using %u (highest register used + 1)",
                        st->nregs_text, st->regs_used);
        tr_lines_close(&st->k);
        st->have_kernel = 0;
        if (!st->is_list) st->list_done = 1;
        continue;
      }
    }
    const char *s = skip_ws(line);
    if (*s == '\0') continue;
    if (*s == '-') return FAILK(st, 1, "header line after the first thread block");
    if (*s == '#') {
      if (starts(s, "#BEGIN_TB")) {
        if (st->in_tb) return FAILK(st, 1, "#BEGIN_TB before the #END_TB of the previous block");
        st->in_tb = 1;
        st->have_coords = 0;
      } else if (starts(s, "#END_TB")) {
        if (!st->in_tb) return FAILK(st, 1, "#END_TB without #BEGIN_TB");
        int rc = end_warp(ctx, st);
        if (rc) return rc;
        st->in_tb = 0;
      }
      continue;
    }
    if (starts(s, "thread block")) {
      if (!st->in_tb) return FAILK(st, 1, "'thread block' outside #BEGIN_TB/#END_TB");
      const char *eq = strchr(s, '=');
      if (!eq || parse_dim3(eq + 1, st->tb))
        return FAILK(st, 1, "expected 'thread block = X,Y,Z'");
      const uint32_t *g = r->kernel.grid;
      if (g[0] && (st->tb[0] >= g[0] || st->tb[1] >= g[1] || st->tb[2] >= g[2]))
        return FAILK(st, (int)(eq - line) + 2, "thread block %u,%u,%u outside the grid %u,%u,%u",
                     st->tb[0], st->tb[1], st->tb[2], g[0], g[1], g[2]);
      st->have_coords = 1;
      continue;
    }
    if (starts(s, "cluster")) continue; /* newer tracers: cluster id/cta/rank */
    if (starts(s, "warp") && (s[4] == ' ' || s[4] == '=' || s[4] == '\t')) {
      if (!st->in_tb || !st->have_coords) return FAILK(st, 1, "'warp' outside a thread block");
      int rc = end_warp(ctx, st);
      if (rc) return rc;
      const char *eq = strchr(s, '=');
      uint64_t w;
      if (!eq || parse_uint_value(eq + 1, UINT32_MAX, &w))
        return FAILK(st, 1, "expected 'warp = N'");
      if (st->warps_per_block && w >= st->warps_per_block)
        return FAILK(st, (int)(eq - line) + 2, "warp %llu out of range: a block has %u warps",
                     (unsigned long long)w, st->warps_per_block);
      st->warp = (uint32_t)w;
      st->in_warp = 1;
      st->have_insts = 0;
      st->seen = 0;
      continue;
    }
    if (starts(s, "insts")) {
      if (!st->in_warp || st->have_insts) return FAILK(st, 1, "'insts' not right after 'warp'");
      const char *eq = strchr(s, '=');
      if (!eq || parse_uint_value(eq + 1, UINT64_MAX, &st->declared))
        return FAILK(st, 1, "expected 'insts = N'");
      st->have_insts = 1;
      continue;
    }
    if (!st->in_warp || !st->have_insts)
      return FAILK(st, 1, "instruction outside a warp (no 'warp = N' / 'insts = N' before it)");
    if (st->seen >= st->declared)
      return FAILK(st, 1, "warp %u of thread block %u,%u,%u has more instructions than 'insts = %llu'",
                   st->warp, st->tb[0], st->tb[1], st->tb[2], (unsigned long long)st->declared);
    int rc = parse_inst(ctx, r, st, line, inst);
    if (rc) return rc;
    st->seen++;
    return GPURF_OK;
  }
}

static void as_free(gpurf_trace_reader *r) {
  as_state *st = r->impl;
  if (!st) return;
  if (st->have_kernel) tr_lines_close(&st->k);
  if (st->is_list) tr_lines_close(&st->list);
  free(st);
  r->impl = NULL;
}

static const tr_ops as_ops = {as_next, as_free, NULL};

int tr_accelsim_open(gpurf_ctx *ctx, gpurf_trace_reader *r, const tr_input *in, int is_list) {
  as_state *st = tr_reader_attach(ctx, r, sizeof *st, &as_ops, GPURF_TRACE_FORMAT_ACCELSIM);
  if (!st) {
    gpurf_input_close(in->f);
    return GPURF_ENOMEM;
  }
  st->is_list = is_list;
  if (!is_list) return open_kernel_input(ctx, r, st, in);
  /* Kernel files are named relative to the list's directory ("." for a
   * list on standard input). */
  int rc = tr_lines_attach(ctx, &st->list, in->name, in->f, in->head, in->head_len);
  if (rc) return rc;
  gpurf_strlcpy(st->dir, in->name, sizeof st->dir);
  char *slash = strrchr(st->dir, '/');
  if (slash) *slash = '\0';
  else strcpy(st->dir, ".");
  /* Open the first kernel now so its header is known before any record. */
  rc = next_list_kernel(ctx, r, st);
  if (rc < 0) return rc;
  if (rc == 0) st->list_done = 1;
  return GPURF_OK;
}
