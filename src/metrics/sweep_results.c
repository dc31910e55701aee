/* A sweep's results file, written by a shard and read by a merge:
 *
 *   gpurf-sweep-results 1<TAB>model=M<TAB>set=S1<TAB>set=S2 ...
 *   point=N<TAB>clock_hz=X<TAB>area_m2=X,X,...<TAB>... <TAB>c=NAME<TAB>e.EVENT=X ...
 *
 * Every number is in C's hexadecimal floating point (%a), which strtod
 * reads back to the same bits: a merged point prints exactly as one
 * evaluated in the merging process. The first line names the sweep, so the
 * shards of different sweeps are not joined. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "metrics/metrics_internal.h"

#define MAGIC "gpurf-sweep-results 1"

/* ---- Writing ---- */

static void put_vec(FILE *out, const char *key, const double *v, int n) {
  fprintf(out, "\t%s=", key);
  for (int i = 0; i < n; i++) fprintf(out, "%s%a", i ? "," : "", v[i]);
}

/* Names end at a tab or a line break on the file. */
static int bad_name(const char *s) { return strpbrk(s, "\t\r\n") != NULL; }

int gpurf_sweep_write_results(gpurf_ctx *ctx, const gpurf_sweep *s, FILE *out) {
  if (!s || !out) return gpurf_fail(ctx, GPURF_EINVAL, "no sweep or no file");
  for (size_t i = 0; s->points && i < s->n_points; i++)
    for (int c = 0; s->points[i].done && c < s->points[i].n_components; c++) {
      const gpurf_sweep_component *pc = &s->points[i].components[c];
      int bad = bad_name(pc->name);
      for (int e = 0; e < pc->n_events && !bad; e++) bad = bad_name(pc->events[e].name);
      if (bad)
        return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, pc->name,
                             "a component or event name with a tab or line break");
    }
  fprintf(out, "%s\tmodel=%s", MAGIC, s->model);
  for (int a = 0; a < s->naxes; a++) fprintf(out, "\tset=%s", s->axes[a]->setting);
  fputc('\n', out);
  for (size_t i = 0; s->points && i < s->n_points; i++) {
    const gpurf_sweep_point *p = &s->points[i];
    const gpurf_metrics_summary *m = &s->sums[i];
    if (!p->done) continue;
    fprintf(out, "point=%zu\tclock_hz=%a", i + 1, p->clock_hz);
    put_vec(out, "area_m2", m->area_m2, GPURF_METRICS_AREA_ROLES);
    put_vec(out, "area_total_m2", &m->area_total_m2, 1);
    put_vec(out, "leakage_w", m->leak_w, GPURF_METRICS_LEAKAGE_ROLES);
    put_vec(out, "leakage_total_w", &m->leak_total_w, 1);
    put_vec(out, "read_path_s", m->path_s, GPURF_METRICS_PATH_PARTS);
    put_vec(out, "read_path_total_s", &m->path_total_s, 1);
    fprintf(out, "\tread_path_cycles=%lld", m->path_cycles);
    put_vec(out, "read_energy_j", m->energy_j, GPURF_METRICS_PATH_PARTS);
    put_vec(out, "read_energy_total_j", &m->energy_total_j, 1);
    for (int c = 0; c < p->n_components; c++) {
      const gpurf_sweep_component *pc = &p->components[c];
      fprintf(out, "\tc=%s", pc->name);
      for (int e = 0; e < pc->n_events; e++)
        fprintf(out, "\te.%s=%a", pc->events[e].name, pc->events[e].energy_j);
    }
    fputc('\n', out);
  }
  if (fflush(out) != 0 || ferror(out))
    return gpurf_fail(ctx, GPURF_EIO, "cannot write results: %s", strerror(errno));
  return GPURF_OK;
}

/* ---- Reading ---- */

/* A line being read field by field; the errors name file, line and column. */
typedef struct cursor {
  gpurf_ctx *ctx;
  const char *path;
  int line;
  char *start, *p; /* p: the next field, NULL past the end */
} cursor;

