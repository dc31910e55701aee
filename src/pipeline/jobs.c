/* Many simulations at once: independent SMs on a pool of threads. Each job
 * has its own context, reader, pipeline and energy engine; the design's
 * table and the parameters are only read. Results land in their job's slot,
 * so what a caller prints does not depend on the number of threads or on
 * which finished first. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "gpurf/technique.h"
#include "pipeline/pipe_internal.h"

typedef struct pool {
  const gpurf_pipeline_params *prm;
  const gpurf_rf_table *table;
  gpurf_pipeline_job *jobs;
  int n;
  const char *data_dir;
  gpurf_pipeline_progress progress;
  void *progress_arg;
  pthread_mutex_t lock;
  int next, done;
  int first_failed; /* lowest index of a failed job; n while none */
  struct job_warnings *warnings; /* per job, when the caller's context takes warnings */
} pool;

/* A job's warnings are kept and handed to the caller's handler in job order
 * once all have run, so they too do not depend on the number of threads. */
#define JOB_MAX_WARNINGS 8
typedef struct job_warnings {
  int n, dropped;
  gpurf_error w[JOB_MAX_WARNINGS];
} job_warnings;

static void keep_warning(void *user, const gpurf_error *w) {
  job_warnings *jw = user;
  if (jw->n < JOB_MAX_WARNINGS) jw->w[jw->n++] = *w;
  else jw->dropped++;
}

/* A fresh technique object for one job, its options set. */
static int technique_new(gpurf_ctx *ctx, const gpurf_pipeline_job *j, gpurf_technique **out) {
  *out = NULL;
  if (!j->technique) return GPURF_OK;
  int rc = gpurf_technique_alloc(ctx, j->technique, out);
  for (int i = 0; i < j->n_technique_sets && rc == GPURF_OK; i++) {
    const char *kv = j->technique_sets[i], *eq = strchr(kv, '=');
    char key[64];
    if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof key) {
      rc = gpurf_fail(ctx, GPURF_EINVAL, "technique option '%s' is not KEY=VALUE", kv);
      break;
    }
    memcpy(key, kv, (size_t)(eq - kv));
    key[eq - kv] = '\0';
    rc = gpurf_technique_set(ctx, *out, key, eq + 1);
  }
  if (rc != GPURF_OK) {
    gpurf_technique_free(*out);
    *out = NULL;
  }
  return rc;
}

static int run_job(gpurf_ctx *ctx, const pool *pl, gpurf_pipeline_job *j) {
  gpurf_trace_reader *r = NULL;
  gpurf_pipeline *p = NULL;
  gpurf_technique *tech = NULL;
  int rc = technique_new(ctx, j, &tech);
  if (rc == GPURF_OK)
    rc = j->trace ? gpurf_trace_reader_alloc(ctx, j->trace, &r)
                  : gpurf_trace_gen_alloc(ctx, &j->gen, &r);
  if (rc == GPURF_OK)
    rc = gpurf_pipeline_alloc(ctx, pl->prm, pl->table, tech ? gpurf_technique_hooks(tech) : NULL,
                              &p);
  if (rc == GPURF_OK) rc = gpurf_pipeline_run(ctx, p, r, 0);
  if (rc == GPURF_OK) rc = gpurf_pipeline_stats_get(p, &j->stats);
  if (rc == GPURF_OK && pl->table) {
    gpurf_energy_report_in in = {j->stats.warp_instructions};
    rc = gpurf_energy_report_alloc(ctx, &j->report);
    if (rc == GPURF_OK) rc = gpurf_energy_report_get(ctx, gpurf_pipeline_energy(p), &in, j->report);
  }
  int nc = rc == GPURF_OK && tech ? gpurf_technique_counter_count(tech) : 0;
  for (j->n_counters = 0; j->n_counters < nc && j->n_counters < GPURF_PIPELINE_JOB_MAX_COUNTERS;
       j->n_counters++) {
    gpurf_strlcpy(j->counter_name[j->n_counters],
                  gpurf_technique_counter_name(tech, j->n_counters), sizeof j->counter_name[0]);
    j->counter[j->n_counters] = gpurf_technique_counter_value(tech, j->n_counters);
  }
  gpurf_pipeline_free(p);
  gpurf_technique_free(tech);
  gpurf_trace_reader_free(r);
  return rc;
}

