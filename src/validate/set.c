/* Reference sets: the metrics they can give, and what a program may read of
 * a loaded set. */
#include <math.h>
#include <stdlib.h>

#include "validate/validate_internal.h"

static const struct {
  const char *name, *key, *unit;
  double scale; /* SI to unit */
} metric_info[GPURF_VALIDATE_METRICS] = {
    {"access_time", "access_time_ns", "ns", 1e9},
    {"cycle_time", "cycle_time_ns", "ns", 1e9},
    {"write_latency", "write_latency_ns", "ns", 1e9},
    {"read_energy", "read_energy_pj", "pJ", 1e12},
    {"write_energy", "write_energy_pj", "pJ", 1e12},
    {"leakage", "leakage_mw", "mW", 1e3},
    {"leakage_sub", "leakage_sub_mw", "mW", 1e3},
    {"leakage_gate", "leakage_gate_mw", "mW", 1e3},
    {"area", "area_mm2", "mm^2", 1e6},
};

static int metric_ok(gpurf_validate_metric m) { return (unsigned)m < GPURF_VALIDATE_METRICS; }

const char *gpurf_validate_metric_name(gpurf_validate_metric m) {
  return metric_ok(m) ? metric_info[m].name : NULL;
}

const char *gpurf_validate_metric_key(gpurf_validate_metric m) {
  return metric_ok(m) ? metric_info[m].key : NULL;
}

const char *gpurf_validate_metric_unit(gpurf_validate_metric m) {
  return metric_ok(m) ? metric_info[m].unit : NULL;
}

double gpurf_validate_metric_scale(gpurf_validate_metric m) {
  return metric_ok(m) ? metric_info[m].scale : 0.0;
}

void gpurf_validate_set_free(gpurf_validate_set *set) {
  if (!set) return;
  free(set->rows);
  free(set);
}

const char *gpurf_validate_set_name(const gpurf_validate_set *set) {
  return set ? set->name : NULL;
}

const char *gpurf_validate_set_path(const gpurf_validate_set *set) {
  return set ? set->path : NULL;
}

const char *gpurf_validate_set_source(const gpurf_validate_set *set) {
  return set ? set->source : NULL;
}

int gpurf_validate_set_gated(const gpurf_validate_set *set) { return set ? set->gated : 0; }

const char *gpurf_validate_set_not_gated_why(const gpurf_validate_set *set) {
  return set ? set->not_gated_why : NULL;
}

int gpurf_validate_set_leakage_per_bank(const gpurf_validate_set *set) {
  return set ? set->leakage_per_bank : 0;
}

int gpurf_validate_set_tolerance(const gpurf_validate_set *set, gpurf_validate_metric m,
                                 double *median_abs_error, double *max_ratio) {
  if (!set || !metric_ok(m)) return GPURF_EINVAL;
  const vset_tolerance *t = &set->tol[m];
  if (median_abs_error) *median_abs_error = t->median;
  if (max_ratio) *max_ratio = t->max_ratio;
  return t->gated;
}

size_t gpurf_validate_set_rows(const gpurf_validate_set *set) { return set ? set->n_rows : 0; }

const vset_row *vset_row_at(const gpurf_validate_set *set, size_t row) {
  return set && row < set->n_rows ? &set->rows[row] : NULL;
}

const char *gpurf_validate_row_config(const gpurf_validate_set *set, size_t row) {
  const vset_row *r = vset_row_at(set, row);
  return r ? r->config : NULL;
}

int gpurf_validate_row_line(const gpurf_validate_set *set, size_t row) {
  const vset_row *r = vset_row_at(set, row);
  return r ? r->line : 0;
}

const char *gpurf_validate_row_node(const gpurf_validate_set *set, size_t row) {
  const vset_row *r = vset_row_at(set, row);
  return r ? r->node : NULL;
}

const char *gpurf_validate_row_cell(const gpurf_validate_set *set, size_t row) {
  const vset_row *r = vset_row_at(set, row);
  return r ? r->cell : NULL;
}

int gpurf_validate_row_spec(const gpurf_validate_set *set, size_t row, gpurf_bank_spec *spec) {
  const vset_row *r = vset_row_at(set, row);
  if (!r || !spec) return GPURF_EINVAL;
  *spec = r->spec;
  return GPURF_OK;
}

int gpurf_validate_row_reference(const gpurf_validate_set *set, size_t row,
                                 gpurf_validate_metric m, double *ref) {
  const vset_row *r = vset_row_at(set, row);
  if (!r || !metric_ok(m) || !r->has[m]) {
    if (ref) *ref = NAN;
    return 0;
  }
  if (ref) *ref = r->ref[m] / metric_info[m].scale;
  return 1;
}