/* The next tab-separated field, terminated in place; NULL at the end. */
static char *next_field(cursor *c, int *column) {
  if (!c->p) return NULL;
  char *f = c->p, *tab = strchr(f, '\t');
  *column = (int)(f - c->start) + 1;
  if (tab) {
    *tab = '\0';
    c->p = tab + 1;
  } else {
    c->p = NULL;
  }
  return f;
}

static int bad_field(cursor *c, int column, const char *key) {
  return gpurf_fail_at(c->ctx, GPURF_EPARSE, c->path, c->line, column, key,
                       "expected %s=VALUE here", key);
}

/* "KEY=X[,X...]" with exactly n numbers. */
static int read_vec(cursor *c, const char *key, double *v, int n) {
  int col = 0;
  char *f = next_field(c, &col);
  size_t kl = strlen(key);
  if (!f || strncmp(f, key, kl) || f[kl] != '=') return bad_field(c, col ? col : 1, key);
  char *q = f + kl + 1;
  for (int i = 0; i < n; i++) {
    char *end = NULL;
    v[i] = strtod(q, &end);
    if (end == q || *end != (i + 1 < n ? ',' : '\0'))
      return gpurf_fail_at(c->ctx, GPURF_EPARSE, c->path, c->line, col + (int)(q - f), key,
                           "expected %d number%s", n, n == 1 ? "" : "s");
    q = end + 1;
  }
  return GPURF_OK;
}

static int read_count(cursor *c, const char *key, long long min, long long max, long long *out) {
  int col = 0;
  char *f = next_field(c, &col);
  size_t kl = strlen(key);
  if (!f || strncmp(f, key, kl) || f[kl] != '=') return bad_field(c, col ? col : 1, key);
  char *end = NULL, *q = f + kl + 1;
  errno = 0;
  long long v = strtoll(q, &end, 10);
  if (end == q || *end || errno || v < min || v > max)
    return gpurf_fail_at(c->ctx, GPURF_EPARSE, c->path, c->line, col + (int)(q - f), key,
                         "expected a whole number in [%lld, %lld]", min, max);
  *out = v;
  return GPURF_OK;
}

static int copy_name(cursor *c, int column, const char *name, size_t len, char *dst) {
  if (len == 0 || len >= GPURF_RF_NAME_MAX)
    return gpurf_fail_at(c->ctx, GPURF_EPARSE, c->path, c->line, column, "name",
                         "a name of 1 to %d bytes", GPURF_RF_NAME_MAX - 1);
  memcpy(dst, name, len);
  dst[len] = '\0';
  return GPURF_OK;
}

/* The components: "c=NAME" then its events "e.NAME=X". */
static int read_components(cursor *c, gpurf_sweep_point *p) {
  int col = 0;
  for (char *f = next_field(c, &col); f; f = next_field(c, &col)) {
    if (!strncmp(f, "c=", 2)) {
      if (p->n_components == GPURF_RF_MAX_COMPONENTS)
        return gpurf_fail_at(c->ctx, GPURF_EPARSE, c->path, c->line, col, "c",
                             "more than %d components", GPURF_RF_MAX_COMPONENTS);
      gpurf_sweep_component *pc = &p->components[p->n_components++];
      int rc = copy_name(c, col, f + 2, strlen(f + 2), pc->name);
      if (rc != GPURF_OK) return rc;
      continue;
    }
    char *eq = strrchr(f, '=');
    if (strncmp(f, "e.", 2) || !eq || p->n_components == 0)
      return gpurf_fail_at(c->ctx, GPURF_EPARSE, c->path, c->line, col, NULL,
                           "expected c=COMPONENT or e.EVENT=VALUE after one");
    gpurf_sweep_component *pc = &p->components[p->n_components - 1];
    if (pc->n_events == GPURF_RF_MAX_EVENTS)
      return gpurf_fail_at(c->ctx, GPURF_EPARSE, c->path, c->line, col, pc->name,
                           "more than %d events", GPURF_RF_MAX_EVENTS);
    gpurf_rf_event *ev = &pc->events[pc->n_events++];
    int rc = copy_name(c, col, f + 2, (size_t)(eq - f - 2), ev->name);
    if (rc != GPURF_OK) return rc;
    char *end = NULL;
    ev->energy_j = strtod(eq + 1, &end);
    if (end == eq + 1 || *end)
      return gpurf_fail_at(c->ctx, GPURF_EPARSE, c->path, c->line, col + (int)(eq + 1 - f),
                           ev->name, "expected a number");
  }
  return GPURF_OK;
}

