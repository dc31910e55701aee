#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli/cli.h"

void sb_init(sbuf *b) { memset(b, 0, sizeof *b); }

void sb_free(sbuf *b) {
  free(b->data);
  memset(b, 0, sizeof *b);
}

void sb_printf(sbuf *b, const char *fmt, ...) {
  if (b->oom) return;
  va_list ap;
  va_start(ap, fmt);
  int need = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (need < 0) {
    b->oom = 1;
    return;
  }
  if (b->len + (size_t)need + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < b->len + (size_t)need + 1) cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
      b->oom = 1;
      return;
    }
    b->data = p;
    b->cap = cap;
  }
  va_start(ap, fmt);
  vsnprintf(b->data + b->len, (size_t)need + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)need;
}

int sb_flush_stdout(sbuf *b) {
  if (b->oom) {
    fprintf(stderr, "gpurf: out of memory while formatting output\n");
    return CLI_FAIL;
  }
  if (b->len && fwrite(b->data, 1, b->len, stdout) != b->len) return CLI_FAIL;
  if (fflush(stdout) != 0) return CLI_FAIL;
  return CLI_OK;
}

/* ---- JSON ---- */

void jw_init(jw *w, sbuf *out) {
  memset(w, 0, sizeof *w);
  w->out = out;
}

static void jw_escape(sbuf *b, const char *s) {
  sb_printf(b, "\"");
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    switch (*p) {
    case '"': sb_printf(b, "\\\""); break;
    case '\\': sb_printf(b, "\\\\"); break;
    case '\n': sb_printf(b, "\\n"); break;
    case '\t': sb_printf(b, "\\t"); break;
    case '\r': sb_printf(b, "\\r"); break;
    default:
      if (*p < 0x20)
        sb_printf(b, "\\u%04x", *p);
      else
        sb_printf(b, "%c", *p);
    }
  }
  sb_printf(b, "\"");
}

static void jw_item(jw *w, const char *key) {
  if (w->depth > 0) {
    sb_printf(w->out, "%s\n", w->count[w->depth] ? "," : "");
    for (int i = 0; i < w->depth; i++) sb_printf(w->out, "  ");
  }
  w->count[w->depth]++;
  if (key) {
    jw_escape(w->out, key);
    sb_printf(w->out, ": ");
  }
}

static void jw_open(jw *w, const char *key, const char *bracket) {
  jw_item(w, key);
  sb_printf(w->out, "%s", bracket);
  if (w->depth < 31) w->depth++;
  w->count[w->depth] = 0;
}

static void jw_close(jw *w, const char *bracket) {
  int had = w->count[w->depth];
  if (w->depth > 0) w->depth--;
  if (had) {
    sb_printf(w->out, "\n");
    for (int i = 0; i < w->depth; i++) sb_printf(w->out, "  ");
  }
  sb_printf(w->out, "%s", bracket);
}

void jw_obj_begin(jw *w, const char *key) { jw_open(w, key, "{"); }
void jw_obj_end(jw *w) { jw_close(w, "}"); }
void jw_arr_begin(jw *w, const char *key) { jw_open(w, key, "["); }
void jw_arr_end(jw *w) { jw_close(w, "]"); }

void jw_num(jw *w, const char *key, double v) {
  jw_item(w, key);
  if (isfinite(v))
    sb_printf(w->out, "%.8g", v);
  else
    sb_printf(w->out, "null");
}

void jw_int(jw *w, const char *key, long long v) {
  jw_item(w, key);
  sb_printf(w->out, "%lld", v);
}

void jw_str(jw *w, const char *key, const char *s) {
  jw_item(w, key);
  jw_escape(w->out, s);
}

void jw_bool(jw *w, const char *key, int v) {
  jw_item(w, key);
  sb_printf(w->out, "%s", v ? "true" : "false");
}

void jw_finish(jw *w) { sb_printf(w->out, "\n"); }

/* ---- option values ---- */

int cli_parse_double(const char *prog, const char *opt, const char *s, double *out) {
  char *end = NULL;
  double v = strtod(s, &end);
  if (end == s || *end != '\0' || !isfinite(v)) {
    cli_usage_error(prog, "%s needs a number, not '%s'", opt, s);
    return CLI_USAGE;
  }
  *out = v;
  return CLI_OK;
}

