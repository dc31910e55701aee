/* Peer references for the pipeline: another simulator's counts on the
 * shipped traces (validation/accelsim-pipeline.tsv), set beside ours. They
 * are reported, never gated: the two simulators count some things
 * differently on purpose (docs/pipeline-peer.md), so a gap is explained,
 * not closed. This sits above the pipeline, which src/validate may not
 * call. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/ctx_internal.h"
#include "gpurf/pipeline.h"
#include "gpurf/reproduce.h"
#include "gpurf/trace.h"

#define PEER_LINE_MAX 4096
#define PEER_MAX_ROWS 256

static const char *const metric_names[] = {"cycles", "warp_instructions", "bank_reads",
                                           "bank_writes", "conflicts_inter_read",
                                           "conflicts_inter_write", "conflicts_intra"};
#define N_PEER_METRICS (int)(sizeof metric_names / sizeof metric_names[0])

struct gpurf_reproduce_peer {
  char path[1024];
  char source[1024];
  char design[256];
  int n;
  gpurf_reproduce_peer_row rows[PEER_MAX_ROWS];
  int metric[PEER_MAX_ROWS];
  char trace_path[PEER_MAX_ROWS][1024];
};

static int fail_line(gpurf_ctx *ctx, const char *path, int line, int col, const char *fmt, ...)
    GPURF_PRINTF(5, 6);
static int fail_line(gpurf_ctx *ctx, const char *path, int line, int col, const char *fmt, ...) {
  char msg[GPURF_ERROR_MESSAGE_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return gpurf_fail_at(ctx, GPURF_ESCHEMA, path, line, col, NULL, "%s", msg);
}

/* One line within PEER_LINE_MAX into buf: its length, -1 at the end, -2
 * too long, -3 a NUL byte. */
static long read_line(FILE *f, char *buf, size_t cap) {
  size_t n = 0;
  int ch;
  while ((ch = getc(f)) != EOF && ch != '\n') {
    if (ch == '\0') return -3;
    if (n + 1 >= cap) return -2;
    buf[n++] = (char)ch;
  }
  if (ch == EOF && n == 0) return -1;
  while (n > 0 && buf[n - 1] == '\r') n--;
  buf[n] = '\0';
  return (long)n;
}

static int is_path(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

/* A shipped trace by name, under the data directory. */
static int resolve_trace(gpurf_ctx *ctx, gpurf_reproduce_peer *p, int row, int line) {
  static const char *const dirs[] = {"traces", "tests/data/traces"};
  const char *dd = gpurf_ctx_data_dir(ctx);
  char name[sizeof p->rows[0].trace];
  gpurf_strlcpy(name, p->rows[row].trace, sizeof name);
  for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
    snprintf(p->trace_path[row], sizeof p->trace_path[row], "%s/%s/%s", dd && dd[0] ? dd : ".",
             dirs[d], name);
    if (is_path(p->trace_path[row])) return GPURF_OK;
  }
  return gpurf_fail_at(ctx, GPURF_ENOTFOUND, p->path, line, 1, "trace",
                       "trace '%s' is not under the data directory's traces/ or tests/data/traces/",
                       name);
}

static int directive(gpurf_ctx *ctx, gpurf_reproduce_peer *p, const char *text, int line) {
  const char *v;
  if (strncmp(text, "# source:", 9) == 0) {
    for (v = text + 9; *v == ' '; v++) {}
    gpurf_strlcpy(p->source, v, sizeof p->source);
  } else if (strncmp(text, "# design:", 9) == 0) {
    for (v = text + 9; *v == ' '; v++) {}
    if (!v[0] || strlen(v) >= sizeof p->design)
      return fail_line(ctx, p->path, line, 10, "'# design:' needs a design name");
    gpurf_strlcpy(p->design, v, sizeof p->design);
  }
  return GPURF_OK;
}

