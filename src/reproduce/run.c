/* Running a reproduction's jobs: one job is a design evaluation or one
 * pipeline run; jobs run on worker threads, each with its own context,
 * and write only their own result, so results do not depend on the number
 * of threads. Results files carry every number in hexadecimal floating
 * point, so merged shards give the same bits as one run. */
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "core/pool.h"
#include "gpurf/component.h"
#include "gpurf/events.h"
#include "gpurf/metrics.h"
#include "gpurf/pipeline.h"
#include "gpurf/rf.h"
#include "gpurf/technique.h"
#include "gpurf/trace.h"
#include "reproduce/repro_internal.h"

const char *const repro_metric_names[RM_COUNT] = {
    "cycles",        "instructions",      "ipc",           "seconds",
    "energy_j",      "dynamic_j",         "leakage_j",     "power_w",
    "dynamic_power_w", "instructions_per_j", "edp_j_s",    "reads",
    "writes",        "conflicts_read",    "conflicts_write", "conflicts_intra",
    "utilisation",   "area_m2",           "leakage_w", "extras_area_m2",
    "storage_bits",  "bank_read_j",       "bank_write_j",  "extras_leakage_w",
    "fetch_penalty_cycles"};

static void design_metrics(const gpurf_rf_design *d, const gpurf_rf_table *t, repro_job *j) {
  double area = 0, leak = 0, extras = 0, extras_leak = 0;
  gpurf_metrics_area_total(NULL, t, &area);
  for (int i = 0; i < t->n_components; i++) {
    const gpurf_rf_component *c = &t->components[i];
    /* Leakage as gpurf rf totals it: without the operand collectors. */
    if (!strcmp(c->name, GPURF_RF_COLLECTOR)) continue;
    leak += c->instances * c->leakage_w;
    for (size_t e = 0; e < d->n_extras; e++)
      if (!strcmp(d->extras[e].name, c->name)) {
        extras += c->instances * c->area_m2;
        extras_leak += c->instances * c->leakage_w;
      }
  }
  j->m[RM_AREA_M2] = area;
  j->m[RM_LEAKAGE_W] = leak;
  j->m[RM_EXTRAS_AREA_M2] = extras;
  j->m[RM_EXTRAS_LEAKAGE_W] = extras_leak;
  /* The storage bank as the pipeline charges it (api.c, bind_energy). */
  int b = gpurf_rf_table_find(t, "bank");
  if (b < 0) b = 0;
  if (t->n_components > 0) {
    int r = gpurf_rf_table_find_event(t, b, "read"), w = gpurf_rf_table_find_event(t, b, "write");
    if (r >= 0) j->m[RM_BANK_READ_J] = t->components[b].events[r].energy_j;
    if (w >= 0) j->m[RM_BANK_WRITE_J] = t->components[b].events[w].energy_j;
  }
}

#define DESIGN_PREFIX "design."

/* Storage of a design's compressed register file, from the model's field
 * widths with the design's sizes, as its primitive table is built. */
static int crf_storage(gpurf_ctx *ctx, const gpurf_rf_design *d, repro_job *j) {
  const gpurf_rf_extra *x = NULL;
  for (size_t e = 0; e < d->n_extras && !x; e++)
    if (d->extras[e].kind == GPURF_RF_EXTRA_COMPRESSED_RF) x = &d->extras[e];
  if (!x) return GPURF_OK;
  gpurf_tech *tech = NULL;
  gpurf_sram_cells *cells = calloc(1, sizeof *cells);
  int rc = cells ? gpurf_tech_alloc(ctx, &tech) : gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  gpurf_crf_spec spec;
  gpurf_crf_spec_init(&spec);
  if (rc == GPURF_OK) rc = gpurf_tech_load(ctx, d->tech, tech);
  if (rc == GPURF_OK) rc = gpurf_sram_cells_load(ctx, cells);
  spec.device = d->device;
  if (rc == GPURF_OK) {
    gpurf_crf_cost cost;
    spec.tech = tech, spec.temp_k = d->temp_k, spec.cells = cells;
    spec.warps = d->sm.warps;
    spec.lanes = d->sm.threads_per_warp;
    if (x->arch_regs) spec.arch_regs = x->arch_regs;
    spec.vrf_regs = x->vrf_regs;
    rc = gpurf_crf_eval(ctx, &spec, &cost);
    if (rc == GPURF_OK) j->m[RM_STORAGE_BITS] = (double)cost.total_bits;
  }
  gpurf_tech_free(tech);
  free(cells);
  return rc;
}

