/* A design sweep's description: the model, its axes parsed from settings
 * such as "banks[0].count+banks[0].entries=8:128,16:64", the points they
 * span, and the check of every value on the loaded design. Evaluation is
 * in sweep_run.c, results files in sweep_results.c. */
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "metrics/metrics_internal.h"

int gpurf_sweep_alloc(gpurf_ctx *ctx, const char *model, gpurf_sweep **out) {
  if (!out) return gpurf_fail(ctx, GPURF_EINVAL, "no place for the sweep");
  *out = NULL;
  if (!model || !model[0])
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "model", "no design");
  /* The model names the sweep on a results file's first line. */
  if (strpbrk(model, "\t\r\n"))
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "model",
                         "a design name holds no tab or line break");
  gpurf_sweep *s = calloc(1, sizeof *s);
  size_t len = strlen(model) + 1;
  char *m = malloc(len);
  if (!s || !m) {
    free(s);
    free(m);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory for a sweep");
  }
  memcpy(m, model, len);
  s->model = m;
  s->n_points = 1;
  *out = s;
  return GPURF_OK;
}

static void axis_free(sweep_axis *ax) {
  if (!ax) return;
  free(ax->setting);
  free(ax->text);
  free(ax);
}

void gpurf_sweep_free(gpurf_sweep *s) {
  if (!s) return;
  for (int a = 0; a < s->naxes; a++) axis_free(s->axes[a]);
  free(s->model);
  free(s->base);
  free(s->points);
  free(s->sums);
  free(s);
}

/* Splits s at sep into at most max pieces (in place); -1 if more. */
static int split(char *s, char sep, char **out, int max) {
  int n = 0;
  for (;;) {
    if (n == max) return -1;
    out[n++] = s;
    char *p = strchr(s, sep);
    if (!p) return n;
    *p = '\0';
    s = p + 1;
  }
}

/* KEY[+KEY...]=V[:V...][,V[:V...]...] into ax (its text split in place).
 * Messages name the keys as written, the part before '='. */
static int parse_axis(gpurf_ctx *ctx, sweep_axis *ax) {
  char *text = ax->text, *eq = strchr(text, '=');
  if (!eq || eq == text || !eq[1])
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "set", "needs KEY=V1,V2,..., not '%s'",
                         ax->setting);
  int klen = (int)(eq - text);
  const char *kname = ax->setting;
  *eq = '\0';
  char *keys[GPURF_SWEEP_MAX_KEYS + 1], *tuples[GPURF_SWEEP_MAX_VALUES + 1];
  ax->nkeys = split(text, '+', keys, GPURF_SWEEP_MAX_KEYS);
  if (ax->nkeys < 0)
    return gpurf_fail_at(ctx, GPURF_ERANGE, NULL, 0, 0, "set",
                         "%.*s: at most %d keys move together", klen, kname,
                         GPURF_SWEEP_MAX_KEYS);
  for (int k = 0; k < ax->nkeys; k++) {
    if (!keys[k][0])
      return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "set", "%.*s: an empty key", klen, kname);
    ax->keys[k] = keys[k];
  }
  ax->nvalues = split(eq + 1, ',', tuples, GPURF_SWEEP_MAX_VALUES);
  if (ax->nvalues < 0)
    return gpurf_fail_at(ctx, GPURF_ERANGE, NULL, 0, 0, "set", "%.*s: at most %d values", klen,
                         kname, GPURF_SWEEP_MAX_VALUES);
  for (int v = 0; v < ax->nvalues; v++) {
    char *parts[GPURF_SWEEP_MAX_KEYS + 1];
    /* A single key takes its value whole (a node path may hold ':'). */
    int n = ax->nkeys == 1 ? (parts[0] = tuples[v], 1)
                           : split(tuples[v], ':', parts, GPURF_SWEEP_MAX_KEYS);
    if (n != ax->nkeys)
      return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "set",
                           "%.*s: value %d has %d part%s for %d keys (join them with ':')", klen,
                           kname, v + 1, n < 0 ? GPURF_SWEEP_MAX_KEYS + 1 : n, n == 1 ? "" : "s",
                           ax->nkeys);
    for (int k = 0; k < n; k++) {
      if (!parts[k][0] || strlen(parts[k]) >= GPURF_SWEEP_VALUE_MAX)
        return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "set",
                             "%.*s: value %d is empty or too long", klen, kname, v + 1);
      ax->values[v][k] = parts[k];
    }
  }
  return GPURF_OK;
}

