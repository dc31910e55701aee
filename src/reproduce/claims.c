/* Claims: each paper's claims() emits rows through these helpers, which
 * fill the published side from the paper's definition and compare. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "gpurf/metrics.h"
#include "reproduce/repro_internal.h"

const char *repro_strdup(gpurf_reproduce *r, const char *s) {
  if (!s) return NULL;
  if (r->n_strings == r->cap_strings) {
    size_t cap = r->cap_strings ? 2 * r->cap_strings : 64;
    char **ns = realloc(r->strings, cap * sizeof *ns);
    if (!ns) return NULL;
    r->strings = ns;
    r->cap_strings = cap;
  }
  char *c = malloc(strlen(s) + 1);
  if (!c) return NULL;
  strcpy(c, s);
  r->strings[r->n_strings++] = c;
  return c;
}

static int push(repro_env *env, const gpurf_reproduce_claim *c) {
  gpurf_reproduce *r = env->r;
  if (r->n_claims == r->cap_claims) {
    size_t cap = r->cap_claims ? 2 * r->cap_claims : 64;
    gpurf_reproduce_claim *nc = realloc(r->claims, cap * sizeof *nc);
    if (!nc) return gpurf_fail(env->ctx, GPURF_ENOMEM, "out of memory");
    r->claims = nc;
    r->cap_claims = cap;
  }
  r->claims[r->n_claims++] = *c;
  return GPURF_OK;
}

static void fill_published(repro_env *env, const repro_claim_def *d, gpurf_reproduce_claim *c) {
  memset(c, 0, sizeof *c);
  c->paper = env->paper->def->info.id;
  c->claim = d->id;
  c->metric = d->metric;
  c->unit = d->unit;
  c->workloads = env->paper->set;
  c->source = d->source;
  c->relation = d->relation;
  c->published = d->published;
  c->has_published = !isnan(d->published);
  c->direction_ok = -1;
}

/* Ratios print minus one ("-5%") unless the claim's unit is "ratio". */
static double ratio_offset(const repro_claim_def *d) { return strcmp(d->unit, "ratio") ? 1 : 0; }

static int sign(double x) { return (x > 0) - (x < 0); }

/* Sets ours and compares it with the published number. */
static void compare(const repro_claim_def *d, gpurf_reproduce_claim *c, double ours) {
  c->status = GPURF_REPRODUCE_COMPUTED;
  c->ours = ours;
  if (!c->has_published) return;
  if (gpurf_metrics_rel_error(NULL, ours, c->published, &c->rel_error) == GPURF_OK)
    c->has_rel_error = 1;
  switch (d->relation) {
  case GPURF_REPRODUCE_ABOUT:
    c->direction_ok = fabs(ours - c->published) <= d->tolerance;
    break;
  case GPURF_REPRODUCE_BELOW:
    c->direction_ok = ours < c->published;
    break;
  case GPURF_REPRODUCE_ABOVE:
    c->direction_ok = ours > c->published;
    break;
  default:
    /* A ratio's direction is its side of 1 (EDP 0.64: better than the base). */
    c->direction_ok = ratio_offset(d) ? sign(ours) == sign(c->published)
                                      : sign(ours - 1) == sign(c->published - 1);
  }
}

int repro_claim_not_modelled(repro_env *env, const repro_claim_def *d, const char *note) {
  gpurf_reproduce_claim c;
  fill_published(env, d, &c);
  c.status = GPURF_REPRODUCE_NOT_MODELLED;
  c.note = repro_strdup(env->r, note);
  return push(env, &c);
}

int repro_claim_no_data(repro_env *env, const repro_claim_def *d) {
  gpurf_reproduce_claim c;
  fill_published(env, d, &c);
  c.status = GPURF_REPRODUCE_NO_DATA;
  return push(env, &c);
}

int repro_claim_no_data_why(repro_env *env, const repro_claim_def *d, const char *why) {
  gpurf_reproduce_claim c;
  fill_published(env, d, &c);
  c.status = GPURF_REPRODUCE_NO_DATA;
  c.note = repro_strdup(env->r, why);
  if (!c.note) return gpurf_fail(env->ctx, GPURF_ENOMEM, "out of memory");
  return push(env, &c);
}