void cli_print_error(const gpurf_ctx *ctx) {
  char line[2048];
  const gpurf_error *e = gpurf_ctx_error(ctx);
  gpurf_error_format(e, line, sizeof line);
  if (e && e->file[0])
    fprintf(stderr, "%s\n", line);
  else
    fprintf(stderr, "gpurf: %s\n", line);
}

static void print_warning(void *user, const gpurf_error *w) {
  (void)user;
  if (w->file[0] && w->line > 0)
    fprintf(stderr, "%s:%d: %s\n", w->file, w->line, w->message);
  else if (w->file[0])
    fprintf(stderr, "%s: %s\n", w->file, w->message);
  else
    fprintf(stderr, "gpurf: %s\n", w->message);
}

void cli_install_warnings(gpurf_ctx *ctx) { gpurf_ctx_set_warning_handler(ctx, print_warning, NULL); }

/* Where usage errors go instead of stderr while a batch row is checked
 * (cli_usage_capture); the CLI runs one command per process. */
static char *usage_sink;
static size_t usage_sink_size;

void cli_usage_capture(char *buf, size_t size) {
  usage_sink = buf;
  usage_sink_size = size;
  if (buf && size) buf[0] = '\0';
}

static void print_escaped(const char *raw) {
  char safe[4096];
  gpurf_error_escape(safe, sizeof safe, raw);
  fprintf(stderr, "%s\n", safe);
}

