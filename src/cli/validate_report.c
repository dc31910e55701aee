/* Printing the validation report as text, JSON or CSV. Every number is in
 * the unit its label or key names; errors are (ours - ref) / ref. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/validate_report.h"

#define N_METRICS GPURF_VALIDATE_METRICS

void cli_print_validate_error(const gpurf_ctx *ctx) {
  const gpurf_error *e = gpurf_ctx_error(ctx);
  char where[GPURF_ERROR_FILE_MAX + 32] = "", column[GPURF_ERROR_FIELD_MAX + 16] = "";
  if (!e->file[0]) {
    cli_print_error(ctx);
    return;
  }
  if (e->line > 0 && e->column > 0)
    snprintf(where, sizeof where, "%s:%d:%d: ", e->file, e->line, e->column);
  else if (e->line > 0)
    snprintf(where, sizeof where, "%s:%d: ", e->file, e->line);
  else
    snprintf(where, sizeof where, "%s: ", e->file);
  if (e->field[0]) snprintf(column, sizeof column, "column '%s': ", e->field);
  fprintf(stderr, "%s%s%s\n", where, column, e->message);
}

/* Our value and the reference in the metric's unit, and the relative error;
 * 0 when the row's reference does not give the metric. */
static int compared(const vr_set *r, size_t row, gpurf_validate_metric m, double *ours,
                    double *ref, double *err) {
  return gpurf_validate_result_compared(r->res, row, m, ours, ref, err);
}

static const char *const metric_label[N_METRICS] = {
    "access time", "cycle time", "write latency", "read energy", "write energy",
    "leakage", "leakage, subthreshold", "leakage, gate", "area"};

static int gated(const vr_set *r, gpurf_validate_metric m) {
  return gpurf_validate_set_tolerance(r->set, m, NULL, NULL) == 1;
}

static void tolerance_text(char *buf, size_t size, const vr_set *r, gpurf_validate_metric m) {
  double median, ratio;
  if (gpurf_validate_set_tolerance(r->set, m, &median, &ratio) != 1) {
    snprintf(buf, size, "-");
  } else if (median > 0 && ratio > 0) {
    snprintf(buf, size, "%g%%, %gx", median * 100, ratio);
  } else if (median > 0) {
    snprintf(buf, size, "%g%%", median * 100);
  } else {
    snprintf(buf, size, "%gx", ratio);
  }
}

static const char *result_word(const vr_set *r, gpurf_validate_metric m) {
  if (!gated(r, m)) return "reported";
  return gpurf_validate_result_pass(r->res, m) ? "pass" : "FAIL";
}

/* The config of the row furthest off for metric m. */
static const char *worst_config(const vr_set *r, gpurf_validate_metric m) {
  return gpurf_validate_row_config(r->set, gpurf_validate_result_worst_row(r->res, m));
}

static void text_set(sbuf *o, const vr_set *r) {
  const gpurf_validate_set *s = r->set;
  size_t rows = gpurf_validate_set_rows(s);
  sb_printf(o, "\n== %s (%s): %zu row%s\n", gpurf_validate_set_name(s), r->shown_path, rows,
            rows == 1 ? "" : "s");
  sb_printf(o, "source: %s\n", gpurf_validate_set_source(s));
  if (gpurf_validate_set_gated(s))
    sb_printf(o, "gated: each tolerance below must hold%s\n",
              gpurf_validate_set_leakage_per_bank(s)
                  ? "; leakage is compared as one bank plus the wiring between banks" : "");
  else
    sb_printf(o, "tolerance: none (%s)\n", gpurf_validate_set_not_gated_why(s));
  for (int m = 0; m < N_METRICS; m++) {
    if (gpurf_validate_result_rows(r->res, m) == 0) continue;
    char head[64];
    snprintf(head, sizeof head, "%s (%s)", metric_label[m], gpurf_validate_metric_unit(m));
    int banded = gpurf_validate_result_band_rows(r->res, m, NULL) > 0;
    sb_printf(o, "\n%-26s %12s %12s %10s", head, "ours", "reference", "error");
    if (banded) sb_printf(o, "  %10s %10s  %s", "band low", "band high", "ref in band");
    sb_printf(o, "\n");
    for (size_t i = 0; i < rows; i++) {
      double ours, ref, err, lo, hi;
      if (!compared(r, i, m, &ours, &ref, &err)) continue;
      sb_printf(o, "  %-24s %12.4g %12.6g %+9.1f%%", gpurf_validate_row_config(s, i), ours, ref,
                err * 100);
      if (gpurf_validate_result_band(r->res, i, m, &lo, &hi)) {
        sb_printf(o, "  %10.4g %10.4g  ", lo, hi);
        /* Outside: by what factor, from the nearer end. */
        if (gpurf_validate_result_in_band(r->res, i, m) == 1)
          sb_printf(o, "yes");
        else if (ref > hi)
          sb_printf(o, "no, %.3gx above", ref / hi);
        else
          sb_printf(o, "no, %.3gx below", ref / lo);
      } else if (banded)
        sb_printf(o, "  %10s %10s  %s", "-", "-", "-");
      sb_printf(o, "\n");
    }
    char tol[64];
    tolerance_text(tol, sizeof tol, r, m);
    sb_printf(o, "  median |error| %.1f%%, worst %s at %.3gx the reference",
              gpurf_validate_result_median_abs_error(r->res, m) * 100, worst_config(r, m),
              gpurf_validate_result_worst_ratio(r->res, m));
    if (gated(r, m))
      sb_printf(o, "; tolerance %s: %s\n", tol, result_word(r, m));
    else
      sb_printf(o, "\n");
  }
}

