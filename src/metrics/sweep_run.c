/* Evaluating a sweep's points: each point sets its values on a copy of the
 * design, builds the primitive table and reduces it. Points run on worker
 * threads, each with its own context and buffers, and each writes only its
 * own result, so results do not depend on the number of threads. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
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

typedef struct pool {
  gpurf_sweep *s;
  const gpurf_sweep_run_opts *opts;
  const char *data_dir;
  size_t *queue; /* point indices of this run, in order */
  size_t n_queue;
  pthread_mutex_t lock;
  size_t next, finished;
  int failed;      /* stop taking points */
  size_t fail_pos; /* lowest failing position, for a deterministic error */
  gpurf_error fail_err;
} pool;

/* Takes points until none is left; ctx is the caller's on the calling
 * thread (its warnings reach the caller's handler), else NULL: a context of
 * its own on the run's data directory. */
static void work(pool *pl, gpurf_ctx *ctx) {
  gpurf_ctx *own = NULL;
  if (!ctx) {
    own = gpurf_ctx_alloc();
    if (own && gpurf_ctx_set_data_dir(own, pl->data_dir) != GPURF_OK) {
      gpurf_ctx_free(own);
      own = NULL;
    }
    ctx = own;
  }
  scratch *w = ctx ? malloc(sizeof *w) : NULL;
  for (;;) {
    pthread_mutex_lock(&pl->lock);
    size_t pos = pl->next < pl->n_queue && !pl->failed ? pl->next++ : pl->n_queue;
    pthread_mutex_unlock(&pl->lock);
    if (pos >= pl->n_queue) break;
    int rc = w ? eval_point(ctx, pl->s, pl->queue[pos], w) : GPURF_ENOMEM;
    pthread_mutex_lock(&pl->lock);
    if (rc != GPURF_OK) {
      if (!pl->failed || pos < pl->fail_pos) {
        pl->fail_pos = pos;
        if (w) {
          pl->fail_err = *gpurf_ctx_error(ctx);
        } else {
          memset(&pl->fail_err, 0, sizeof pl->fail_err);
          pl->fail_err.status = GPURF_ENOMEM;
          snprintf(pl->fail_err.message, sizeof pl->fail_err.message, "out of memory");
        }
      }
      pl->failed = 1;
    } else {
      pl->finished++;
      if (pl->opts && pl->opts->progress)
        pl->opts->progress(pl->opts->progress_arg, pl->finished, pl->n_queue);
    }
    pthread_mutex_unlock(&pl->lock);
  }
  free(w);
  gpurf_ctx_free(own);
}

static void *worker(void *arg) {
  work(arg, NULL);
  return NULL;
}

#define MAX_THREADS 256

int gpurf_sweep_run(gpurf_ctx *ctx, gpurf_sweep *s, const gpurf_sweep_run_opts *opts) {
  if (!s) return gpurf_fail(ctx, GPURF_EINVAL, "no sweep");
  int threads = opts && opts->jobs > 0 ? opts->jobs : 1;
  int shards = opts && opts->shard_count > 1 ? opts->shard_count : 1;
  int shard = shards > 1 ? opts->shard_index : 0;
  if (shard < 0 || shard >= shards)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "shard", "shard %d is not in 0..%d", shard,
                         shards - 1);
  if (threads > MAX_THREADS)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "jobs", "%d threads is more than %d",
                         threads, MAX_THREADS);
  int rc = gpurf_sweep_prepare(ctx, s);
  if (rc != GPURF_OK) return rc;
  pool pl;
  memset(&pl, 0, sizeof pl);
  pl.s = s;
  pl.opts = opts;
  pl.data_dir = gpurf_ctx_data_dir(ctx);
  pl.queue = malloc(s->n_points * sizeof *pl.queue);
  if (!pl.queue) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  for (size_t i = 0; i < s->n_points; i++)
    if (i % (size_t)shards == (size_t)shard && !s->points[i].done) pl.queue[pl.n_queue++] = i;
  if ((size_t)threads > pl.n_queue) threads = pl.n_queue ? (int)pl.n_queue : 1;
  pthread_mutex_init(&pl.lock, NULL);
  pthread_t tid[MAX_THREADS];
  int started = 0;
  for (int i = 1; i < threads; i++) {
    if (pthread_create(&tid[started], NULL, worker, &pl) != 0) break;
    started++;
  }
  work(&pl, ctx); /* the calling thread works too */
  for (int i = 0; i < started; i++) pthread_join(tid[i], NULL);
  pthread_mutex_destroy(&pl.lock);
  if (pl.failed) {
    const gpurf_error *e = &pl.fail_err;
    size_t i = pl.queue[pl.fail_pos];
    char label[512];
    gpurf_sweep_point_label(s, i, label, sizeof label);
    rc = gpurf_fail_at(ctx, e->status ? e->status : GPURF_EINVAL, e->file[0] ? e->file : NULL,
                       e->line, e->column, e->field[0] ? e->field : NULL, "point %zu (%s): %s",
                       i + 1, label, e->message);
  }
  free(pl.queue);
  return rc;
}