/* Takes jobs in input order until none is left. A job after one that has
 * failed is not started: the caller only reports the first failure. */
static void *worker(void *arg) {
  pool *pl = arg;
  gpurf_ctx *ctx = gpurf_ctx_alloc();
  if (ctx && pl->data_dir) gpurf_ctx_set_data_dir(ctx, pl->data_dir);
  for (;;) {
    pthread_mutex_lock(&pl->lock);
    int i = pl->next < pl->first_failed ? pl->next++ : -1;
    pthread_mutex_unlock(&pl->lock);
    if (i < 0) break;
    gpurf_pipeline_job *j = &pl->jobs[i];
    memset(&j->error, 0, sizeof j->error);
    if (!ctx) {
      j->status = GPURF_ENOMEM;
      j->error.status = GPURF_ENOMEM;
      gpurf_strlcpy(j->error.message, "out of memory", sizeof j->error.message);
    } else {
      gpurf_ctx_clear_error(ctx);
      if (pl->warnings) gpurf_ctx_set_warning_handler(ctx, keep_warning, &pl->warnings[i]);
      j->status = run_job(ctx, pl, j);
      if (j->status != GPURF_OK) j->error = *gpurf_ctx_error(ctx);
    }
    pthread_mutex_lock(&pl->lock);
    if (j->status != GPURF_OK && i < pl->first_failed) pl->first_failed = i;
    pl->done++;
    if (pl->progress) pl->progress(pl->progress_arg, i, pl->done, pl->n);
    pthread_mutex_unlock(&pl->lock);
  }
  gpurf_ctx_free(ctx);
  return NULL;
}

int gpurf_pipeline_run_jobs(gpurf_ctx *ctx, const gpurf_pipeline_params *params,
                            const gpurf_rf_table *table, gpurf_pipeline_job *jobs, int n,
                            int threads, gpurf_pipeline_progress progress, void *progress_arg) {
  if (!ctx || !params || (!jobs && n > 0) || n < 0 || threads < 1) return GPURF_EINVAL;
  for (int i = 0; i < n; i++) {
    jobs[i].status = GPURF_EINVAL;
    jobs[i].report = NULL;
    jobs[i].n_counters = 0;
    if (!jobs[i].trace && !jobs[i].gen.workload)
      return gpurf_fail(ctx, GPURF_EINVAL, "job %d names neither a trace nor a workload", i);
  }
  int rc = gpurf_pipeline_params_check(ctx, params);
  if (rc != GPURF_OK) return rc;
  pool pl = {params, table, jobs, n, gpurf_ctx_data_dir(ctx), progress, progress_arg,
             PTHREAD_MUTEX_INITIALIZER, 0, 0, n, NULL};
  if (ctx->warn && n > 0 && !(pl.warnings = calloc((size_t)n, sizeof *pl.warnings)))
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  if (threads > n) threads = n > 0 ? n : 1;
  pthread_t *tid = threads > 1 ? calloc((size_t)threads - 1, sizeof *tid) : NULL;
  if (threads > 1 && !tid) {
    free(pl.warnings);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  }
  /* The calling thread is one of the workers; a thread that cannot be
   * started only leaves its share to the others. */
  int started = 0;
  for (int t = 0; t < threads - 1; t++)
    if (pthread_create(&tid[started], NULL, worker, &pl) == 0) started++;
  worker(&pl);
  for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
  free(tid);
  pthread_mutex_destroy(&pl.lock);
  for (int i = 0; pl.warnings && i < n && i <= pl.first_failed; i++) {
    for (int k = 0; k < pl.warnings[i].n; k++) ctx->warn(ctx->warn_user, &pl.warnings[i].w[k]);
    if (pl.warnings[i].dropped)
      gpurf_warn_at(ctx, jobs[i].trace, 0, 0, NULL, "%d more warnings not shown",
                    pl.warnings[i].dropped);
  }
  free(pl.warnings);
  if (pl.first_failed < n) {
    ctx->err = jobs[pl.first_failed].error;
    return jobs[pl.first_failed].status;
  }
  return GPURF_OK;
}
