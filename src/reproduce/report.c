/* The report of a reproduction: index.html (one file, inline SVG, no
 * scripts), results.json, a CSV per paper and an SVG per figure. A figure
 * is a claim with per-workload values: one bar per workload and the set's
 * mean, normalised as the claim is (ratio - 1 as a percentage), with the
 * published value drawn across. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ctx_internal.h"
#include "reproduce/repro_internal.h"

/* ---- Files written whole or not at all ---- */

typedef struct out_file {
  char final[REPRO_PATH_MAX + 64];
  char tmp[REPRO_PATH_MAX + 80];
  FILE *f;
} out_file;

static int out_open(gpurf_ctx *ctx, out_file *o, const char *dir, const char *name) {
  snprintf(o->final, sizeof o->final, "%s/%s", dir, name);
  snprintf(o->tmp, sizeof o->tmp, "%s/.%s.tmp-XXXXXX", dir, name);
  int fd = mkstemp(o->tmp);
  o->f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!o->f) {
    if (fd >= 0) {
      close(fd);
      unlink(o->tmp);
    }
    return gpurf_fail_at(ctx, GPURF_EIO, o->final, 0, 0, NULL, "cannot create: %s",
                         strerror(errno));
  }
  return GPURF_OK;
}

static int out_close(gpurf_ctx *ctx, out_file *o, int rc) {
  if (!o->f) return rc;
  int bad = fflush(o->f) != 0 || ferror(o->f);
  bad |= fclose(o->f) != 0;
  o->f = NULL;
  if (rc == GPURF_OK && bad)
    rc = gpurf_fail_at(ctx, GPURF_EIO, o->final, 0, 0, NULL, "cannot write: %s", strerror(errno));
  if (rc == GPURF_OK && rename(o->tmp, o->final) != 0)
    rc = gpurf_fail_at(ctx, GPURF_EIO, o->final, 0, 0, NULL, "cannot rename: %s", strerror(errno));
  if (rc != GPURF_OK) unlink(o->tmp);
  return rc;
}

/* ---- Text ---- */

static void xml_text(FILE *f, const char *s) {
  for (; s && *s; s++) {
    switch (*s) {
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '&': fputs("&amp;", f); break;
    case '"': fputs("&quot;", f); break;
    default: fputc(*s, f);
    }
  }
}

/* A claim's value as the report shows it: fractions as percentages. */
static int is_fraction(const gpurf_reproduce_claim *c) { return !strcmp(c->unit, "fraction"); }

static void value_text(FILE *f, const gpurf_reproduce_claim *c, double v) {
  if (is_fraction(c))
    fprintf(f, strstr(c->metric, "ratio - 1") ? "%+.1f%%" : "%.1f%%", 100 * v);
  else
    fprintf(f, "%.4g %s", v, c->unit);
}

static const char *relation_sign(gpurf_reproduce_relation r) {
  return r == GPURF_REPRODUCE_ABOUT ? "&#8776; " : r == GPURF_REPRODUCE_BELOW ? "&lt; "
                                                  : r == GPURF_REPRODUCE_ABOVE ? "&gt; " : "";
}

/* ---- Figures ---- */

static size_t rows_after(const gpurf_reproduce *r, size_t i) {
  size_t n = 0;
  while (i + 1 + n < r->n_claims && r->claims[i + 1 + n].per_workload) n++;
  return n;
}

/* Horizontal bars: workloads, then the mean; a dashed line at the
 * published value. */
