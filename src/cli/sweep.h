/* gpurf sweep: the plot of a finished sweep (each point summarised by
 * gpurf_metrics_summarise). */
#ifndef GPURF_CLI_SWEEP_H
#define GPURF_CLI_SWEEP_H

#include "cli/cli.h"

/* One point of a plot: its x label and summary. */
typedef struct sweep_plot_point {
  const char *label;
  const gpurf_metrics_summary *s;
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