int repro_claim_value(repro_env *env, const repro_claim_def *d, double ours, const char *note) {
  gpurf_reproduce_claim c;
  fill_published(env, d, &c);
  compare(d, &c, ours);
  c.note = repro_strdup(env->r, note);
  return push(env, &c);
}

int repro_claim_design_ratio(repro_env *env, const repro_claim_def *d, const char *design_a,
                             const char *sets_a, const char *design_b, const char *sets_b,
                             repro_metric m, const char *note) {
  const repro_job *a = repro_find_design(env, design_a, sets_a);
  const repro_job *b = repro_find_design(env, design_b, sets_b);
  if (!a || !b) return repro_claim_no_data(env, d);
  if (!(b->m[m] > 0))
    return gpurf_fail_at(env->ctx, GPURF_EINVAL, NULL, 0, 0, d->id, "%s of %s is not positive",
                         repro_metric_names[m], design_b);
  return repro_claim_value(env, d, a->m[m] / b->m[m] - ratio_offset(d), note);
}

/* Emits the claim over the set from per-workload values v[] (ratios when
 * `ratio`: printed minus one), then one row per workload. */
int repro_claim_series(repro_env *env, const repro_claim_def *d, const double *v, int ratio,
                       repro_aggregate agg, const char *note) {
  int n = env->paper->n_workloads;
  double acc = agg == REPRO_GEOMEAN ? 0 : v[0];
  for (int i = 1; i < n && agg != REPRO_GEOMEAN; i++) {
    if (agg == REPRO_MAX) acc = v[i] > acc ? v[i] : acc;
    else if (agg == REPRO_MIN) acc = v[i] < acc ? v[i] : acc;
    else acc += v[i];
  }
  /* A value the mean cannot take (negative, not finite) makes it NaN. */
  if (agg == REPRO_GEOMEAN && gpurf_metrics_geomean(NULL, v, (size_t)n, &acc) != GPURF_OK)
    acc = NAN;
  if (agg == REPRO_MEAN) acc /= n;
  double off = ratio ? ratio_offset(d) : 0;
  int rc = repro_claim_value(env, d, acc - off, note);
  static const char *const names[] = {"geometric mean", "largest", "smallest", "mean"};
  if (rc == GPURF_OK) env->r->claims[env->r->n_claims - 1].aggregate = names[agg];
  for (int i = 0; i < n && rc == GPURF_OK; i++) {
    gpurf_reproduce_claim c;
    fill_published(env, d, &c);
    c.has_published = 0;
    c.per_workload = 1;
    c.workloads = env->r->workloads[env->paper->workloads[i]].name;
    compare(d, &c, v[i] - off);
    rc = push(env, &c);
  }
  return rc;
}

int repro_claim_rows(repro_env *env, const repro_claim_def *d, double overall,
                     const char *const *labels, const double *values, int n, int ratio,
                     const char *note) {
  double off = ratio ? ratio_offset(d) : 0;
  int rc = repro_claim_value(env, d, overall - off, note);
  if (rc == GPURF_OK) env->r->claims[env->r->n_claims - 1].aggregate = "claim";
  for (int i = 0; i < n && rc == GPURF_OK; i++) {
    gpurf_reproduce_claim c;
    fill_published(env, d, &c);
    c.has_published = 0;
    c.per_workload = 1;
    c.workloads = repro_strdup(env->r, labels[i]);
    if (!c.workloads) return gpurf_fail(env->ctx, GPURF_ENOMEM, "out of memory");
    compare(d, &c, values[i] - off);
    rc = push(env, &c);
  }
  return rc;
}

/* Collects metric m of (design_a, sets_a) per workload, divided by that of
 * (design_b, sets_b) when design_b is given. */