static void svg_figure(FILE *f, const gpurf_reproduce *r, size_t i) {
  const gpurf_reproduce_claim *c = &r->claims[i];
  size_t n = rows_after(r, i);
  double scale = is_fraction(c) ? 100 : 1;
  double lo = 0, hi = 0;
  for (size_t k = 0; k <= n; k++) {
    double v = (k < n ? r->claims[i + 1 + k].ours : c->ours) * scale;
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  if (c->has_published) {
    double p = c->published * scale;
    lo = p < lo ? p : lo;
    hi = p > hi ? p : hi;
  }
  if (hi - lo < 1e-12) hi = lo + 1;
  double pad = 0.08 * (hi - lo);
  lo -= lo < 0 ? pad : 0;
  hi += pad;
  const int label_w = 170, plot_w = 420, bar_h = 18, gap = 6, top = 34;
  int height = top + (int)(n + 1) * (bar_h + gap) + 30;
  int width = label_w + plot_w + 80;
#define X(v) (label_w + (double)plot_w * ((v)-lo) / (hi - lo))
  fprintf(f,
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
          "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
          width, height, width, height);
  fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n", width, height);
  fputs("<text x=\"8\" y=\"18\" font-weight=\"bold\">", f);
  xml_text(f, c->paper);
  fputs(": ", f);
  xml_text(f, c->claim);
  fputs(" (", f);
  xml_text(f, c->metric);
  fputs(is_fraction(c) ? ", %)</text>\n" : ")</text>\n", f);
  for (size_t k = 0; k <= n; k++) {
    const gpurf_reproduce_claim *row = k < n ? &r->claims[i + 1 + k] : c;
    double v = row->ours * scale;
    double y = top + (double)k * (bar_h + gap);
    double x0 = X(lo < 0 && hi > 0 ? 0 : lo), x1 = X(v);
    fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", label_w - 6, y + bar_h - 5);
    xml_text(f, k < n ? row->workloads : c->aggregate ? c->aggregate : "claim");
    fputs("</text>\n", f);
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n",
            x1 < x0 ? x1 : x0, y, fabs(x1 - x0) < 0.5 ? 0.5 : fabs(x1 - x0), bar_h,
            k < n ? "#4a7ab5" : "#1f3f66");
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", (x1 > x0 ? x1 : x0) + 4, y + bar_h - 5);
    value_text(f, row, row->ours);
    fputs("</text>\n", f);
  }
  double ybot = top + (double)(n + 1) * (bar_h + gap);
  if (lo < 0 && hi > 0)
    fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", X(0),
            top - 4, X(0), ybot);
  if (c->has_published) {
    double xp = X(c->published * scale);
    fprintf(f,
            "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c0392b\" "
            "stroke-width=\"2\" stroke-dasharray=\"5,3\"/>\n",
            xp, top - 4, xp, ybot);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#c0392b\">published ", xp + 4, ybot + 16);
    value_text(f, c, c->published);
    fputs("</text>\n", f);
  }
#undef X
  fputs("</svg>\n", f);
}

static int has_figure(const gpurf_reproduce *r, size_t i) {
  return !r->claims[i].per_workload && r->claims[i].status == GPURF_REPRODUCE_COMPUTED &&
         rows_after(r, i) > 0;
}

/* ---- HTML ---- */

