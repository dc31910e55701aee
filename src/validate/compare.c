/* Comparing: the bank model evaluated on every row of a reference set, our
 * numbers beside the reference's, and per metric the statistics the set's
 * tolerance is checked against. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "gpurf/metrics.h"
#include "validate/validate_internal.h"

typedef struct vres_row {
  char tech[GPURF_TECH_NAME_MAX];
  char cell[GPURF_TECH_NAME_MAX];
  char ports[32];
  /* In the metric's unit, the set's conventions applied: compared with the
   * reference in the unit it is stated in. */
  double ours[GPURF_VALIDATE_METRICS];
  /* The reference band in the same units and conventions; has_band 0 where
   * the band does not cover the metric or the row (flip-flop arrays). */
  int has_band[GPURF_VALIDATE_METRICS];
  double band_low[GPURF_VALIDATE_METRICS], band_high[GPURF_VALIDATE_METRICS];
} vres_row;

typedef struct vres_stat {
  int rows;           /* rows whose reference gives this metric */
  int band_rows;      /* of those, rows with a band for it */
  int band_inside;    /* of those, rows whose reference lies inside the band */
  double median_abs;  /* median |ours - ref| / ref */
  size_t worst;       /* row furthest off, by max(ours/ref, ref/ours) */
  double worst_ratio; /* ours / ref of that row */
  int pass;           /* the tolerance holds (1 when there is none) */
} vres_stat;

struct gpurf_validate_result {
  const gpurf_validate_set *set;
  vres_row *rows;
  vres_stat stat[GPURF_VALIDATE_METRICS];
  int pass;
};

/* Nodes loaded for one comparison: most rows share a handful of them. */
typedef struct tech_cache {
  gpurf_tech **tech;
  char (*node)[VSET_NAME_MAX]; /* the rows' spelling of each */
  size_t n, cap;
} tech_cache;

static const gpurf_tech *cached_tech(gpurf_ctx *ctx, tech_cache *c, const char *node) {
  for (size_t i = 0; i < c->n; i++)
    if (strcmp(c->node[i], node) == 0) return c->tech[i];
  if (c->n == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 8;
    gpurf_tech **t = realloc(c->tech, cap * sizeof *t);
    if (t) c->tech = t;
    char(*nm)[VSET_NAME_MAX] = realloc(c->node, cap * sizeof *nm);
    if (nm) c->node = nm;
    if (!t || !nm) {
      gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
      return NULL;
    }
    c->cap = cap;
  }
  gpurf_tech *t = NULL;
  if (gpurf_tech_alloc(ctx, &t) != GPURF_OK) return NULL;
  if (gpurf_tech_load(ctx, node, t) != GPURF_OK) {
    gpurf_tech_free(t);
    return NULL;
  }
  c->tech[c->n] = t;
  snprintf(c->node[c->n], VSET_NAME_MAX, "%s", node);
  return c->tech[c->n++];
}

/* The shipped SRAM cell "sram" stands for: 6T for 1rw, 8T for 1r1w, the
 * multi-port cell (grown per extra port by the model) otherwise. */
static const char *sram_cell_for(const gpurf_ports *p) {
  if (p->rw == 1 && p->read == 0 && p->write == 0) return "sram-6t";
  if (p->rw == 0 && p->read == 1 && p->write == 1) return "sram-8t-1r1w";
  return "sram-multiport";
}

static double metric_of(gpurf_validate_metric m, const gpurf_bank_cost *c) {
  switch (m) {
  case GPURF_VALIDATE_ACCESS_TIME: return c->access_time_s;
  case GPURF_VALIDATE_CYCLE_TIME: return c->cycle_time_s;
  case GPURF_VALIDATE_WRITE_LATENCY: return c->write_latency_s;
  case GPURF_VALIDATE_READ_ENERGY: return c->read_energy_j;
  case GPURF_VALIDATE_WRITE_ENERGY: return c->write_energy_j;
  case GPURF_VALIDATE_LEAKAGE: return c->leakage_sub_w + c->leakage_gate_w;
  case GPURF_VALIDATE_LEAKAGE_SUB: return c->leakage_sub_w;
  case GPURF_VALIDATE_LEAKAGE_GATE: return c->leakage_gate_w;
  case GPURF_VALIDATE_AREA: return c->area_m2;
  case GPURF_VALIDATE_METRICS: break;
  }
  return NAN;
}

/* The bank band's metric behind a validation metric; -1 for the leakage
 * parts, which the band's classes give only summed. */
