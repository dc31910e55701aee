/* Validation against published numbers: reading a reference set (a
 * tab-separated file of bank configurations and the numbers a paper or tool
 * gives for them, with its source and tolerances in '#' lines;
 * validation/README.md describes the format), evaluating the bank model on
 * every row and comparing: ours beside every reference number, and per
 * metric the median |relative error|, the worst row and whether the set's
 * tolerance holds.
 *
 * The library only computes; a program prints the records as it likes (the
 * gpurf command's `validate` is one such printer). Values are SI, except a
 * comparison as a report shows it (gpurf_validate_result_compared). */
#ifndef GPURF_VALIDATE_H
#define GPURF_VALIDATE_H

#include <stddef.h>

#include "gpurf/bank.h"
#include "gpurf/context.h"
#include "gpurf/export.h"

GPURF_BEGIN_DECLS

/* Quantities a reference can give. */
typedef enum gpurf_validate_metric {
  GPURF_VALIDATE_ACCESS_TIME = 0,
  GPURF_VALIDATE_CYCLE_TIME,
  GPURF_VALIDATE_WRITE_LATENCY,
  GPURF_VALIDATE_READ_ENERGY,
  GPURF_VALIDATE_WRITE_ENERGY,
  GPURF_VALIDATE_LEAKAGE, /* subthreshold + gate */
  GPURF_VALIDATE_LEAKAGE_SUB,
  GPURF_VALIDATE_LEAKAGE_GATE,
  GPURF_VALIDATE_AREA,
  GPURF_VALIDATE_METRICS /* how many */
} gpurf_validate_metric;

/* "read_energy" (the name in tolerance lines); "read_energy_pj" (the key a
 * report uses) and "pJ", its unit; scale turns the SI value into that unit
 * (1e12). NULL, or 0, when m is out of range. */
GPURF_API const char *gpurf_validate_metric_name(gpurf_validate_metric m);
GPURF_API const char *gpurf_validate_metric_key(gpurf_validate_metric m);
GPURF_API const char *gpurf_validate_metric_unit(gpurf_validate_metric m);
GPURF_API double gpurf_validate_metric_scale(gpurf_validate_metric m);

/* ---- A reference set ---- */

typedef struct gpurf_validate_set gpurf_validate_set;

/* Reads one set. Strict: an unknown column, a malformed number or
 * tolerance, or a row that does not describe a bank is refused with
 * GPURF_ESCHEMA and the error record naming file, line, column (0 when the
 * problem is not at one place in the line) and, as field, the set's column
 * name where one is concerned; GPURF_EIO when the file cannot be read. */
GPURF_API int gpurf_validate_set_load(gpurf_ctx *ctx, const char *path, gpurf_validate_set **out);
GPURF_API void gpurf_validate_set_free(gpurf_validate_set *set);

GPURF_API const char *gpurf_validate_set_name(const gpurf_validate_set *set); /* file, no .tsv */
GPURF_API const char *gpurf_validate_set_path(const gpurf_validate_set *set);
GPURF_API const char *gpurf_validate_set_source(const gpurf_validate_set *set);
/* 1 when some metric has a tolerance; otherwise the set says why not. */
GPURF_API int gpurf_validate_set_gated(const gpurf_validate_set *set);
GPURF_API const char *gpurf_validate_set_not_gated_why(const gpurf_validate_set *set);
/* 1 when the reference gives the leakage of one bank plus the wiring
 * between banks (CACTI's convention) rather than of all banks. */
GPURF_API int gpurf_validate_set_leakage_per_bank(const gpurf_validate_set *set);
/* The tolerance of metric m: 1 and the bounds when the set gates it, 0 when
 * not (bounds 0), GPURF_EINVAL for m out of range. median_abs_error bounds
 * the median |relative error|, max_ratio the largest max(ours/ref, ref/ours);
 * either is 0 when not checked. */
GPURF_API int gpurf_validate_set_tolerance(const gpurf_validate_set *set, gpurf_validate_metric m,
                                           double *median_abs_error, double *max_ratio);

GPURF_API size_t gpurf_validate_set_rows(const gpurf_validate_set *set);
/* Rows are numbered 0 .. rows-1; out of range gives NULL, 0 or NaN. */
GPURF_API const char *gpurf_validate_row_config(const gpurf_validate_set *set, size_t row);
GPURF_API int gpurf_validate_row_line(const gpurf_validate_set *set, size_t row);
GPURF_API const char *gpurf_validate_row_node(const gpurf_validate_set *set, size_t row);
/* "sram" (the shipped SRAM cell for the row's ports), a cell name or a path. */
GPURF_API const char *gpurf_validate_row_cell(const gpurf_validate_set *set, size_t row);
/* The row's bank, all but tech and cell (left NULL). */
GPURF_API int gpurf_validate_row_spec(const gpurf_validate_set *set, size_t row,
                                      gpurf_bank_spec *spec);
