/* gpurf energy: re-costs a counters file (native or AccelWattch) with the
 * costs of a primitive table, through the same engine a linked simulator
 * uses. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "gpurf/events.h"

/* The costs behind the events. A design file (a models/ YAML) would be
 * turned into its table here as well, so the command takes either. */
static int load_costs(gpurf_ctx *ctx, const char *path, gpurf_rf_table *table) {
  return gpurf_rf_costs_load(ctx, path, table);
}

typedef struct energy_args {
  const char *table, *counts;
  out_format fmt;
  const char *sim_log;
  /* A report on standard input or a pipe is read twice (its counters,
   * then the run around them) from a copy: read is that copy, shown the
   * name messages give it. Else both are counts. */
  const char *read, *shown;
} energy_args;

/* The report's path as the output names it. */
static const char *report_shown(const energy_args *o, const gpurf_accelwattch_run *run) {
  const char *p = gpurf_accelwattch_run_report_path(run);
  return strcmp(p, o->read) == 0 ? o->shown : p;
}

/* AccelWattch's register-file power beside ours. Ours is put on the run's
 * time base (the simulated core clock, when the log gives it): dynamic
 * energy over the run's seconds plus our leakage power, which does not
 * depend on the clock. */
typedef struct aw_compare {
  const gpurf_accelwattch_run *run; /* NULL: not an AccelWattch run */
  int shown;
  double clock_hz, seconds, ours_w, theirs_w, ratio;
} aw_compare;

static void aw_compare_fill(aw_compare *c, const gpurf_accelwattch_run *run,
                            const gpurf_energy_report *r) {
  memset(c, 0, sizeof *c);
  c->run = run;
  if (!run) return;
  c->theirs_w = gpurf_accelwattch_run_rf_power_w(run);
  c->shown = c->theirs_w >= 0.0 || gpurf_accelwattch_run_sim_log_path(run)[0];
  double f = gpurf_accelwattch_run_core_clock_hz(run);
  c->clock_hz = f > 0.0 ? f : gpurf_energy_report_clock_hz(r);
  c->seconds = (double)gpurf_energy_report_cycles(r) / c->clock_hz;
  double dyn = gpurf_energy_report_total_energy_j(r) - gpurf_energy_report_leakage_energy_j(r);
  c->ours_w = c->seconds > 0.0 ? dyn / c->seconds + gpurf_energy_report_leakage_power_w(r) : 0.0;
  c->ratio = c->theirs_w > 0.0 ? c->ours_w / c->theirs_w : 0.0;
}

static void aw_json(jw *w, const energy_args *o, const aw_compare *c) {
  const gpurf_accelwattch_run *run = c->run;
  jw_obj_begin(w, "accelwattch");
  jw_str(w, "report", report_shown(o, run));
  jw_str(w, "sim_log", gpurf_accelwattch_run_sim_log_path(run));
  jw_int(w, "gpu_tot_sim_cycle", (long long)gpurf_accelwattch_run_tot_sim_cycles(run));
  jw_num(w, "run_clock_hz", c->clock_hz);
  jw_arr_begin(w, "kernels");
  for (int k = 0; k < gpurf_accelwattch_run_kernels(run); k++) {
    jw_obj_begin(w, NULL);
    jw_str(w, "name", gpurf_accelwattch_run_kernel_name(run, k));
    jw_int(w, "cycles", (long long)gpurf_accelwattch_run_kernel_cycles(run, k));
    if (gpurf_accelwattch_run_kernel_rf_power_w(run, k) >= 0.0)
      jw_num(w, "rf_power_w", gpurf_accelwattch_run_kernel_rf_power_w(run, k));
    jw_obj_end(w);
  }
  jw_arr_end(w);
  jw_num(w, "ours_rf_power_w", c->ours_w);
  if (c->theirs_w >= 0.0) {
    jw_num(w, "accelwattch_rf_power_w", c->theirs_w);
    if (c->theirs_w > 0.0) jw_num(w, "ratio", c->ratio);
  }
  jw_obj_end(w);
}