static int band_metric_of(gpurf_validate_metric m) {
  switch (m) {
  case GPURF_VALIDATE_ACCESS_TIME: return GPURF_BANK_METRIC_ACCESS_TIME;
  case GPURF_VALIDATE_CYCLE_TIME: return GPURF_BANK_METRIC_CYCLE_TIME;
  case GPURF_VALIDATE_WRITE_LATENCY: return GPURF_BANK_METRIC_WRITE_LATENCY;
  case GPURF_VALIDATE_READ_ENERGY: return GPURF_BANK_METRIC_READ_ENERGY;
  case GPURF_VALIDATE_WRITE_ENERGY: return GPURF_BANK_METRIC_WRITE_ENERGY;
  case GPURF_VALIDATE_LEAKAGE: return GPURF_BANK_METRIC_LEAKAGE;
  case GPURF_VALIDATE_AREA: return GPURF_BANK_METRIC_AREA;
  default: return -1;
  }
}

/* The row's reference band in the metric's units, each class's value put
 * under the set's conventions as ours is (leakage of one bank plus the
 * wiring between banks where the set says so), so that ours is always one
 * end of the band or inside it. */
static int band_row(gpurf_ctx *ctx, const gpurf_validate_set *s, const gpurf_bank_spec *spec,
                    const gpurf_bank_cost *cost, vres_row *out) {
  if (spec->cell->kind != GPURF_CELL_SRAM && spec->cell->kind != GPURF_CELL_STT_MTJ) return GPURF_OK;
  gpurf_bank_band band;
  int rc = gpurf_bank_band_eval(ctx, spec, cost, &band);
  if (rc != GPURF_OK) return rc;
  for (int m = 0; m < GPURF_VALIDATE_METRICS; m++) {
    int bm = band_metric_of((gpurf_validate_metric)m);
    if (bm < 0) continue;
    double scale = gpurf_validate_metric_scale((gpurf_validate_metric)m);
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < GPURF_BANK_REF_COUNT; k++) {
      double v = band.value[k][bm];
      if (isnan(v)) continue;
      if (bm == GPURF_BANK_METRIC_LEAKAGE && s->leakage_per_bank) {
        v = (v - band.interbank_leakage_w[k]) / spec->banks + band.interbank_path_leakage_w[k];
      }
      v *= scale;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    if (!(lo <= hi)) continue;
    out->has_band[m] = 1;
    out->band_low[m] = lo;
    out->band_high[m] = hi;
  }
  return GPURF_OK;
}

/* Re-files the context's error under the row: FILE:LINE: config 'NAME': why. */
static int row_failed(gpurf_ctx *ctx, const gpurf_validate_set *s, const vset_row *row) {
  char why[GPURF_ERROR_MESSAGE_MAX + GPURF_ERROR_FILE_MAX + GPURF_ERROR_FIELD_MAX + 64];
  const gpurf_error *e = gpurf_ctx_error(ctx);
  int status = e->status != GPURF_OK ? e->status : GPURF_EINVAL;
  gpurf_error_format(e, why, sizeof why);
  return gpurf_fail_at(ctx, status, s->path, row->line, 0, NULL, "config '%s': %s", row->config,
                       why);
}