void cli_errorf(const char *fmt, ...) {
  char raw[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(raw, sizeof raw, fmt, ap);
  va_end(ap);
  print_escaped(raw);
}

int cli_output_file_ok(const char *path) {
  struct stat st;
  if (path && strcmp(path, "-") == 0) {
    /* '-' reads standard input everywhere; as an output it would become a
     * file named '-', which no one means. */
    cli_errorf("-: not a file name: gpurf writes this output whole under a temporary name and "
               "renames it into place, so it needs a file, not standard output");
    return CLI_FAIL;
  }
  if (!path || stat(path, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) return CLI_OK;
  cli_errorf("%s: not a regular file (a device, pipe or socket): gpurf writes its output whole "
             "under a temporary name and renames it into place",
             path);
  return CLI_FAIL;
}

int cli_spool_input(const char *path, long long max_bytes, char *tmp, size_t size, int *slot,
                    int *spooled) {
  struct stat st;
  int is_stdin = !strcmp(path, "-");
  *spooled = 0;
  *slot = -1;
  if (!is_stdin && (stat(path, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
    return 0; /* read in place (or the reader says it cannot open it) */
  const char *shown = is_stdin ? "<stdin>" : path;
  FILE *in = is_stdin ? stdin : fopen(path, "rb");
  if (!in || fstat(fileno(in), &st) != 0) {
    cli_errorf("%s: cannot open: %s", shown, strerror(errno));
    if (in && in != stdin) fclose(in);
    return -1;
  }
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
    cli_errorf("%s: a device, not a file or a pipe", shown);
    if (in != stdin) fclose(in);
    return -1;
  }
  const char *dir = getenv("TMPDIR");
  snprintf(tmp, size, "%s/gpurf-input-%ld-XXXXXX", dir && dir[0] ? dir : "/tmp", (long)getpid());
  cli_cleanup_mask mask;
  cli_cleanup_hold(&mask);
  int fd = mkstemp(tmp);
  if (fd >= 0) *slot = cli_cleanup_add(tmp);
  cli_cleanup_release(&mask);
  FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
  int rc = 0;
  if (!out) {
    cli_errorf("%s: cannot create a copy in %s: %s", shown, dir && dir[0] ? dir : "/tmp",
               strerror(errno));
    if (fd >= 0) close(fd);
    rc = -1;
  }
  char buf[8192];
  size_t n;
  long long total = 0;
  while (rc == 0 && (n = fread(buf, 1, sizeof buf, in)) > 0) {
    total += (long long)n;
    if (max_bytes > 0 && total > max_bytes) {
      cli_errorf("%s: more than %lld bytes; not an input of this kind", shown, max_bytes);
      rc = -1;
    } else if (fwrite(buf, 1, n, out) != n) {
      cli_errorf("%s: cannot copy to %s: %s", shown, tmp, strerror(errno));
      rc = -1;
    }
  }
  if (rc == 0 && ferror(in)) {
    cli_errorf("%s: read error: %s", shown, strerror(errno));
    rc = -1;
  }
  if (out && fclose(out) != 0 && rc == 0) {
    cli_errorf("%s: cannot copy to %s: %s", shown, tmp, strerror(errno));
    rc = -1;
  }
  if (in != stdin) fclose(in);
  if (rc != 0 && fd >= 0) {
    remove(tmp);
    cli_cleanup_remove(*slot);
    *slot = -1;
  }
  *spooled = rc == 0;
  return rc;
}

void cli_print_error_as(const gpurf_ctx *ctx, const char *from, const char *to) {
  gpurf_error e = *gpurf_ctx_error(ctx);
  if (from && to && !strcmp(e.file, from)) snprintf(e.file, sizeof e.file, "%s", to);
  char line[2048];
  gpurf_error_format(&e, line, sizeof line);
  fprintf(stderr, "%s%s\n", e.file[0] ? "" : "gpurf: ", line);
}

static int names_stdin(const char *path) {
  return path && (!strcmp(path, "-") || !strcmp(path, "/dev/stdin") ||
                  !strcmp(path, "/dev/fd/0") || !strcmp(path, "/proc/self/fd/0"));
}

int cli_stdin_once(const char *prog, const char *const *paths, int n) {
  int seen = 0;
  for (int i = 0; i < n; i++) seen += names_stdin(paths[i]);
  if (seen < 2) return CLI_OK;
  cli_usage_error(prog, "%d inputs name standard input ('-' or /dev/stdin), which can be read "
                  "once", seen);
  return CLI_USAGE;
}

void cli_usage_error(const char *prog, const char *fmt, ...) {
  va_list ap;
  if (usage_sink) {
    va_start(ap, fmt);
    vsnprintf(usage_sink, usage_sink_size, fmt, ap);
    va_end(ap);
    return;
  }
  char msg[2048], raw[4096];
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  snprintf(raw, sizeof raw, "%s: %s (see '%s --help')", prog, msg, prog);
  print_escaped(raw);
}

/* ---- helpers shared by the bank, validate and bench commands ---- */

int cli_parse_count(const char *prog, const char *opt, const char *s, long long max,
                    long long *out) {
  const char *p = s;
  if (*p == '-' || *p == '+') p++;
  int digits = *p != '\0';
  for (const char *q = p; *q; q++)
    if (*q < '0' || *q > '9') digits = 0;
  if (!digits) {
    cli_usage_error(prog, "%s needs a whole number, not '%s'", opt, s);
    return CLI_USAGE;
  }
  if (s[0] == '-') {
    cli_usage_error(prog, "%s must be positive, not '%s'", opt, s);
    return CLI_USAGE;
  }
  /* Accumulate with an explicit bound so huge inputs are reported as too
   * large rather than wrapped or clamped by strtoll. */
  long long v = 0;
  for (; *p; p++) {
    int d = *p - '0';
    if (d > max || v > (max - d) / 10) {
      cli_usage_error(prog, "%s %s is too large (at most %lld)", opt, s, max);
      return CLI_USAGE;
    }
    v = v * 10 + d;
  }
  if (v < 1) {
    cli_usage_error(prog, "%s must be at least 1, not '%s'", opt, s);
    return CLI_USAGE;
  }
  *out = v;
  return CLI_OK;
}

const char *cli_sram_cell_for(const gpurf_ports *ports) {
  if (ports->rw == 1 && ports->read == 0 && ports->write == 0) return "sram-6t";
  if (ports->rw == 0 && ports->read == 1 && ports->write == 1) return "sram-8t-1r1w";
  return "sram-multiport";
}

gpurf_tech *cli_tech_load(gpurf_ctx *ctx, const char *node) {
  gpurf_tech *tech = NULL;
  if (gpurf_tech_alloc(ctx, &tech) != GPURF_OK) return NULL;
  if (gpurf_tech_load(ctx, node, tech) != GPURF_OK) {
    gpurf_tech_free(tech);
    return NULL;
  }
  return tech;
}

int cli_parse_shard(const char *prog, const char *s, int *i, int *n) {
  char *end = NULL;
  errno = 0;
  long a = strtol(s, &end, 10);
  if (end == s || *end != '/' || s[0] == '-' || s[0] == '+') goto bad;
  const char *t = end + 1;
  long b = strtol(t, &end, 10);
  if (end == t || *end || t[0] == '-' || t[0] == '+' || errno || b < 1 || b > 100000 || a >= b)
    goto bad;
  *i = (int)a;
  *n = (int)b;
  return CLI_OK;
bad:
  cli_usage_error(prog, "--shard needs I/N with 0 <= I < N, not '%s'", s);
  return CLI_USAGE;
}