/* 1 when the reference gives metric m for the row, and its value in *ref. */
GPURF_API int gpurf_validate_row_reference(const gpurf_validate_set *set, size_t row,
                                           gpurf_validate_metric m, double *ref);

/* ---- Comparing ---- */

typedef struct gpurf_validate_result gpurf_validate_result;

/* Evaluates the bank model on every row of the set and compares. A row the
 * model cannot evaluate fails the call with the error record naming the
 * set's file, the row's line and config. The result refers to the set,
 * which must outlive it. */
GPURF_API int gpurf_validate_compare(gpurf_ctx *ctx, const gpurf_validate_set *set,
                                     gpurf_validate_result **out);
GPURF_API void gpurf_validate_result_free(gpurf_validate_result *r);

/* Our value of metric m for a row, with the set's conventions applied (SI). */
GPURF_API double gpurf_validate_result_ours(const gpurf_validate_result *r, size_t row,
                                            gpurf_validate_metric m);
/* One comparison as a report shows it: 1 when the row's reference gives
 * metric m, with ours and the reference in the metric's unit
 * (gpurf_validate_metric_unit, the unit reference tables are written in, so
 * the reference keeps its own digits) and (ours - ref) / ref; 0 otherwise.
 * The statistics below are computed from these values. Any out-pointer may
 * be NULL. */
GPURF_API int gpurf_validate_result_compared(const gpurf_validate_result *r, size_t row,
                                             gpurf_validate_metric m, double *ours, double *ref,
                                             double *rel_error);
/* What the row was evaluated as: node name, cell name, ports ("1rw"). */
GPURF_API const char *gpurf_validate_result_tech(const gpurf_validate_result *r, size_t row);
GPURF_API const char *gpurf_validate_result_cell(const gpurf_validate_result *r, size_t row);
GPURF_API const char *gpurf_validate_result_ports(const gpurf_validate_result *r, size_t row);

/* Per metric: rows whose reference gives it (0: the metric is absent and the
 * rest is meaningless), the median |(ours - ref) / ref|, the row furthest
 * off by max(ours/ref, ref/ours) and ours/ref there, and whether the set's
 * tolerance holds (1 for a metric without one). */
GPURF_API int gpurf_validate_result_rows(const gpurf_validate_result *r, gpurf_validate_metric m);
GPURF_API double gpurf_validate_result_median_abs_error(const gpurf_validate_result *r,
                                                        gpurf_validate_metric m);
GPURF_API size_t gpurf_validate_result_worst_row(const gpurf_validate_result *r,
                                                 gpurf_validate_metric m);
GPURF_API double gpurf_validate_result_worst_ratio(const gpurf_validate_result *r,
                                                   gpurf_validate_metric m);
GPURF_API int gpurf_validate_result_pass(const gpurf_validate_result *r, gpurf_validate_metric m);

/* ---- The reference band beside each row (gpurf/bank.h) ---- */

/* The band of the row's bank for metric m (gpurf_bank_band_eval: CACTI
 * class = ours, NVSim class, and for SRAM the memory-compiler class), in the
 * metric's unit and with the set's conventions applied as to ours: 1 with
 * [low, high] when the band covers m for the row; 0 when not (flip-flop and
 * latch arrays, which no reference class models; the two leakage parts,
 * which the classes give only summed). Either out-pointer may be NULL. */
GPURF_API int gpurf_validate_result_band(const gpurf_validate_result *r, size_t row,
                                         gpurf_validate_metric m, double *low, double *high);
/* 1 when the row's reference for m lies inside its band, 0 when outside,
 * -1 when the row has no reference or no band for m. */
GPURF_API int gpurf_validate_result_in_band(const gpurf_validate_result *r, size_t row,
                                            gpurf_validate_metric m);
/* Rows whose reference gives m and that have a band for it; *inside (may be
 * NULL) counts those whose reference lies inside the band. */
GPURF_API int gpurf_validate_result_band_rows(const gpurf_validate_result *r,
                                              gpurf_validate_metric m, int *inside);
/* Every gated metric holds (1 for a set without tolerances). */
GPURF_API int gpurf_validate_result_set_pass(const gpurf_validate_result *r);

GPURF_END_DECLS

#endif
