/* Many simulations at once: independent SMs on the library's worker pool
 * (core/pool.h). Each job has its own reader, pipeline and energy engine,
 * and each worker its own context; the design's table and the parameters
 * are only read. Results land in their job's slot, so what a caller prints
 * does not depend on the number of threads or on which finished first. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "core/pool.h"
#include "gpurf/technique.h"
#include "pipeline/pipe_internal.h"

/* A job's status until a worker has run it. */
#define JOB_UNRUN (-1000)

typedef struct job_run {
  const gpurf_pipeline_params *prm;
  const gpurf_rf_table *table;
  gpurf_pipeline_job *jobs;
  int n;
  /* The caller's progress sees every ended job, failed ones too, with its
   * index (the pool's own progress counts successes only). */
  gpurf_pipeline_progress progress;
  void *progress_arg;
  pthread_mutex_t lock;
  int done;
  struct job_warnings *warnings; /* per job, when the caller's context takes warnings */
} job_run;

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

static int run_job(gpurf_ctx *ctx, const job_run *pl, gpurf_pipeline_job *j) {
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

/* One job on a worker's context (gpurf_pool_spec.run): its status and
 * error are kept in the job, its warnings apart until all have run. */
static int pool_job(gpurf_ctx *ctx, size_t item, void *scratch, void *arg) {
  (void)scratch;
  job_run *pl = arg;
  gpurf_pipeline_job *j = &pl->jobs[item];
  memset(&j->error, 0, sizeof j->error);
  gpurf_ctx_clear_error(ctx);
  gpurf_ctx_set_warning_handler(ctx, pl->warnings ? keep_warning : NULL,
                                pl->warnings ? &pl->warnings[item] : NULL);
  j->status = run_job(ctx, pl, j);
  if (j->status != GPURF_OK) j->error = *gpurf_ctx_error(ctx);
  if (pl->progress) {
    pthread_mutex_lock(&pl->lock);
    pl->progress(pl->progress_arg, (int)item, ++pl->done, pl->n);
    pthread_mutex_unlock(&pl->lock);
  }
  return j->status;
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
  job_run pl = {params, table, jobs, n, progress, progress_arg, PTHREAD_MUTEX_INITIALIZER, 0, NULL};
  size_t *queue = malloc((n > 0 ? (size_t)n : 1) * sizeof *queue);
  if (ctx->warn && n > 0 && !(pl.warnings = calloc((size_t)n, sizeof *pl.warnings))) {
    free(queue);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  }
  if (!queue) {
    free(pl.warnings);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  }
  for (int i = 0; i < n; i++) queue[i] = (size_t)i, jobs[i].status = JOB_UNRUN;
  /* More threads than the pool runs gain nothing: jobs are the unit. */
  if (threads > GPURF_POOL_MAX_THREADS) threads = GPURF_POOL_MAX_THREADS;
  /* Every worker, the calling thread's too, has a context of its own on the
   * caller's data directory. */
  gpurf_pool_spec spec = {queue, (size_t)n, threads, 0, NULL, 0, pool_job, &pl, NULL, NULL};
  size_t failed = (size_t)n;
  gpurf_error e;
  memset(&e, 0, sizeof e);
  rc = gpurf_pool_run(ctx, &spec, &failed, &e);
  free(queue);
  pthread_mutex_destroy(&pl.lock);
  for (int i = 0; i < n; i++) {
    if (jobs[i].status != JOB_UNRUN) continue;
    jobs[i].status = GPURF_EINVAL;
    if ((size_t)i == failed) { /* the pool could not run it (no context for the worker) */
      jobs[i].status = rc;
      jobs[i].error = e;
    }
  }
  for (int i = 0; pl.warnings && i < n && (size_t)i <= failed; i++) {
    for (int k = 0; k < pl.warnings[i].n; k++) ctx->warn(ctx->warn_user, &pl.warnings[i].w[k]);
    if (pl.warnings[i].dropped)
      gpurf_warn_at(ctx, jobs[i].trace, 0, 0, NULL, "%d more warnings not shown",
                    pl.warnings[i].dropped);
  }
  free(pl.warnings);
  if (rc == GPURF_OK) return GPURF_OK;
  if (failed >= (size_t)n) return rc; /* the pool refused to start */
  ctx->err = jobs[failed].error;
  return jobs[failed].status;
}
