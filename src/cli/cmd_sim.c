/* gpurf sim: runs traces through the register-file pipeline of a design
 * and prints performance, conflicts and energy. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

#define SIM_MAX_RUNS 64

#define SIM_MAX_COUNTERS 32

typedef struct sim_run {
  const char *name;
  int synthetic;
  gpurf_pipeline_stats st;
  gpurf_energy_report *rep; /* allocated by the job runner */
  int n_counters;           /* the technique's */
  char counter_name[SIM_MAX_COUNTERS][48];
  double counter[SIM_MAX_COUNTERS];
} sim_run;

/* The technique of a run: a name and its options. */
typedef struct sim_technique {
  const char *name; /* NULL: none */
  const char *sets[32];
  int n_sets;
} sim_technique;

/* A fresh technique object for one run, its options set (their KEY=VALUE
 * shape was checked when parsed). */
static int technique_new(gpurf_ctx *ctx, const sim_technique *tq, gpurf_technique **out) {
  *out = NULL;
  if (!tq->name) return GPURF_OK;
  int rc = gpurf_technique_alloc(ctx, tq->name, out);
  for (int i = 0; i < tq->n_sets && rc == GPURF_OK; i++) {
    char key[64];
    const char *eq = strchr(tq->sets[i], '=');
    snprintf(key, sizeof key, "%.*s", (int)(eq - tq->sets[i]), tq->sets[i]);
    rc = gpurf_technique_set(ctx, *out, key, eq + 1);
  }
  if (rc != GPURF_OK) {
    gpurf_technique_free(*out);
    *out = NULL;
  }
  return rc;
}

/* The SM parameters --set takes, for --help: the pipeline knows them. */
void cmd_sim_help_tail(FILE *out) {
  fputs("\nSM parameters (--set KEY=VALUE):\n", out);
  const char *const *k = gpurf_pipeline_param_names();
  for (int i = 0; k[i]; i++) {
    fprintf(out, "%s%s", i % 6 ? ", " : "  ", k[i]);
    if (!k[i + 1] || i % 6 == 5) fputs("\n", out);
  }
}

static double area_m2(const gpurf_rf_table *t) {
  double a = 0.0;
  gpurf_metrics_area_total(NULL, t, &a);
  return a;
}

/* IPC per mm^2 of register file; 0 for a table without area (a table file
 * may leave areas out). */
static double ipc_per_mm2(double ipc, double area) {
  double v = 0.0;
  if (area > 0) gpurf_metrics_ipc_per_mm2(NULL, ipc, area, &v);
  return v;
}

/* Progress on a terminal: the runs ended so far. */
static void show_progress(void *arg, int index, int done, int n) {
  const sim_run *runs = arg;
  fprintf(stderr, "\r[%d/%d] %s\033[K", done, n, runs[index].name);
}

/* All runs through the library's job runner, `jobs` at a time; each run
 * takes its job's results (and its energy report). *failed: the first run
 * that failed, -1 when none did. */
static int run_all(gpurf_ctx *ctx, const gpurf_pipeline_params *prm, const gpurf_rf_table *t,
                   const sim_technique *tq, sim_run *runs, int n, uint64_t seed, int jobs,
                   int *failed) {
  *failed = -1;
  gpurf_pipeline_job *job = calloc((size_t)n, sizeof *job);
  if (!job) {
    gpurf_ctx_clear_error(ctx);
    return GPURF_ENOMEM;
  }
  for (int i = 0; i < n; i++) {
    if (runs[i].synthetic)
      job[i].gen = (gpurf_trace_gen_params){runs[i].name, seed, 0, 0, 0, -1};
    else
      job[i].trace = runs[i].name;
    job[i].technique = tq->name;
    job[i].technique_sets = tq->sets;
    job[i].n_technique_sets = tq->n_sets;
  }
  int rc = gpurf_pipeline_run_jobs(ctx, prm, t, job, n, jobs,
                                   isatty(STDERR_FILENO) ? show_progress : NULL, runs);
  for (int i = 0; i < n; i++) {
    if (job[i].status != GPURF_OK && *failed < 0) *failed = i;
    runs[i].st = job[i].stats;
    runs[i].rep = job[i].report;
    runs[i].n_counters = job[i].n_counters < SIM_MAX_COUNTERS ? job[i].n_counters
                                                               : SIM_MAX_COUNTERS;
    for (int k = 0; k < runs[i].n_counters; k++) {
      snprintf(runs[i].counter_name[k], sizeof runs[i].counter_name[0], "%s",
               job[i].counter_name[k]);
      runs[i].counter[k] = job[i].counter[k];
    }
  }
  free(job);
  return rc;
}

