/* Private to the metrics module: the summary's fields (a sweep's results
 * file writes and reads them) and the sweep itself. */
#ifndef GPURF_METRICS_INTERNAL_H
#define GPURF_METRICS_INTERNAL_H

#include "gpurf/metrics.h"
#include "gpurf/sweep.h"

struct gpurf_metrics_summary {
  double area_m2[GPURF_METRICS_AREA_ROLES], area_total_m2;
  double leak_w[GPURF_METRICS_LEAKAGE_ROLES], leak_total_w;
  double path_s[GPURF_METRICS_PATH_PARTS], path_total_s;
  long long path_cycles;
  double energy_j[GPURF_METRICS_PATH_PARTS], energy_total_j;
};

/* One axis: its keys and, per value, one text per key. The texts point
 * into `text`, the setting split in place; `setting` keeps it as given. */
typedef struct sweep_axis {
  char *setting, *text;
  int nkeys, nvalues;
  const char *keys[GPURF_SWEEP_MAX_KEYS];
  const char *values[GPURF_SWEEP_MAX_VALUES][GPURF_SWEEP_MAX_KEYS];
} sweep_axis;

struct gpurf_sweep {
  char *model;
  int naxes;
  sweep_axis *axes[GPURF_SWEEP_MAX_AXES];
  size_t n_points;
  gpurf_rf_design *base; /* NULL until prepared */
  gpurf_sweep_point *points;
  gpurf_metrics_summary *sums; /* one per point, behind points[i].summary */
};

/* Fills point i's value index on every axis (the last axis varies fastest). */
void sweep_point_index(const gpurf_sweep *s, size_t i, int *index);

/* Point storage for n_points points, done = 0 (the axes are final). */
int sweep_points_alloc(gpurf_ctx *ctx, gpurf_sweep *s);

#endif