#define TECHNIQUE_KEY "technique"
#define TECHNIQUE_PREFIX "t."

double repro_job_counter(const repro_job *j, const char *name) {
  for (int i = 0; i < j->n_extra; i++)
    if (!strcmp(j->extra_name[i], name)) return j->extra[i];
  return NAN;
}

/* The technique a job's settings name, with its options set; *out NULL
 * when they name none. */
static int technique_from_sets(gpurf_ctx *ctx, const char *sets, gpurf_technique **out) {
  char buf[REPRO_SETS_MAX];
  snprintf(buf, sizeof buf, "%s", sets);
  *out = NULL;
  int rc = GPURF_OK;
  for (char *save = NULL, *kv = strtok_r(buf, ";", &save); kv && rc == GPURF_OK;
       kv = strtok_r(NULL, ";", &save)) {
    char *eq = strchr(kv, '=');
    if (!eq) continue; /* reported by apply_sets */
    *eq = '\0';
    if (!strcmp(kv, TECHNIQUE_KEY) && !*out)
      rc = gpurf_technique_alloc(ctx, eq + 1, out);
    else if (!strncmp(kv, TECHNIQUE_PREFIX, strlen(TECHNIQUE_PREFIX)))
      rc = *out ? gpurf_technique_set(ctx, *out, kv + strlen(TECHNIQUE_PREFIX), eq + 1)
                : gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, kv,
                                "technique option before technique=NAME");
  }
  if (rc != GPURF_OK) {
    gpurf_technique_free(*out);
    *out = NULL;
  }
  return rc;
}

/* Applies "key=value;key=value": keys starting with "design." to the design
 * (design = non-NULL), pipeline keys to the parameters (p non-NULL);
 * technique keys are technique_from_sets's. */
static int apply_sets(gpurf_ctx *ctx, gpurf_rf_design *design, gpurf_pipeline_params *p,
                      const char *sets) {
  char buf[REPRO_SETS_MAX];
  snprintf(buf, sizeof buf, "%s", sets);
  size_t np = strlen(DESIGN_PREFIX);
  for (char *save = NULL, *kv = strtok_r(buf, ";", &save); kv; kv = strtok_r(NULL, ";", &save)) {
    char *eq = strchr(kv, '=');
    if (!eq) return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "sets", "'%s' is not KEY=VALUE", kv);
    *eq = '\0';
    if (!strcmp(kv, TECHNIQUE_KEY) || !strncmp(kv, TECHNIQUE_PREFIX, strlen(TECHNIQUE_PREFIX)))
      continue;
    int is_design = !strncmp(kv, DESIGN_PREFIX, np), rc = GPURF_OK;
    if (is_design && design) rc = gpurf_rf_design_set(ctx, design, kv + np, eq + 1);
    if (!is_design && p) rc = gpurf_pipeline_params_set(ctx, p, kv, eq + 1);
    if (rc != GPURF_OK) return rc;
  }
  return p ? gpurf_pipeline_params_check(ctx, p) : GPURF_OK;
}

