/* Design sweeps: a register-file design evaluated at every combination of
 * values of some of its keys (the keys of gpurf_rf_design_set), each point
 * reduced to a gpurf_metrics_summary and the energy of every event of every
 * component.
 *
 * A sweep has steps that can be split across processes and machines, as a
 * reproduction's: describe it (gpurf_sweep_alloc, gpurf_sweep_add),
 * evaluate all of its points or a deterministic share of them
 * (gpurf_sweep_run), write the points evaluated (gpurf_sweep_write_results)
 * and join the files of the shares (gpurf_sweep_merge). Merged points carry
 * the same bits as points evaluated in one process, so whatever is printed
 * from them is byte-identical too. */
#ifndef GPURF_SWEEP_H
#define GPURF_SWEEP_H

#include <stddef.h>
#include <stdio.h>

#include "gpurf/context.h"
#include "gpurf/export.h"
#include "gpurf/metrics.h"
#include "gpurf/rf.h"

GPURF_BEGIN_DECLS

#define GPURF_SWEEP_MAX_AXES 8
#define GPURF_SWEEP_MAX_KEYS 8     /* keys moving together on one axis */
#define GPURF_SWEEP_MAX_VALUES 256 /* values of one axis */
#define GPURF_SWEEP_MAX_POINTS 1000
#define GPURF_SWEEP_VALUE_MAX 256  /* bytes of one value, terminator included */

typedef struct gpurf_sweep gpurf_sweep;

/* A sweep of the design `model` (a name under DATA_DIR/models/ or a path),
 * with no axis yet. The design is read by gpurf_sweep_prepare. */
GPURF_API int gpurf_sweep_alloc(gpurf_ctx *ctx, const char *model, gpurf_sweep **out);
GPURF_API void gpurf_sweep_free(gpurf_sweep *s);

/* Adds an axis from its setting: "KEY=V1,V2,..." or, for keys that must
 * move together, "K1+K2=A1:A2,B1:B2,..." (value tuples in lockstep). A
 * single key takes each value whole, so a node path may hold ':'. The
 * first axis varies slowest. Fails, leaving the sweep as it was, with
 * GPURF_EINVAL and the field "set" for a setting not of that form (the
 * message names the keys or quotes the setting), the field KEY for a key
 * already swept, and GPURF_ERANGE past a limit above. */
GPURF_API int gpurf_sweep_add(gpurf_ctx *ctx, gpurf_sweep *s, const char *setting);

GPURF_API const char *gpurf_sweep_model(const gpurf_sweep *s);
GPURF_API size_t gpurf_sweep_axis_count(const gpurf_sweep *s);
/* The setting an axis was added from, as given. */
GPURF_API const char *gpurf_sweep_setting(const gpurf_sweep *s, size_t axis);
GPURF_API size_t gpurf_sweep_key_count(const gpurf_sweep *s, size_t axis);
GPURF_API const char *gpurf_sweep_key(const gpurf_sweep *s, size_t axis, size_t key);
/* The product of the axes' value counts (1 before any axis). */
GPURF_API size_t gpurf_sweep_point_count(const gpurf_sweep *s);
/* The value of an axis's key at point i (0-based; the output numbers
 * points from 1). NULL out of range. */
GPURF_API const char *gpurf_sweep_value(const gpurf_sweep *s, size_t point, size_t axis,
                                        size_t key);
/* "KEY=V KEY=V ..." of point i into buf (cut to size); its length. */
GPURF_API size_t gpurf_sweep_point_label(const gpurf_sweep *s, size_t point, char *buf,
                                         size_t size);

/* Loads the design and tries every value of every axis on it, so that an
 * unknown key or a bad value fails (with the key as the error's field)
 * before any point is evaluated. Run and read_results call it when it has
 * not been called. */
GPURF_API int gpurf_sweep_prepare(gpurf_ctx *ctx, gpurf_sweep *s);
/* The design as loaded, before any value is set; NULL before prepare. */
GPURF_API const gpurf_rf_design *gpurf_sweep_design(const gpurf_sweep *s);

/* Called from the evaluating threads, serialised by the library, after each
 * point: points done and total of this run (of this shard). */
typedef void (*gpurf_sweep_progress_fn)(void *arg, size_t done, size_t total);

typedef struct gpurf_sweep_run_opts {
  int jobs;        /* threads; <= 0 means 1 */
  int shard_index; /* evaluate points i with i mod shard_count == shard_index */
  int shard_count; /* <= 1: every point */
  gpurf_sweep_progress_fn progress;
  void *progress_arg;
} gpurf_sweep_run_opts;

/* Evaluates the points of this shard that have no result yet (opts NULL:
 * every point on one thread). Results do not depend on the number of
 * threads. The error of the lowest failing point is reported, its message
 * naming the point. */
GPURF_API int gpurf_sweep_run(gpurf_ctx *ctx, gpurf_sweep *s, const gpurf_sweep_run_opts *opts);

/* A component of a point's primitive table as the sweep keeps it: its
 * events and their energies (per event of one instance). */
typedef struct gpurf_sweep_component {
  char name[GPURF_RF_NAME_MAX];
  int n_events;
  gpurf_rf_event events[GPURF_RF_MAX_EVENTS];
} gpurf_sweep_component;

/* The result of one point; done is 0 until it is evaluated or read. */
typedef struct gpurf_sweep_point {
  int done;
  double clock_hz;
  const gpurf_metrics_summary *summary;
  int n_components;
  gpurf_sweep_component components[GPURF_RF_MAX_COMPONENTS];
} gpurf_sweep_point;

/* NULL out of range. */
GPURF_API const gpurf_sweep_point *gpurf_sweep_point_get(const gpurf_sweep *s, size_t i);
GPURF_API size_t gpurf_sweep_points_done(const gpurf_sweep *s);

/* Results file: a first line naming the sweep (the model and every setting,
 * as given), then one line per evaluated point with every number in C's
 * hexadecimal floating-point form, so that nothing is rounded. */
GPURF_API int gpurf_sweep_write_results(gpurf_ctx *ctx, const gpurf_sweep *s, FILE *out);
/* Reads a results file of this sweep ("-": standard input) into it. A file
 * of another sweep, a point out of range or already read, and a malformed
 * line fail with the file and line. */
GPURF_API int gpurf_sweep_read_results(gpurf_ctx *ctx, gpurf_sweep *s, const char *path);
/* Describes the sweep the first file names, reads every file into it and
 * checks that each point has a result: a point in none of the files (a
 * shard missing) fails, naming the first such point. Each file is opened
 * once, so any of them may be "-" (standard input) or a pipe. */
GPURF_API int gpurf_sweep_merge(gpurf_ctx *ctx, const char *const *paths, size_t n,
                                gpurf_sweep **out);

GPURF_END_DECLS

#endif