/* One point's line, into the sweep only when the whole line is good. */
static int read_point(cursor *c, gpurf_sweep *s, gpurf_sweep_point *p) {
  gpurf_metrics_summary m;
  long long n = 0;
  memset(p, 0, sizeof *p);
  memset(&m, 0, sizeof m);
  int rc = read_count(c, "point", 1, (long long)s->n_points, &n);
  if (rc == GPURF_OK && s->points[n - 1].done)
    rc = gpurf_fail_at(c->ctx, GPURF_EINVAL, c->path, c->line, 1, "point",
                       "point %lld was read already (the same shard twice?)", n);
  if (rc == GPURF_OK) rc = read_vec(c, "clock_hz", &p->clock_hz, 1);
  if (rc == GPURF_OK) rc = read_vec(c, "area_m2", m.area_m2, GPURF_METRICS_AREA_ROLES);
  if (rc == GPURF_OK) rc = read_vec(c, "area_total_m2", &m.area_total_m2, 1);
  if (rc == GPURF_OK) rc = read_vec(c, "leakage_w", m.leak_w, GPURF_METRICS_LEAKAGE_ROLES);
  if (rc == GPURF_OK) rc = read_vec(c, "leakage_total_w", &m.leak_total_w, 1);
  if (rc == GPURF_OK) rc = read_vec(c, "read_path_s", m.path_s, GPURF_METRICS_PATH_PARTS);
  if (rc == GPURF_OK) rc = read_vec(c, "read_path_total_s", &m.path_total_s, 1);
  if (rc == GPURF_OK) rc = read_count(c, "read_path_cycles", 0, LLONG_MAX, &m.path_cycles);
  if (rc == GPURF_OK) rc = read_vec(c, "read_energy_j", m.energy_j, GPURF_METRICS_PATH_PARTS);
  if (rc == GPURF_OK) rc = read_vec(c, "read_energy_total_j", &m.energy_total_j, 1);
  if (rc == GPURF_OK) rc = read_components(c, p);
  if (rc != GPURF_OK) return rc;
  p->done = 1;
  p->summary = &s->sums[n - 1];
  s->sums[n - 1] = m;
  s->points[n - 1] = *p;
  return GPURF_OK;
}

/* The first line's fields in place: the model and up to max settings. */
static int parse_header(char *line, const char **model, const char **sets, int max, int *nsets) {
  line[strcspn(line, "\r\n")] = '\0';
  char *save = NULL, *f = strtok_r(line, "\t", &save);
  if (!f || strcmp(f, MAGIC)) return -1;
  f = strtok_r(NULL, "\t", &save);
  if (!f || strncmp(f, "model=", 6)) return -1;
  *model = f + 6;
  *nsets = 0;
  for (f = strtok_r(NULL, "\t", &save); f; f = strtok_r(NULL, "\t", &save)) {
    if (strncmp(f, "set=", 4) || *nsets == max) return -1;
    sets[(*nsets)++] = f + 4;
  }
  return 0;
}

static int not_results(gpurf_ctx *ctx, const char *path) {
  return gpurf_fail_at(ctx, GPURF_EPARSE, path, 1, 1, NULL,
                       "not a gpurf sweep results file (first line '%s ...')", MAGIC);
}

/* Refuses the results of another sweep: the model and every setting must be
 * this sweep's. */