static void aw_text(sbuf *out, const energy_args *o, const aw_compare *c) {
  const gpurf_accelwattch_run *run = c->run;
  int n = gpurf_accelwattch_run_kernels(run);
  sb_printf(out, "\nAccelWattch run: report %s", report_shown(o, run));
  if (gpurf_accelwattch_run_sim_log_path(run)[0])
    sb_printf(out, ", cycles from %s", gpurf_accelwattch_run_sim_log_path(run));
  sb_printf(out, "\n  %-40s %14s %18s\n", "kernel", "gpu_sim_cycle", "gpu_avg_RFP W");
  for (int k = 0; k < n; k++) {
    double w = gpurf_accelwattch_run_kernel_rf_power_w(run, k);
    sb_printf(out, "  %-40.40s %14llu ", gpurf_accelwattch_run_kernel_name(run, k),
              (unsigned long long)gpurf_accelwattch_run_kernel_cycles(run, k));
    if (w >= 0.0) sb_printf(out, "%18.6g\n", w);
    else sb_printf(out, "%18s\n", "(none)");
  }
  sb_printf(out, "  register-file power at %g GHz over %.6g s: ours %.6g W", c->clock_hz * 1e-9,
            c->seconds, c->ours_w);
  if (c->theirs_w >= 0.0) sb_printf(out, ", AccelWattch %.6g W", c->theirs_w);
  if (c->theirs_w > 0.0) sb_printf(out, ", ours/AccelWattch %.4g", c->ratio);
  sb_printf(out, "\n");
}

static const char *format_name(gpurf_counts_format f) {
  return f == GPURF_COUNTS_ACCELWATTCH ? "accelwattch" : "gpurf-counters";
}

static void print_json(sbuf *out, const energy_args *o, const gpurf_counts_info *info,
                       const gpurf_energy_report *r, const aw_compare *aw) {
  jw w;
  jw_init(&w, out);
  jw_obj_begin(&w, NULL);
  jw_str(&w, "design", gpurf_energy_report_design(r));
  jw_str(&w, "table", o->table);
  jw_str(&w, "counts", o->counts);
  jw_str(&w, "counts_format", format_name(info->format));
  jw_num(&w, "clock_hz", gpurf_energy_report_clock_hz(r));
  jw_int(&w, "cycles", (long long)gpurf_energy_report_cycles(r));
  jw_num(&w, "seconds", gpurf_energy_report_seconds(r));
  jw_int(&w, "instructions", (long long)gpurf_energy_report_instructions(r));
  jw_obj_begin(&w, "energy_j");
  jw_num(&w, "total", gpurf_energy_report_total_energy_j(r));
  jw_num(&w, "dynamic", gpurf_energy_report_dynamic_energy_j(r));
  jw_num(&w, "leakage", gpurf_energy_report_leakage_energy_j(r));
  jw_num(&w, "wake", gpurf_energy_report_wake_energy_j(r));
  jw_obj_begin(&w, "by_component");
  for (int c = 0; c < gpurf_energy_report_components(r); c++)
    jw_num(&w, gpurf_energy_report_component_name(r, c),
           gpurf_energy_report_component_total_energy_j(r, c));
  jw_obj_end(&w);
  jw_obj_end(&w);
  jw_num(&w, "average_power_w", gpurf_energy_report_average_power_w(r));
  jw_num(&w, "dynamic_power_w", gpurf_energy_report_dynamic_power_w(r));
  jw_num(&w, "leakage_power_w", gpurf_energy_report_leakage_power_w(r));
  jw_num(&w, "edp_j_s", gpurf_energy_report_edp_j_s(r));
  if (gpurf_energy_report_instructions(r) > 0) {
    jw_num(&w, "ipc", gpurf_energy_report_ipc(r));
    jw_num(&w, "energy_per_instruction_j", gpurf_energy_report_energy_per_instruction_j(r));
    jw_num(&w, "instructions_per_j", gpurf_energy_report_instructions_per_j(r));
  }
  jw_arr_begin(&w, "components");
  for (int c = 0; c < gpurf_energy_report_components(r); c++) {
    jw_obj_begin(&w, NULL);
    jw_str(&w, "name", gpurf_energy_report_component_name(r, c));
    jw_str(&w, "kind", gpurf_energy_report_component_kind(r, c));
    jw_int(&w, "instances", gpurf_energy_report_component_instances(r, c));
    jw_num(&w, "dynamic_energy_j", gpurf_energy_report_component_dynamic_energy_j(r, c));
    jw_num(&w, "leakage_energy_j", gpurf_energy_report_component_leakage_energy_j(r, c));
    jw_num(&w, "total_energy_j", gpurf_energy_report_component_total_energy_j(r, c));
    jw_arr_begin(&w, "events");
    for (int v = 0; v < gpurf_energy_report_events(r, c); v++) {
      jw_obj_begin(&w, NULL);
      jw_str(&w, "name", gpurf_energy_report_event_name(r, c, v));
      jw_int(&w, "count", (long long)gpurf_energy_report_event_count(r, c, v));
      jw_num(&w, "energy_j", gpurf_energy_report_event_energy_j(r, c, v));
      jw_obj_end(&w);
    }
    jw_arr_end(&w);
    if (gpurf_energy_report_component_subarrays(r, c) > 0) {
      jw_int(&w, "gated_subarray_cycles",
             (long long)gpurf_energy_report_component_gated_subarray_cycles(r, c));
      jw_int(&w, "wakeups", (long long)gpurf_energy_report_component_wakeups(r, c));
      jw_num(&w, "wake_energy_j", gpurf_energy_report_component_wake_energy_j(r, c));
      jw_num(&w, "wake_time_s", gpurf_energy_report_component_wake_time_s(r, c));
      jw_num(&w, "leakage_saved_j", gpurf_energy_report_component_leakage_saved_j(r, c));
    }
    jw_obj_end(&w);
  }
  jw_arr_end(&w);
  if (info->format == GPURF_COUNTS_ACCELWATTCH) {
    jw_int(&w, "kernels", info->kernels);
    jw_arr_begin(&w, "counter_mapping");
    for (int m = 0; m < info->n_mappings; m++) {
      const gpurf_counter_mapping *p = &info->mappings[m];
      jw_obj_begin(&w, NULL);
      jw_str(&w, "counter", p->counter);
      jw_num(&w, "thread_operands", p->thread_operands);
      jw_int(&w, "warp_accesses", (long long)p->warp_accesses);
      jw_arr_begin(&w, "became");
      for (int t = 0; t < p->n_targets; t++) jw_str(&w, NULL, p->targets[t]);
      jw_arr_end(&w);
      jw_obj_end(&w);
    }
    jw_arr_end(&w);
  }
  if (aw->shown) aw_json(&w, o, aw);
  jw_obj_end(&w);
  jw_finish(&w);
}