static double util_mean(const gpurf_pipeline_stats *s) {
  double u = 0;
  for (int b = 0; b < s->banks; b++) u += s->bank_utilisation[b];
  return s->banks ? u / s->banks : 0;
}

static double util_max(const gpurf_pipeline_stats *s) {
  double u = 0;
  for (int b = 0; b < s->banks; b++) u = s->bank_utilisation[b] > u ? s->bank_utilisation[b] : u;
  return u;
}

static void json_run(jw *w, const sim_run *r, double area) {
  const gpurf_pipeline_stats *s = &r->st;
  jw_str(w, "trace", r->name);
  jw_int(w, "cycles", (long long)s->cycles);
  jw_num(w, "ipc", s->ipc);
  jw_int(w, "warp_instructions", (long long)s->warp_instructions);
  jw_int(w, "ctas", (long long)s->ctas);
  jw_int(w, "warps", (long long)s->warps);
  jw_int(w, "bank_reads", (long long)s->reads);
  jw_int(w, "bank_writes", (long long)s->writes);
  jw_obj_begin(w, "bank_conflicts");
  jw_int(w, "inter_read", (long long)s->conflicts_inter_read);
  jw_int(w, "inter_write", (long long)s->conflicts_inter_write);
  jw_int(w, "intra", (long long)s->conflicts_intra);
  jw_obj_end(w);
  jw_arr_begin(w, "bank_utilisation");
  for (int b = 0; b < s->banks; b++) jw_num(w, NULL, s->bank_utilisation[b]);
  jw_arr_end(w);
  jw_num(w, "operand_fetch_cycles", s->operand_fetch_cycles);
  jw_num(w, "operand_fetch_penalty_cycles", s->operand_fetch_penalty);
  jw_obj_begin(w, "issue_stalls");
  for (int i = 0; i < s->n_stalls; i++) jw_int(w, s->stall_name[i], (long long)s->stalls[i]);
  jw_obj_end(w);
  jw_obj_begin(w, "dispatch_stalls");
  static const char *const units[] = {"alu", "sfu", "shared", "global"};
  for (int u = 0; u < GPURF_PIPELINE_UNIT_COUNT; u++)
    jw_int(w, units[u], (long long)s->dispatch_stalls[u]);
  jw_obj_end(w);
  if (r->n_counters) {
    jw_obj_begin(w, "technique_counters");
    for (int i = 0; i < r->n_counters; i++) jw_num(w, r->counter_name[i], r->counter[i]);
    jw_obj_end(w);
  }
  jw_obj_begin(w, "energy_pj");
  for (int i = 0; i < gpurf_energy_report_components(r->rep); i++)
    jw_num(w, gpurf_energy_report_component_name(r->rep, i),
           gpurf_energy_report_component_total_energy_j(r->rep, i) * 1e12);
  jw_num(w, "dynamic", gpurf_energy_report_dynamic_energy_j(r->rep) * 1e12);
  jw_num(w, "leakage", gpurf_energy_report_leakage_energy_j(r->rep) * 1e12);
  jw_num(w, "total", gpurf_energy_report_total_energy_j(r->rep) * 1e12);
  jw_obj_end(w);
  jw_num(w, "time_s", gpurf_energy_report_seconds(r->rep));
  jw_num(w, "average_power_mw", gpurf_energy_report_average_power_w(r->rep) * 1e3);
  jw_num(w, "ipc_per_mm2", ipc_per_mm2(s->ipc, area));
  jw_num(w, "warp_instructions_per_nj", gpurf_energy_report_instructions_per_j(r->rep) * 1e-9);
  jw_num(w, "edp_j_s", gpurf_energy_report_edp_j_s(r->rep));
}

typedef struct geo {
  double cycles, ipc, energy, edp;
} geo;

/* Geometric means over the runs; a quantity the library refuses (a
 * negative or non-finite value) is NaN, printed as such. */