/* A key already on an earlier axis, or twice on this one. */
static const char *swept_twice(const gpurf_sweep *s, const sweep_axis *ax) {
  for (int k = 0; k < ax->nkeys; k++) {
    for (int j = 0; j < k; j++)
      if (!strcmp(ax->keys[k], ax->keys[j])) return ax->keys[k];
    for (int a = 0; a < s->naxes; a++)
      for (int j = 0; j < s->axes[a]->nkeys; j++)
        if (!strcmp(ax->keys[k], s->axes[a]->keys[j])) return ax->keys[k];
  }
  return NULL;
}

int gpurf_sweep_add(gpurf_ctx *ctx, gpurf_sweep *s, const char *setting) {
  if (!s || !setting) return gpurf_fail(ctx, GPURF_EINVAL, "no sweep or no setting");
  if (s->base)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "set",
                         "the sweep is prepared: its axes are fixed");
  if (s->naxes == GPURF_SWEEP_MAX_AXES)
    return gpurf_fail_at(ctx, GPURF_ERANGE, NULL, 0, 0, NULL, "at most %d settings",
                         GPURF_SWEEP_MAX_AXES);
  /* A setting is written whole on a results file's first line. */
  if (strpbrk(setting, "\t\r\n"))
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "set",
                         "a setting holds no tab or line break");
  size_t len = strlen(setting) + 1;
  sweep_axis *ax = calloc(1, sizeof *ax);
  if (ax) ax->setting = malloc(len), ax->text = malloc(len);
  if (!ax || !ax->setting || !ax->text) {
    axis_free(ax);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory for a setting");
  }
  memcpy(ax->setting, setting, len);
  memcpy(ax->text, setting, len);
  int rc = parse_axis(ctx, ax);
  const char *twice = rc == GPURF_OK ? swept_twice(s, ax) : NULL;
  if (twice) rc = gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, twice, "key '%s' is swept twice",
                                twice);
  if (rc == GPURF_OK && s->n_points > (size_t)(GPURF_SWEEP_MAX_POINTS / ax->nvalues))
    rc = gpurf_fail_at(ctx, GPURF_ERANGE, NULL, 0, 0, NULL, "more than %d points",
                       GPURF_SWEEP_MAX_POINTS);
  if (rc != GPURF_OK) {
    axis_free(ax);
    return rc;
  }
  s->axes[s->naxes++] = ax;
  s->n_points *= (size_t)ax->nvalues;
  return GPURF_OK;
}

const char *gpurf_sweep_model(const gpurf_sweep *s) { return s ? s->model : NULL; }

size_t gpurf_sweep_axis_count(const gpurf_sweep *s) { return s ? (size_t)s->naxes : 0; }

const char *gpurf_sweep_setting(const gpurf_sweep *s, size_t axis) {
  return s && axis < (size_t)s->naxes ? s->axes[axis]->setting : NULL;
}

size_t gpurf_sweep_key_count(const gpurf_sweep *s, size_t axis) {
  return s && axis < (size_t)s->naxes ? (size_t)s->axes[axis]->nkeys : 0;
}

const char *gpurf_sweep_key(const gpurf_sweep *s, size_t axis, size_t key) {
  if (!s || axis >= (size_t)s->naxes || key >= (size_t)s->axes[axis]->nkeys) return NULL;
  return s->axes[axis]->keys[key];
}