static int eval_row(gpurf_ctx *ctx, tech_cache *tc, const gpurf_validate_set *s,
                    const vset_row *row, vres_row *out) {
  gpurf_bank_spec spec = row->spec;
  gpurf_cell cell;
  const char *cell_name = strcmp(row->cell, "sram") == 0 ? sram_cell_for(&spec.ports) : row->cell;
  const gpurf_tech *tech = cached_tech(ctx, tc, row->node);
  if (!tech || gpurf_cell_load(ctx, cell_name, &cell) != GPURF_OK) return row_failed(ctx, s, row);
  if (!row->ports_given && cell.kind == GPURF_CELL_SRAM)
    spec.ports = (gpurf_ports){cell.u.sram.rw_ports, cell.u.sram.read_ports,
                               cell.u.sram.write_ports};
  spec.tech = tech;
  spec.cell = &cell;
  gpurf_bank_cost cost;
  if (gpurf_bank_eval(ctx, &spec, &cost) != GPURF_OK) return row_failed(ctx, s, row);
  snprintf(out->tech, sizeof out->tech, "%s", gpurf_tech_name(tech));
  snprintf(out->cell, sizeof out->cell, "%s", cell.name);
  gpurf_ports_format(&spec.ports, out->ports, sizeof out->ports);
  for (int m = 0; m < GPURF_VALIDATE_METRICS; m++) {
    double scale = gpurf_validate_metric_scale((gpurf_validate_metric)m);
    out->ours[m] = metric_of((gpurf_validate_metric)m, &cost) * scale;
    int leak = m == GPURF_VALIDATE_LEAKAGE || m == GPURF_VALIDATE_LEAKAGE_SUB ||
               m == GPURF_VALIDATE_LEAKAGE_GATE;
    /* CACTI reports one bank plus the wiring between banks, whose
     * repeaters it counts along one path (htree2.cc); gpurf reports all
     * banks and every branch of the tree. */
    if (leak && s->leakage_per_bank) {
      double sub = cost.leakage_part_w[GPURF_BANK_PART_INTERBANK], gate = cost.interbank_leakage_gate_w;
      double sub_path = cost.interbank_path_leakage_sub_w, gate_path = cost.interbank_path_leakage_gate_w;
      double tree = m == GPURF_VALIDATE_LEAKAGE_GATE ? gate : m == GPURF_VALIDATE_LEAKAGE_SUB ? sub : sub + gate;
      double path = m == GPURF_VALIDATE_LEAKAGE_GATE ? gate_path
                    : m == GPURF_VALIDATE_LEAKAGE_SUB ? sub_path : sub_path + gate_path;
      out->ours[m] = (out->ours[m] - tree * scale) / spec.banks + path * scale;
    }
  }
  if (band_row(ctx, s, &spec, &cost, out) != GPURF_OK) return row_failed(ctx, s, row);
  return GPURF_OK;
}