static geo geomean(const sim_run *runs, int n) {
  double v[4][SIM_MAX_RUNS], m[4];
  for (int i = 0; i < n; i++) {
    v[0][i] = (double)runs[i].st.cycles;
    v[1][i] = runs[i].st.ipc;
    v[2][i] = gpurf_energy_report_total_energy_j(runs[i].rep);
    v[3][i] = gpurf_energy_report_edp_j_s(runs[i].rep);
  }
  for (int k = 0; k < 4; k++)
    if (gpurf_metrics_geomean(NULL, v[k], (size_t)n, &m[k]) != GPURF_OK) m[k] = NAN;
  return (geo){m[0], m[1], m[2], m[3]};
}

static void print_json(sbuf *o, const gpurf_rf_table *t, const sim_run *runs, int n) {
  jw w;
  jw_init(&w, o);
  double area = area_m2(t);
  jw_obj_begin(&w, NULL);
  jw_str(&w, "design", t->design);
  jw_num(&w, "area_mm2", area * 1e6);
  if (n == 1) {
    json_run(&w, &runs[0], area);
  } else {
    jw_arr_begin(&w, "runs");
    for (int i = 0; i < n; i++) {
      jw_obj_begin(&w, NULL);
      json_run(&w, &runs[i], area);
      jw_obj_end(&w);
    }
    jw_arr_end(&w);
    geo g = geomean(runs, n);
    jw_obj_begin(&w, "geomean");
    jw_num(&w, "cycles", g.cycles);
    jw_num(&w, "ipc", g.ipc);
    jw_num(&w, "energy_pj", g.energy * 1e12);
    jw_num(&w, "edp_j_s", g.edp);
    jw_obj_end(&w);
  }
  jw_obj_end(&w);
  jw_finish(&w);
}

static void print_csv(sbuf *o, const gpurf_rf_table *t, const sim_run *runs, int n) {
  sb_printf(o,
            "trace,cycles,ipc,warp_instructions,inter_read,inter_write,intra,"
            "bank_utilisation_mean,operand_fetch_cycles,energy_pj,edp_j_s");
  for (int c = 0; c < t->n_components; c++) sb_printf(o, ",energy_%s_pj", t->components[c].name);
  sb_printf(o, "\n");
  for (int i = 0; i < n; i++) {
    const gpurf_pipeline_stats *s = &runs[i].st;
    sb_printf(o, "%s,%llu,%.6g,%llu,%llu,%llu,%llu,%.6g,%.6g,%.8g,%.6g", runs[i].name,
              (unsigned long long)s->cycles, s->ipc, (unsigned long long)s->warp_instructions,
              (unsigned long long)s->conflicts_inter_read,
              (unsigned long long)s->conflicts_inter_write, (unsigned long long)s->conflicts_intra,
              util_mean(s), s->operand_fetch_cycles,
              gpurf_energy_report_total_energy_j(runs[i].rep) * 1e12,
              gpurf_energy_report_edp_j_s(runs[i].rep));
    for (int c = 0; c < gpurf_energy_report_components(runs[i].rep); c++)
      sb_printf(o, ",%.8g", gpurf_energy_report_component_total_energy_j(runs[i].rep, c) * 1e12);
    sb_printf(o, "\n");
  }
  if (n > 1) {
    geo g = geomean(runs, n);
    sb_printf(o, "geomean,%.6g,%.6g,,,,,,,%.8g,%.6g\n", g.cycles, g.ipc, g.energy * 1e12, g.edp);
  }
}

