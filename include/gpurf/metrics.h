/* Figures of merit derived from a primitive table and a run: area by role,
 * the operand read path, time in cycles (the one rounding rule every part of
 * gpurf uses), IPC, IPC per mm^2, instructions per joule, energy-delay
 * product, geometric mean and relative error.
 *
 * Functions that can fail return a status and fill the context's error
 * record; ctx may be NULL for the pure arithmetic ones (then the status alone
 * tells). Values are SI unless a name says otherwise. */
#ifndef GPURF_METRICS_H
#define GPURF_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "gpurf/bank.h"
#include "gpurf/context.h"
#include "gpurf/export.h"
#include "gpurf/rf.h"

GPURF_BEGIN_DECLS

/* ---- Time in cycles ---- */

/* The smallest whole number of cycles that covers time_s at clock_hz. A
 * product within 1e-9 cycle above a whole number counts as that number, so
 * a time that is exactly n cycles (1 ns at 1 GHz) is not pushed to n + 1 by
 * the rounding of time_s x clock_hz. 0 s is 0 cycles. GPURF_EINVAL when
 * time_s is negative or not finite or clock_hz is not above 0; GPURF_ERANGE
 * when the count does not fit. */
GPURF_API int gpurf_metrics_cycles(gpurf_ctx *ctx, double time_s, double clock_hz,
                                   long long *cycles);

/* ---- Area by role, leakage by role, the operand read path ---- */

/* Roles of the area (the breakdown of `gpurf rf` and of the bank-stealing
 * paper's Fig. 3(a)): storage cells, the rest of the banks, crossbar,
 * arbiter, and extra structures (components without cell area that are
 * neither crossbar nor arbiter: write pools, rename tables, RFC tags ...). */
typedef enum gpurf_metrics_area_role {
  GPURF_METRICS_AREA_CELLS = 0,
  GPURF_METRICS_AREA_PERIPHERY,
  GPURF_METRICS_AREA_CROSSBAR,
  GPURF_METRICS_AREA_ARBITER,
  GPURF_METRICS_AREA_EXTRAS,
  GPURF_METRICS_AREA_ROLES /* how many */
} gpurf_metrics_area_role;

typedef enum gpurf_metrics_leakage_role {
  GPURF_METRICS_LEAKAGE_BANKS = 0,
  GPURF_METRICS_LEAKAGE_CROSSBAR,
  GPURF_METRICS_LEAKAGE_ARBITER,
  GPURF_METRICS_LEAKAGE_EXTRAS,
  GPURF_METRICS_LEAKAGE_ROLES /* how many */
} gpurf_metrics_leakage_role;

/* Parts of the operand read path: the slowest storage access, the crossbar
 * transfer and the arbitration, which happen one after the other. */
typedef enum gpurf_metrics_path_part {
  GPURF_METRICS_PATH_BANK = 0,
  GPURF_METRICS_PATH_CROSSBAR,
  GPURF_METRICS_PATH_ARBITER,
  GPURF_METRICS_PATH_PARTS /* how many */
} gpurf_metrics_path_part;

/* Names as they appear in JSON and CSV keys ("cell_arrays", "bank_periphery",
 * "crossbar", "arbiter", "extras"; "banks", ...; "bank", ...); NULL when out
 * of range. */
GPURF_API const char *gpurf_metrics_area_role_name(gpurf_metrics_area_role role);
GPURF_API const char *gpurf_metrics_leakage_role_name(gpurf_metrics_leakage_role role);
GPURF_API const char *gpurf_metrics_path_part_name(gpurf_metrics_path_part part);

/* Total area of a table: instances x area of every component but the
 * operand collectors (GPURF_RF_COLLECTOR), which the papers' register-file
 * areas leave out and which are costed in energy only. */
GPURF_API int gpurf_metrics_area_total(gpurf_ctx *ctx, const gpurf_rf_table *t, double *area_m2);

/* Area of a plain SRAM register file, the yardstick overheads are given
 * against: `bytes` in `banks` single-port (1rw) banks of width_bits-bit
 * words of the shipped 6T cell, at a node, device flavour and temperature.
 * GPURF_EINVAL for a size that is not a whole number of words. */
