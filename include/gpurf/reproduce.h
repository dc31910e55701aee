/* Reproducing the seed papers: each paper's experiment as a list of jobs
 * (design evaluations and pipeline runs of designs on workloads), and its
 * published claims computed from the jobs' results, each beside the
 * paper's number.
 *
 * A run has three steps that can be split across processes and machines:
 * plan the jobs (gpurf_reproduce_alloc), run all or a deterministic share
 * of them (gpurf_reproduce_run), and compute the claims from the results
 * (gpurf_reproduce_claims). Partial results of shards are written with
 * gpurf_reproduce_write_results and joined with gpurf_reproduce_read_results;
 * the claims of merged shards are bit-identical to an unsharded run's. */
#ifndef GPURF_REPRODUCE_H
#define GPURF_REPRODUCE_H

#include <stddef.h>
#include <stdio.h>

#include "gpurf/context.h"
#include "gpurf/export.h"

GPURF_BEGIN_DECLS

/* A paper: id ("jing", ...), its title and the workload set it uses by
 * default. Index 0..gpurf_reproduce_paper_count()-1. */
typedef struct gpurf_reproduce_paper {
  const char *id;
  const char *title;
  const char *citation;
  const char *default_workloads;
} gpurf_reproduce_paper;

GPURF_API int gpurf_reproduce_paper_count(void);
GPURF_API const gpurf_reproduce_paper *gpurf_reproduce_paper_get(int i);

typedef struct gpurf_reproduce gpurf_reproduce;

/* Plans the jobs of `papers` ("all", one id, or ids separated by commas) on
 * `workloads`: NULL or "default" (each paper's own set), "shipped",
 * "synthetic", "riscv" or a directory of traces. Workload files are found
 * under the context's data directory. */
GPURF_API int gpurf_reproduce_alloc(gpurf_ctx *ctx, const char *papers, const char *workloads,
                                    gpurf_reproduce **out);
GPURF_API void gpurf_reproduce_free(gpurf_reproduce *r);

/* Jobs planned, and how many of them have a result. */
GPURF_API size_t gpurf_reproduce_job_count(const gpurf_reproduce *r);
GPURF_API size_t gpurf_reproduce_jobs_done(const gpurf_reproduce *r);
/* Its stable key, e.g. "sim|jing-128k-8bk-straight|compute|". */
GPURF_API const char *gpurf_reproduce_job_key(const gpurf_reproduce *r, size_t i);

/* Called from the running threads, serialised by the library, after each
 * job: jobs done and total of this run (of this shard). */
typedef void (*gpurf_reproduce_progress_fn)(void *arg, size_t done, size_t total);

typedef struct gpurf_reproduce_run_opts {
  int jobs;             /* threads; <= 0 means 1 */
  int shard_index;      /* run jobs j with j mod shard_count == shard_index */
  int shard_count;      /* <= 1: all jobs */
  gpurf_reproduce_progress_fn progress;
  void *progress_arg;
} gpurf_reproduce_run_opts;

/* Runs the jobs of this shard that have no result yet. Results do not
 * depend on the number of threads. The first failing job's error is
 * reported, naming the job. */
GPURF_API int gpurf_reproduce_run(gpurf_ctx *ctx, gpurf_reproduce *r,
                                  const gpurf_reproduce_run_opts *opts);

/* Results file: a header naming the plan (papers, workload set), then one
 * line per finished job, numbers in C's hexadecimal floating-point form so
 * that nothing is rounded. read_results fills the jobs it names (a key the
 * plan lacks, or another plan's header, is an error with the file and
 * line), so shards of the same plan merge. */
GPURF_API int gpurf_reproduce_write_results(gpurf_ctx *ctx, const gpurf_reproduce *r, FILE *out);
GPURF_API int gpurf_reproduce_read_results(gpurf_ctx *ctx, gpurf_reproduce *r, const char *path);
/* Plans again what the first file's header names (papers, workload set)
 * and reads every file's results into it. */
GPURF_API int gpurf_reproduce_merge(gpurf_ctx *ctx, const char *const *paths, size_t n,
                                    gpurf_reproduce **out);

/* ---- Claims ---- */

/* How a published number is stated. */
typedef enum gpurf_reproduce_relation {
  GPURF_REPRODUCE_EQUAL = 0, /* "-5%" */
  GPURF_REPRODUCE_ABOUT,     /* "about 0%": direction_ok when |ours| <= tolerance */
  GPURF_REPRODUCE_BELOW,     /* "< 6%": direction_ok when ours < published */
  GPURF_REPRODUCE_ABOVE
} gpurf_reproduce_relation;

typedef enum gpurf_reproduce_status {
  GPURF_REPRODUCE_COMPUTED = 0,
  GPURF_REPRODUCE_NOT_MODELLED, /* the mechanism behind the claim is not built */
  GPURF_REPRODUCE_NO_DATA       /* its jobs have no results (another shard's) */
} gpurf_reproduce_status;

/* One published sentence, its number and ours. A row with a workload is
 * one workload's value of the claim above it (the paper's bars); the row
 * without is the claim over the set (geometric mean for ratios). Strings
 * live as long as the gpurf_reproduce. */