static int simulate(gpurf_ctx *ctx, const repro_workload *w, const gpurf_rf_design *d,
                    const gpurf_rf_table *t, repro_job *j) {
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  gpurf_pipeline_params_from_design(&prm, d);
  gpurf_pipeline_params_from_table(&prm, t);
  int rc = apply_sets(ctx, NULL, &prm, j->sets);
  gpurf_trace_reader *rd = NULL;
  gpurf_pipeline *p = NULL;
  gpurf_technique *tq = NULL;
  if (rc == GPURF_OK) rc = technique_from_sets(ctx, j->sets, &tq);
  gpurf_pipeline_stats *st = calloc(1, sizeof *st);
  gpurf_energy_report *rep = NULL;
  if (rc == GPURF_OK && !st) rc = gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  if (rc == GPURF_OK) rc = gpurf_energy_report_alloc(ctx, &rep);
  if (rc == GPURF_OK) {
    if (w->kind == REPRO_W_PRESET) {
      gpurf_trace_gen_params g = {w->path, w->seed, 0, 0, 0, -1};
      rc = gpurf_trace_gen_alloc(ctx, &g, &rd);
    } else if (w->kind == REPRO_W_KERNEL) {
      rc = repro_suite_open(ctx, w, &rd);
    } else {
      rc = gpurf_trace_reader_alloc(ctx, w->path, &rd);
    }
  }
  if (rc == GPURF_OK)
    rc = gpurf_pipeline_alloc(ctx, &prm, t, tq ? gpurf_technique_hooks(tq) : NULL, &p);
  if (rc == GPURF_OK) rc = gpurf_pipeline_run(ctx, p, rd, 0);
  if (rc == GPURF_OK) rc = gpurf_pipeline_stats_get(p, st);
  if (rc == GPURF_OK) {
    gpurf_energy_report_in in = {st->warp_instructions};
    rc = gpurf_energy_report_get(ctx, gpurf_pipeline_energy(p), &in, rep);
  }
  if (rc == GPURF_OK) {
    double util = 0;
    for (int b = 0; b < st->banks; b++) util += st->bank_utilisation[b];
    j->m[RM_CYCLES] = (double)st->cycles;
    j->m[RM_INSTRUCTIONS] = (double)st->warp_instructions;
    j->m[RM_IPC] = st->ipc;
    j->m[RM_SECONDS] = gpurf_energy_report_seconds(rep);
    j->m[RM_ENERGY_J] = gpurf_energy_report_total_energy_j(rep);
    j->m[RM_DYNAMIC_J] = gpurf_energy_report_dynamic_energy_j(rep);
    j->m[RM_LEAKAGE_J] = gpurf_energy_report_leakage_energy_j(rep);
    j->m[RM_POWER_W] = gpurf_energy_report_average_power_w(rep);
    j->m[RM_DYNAMIC_POWER_W] = gpurf_energy_report_dynamic_power_w(rep);
    j->m[RM_INSTRUCTIONS_PER_J] = gpurf_energy_report_instructions_per_j(rep);
    j->m[RM_EDP_J_S] = gpurf_energy_report_edp_j_s(rep);
    j->m[RM_READS] = (double)st->reads;
    j->m[RM_WRITES] = (double)st->writes;
    j->m[RM_CONFLICTS_READ] = (double)st->conflicts_inter_read;
    j->m[RM_CONFLICTS_WRITE] = (double)st->conflicts_inter_write;
    j->m[RM_CONFLICTS_INTRA] = (double)st->conflicts_intra;
    j->m[RM_UTILISATION] = st->banks ? util / st->banks : 0;
    j->m[RM_FETCH_PENALTY] = st->operand_fetch_penalty;
    int n = tq ? gpurf_technique_counter_count(tq) : 0;
    for (int i = 0; i < n && j->n_extra < REPRO_MAX_EXTRA; i++) {
      snprintf(j->extra_name[j->n_extra], REPRO_EXTRA_NAME_MAX, "%s",
               gpurf_technique_counter_name(tq, i));
      j->extra[j->n_extra++] = gpurf_technique_counter_value(tq, i);
    }
  }
  gpurf_pipeline_free(p);
  gpurf_technique_free(tq);
  gpurf_trace_reader_free(rd);
  free(st);
  gpurf_energy_report_free(rep);
  return rc;
}

