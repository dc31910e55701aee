/* The event energy engine: a simulator counts register-file events (bank
 * reads and writes, crossbar transfers, ...) and advances time; the engine
 * turns them into dynamic, leakage and wake-up energy with the costs of a
 * primitive table (rf.h). All SI.
 *
 * Use: allocate an engine from a table (it keeps its own copy), resolve the
 * event ids once by name, then call gpurf_energy_add() from the pipeline's
 * inner loop and gpurf_energy_advance() as cycles pass. An engine is not
 * shared between threads: give each thread its own and sum them with
 * gpurf_energy_merge(). */
#ifndef GPURF_EVENTS_H
#define GPURF_EVENTS_H

#include <stdint.h>

#include "gpurf/context.h"
#include "gpurf/export.h"
#include "gpurf/rf.h"

GPURF_BEGIN_DECLS

typedef struct gpurf_energy gpurf_energy;

/* Checks the table (a clock, at least one component, finite non-negative
 * costs, names that are unique and free of white space) and copies it.
 * Limits: GPURF_ENERGY_MAX_INSTANCES per component and
 * GPURF_ENERGY_MAX_SUBARRAYS per instance. */
#define GPURF_ENERGY_MAX_INSTANCES GPURF_RF_MAX_INSTANCES
#define GPURF_ENERGY_MAX_SUBARRAYS GPURF_RF_MAX_SUBARRAYS
#define GPURF_ENERGY_MAX_TOTAL_SUBARRAYS GPURF_RF_MAX_TOTAL_SUBARRAYS
GPURF_API int gpurf_energy_alloc(gpurf_ctx *ctx, const gpurf_rf_table *table,
                                 gpurf_energy **out);
GPURF_API void gpurf_energy_free(gpurf_energy *engine);

/* The engine's copy of its table. */
GPURF_API const gpurf_rf_table *gpurf_energy_table(const gpurf_energy *engine);

/* Id of event `event` of component `component`, for gpurf_energy_add.
 * GPURF_ENOTFOUND when the table has no such event. */
GPURF_API int gpurf_energy_event_id(const gpurf_energy *engine, const char *component,
                                    const char *event, int *id);
/* Index of a component, for gpurf_energy_gate. GPURF_ENOTFOUND if absent. */
GPURF_API int gpurf_energy_component_id(const gpurf_energy *engine, const char *component,
                                        int *index);

/* Counts `count` events `id` on instance `instance` (0-based) of the
 * event's component. O(1), never allocates. An id or instance out of range
 * is refused with GPURF_EINVAL and counts nothing (two compares: the check
 * costs nothing measurable, see `gpurf bench events`). */
GPURF_API int gpurf_energy_add(gpurf_energy *engine, int id, int instance, uint64_t count);

/* Lets `cycles` cycles of the table's clock pass. */
GPURF_API void gpurf_energy_advance(gpurf_energy *engine, uint64_t cycles);
/* Cycles elapsed since allocation or the last reset. */
GPURF_API uint64_t gpurf_energy_cycles(const gpurf_energy *engine);

/* Power gating of one sub-array of a component with subarrays > 0.
 * gated = 1 gates it from now on: it leaks gated_leakage_fraction of its
 * share (leakage_w / subarrays) of its instance's leakage. gated = 0 wakes
 * it: one wake-up, costing wake_energy_j and wake_latency_s. Gating a gated
 * sub-array, or waking an awake one, changes nothing. GPURF_EINVAL for a
 * component that cannot be gated or an index out of range. */
GPURF_API int gpurf_energy_gate(gpurf_energy *engine, int component, int instance,
                                int subarray, int gated);
/* Gating tallied by the caller instead: adds gated cycles and wake-ups to a
 * sub-array (a sub-array cannot be gated for longer than the cycles that
 * elapse; the report checks). */
GPURF_API int gpurf_energy_add_gated(gpurf_energy *engine, int component, int instance,
                                     int subarray, uint64_t gated_cycles, uint64_t wakeups);

