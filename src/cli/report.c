/* A flat report (named values with units, then breakdown tables over named
 * parts) printed as text, JSON or CSV; and the option handling the
 * component commands share. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static rep_row *next_row(report *r) {
  if (r->n >= REP_MAX_ROWS) {
    r->overflow = 1;
    return NULL;
  }
  rep_row *row = &r->rows[r->n++];
  memset(row, 0, sizeof *row);
  return row;
}

void rep_init(report *r, const char *title) {
  memset(r, 0, sizeof *r);
  r->title = title;
}

void rep_section(report *r, const char *heading) {
  rep_row *row = next_row(r);
  if (row) row->label = heading;
}

void rep_str(report *r, const char *key, const char *label, const char *s) {
  rep_row *row = next_row(r);
  if (!row) return;
  row->key = key;
  row->label = label;
  row->s = s;
}

void rep_num(report *r, const char *key, const char *label, const char *unit, double v) {
  rep_row *row = next_row(r);
  if (!row) return;
  row->key = key;
  row->label = label;
  row->unit = unit;
  row->v = v;
}

void rep_int(report *r, const char *key, const char *label, long long v) {
  rep_row *row = next_row(r);
  if (!row) return;
  row->key = key;
  row->label = label;
  row->is_int = 1;
  row->i = v;
}

void rep_table(report *r, const char *key, const char *head, const double *v, double scale) {
  if (r->ntables >= REP_MAX_TABLES) {
    r->overflow = 1;
    return;
  }
  r->tables[r->ntables++] = (rep_tab){key, head, v, scale};
}

static void print_text(sbuf *out, const report *r) {
  sb_printf(out, "%s\n", r->title);
  for (int i = 0; i < r->n; i++) {
    const rep_row *row = &r->rows[i];
    if (!row->key)
      sb_printf(out, "\n%s\n", row->label);
    else if (row->s)
      sb_printf(out, "  %-34s %s\n", row->label, row->s);
    else if (row->is_int)
      sb_printf(out, "  %-34s %12lld\n", row->label, row->i);
    else if (row->unit[0])
      sb_printf(out, "  %-34s %12.5g %s\n", row->label, row->v, row->unit);
    else
      sb_printf(out, "  %-34s %12.5g\n", row->label, row->v);
  }
  if (r->ntables == 0) return;
  sb_printf(out, "\n%s\n", r->breakdown_title);
  sb_printf(out, "  %-14s", "part");
  for (int k = 0; k < r->ntables; k++) sb_printf(out, " %14s", r->tables[k].head);
  sb_printf(out, "\n");
  for (int p = 0; p < r->nparts; p++) {
    sb_printf(out, "  %-14s", r->parts[p]);
    for (int k = 0; k < r->ntables; k++)
      sb_printf(out, " %14.5g", r->tables[k].v[p] * r->tables[k].scale);
    sb_printf(out, "\n");
  }
}

static void print_json(sbuf *out, const report *r) {
  jw w;
  jw_init(&w, out);
  jw_obj_begin(&w, NULL);
  for (int i = 0; i < r->n; i++) {
    const rep_row *row = &r->rows[i];
    if (!row->key) continue;
    if (row->s)
      jw_str(&w, row->key, row->s);
    else if (row->is_int)
      jw_int(&w, row->key, row->i);
    else
      jw_num(&w, row->key, row->v);
  }
  if (r->ntables > 0) {
    jw_obj_begin(&w, "breakdown");
    for (int k = 0; k < r->ntables; k++) {
      jw_obj_begin(&w, r->tables[k].key);
      for (int p = 0; p < r->nparts; p++)
        jw_num(&w, r->parts[p], r->tables[k].v[p] * r->tables[k].scale);
      jw_obj_end(&w);
    }
    jw_obj_end(&w);
  }
  jw_obj_end(&w);
  jw_finish(&w);
}

static void print_csv(sbuf *out, const report *r) {
  int first = 1;
  for (int i = 0; i < r->n; i++) {
    if (!r->rows[i].key) continue;
    sb_printf(out, "%s%s", first ? "" : ",", r->rows[i].key);
    first = 0;
  }
  for (int k = 0; k < r->ntables; k++)
    for (int p = 0; p < r->nparts; p++) sb_printf(out, ",%s_%s", r->tables[k].key, r->parts[p]);
  sb_printf(out, "\n");
  first = 1;
  for (int i = 0; i < r->n; i++) {
    const rep_row *row = &r->rows[i];
    if (!row->key) continue;
    if (!first) sb_printf(out, ",");
    first = 0;
    /* Strings are quoted: a node file may carry any name. */
    if (row->s)
      sb_printf(out, "\"%s\"", row->s);
    else if (row->is_int)
      sb_printf(out, "%lld", row->i);
    else
      sb_printf(out, "%.8g", row->v);
  }
  for (int k = 0; k < r->ntables; k++)
    for (int p = 0; p < r->nparts; p++)
      sb_printf(out, ",%.8g", r->tables[k].v[p] * r->tables[k].scale);
  sb_printf(out, "\n");
}

