/* Private to src/reproduce: the plan (workloads and jobs), job results,
 * the papers' descriptions and the helpers their claim code uses. */
#ifndef GPURF_REPRO_INTERNAL_H
#define GPURF_REPRO_INTERNAL_H

#include <stdint.h>

#include "gpurf/reproduce.h"
#include "gpurf/trace.h"

#define REPRO_NAME_MAX 64
#define REPRO_PATH_MAX 1024
#define REPRO_SETS_MAX 160
#define REPRO_KEY_MAX (REPRO_NAME_MAX * 2 + REPRO_SETS_MAX + 32)
#define REPRO_MAX_PAPERS 5

/* What a job measures. Pipeline runs fill the run metrics and the design's
 * (area, leakage); design jobs only the design's. Names are the results
 * file's keys: append, never rename. */
typedef enum repro_metric {
  RM_CYCLES = 0,
  RM_INSTRUCTIONS,
  RM_IPC,
  RM_SECONDS,
  RM_ENERGY_J,
  RM_DYNAMIC_J,
  RM_LEAKAGE_J,
  RM_POWER_W,
  RM_DYNAMIC_POWER_W,
  RM_INSTRUCTIONS_PER_J,
  RM_EDP_J_S,
  RM_READS,
  RM_WRITES,
  RM_CONFLICTS_READ,
  RM_CONFLICTS_WRITE,
  RM_CONFLICTS_INTRA,
  RM_UTILISATION,
  RM_AREA_M2,
  RM_LEAKAGE_W,
  RM_EXTRAS_AREA_M2, /* the design's extra structures (write pool, tags, ...) */
  RM_STORAGE_BITS,   /* storage bits of a compressed register file (0 without one) */
  RM_BANK_READ_J,    /* energy of one read of the storage bank (component "bank", else the first) */
  RM_BANK_WRITE_J,   /* and of one write */
  RM_EXTRAS_LEAKAGE_W, /* leakage of the design's extra structures */
  RM_FETCH_PENALTY,  /* mean operand-fetch cycles over the conflict-free case */
  RM_COUNT
} repro_metric;

extern const char *const repro_metric_names[RM_COUNT];

typedef enum repro_workload_kind {
  REPRO_W_PRESET = 0,
  REPRO_W_TRACE,
  REPRO_W_KERNEL /* an ELF of the kernel suite, recorded on the emulator when its job runs */
} repro_workload_kind;

typedef struct repro_workload {
  char name[REPRO_NAME_MAX];
  repro_workload_kind kind;
  char path[REPRO_PATH_MAX]; /* trace file, or the preset's name */
  uint64_t seed;             /* presets */
} repro_workload;

typedef enum repro_job_kind { REPRO_JOB_SIM = 0, REPRO_JOB_DESIGN } repro_job_kind;

/* Counters of a technique (its own names), kept beside the metrics. */
#define REPRO_MAX_EXTRA 32
#define REPRO_EXTRA_NAME_MAX 40

typedef struct repro_job {
  repro_job_kind kind;
  char design[REPRO_NAME_MAX];
  int workload;              /* index into the plan's workloads; -1 for design jobs */
  char sets[REPRO_SETS_MAX]; /* pipeline parameters "key=value;key=value" */
  char key[REPRO_KEY_MAX];
  int done;
  double m[RM_COUNT];
  int n_extra;
  char extra_name[REPRO_MAX_EXTRA][REPRO_EXTRA_NAME_MAX];
  double extra[REPRO_MAX_EXTRA];
} repro_job;

/* A technique counter of a finished job, or NAN when it has none. */
double repro_job_counter(const repro_job *j, const char *name);

typedef struct repro_paper_def repro_paper_def;

/* One planned paper: its definition and its workloads (indices into the
 * plan's list). */
typedef struct repro_paper_plan {
  const repro_paper_def *def;
  char set[REPRO_PATH_MAX]; /* the workload set's name */
  int n_workloads;
  int *workloads;
} repro_paper_plan;

struct gpurf_reproduce {
  char data_dir[REPRO_PATH_MAX];
  char papers_spec[REPRO_NAME_MAX * REPRO_MAX_PAPERS]; /* as given to _alloc */
  char workloads_spec[REPRO_PATH_MAX];
  int n_papers;
  repro_paper_plan papers[REPRO_MAX_PAPERS];
  int n_workloads, cap_workloads;
  repro_workload *workloads;
  size_t n_jobs, cap_jobs;
  repro_job *jobs;
  size_t n_claims, cap_claims;
  gpurf_reproduce_claim *claims;
  /* Strings the claims point to that are built at run time. */
  size_t n_strings, cap_strings;
  char **strings;
};

/* A paper's claim as the paper states it. */
typedef struct repro_claim_def {
  const char *id;
  const char *metric;
  const char *unit;
  double published; /* NAN: the paper gives no number */
  gpurf_reproduce_relation relation;
  double tolerance; /* ABOUT: |ours| within it counts as the paper's direction */
  const char *source;
} repro_claim_def;

/* What plan() and claims() see: the plan and the paper being planned or
 * evaluated. */
typedef struct repro_env {
  gpurf_ctx *ctx;
  gpurf_reproduce *r;
  repro_paper_plan *paper;
  size_t first_claim; /* the paper's claims start here */
} repro_env;

