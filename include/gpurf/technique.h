/* Register-file techniques by name: each is a set of pipeline hooks
 * (pipeline.h) with its own state, options and counters, so a simulator, the
 * gpurf command and the reproductions select one the same way:
 *
 *   gpurf_technique *t;
 *   gpurf_technique_alloc(ctx, "stealing", &t);
 *   gpurf_technique_set(ctx, t, "mode", "read");
 *   gpurf_pipeline_alloc(ctx, &params, table, gpurf_technique_hooks(t), &p);
 *   ... run ...
 *   gpurf_technique_counters(t, ...);   (after the run)
 *   gpurf_pipeline_free(p); gpurf_technique_free(t);
 *
 * A technique object serves one pipeline at a time. */
#ifndef GPURF_TECHNIQUE_H
#define GPURF_TECHNIQUE_H

#include <stddef.h>

#include "gpurf/context.h"
#include "gpurf/export.h"
#include "gpurf/pipeline.h"

GPURF_BEGIN_DECLS

typedef struct gpurf_technique gpurf_technique;

/* The techniques built in: i in 0..count-1 (NULL past the end), and a
 * one-line summary each. */
GPURF_API int gpurf_technique_count(void);
GPURF_API const char *gpurf_technique_name_at(int i);
GPURF_API const char *gpurf_technique_summary(const char *name);

/* GPURF_ENOTFOUND (message names the known ones) for an unknown name. */
GPURF_API int gpurf_technique_alloc(gpurf_ctx *ctx, const char *name, gpurf_technique **out);
GPURF_API void gpurf_technique_free(gpurf_technique *t);
GPURF_API const char *gpurf_technique_name(const gpurf_technique *t);

/* Sets an option before the pipeline is built ("entries", "mode", ...):
 * GPURF_ENOTFOUND for a key the technique lacks, GPURF_EINVAL for a bad
 * value, with the key in the error's field. */
GPURF_API int gpurf_technique_set(gpurf_ctx *ctx, gpurf_technique *t, const char *key,
                                  const char *value);

/* The hooks to pass to gpurf_pipeline_alloc; valid while t lives. */
GPURF_API const gpurf_pipeline_hooks *gpurf_technique_hooks(gpurf_technique *t);

/* What the technique counted in the pipeline it served (stolen writes,
 * cache hits, ...), as named values. Names carry their unit where they
 * have one. counter_count takes a fresh reading; the names and values
 * then stay until the next call. Index 0..count-1; NULL name past the end. */
GPURF_API int gpurf_technique_counter_count(gpurf_technique *t);
GPURF_API const char *gpurf_technique_counter_name(const gpurf_technique *t, int i);
GPURF_API double gpurf_technique_counter_value(const gpurf_technique *t, int i);

GPURF_END_DECLS

#endif
