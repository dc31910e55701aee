/* gpurf sweep: the summary of one design point, reduced from its primitive
 * table, and the plot of a finished sweep. */
#ifndef GPURF_CLI_SWEEP_H
#define GPURF_CLI_SWEEP_H

#include "cli/cli.h"

/* Area roles (the breakdown of gpurf rf and the bank-stealing paper's
 * Fig. 3(a)), leakage roles, and the parts of the read path. */
enum { AR_CELLS, AR_PERIPHERY, AR_CROSSBAR, AR_ARBITER, AR_EXTRAS, AR_COUNT };
enum { LK_BANKS, LK_CROSSBAR, LK_ARBITER, LK_EXTRAS, LK_COUNT };
enum { RP_BANK, RP_CROSSBAR, RP_ARBITER, RP_COUNT };

extern const char *const sweep_area_names[AR_COUNT];  /* "cell_arrays" ... */
extern const char *const sweep_leak_names[LK_COUNT];  /* "banks" ... */
extern const char *const sweep_path_names[RP_COUNT];  /* "bank" ... */

typedef struct sweep_summary {
  double area_m2[AR_COUNT], area_total_m2;
  double leak_w[LK_COUNT], leak_total_w;
  /* The operand read path: arbitration, the slowest storage access, the
   * crossbar; energies are one event of each (a read of the first storage
   * component, one transfer, one arbitration decision). */
  double delay_s[RP_COUNT], delay_total_s;
  int delay_cycles;
  double energy_j[RP_COUNT], energy_total_j;
} sweep_summary;

void sweep_summarise(const gpurf_rf_table *t, sweep_summary *out);

/* One point of a plot: its x label and summary. */
typedef struct sweep_plot_point {
  const char *label;
  const sweep_summary *s;
} sweep_plot_point;

/* Writes a 2 x 2 figure (normalised area, delay, read energy and leakage,
 * each stacked by part, normalised to point `base`) to path (.png or .svg)
 * with gnuplot. The file appears only when gnuplot succeeded (written to a
 * temporary name beside it, then renamed). Prints one error line on failure
 * and returns CLI_FAIL. */
int sweep_plot(const char *path, const char *title, const sweep_plot_point *pts, int n, int base);

/* CLI_OK when gnuplot is on PATH, else prints why and returns CLI_FAIL. */
int sweep_plot_check(const char *path);

#endif
