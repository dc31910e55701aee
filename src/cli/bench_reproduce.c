/* gpurf bench reproduce: wall time of a whole reproduction (plan, every
 * job, claims), the figure behind the goal of `reproduce all` in under a
 * minute on two cores. */
#include <stdio.h>
#include <time.h>

#include "cli/cli.h"
#include "gpurf/reproduce.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int cmd_bench_reproduce(gpurf_ctx *ctx, const cli_parsed *p) {
  const char *papers = p->pos[0] ? p->pos[0] : "all", *workloads = cli_get(p, "--workloads");
  long long jobs = 2;
  out_format fmt = p->fmt;
  if (cli_count_opt(p, "--jobs", 256, &jobs)) return CLI_USAGE;
  gpurf_reproduce *r = NULL;
  double t0 = now_s();
  int rc = gpurf_reproduce_alloc(ctx, papers, workloads, &r);
  gpurf_reproduce_run_opts o = {(int)jobs, 0, 1, NULL, NULL};
  if (rc == GPURF_OK) rc = gpurf_reproduce_run(ctx, r, &o);
  if (rc == GPURF_OK) rc = gpurf_reproduce_claims(ctx, r);
  double secs = now_s() - t0;
  size_t n_jobs = r ? gpurf_reproduce_job_count(r) : 0;
  gpurf_reproduce_free(r);
  if (rc != GPURF_OK) {
    cli_print_error(ctx);
    return CLI_FAIL;
  }
  if (fmt == FMT_JSON)
    printf("{\"papers\": \"%s\", \"threads\": %lld, \"jobs\": %zu, \"seconds\": %.3f, "
           "\"jobs_per_s\": %.3f}\n",
           papers, jobs, n_jobs, secs, (double)n_jobs / secs);
  else
    printf("reproduce %s: %zu jobs on %lld threads in %.2f s (%.1f jobs/s)\n", papers, n_jobs,
           jobs, secs, (double)n_jobs / secs);
  return CLI_OK;
}