/* Back to zero cycles, no events, every sub-array powered. */
GPURF_API void gpurf_energy_reset(gpurf_energy *engine);

/* Adds src's events, wake-ups and gated cycles (intervals still open are
 * counted up to src's present) to dst. Both engines cover the same span of
 * time, as per-thread engines of one simulation do: dst's elapsed cycles
 * become the larger of the two. The tables must match (same components,
 * instances and events, in the same order): GPURF_EINVAL otherwise. */
GPURF_API int gpurf_energy_merge(gpurf_ctx *ctx, gpurf_energy *dst, const gpurf_energy *src);

/* ---- Report ---- */

/* What the engine cannot know: instructions executed over the cycles
 * counted (0 = unknown: the per-instruction metrics are then 0). */
typedef struct gpurf_energy_report_in {
  uint64_t instructions;
} gpurf_energy_report_in;

/* The energy of what an engine counted. Opaque: allocate once with
 * gpurf_energy_report_alloc, fill (and refill) with gpurf_energy_report_get,
 * read with the accessors below. The library may add quantities without
 * breaking programs linked against an earlier version. */
typedef struct gpurf_energy_report gpurf_energy_report;

GPURF_API int gpurf_energy_report_alloc(gpurf_ctx *ctx, gpurf_energy_report **out);
GPURF_API void gpurf_energy_report_free(gpurf_energy_report *report);

/* Energy of everything counted so far. Sums run in table order, so the same
 * counts give the same bits. Fails (GPURF_ERANGE) when a sub-array was
 * tallied gated for more cycles than elapsed; the report then reads as empty
 * (no components, every quantity 0). in may be NULL. */
GPURF_API int gpurf_energy_report_get(gpurf_ctx *ctx, const gpurf_energy *engine,
                                      const gpurf_energy_report_in *in,
                                      gpurf_energy_report *out);

/* The whole table. */
GPURF_API const char *gpurf_energy_report_design(const gpurf_energy_report *r);
GPURF_API double gpurf_energy_report_clock_hz(const gpurf_energy_report *r);
GPURF_API uint64_t gpurf_energy_report_cycles(const gpurf_energy_report *r);
GPURF_API double gpurf_energy_report_seconds(const gpurf_energy_report *r);
/* Instructions as given to gpurf_energy_report_get; 0 = unknown. */
GPURF_API uint64_t gpurf_energy_report_instructions(const gpurf_energy_report *r);
/* Dynamic energy includes the wake-ups'. */
GPURF_API double gpurf_energy_report_dynamic_energy_j(const gpurf_energy_report *r);
GPURF_API double gpurf_energy_report_wake_energy_j(const gpurf_energy_report *r);
GPURF_API double gpurf_energy_report_leakage_energy_j(const gpurf_energy_report *r);
GPURF_API double gpurf_energy_report_total_energy_j(const gpurf_energy_report *r);
/* total / seconds, dynamic / seconds, leakage / seconds; 0 for zero cycles. */
GPURF_API double gpurf_energy_report_average_power_w(const gpurf_energy_report *r);
GPURF_API double gpurf_energy_report_dynamic_power_w(const gpurf_energy_report *r);
GPURF_API double gpurf_energy_report_leakage_power_w(const gpurf_energy_report *r);
/* Energy-delay product: total x seconds. */
GPURF_API double gpurf_energy_report_edp_j_s(const gpurf_energy_report *r);
/* Given instructions (else 0): instructions per cycle, energy per
 * instruction, and performance per watt ((instructions/s) / W). */
GPURF_API double gpurf_energy_report_ipc(const gpurf_energy_report *r);
GPURF_API double gpurf_energy_report_energy_per_instruction_j(const gpurf_energy_report *r);
GPURF_API double gpurf_energy_report_instructions_per_j(const gpurf_energy_report *r);

/* Component c (0 <= c < gpurf_energy_report_components), in table order.
 * An index out of range reads as "" or 0. */
