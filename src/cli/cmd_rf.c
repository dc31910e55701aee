/* gpurf rf MODEL: the primitive table of a register-file design. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* Cycles of a component's time at the design's clock. The summary has
 * checked the clock and every time of the table, so the count exists. */
static int cycles_of(double t_s, double clock_hz) {
  long long c = 0;
  gpurf_metrics_cycles(NULL, t_s, clock_hz, &c);
  return (int)c;
}

static void print_text(sbuf *o, const gpurf_rf_design *d, const gpurf_rf_table *t,
                       const gpurf_metrics_summary *a) {
  sb_printf(o, "Design %s (%s)\n  source: %s\n", d->design, d->path, d->source);
  sb_printf(o, "  %s %s, %g K, clock %g GHz\n\n", d->tech, gpurf_device_kind_name(d->device), d->temp_k, t->clock_hz * 1e-9);
  sb_printf(o, "%-14s %-14s %9s  %-10s %12s  %14s  %14s  %s\n", "component", "kind", "instances",
            "event", "energy pJ", "leakage mW/ea", "area mm^2/ea", "time ns (cycles)");
  for (int i = 0; i < t->n_components; i++) {
    const gpurf_rf_component *c = &t->components[i];
    for (int e = 0; e < c->n_events; e++) {
      if (e == 0)
        sb_printf(o, "%-14s %-14s %9d  %-10s %12.5g  %14.5g  %14.5g  %7.4g (%d)\n", c->name, c->kind,
                  c->instances, c->events[e].name, c->events[e].energy_j * 1e12, c->leakage_w * 1e3,
                  c->area_m2 * 1e6, c->access_time_s * 1e9,
                  cycles_of(c->access_time_s, t->clock_hz));
      else if (e == 1 && c->write_time_s > 0.0)
        sb_printf(o, "%-14s %-14s %9s  %-10s %12.5g  %14s  %14s  %7.4g (%d)\n", "", "", "",
                  c->events[e].name, c->events[e].energy_j * 1e12, "", "",
                  c->write_time_s * 1e9, cycles_of(c->write_time_s, t->clock_hz));
      else
        sb_printf(o, "%-14s %-14s %9s  %-10s %12.5g\n", "", "", "", c->events[e].name,
                  c->events[e].energy_j * 1e12);
    }
  }
  for (int i = 0; i < t->n_components; i++) {
    const gpurf_rf_component *c = &t->components[i];
    if (c->subarrays <= 0) continue;
    sb_printf(o, "\nPower gating of %s: %d groups per instance; a gated group leaks %.4g of its "
              "share,\n  waking one costs %.5g pJ and %.4g ns (%d cycle%s)\n",
              c->name, c->subarrays, c->gated_leakage_fraction, c->wake_energy_j * 1e12,
              c->wake_latency_s * 1e9, cycles_of(c->wake_latency_s, t->clock_hz),
              cycles_of(c->wake_latency_s, t->clock_hz) == 1 ? "" : "s");
  }
  long long cycles = gpurf_metrics_summary_read_path_cycles(a);
  sb_printf(o, "\nArea %.5g mm^2: cell arrays %.5g, bank periphery %.5g, crossbar %.5g, arbiter %.5g, "
            "extra structures %.5g\nLeakage %.5g mW (all instances)\n",
            gpurf_metrics_summary_area_total_m2(a) * 1e6,
            gpurf_metrics_summary_area_m2(a, GPURF_METRICS_AREA_CELLS) * 1e6,
            gpurf_metrics_summary_area_m2(a, GPURF_METRICS_AREA_PERIPHERY) * 1e6,
            gpurf_metrics_summary_area_m2(a, GPURF_METRICS_AREA_CROSSBAR) * 1e6,
            gpurf_metrics_summary_area_m2(a, GPURF_METRICS_AREA_ARBITER) * 1e6,
            gpurf_metrics_summary_area_m2(a, GPURF_METRICS_AREA_EXTRAS) * 1e6,
            gpurf_metrics_summary_leakage_total_w(a) * 1e3);
  sb_printf(o, "Operand read path %.4g ns (%lld cycle%s): arbiter %.4g, slowest storage access %.4g, "
            "crossbar %.4g ns\n", gpurf_metrics_summary_read_path_total_s(a) * 1e9, cycles,
            cycles == 1 ? "" : "s",
            gpurf_metrics_summary_read_path_s(a, GPURF_METRICS_PATH_ARBITER) * 1e9,
            gpurf_metrics_summary_read_path_s(a, GPURF_METRICS_PATH_BANK) * 1e9,
            gpurf_metrics_summary_read_path_s(a, GPURF_METRICS_PATH_CROSSBAR) * 1e9);
}

