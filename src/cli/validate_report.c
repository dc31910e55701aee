/* Printing the validation report as text, JSON or CSV. Every number is in
 * the unit its label or key names; errors are (ours - ref) / ref. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/validate_report.h"

double vr_off_factor(double ratio) {
  if (!(ratio > 0) || !isfinite(ratio)) return INFINITY;
  return ratio >= 1 ? ratio : 1.0 / ratio;
}

static const char *const metric_label[VT_METRIC_COUNT] = {
    "access time", "cycle time", "write latency", "read energy", "write energy",
    "leakage", "leakage, subthreshold", "leakage, gate", "area"};

static void tolerance_text(char *buf, size_t size, const vt_tolerance *t) {
  if (!t->gated) {
    snprintf(buf, size, "-");
  } else if (t->median > 0 && t->max_ratio > 0) {
    snprintf(buf, size, "%g%%, %gx", t->median * 100, t->max_ratio);
  } else if (t->median > 0) {
    snprintf(buf, size, "%g%%", t->median * 100);
  } else {
    snprintf(buf, size, "%gx", t->max_ratio);
  }
}

static const char *result_word(const vr_set *r, int m) {
  if (!r->set.tol[m].gated) return "reported";
  return r->stat[m].pass ? "pass" : "FAIL";
}

static void text_set(sbuf *o, const vr_set *r) {
  const vt_set *s = &r->set;
  sb_printf(o, "\n== %s (%s): %zu row%s\n", s->name, r->shown_path, s->n_rows,
            s->n_rows == 1 ? "" : "s");
  sb_printf(o, "source: %s\n", s->source);
  if (s->gated)
    sb_printf(o, "gated: each tolerance below must hold%s\n",
              s->leakage_per_bank ? "; leakage is compared as one bank plus the wiring between banks" : "");
  else
    sb_printf(o, "tolerance: none (%s)\n", s->not_gated_why);
  for (int m = 0; m < VT_METRIC_COUNT; m++) {
    const vr_stat *st = &r->stat[m];
    if (st->rows == 0) continue;
    char head[64];
    snprintf(head, sizeof head, "%s (%s)", metric_label[m], vt_metric_unit((vt_metric)m));
    sb_printf(o, "\n%-26s %12s %12s %10s\n", head, "ours", "reference", "error");
    for (size_t i = 0; i < s->n_rows; i++) {
      if (!s->rows[i].has[m]) continue;
      double ours = r->rows[i].ours[m], ref = s->rows[i].ref[m];
      sb_printf(o, "  %-24s %12.4g %12.6g %+9.1f%%\n", s->rows[i].config, ours, ref,
                (ours - ref) / ref * 100);
    }
    char tol[64];
    tolerance_text(tol, sizeof tol, &s->tol[m]);
    sb_printf(o, "  median |error| %.1f%%, worst %s at %.3gx the reference", st->median_abs * 100,
              s->rows[st->worst].config, st->worst_ratio);
    if (s->tol[m].gated)
      sb_printf(o, "; tolerance %s: %s\n", tol, result_word(r, m));
    else
      sb_printf(o, "\n");
  }
}

void vr_print_text(sbuf *o, const vr_set *sets, size_t n, int all_pass) {
  size_t rows = 0;
  for (size_t i = 0; i < n; i++) rows += sets[i].set.n_rows;
  sb_printf(o, "Validation of the bank model: %zu set%s, %zu rows; error = (ours - reference) / "
            "reference\n", n, n == 1 ? "" : "s", rows);
  for (size_t i = 0; i < n; i++) text_set(o, &sets[i]);
  sb_printf(o, "\nSummary (median |error|; worst row and ours/reference there)\n");
  sb_printf(o, "  %-18s %-14s %4s %9s  %-24s %8s  %-10s %s\n", "set", "metric", "rows", "median",
            "worst row", "ratio", "tolerance", "result");
  int gated = 0;
  for (size_t i = 0; i < n; i++) {
    const vr_set *r = &sets[i];
    gated += r->set.gated;
    for (int m = 0; m < VT_METRIC_COUNT; m++) {
      const vr_stat *st = &r->stat[m];
      if (st->rows == 0) continue;
      char tol[64];
      tolerance_text(tol, sizeof tol, &r->set.tol[m]);
      sb_printf(o, "  %-18s %-14s %4d %8.1f%%  %-24s %8.3g  %-10s %s\n", r->set.name,
                vt_metric_name((vt_metric)m), st->rows, st->median_abs * 100,
                r->set.rows[st->worst].config, st->worst_ratio, tol, result_word(r, m));
    }
  }
  if (gated == 0) {
    sb_printf(o, "\nGate: no set states a tolerance\n");
  } else if (all_pass) {
    sb_printf(o, "\nGate: pass (every tolerance of %d gated set%s holds)\n", gated,
              gated == 1 ? "" : "s");
  } else {
    sb_printf(o, "\nGate: FAIL, outside tolerance:");
    for (size_t i = 0; i < n; i++)
      for (int m = 0; m < VT_METRIC_COUNT; m++)
        if (sets[i].set.tol[m].gated && sets[i].stat[m].rows && !sets[i].stat[m].pass)
          sb_printf(o, " %s/%s", sets[i].set.name, vt_metric_name((vt_metric)m));
    sb_printf(o, "\n");
  }
}

void vr_print_json(sbuf *o, const vr_set *sets, size_t n, int all_pass) {
  jw w;
  jw_init(&w, o);
  jw_obj_begin(&w, NULL);
  jw_bool(&w, "gate_pass", all_pass);
  jw_arr_begin(&w, "sets");
  for (size_t i = 0; i < n; i++) {
    const vr_set *r = &sets[i];
    const vt_set *s = &r->set;
    jw_obj_begin(&w, NULL);
    jw_str(&w, "name", s->name);
    jw_str(&w, "file", r->shown_path);
    jw_str(&w, "source", s->source);
    jw_bool(&w, "gated", s->gated);
    if (s->gated) jw_bool(&w, "pass", r->pass);
    else jw_str(&w, "not_gated_why", s->not_gated_why);
    jw_bool(&w, "leakage_per_bank", s->leakage_per_bank);
    jw_arr_begin(&w, "rows");
    for (size_t k = 0; k < s->n_rows; k++) {
      const vt_row *row = &s->rows[k];
      const vr_row *ours = &r->rows[k];
      jw_obj_begin(&w, NULL);
      jw_str(&w, "config", row->config);
      jw_int(&w, "line", row->line);
      jw_str(&w, "tech", ours->tech);
      jw_str(&w, "device", gpurf_device_kind_name(row->spec.device));
      jw_str(&w, "cell", ours->cell);
      jw_str(&w, "ports", ours->ports);
      jw_int(&w, "banks", row->spec.banks);
      jw_int(&w, "width_bits", row->spec.width_bits);
      jw_int(&w, "entries", row->spec.entries);
      jw_str(&w, "opt", gpurf_opt_name(row->spec.opt));
      jw_num(&w, "temp_k", row->spec.temp_k);
      if (row->spec.clock_hz > 0) jw_num(&w, "clock_ghz", row->spec.clock_hz * 1e-9);
      jw_obj_begin(&w, "metrics");
      for (int m = 0; m < VT_METRIC_COUNT; m++) {
        if (!row->has[m]) continue;
        jw_obj_begin(&w, vt_metric_key((vt_metric)m));
        jw_num(&w, "ours", ours->ours[m]);
        jw_num(&w, "reference", row->ref[m]);
        jw_num(&w, "error", (ours->ours[m] - row->ref[m]) / row->ref[m]);
        jw_obj_end(&w);
      }
      jw_obj_end(&w);
      jw_obj_end(&w);
    }
    jw_arr_end(&w);
    jw_obj_begin(&w, "summary");
    for (int m = 0; m < VT_METRIC_COUNT; m++) {
      const vr_stat *st = &r->stat[m];
      if (st->rows == 0) continue;
      jw_obj_begin(&w, vt_metric_key((vt_metric)m));
      jw_int(&w, "rows", st->rows);
      jw_num(&w, "median_abs_error", st->median_abs);
      jw_str(&w, "worst_config", s->rows[st->worst].config);
      jw_num(&w, "worst_ratio", st->worst_ratio);
      if (s->tol[m].gated) {
        jw_obj_begin(&w, "tolerance");
        if (s->tol[m].median > 0) jw_num(&w, "median_abs_error", s->tol[m].median);
        if (s->tol[m].max_ratio > 0) jw_num(&w, "max_ratio", s->tol[m].max_ratio);
        jw_obj_end(&w);
        jw_bool(&w, "pass", st->pass);
      }
      jw_obj_end(&w);
    }
    jw_obj_end(&w);
    jw_obj_end(&w);
  }
  jw_arr_end(&w);
  jw_obj_end(&w);
  jw_finish(&w);
}

/* One record per compared number (kind "row") and per set and metric
 * (kind "summary", naming the worst row). */