int rep_emit(const report *r, out_format fmt) {
  if (r->overflow) {
    fprintf(stderr, "gpurf: internal error: report too long\n");
    return CLI_FAIL;
  }
  sbuf out;
  sb_init(&out);
  if (fmt == FMT_JSON)
    print_json(&out, r);
  else if (fmt == FMT_CSV)
    print_csv(&out, r);
  else
    print_text(&out, r);
  int rc = sb_flush_stdout(&out);
  sb_free(&out);
  return rc;
}

int cli_env_opts(const char *prog, const char *device, const char *temp_k, gpurf_device_kind *dev,
                 double *temp) {
  if (device && gpurf_device_kind_parse(device, dev) != GPURF_OK) {
    cli_usage_error(prog, "--device must be hp, lstp or lop, not '%s'", device);
    return CLI_USAGE;
  }
  if (temp_k) {
    if (cli_parse_double(prog, "--temp-k", temp_k, temp)) return CLI_USAGE;
    if (!(*temp > 0.0)) {
      cli_usage_error(prog, "--temp-k must be above 0 K, not '%s'", temp_k);
      return CLI_USAGE;
    }
  }
  return CLI_OK;
}

int cli_rf_area_opts(const cli_parsed *p, double *area_mm2_out, long long *bytes_out) {
  const char *prog = p->prog, *area_mm2 = cli_get(p, "--rf-area-mm2"),
             *bytes = cli_get(p, "--rf-bytes");
  *area_mm2_out = 0.0;
  *bytes_out = 0;
  if (area_mm2 && bytes) {
    cli_usage_error(prog, "give at most one of --rf-area-mm2 and --rf-bytes");
    return CLI_USAGE;
  }
  if (area_mm2) {
    if (cli_parse_double(prog, "--rf-area-mm2", area_mm2, area_mm2_out)) return CLI_USAGE;
    if (!(*area_mm2_out > 0.0)) {
      cli_usage_error(prog, "--rf-area-mm2 must be above 0, not '%s'", area_mm2);
      return CLI_USAGE;
    }
  }
  if (bytes && cli_parse_count(prog, "--rf-bytes", bytes, 1LL << 30, bytes_out)) return CLI_USAGE;
  return CLI_OK;
}

int cli_activity_opt(const cli_parsed *p, double *activity) {
  const char *v = cli_get(p, "--activity");
  if (!v) return CLI_OK;
  if (cli_parse_double(p->prog, "--activity", v, activity)) return CLI_USAGE;
  if (!(*activity > 0.0 && *activity <= 1.0)) {
    cli_usage_error(p->prog, "--activity must be above 0 and at most 1, not '%s'", v);
    return CLI_USAGE;
  }
  return CLI_OK;
}