static void print_text(sbuf *out, const energy_args *o, const gpurf_counts_info *info,
                       const gpurf_energy_report *r, const aw_compare *aw) {
  sb_printf(out, "Energy of %s (%s) with the costs of %s (design %s)\n", o->counts,
            format_name(info->format), o->table, gpurf_energy_report_design(r));
  sb_printf(out, "%llu cycles at %g GHz = %.6g s",
            (unsigned long long)gpurf_energy_report_cycles(r),
            gpurf_energy_report_clock_hz(r) * 1e-9, gpurf_energy_report_seconds(r));
  if (gpurf_energy_report_instructions(r) > 0)
    sb_printf(out, ", %llu instructions (IPC %.4g)",
              (unsigned long long)gpurf_energy_report_instructions(r), gpurf_energy_report_ipc(r));
  sb_printf(out, "\n");
  if (info->format == GPURF_COUNTS_ACCELWATTCH) {
    sb_printf(out, "\nAccelWattch counters (%d kernel%s; 32 thread operands = 1 warp access)\n",
              info->kernels, info->kernels == 1 ? "" : "s");
    for (int m = 0; m < info->n_mappings; m++) {
      const gpurf_counter_mapping *p = &info->mappings[m];
      sb_printf(out, "  %-12s %14.6g thread operands -> %llu warp accesses -> ", p->counter,
                p->thread_operands, (unsigned long long)p->warp_accesses);
      if (p->n_targets == 0) sb_printf(out, "not costed (the table has no such component)");
      for (int t = 0; t < p->n_targets; t++) sb_printf(out, "%s%s", t ? ", " : "", p->targets[t]);
      sb_printf(out, "\n");
    }
  }
  sb_printf(out, "\n  %-24s %16s %14s\n", "component / event", "count", "energy uJ");
  for (int c = 0; c < gpurf_energy_report_components(r); c++) {
    sb_printf(out, "  %-24s %16s %14.6g  (%d x %s)\n", gpurf_energy_report_component_name(r, c), "",
              gpurf_energy_report_component_total_energy_j(r, c) * 1e6,
              gpurf_energy_report_component_instances(r, c),
              gpurf_energy_report_component_kind(r, c));
    for (int v = 0; v < gpurf_energy_report_events(r, c); v++)
      sb_printf(out, "    %-22s %16llu %14.6g\n", gpurf_energy_report_event_name(r, c, v),
                (unsigned long long)gpurf_energy_report_event_count(r, c, v),
                gpurf_energy_report_event_energy_j(r, c, v) * 1e6);
    if (gpurf_energy_report_component_subarrays(r, c) > 0)
      sb_printf(out, "    %-22s %16llu %14.6g  (%llu gated sub-array cycles, %.6g uJ saved)\n",
                "wake-up", (unsigned long long)gpurf_energy_report_component_wakeups(r, c),
                gpurf_energy_report_component_wake_energy_j(r, c) * 1e6,
                (unsigned long long)gpurf_energy_report_component_gated_subarray_cycles(r, c),
                gpurf_energy_report_component_leakage_saved_j(r, c) * 1e6);
    sb_printf(out, "    %-22s %16s %14.6g\n", "leakage", "",
              gpurf_energy_report_component_leakage_energy_j(r, c) * 1e6);
  }
  sb_printf(out, "\n  %-24s %14.6g uJ\n", "dynamic energy",
            gpurf_energy_report_dynamic_energy_j(r) * 1e6);
  sb_printf(out, "  %-24s %14.6g uJ\n", "leakage energy",
            gpurf_energy_report_leakage_energy_j(r) * 1e6);
  sb_printf(out, "  %-24s %14.6g uJ\n", "total energy",
            gpurf_energy_report_total_energy_j(r) * 1e6);
  sb_printf(out, "  %-24s %14.6g mW\n", "average power",
            gpurf_energy_report_average_power_w(r) * 1e3);
  sb_printf(out, "  %-24s %14.6g J s\n", "energy-delay product", gpurf_energy_report_edp_j_s(r));
  if (gpurf_energy_report_instructions(r) > 0) {
    sb_printf(out, "  %-24s %14.6g pJ\n", "energy per instruction",
              gpurf_energy_report_energy_per_instruction_j(r) * 1e12);
    sb_printf(out, "  %-24s %14.6g\n", "instructions per joule",
              gpurf_energy_report_instructions_per_j(r));
  }
  if (aw->shown) aw_text(out, o, aw);
}