static int series(repro_env *env, const repro_claim_def *d, const char *design_a,
                  const char *sets_a, const char *design_b, const char *sets_b, repro_metric m,
                  repro_aggregate agg, const char *note) {
  int n = env->paper->n_workloads;
  if (n == 0) return repro_claim_no_data(env, d);
  double *v = calloc((size_t)n, sizeof *v);
  if (!v) return gpurf_fail(env->ctx, GPURF_ENOMEM, "out of memory");
  int rc = GPURF_OK, missing = 0;
  char why[160] = "";
  for (int i = 0; i < n && !missing && !why[0]; i++) {
    int w = env->paper->workloads[i];
    const repro_job *a = repro_find_sim(env, design_a, sets_a, w);
    const repro_job *b = design_b ? repro_find_sim(env, design_b, sets_b, w) : NULL;
    if (!a || (design_b && !b)) {
      missing = 1;
    } else if (design_b && (!(a->m[m] > 0) || !(b->m[m] > 0))) {
      /* A workload without the events the ratio counts (a kernel that
       * writes no register, say) leaves the claim without data, not the
       * whole run without a report. */
      snprintf(why, sizeof why, "%s is not positive on workload %.60s: no ratio",
               repro_metric_names[m], env->r->workloads[w].name);
    } else {
      v[i] = design_b ? a->m[m] / b->m[m] : a->m[m];
    }
  }
  if (missing)
    rc = repro_claim_no_data(env, d);
  else if (why[0])
    rc = repro_claim_no_data_why(env, d, why);
  else
    rc = repro_claim_series(env, d, v, design_b != NULL, agg, note);
  free(v);
  return rc;
}

int repro_claim_ratio(repro_env *env, const repro_claim_def *d, const char *design_a,
                      const char *sets_a, const char *design_b, const char *sets_b, repro_metric m,
                      repro_aggregate agg, const char *note) {
  return series(env, d, design_a, sets_a, design_b, sets_b, m, agg, note);
}

int repro_claim_metric(repro_env *env, const repro_claim_def *d, const char *design,
                       const char *sets, repro_metric m, repro_aggregate agg, const char *note) {
  return series(env, d, design, sets, NULL, NULL, m, agg, note);
}

const repro_claim_def *repro_claim_def_find(const repro_claim_def *defs, const char *id) {
  for (; defs->id; defs++)
    if (!strcmp(defs->id, id)) return defs;
  return NULL;
}

static int def_index(const repro_claim_def *defs, const char *id) {
  for (int i = 0; defs[i].id; i++)
    if (defs[i].id == id) return i;
  return -1;
}

int repro_claims_rest_not_modelled(repro_env *env, const repro_claim_def *defs, const char *note) {
  gpurf_reproduce *r = env->r;
  for (const repro_claim_def *d = defs; d->id; d++) {
    int seen = 0;
    for (size_t i = env->first_claim; i < r->n_claims && !seen; i++) seen = r->claims[i].claim == d->id;
    if (!seen) {
      int rc = repro_claim_not_modelled(env, d, note);
      if (rc != GPURF_OK) return rc;
    }
  }
  /* Stable insertion sort by the table's order: a few dozen rows. */
  gpurf_reproduce_claim *c = r->claims + env->first_claim;
  size_t n = r->n_claims - env->first_claim;
  for (size_t i = 1; i < n; i++) {
    gpurf_reproduce_claim x = c[i];
    int k = def_index(defs, x.claim);
    size_t j = i;
    while (j > 0 && def_index(defs, c[j - 1].claim) > k) {
      c[j] = c[j - 1];
      j--;
    }
    c[j] = x;
  }
  return GPURF_OK;
}

int gpurf_reproduce_claims(gpurf_ctx *ctx, gpurf_reproduce *r) {
  r->n_claims = 0;
  for (int i = 0; i < r->n_papers; i++) {
    repro_env env = {ctx, r, &r->papers[i], r->n_claims};
    int rc = r->papers[i].def->claims(&env);
    if (rc != GPURF_OK) return rc;
  }
  return GPURF_OK;
}

size_t gpurf_reproduce_claim_count(const gpurf_reproduce *r) { return r->n_claims; }

const gpurf_reproduce_claim *gpurf_reproduce_claim_get(const gpurf_reproduce *r, size_t i) {
  return i < r->n_claims ? &r->claims[i] : NULL;
}

void gpurf_reproduce_tally_get(const gpurf_reproduce *r, const char *paper,
                               gpurf_reproduce_tally *out) {
  memset(out, 0, sizeof *out);
  for (size_t i = 0; i < r->n_claims; i++) {
    const gpurf_reproduce_claim *c = &r->claims[i];
    if (c->per_workload || (paper && strcmp(c->paper, paper))) continue;
    out->claims++;
    if (c->status != GPURF_REPRODUCE_COMPUTED) continue;
    out->computed++;
    out->direction_ok += c->direction_ok == 1;
    out->within_third +=
        c->direction_ok == 1 && (!c->has_rel_error || fabs(c->rel_error) <= 1.0 / 3);
  }
}