static void print_text(sbuf *o, const gpurf_rf_table *t, const sim_run *runs, int n) {
  double area = area_m2(t);
  sb_printf(o, "Design %s: register file %.4g mm^2, clock %g GHz\n\n", t->design, area * 1e6,
            t->clock_hz * 1e-9);
  for (int i = 0; i < n; i++) {
    const gpurf_pipeline_stats *s = &runs[i].st;
    const gpurf_energy_report *e = runs[i].rep;
    sb_printf(o, "%s\n", runs[i].name);
    sb_printf(o, "  cycles %llu, warp instructions %llu, IPC %.4f (%llu CTAs, %llu warps)\n",
              (unsigned long long)s->cycles, (unsigned long long)s->warp_instructions, s->ipc,
              (unsigned long long)s->ctas, (unsigned long long)s->warps);
    sb_printf(o, "  bank reads %llu, writes %llu; utilisation mean %.1f%%, max %.1f%%\n",
              (unsigned long long)s->reads, (unsigned long long)s->writes, 100 * util_mean(s),
              100 * util_max(s));
    sb_printf(o, "  bank conflicts: inter-read %llu, inter-write %llu, intra %llu\n",
              (unsigned long long)s->conflicts_inter_read,
              (unsigned long long)s->conflicts_inter_write, (unsigned long long)s->conflicts_intra);
    sb_printf(o, "  operand fetch %.3f cycles (%.3f over conflict-free)\n", s->operand_fetch_cycles,
              s->operand_fetch_penalty);
    sb_printf(o, "  issue stalls (scheduler cycles):");
    for (int k = 0; k < s->n_stalls; k++)
      sb_printf(o, " %s %llu", s->stall_name[k], (unsigned long long)s->stalls[k]);
    if (runs[i].n_counters) sb_printf(o, "\n  technique:");
    for (int k = 0; k < runs[i].n_counters; k++)
      sb_printf(o, " %s %.6g", runs[i].counter_name[k], runs[i].counter[k]);
    sb_printf(o, "\n  energy %.5g pJ (dynamic %.5g, leakage %.5g):",
              gpurf_energy_report_total_energy_j(e) * 1e12,
              gpurf_energy_report_dynamic_energy_j(e) * 1e12,
              gpurf_energy_report_leakage_energy_j(e) * 1e12);
    for (int c = 0; c < gpurf_energy_report_components(e); c++)
      sb_printf(o, " %s %.5g", gpurf_energy_report_component_name(e, c),
                gpurf_energy_report_component_total_energy_j(e, c) * 1e12);
    sb_printf(o, "\n  IPC/mm^2 %.4g, warp instructions/nJ %.4g, EDP %.4g J s\n\n",
              ipc_per_mm2(s->ipc, area), gpurf_energy_report_instructions_per_j(e) * 1e-9,
              gpurf_energy_report_edp_j_s(e));
  }
  if (n > 1) {
    geo g = geomean(runs, n);
    sb_printf(o, "geomean over %d traces: cycles %.6g, IPC %.4f, energy %.5g pJ, EDP %.4g J s\n", n,
              g.cycles, g.ipc, g.energy * 1e12, g.edp);
  }
}

static int parse_set(gpurf_ctx *ctx, const char *prog, const char *kv, gpurf_pipeline_params *p) {
  const char *eq = strchr(kv, '=');
  char key[64];
  if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof key) {
    cli_usage_error(prog, "--set needs KEY=VALUE, not '%s'", kv);
    return CLI_USAGE;
  }
  memcpy(key, kv, (size_t)(eq - kv));
  key[eq - kv] = '\0';
  if (gpurf_pipeline_params_set(ctx, p, key, eq + 1) != GPURF_OK) {
    cli_usage_error(prog, "--set %s: %s", key, gpurf_ctx_error(ctx)->message);
    return CLI_USAGE;
  }
  return CLI_OK;
}