/* The factor a ratio is off by, in either direction (inf when not positive). */
static double off_factor(double ratio) {
  if (!(ratio > 0) || !isfinite(ratio)) return INFINITY;
  return ratio >= 1 ? ratio : 1.0 / ratio;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int summarise(gpurf_ctx *ctx, gpurf_validate_result *r) {
  const gpurf_validate_set *s = r->set;
  double *err = malloc((s->n_rows + 1) * sizeof *err);
  if (!err) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  r->pass = 1;
  for (int m = 0; m < GPURF_VALIDATE_METRICS; m++) {
    vres_stat *st = &r->stat[m];
    memset(st, 0, sizeof *st);
    st->pass = 1;
    double worst = -1;
    for (size_t i = 0; i < s->n_rows; i++) {
      if (!s->rows[i].has[m]) continue;
      if (r->rows[i].has_band[m]) {
        st->band_rows++;
        st->band_inside += gpurf_validate_result_in_band(r, i, (gpurf_validate_metric)m) == 1;
      }
      double ratio = r->rows[i].ours[m] / s->rows[i].ref[m];
      err[st->rows++] = fabs(ratio - 1.0);
      if (off_factor(ratio) > worst) {
        worst = off_factor(ratio);
        st->worst = i;
        st->worst_ratio = ratio;
      }
    }
    if (st->rows == 0) continue;
    qsort(err, (size_t)st->rows, sizeof *err, cmp_double);
    int h = st->rows / 2;
    st->median_abs = st->rows % 2 ? err[h] : 0.5 * (err[h - 1] + err[h]);
    const vset_tolerance *t = &s->tol[m];
    if (!t->gated) continue;
    st->pass = (t->median == 0 || st->median_abs <= t->median) &&
               (t->max_ratio == 0 || worst <= t->max_ratio);
    if (!st->pass) r->pass = 0;
  }
  free(err);
  return GPURF_OK;
}

int gpurf_validate_compare(gpurf_ctx *ctx, const gpurf_validate_set *set,
                           gpurf_validate_result **out) {
  if (!ctx || !set || !out) return GPURF_EINVAL;
  *out = NULL;
  gpurf_validate_result *r = calloc(1, sizeof *r);
  if (r) r->rows = calloc(set->n_rows ? set->n_rows : 1, sizeof *r->rows);
  if (!r || !r->rows) {
    free(r);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  }
  r->set = set;
  tech_cache tc = {0};
  int rc = GPURF_OK;
  for (size_t k = 0; rc == GPURF_OK && k < set->n_rows; k++)
    rc = eval_row(ctx, &tc, set, &set->rows[k], &r->rows[k]);
  if (rc == GPURF_OK) rc = summarise(ctx, r);
  for (size_t i = 0; i < tc.n; i++) gpurf_tech_free(tc.tech[i]);
  free(tc.tech);
  free(tc.node);
  if (rc != GPURF_OK) {
    gpurf_validate_result_free(r);
    return rc;
  }
  *out = r;
  return GPURF_OK;
}

void gpurf_validate_result_free(gpurf_validate_result *r) {
  if (!r) return;
  free(r->rows);
  free(r);
}

static const vres_row *res_row(const gpurf_validate_result *r, size_t row) {
  return r && row < r->set->n_rows ? &r->rows[row] : NULL;
}

static const vres_stat *res_stat(const gpurf_validate_result *r, gpurf_validate_metric m) {
  return r && (unsigned)m < GPURF_VALIDATE_METRICS ? &r->stat[m] : NULL;
}

double gpurf_validate_result_ours(const gpurf_validate_result *r, size_t row,
                                  gpurf_validate_metric m) {
  const vres_row *x = res_row(r, row);
  return x && (unsigned)m < GPURF_VALIDATE_METRICS
             ? x->ours[m] / gpurf_validate_metric_scale(m) : NAN;
}

int gpurf_validate_result_compared(const gpurf_validate_result *r, size_t row,
                                   gpurf_validate_metric m, double *ours, double *ref,
                                   double *rel_error) {
  const vres_row *x = res_row(r, row);
  if (!x || (unsigned)m >= GPURF_VALIDATE_METRICS || !r->set->rows[row].has[m]) return 0;
  double o = x->ours[m], f = r->set->rows[row].ref[m];
  if (ours) *ours = o;
  if (ref) *ref = f;
  if (rel_error && gpurf_metrics_rel_error(NULL, o, f, rel_error) != GPURF_OK) *rel_error = NAN;
  return 1;
}

const char *gpurf_validate_result_tech(const gpurf_validate_result *r, size_t row) {
  const vres_row *x = res_row(r, row);
  return x ? x->tech : NULL;
}

const char *gpurf_validate_result_cell(const gpurf_validate_result *r, size_t row) {
  const vres_row *x = res_row(r, row);
  return x ? x->cell : NULL;
}

const char *gpurf_validate_result_ports(const gpurf_validate_result *r, size_t row) {
  const vres_row *x = res_row(r, row);
  return x ? x->ports : NULL;
}

int gpurf_validate_result_rows(const gpurf_validate_result *r, gpurf_validate_metric m) {
  const vres_stat *st = res_stat(r, m);
  return st ? st->rows : 0;
}

double gpurf_validate_result_median_abs_error(const gpurf_validate_result *r,
                                              gpurf_validate_metric m) {
  const vres_stat *st = res_stat(r, m);
  return st && st->rows ? st->median_abs : NAN;
}

size_t gpurf_validate_result_worst_row(const gpurf_validate_result *r, gpurf_validate_metric m) {
  const vres_stat *st = res_stat(r, m);
  return st ? st->worst : 0;
}

double gpurf_validate_result_worst_ratio(const gpurf_validate_result *r,
                                         gpurf_validate_metric m) {
  const vres_stat *st = res_stat(r, m);
  return st && st->rows ? st->worst_ratio : NAN;
}

int gpurf_validate_result_pass(const gpurf_validate_result *r, gpurf_validate_metric m) {
  const vres_stat *st = res_stat(r, m);
  return st ? st->pass : 0;
}

int gpurf_validate_result_set_pass(const gpurf_validate_result *r) { return r ? r->pass : 0; }

int gpurf_validate_result_band(const gpurf_validate_result *r, size_t row,
                               gpurf_validate_metric m, double *low, double *high) {
  const vres_row *x = res_row(r, row);
  if (!x || (unsigned)m >= GPURF_VALIDATE_METRICS || !x->has_band[m]) return 0;
  if (low) *low = x->band_low[m];
  if (high) *high = x->band_high[m];
  return 1;
}

/* The band's ends are computed, the reference is read with its own digits:
 * a part in a billion absorbs the rounding of a reference that is one of
 * the classes (ours, say). */
#define BAND_EDGE_REL 1e-9

int gpurf_validate_result_in_band(const gpurf_validate_result *r, size_t row,
                                  gpurf_validate_metric m) {
  double lo, hi, ref;
  if (!gpurf_validate_result_band(r, row, m, &lo, &hi) ||
      !gpurf_validate_result_compared(r, row, m, NULL, &ref, NULL))
    return -1;
  return ref >= lo * (1.0 - BAND_EDGE_REL) && ref <= hi * (1.0 + BAND_EDGE_REL);
}

int gpurf_validate_result_band_rows(const gpurf_validate_result *r, gpurf_validate_metric m,
                                    int *inside) {
  const vres_stat *st = res_stat(r, m);
  if (inside) *inside = st ? st->band_inside : 0;
  return st ? st->band_rows : 0;
}