void vr_print_csv(sbuf *o, const vr_set *sets, size_t n) {
  sb_printf(o, "set,kind,config,metric,ours,reference,error,median_abs_error,worst_ratio,"
            "gated,pass\n");
  for (size_t i = 0; i < n; i++) {
    const vr_set *r = &sets[i];
    const vt_set *s = &r->set;
    for (int m = 0; m < VT_METRIC_COUNT; m++) {
      const vr_stat *st = &r->stat[m];
      if (st->rows == 0) continue;
      const char *key = vt_metric_key((vt_metric)m);
      for (size_t k = 0; k < s->n_rows; k++) {
        if (!s->rows[k].has[m]) continue;
        double ours = r->rows[k].ours[m], ref = s->rows[k].ref[m];
        sb_printf(o, "%s,row,%s,%s,%.8g,%.8g,%.6g,,,,\n", s->name, s->rows[k].config, key, ours,
                  ref, (ours - ref) / ref);
      }
      int gated = s->tol[m].gated;
      sb_printf(o, "%s,summary,%s,%s,,,,%.6g,%.6g,%s,%s\n", s->name, s->rows[st->worst].config,
                key, st->median_abs, st->worst_ratio, gated ? "yes" : "no",
                gated ? (st->pass ? "yes" : "no") : "");
    }
  }
}