GPURF_API int gpurf_energy_report_components(const gpurf_energy_report *r);
GPURF_API const char *gpurf_energy_report_component_name(const gpurf_energy_report *r, int c);
GPURF_API const char *gpurf_energy_report_component_kind(const gpurf_energy_report *r, int c);
GPURF_API int gpurf_energy_report_component_instances(const gpurf_energy_report *r, int c);
/* Sub-arrays per instance; 0: the component cannot be gated. */
GPURF_API int gpurf_energy_report_component_subarrays(const gpurf_energy_report *r, int c);
/* Summed over sub-arrays; wake-ups x wake_energy_j; wake-ups x wake_latency_s;
 * leakage saved by gating, against all sub-arrays powered. */
GPURF_API uint64_t gpurf_energy_report_component_gated_subarray_cycles(const gpurf_energy_report *r,
                                                                       int c);
GPURF_API uint64_t gpurf_energy_report_component_wakeups(const gpurf_energy_report *r, int c);
GPURF_API double gpurf_energy_report_component_wake_energy_j(const gpurf_energy_report *r, int c);
GPURF_API double gpurf_energy_report_component_wake_time_s(const gpurf_energy_report *r, int c);
GPURF_API double gpurf_energy_report_component_leakage_saved_j(const gpurf_energy_report *r,
                                                               int c);
/* Events + wake-ups; all instances with gating accounted for; their sum. */
GPURF_API double gpurf_energy_report_component_dynamic_energy_j(const gpurf_energy_report *r,
                                                                int c);
GPURF_API double gpurf_energy_report_component_leakage_energy_j(const gpurf_energy_report *r,
                                                                int c);
GPURF_API double gpurf_energy_report_component_total_energy_j(const gpurf_energy_report *r,
                                                              int c);

/* Event v of component c, in table order: its name, its count summed over
 * instances, and count x energy per event. */
GPURF_API int gpurf_energy_report_events(const gpurf_energy_report *r, int c);
GPURF_API const char *gpurf_energy_report_event_name(const gpurf_energy_report *r, int c, int v);
GPURF_API uint64_t gpurf_energy_report_event_count(const gpurf_energy_report *r, int c, int v);
GPURF_API double gpurf_energy_report_event_energy_j(const gpurf_energy_report *r, int c, int v);

/* ---- Counter files (docs/counters-format.md) ---- */

typedef enum gpurf_counts_format {
  GPURF_COUNTS_NATIVE = 0,   /* gpurf-counters TSV */
  GPURF_COUNTS_ACCELWATTCH   /* AccelWattch / GPUWattch power report */
} gpurf_counts_format;

#define GPURF_COUNTS_MAX_MAPPINGS 3
#define GPURF_COUNTS_MAX_TARGETS 3
#define GPURF_COUNTS_TARGET_MAX (2 * GPURF_RF_NAME_MAX)

/* What an AccelWattch counter became: its value (thread operands, summed
 * over the file's kernels), the warp accesses that makes, and the events
 * ("component.event") each warp access was counted as. */
typedef struct gpurf_counter_mapping {
  char counter[16];              /* "REG_RD", "REG_WR", "NON_REG_OPs" */
  double thread_operands;
  uint64_t warp_accesses;        /* thread_operands / 32, to the nearest */
  int n_targets;                 /* 0: the table has nothing to charge it to */
  char targets[GPURF_COUNTS_MAX_TARGETS][GPURF_COUNTS_TARGET_MAX];
} gpurf_counter_mapping;

typedef struct gpurf_counts_info {
  gpurf_counts_format format;
  int has_cycles;
  uint64_t cycles;
  int has_instructions;
  uint64_t instructions;
  int kernels;                   /* AccelWattch: kernel blocks in the file */
  int n_mappings;                /* AccelWattch only */
  gpurf_counter_mapping mappings[GPURF_COUNTS_MAX_MAPPINGS];
} gpurf_counts_info;