int cmd_sim(gpurf_ctx *ctx, const cli_parsed *p) {
  out_format fmt = p->fmt;
  const char *model = p->pos[0], *sets[64], *name, *v;
  int n_sets = 0, n = 0;
  sim_technique tq = {cli_get(p, "--technique"), {NULL}, 0};
  long long jobs = 1;
  uint64_t seed = 1;
  if (cli_seed_opt(p, "--seed", &seed) || cli_count_opt(p, "--jobs", 256, &jobs))
    return CLI_USAGE;
  sim_run *runs = calloc(SIM_MAX_RUNS, sizeof *runs);
  if (!runs) {
    fprintf(stderr, "gpurf sim: out of memory\n");
    return CLI_FAIL;
  }
  int rc = CLI_OK;
  /* Traces and presets run in the order given. */
  for (int k = 0; rc == CLI_OK && cli_next(p, &k, &name, &v);) {
    if (strcmp(name, "--set") == 0) {
      if (n_sets >= 64) {
        cli_usage_error(p->prog, "at most 64 --set options");
        rc = CLI_USAGE;
      } else {
        sets[n_sets++] = v;
      }
    } else if (strcmp(name, "--technique-set") == 0) {
      const char *eq = strchr(v, '=');
      if (!eq || eq == v || eq - v >= 64 || tq.n_sets >= 32) {
        cli_usage_error(p->prog, "--technique-set needs KEY=VALUE (at most 32), not '%s'", v);
        rc = CLI_USAGE;
      } else {
        tq.sets[tq.n_sets++] = v;
      }
    } else if (n >= SIM_MAX_RUNS) {
      cli_usage_error(p->prog, "at most %d traces", SIM_MAX_RUNS);
      rc = CLI_USAGE;
    } else {
      runs[n].name = v;
      runs[n++].synthetic = strcmp(name, "--workload") == 0;
    }
  }
  if (rc == CLI_OK) {
    const char *inputs[SIM_MAX_RUNS + 1];
    int n_in = 0;
    inputs[n_in++] = model;
    for (int i = 0; i < n; i++)
      if (!runs[i].synthetic) inputs[n_in++] = runs[i].name;
    rc = cli_stdin_once(p->prog, inputs, n_in);
  }
  if (rc == CLI_OK && tq.name && !strcmp(tq.name, "list")) {
    for (int i = 0; i < gpurf_technique_count(); i++)
      printf("%-12s %s\n", gpurf_technique_name_at(i),
             gpurf_technique_summary(gpurf_technique_name_at(i)));
    free(runs);
    return CLI_OK;
  }
  if (rc == CLI_OK && tq.n_sets && !tq.name) {
    cli_usage_error(p->prog, "--technique-set needs --technique NAME");
    rc = CLI_USAGE;
  }
  if (rc == CLI_OK && tq.name) { /* a bad name or option is a usage error, before any run */
    gpurf_technique *check = NULL;
    if (technique_new(ctx, &tq, &check) != GPURF_OK) {
      const gpurf_error *e = gpurf_ctx_error(ctx);
      if (!strcmp(e->field, "technique"))
        cli_usage_error(p->prog, "%s", e->message);
      else
        cli_usage_error(p->prog, "--technique-set %s: %s", e->field, e->message);
      rc = CLI_USAGE;
    }
    gpurf_technique_free(check);
  }
  if (rc == CLI_OK && n == 0) {
    cli_usage_error(p->prog, "needs --trace PATH or --workload NAME");
    rc = CLI_USAGE;
  }
  gpurf_rf_design *design = NULL;
  gpurf_rf_table *table = NULL;
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  if (rc == CLI_OK) {
    design = calloc(1, sizeof *design);
    table = calloc(1, sizeof *table);
    if (!design || !table) {
      fprintf(stderr, "gpurf sim: out of memory\n");
      rc = CLI_FAIL;
    } else if (gpurf_rf_design_load(ctx, model ? model : "fermi-baseline", design) != GPURF_OK ||
               gpurf_rf_design_table(ctx, design, table) != GPURF_OK) {
      cli_print_error(ctx);
      rc = CLI_FAIL;
    }
  }
  if (rc == CLI_OK) {
    gpurf_pipeline_params_from_design(&prm, design);
    gpurf_pipeline_params_from_table(&prm, table);
    for (int i = 0; i < n_sets && rc == CLI_OK; i++) rc = parse_set(ctx, p->prog, sets[i], &prm);
  }
  if (rc == CLI_OK && gpurf_pipeline_params_check(ctx, &prm) != GPURF_OK) {
    cli_usage_error(p->prog, "--set %s: %s", gpurf_ctx_error(ctx)->field,
                    gpurf_ctx_error(ctx)->message);
    rc = CLI_USAGE;
  }
  int tty = isatty(STDERR_FILENO), failed = -1;
  if (rc == CLI_OK) {
    int st = run_all(ctx, &prm, table, &tq, runs, n, seed, (int)jobs, &failed);
    if (tty) fprintf(stderr, "\r\033[K");
    const gpurf_error *e = gpurf_ctx_error(ctx);
    if (st == GPURF_ENOMEM && failed < 0) {
      fprintf(stderr, "gpurf sim: out of memory\n");
      rc = CLI_FAIL;
    } else if (st != GPURF_OK && failed >= 0 && runs[failed].synthetic &&
               e->status == GPURF_ENOTFOUND) {
      cli_usage_error(p->prog, "%s", e->message);
      rc = CLI_USAGE;
    } else if (st != GPURF_OK) {
      cli_print_error(ctx);
      rc = CLI_FAIL;
    }
  }
  if (rc == CLI_OK) {
    sbuf out;
    sb_init(&out);
    if (fmt == FMT_JSON)
      print_json(&out, table, runs, n);
    else if (fmt == FMT_CSV)
      print_csv(&out, table, runs, n);
    else
      print_text(&out, table, runs, n);
    rc = sb_flush_stdout(&out);
    sb_free(&out);
  }
  free(design);
  free(table);
  for (int i = 0; i < n; i++) gpurf_energy_report_free(runs[i].rep);
  free(runs);
  return rc;
}