size_t gpurf_sweep_point_count(const gpurf_sweep *s) { return s ? s->n_points : 0; }

void sweep_point_index(const gpurf_sweep *s, size_t i, int *index) {
  size_t rest = i;
  for (int a = s->naxes - 1; a >= 0; a--) {
    index[a] = (int)(rest % (size_t)s->axes[a]->nvalues);
    rest /= (size_t)s->axes[a]->nvalues;
  }
}

const char *gpurf_sweep_value(const gpurf_sweep *s, size_t point, size_t axis, size_t key) {
  if (!s || point >= s->n_points || axis >= (size_t)s->naxes ||
      key >= (size_t)s->axes[axis]->nkeys)
    return NULL;
  int index[GPURF_SWEEP_MAX_AXES];
  sweep_point_index(s, point, index);
  return s->axes[axis]->values[index[axis]][key];
}

size_t gpurf_sweep_point_label(const gpurf_sweep *s, size_t point, char *buf, size_t size) {
  if (!buf || size == 0) return 0;
  buf[0] = '\0';
  if (!s || point >= s->n_points) return 0;
  int index[GPURF_SWEEP_MAX_AXES];
  sweep_point_index(s, point, index);
  size_t used = 0;
  for (int a = 0; a < s->naxes; a++)
    for (int k = 0; k < s->axes[a]->nkeys && used < size; k++) {
      int w = snprintf(buf + used, size - used, "%s%s=%s", used ? " " : "", s->axes[a]->keys[k],
                       s->axes[a]->values[index[a]][k]);
      if (w > 0) used += (size_t)w;
    }
  return strlen(buf);
}

int sweep_points_alloc(gpurf_ctx *ctx, gpurf_sweep *s) {
  s->points = calloc(s->n_points, sizeof *s->points);
  s->sums = calloc(s->n_points, sizeof *s->sums);
  if (!s->points || !s->sums) {
    free(s->points);
    free(s->sums);
    s->points = NULL;
    s->sums = NULL;
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory for %zu points", s->n_points);
  }
  for (size_t i = 0; i < s->n_points; i++) s->points[i].summary = &s->sums[i];
  return GPURF_OK;
}

int gpurf_sweep_prepare(gpurf_ctx *ctx, gpurf_sweep *s) {
  if (!s) return gpurf_fail(ctx, GPURF_EINVAL, "no sweep");
  if (s->base) return GPURF_OK;
  gpurf_rf_design *base = calloc(1, sizeof *base), *d = calloc(1, sizeof *d);
  int rc = base && d ? gpurf_rf_design_load(ctx, s->model, base)
                     : gpurf_fail(ctx, GPURF_ENOMEM, "out of memory for a design");
  /* Every value is tried on the unchanged design first, so a bad key or
   * value fails before any point is evaluated. */
  for (int a = 0; a < s->naxes && rc == GPURF_OK; a++)
    for (int v = 0; v < s->axes[a]->nvalues && rc == GPURF_OK; v++)
      for (int k = 0; k < s->axes[a]->nkeys && rc == GPURF_OK; k++) {
        *d = *base;
        rc = gpurf_rf_design_set(ctx, d, s->axes[a]->keys[k], s->axes[a]->values[v][k]);
      }
  if (rc == GPURF_OK) rc = sweep_points_alloc(ctx, s);
  free(d);
  if (rc != GPURF_OK) {
    free(base);
    return rc;
  }
  s->base = base;
  return GPURF_OK;
}

const gpurf_rf_design *gpurf_sweep_design(const gpurf_sweep *s) { return s ? s->base : NULL; }

const gpurf_sweep_point *gpurf_sweep_point_get(const gpurf_sweep *s, size_t i) {
  return s && s->points && i < s->n_points ? &s->points[i] : NULL;
}

size_t gpurf_sweep_points_done(const gpurf_sweep *s) {
  size_t n = 0;
  for (size_t i = 0; s && s->points && i < s->n_points; i++) n += s->points[i].done != 0;
  return n;
}