/* Per set and metric: how many reference values lie inside the band our
 * reference classes span, then the set's total. */
static void text_band_summary(sbuf *o, const vr_set *sets, size_t n) {
  sb_printf(o, "\nReference inside our band (the span of the reference classes: CACTI class = "
               "ours, NVSim class,\ncompiler class for SRAM; flip-flop arrays have none)\n");
  sb_printf(o, "  %-18s %-14s %4s %6s %6s\n", "set", "metric", "rows", "banded", "inside");
  for (size_t i = 0; i < n; i++) {
    const vr_set *r = &sets[i];
    int all_rows = 0, all_banded = 0, all_inside = 0;
    for (int m = 0; m < N_METRICS; m++) {
      int rows_m = gpurf_validate_result_rows(r->res, m), inside;
      if (rows_m == 0) continue;
      int banded = gpurf_validate_result_band_rows(r->res, m, &inside);
      all_rows += rows_m;
      all_banded += banded;
      all_inside += inside;
      sb_printf(o, "  %-18s %-14s %4d %6d %6d\n", gpurf_validate_set_name(r->set),
                gpurf_validate_metric_name(m), rows_m, banded, inside);
    }
    sb_printf(o, "  %-18s %-14s %4d %6d %6d\n", gpurf_validate_set_name(r->set), "all", all_rows,
              all_banded, all_inside);
  }
}

void vr_print_text(sbuf *o, const vr_set *sets, size_t n, int all_pass) {
  size_t rows = 0;
  for (size_t i = 0; i < n; i++) rows += gpurf_validate_set_rows(sets[i].set);
  sb_printf(o, "Validation of the bank model: %zu set%s, %zu rows; error = (ours - reference) / "
            "reference\n", n, n == 1 ? "" : "s", rows);
  for (size_t i = 0; i < n; i++) text_set(o, &sets[i]);
  text_band_summary(o, sets, n);
  sb_printf(o, "\nSummary (median |error|; worst row and ours/reference there)\n");
  sb_printf(o, "  %-18s %-14s %4s %9s  %-24s %8s  %-10s %s\n", "set", "metric", "rows", "median",
            "worst row", "ratio", "tolerance", "result");
  int n_gated = 0;
  for (size_t i = 0; i < n; i++) {
    const vr_set *r = &sets[i];
    n_gated += gpurf_validate_set_gated(r->set);
    for (int m = 0; m < N_METRICS; m++) {
      int rows_m = gpurf_validate_result_rows(r->res, m);
      if (rows_m == 0) continue;
      char tol[64];
      tolerance_text(tol, sizeof tol, r, m);
      sb_printf(o, "  %-18s %-14s %4d %8.1f%%  %-24s %8.3g  %-10s %s\n",
                gpurf_validate_set_name(r->set), gpurf_validate_metric_name(m), rows_m,
                gpurf_validate_result_median_abs_error(r->res, m) * 100, worst_config(r, m),
                gpurf_validate_result_worst_ratio(r->res, m), tol, result_word(r, m));
    }
  }
  if (n_gated == 0) {
    sb_printf(o, "\nGate: no set states a tolerance\n");
  } else if (all_pass) {
    sb_printf(o, "\nGate: pass (every tolerance of %d gated set%s holds)\n", n_gated,
              n_gated == 1 ? "" : "s");
  } else {
    sb_printf(o, "\nGate: FAIL, outside tolerance:");
    for (size_t i = 0; i < n; i++)
      for (int m = 0; m < N_METRICS; m++)
        if (gated(&sets[i], m) && gpurf_validate_result_rows(sets[i].res, m) &&
            !gpurf_validate_result_pass(sets[i].res, m))
          sb_printf(o, " %s/%s", gpurf_validate_set_name(sets[i].set),
                    gpurf_validate_metric_name(m));
    sb_printf(o, "\n");
  }
}

