/* Running independent items on worker threads, for the library's batch
 * runs (reproduce jobs, sweep points). Each worker has its own context
 * (on the run's data directory) and its own scratch buffer; each item
 * writes only its own result, so results never depend on the number of
 * threads. On failure no new item starts, and the error reported is that
 * of the first failing item in queue order, whatever thread met it. */
#ifndef GPURF_CORE_POOL_H
#define GPURF_CORE_POOL_H

#include <stddef.h>

#include "gpurf/context.h"

#define GPURF_POOL_MAX_THREADS 256

typedef struct gpurf_pool_spec {
  const size_t *queue; /* item indices, in the order they are handed out */
  size_t n;
  int threads;         /* <= 0: 1; at most GPURF_POOL_MAX_THREADS */
  /* 1: the calling thread works with the caller's context; 0: with a
   * context of its own, like the other workers. */
  int caller_ctx;
  const char *data_dir; /* of the workers' contexts; NULL: the caller's */
  size_t scratch_size; /* bytes of each worker's scratch (0: none) */
  int (*run)(gpurf_ctx *ctx, size_t item, void *scratch, void *arg);
  void *arg;
  /* Called serialised after each finished item: done and total. */
  void (*progress)(void *arg, size_t done, size_t total);
  void *progress_arg;
} gpurf_pool_spec;

/* GPURF_OK when every item ran. Otherwise the first failing item's status,
 * its index in *failed_item and its error record in *err (ctx is left
 * alone so the caller can say which item failed). */
int gpurf_pool_run(gpurf_ctx *ctx, const gpurf_pool_spec *spec, size_t *failed_item,
                   gpurf_error *err);

#endif