static void print_csv(sbuf *out, const gpurf_energy_report *r) {
  sb_printf(out, "component,event,count,energy_j\n");
  for (int c = 0; c < gpurf_energy_report_components(r); c++) {
    for (int v = 0; v < gpurf_energy_report_events(r, c); v++)
      sb_printf(out, "%s,%s,%llu,%.9g\n", gpurf_energy_report_component_name(r, c),
                gpurf_energy_report_event_name(r, c, v),
                (unsigned long long)gpurf_energy_report_event_count(r, c, v),
                gpurf_energy_report_event_energy_j(r, c, v));
    if (gpurf_energy_report_component_subarrays(r, c) > 0)
      sb_printf(out, "%s,wake,%llu,%.9g\n", gpurf_energy_report_component_name(r, c),
                (unsigned long long)gpurf_energy_report_component_wakeups(r, c),
                gpurf_energy_report_component_wake_energy_j(r, c));
    sb_printf(out, "%s,leakage,%llu,%.9g\n", gpurf_energy_report_component_name(r, c),
              (unsigned long long)gpurf_energy_report_cycles(r),
              gpurf_energy_report_component_leakage_energy_j(r, c));
  }
  sb_printf(out, "total,dynamic,,%.9g\ntotal,leakage,,%.9g\ntotal,total,%llu,%.9g\n",
            gpurf_energy_report_dynamic_energy_j(r), gpurf_energy_report_leakage_energy_j(r),
            (unsigned long long)gpurf_energy_report_cycles(r),
            gpurf_energy_report_total_energy_j(r));
}