static int check_header(gpurf_ctx *ctx, const gpurf_sweep *s, const char *path, char *line) {
  const char *model = NULL, *sets[GPURF_SWEEP_MAX_AXES];
  int n = 0;
  if (parse_header(line, &model, sets, GPURF_SWEEP_MAX_AXES, &n) != 0)
    return not_results(ctx, path);
  if (strcmp(model, s->model))
    return gpurf_fail_at(ctx, GPURF_EINVAL, path, 1, 1, "model",
                         "results of a sweep of '%s', not of '%s'", model, s->model);
  if (n != s->naxes)
    return gpurf_fail_at(ctx, GPURF_EINVAL, path, 1, 1, "set",
                         "results of a sweep with %d setting%s, not %d", n, n == 1 ? "" : "s",
                         s->naxes);
  for (int a = 0; a < n; a++)
    if (strcmp(sets[a], s->axes[a]->setting))
      return gpurf_fail_at(ctx, GPURF_EINVAL, path, 1, 1, "set",
                           "results of a sweep whose setting %d is '%s', not '%s'", a + 1,
                           sets[a], s->axes[a]->setting);
  return GPURF_OK;
}

/* A results line is a point's figures in %a: some kilobytes for the largest
 * table. A longer one, or a NUL byte, is not a results file (/dev/zero would
 * otherwise be read as one endless line into memory). */
#define LINE_MAX_BYTES (1u << 20)

/* A results file being read line by line; the first line may have been
 * read already (the merge reads it to learn which sweep it is). */
typedef struct line_in {
  gpurf_ctx *ctx;
  FILE *f;
  const char *name;
  char *buf;
  size_t cap;
  int lineno;
} line_in;

static int in_open(gpurf_ctx *ctx, line_in *in, const char *path) {
  memset(in, 0, sizeof *in);
  in->ctx = ctx;
  in->name = gpurf_input_name(path);
  in->f = gpurf_input_open(path);
  if (!in->f)
    return gpurf_fail_at(ctx, GPURF_EIO, in->name, 0, 0, NULL, "cannot open: %s", strerror(errno));
  return GPURF_OK;
}

static void in_close(line_in *in) {
  gpurf_input_close(in->f);
  free(in->buf);
  in->f = NULL;
  in->buf = NULL;
}

/* The next line without its line break: 1, or 0 at the end of the file,
 * or an error status. */
static int in_next(line_in *in, size_t *len) {
  size_t n = 0;
  int ch, any = 0;
  while ((ch = getc(in->f)) != EOF) {
    if (!any) in->lineno++;
    any = 1;
    if (ch == '\n') break;
    if (ch == '\0')
      return gpurf_fail_at(in->ctx, GPURF_EPARSE, in->name, in->lineno, (int)n + 1, NULL,
                           "a NUL byte on the line");
    if (n + 2 > in->cap) {
      if (in->cap >= LINE_MAX_BYTES)
        return gpurf_fail_at(in->ctx, GPURF_EPARSE, in->name, in->lineno, 1, NULL,
                             "line longer than %u bytes: not a sweep results file",
                             LINE_MAX_BYTES);
      size_t cap = in->cap ? in->cap * 2 : 4096;
      char *nb = realloc(in->buf, cap);
      if (!nb) return gpurf_fail(in->ctx, GPURF_ENOMEM, "out of memory");
      in->buf = nb;
      in->cap = cap;
    }
    in->buf[n++] = (char)ch;
  }
  if (ferror(in->f))
    return gpurf_fail_at(in->ctx, GPURF_EIO, in->name, in->lineno, 0, NULL, "cannot read");
  if (!any) return 0;
  if (!in->buf && !(in->buf = malloc(in->cap = 4096)))
    return gpurf_fail(in->ctx, GPURF_ENOMEM, "out of memory");
  in->buf[n] = '\0';
  *len = n;
  return 1;
}

/* The first line, checked against the sweep (unless the caller read and
 * checked it), then every point. */