int repro_job_execute(gpurf_ctx *ctx, const gpurf_reproduce *r, repro_job *j) {
  gpurf_rf_design *d = calloc(1, sizeof *d);
  gpurf_rf_table *t = calloc(1, sizeof *t);
  int rc = d && t ? GPURF_OK : gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  if (rc == GPURF_OK) rc = gpurf_rf_design_load(ctx, j->design, d);
  if (rc == GPURF_OK) rc = apply_sets(ctx, d, NULL, j->sets);
  if (rc == GPURF_OK) rc = gpurf_rf_design_table(ctx, d, t);
  if (rc == GPURF_OK) {
    memset(j->m, 0, sizeof j->m);
    j->n_extra = 0;
    design_metrics(d, t, j);
    rc = crf_storage(ctx, d, j);
  }
  if (rc == GPURF_OK) {
    if (j->kind == REPRO_JOB_SIM) rc = simulate(ctx, &r->workloads[j->workload], d, t, j);
  }
  j->done = rc == GPURF_OK;
  free(d);
  free(t);
  return rc;
}

/* ---- Running the jobs ---- */

static int run_job(gpurf_ctx *ctx, size_t item, void *scratch, void *arg) {
  (void)scratch;
  gpurf_reproduce *r = arg;
  return repro_job_execute(ctx, r, &r->jobs[item]);
}

int gpurf_reproduce_run(gpurf_ctx *ctx, gpurf_reproduce *r, const gpurf_reproduce_run_opts *opts) {
  int shards = opts && opts->shard_count > 1 ? opts->shard_count : 1;
  int shard = shards > 1 ? opts->shard_index : 0;
  if (shard < 0 || shard >= shards)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "shard", "shard %d is not in 0..%d", shard,
                         shards - 1);
  size_t *queue = malloc((r->n_jobs ? r->n_jobs : 1) * sizeof *queue), n = 0;
  if (!queue) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  for (size_t i = 0; i < r->n_jobs; i++)
    if ((int)(i % (size_t)shards) == shard && !r->jobs[i].done) queue[n++] = i;
  /* Every worker, the calling thread's too, has a context of its own on the
   * plan's data directory. */
  gpurf_pool_spec spec = {queue, n, opts ? opts->jobs : 1, 0, r->data_dir, 0, run_job, r,
                          opts ? opts->progress : NULL, opts ? opts->progress_arg : NULL};
  size_t failed = 0;
  gpurf_error e;
  memset(&e, 0, sizeof e);
  int rc = gpurf_pool_run(ctx, &spec, &failed, &e);
  if (rc != GPURF_OK && e.status) /* not a refusal of the pool itself */
    rc = gpurf_fail_at(ctx, rc, e.file[0] ? e.file : NULL, e.line, e.column,
                       e.field[0] ? e.field : NULL, "job %s: %s", r->jobs[failed].key, e.message);
  free(queue);
  return rc;
}

/* ---- Results files ---- */

#define RESULTS_MAGIC "gpurf-reproduce-results 1"

int gpurf_reproduce_write_results(gpurf_ctx *ctx, const gpurf_reproduce *r, FILE *out) {
  fprintf(out, "%s\tpapers=%s\tworkloads=%s\n", RESULTS_MAGIC, r->papers_spec, r->workloads_spec);
  for (size_t i = 0; i < r->n_jobs; i++) {
    const repro_job *j = &r->jobs[i];
    if (!j->done) continue;
    fprintf(out, "%s", j->key);
    for (int m = 0; m < RM_COUNT; m++) fprintf(out, "\t%s=%a", repro_metric_names[m], j->m[m]);
    for (int x = 0; x < j->n_extra; x++) fprintf(out, "\tx.%s=%a", j->extra_name[x], j->extra[x]);
    fputc('\n', out);
  }
  if (fflush(out) != 0 || ferror(out))
    return gpurf_fail(ctx, GPURF_EIO, "cannot write results: %s", strerror(errno));
  return GPURF_OK;
}

