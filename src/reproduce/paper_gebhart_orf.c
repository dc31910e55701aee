/* Gebhart et al.: accesses of the software-managed ORF on a workload. As
 * the paper counts them with a functional simulator (Sec. 6.2), each
 * kernel's dataflow is rebuilt from the trace, the allocation pass
 * annotates every access, and the executions of each instruction weight
 * the annotation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "gpurf/dataflow.h"
#include "gpurf/trace.h"
#include "reproduce/paper_gebhart.h"

/* The MRF-only accesses of a kernel: every register read and written. */
static void mrf_only(const gpurf_dataflow *df, gebhart_counts *c) {
  for (size_t i = 0; i < gpurf_dataflow_inst_count(df); i++) {
    const gpurf_dataflow_inst *d = gpurf_dataflow_inst_at(df, i);
    double n = (double)d->executions;
    for (unsigned s = 0; s < d->n_src; s++)
      if (d->src[s].reg < GPURF_TRACE_NUM_REGS) c->reads[GPURF_RFHIER_MRF] += n * d->src[s].width;
    for (unsigned s = 0; s < d->n_dst; s++)
      if (d->dst[s].reg < GPURF_TRACE_NUM_REGS) c->writes[GPURF_RFHIER_MRF] += n * d->dst[s].width;
  }
}

/* One kernel: its dataflow analysed, each variant's pass counted. */
static int kernel_done(gpurf_ctx *ctx, gpurf_dataflow *df, const gpurf_orf_params *v, int nv,
                       gebhart_orf_result *out) {
  int rc = gpurf_dataflow_analyze(ctx, df);
  if (rc != GPURF_OK) return rc;
  mrf_only(df, &out->mrf_only);
  out->static_insts += (double)gpurf_dataflow_inst_count(df);
  out->strands += (double)gpurf_dataflow_strand_count(df);
  for (int k = 0; k < nv && rc == GPURF_OK; k++) {
    gpurf_orf *a = NULL;
    rc = gpurf_orf_alloc(ctx, df, &v[k], &a);
    if (rc != GPURF_OK) break;
    double r[GPURF_ORF_LEVELS], w[GPURF_ORF_LEVELS];
    gpurf_orf_counts(a, r, w);
    for (int l = 0; l < GPURF_ORF_LEVELS; l++)
      out->c[k].reads[l] += r[l], out->c[k].writes[l] += w[l];
    gpurf_orf_free(a);
  }
  return rc;
}

int gebhart_orf_counts(repro_env *env, int workload, const gpurf_orf_params *v, int nv,
                       gebhart_orf_result *out) {
  gpurf_ctx *ctx = env->ctx;
  const repro_workload *w = &env->r->workloads[workload];
  memset(out, 0, sizeof *out);
  if (nv > GEBHART_ORF_MAX_VARIANTS)
    return gpurf_fail(ctx, GPURF_EINVAL, "too many ORF variants (%d)", nv);
  gpurf_trace_reader *rd = NULL;
  int rc;
  if (w->kind == REPRO_W_PRESET) {
    gpurf_trace_gen_params g = {w->path, w->seed, 0, 0, 0, 0}; /* no lane values needed */
    rc = gpurf_trace_gen_alloc(ctx, &g, &rd);
  } else {
    rc = gpurf_trace_reader_alloc(ctx, w->path, &rd);
  }
  gpurf_trace_inst *in = rc == GPURF_OK ? malloc(sizeof *in) : NULL;
  if (rc == GPURF_OK && !in) rc = gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  gpurf_dataflow *df = NULL;
  gpurf_trace_stats_acc *acc = NULL;
  if (rc == GPURF_OK) rc = gpurf_trace_stats_alloc(ctx, &acc);
  uint32_t kernel = 0;
  while (rc == GPURF_OK) {
    int got = gpurf_trace_next(ctx, rd, in);
    if (got != GPURF_OK && got != GPURF_TRACE_END) {
      rc = got;
      break;
    }
    if (df && (got == GPURF_TRACE_END || in->kernel != kernel)) {
      rc = kernel_done(ctx, df, v, nv, out);
      gpurf_dataflow_free(df);
      df = NULL;
    }
    if (got == GPURF_TRACE_END || rc != GPURF_OK) break;
    if (!df) {
      rc = gpurf_dataflow_alloc(ctx, &df);
      kernel = in->kernel;
    }
    if (rc == GPURF_OK) rc = gpurf_dataflow_add(ctx, df, in);
    if (rc == GPURF_OK) rc = gpurf_trace_stats_add(ctx, acc, gpurf_trace_reader_kernel(rd), in);
  }
  gpurf_trace_stats *st = rc == GPURF_OK ? calloc(1, sizeof *st) : NULL;
  if (rc == GPURF_OK && !st) rc = gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  if (rc == GPURF_OK) rc = gpurf_trace_stats_finish(ctx, acc, st);
  if (rc == GPURF_OK) {
    uint64_t once3 = 0, more2 = 0;
    for (int b = 0; b < 3; b++) once3 += st->lifetime_once_hist[b];
    for (int b = 3; b < GPURF_TRACE_READS_BINS; b++) more2 += st->reads_hist[b];
    out->once_within3 = gpurf_trace_stats_fraction(once3, st->values);
    out->more_than_twice = gpurf_trace_stats_fraction(more2, st->values);
    out->warps = (double)st->warps;
    out->long_latency =
        gpurf_trace_stats_fraction(st->latency_count[GPURF_TRACE_LAT_LONG], st->warp_instructions);
  }
  free(st);
  gpurf_trace_stats_free(acc);
  gpurf_dataflow_free(df);
  free(in);
  gpurf_trace_reader_free(rd);
  return rc;
}

void gebhart_describe(const char *workload, const gebhart_orf_result *r, char *out, size_t n) {
  snprintf(out, n,
           "%s: %.0f%% of values read once within 3 instructions, %.0f%% read more than twice, "
           "%.1f%% long-latency instructions, %.1f static instructions per strand, %.0f warps",
           workload, 100 * r->once_within3, 100 * r->more_than_twice, 100 * r->long_latency,
           r->strands > 0 ? r->static_insts / r->strands : 0, r->warps);
}