GPURF_API int gpurf_metrics_sram_rf_area(gpurf_ctx *ctx, const gpurf_tech *tech,
                                         gpurf_device_kind device, double temp_k,
                                         long long bytes, int banks, int width_bits,
                                         double *area_m2);

/* The summary of one design point. Opaque so that roles can be added
 * without breaking programs built against an older library. */
typedef struct gpurf_metrics_summary gpurf_metrics_summary;

GPURF_API int gpurf_metrics_summary_alloc(gpurf_ctx *ctx, gpurf_metrics_summary **out);
GPURF_API void gpurf_metrics_summary_free(gpurf_metrics_summary *s);

/* Reduces a primitive table to area and leakage by role (all instances) and
 * the operand read path: arbiter, then the slowest storage access, then the
 * crossbar, in seconds and in cycles of the table's clock. Its energy is one
 * event of each part: a read of the first storage component (the main banks
 * in every shipped design), one transfer, one arbitration decision.
 * GPURF_EINVAL for a table whose clock is not above 0 or with a negative or
 * non-finite time (the field names the component). */
GPURF_API int gpurf_metrics_summarise(gpurf_ctx *ctx, const gpurf_rf_table *t,
                                      gpurf_metrics_summary *s);

/* Accessors of a summary; NaN (or -1 for cycles) when role or part is out of
 * range. Totals: area is gpurf_metrics_area_total's, the others the sums of
 * their parts. */
GPURF_API double gpurf_metrics_summary_area_m2(const gpurf_metrics_summary *s,
                                               gpurf_metrics_area_role role);
GPURF_API double gpurf_metrics_summary_area_total_m2(const gpurf_metrics_summary *s);
GPURF_API double gpurf_metrics_summary_leakage_w(const gpurf_metrics_summary *s,
                                                 gpurf_metrics_leakage_role role);
GPURF_API double gpurf_metrics_summary_leakage_total_w(const gpurf_metrics_summary *s);
GPURF_API double gpurf_metrics_summary_read_path_s(const gpurf_metrics_summary *s,
                                                   gpurf_metrics_path_part part);
GPURF_API double gpurf_metrics_summary_read_path_total_s(const gpurf_metrics_summary *s);
GPURF_API long long gpurf_metrics_summary_read_path_cycles(const gpurf_metrics_summary *s);
GPURF_API double gpurf_metrics_summary_read_energy_j(const gpurf_metrics_summary *s,
                                                     gpurf_metrics_path_part part);
GPURF_API double gpurf_metrics_summary_read_energy_total_j(const gpurf_metrics_summary *s);

/* ---- A run ---- */

/* Instructions per cycle; GPURF_EINVAL for zero cycles. */
GPURF_API int gpurf_metrics_ipc(gpurf_ctx *ctx, uint64_t instructions, uint64_t cycles,
                                double *ipc);
/* IPC per mm^2 of register file (the unit is the figure's own, as the
 * papers print it); GPURF_EINVAL unless area_m2 is above 0 and ipc is not
 * negative. */
GPURF_API int gpurf_metrics_ipc_per_mm2(gpurf_ctx *ctx, double ipc, double area_m2,
                                        double *ipc_per_mm2);
/* Instructions per joule (performance per watt); GPURF_EINVAL unless
 * energy_j is above 0. */
GPURF_API int gpurf_metrics_instructions_per_j(gpurf_ctx *ctx, uint64_t instructions,
                                               double energy_j, double *per_j);
/* Energy-delay product energy_j x time_s; GPURF_EINVAL for a negative or
 * non-finite factor. */
GPURF_API int gpurf_metrics_edp(gpurf_ctx *ctx, double energy_j, double time_s, double *edp_j_s);

/* ---- Across runs and against references ---- */

/* exp(mean(log v)) over n values, summed in order. A zero value makes the
 * mean 0; GPURF_EINVAL for n = 0 or a negative or non-finite value (the
 * field names its index). */
GPURF_API int gpurf_metrics_geomean(gpurf_ctx *ctx, const double *v, size_t n, double *mean);
/* (value - reference) / |reference|: positive when the value lies above the
 * reference, whatever the reference's sign. GPURF_EINVAL for a zero or
 * non-finite reference or a non-finite value. */
GPURF_API int gpurf_metrics_rel_error(gpurf_ctx *ctx, double value, double reference,
                                      double *rel_error);

GPURF_END_DECLS

#endif