/* Reads a counters file (either format, told apart by the native header)
 * and adds its events and gating to the engine, then advances it by the
 * file's cycles when it gives them. On failure the engine is unchanged and
 * the error names FILE:LINE:COL. */
GPURF_API int gpurf_energy_load_counts(gpurf_ctx *ctx, gpurf_energy *engine, const char *path,
                                       gpurf_counts_info *info);

/* ---- Accel-Sim runs with AccelWattch (docs/counters-format.md) ---- */

/* What an Accel-Sim run says beside its counters: the power report
 * (accelwattch_power_report.log) and the simulator's standard output, whose
 * gpu_sim_cycle lines give each kernel's cycles. */
typedef struct gpurf_accelwattch_run gpurf_accelwattch_run;

#define GPURF_ACCELWATTCH_NO_SEARCH 1 /* never look for a simulator log */
#define GPURF_ACCELWATTCH_NAME_MAX 512

GPURF_API int gpurf_accelwattch_run_alloc(gpurf_ctx *ctx, gpurf_accelwattch_run **out);
GPURF_API void gpurf_accelwattch_run_free(gpurf_accelwattch_run *run);

/* path: a run directory (holding accelwattch_power_report.log, or one file
 * named *accelwattch_power_report.log) or a report. The report's kernel
 * blocks are read for their names and gpu_avg_RFP. Cycles come from the
 * report's own gpu_sim_cycle lines, else from sim_log, else (unless flags
 * has GPURF_ACCELWATTCH_NO_SEARCH) from the one file in the report's
 * directory with gpu_sim_cycle lines; finding none is not an error
 * (gpurf_accelwattch_run_has_cycles says 0), finding several is, unless one
 * of them is named as the report is (RUN.* beside
 * RUN.accelwattch_power_report.log). The log's
 * kernels must be the report's, in order and by name. */
GPURF_API int gpurf_accelwattch_run_read(gpurf_ctx *ctx, gpurf_accelwattch_run *run,
                                         const char *path, const char *sim_log, int flags);

GPURF_API const char *gpurf_accelwattch_run_report_path(const gpurf_accelwattch_run *run);
/* The simulator log read, "" when the cycles came from the report or
 * nowhere. */
GPURF_API const char *gpurf_accelwattch_run_sim_log_path(const gpurf_accelwattch_run *run);
GPURF_API int gpurf_accelwattch_run_kernels(const gpurf_accelwattch_run *run);
GPURF_API const char *gpurf_accelwattch_run_kernel_name(const gpurf_accelwattch_run *run, int k);
GPURF_API uint64_t gpurf_accelwattch_run_kernel_cycles(const gpurf_accelwattch_run *run, int k);
/* gpu_avg_RFP of kernel k in watts; a negative value when the block has
 * none. */
GPURF_API double gpurf_accelwattch_run_kernel_rf_power_w(const gpurf_accelwattch_run *run, int k);
/* Every kernel has its cycles: their sum. */
GPURF_API int gpurf_accelwattch_run_has_cycles(const gpurf_accelwattch_run *run);
GPURF_API uint64_t gpurf_accelwattch_run_cycles(const gpurf_accelwattch_run *run);
/* The log's last gpu_tot_sim_cycle, 0 when it has none. */
GPURF_API uint64_t gpurf_accelwattch_run_tot_sim_cycles(const gpurf_accelwattch_run *run);
/* The simulated core clock (first field of -gpgpu_clock_domains, MHz in
 * the log), 0 when the log does not give it. */
GPURF_API double gpurf_accelwattch_run_core_clock_hz(const gpurf_accelwattch_run *run);
/* AccelWattch's register-file power over the run: gpu_avg_RFP weighted by
 * each kernel's cycles; negative unless every kernel has both. */
GPURF_API double gpurf_accelwattch_run_rf_power_w(const gpurf_accelwattch_run *run);

GPURF_END_DECLS

#endif