static void print_json(sbuf *o, const gpurf_rf_design *d, const gpurf_rf_table *t,
                       const gpurf_metrics_summary *a) {
  jw w;
  jw_init(&w, o);
  jw_obj_begin(&w, NULL);
  jw_str(&w, "design", d->design);
  jw_str(&w, "source", d->source);
  jw_str(&w, "tech", d->tech);
  jw_str(&w, "device", gpurf_device_kind_name(d->device));
  jw_num(&w, "temp_k", d->temp_k);
  jw_num(&w, "clock_ghz", t->clock_hz * 1e-9);
  jw_arr_begin(&w, "components");
  for (int i = 0; i < t->n_components; i++) {
    const gpurf_rf_component *c = &t->components[i];
    jw_obj_begin(&w, NULL);
    jw_str(&w, "name", c->name);
    jw_str(&w, "kind", c->kind);
    jw_int(&w, "instances", c->instances);
    jw_num(&w, "leakage_mw_each", c->leakage_w * 1e3);
    jw_num(&w, "area_mm2_each", c->area_m2 * 1e6);
    jw_num(&w, "area_cells_mm2_each", c->area_cells_m2 * 1e6);
    jw_num(&w, "access_time_ns", c->access_time_s * 1e9);
    jw_int(&w, "access_cycles", cycles_of(c->access_time_s, t->clock_hz));
    jw_num(&w, "write_time_ns", c->write_time_s * 1e9);
    jw_int(&w, "write_cycles", cycles_of(c->write_time_s, t->clock_hz));
    jw_obj_begin(&w, "energy_pj");
    for (int e = 0; e < c->n_events; e++) jw_num(&w, c->events[e].name, c->events[e].energy_j * 1e12);
    jw_obj_end(&w);
    if (c->subarrays > 0) {
      jw_obj_begin(&w, "power_gating");
      jw_int(&w, "groups", c->subarrays);
      jw_num(&w, "gated_leakage_fraction", c->gated_leakage_fraction);
      jw_num(&w, "wake_energy_pj", c->wake_energy_j * 1e12);
      jw_num(&w, "wake_latency_ns", c->wake_latency_s * 1e9);
      jw_int(&w, "wake_cycles", cycles_of(c->wake_latency_s, t->clock_hz));
      jw_obj_end(&w);
    }
    jw_obj_end(&w);
  }
  jw_arr_end(&w);
  jw_obj_begin(&w, "totals");
  jw_num(&w, "area_mm2", gpurf_metrics_summary_area_total_m2(a) * 1e6);
  jw_obj_begin(&w, "area_breakdown_mm2");
  for (int p = 0; p < GPURF_METRICS_AREA_ROLES; p++)
    jw_num(&w, gpurf_metrics_area_role_name(p), gpurf_metrics_summary_area_m2(a, p) * 1e6);
  jw_obj_end(&w);
  jw_num(&w, "leakage_mw", gpurf_metrics_summary_leakage_total_w(a) * 1e3);
  jw_num(&w, "read_path_ns", gpurf_metrics_summary_read_path_total_s(a) * 1e9);
  jw_int(&w, "read_path_cycles", gpurf_metrics_summary_read_path_cycles(a));
  jw_obj_begin(&w, "read_path_breakdown_ns");
  for (int p = 0; p < GPURF_METRICS_PATH_PARTS; p++)
    jw_num(&w, gpurf_metrics_path_part_name(p), gpurf_metrics_summary_read_path_s(a, p) * 1e9);
  jw_obj_end(&w);
  jw_obj_end(&w);
  jw_obj_end(&w);
  jw_finish(&w);
}

static void print_csv(sbuf *o, const gpurf_rf_table *t) {
  sb_printf(o, "component,kind,instances,event,energy_pj,leakage_mw_each,area_mm2_each,access_time_ns\n");
  for (int i = 0; i < t->n_components; i++) {
    const gpurf_rf_component *c = &t->components[i];
    for (int e = 0; e < c->n_events; e++)
      sb_printf(o, "%s,%s,%d,%s,%.8g,%.8g,%.8g,%.8g\n", c->name, c->kind, c->instances,
                c->events[e].name, c->events[e].energy_j * 1e12, c->leakage_w * 1e3,
                c->area_m2 * 1e6, c->access_time_s * 1e9);
  }
}

int cmd_rf(gpurf_ctx *ctx, const cli_parsed *p) {
  out_format fmt = p->fmt;
  const char *model = p->pos[0];
  gpurf_rf_design *design = calloc(1, sizeof *design);
  gpurf_rf_table *table = calloc(1, sizeof *table);
  gpurf_metrics_summary *sum = NULL;
  int rc = CLI_FAIL;
  if (!design || !table) {
    fprintf(stderr, "gpurf rf: out of memory\n");
  } else if (gpurf_rf_design_load(ctx, model, design) != GPURF_OK ||
             gpurf_rf_design_table(ctx, design, table) != GPURF_OK ||
             gpurf_metrics_summary_alloc(ctx, &sum) != GPURF_OK ||
             gpurf_metrics_summarise(ctx, table, sum) != GPURF_OK) {
    cli_print_error(ctx);
  } else {
    sbuf out;
    sb_init(&out);
    if (fmt == FMT_JSON)
      print_json(&out, design, table, sum);
    else if (fmt == FMT_CSV)
      print_csv(&out, table);
    else
      print_text(&out, design, table, sum);
    rc = sb_flush_stdout(&out);
    sb_free(&out);
  }
  gpurf_metrics_summary_free(sum);
  free(design);
  free(table);
  return rc;
}
