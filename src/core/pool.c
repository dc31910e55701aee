/* Worker threads over a queue of items (core/pool.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "core/pool.h"

typedef struct pool {
  const gpurf_pool_spec *spec;
  const char *data_dir;
  pthread_mutex_t lock;
  size_t next, finished;
  int failed;      /* stop handing out items */
  size_t fail_pos; /* lowest failing position in the queue */
  gpurf_error fail_err;
} pool;

static void record_failure(pool *pl, size_t pos, const gpurf_ctx *ctx, int rc) {
  if (pl->failed && pos >= pl->fail_pos) return;
  pl->fail_pos = pos;
  if (ctx) {
    pl->fail_err = *gpurf_ctx_error(ctx);
    if (!pl->fail_err.status) pl->fail_err.status = rc;
  } else {
    memset(&pl->fail_err, 0, sizeof pl->fail_err);
    pl->fail_err.status = GPURF_ENOMEM;
    snprintf(pl->fail_err.message, sizeof pl->fail_err.message, "out of memory");
  }
  pl->failed = 1;
}

/* Takes items until none is left; ctx NULL: the worker makes its own. */
static void work(pool *pl, gpurf_ctx *ctx) {
  const gpurf_pool_spec *s = pl->spec;
  gpurf_ctx *own = NULL;
  if (!ctx) {
    own = gpurf_ctx_alloc();
    if (own && gpurf_ctx_set_data_dir(own, pl->data_dir) != GPURF_OK) {
      gpurf_ctx_free(own);
      own = NULL;
    }
    ctx = own;
  }
  void *scratch = ctx && s->scratch_size ? malloc(s->scratch_size) : NULL;
  int ready = ctx && (scratch || !s->scratch_size);
  for (;;) {
    pthread_mutex_lock(&pl->lock);
    size_t pos = pl->next < s->n && !pl->failed ? pl->next++ : s->n;
    pthread_mutex_unlock(&pl->lock);
    if (pos >= s->n) break;
    int rc = ready ? s->run(ctx, s->queue[pos], scratch, s->arg) : GPURF_ENOMEM;
    pthread_mutex_lock(&pl->lock);
    if (rc != GPURF_OK) {
      record_failure(pl, pos, ready ? ctx : NULL, rc);
    } else {
      pl->finished++;
      if (s->progress) s->progress(s->progress_arg, pl->finished, s->n);
    }
    pthread_mutex_unlock(&pl->lock);
  }
  free(scratch);
  gpurf_ctx_free(own);
}

static void *worker(void *arg) {
  work(arg, NULL);
  return NULL;
}

int gpurf_pool_run(gpurf_ctx *ctx, const gpurf_pool_spec *spec, size_t *failed_item,
                   gpurf_error *err) {
  int threads = spec->threads > 0 ? spec->threads : 1;
  if (threads > GPURF_POOL_MAX_THREADS)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "jobs", "%d threads is more than %d",
                         threads, GPURF_POOL_MAX_THREADS);
  if ((size_t)threads > spec->n) threads = spec->n ? (int)spec->n : 1;
  pool pl;
  memset(&pl, 0, sizeof pl);
  pl.spec = spec;
  pl.data_dir = spec->data_dir ? spec->data_dir : gpurf_ctx_data_dir(ctx);
  pthread_mutex_init(&pl.lock, NULL);
  pthread_t tid[GPURF_POOL_MAX_THREADS];
  int started = 0;
  for (int i = 1; i < threads; i++) {
    if (pthread_create(&tid[started], NULL, worker, &pl) != 0) break;
    started++;
  }
  work(&pl, spec->caller_ctx ? ctx : NULL); /* the calling thread works too */
  for (int i = 0; i < started; i++) pthread_join(tid[i], NULL);
  pthread_mutex_destroy(&pl.lock);
  if (!pl.failed) return GPURF_OK;
  *failed_item = spec->queue[pl.fail_pos];
  *err = pl.fail_err;
  return pl.fail_err.status ? pl.fail_err.status : GPURF_EINVAL;
}