static int read_points(gpurf_ctx *ctx, gpurf_sweep *s, line_in *in) {
  gpurf_sweep_point *p = malloc(sizeof *p);
  if (!p) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  size_t len;
  int rc = GPURF_OK, got;
  while (rc == GPURF_OK && (got = in_next(in, &len)) != 0) {
    if (got < 0) {
      rc = got;
    } else if (in->lineno == 1) {
      rc = check_header(ctx, s, in->name, in->buf);
      if (rc == GPURF_OK) rc = gpurf_sweep_prepare(ctx, s);
    } else {
      cursor c = {ctx, in->name, in->lineno, in->buf, in->buf};
      rc = read_point(&c, s, p);
    }
  }
  if (rc == GPURF_OK && in->lineno == 0) rc = not_results(ctx, in->name);
  free(p);
  return rc;
}

int gpurf_sweep_read_results(gpurf_ctx *ctx, gpurf_sweep *s, const char *path) {
  if (!s || !path) return gpurf_fail(ctx, GPURF_EINVAL, "no sweep or no file");
  line_in in;
  int rc = in_open(ctx, &in, path);
  if (rc == GPURF_OK) rc = read_points(ctx, s, &in);
  in_close(&in);
  return rc;
}

/* Describes the sweep a results file's first line names, read from the
 * open file, which is left at its second line: the file is opened once, so
 * it may be a pipe. */
static int sweep_of_first_line(gpurf_ctx *ctx, line_in *in, gpurf_sweep **out) {
  size_t len;
  int got = in_next(in, &len);
  if (got < 0) return got;
  const char *model = NULL, *sets[GPURF_SWEEP_MAX_AXES];
  int n = 0;
  char *line = got ? malloc(len + 1) : NULL;
  if (got && !line) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  if (line) memcpy(line, in->buf, len + 1);
  int rc = line && parse_header(line, &model, sets, GPURF_SWEEP_MAX_AXES, &n) == 0
               ? gpurf_sweep_alloc(ctx, model, out)
               : not_results(ctx, in->name);
  for (int a = 0; a < n && rc == GPURF_OK; a++) rc = gpurf_sweep_add(ctx, *out, sets[a]);
  if (rc != GPURF_OK && *out) {
    /* A setting the writer took but this build refuses: say where. */
    gpurf_error e = *gpurf_ctx_error(ctx);
    rc = gpurf_fail_at(ctx, e.status, in->name, 1, 1, e.field[0] ? e.field : NULL, "%s",
                       e.message);
    gpurf_sweep_free(*out);
    *out = NULL;
  }
  if (rc == GPURF_OK) rc = gpurf_sweep_prepare(ctx, *out);
  if (rc == GPURF_OK) rc = check_header(ctx, *out, in->name, in->buf);
  free(line);
  return rc;
}

int gpurf_sweep_merge(gpurf_ctx *ctx, const char *const *paths, size_t n, gpurf_sweep **out) {
  if (!out) return gpurf_fail(ctx, GPURF_EINVAL, "no place for the sweep");
  *out = NULL;
  if (!paths || n == 0) return gpurf_fail(ctx, GPURF_EINVAL, "no results files to merge");
  gpurf_sweep *s = NULL;
  line_in in0;
  int rc = in_open(ctx, &in0, paths[0]);
  if (rc == GPURF_OK) rc = sweep_of_first_line(ctx, &in0, &s);
  if (rc == GPURF_OK) rc = read_points(ctx, s, &in0);
  in_close(&in0);
  for (size_t i = 1; i < n && rc == GPURF_OK; i++) rc = gpurf_sweep_read_results(ctx, s, paths[i]);
  size_t done = rc == GPURF_OK ? gpurf_sweep_points_done(s) : 0;
  if (rc == GPURF_OK && done != s->n_points) {
    size_t first = 0;
    while (s->points[first].done) first++;
    rc = gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, NULL,
                       "%zu of %zu points have no results, the first point %zu (a shard "
                       "missing?)",
                       s->n_points - done, s->n_points, first + 1);
  }
  if (rc != GPURF_OK) {
    gpurf_sweep_free(s);
    return rc;
  }
  *out = s;
  return GPURF_OK;
}
