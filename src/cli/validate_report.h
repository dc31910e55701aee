/* Results of `gpurf validate`: our number beside every reference number,
 * with per-set, per-metric statistics, and the ways to print them. */
#ifndef GPURF_CLI_VALIDATE_REPORT_H
#define GPURF_CLI_VALIDATE_REPORT_H

#include "cli/cli.h"
#include "cli/validate_tsv.h"

typedef struct vr_row {
  char tech[GPURF_TECH_NAME_MAX];
  char cell[GPURF_TECH_NAME_MAX];
  char ports[32];
  double ours[VT_METRIC_COUNT]; /* in vt_metric_unit(), conventions applied */
} vr_row;

typedef struct vr_stat {
  int rows;             /* rows whose reference gives this metric */
  double median_abs;    /* median |ours - ref| / ref */
  size_t worst;         /* row furthest off, by max(ours/ref, ref/ours) */
  double worst_ratio;   /* ours / ref of that row */
  int pass;             /* tolerance holds (gated metrics only) */
} vr_stat;

typedef struct vr_set {
  vt_set set;
  char shown_path[VT_TEXT_MAX]; /* relative to the data directory when inside it */
  vr_row *rows;
  vr_stat stat[VT_METRIC_COUNT];
  int pass; /* every gated metric holds; 1 for sets without tolerances */
} vr_set;

/* The factor a ratio is off by, in either direction (inf when not positive). */
double vr_off_factor(double ratio);

void vr_print_text(sbuf *out, const vr_set *sets, size_t n, int all_pass);
void vr_print_json(sbuf *out, const vr_set *sets, size_t n, int all_pass);
void vr_print_csv(sbuf *out, const vr_set *sets, size_t n);

#endif