static int is_directory(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* load()'s status for an error it printed itself. */
enum { PRINTED = -1 };

/* Reads the counts (and, for an AccelWattch report or run directory, the
 * run around them) into the engine and gives it its cycles. */
static int load(gpurf_ctx *ctx, const energy_args *o, long long cycles, gpurf_energy *engine,
                gpurf_counts_info *info, gpurf_accelwattch_run **aw) {
  const char *counts = o->read;
  /* A copy has no directory of its own to find a simulator log in. */
  int flags = cycles > 0 || o->read != o->counts ? GPURF_ACCELWATTCH_NO_SEARCH : 0;
  if (is_directory(o->counts)) {
    if (gpurf_accelwattch_run_alloc(ctx, aw) != GPURF_OK ||
        gpurf_accelwattch_run_read(ctx, *aw, o->counts, o->sim_log, flags) != GPURF_OK)
      return CLI_FAIL;
    counts = gpurf_accelwattch_run_report_path(*aw);
  }
  if (gpurf_energy_load_counts(ctx, engine, counts, info) != GPURF_OK) return CLI_FAIL;
  if (info->format != GPURF_COUNTS_ACCELWATTCH && o->sim_log) {
    cli_errorf("%s: --sim-log is for AccelWattch reports; this is a gpurf counters file",
            counts == o->read ? o->shown : counts);
    return PRINTED;
  }
  if (info->format == GPURF_COUNTS_ACCELWATTCH && !*aw &&
      (gpurf_accelwattch_run_alloc(ctx, aw) != GPURF_OK ||
       gpurf_accelwattch_run_read(ctx, *aw, counts, o->sim_log, flags) != GPURF_OK))
    return CLI_FAIL;
  if (cycles > 0 && info->has_cycles) {
    cli_errorf("%s: the file gives its cycles (%llu); --cycles is for files without",
            counts == o->read ? o->shown : counts, (unsigned long long)info->cycles);
    return PRINTED;
  }
  if (!info->has_cycles && *aw && gpurf_accelwattch_run_has_cycles(*aw))
    cycles = (long long)gpurf_accelwattch_run_cycles(*aw);
  if (cycles > 0) {
    gpurf_energy_advance(engine, (uint64_t)cycles);
  } else if (!info->has_cycles) {
    cli_errorf("%s: no gpu_sim_cycle lines and no simulator log beside it: give the cycles "
            "with --cycles N or the log with --sim-log FILE", counts == o->read ? o->shown : counts);
    return PRINTED;
  }
  return CLI_OK;
}

static int run(gpurf_ctx *ctx, const energy_args *o, long long instructions, long long cycles) {
  gpurf_rf_table table;
  gpurf_energy *engine = NULL;
  gpurf_counts_info info;
  gpurf_energy_report *rep = NULL;
  gpurf_accelwattch_run *aw = NULL;
  int rc = CLI_FAIL;
  if (load_costs(ctx, o->table, &table) == GPURF_OK &&
      gpurf_energy_alloc(ctx, &table, &engine) == GPURF_OK)
    rc = load(ctx, o, cycles, engine, &info, &aw);
  if (rc != CLI_OK) {
    if (rc != PRINTED) cli_print_error_as(ctx, o->read, o->shown);
    gpurf_energy_free(engine);
    gpurf_accelwattch_run_free(aw);
    return CLI_FAIL;
  }
  gpurf_energy_report_in in = {instructions > 0 ? (uint64_t)instructions : info.instructions};
  rc = gpurf_energy_report_alloc(ctx, &rep);
  if (rc == GPURF_OK) rc = gpurf_energy_report_get(ctx, engine, &in, rep);
  gpurf_energy_free(engine);
  if (rc != GPURF_OK) {
    cli_print_error(ctx);
    gpurf_energy_report_free(rep);
    gpurf_accelwattch_run_free(aw);
    return CLI_FAIL;
  }
  aw_compare cmp;
  aw_compare_fill(&cmp, aw, rep);
  sbuf out;
  sb_init(&out);
  if (o->fmt == FMT_JSON)
    print_json(&out, o, &info, rep, &cmp);
  else if (o->fmt == FMT_CSV)
    print_csv(&out, rep);
  else
    print_text(&out, o, &info, rep, &cmp);
  gpurf_energy_report_free(rep);
  gpurf_accelwattch_run_free(aw);
  rc = sb_flush_stdout(&out);
  sb_free(&out);
  return rc;
}

int cmd_energy(gpurf_ctx *ctx, const cli_parsed *p) {
  energy_args o = {p->pos[0], p->pos[1], p->fmt, cli_get(p, "--sim-log"), p->pos[1], p->pos[1]};
  long long instructions = 0, cycles = 0;
  if (cli_get(p, "--cycles") && o.sim_log) {
    cli_usage_error(p->prog, "--cycles and --sim-log both give the cycles; give one");
    return CLI_USAGE;
  }
  const char *inputs[] = {o.table, o.counts, o.sim_log};
  if (cli_count_opt(p, "--instructions", INT64_MAX, &instructions) ||
      cli_count_opt(p, "--cycles", INT64_MAX, &cycles) || cli_stdin_once(p->prog, inputs, 3))
    return CLI_USAGE;
  /* Counters files and reports are small: a copy of more than this is an
   * endless stream, not one. */
  char tmp[4200];
  int slot = -1, spooled = 0;
  if (o.counts && cli_spool_input(o.counts, 64LL << 20, tmp, sizeof tmp, &slot, &spooled) != 0)
    return CLI_FAIL;
  if (spooled) {
    o.read = tmp;
    o.shown = strcmp(o.counts, "-") == 0 ? "<stdin>" : o.counts;
  }
  int rc = run(ctx, &o, instructions, cycles);
  if (spooled) remove(tmp);
  cli_cleanup_remove(slot);
  return rc;
}