typedef struct gpurf_reproduce_claim {
  const char *paper;
  const char *claim;    /* stable id, pinned by the paper's issue */
  const char *metric;   /* what is compared, e.g. "IPC ratio - 1" */
  const char *unit;     /* "fraction", "mm2", "kbit", ... */
  const char *workloads; /* the set, or the workload of a per-workload row */
  const char *source;   /* where the paper says it */
  const char *note;     /* why ours differs, what is not modelled, ... */
  gpurf_reproduce_relation relation;
  double published;
  int has_published;    /* per-workload rows of claims published as a mean: 0 */
  gpurf_reproduce_status status;
  double ours;          /* valid when status is COMPUTED */
  double rel_error;     /* (ours - published) / |published|; valid when has_rel_error */
  int has_rel_error;
  int direction_ok;     /* -1 when not computed */
  int per_workload;     /* 1: a workload's row under its claim */
  /* How the claim's row relates to the rows under it: "geometric mean",
   * "mean", "largest", "smallest", or "claim" (rows that are the paper's
   * sweep points, not an average); NULL without rows. */
  const char *aggregate;
} gpurf_reproduce_claim;

/* Computes every claim of the planned papers from the results present.
 * Claims whose jobs belong to another shard come out NO_DATA. */
GPURF_API int gpurf_reproduce_claims(gpurf_ctx *ctx, gpurf_reproduce *r);
GPURF_API size_t gpurf_reproduce_claim_count(const gpurf_reproduce *r);
GPURF_API const gpurf_reproduce_claim *gpurf_reproduce_claim_get(const gpurf_reproduce *r,
                                                                 size_t i);

/* How a paper's claims (paper NULL: all) fare: claims, computed, whose
 * direction agrees with the paper, and of those, within a third of the
 * published magnitude (or within the stated bound). */
typedef struct gpurf_reproduce_tally {
  int claims, computed, direction_ok, within_third;
} gpurf_reproduce_tally;
GPURF_API void gpurf_reproduce_tally_get(const gpurf_reproduce *r, const char *paper,
                                         gpurf_reproduce_tally *out);

/* The workload set of each planned paper (after "default" was resolved),
 * and the workloads in it, in order. */
GPURF_API const char *gpurf_reproduce_paper_workloads(const gpurf_reproduce *r, const char *paper);
GPURF_API size_t gpurf_reproduce_workload_count(const gpurf_reproduce *r, const char *paper);
GPURF_API const char *gpurf_reproduce_workload_name(const gpurf_reproduce *r, const char *paper,
                                                    size_t i);

/* ---- Report ---- */

/* Writes DIR/index.html (self-contained: inline SVG, no scripts),
 * DIR/results.json, DIR/PAPER.csv per paper and DIR/PAPER-CLAIM.svg per
 * figure. Each file is written whole or not at all. DIR must exist. */
GPURF_API int gpurf_reproduce_report_write(gpurf_ctx *ctx, const gpurf_reproduce *r,
                                           const char *dir);

/* The claims as CSV with the pinned columns paper, claim, metric, unit,
 * published, ours, rel_error, direction_ok, workloads (header included;
 * paper NULL: every paper), and as JSON with per-workload values. */
GPURF_API int gpurf_reproduce_write_csv(gpurf_ctx *ctx, const gpurf_reproduce *r,
                                        const char *paper, FILE *out);
GPURF_API int gpurf_reproduce_write_json(gpurf_ctx *ctx, const gpurf_reproduce *r, FILE *out);
/* "computed", "not modelled", "no data". */
GPURF_API const char *gpurf_reproduce_status_name(gpurf_reproduce_status s);

/* ---- Peer references for the pipeline (validation/accelsim-pipeline.tsv) ----
 * Another simulator's counts on the shipped traces, one row per figure:
 * TRACE<TAB>METRIC<TAB>PEER<TAB>NOTE under '# source:' and '# design:'
 * (the design ours runs). Reported beside ours, never gated; the note says
 * how the peer counts differently (docs/pipeline-peer.md). */
typedef struct gpurf_reproduce_peer gpurf_reproduce_peer;

typedef struct gpurf_reproduce_peer_row {
  char trace[128];   /* a shipped trace, by name */
  const char *metric; /* cycles, warp_instructions, bank_reads, bank_writes,
                         conflicts_inter_read, conflicts_inter_write,
                         conflicts_intra */
  double peer, ours;
  int has_ratio;     /* peer > 0 */
  double ratio;      /* ours / peer */
  int line;          /* in the file */
  char note[512];
} gpurf_reproduce_peer_row;

/* Reads a peer set; every trace is found under the data directory
 * (traces/ or tests/data/traces/). Errors name FILE:LINE:COL. */
GPURF_API int gpurf_reproduce_peer_load(gpurf_ctx *ctx, const char *path,
                                        gpurf_reproduce_peer **out);
GPURF_API void gpurf_reproduce_peer_free(gpurf_reproduce_peer *p);
/* Runs each trace once through the pipeline on the set's design and fills
 * 'ours' and the ratio of every row. */
GPURF_API int gpurf_reproduce_peer_compare(gpurf_ctx *ctx, gpurf_reproduce_peer *p);
GPURF_API const char *gpurf_reproduce_peer_source(const gpurf_reproduce_peer *p);
GPURF_API const char *gpurf_reproduce_peer_design(const gpurf_reproduce_peer *p);
GPURF_API int gpurf_reproduce_peer_rows(const gpurf_reproduce_peer *p);
GPURF_API const gpurf_reproduce_peer_row *gpurf_reproduce_peer_row_get(const gpurf_reproduce_peer *p,
                                                                       int i);

GPURF_END_DECLS

#endif