static void html_claims(FILE *f, const gpurf_reproduce *r, const char *paper) {
  fputs("<table>\n<tr><th>claim</th><th>metric</th><th>published</th><th>ours</th>"
        "<th>error</th><th>direction</th><th>source / note</th></tr>\n", f);
  for (size_t i = 0; i < r->n_claims; i++) {
    const gpurf_reproduce_claim *c = &r->claims[i];
    if (c->per_workload || strcmp(c->paper, paper)) continue;
    fputs("<tr><td><code>", f);
    xml_text(f, c->claim);
    fputs("</code></td><td>", f);
    xml_text(f, c->metric);
    fputs("</td><td>", f);
    if (c->has_published) {
      fputs(relation_sign(c->relation), f);
      value_text(f, c, c->published);
    }
    fputs("</td><td>", f);
    if (c->status == GPURF_REPRODUCE_COMPUTED)
      value_text(f, c, c->ours);
    else
      fprintf(f, "<em>%s</em>", gpurf_reproduce_status_name(c->status));
    fputs("</td><td>", f);
    if (c->status == GPURF_REPRODUCE_COMPUTED && c->has_rel_error)
      fprintf(f, "%+.0f%%", 100 * c->rel_error);
    fprintf(f, "</td><td>%s</td><td>", c->direction_ok == 1 ? "agrees" : c->direction_ok == 0 ? "<b>differs</b>" : "");
    xml_text(f, c->source);
    if (c->note) {
      fputs("<br/><small>", f);
      xml_text(f, c->note);
      fputs("</small>", f);
    }
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
}

static void html(FILE *f, const gpurf_reproduce *r) {
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
        "<title>gpurf reproduce</title>\n<style>\n"
        "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}\n"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:3px 7px;"
        "font-size:13px;vertical-align:top}th{background:#eee}\nfigure{margin:1em 0}\n"
        "</style>\n</head>\n<body>\n<h1>gpurf reproduce</h1>\n"
        "<p>Each paper's claims, the published number beside ours. Ratios are shown as "
        "percentages (ratio &#8722; 1); per-workload bars with the set's mean, the published "
        "value dashed in red.</p>\n<h2>Summary</h2>\n<table>\n<tr><th>paper</th><th>workloads</th>"
        "<th>claims</th><th>computed</th><th>direction agrees</th><th>and within a third</th></tr>\n",
        f);
  for (int p = 0; p < r->n_papers; p++) {
    const repro_paper_plan *pp = &r->papers[p];
    gpurf_reproduce_tally t;
    gpurf_reproduce_tally_get(r, pp->def->info.id, &t);
    fprintf(f, "<tr><td><a href=\"#%s\">%s</a></td><td>", pp->def->info.id, pp->def->info.id);
    xml_text(f, pp->set);
    fprintf(f, "</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td></tr>\n", t.claims, t.computed,
            t.direction_ok, t.within_third);
  }
  fputs("</table>\n", f);
  for (int p = 0; p < r->n_papers; p++) {
    const repro_paper_plan *pp = &r->papers[p];
    const char *id = pp->def->info.id;
    fprintf(f, "<h2 id=\"%s\">%s: ", id, id);
    xml_text(f, pp->def->info.title);
    fputs("</h2>\n<p>", f);
    xml_text(f, pp->def->info.citation);
    fputs(". Workloads: ", f);
    xml_text(f, pp->set);
    fputs(" (", f);
    for (int w = 0; w < pp->n_workloads; w++) {
      if (w) fputs(", ", f);
      xml_text(f, r->workloads[pp->workloads[w]].name);
    }
    fputs(").</p>\n", f);
    html_claims(f, r, id);
    for (size_t i = 0; i < r->n_claims; i++) {
      if (strcmp(r->claims[i].paper, id) || !has_figure(r, i)) continue;
      fputs("<figure>\n", f);
      svg_figure(f, r, i);
      fputs("</figure>\n", f);
    }
  }
  fputs("</body>\n</html>\n", f);
}

int gpurf_reproduce_report_write(gpurf_ctx *ctx, const gpurf_reproduce *r, const char *dir) {
  out_file o = {{0}, {0}, NULL};
  int rc = out_open(ctx, &o, dir, "index.html");
  if (rc == GPURF_OK) html(o.f, r);
  rc = out_close(ctx, &o, rc);
  if (rc == GPURF_OK) rc = out_open(ctx, &o, dir, "results.json");
  if (rc == GPURF_OK) rc = gpurf_reproduce_write_json(ctx, r, o.f);
  rc = out_close(ctx, &o, rc);
  for (int p = 0; p < r->n_papers && rc == GPURF_OK; p++) {
    char name[REPRO_NAME_MAX + 8];
    snprintf(name, sizeof name, "%s.csv", r->papers[p].def->info.id);
    rc = out_open(ctx, &o, dir, name);
    if (rc == GPURF_OK) rc = gpurf_reproduce_write_csv(ctx, r, r->papers[p].def->info.id, o.f);
    rc = out_close(ctx, &o, rc);
  }
  for (size_t i = 0; i < r->n_claims && rc == GPURF_OK; i++) {
    if (!has_figure(r, i)) continue;
    char name[2 * REPRO_NAME_MAX + 16];
    snprintf(name, sizeof name, "%s-%s.svg", r->claims[i].paper, r->claims[i].claim);
    rc = out_open(ctx, &o, dir, name);
    if (rc == GPURF_OK) svg_figure(o.f, r, i);
    rc = out_close(ctx, &o, rc);
  }
  return rc;
}