/* "<metric key>_band": [low, high] for every metric the row's reference
 * gives and its band covers, as `gpurf bank --band` names them. */
static void json_row_bands(jw *w, const vr_set *r, size_t row) {
  for (int m = 0; m < N_METRICS; m++) {
    double lo, hi;
    if (!compared(r, row, m, NULL, NULL, NULL) ||
        !gpurf_validate_result_band(r->res, row, m, &lo, &hi))
      continue;
    char key[96];
    snprintf(key, sizeof key, "%s_band", gpurf_validate_metric_key(m));
    jw_arr_begin(w, key);
    jw_num(w, NULL, lo);
    jw_num(w, NULL, hi);
    jw_arr_end(w);
  }
}

void vr_print_json(sbuf *o, const vr_set *sets, size_t n, int all_pass, const vr_peer *peers,
                   size_t n_peers) {
  jw w;
  jw_init(&w, o);
  jw_obj_begin(&w, NULL);
  jw_bool(&w, "gate_pass", all_pass);
  jw_arr_begin(&w, "sets");
  for (size_t i = 0; i < n; i++) {
    const vr_set *r = &sets[i];
    const gpurf_validate_set *s = r->set;
    jw_obj_begin(&w, NULL);
    jw_str(&w, "name", gpurf_validate_set_name(s));
    jw_str(&w, "file", r->shown_path);
    jw_str(&w, "source", gpurf_validate_set_source(s));
    jw_bool(&w, "gated", gpurf_validate_set_gated(s));
    if (gpurf_validate_set_gated(s)) jw_bool(&w, "pass", gpurf_validate_result_set_pass(r->res));
    else jw_str(&w, "not_gated_why", gpurf_validate_set_not_gated_why(s));
    jw_bool(&w, "leakage_per_bank", gpurf_validate_set_leakage_per_bank(s));
    /* Over all metrics: references with a band, and of those inside it. */
    int set_banded = 0, set_inside = 0;
    for (int m = 0; m < N_METRICS; m++) {
      int inside;
      set_banded += gpurf_validate_result_band_rows(r->res, m, &inside);
      set_inside += inside;
    }
    jw_int(&w, "band_rows", set_banded);
    jw_int(&w, "in_band", set_inside);
    jw_arr_begin(&w, "rows");
    for (size_t k = 0; k < gpurf_validate_set_rows(s); k++) {
      gpurf_bank_spec spec;
      gpurf_validate_row_spec(s, k, &spec);
      jw_obj_begin(&w, NULL);
      jw_str(&w, "config", gpurf_validate_row_config(s, k));
      jw_int(&w, "line", gpurf_validate_row_line(s, k));
      jw_str(&w, "tech", gpurf_validate_result_tech(r->res, k));
      jw_str(&w, "device", gpurf_device_kind_name(spec.device));
      jw_str(&w, "cell", gpurf_validate_result_cell(r->res, k));
      jw_str(&w, "ports", gpurf_validate_result_ports(r->res, k));
      jw_int(&w, "banks", spec.banks);
      jw_int(&w, "width_bits", spec.width_bits);
      jw_int(&w, "entries", spec.entries);
      jw_str(&w, "opt", gpurf_bank_opt_name(spec.opt));
      jw_num(&w, "temp_k", spec.temp_k);
      if (spec.clock_hz > 0) jw_num(&w, "clock_ghz", spec.clock_hz * 1e-9);
      jw_obj_begin(&w, "metrics");
      for (int m = 0; m < N_METRICS; m++) {
        double ours, ref, err;
        if (!compared(r, k, m, &ours, &ref, &err)) continue;
        jw_obj_begin(&w, gpurf_validate_metric_key(m));
        jw_num(&w, "ours", ours);
        jw_num(&w, "reference", ref);
        jw_num(&w, "error", err);
        int in = gpurf_validate_result_in_band(r->res, k, m);
        if (in >= 0) jw_bool(&w, "in_band", in);
        jw_obj_end(&w);
      }
      jw_obj_end(&w);
      json_row_bands(&w, r, k);
      jw_obj_end(&w);
    }
    jw_arr_end(&w);
    jw_obj_begin(&w, "summary");
    for (int m = 0; m < N_METRICS; m++) {
      int rows_m = gpurf_validate_result_rows(r->res, m);
      if (rows_m == 0) continue;
      jw_obj_begin(&w, gpurf_validate_metric_key(m));
      jw_int(&w, "rows", rows_m);
      jw_num(&w, "median_abs_error", gpurf_validate_result_median_abs_error(r->res, m));
      jw_str(&w, "worst_config", worst_config(r, m));
      jw_num(&w, "worst_ratio", gpurf_validate_result_worst_ratio(r->res, m));
      int inside, banded = gpurf_validate_result_band_rows(r->res, m, &inside);
      jw_int(&w, "band_rows", banded);
      jw_int(&w, "in_band", inside);
      double median, ratio;
      if (gpurf_validate_set_tolerance(s, m, &median, &ratio) == 1) {
        jw_obj_begin(&w, "tolerance");
        if (median > 0) jw_num(&w, "median_abs_error", median);
        if (ratio > 0) jw_num(&w, "max_ratio", ratio);
        jw_obj_end(&w);
        jw_bool(&w, "pass", gpurf_validate_result_pass(r->res, m));
      }
      jw_obj_end(&w);
    }
    jw_obj_end(&w);
    jw_obj_end(&w);
  }
  jw_arr_end(&w);
  if (n_peers) vp_json(&w, peers, n_peers);
  jw_obj_end(&w);
  jw_finish(&w);
}

