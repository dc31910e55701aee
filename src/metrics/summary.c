/* A primitive table reduced to area and leakage by role and the operand
 * read path: the numbers `gpurf rf`, `gpurf sweep` and `gpurf table` print
 * about a whole design. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "gpurf/metrics.h"
#include "metrics/metrics_internal.h"

static const char *const area_names[GPURF_METRICS_AREA_ROLES] = {
    "cell_arrays", "bank_periphery", "crossbar", "arbiter", "extras"};
static const char *const leak_names[GPURF_METRICS_LEAKAGE_ROLES] = {"banks", "crossbar",
                                                                     "arbiter", "extras"};
static const char *const path_names[GPURF_METRICS_PATH_PARTS] = {"bank", "crossbar", "arbiter"};

const char *gpurf_metrics_area_role_name(gpurf_metrics_area_role role) {
  return (unsigned)role < GPURF_METRICS_AREA_ROLES ? area_names[role] : NULL;
}

const char *gpurf_metrics_leakage_role_name(gpurf_metrics_leakage_role role) {
  return (unsigned)role < GPURF_METRICS_LEAKAGE_ROLES ? leak_names[role] : NULL;
}

const char *gpurf_metrics_path_part_name(gpurf_metrics_path_part part) {
  return (unsigned)part < GPURF_METRICS_PATH_PARTS ? path_names[part] : NULL;
}

int gpurf_metrics_summary_alloc(gpurf_ctx *ctx, gpurf_metrics_summary **out) {
  if (!out) return gpurf_fail(ctx, GPURF_EINVAL, "no place for the summary");
  *out = calloc(1, sizeof **out);
  return *out ? GPURF_OK : gpurf_fail(ctx, GPURF_ENOMEM, "out of memory for a summary");
}

void gpurf_metrics_summary_free(gpurf_metrics_summary *s) { free(s); }

/* A time the read path may add up: finite and not negative. */
static int bad_time(double t_s) { return !isfinite(t_s) || t_s < 0.0; }

int gpurf_metrics_summarise(gpurf_ctx *ctx, const gpurf_rf_table *t, gpurf_metrics_summary *s) {
  if (!t || !s) return gpurf_fail(ctx, GPURF_EINVAL, "no table or no summary");
  if (!isfinite(t->clock_hz) || !(t->clock_hz > 0.0))
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "clock_hz",
                         "design '%s': the clock must be above 0 Hz, not %g", t->design,
                         t->clock_hz);
  for (int i = 0; i < t->n_components; i++) {
    const gpurf_rf_component *c = &t->components[i];
    if (bad_time(c->access_time_s) || bad_time(c->write_time_s) || bad_time(c->wake_latency_s))
      return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, c->name,
                           "design '%s': a time of component '%s' is negative or not finite",
                           t->design, c->name);
  }
  memset(s, 0, sizeof *s);
  int first_storage = 1;
  for (int i = 0; i < t->n_components; i++) {
    const gpurf_rf_component *c = &t->components[i];
    /* The roles are the register file as the papers measure it (banks,
     * crossbar, arbiter, extra structures); the operand collectors are
     * costed in the table and in simulated energy, not here. */
    if (strcmp(c->name, GPURF_RF_COLLECTOR) == 0) continue;
    double area = c->instances * c->area_m2, leak = c->instances * c->leakage_w;
    double e0 = c->n_events > 0 ? c->events[0].energy_j : 0.0;
    if (strcmp(c->kind, "xbar") == 0) {
      s->area_m2[GPURF_METRICS_AREA_CROSSBAR] += area;
      s->leak_w[GPURF_METRICS_LEAKAGE_CROSSBAR] += leak;
      s->path_s[GPURF_METRICS_PATH_CROSSBAR] += c->access_time_s;
      s->energy_j[GPURF_METRICS_PATH_CROSSBAR] += e0;
      continue;
    }
    if (strcmp(c->kind, "arbiter") == 0) {
      s->area_m2[GPURF_METRICS_AREA_ARBITER] += area;
      s->leak_w[GPURF_METRICS_LEAKAGE_ARBITER] += leak;
      s->path_s[GPURF_METRICS_PATH_ARBITER] += c->access_time_s;
      s->energy_j[GPURF_METRICS_PATH_ARBITER] += e0;
      continue;
    }
    /* Storage: banks carry their cell area; extra structures do not. The
     * read path waits for the slowest storage access. */
    if (c->area_cells_m2 > 0.0) {
      double cells = c->instances * c->area_cells_m2;
      s->area_m2[GPURF_METRICS_AREA_CELLS] += cells;
      s->area_m2[GPURF_METRICS_AREA_PERIPHERY] += area - cells;
      s->leak_w[GPURF_METRICS_LEAKAGE_BANKS] += leak;
    } else {
      s->area_m2[GPURF_METRICS_AREA_EXTRAS] += area;
      s->leak_w[GPURF_METRICS_LEAKAGE_EXTRAS] += leak;
    }
    if (c->access_time_s > s->path_s[GPURF_METRICS_PATH_BANK])
      s->path_s[GPURF_METRICS_PATH_BANK] = c->access_time_s;
    if (first_storage) s->energy_j[GPURF_METRICS_PATH_BANK] = e0;
    first_storage = 0;
  }
  gpurf_metrics_area_total(ctx, t, &s->area_total_m2);
  for (int p = 0; p < GPURF_METRICS_LEAKAGE_ROLES; p++) s->leak_total_w += s->leak_w[p];
  for (int p = 0; p < GPURF_METRICS_PATH_PARTS; p++) {
    s->path_total_s += s->path_s[p];
    s->energy_total_j += s->energy_j[p];
  }
  return gpurf_metrics_cycles(ctx, s->path_total_s, t->clock_hz, &s->path_cycles);
}

double gpurf_metrics_summary_area_m2(const gpurf_metrics_summary *s,
                                     gpurf_metrics_area_role role) {
  return s && (unsigned)role < GPURF_METRICS_AREA_ROLES ? s->area_m2[role] : NAN;
}

double gpurf_metrics_summary_area_total_m2(const gpurf_metrics_summary *s) {
  return s ? s->area_total_m2 : NAN;
}

double gpurf_metrics_summary_leakage_w(const gpurf_metrics_summary *s,
                                       gpurf_metrics_leakage_role role) {
  return s && (unsigned)role < GPURF_METRICS_LEAKAGE_ROLES ? s->leak_w[role] : NAN;
}

double gpurf_metrics_summary_leakage_total_w(const gpurf_metrics_summary *s) {
  return s ? s->leak_total_w : NAN;
}

double gpurf_metrics_summary_read_path_s(const gpurf_metrics_summary *s,
                                         gpurf_metrics_path_part part) {
  return s && (unsigned)part < GPURF_METRICS_PATH_PARTS ? s->path_s[part] : NAN;
}

double gpurf_metrics_summary_read_path_total_s(const gpurf_metrics_summary *s) {
  return s ? s->path_total_s : NAN;
}

long long gpurf_metrics_summary_read_path_cycles(const gpurf_metrics_summary *s) {
  return s ? s->path_cycles : -1;
}

double gpurf_metrics_summary_read_energy_j(const gpurf_metrics_summary *s,
                                           gpurf_metrics_path_part part) {
  return s && (unsigned)part < GPURF_METRICS_PATH_PARTS ? s->energy_j[part] : NAN;
}

double gpurf_metrics_summary_read_energy_total_j(const gpurf_metrics_summary *s) {
  return s ? s->energy_total_j : NAN;
}