static int data_row(gpurf_ctx *ctx, gpurf_reproduce_peer *p, char *text, int line) {
  char *f[4] = {text, NULL, NULL, NULL};
  int n = 1;
  for (char *c = text; *c && n < 4; c++)
    if (*c == '\t') {
      *c = '\0';
      f[n++] = c + 1;
    }
  if (n < 3) return fail_line(ctx, p->path, line, 0, "a row is TRACE<TAB>METRIC<TAB>PEER[<TAB>NOTE]");
  if (p->n == PEER_MAX_ROWS)
    return fail_line(ctx, p->path, line, 1, "more than %d rows", PEER_MAX_ROWS);
  gpurf_reproduce_peer_row *r = &p->rows[p->n];
  memset(r, 0, sizeof *r);
  if (!f[0][0] || strlen(f[0]) >= sizeof r->trace)
    return fail_line(ctx, p->path, line, 1, "trace name empty or longer than %zu bytes",
                     sizeof r->trace - 1);
  gpurf_strlcpy(r->trace, f[0], sizeof r->trace);
  int m = 0;
  while (m < N_PEER_METRICS && strcmp(f[1], metric_names[m]) != 0) m++;
  int col2 = (int)(f[1] - text) + 1, col3 = (int)(f[2] - text) + 1;
  if (m == N_PEER_METRICS)
    return fail_line(ctx, p->path, line, col2,
                     "unknown metric '%.40s' (cycles, warp_instructions, bank_reads, bank_writes, "
                     "conflicts_inter_read, conflicts_inter_write, conflicts_intra)", f[1]);
  char *end;
  errno = 0;
  double v = strtod(f[2], &end);
  if (!f[2][0] || *end || errno == ERANGE || !isfinite(v) || v < 0.0 || v != floor(v))
    return fail_line(ctx, p->path, line, col3, "peer value '%.40s' is not a whole number", f[2]);
  for (int i = 0; i < p->n; i++)
    if (!strcmp(p->rows[i].trace, r->trace) && p->metric[i] == m)
      return fail_line(ctx, p->path, line, col2, "%s of %s given twice (first on row %d)",
                       metric_names[m], r->trace, i + 1);
  r->metric = metric_names[m];
  r->peer = v;
  r->line = line;
  if (f[3]) gpurf_strlcpy(r->note, f[3], sizeof r->note);
  p->metric[p->n] = m;
  int rc = resolve_trace(ctx, p, p->n, line);
  if (rc == GPURF_OK) p->n++;
  return rc;
}