static int parse_line(gpurf_ctx *ctx, gpurf_reproduce *r, const char *path, int lineno,
                      char *line) {
  char *tab = strchr(line, '\t');
  if (!tab) return gpurf_fail_at(ctx, GPURF_EPARSE, path, lineno, 1, "job", "no results on the line");
  *tab = '\0';
  repro_job *j = NULL;
  for (size_t i = 0; i < r->n_jobs && !j; i++)
    if (!strcmp(r->jobs[i].key, line)) j = &r->jobs[i];
  if (!j)
    return gpurf_fail_at(ctx, GPURF_EINVAL, path, lineno, 1, "job",
                         "job '%.200s' is not in this plan (other papers or workloads?)", line);
  double m[RM_COUNT];
  int seen[RM_COUNT] = {0};
  char *save = NULL;
  j->n_extra = 0;
  for (char *kv = strtok_r(tab + 1, "\t\n", &save); kv; kv = strtok_r(NULL, "\t\n", &save)) {
    char *eq = strchr(kv, '=');
    int k = -1;
    if (eq && !strncmp(kv, "x.", 2)) {
      char *end = NULL;
      double v = strtod(eq + 1, &end);
      if (end == eq + 1 || *end || j->n_extra >= REPRO_MAX_EXTRA ||
          (size_t)(eq - kv - 2) >= REPRO_EXTRA_NAME_MAX)
        return gpurf_fail_at(ctx, GPURF_EPARSE, path, lineno, (int)(kv - line) + 1, "result",
                             "bad counter '%.40s'", kv);
      memcpy(j->extra_name[j->n_extra], kv + 2, (size_t)(eq - kv - 2));
      j->extra_name[j->n_extra][eq - kv - 2] = '\0';
      j->extra[j->n_extra++] = v;
      continue;
    }
    if (eq) {
      *eq = '\0';
      for (int i = 0; i < RM_COUNT && k < 0; i++)
        if (!strcmp(repro_metric_names[i], kv)) k = i;
    }
    char *end = NULL;
    if (k >= 0) m[k] = strtod(eq + 1, &end);
    if (k < 0 || end == eq + 1 || *end)
      return gpurf_fail_at(ctx, GPURF_EPARSE, path, lineno, (int)(kv - line) + 1, "result",
                           "bad result '%.40s'", kv);
    seen[k] = 1;
  }
  for (int i = 0; i < RM_COUNT; i++)
    if (!seen[i])
      return gpurf_fail_at(ctx, GPURF_EPARSE, path, lineno, 1, repro_metric_names[i],
                           "result missing");
  memcpy(j->m, m, sizeof m);
  j->done = 1;
  return GPURF_OK;
}

/* "MAGIC\tpapers=P\tworkloads=W\n" */
static int parse_header(const char *line, char *papers, char *workloads) {
  size_t m = strlen(RESULTS_MAGIC);
  if (strncmp(line, RESULTS_MAGIC "\tpapers=", m + 8) != 0) return -1;
  const char *p = line + m + 8, *t = strchr(p, '\t');
  if (!t || (size_t)(t - p) >= REPRO_NAME_MAX * REPRO_MAX_PAPERS) return -1;
  memcpy(papers, p, (size_t)(t - p));
  papers[t - p] = '\0';
  if (strncmp(t, "\tworkloads=", 11) != 0) return -1;
  const char *w = t + 11;
  size_t wl = strcspn(w, "\n");
  if (wl >= REPRO_PATH_MAX || w[wl] != '\n') return -1;
  memcpy(workloads, w, wl);
  workloads[wl] = '\0';
  return 0;
}

/* Results lines are short; a NUL byte or a longer line is not a results
 * file. Lines are read with their length, so a NUL is seen, not taken for
 * the end of the line. Returns 1 for a line, 0 at the end, or a status. */
static int results_line(gpurf_ctx *ctx, FILE *f, const char *path, int lineno, char *line,
                        size_t size) {
  size_t n = 0;
  int ch, any = 0;
  while ((ch = getc(f)) != EOF) {
    any = 1;
    if (ch == '\0')
      return gpurf_fail_at(ctx, GPURF_EPARSE, path, lineno, (int)n + 1, NULL,
                           "a NUL byte on the line: not a results file");
    if (n + 1 >= size)
      return gpurf_fail_at(ctx, GPURF_EPARSE, path, lineno, 1, NULL, "line longer than %zu bytes",
                           size - 2);
    line[n++] = (char)ch;
    if (ch == '\n') break;
  }
  line[n] = '\0';
  return any;
}

