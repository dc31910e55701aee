/* gpurf energy: re-costs a counters file (native or AccelWattch) with the
 * costs of a primitive table, through the same engine a linked simulator
 * uses. */
#include <stdio.h>
#include <string.h>

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
} energy_args;

static const char *format_name(gpurf_counts_format f) {
  return f == GPURF_COUNTS_ACCELWATTCH ? "accelwattch" : "gpurf-counters";
}

static void print_json(sbuf *out, const energy_args *o, const gpurf_counts_info *info,
                       const gpurf_energy_report *r) {
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
  jw_obj_end(&w);
  jw_finish(&w);
}

static void print_text(sbuf *out, const energy_args *o, const gpurf_counts_info *info,
                       const gpurf_energy_report *r) {
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

static int run(gpurf_ctx *ctx, const energy_args *o, long long instructions, long long cycles) {
  gpurf_rf_table table;
  gpurf_energy *engine = NULL;
  gpurf_counts_info info;
  gpurf_energy_report *rep = NULL;
  if (load_costs(ctx, o->table, &table) != GPURF_OK ||
      gpurf_energy_alloc(ctx, &table, &engine) != GPURF_OK ||
      gpurf_energy_load_counts(ctx, engine, o->counts, &info) != GPURF_OK) {
    cli_print_error(ctx);
    gpurf_energy_free(engine);
    return CLI_FAIL;
  }
  if (cycles > 0 && info.has_cycles) {
    gpurf_energy_free(engine);
    fprintf(stderr, "%s: the file gives its cycles (%llu); --cycles is for files without\n",
            o->counts, (unsigned long long)info.cycles);
    return CLI_FAIL;
  }
  if (cycles > 0) {
    gpurf_energy_advance(engine, (uint64_t)cycles);
  } else if (!info.has_cycles) {
    gpurf_energy_free(engine);
    fprintf(stderr, "%s: no gpu_sim_cycle lines: give the cycles the counts cover with --cycles N\n",
            o->counts);
    return CLI_FAIL;
  }
  gpurf_energy_report_in in = {instructions > 0 ? (uint64_t)instructions : info.instructions};
  int rc = gpurf_energy_report_alloc(ctx, &rep);
  if (rc == GPURF_OK) rc = gpurf_energy_report_get(ctx, engine, &in, rep);
  gpurf_energy_free(engine);
  if (rc != GPURF_OK) {
    cli_print_error(ctx);
    gpurf_energy_report_free(rep);
    return CLI_FAIL;
  }
  sbuf out;
  sb_init(&out);
  if (o->fmt == FMT_JSON)
    print_json(&out, o, &info, rep);
  else if (o->fmt == FMT_CSV)
    print_csv(&out, rep);
  else
    print_text(&out, o, &info, rep);
  gpurf_energy_report_free(rep);
  rc = sb_flush_stdout(&out);
  sb_free(&out);
  return rc;
}

int cmd_energy(gpurf_ctx *ctx, const cli_parsed *p) {
  energy_args o = {p->pos[0], p->pos[1], p->fmt};
  long long instructions = 0, cycles = 0;
  if (cli_count_opt(p, "--instructions", INT64_MAX, &instructions) ||
      cli_count_opt(p, "--cycles", INT64_MAX, &cycles))
    return CLI_USAGE;
  return run(ctx, &o, instructions, cycles);
}