int gpurf_reproduce_peer_load(gpurf_ctx *ctx, const char *path, gpurf_reproduce_peer **out) {
  if (!path || !out) return gpurf_fail(ctx, GPURF_EINVAL, "peer_load needs a path and out");
  *out = NULL;
  gpurf_reproduce_peer *p = calloc(1, sizeof *p);
  if (!p) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  gpurf_strlcpy(p->path, path, sizeof p->path);
  FILE *f = fopen(path, "rb");
  if (!f) {
    free(p);
    return gpurf_fail_at(ctx, GPURF_EIO, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
  }
  char buf[PEER_LINE_MAX];
  int line = 0, header = 0, rc = GPURF_OK;
  long len;
  while (rc == GPURF_OK && (len = read_line(f, buf, sizeof buf)) != -1) {
    line++;
    if (len == -2)
      rc = fail_line(ctx, path, line, 0, "line longer than %d bytes", PEER_LINE_MAX - 1);
    else if (len == -3)
      rc = fail_line(ctx, path, line, 0, "NUL byte: not a text file");
    else if (buf[0] == '#')
      rc = directive(ctx, p, buf, line);
    else if (!buf[0])
      continue;
    else if (!header)
      header = 1, rc = strcmp(buf, "trace\tmetric\tpeer\tnote") == 0
                           ? GPURF_OK
                           : fail_line(ctx, path, line, 1,
                                       "the header is trace<TAB>metric<TAB>peer<TAB>note");
    else
      rc = data_row(ctx, p, buf, line);
  }
  if (rc == GPURF_OK && ferror(f)) rc = gpurf_fail_at(ctx, GPURF_EIO, path, 0, 0, NULL, "read error");
  fclose(f);
  if (rc == GPURF_OK && !p->source[0])
    rc = fail_line(ctx, path, 1, 0, "no '# source:' line: a peer set names where it comes from");
  if (rc == GPURF_OK && !p->design[0])
    rc = fail_line(ctx, path, 1, 0, "no '# design:' line naming the design ours is run on");
  if (rc == GPURF_OK && p->n == 0) rc = fail_line(ctx, path, line, 0, "no data rows");
  if (rc != GPURF_OK) {
    free(p);
    return rc;
  }
  *out = p;
  return GPURF_OK;
}

void gpurf_reproduce_peer_free(gpurf_reproduce_peer *p) { free(p); }

static double stat_of(const gpurf_pipeline_stats *st, int m) {
  switch (m) {
    case 0: return (double)st->cycles;
    case 1: return (double)st->warp_instructions;
    case 2: return (double)st->reads;
    case 3: return (double)st->writes;
    case 4: return (double)st->conflicts_inter_read;
    case 5: return (double)st->conflicts_inter_write;
    default: return (double)st->conflicts_intra;
  }
}

static int simulate(gpurf_ctx *ctx, const gpurf_rf_design *d, const gpurf_rf_table *t,
                    const char *trace, gpurf_pipeline_stats *st) {
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  gpurf_pipeline_params_from_design(&prm, d);
  gpurf_pipeline_params_from_table(&prm, t);
  gpurf_trace_reader *rd = NULL;
  gpurf_pipeline *p = NULL;
  int rc = gpurf_trace_reader_alloc(ctx, trace, &rd);
  if (rc == GPURF_OK) rc = gpurf_pipeline_alloc(ctx, &prm, t, NULL, &p);
  if (rc == GPURF_OK) rc = gpurf_pipeline_run(ctx, p, rd, 0);
  if (rc == GPURF_OK) rc = gpurf_pipeline_stats_get(p, st);
  gpurf_pipeline_free(p);
  gpurf_trace_reader_free(rd);
  return rc;
}

int gpurf_reproduce_peer_compare(gpurf_ctx *ctx, gpurf_reproduce_peer *p) {
  if (!p) return gpurf_fail(ctx, GPURF_EINVAL, "peer_compare needs a peer set");
  gpurf_rf_design *d = calloc(1, sizeof *d);
  gpurf_rf_table *t = calloc(1, sizeof *t);
  gpurf_pipeline_stats *st = calloc(1, sizeof *st);
  int rc = d && t && st ? GPURF_OK : gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  if (rc == GPURF_OK) rc = gpurf_rf_design_load(ctx, p->design, d);
  if (rc == GPURF_OK) rc = gpurf_rf_design_table(ctx, d, t);
  /* Each trace runs once, for all its rows. */
  char done[PEER_MAX_ROWS] = {0};
  for (int i = 0; rc == GPURF_OK && i < p->n; i++) {
    if (done[i]) continue;
    rc = simulate(ctx, d, t, p->trace_path[i], st);
    for (int j = i; rc == GPURF_OK && j < p->n; j++)
      if (!strcmp(p->trace_path[j], p->trace_path[i])) {
        p->rows[j].ours = stat_of(st, p->metric[j]);
        done[j] = 1;
      }
  }
  for (int i = 0; rc == GPURF_OK && i < p->n; i++) {
    gpurf_reproduce_peer_row *r = &p->rows[i];
    r->has_ratio = r->peer > 0.0;
    r->ratio = r->has_ratio ? r->ours / r->peer : 0.0;
  }
  free(d);
  free(t);
  free(st);
  return rc;
}

const char *gpurf_reproduce_peer_source(const gpurf_reproduce_peer *p) { return p->source; }
const char *gpurf_reproduce_peer_design(const gpurf_reproduce_peer *p) { return p->design; }
int gpurf_reproduce_peer_rows(const gpurf_reproduce_peer *p) { return p ? p->n : 0; }

const gpurf_reproduce_peer_row *gpurf_reproduce_peer_row_get(const gpurf_reproduce_peer *p, int i) {
  return p && i >= 0 && i < p->n ? &p->rows[i] : NULL;
}
