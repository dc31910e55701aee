/* Line reading, tokens and strict numbers for the text trace formats. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace_internal.h"

#define TR_READ_CHUNK (1u << 20)

int tr_refuse_compressed(gpurf_ctx *ctx, const char *path, const unsigned char *h, size_t n) {
  const char *what = NULL, *how = NULL;
  if (n >= 2 && h[0] == 0x1f && h[1] == 0x8b) what = "gzip", how = "gunzip";
  else if (n >= 6 && memcmp(h, "\xfd" "7zXZ\0", 6) == 0) what = "xz", how = "xz -d";
  else if (n >= 3 && memcmp(h, "BZh", 3) == 0) what = "bzip2", how = "bunzip2";
  else if (n >= 4 && memcmp(h, "\x28\xb5\x2f\xfd", 4) == 0) what = "zstd", how = "zstd -d";
  if (!what) return GPURF_OK;
  return gpurf_fail_at(ctx, GPURF_EPARSE, path, 1, 1, NULL,
                       "%s-compressed file; decompress it first (%s)", what, how);
}

int tr_lines_attach(gpurf_ctx *ctx, tr_lines *l, const char *name, FILE *f,
                    const unsigned char *head, size_t n) {
  memset(l, 0, sizeof *l);
  l->f = f;
  if (gpurf_strlcpy(l->path, name, sizeof l->path) != 0)
    return gpurf_fail(ctx, GPURF_EINVAL, "path longer than %d bytes", TR_PATH_MAX - 1);
  l->cap = TR_READ_CHUNK;
  l->buf = malloc(l->cap + 1);
  if (!l->buf) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  if (n > l->cap) n = l->cap;
  if (n) memcpy(l->buf, head, n);
  l->end = n;
  return GPURF_OK;
}

int tr_lines_open(gpurf_ctx *ctx, tr_lines *l, const char *path) {
  memset(l, 0, sizeof *l);
  FILE *f = gpurf_input_open(path);
  if (!f)
    return gpurf_fail_at(ctx, GPURF_EIO, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
  return tr_lines_attach(ctx, l, gpurf_input_name(path), f, NULL, 0);
}

void tr_lines_close(tr_lines *l) {
  gpurf_input_close(l->f);
  free(l->buf);
  l->f = NULL;
  l->buf = NULL;
}

static int fill(gpurf_ctx *ctx, tr_lines *l) {
  if (l->start > 0) {
    memmove(l->buf, l->buf + l->start, l->end - l->start);
    l->end -= l->start;
    l->start = 0;
  }
  size_t want = l->cap - l->end;
  size_t got = fread(l->buf + l->end, 1, want, l->f);
  if (got < want) {
    if (ferror(l->f))
      return gpurf_fail_at(ctx, GPURF_EIO, l->path, (int)l->line_no + 1, 0, NULL,
                           "read error: %s", strerror(errno));
    l->eof = 1;
  }
  l->end += got;
  return GPURF_OK;
}

int tr_lines_next(gpurf_ctx *ctx, tr_lines *l, char **line, size_t *len) {
  for (;;) {
    char *s = l->buf + l->start;
    size_t avail = l->end - l->start;
    char *nl = avail ? memchr(s, '\n', avail) : NULL;
    if (nl || (l->eof && avail > 0)) {
      size_t n = nl ? (size_t)(nl - s) : avail;
      l->line_no++;
      if (n > TR_LINE_MAX)
        return gpurf_fail_at(ctx, GPURF_EPARSE, l->path, (int)l->line_no, 0, NULL,
                             "line longer than %d bytes: not a text trace", TR_LINE_MAX);
      if (memchr(s, '\0', n))
        return gpurf_fail_at(ctx, GPURF_EPARSE, l->path, (int)l->line_no, 0, NULL,
                             "binary data (a NUL byte) in a text trace");
      l->start += nl ? n + 1 : n;
      if (n > 0 && s[n - 1] == '\r') n--;
      s[n] = '\0';
      *line = s;
      *len = n;
      return 1;
    }
    if (l->eof) return 0;
    if (avail >= l->cap)
      return gpurf_fail_at(ctx, GPURF_EPARSE, l->path, (int)l->line_no + 1, 0, NULL,
                           "line longer than %d bytes: not a text trace", TR_LINE_MAX);
    int rc = fill(ctx, l);
    if (rc != GPURF_OK) return rc;
  }
}

size_t tr_tok_next(tr_tok *t, const char **tok) {
  const char *p = t->p;
  while (*p == ' ' || *p == '\t') p++;
  const char *b = p;
  while (*p && *p != ' ' && *p != '\t') p++;
  t->p = p;
  *tok = b;
  return (size_t)(p - b);
}

int tr_col(const tr_tok *t, const char *at) { return (int)(at - t->s) + 1; }

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int tr_parse_hex(const char *s, size_t n, uint64_t *out) {
  if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2, n -= 2;
  if (n == 0) return -1;
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    int d = hexval(s[i]);
    if (d < 0) return -1;
    if (v >> 60) return -2; /* would overflow 64 bits */
    v = v << 4 | (uint64_t)d;
  }
  *out = v;
  return 0;
}