struct repro_paper_def {
  gpurf_reproduce_paper info;
  int (*plan)(repro_env *env);
  int (*claims)(repro_env *env);
};

extern const repro_paper_def repro_paper_jing;
extern const repro_paper_def repro_paper_gebhart;
extern const repro_paper_def repro_paper_warrf;
extern const repro_paper_def repro_paper_simtight;
extern const repro_paper_def repro_paper_jeon;

/* ---- plan.c ---- */
/* Settings are "key=value;key=value": keys starting with "design." change
 * the design (gpurf_rf_design_set); "technique=NAME" runs the pipeline
 * with that technique (technique.h) and "t.KEY=VALUE" sets its options;
 * the others set pipeline parameters.
 * Adds a pipeline run of `design` with `sets` (NULL: none) on every workload
 * of the paper, and the design's own evaluation. */
int repro_plan_sims(repro_env *env, const char *design, const char *sets);
/* A design evaluation only (area, leakage); pipeline settings are ignored. */
int repro_plan_design(repro_env *env, const char *design, const char *sets);
/* The finished job, or NULL (not planned, or another shard's). */
const repro_job *repro_find_sim(const repro_env *env, const char *design, const char *sets,
                                int workload);
const repro_job *repro_find_design(const repro_env *env, const char *design, const char *sets);
void repro_job_key(repro_job_kind kind, const char *design, const char *workload,
                   const char *sets, char *out, size_t n);

/* Adds a workload to the plan and to the paper's list (a name already
 * planned must name the same thing). */
int repro_plan_add_workload(gpurf_ctx *ctx, gpurf_reproduce *r, repro_paper_plan *pp,
                            const repro_workload *w);

/* ---- suite.c ---- */
#define REPRO_SUITE_WARPS 64 /* SIMTight's 64 warps of 32 lanes */
#define REPRO_SUITE_BLOCKS 2 /* blocks of 1024 threads (matmul and transpose need them) */
/* Adds the kernel suite's ELFs (variant "" for RV32IMA, "rv32e" for the
 * RV32E builds) as workloads; *found 0 (nothing added) when none is built. */
int repro_suite_add(gpurf_ctx *ctx, gpurf_reproduce *r, repro_paper_plan *pp, const char *variant,
                    int *found);
/* Runs a kernel workload on the emulator and opens the trace it records. */
int repro_suite_open(gpurf_ctx *ctx, const repro_workload *w, gpurf_trace_reader **out);

/* ---- run.c ---- */
int repro_job_execute(gpurf_ctx *ctx, const gpurf_reproduce *r, repro_job *j);

/* ---- claims.c ---- */
typedef enum repro_aggregate { REPRO_GEOMEAN = 0, REPRO_MAX, REPRO_MIN, REPRO_MEAN } repro_aggregate;

/* `note` may be NULL. Strings are copied. no_data: the claim's jobs are
 * another shard's. */
int repro_claim_no_data(repro_env *env, const repro_claim_def *c);
/* No data, with the reason as the claim's note. */
int repro_claim_no_data_why(repro_env *env, const repro_claim_def *c, const char *why);
int repro_claim_not_modelled(repro_env *env, const repro_claim_def *c, const char *note);
int repro_claim_value(repro_env *env, const repro_claim_def *c, double ours, const char *note);
/* ours = metric(A)/metric(B) - 1 per workload (rows), aggregated over the
 * set: geometric mean of the ratios (minus one), their maximum or minimum. */
int repro_claim_ratio(repro_env *env, const repro_claim_def *c, const char *design_a,
                      const char *sets_a, const char *design_b, const char *sets_b,
                      repro_metric m, repro_aggregate agg, const char *note);
/* ours = aggregate of per-workload values v[0..n_workloads) computed by the
 * paper itself (ratios when `ratio`: printed minus one unless the claim's
 * unit is "ratio"), then one row per workload. */
int repro_claim_series(repro_env *env, const repro_claim_def *c, const double *v, int ratio,
                       repro_aggregate agg, const char *note);
/* ours = the metric of one design's runs: a row per workload, aggregated
 * (arithmetic mean for shares and utilisations). */
int repro_claim_metric(repro_env *env, const repro_claim_def *c, const char *design,
                       const char *sets, repro_metric m, repro_aggregate agg, const char *note);
/* ours = metric(A)/metric(B) - 1 of two design evaluations. */
int repro_claim_design_ratio(repro_env *env, const repro_claim_def *c, const char *design_a,
                             const char *sets_a, const char *design_b, const char *sets_b,
                             repro_metric m, const char *note);
/* ours = overall, then one row per labelled value (bank counts, RF sizes,
 * workloads), printed as the claim prints (ratios minus one when `ratio`). */
int repro_claim_rows(repro_env *env, const repro_claim_def *c, double overall,
                     const char *const *labels, const double *values, int n, int ratio,
                     const char *note);
/* Finds a claim definition by id in a table ending with a NULL id. */
const repro_claim_def *repro_claim_def_find(const repro_claim_def *defs, const char *id);
/* Every claim of the table not yet emitted for this paper, as not modelled;
 * then puts the paper's rows in the table's order. */
int repro_claims_rest_not_modelled(repro_env *env, const repro_claim_def *defs,
                                   const char *note);
const char *repro_strdup(gpurf_reproduce *r, const char *s);

#endif