/* One record per compared number (kind "row", with the row's band and
 * whether the reference lies inside it) and per set and metric (kind
 * "summary", naming the worst row and counting the references inside their
 * bands). */
void vr_print_csv(sbuf *o, const vr_set *sets, size_t n) {
  sb_printf(o, "set,kind,config,metric,ours,reference,error,median_abs_error,worst_ratio,"
            "gated,pass,band_low,band_high,in_band,band_rows,band_inside\n");
  for (size_t i = 0; i < n; i++) {
    const vr_set *r = &sets[i];
    const gpurf_validate_set *s = r->set;
    const char *name = gpurf_validate_set_name(s);
    for (int m = 0; m < N_METRICS; m++) {
      if (gpurf_validate_result_rows(r->res, m) == 0) continue;
      const char *key = gpurf_validate_metric_key(m);
      for (size_t k = 0; k < gpurf_validate_set_rows(s); k++) {
        double ours, ref, err, lo, hi;
        if (!compared(r, k, m, &ours, &ref, &err)) continue;
        sb_printf(o, "%s,row,%s,%s,%.8g,%.8g,%.6g,,,,", name, gpurf_validate_row_config(s, k),
                  key, ours, ref, err);
        if (gpurf_validate_result_band(r->res, k, m, &lo, &hi))
          sb_printf(o, ",%.8g,%.8g,%s,,\n", lo, hi,
                    gpurf_validate_result_in_band(r->res, k, m) == 1 ? "yes" : "no");
        else
          sb_printf(o, ",,,,,\n");
      }
      int g = gated(r, m), inside, banded = gpurf_validate_result_band_rows(r->res, m, &inside);
      sb_printf(o, "%s,summary,%s,%s,,,,%.6g,%.6g,%s,%s,,,,%d,%d\n", name, worst_config(r, m), key,
                gpurf_validate_result_median_abs_error(r->res, m),
                gpurf_validate_result_worst_ratio(r->res, m), g ? "yes" : "no",
                g ? (gpurf_validate_result_pass(r->res, m) ? "yes" : "no") : "", banded, inside);
    }
  }
}
