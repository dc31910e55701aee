/* gpurf table NAME: a seed paper's table rebuilt from the models, ours beside
 * the published numbers, in the pinned columns
 * config,metric,unit,ours,published,rel_error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/table.h"

#define PROG "gpurf table"

typedef enum { TF_TEXT, TF_CSV, TF_JSON, TF_MD } table_format;

static void add(st_table *t, const char *config, const char *metric, const char *unit,
                double ours, int has, double published) {
  if (t->n >= ST_MAX_ROWS) {
    t->overflow = 1;
    return;
  }
  st_row *r = &t->rows[t->n++];
  snprintf(r->config, sizeof r->config, "%s", config);
  snprintf(r->metric, sizeof r->metric, "%s", metric);
  snprintf(r->unit, sizeof r->unit, "%s", unit);
  r->ours = ours;
  r->has_published = has;
  r->published = published;
}

void st_add(st_table *t, const char *config, const char *metric, const char *unit, double ours) {
  double p = 0.0;
  int has = st_published(t->name, config, metric, &p);
  add(t, config, metric, unit, ours, has, p);
}

void st_add_pub(st_table *t, const char *config, const char *metric, const char *unit,
                double ours, double published) {
  add(t, config, metric, unit, ours, 1, published);
}

/* (ours - published) / published: 1 and *e where the paper prints a
 * number the error can be taken against. */
static int rel_error(const st_row *r, double *e) {
  return r->has_published && gpurf_metrics_rel_error(NULL, r->ours, r->published, e) == GPURF_OK;
}

static void print_csv(sbuf *o, const st_table *t) {
  sb_printf(o, "config,metric,unit,ours,published,rel_error\n");
  for (int i = 0; i < t->n; i++) {
    const st_row *r = &t->rows[i];
    sb_printf(o, "%s,%s,%s,%.6g,", r->config, r->metric, r->unit, r->ours);
    if (r->has_published) sb_printf(o, "%.6g", r->published);
    sb_printf(o, ",");
    double e;
    if (rel_error(r, &e)) sb_printf(o, "%.4f", e);
    sb_printf(o, "\n");
  }
}

static void print_json(sbuf *o, const st_table *t) {
  jw w;
  jw_init(&w, o);
  jw_obj_begin(&w, NULL);
  jw_str(&w, "table", t->name);
  jw_str(&w, "title", t->title);
  jw_str(&w, "source", t->source);
  jw_arr_begin(&w, "rows");
  for (int i = 0; i < t->n; i++) {
    const st_row *r = &t->rows[i];
    jw_obj_begin(&w, NULL);
    jw_str(&w, "config", r->config);
    jw_str(&w, "metric", r->metric);
    jw_str(&w, "unit", r->unit);
    jw_num(&w, "ours", r->ours);
    /* Keys are left out where the paper gives no number. */
    if (r->has_published) jw_num(&w, "published", r->published);
    double e;
    if (rel_error(r, &e)) jw_num(&w, "rel_error", e);
    jw_obj_end(&w);
  }
  jw_arr_end(&w);
  jw_obj_end(&w);
  jw_finish(&w);
}

static void cell_num(char *buf, size_t size, int has, double v, const char *fmt) {
  if (has)
    snprintf(buf, size, fmt, v);
  else
    snprintf(buf, size, "-");
}

static void print_text(sbuf *o, const st_table *t, int md) {
  if (md)
    sb_printf(o, "### %s\n\nPublished: %s\n\n| config | metric | unit | ours | published | "
                 "rel. error |\n|---|---|---|---:|---:|---:|\n",
              t->title, t->source);
  else
    sb_printf(o, "%s\n  published: %s\n\n%-22s %-26s %-8s %12s %12s %10s\n", t->title, t->source,
              "config", "metric", "unit", "ours", "published", "rel.error");
  for (int i = 0; i < t->n; i++) {
    const st_row *r = &t->rows[i];
    char pub[32], err[32];
    double e = 0.0;
    int has_e = rel_error(r, &e);
    cell_num(pub, sizeof pub, r->has_published, r->published, "%.5g");
    cell_num(err, sizeof err, has_e, 100.0 * e, "%+.1f%%");
    if (md)
      sb_printf(o, "| %s | %s | %s | %.5g | %s | %s |\n", r->config, r->metric, r->unit, r->ours,
                pub, err);
    else
      sb_printf(o, "%-22s %-26s %-8s %12.5g %12s %10s\n", r->config, r->metric, r->unit, r->ours,
                pub, err);
  }
}

static int list(void) {
  sbuf o;
  sb_init(&o);
  for (int i = 0; i < st_builder_count; i++)
    sb_printf(&o, "%-12s %s\n", st_builders[i].name, st_builders[i].title);
  int rc = sb_flush_stdout(&o);
  sb_free(&o);
  return rc;
}

int cmd_table(gpurf_ctx *ctx, const cli_parsed *p) {
  /* The parser allows only these four, in this order. */
  static const char *const formats[] = {"text", "csv", "json", "md"};
  const char *f = cli_get(p, "--format") ? cli_get(p, "--format") : "text";
  int k = 0;
  while (strcmp(f, formats[k]) != 0) k++;
  table_format fmt = (table_format)k;
  const char *name = p->pos[0];
  int want_list = cli_get(p, "--list") != NULL;
  if (want_list) return list();
  if (!name) {
    cli_usage_error(PROG, "which table? e.g. 'gpurf table simtight-f8' (see --list)");
    return CLI_USAGE;
  }
  const st_builder *b = NULL;
  for (int i = 0; i < st_builder_count && !b; i++)
    if (strcmp(st_builders[i].name, name) == 0) b = &st_builders[i];
  if (!b) {
    cli_usage_error(PROG, "no table named '%s' (see gpurf table --list)", name);
    return CLI_USAGE;
  }
  st_table *t = calloc(1, sizeof *t);
  if (!t) {
    fprintf(stderr, PROG ": out of memory\n");
    return CLI_FAIL;
  }
  t->name = b->name;
  t->title = b->title;
  const char *cite = st_citation(b->name);
  if (cite) snprintf(t->source, sizeof t->source, "%s", cite);
  int rc = b->build(ctx, t);
  if (rc == CLI_OK && t->overflow) {
    fprintf(stderr, PROG ": internal error: table '%s' has more than %d rows\n", b->name,
            ST_MAX_ROWS);
    rc = CLI_FAIL;
  }
  if (rc == CLI_OK) {
    sbuf o;
    sb_init(&o);
    if (fmt == TF_CSV)
      print_csv(&o, t);
    else if (fmt == TF_JSON)
      print_json(&o, t);
    else
      print_text(&o, t, fmt == TF_MD);
    rc = sb_flush_stdout(&o);
    sb_free(&o);
  }
  free(t);
  return rc;
}
