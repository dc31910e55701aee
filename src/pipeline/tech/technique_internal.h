/* What a technique file provides to the registry (src/pipeline/technique.c).
 * A technique keeps all its state in the object create() returns; its
 * hooks receive it as their `state`. */
#ifndef GPURF_TECHNIQUE_INTERNAL_H
#define GPURF_TECHNIQUE_INTERNAL_H

#include "gpurf/technique.h"

#define GPURF_TECHNIQUE_MAX_COUNTERS 32
#define GPURF_TECHNIQUE_COUNTER_NAME_MAX 40

typedef struct gpurf_technique_counters {
  int n;
  char name[GPURF_TECHNIQUE_MAX_COUNTERS][GPURF_TECHNIQUE_COUNTER_NAME_MAX];
  double value[GPURF_TECHNIQUE_MAX_COUNTERS];
} gpurf_technique_counters;

typedef struct gpurf_technique_def {
  const char *name;
  const char *summary;
  int (*create)(gpurf_ctx *ctx, void **state);
  /* key/value options; NULL when the technique has none. */
  int (*set)(gpurf_ctx *ctx, void *state, const char *key, const char *value);
  /* Fills the hooks (state already set by the registry). */
  void (*hooks)(void *state, gpurf_pipeline_hooks *out);
  /* Appends its counters with gpurf_technique_counter_add; NULL: none. */
  void (*counters)(const void *state, gpurf_technique_counters *out);
  void (*destroy)(void *state);
} gpurf_technique_def;

/* Adds one counter (silently ignored past GPURF_TECHNIQUE_MAX_COUNTERS:
 * a technique's own list is fixed and tested). */
void gpurf_technique_counter_add(gpurf_technique_counters *c, const char *name, double value);

#endif