/* The lines of an open results file after its first (lineno lines read). */
static int read_lines(gpurf_ctx *ctx, gpurf_reproduce *r, FILE *f, const char *path,
                      int lineno) {
  char line[8192];
  int rc = GPURF_OK, got;
  while (rc == GPURF_OK && (got = results_line(ctx, f, path, lineno + 1, line, sizeof line))) {
    if (got < 0) return got;
    lineno++;
    if (lineno == 1) {
      char papers[sizeof r->papers_spec], workloads[sizeof r->workloads_spec];
      if (parse_header(line, papers, workloads) != 0)
        rc = gpurf_fail_at(ctx, GPURF_EPARSE, path, 1, 1, NULL,
                           "not a gpurf reproduce results file (first line '%s ...')",
                           RESULTS_MAGIC);
      else if (strcmp(papers, r->papers_spec) || strcmp(workloads, r->workloads_spec))
        rc = gpurf_fail_at(ctx, GPURF_EINVAL, path, 1, 1, NULL,
                           "results of papers=%s workloads=%s, not of papers=%s workloads=%s",
                           papers, workloads, r->papers_spec, r->workloads_spec);
    } else {
      rc = parse_line(ctx, r, path, lineno, line);
    }
  }
  if (rc == GPURF_OK && ferror(f))
    rc = gpurf_fail_at(ctx, GPURF_EIO, path, lineno, 0, NULL, "cannot read");
  if (rc == GPURF_OK && lineno == 0)
    rc = gpurf_fail_at(ctx, GPURF_EPARSE, path, 1, 1, NULL, "empty results file");
  return rc;
}

static FILE *open_results(gpurf_ctx *ctx, const char *path) {
  FILE *f = !strcmp(path, "-") ? stdin : fopen(path, "r");
  if (!f) gpurf_fail_at(ctx, GPURF_EIO, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
  return f;
}

static void close_results(FILE *f) {
  if (f && f != stdin) fclose(f);
}

/* The first file is opened once: its first line names the papers and
 * workloads, and its results follow from the same stream, so it may be
 * standard input or a pipe. */
int gpurf_reproduce_merge(gpurf_ctx *ctx, const char *const *paths, size_t n,
                          gpurf_reproduce **out) {
  *out = NULL;
  if (n == 0) return gpurf_fail(ctx, GPURF_EINVAL, "no results files to merge");
  FILE *f = open_results(ctx, paths[0]);
  if (!f) return GPURF_EIO;
  char line[2 * REPRO_PATH_MAX + 64];
  char papers[REPRO_NAME_MAX * REPRO_MAX_PAPERS], workloads[REPRO_PATH_MAX];
  int got = results_line(ctx, f, paths[0], 1, line, sizeof line);
  if (got < 0) {
    close_results(f);
    return got;
  }
  if (got == 0 || parse_header(line, papers, workloads) != 0) {
    close_results(f);
    return gpurf_fail_at(ctx, GPURF_EPARSE, paths[0], 1, 1, NULL,
                         "not a gpurf reproduce results file (first line '%s ...')", RESULTS_MAGIC);
  }
  gpurf_reproduce *r = NULL;
  int rc = gpurf_reproduce_alloc(ctx, papers, workloads, &r);
  if (rc == GPURF_OK) rc = read_lines(ctx, r, f, paths[0], 1);
  close_results(f);
  for (size_t i = 1; i < n && rc == GPURF_OK; i++) rc = gpurf_reproduce_read_results(ctx, r, paths[i]);
  if (rc != GPURF_OK) {
    gpurf_reproduce_free(r);
    return rc;
  }
  *out = r;
  return GPURF_OK;
}

int gpurf_reproduce_read_results(gpurf_ctx *ctx, gpurf_reproduce *r, const char *path) {
  FILE *f = open_results(ctx, path);
  if (!f) return GPURF_EIO;
  int rc = read_lines(ctx, r, f, path, 0);
  close_results(f);
  return rc;
}
