/* Evaluating a sweep's points: each point sets its values on a copy of the
 * design, builds the primitive table and reduces it. Points run on worker
 * threads, each with its own context and buffers, and each writes only its
 * own result, so results do not depend on the number of threads. */
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "core/pool.h"
#include "metrics/metrics_internal.h"

/* A worker's buffers: a design and a table are too large for a stack. */
typedef struct scratch {
  gpurf_rf_design d;
  gpurf_rf_table t;
} scratch;

static int eval_point(gpurf_ctx *ctx, gpurf_sweep *s, size_t i, scratch *w) {
  int index[GPURF_SWEEP_MAX_AXES];
  sweep_point_index(s, i, index);
  w->d = *s->base;
  for (int a = 0; a < s->naxes; a++)
    for (int k = 0; k < s->axes[a]->nkeys; k++) {
      int rc = gpurf_rf_design_set(ctx, &w->d, s->axes[a]->keys[k],
                                   s->axes[a]->values[index[a]][k]);
      if (rc != GPURF_OK) return rc;
    }
  int rc = gpurf_rf_design_table(ctx, &w->d, &w->t);
  if (rc == GPURF_OK) rc = gpurf_metrics_summarise(ctx, &w->t, &s->sums[i]);
  if (rc != GPURF_OK) return rc;
  gpurf_sweep_point *p = &s->points[i];
  p->clock_hz = w->t.clock_hz;
  p->n_components = w->t.n_components;
  for (int c = 0; c < w->t.n_components; c++) {
    const gpurf_rf_component *tc = &w->t.components[c];
    gpurf_sweep_component *pc = &p->components[c];
    memcpy(pc->name, tc->name, sizeof pc->name);
    pc->n_events = tc->n_events;
    memcpy(pc->events, tc->events, (size_t)tc->n_events * sizeof tc->events[0]);
  }
  p->done = 1;
  return GPURF_OK;
}

static int run_point(gpurf_ctx *ctx, size_t item, void *buf, void *arg) {
  return eval_point(ctx, arg, item, buf);
}

int gpurf_sweep_run(gpurf_ctx *ctx, gpurf_sweep *s, const gpurf_sweep_run_opts *opts) {
  if (!s) return gpurf_fail(ctx, GPURF_EINVAL, "no sweep");
  int shards = opts && opts->shard_count > 1 ? opts->shard_count : 1;
  int shard = shards > 1 ? opts->shard_index : 0;
  if (shard < 0 || shard >= shards)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "shard", "shard %d is not in 0..%d", shard,
                         shards - 1);
  if (opts && opts->jobs > GPURF_POOL_MAX_THREADS)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "jobs", "%d threads is more than %d",
                         opts->jobs, GPURF_POOL_MAX_THREADS);
  int rc = gpurf_sweep_prepare(ctx, s);
  if (rc != GPURF_OK) return rc;
  size_t *queue = malloc((s->n_points ? s->n_points : 1) * sizeof *queue), n = 0;
  if (!queue) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  for (size_t i = 0; i < s->n_points; i++)
    if (i % (size_t)shards == (size_t)shard && !s->points[i].done) queue[n++] = i;
  /* The calling thread works with the caller's context. */
  gpurf_pool_spec spec = {queue, n, opts ? opts->jobs : 1, 1, NULL, sizeof(scratch), run_point, s,
                          opts ? opts->progress : NULL, opts ? opts->progress_arg : NULL};
  size_t i = 0;
  gpurf_error e;
  memset(&e, 0, sizeof e);
  rc = gpurf_pool_run(ctx, &spec, &i, &e);
  if (rc != GPURF_OK && e.status) {
    char label[512];
    gpurf_sweep_point_label(s, i, label, sizeof label);
    rc = gpurf_fail_at(ctx, rc, e.file[0] ? e.file : NULL, e.line, e.column,
                       e.field[0] ? e.field : NULL, "point %zu (%s): %s", i + 1, label, e.message);
  }
  free(queue);
  return rc;
}
