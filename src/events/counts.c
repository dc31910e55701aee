/* Counter files: line reading shared by the two formats, and loading, which
 * reads into a scratch engine and adds it to the caller's only when the
 * whole file was good. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "events/events_internal.h"

/* Counter files are short lines; a longer one is not a counters file. */
#define EV_LINE_MAX (64u * 1024u)
#define NATIVE_HEADER "gpurf-counters"

static int refuse_compressed(gpurf_ctx *ctx, const ev_lines *l, const unsigned char *h, size_t n) {
  const char *what = NULL;
  if (n >= 2 && h[0] == 0x1f && h[1] == 0x8b) what = "gzip";
  else if (n >= 6 && memcmp(h, "\xfd" "7zXZ", 5) == 0) what = "xz";
  else if (n >= 3 && memcmp(h, "BZh", 3) == 0) what = "bzip2";
  else if (n >= 4 && memcmp(h, "\x28\xb5\x2f\xfd", 4) == 0) what = "zstd";
  if (!what) return GPURF_OK;
  return gpurf_fail_at(ctx, GPURF_EPARSE, l->path, 1, 1, NULL,
                       "%s-compressed file; decompress it first", what);
}

int ev_lines_open(gpurf_ctx *ctx, ev_lines *l, const char *path) {
  memset(l, 0, sizeof *l);
  l->path = gpurf_input_name(path);
  l->f = gpurf_input_open(path);
  if (!l->f)
    return gpurf_fail_at(ctx, GPURF_EIO, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
  /* A compressed file is named as such before its bytes read as text. */
  l->head_len = fread(l->head, 1, 6, l->f);
  int rc = refuse_compressed(ctx, l, l->head, l->head_len);
  l->cap = 256;
  l->buf = rc == GPURF_OK ? malloc(l->cap) : NULL;
  if (rc == GPURF_OK && !l->buf) rc = gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  if (rc != GPURF_OK) ev_lines_close(l);
  return rc;
}

void ev_lines_close(ev_lines *l) {
  gpurf_input_close(l->f);
  free(l->buf);
  l->f = NULL;
  l->buf = NULL;
}

void ev_lines_unread(ev_lines *l) {
  if (l->line_no > 0) {
    l->replay = 1;
    l->line_no--;
  }
}

static int next_byte(ev_lines *l) {
  if (l->head_pos < l->head_len) return l->head[l->head_pos++];
  return getc(l->f);
}

int ev_lines_next(gpurf_ctx *ctx, ev_lines *l, char **line) {
  if (l->replay) {
    l->replay = 0;
    l->line_no++;
    *line = l->buf;
    return 1;
  }
  size_t n = 0;
  int ch;
  while ((ch = next_byte(l)) != EOF && ch != '\n') {
    if (ch == '\0')
      return gpurf_fail_at(ctx, GPURF_EPARSE, l->path, (int)l->line_no + 1, (int)n + 1, NULL,
                           "binary data (NUL byte); not a counters file");
    if (n + 2 > l->cap) {
      if (l->cap >= EV_LINE_MAX)
        return gpurf_fail_at(ctx, GPURF_EPARSE, l->path, (int)l->line_no + 1, 1, NULL,
                             "line longer than %u bytes; not a counters file", EV_LINE_MAX);
      char *nb = realloc(l->buf, l->cap * 2);
      if (!nb) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
      l->buf = nb;
      l->cap *= 2;
    }
    l->buf[n++] = (char)ch;
  }
  if (ferror(l->f))
    return gpurf_fail_at(ctx, GPURF_EIO, l->path, (int)l->line_no + 1, 0, NULL, "read error");
  if (ch == EOF && n == 0) return 0;
  l->buf[n] = '\0';
  if (n > 0 && l->buf[n - 1] == '\r') l->buf[--n] = '\0'; /* CRLF files */
  l->line_no++;
  *line = l->buf;
  return 1;
}

int ev_parse_u64(const char *s, size_t n, uint64_t *out) {
  if (n == 0 || n > 20) return -1;
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    uint64_t d = (uint64_t)(s[i] - '0');
    if (v > (UINT64_MAX - d) / 10) return -1;
    v = v * 10 + d;
  }
  *out = v;
  return 0;
}

/* The native format starts with its header line; anything else is read as
 * an AccelWattch report. The line is put back for the format's reader. */
static int is_native(gpurf_ctx *ctx, ev_lines *l, int *native) {
  char *line = NULL;
  int rc = ev_lines_next(ctx, l, &line);
  *native = rc == 1 && strncmp(line, NATIVE_HEADER, strlen(NATIVE_HEADER)) == 0;
  if (rc == 1) ev_lines_unread(l);
  return rc < 0 ? rc : GPURF_OK;
}

int gpurf_energy_load_counts(gpurf_ctx *ctx, gpurf_energy *engine, const char *path,
                             gpurf_counts_info *info) {
  if (!engine || !path || !path[0] || !info)
    return gpurf_fail(ctx, GPURF_EINVAL, "load_counts needs an engine, a path and an info record");
  memset(info, 0, sizeof *info);
  int native = 0;
  gpurf_energy *scratch = NULL;
  int rc = gpurf_energy_alloc(ctx, &engine->table, &scratch);
  if (rc != GPURF_OK) return rc;
  ev_lines l;
  rc = ev_lines_open(ctx, &l, path);
  if (rc == GPURF_OK) {
    rc = is_native(ctx, &l, &native);
    info->format = native ? GPURF_COUNTS_NATIVE : GPURF_COUNTS_ACCELWATTCH;
    if (rc == GPURF_OK)
      rc = native ? ev_read_native(ctx, &l, scratch, info)
                  : ev_read_accelwattch(ctx, &l, scratch, info);
    ev_lines_close(&l);
  }
  if (rc == GPURF_OK) {
    if (info->has_cycles) scratch->cycles = info->cycles;
    ev_accumulate(engine, scratch, 1);
  }
  gpurf_energy_free(scratch);
  return rc;
}