int tr_parse_u64(const char *s, size_t n, uint64_t *out) {
  if (n == 0) return -1;
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    unsigned d = (unsigned)(s[i] - '0');
    if (v > (UINT64_MAX - d) / 10) return -2;
    v = v * 10 + d;
  }
  *out = v;
  return 0;
}

int tr_parse_i64(const char *s, size_t n, int64_t *out) {
  int neg = 0;
  if (n > 0 && (s[0] == '-' || s[0] == '+')) neg = s[0] == '-', s++, n--;
  uint64_t v;
  int rc = tr_parse_u64(s, n, &v);
  if (rc) return rc;
  if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX) return -2;
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  return 0;
}

uint8_t tr_count_dst_regs(const gpurf_trace_inst *inst) {
  unsigned n = 0;
  for (unsigned i = 0; i < inst->n_dst; i++)
    if (inst->dst[i].reg != GPURF_TRACE_REG_ZERO) n += inst->dst[i].width;
  return (uint8_t)n;
}

static int check_op(gpurf_ctx *ctx, const gpurf_trace_operand *o, const char *role, uint32_t nregs,
                    const char *file, long line) {
  if (o->reg == GPURF_TRACE_REG_ZERO) return GPURF_OK;
  unsigned last = (unsigned)o->reg + o->width - 1;
  if (last >= GPURF_TRACE_NUM_REGS)
    return gpurf_fail_at(ctx, GPURF_ERANGE, file, (int)line, 0, NULL,
                         "%s register R%u spans %u registers, past R254", role, o->reg,
                         o->width);
  if (nregs > 0 && last >= nregs) {
    if (o->width > 1)
      return gpurf_fail_at(ctx, GPURF_ERANGE, file, (int)line, 0, NULL,
                           "%s registers R%u..R%u are out of range: the kernel has %u "
                           "registers per thread",
                           role, o->reg, last, nregs);
    return gpurf_fail_at(ctx, GPURF_ERANGE, file, (int)line, 0, NULL,
                         "%s register R%u is out of range: the kernel has %u registers per "
                         "thread",
                         role, o->reg, nregs);
  }
  return GPURF_OK;
}

int tr_check_regs(gpurf_ctx *ctx, const gpurf_trace_inst *inst, uint32_t nregs,
                  const char *file, long line) {
  for (unsigned i = 0; i < inst->n_dst; i++) {
    int rc = check_op(ctx, &inst->dst[i], "destination", nregs, file, line);
    if (rc) return rc;
  }
  for (unsigned i = 0; i < inst->n_src; i++) {
    int rc = check_op(ctx, &inst->src[i], "source", nregs, file, line);
    if (rc) return rc;
  }
  if (tr_count_dst_regs(inst) > GPURF_TRACE_MAX_DST_REGS)
    return gpurf_fail_at(ctx, GPURF_ERANGE, file, (int)line, 0, NULL,
                         "destinations span more than %d registers", GPURF_TRACE_MAX_DST_REGS);
  return GPURF_OK;
}

int tr_check_kernel_regs(gpurf_ctx *ctx, gpurf_trace_reader *r, const gpurf_trace_inst *inst,
                         const char *file, long line) {
  int rc = tr_check_regs(ctx, inst, 0, file, line);
  if (rc) return rc;
  uint32_t top = tr_regs_used(inst);
  if (r->kernel.nregs > 0 && top > r->kernel.nregs) {
    gpurf_warn_at(ctx, file, (int)line, 0, "regs",
                  "R%u is beyond the kernel's %u registers per thread; the count is inferred "
                  "from the registers used",
                  top - 1, r->kernel.nregs);
    r->kernel.nregs_header = r->kernel.nregs;
    r->kernel.nregs = 0;
  }
  return GPURF_OK;
}
