/* gpurf sweep MODEL --set key=v1,v2 ...: the Cartesian product of design
 * keys, each point reduced to area, leakage, read-path delay and energy by
 * role, with per-event energies of every component; optionally plotted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/sweep.h"

#define PROG "gpurf sweep"
#define MAX_AXES 8
#define MAX_KEYS 8
#define MAX_VALUES 256
#define MAX_POINTS 1000
#define VALUE_MAX 256 /* characters of one value */

typedef struct axis {
  int nkeys;
  const char *keys[MAX_KEYS];
  int nvalues;
  const char *values[MAX_VALUES][MAX_KEYS]; /* into the split --set text */
} axis;

typedef struct sweep_opts {
  const char *model, *plot;
  out_format fmt;
  int base;
  int naxes;
  axis *axes[MAX_AXES];
  char *text[MAX_AXES]; /* the --set argument, split in place */
} sweep_opts;

/* Roles and parts of a design's summary, as columns and keys. */
enum {
  AR_COUNT = GPURF_METRICS_AREA_ROLES,
  LK_COUNT = GPURF_METRICS_LEAKAGE_ROLES,
  RP_COUNT = GPURF_METRICS_PATH_PARTS
};

/* Splits s at sep into at most max pieces (in place); -1 if more. */
static int split(char *s, char sep, char **out, int max) {
  int n = 0;
  for (;;) {
    if (n == max) return -1;
    out[n++] = s;
    char *p = strchr(s, sep);
    if (!p) return n;
    *p = '\0';
    s = p + 1;
  }
}

/* KEY[+KEY...]=V[:V...][,V[:V...]...] into an axis. */
static int parse_axis(char *text, axis *ax) {
  char *eq = strchr(text, '=');
  if (!eq || eq == text || !eq[1]) {
    cli_usage_error(PROG, "--set needs KEY=V1,V2,..., not '%s'", text);
    return CLI_USAGE;
  }
  *eq = '\0';
  char *keys[MAX_KEYS + 1], *tuples[MAX_VALUES + 1];
  ax->nkeys = split(text, '+', keys, MAX_KEYS);
  if (ax->nkeys < 0) {
    cli_usage_error(PROG, "--set %s: at most %d keys move together", text, MAX_KEYS);
    return CLI_USAGE;
  }
  for (int k = 0; k < ax->nkeys; k++) {
    if (!keys[k][0]) {
      cli_usage_error(PROG, "--set %s: an empty key", text);
      return CLI_USAGE;
    }
    ax->keys[k] = keys[k];
  }
  ax->nvalues = split(eq + 1, ',', tuples, MAX_VALUES);
  if (ax->nvalues < 0) {
    cli_usage_error(PROG, "--set %s: at most %d values", text, MAX_VALUES);
    return CLI_USAGE;
  }
  for (int v = 0; v < ax->nvalues; v++) {
    char *parts[MAX_KEYS + 1];
    /* A single key takes its value whole (a node path may hold ':'). */
    int n = ax->nkeys == 1 ? (parts[0] = tuples[v], 1) : split(tuples[v], ':', parts, MAX_KEYS);
    if (n != ax->nkeys) {
      cli_usage_error(PROG, "--set %s: value %d has %d part%s for %d keys (join them with ':')",
                      text, v + 1, n < 0 ? MAX_KEYS + 1 : n, n == 1 ? "" : "s", ax->nkeys);
      return CLI_USAGE;
    }
    for (int k = 0; k < n; k++) {
      if (!parts[k][0] || strlen(parts[k]) >= VALUE_MAX) {
        cli_usage_error(PROG, "--set %s: value %d is empty or too long", text, v + 1);
        return CLI_USAGE;
      }
      ax->values[v][k] = parts[k];
    }
  }
  return CLI_OK;
}

static int parse_args(const cli_parsed *p, sweep_opts *o) {
  const char *name, *v;
  long long base = 0;
  o->model = p->pos[0];
  o->plot = cli_get(p, "--plot");
  o->fmt = p->fmt;
  if (cli_count_opt(p, "--base", MAX_POINTS, &base)) return CLI_USAGE;
  o->base = (int)base;
  for (int k = 0; cli_next(p, &k, &name, &v);) {
    if (o->naxes == MAX_AXES) {
      cli_usage_error(p->prog, "at most %d --set options", MAX_AXES);
      return CLI_USAGE;
    }
    o->axes[o->naxes] = calloc(1, sizeof(axis));
    o->text[o->naxes] = malloc(strlen(v) + 1);
    if (!o->axes[o->naxes] || !o->text[o->naxes]) {
      fprintf(stderr, PROG ": out of memory\n");
      free(o->axes[o->naxes]);
      free(o->text[o->naxes]);
      return CLI_FAIL;
    }
    memcpy(o->text[o->naxes], v, strlen(v) + 1);
    int rc = parse_axis(o->text[o->naxes], o->axes[o->naxes]);
    o->naxes++;
    if (rc != CLI_OK) return rc;
  }
  if (o->naxes == 0) {
    cli_usage_error(p->prog, "nothing to sweep: give --set KEY=V1,V2,...");
    return CLI_USAGE;
  }
  for (int i = 0; i < o->naxes; i++)
    for (int k = 0; k < o->axes[i]->nkeys; k++)
      for (int j = 0; j <= i; j++)
        for (int l = 0; l < (j == i ? k : o->axes[j]->nkeys); l++)
          if (strcmp(o->axes[i]->keys[k], o->axes[j]->keys[l]) == 0) {
            cli_usage_error(p->prog, "key '%s' is swept twice", o->axes[i]->keys[k]);
            return CLI_USAGE;
          }
  return CLI_OK;
}

/* One evaluated point: the value index on every axis and the table. */
typedef struct point {
  int index[MAX_AXES];
  char label[512];
  gpurf_rf_table table;
  gpurf_metrics_summary *sum;
} point;

/* Events in order of first appearance over all points: the CSV columns. */
typedef struct event_col {
  char comp[GPURF_RF_NAME_MAX], event[GPURF_RF_NAME_MAX];
} event_col;

static int event_energy(const gpurf_rf_table *t, const event_col *e, double *out) {
  int c = gpurf_rf_table_find(t, e->comp);
  int k = c < 0 ? -1 : gpurf_rf_table_find_event(t, c, e->event);
  if (k < 0) return 0;
  *out = t->components[c].events[k].energy_j;
  return 1;
}

static int collect_events(const point *pts, int n, event_col *cols, int max) {
  int nc = 0;
  for (int i = 0; i < n; i++)
    for (int c = 0; c < pts[i].table.n_components; c++)
      for (int e = 0; e < pts[i].table.components[c].n_events; e++) {
        const char *cn = pts[i].table.components[c].name,
                   *en = pts[i].table.components[c].events[e].name;
        int seen = 0;
        for (int k = 0; k < nc && !seen; k++)
          seen = strcmp(cols[k].comp, cn) == 0 && strcmp(cols[k].event, en) == 0;
        if (seen || nc == max) continue;
        snprintf(cols[nc].comp, sizeof cols[nc].comp, "%s", cn);
        snprintf(cols[nc].event, sizeof cols[nc].event, "%s", en);
        nc++;
      }
  return nc;
}

static void print_csv(sbuf *o, const sweep_opts *op, const point *pts, int n, const event_col *ev,
                      int nev) {
  sb_printf(o, "point");
  for (int i = 0; i < op->naxes; i++)
    for (int k = 0; k < op->axes[i]->nkeys; k++) sb_printf(o, ",%s", op->axes[i]->keys[k]);
  sb_printf(o, ",area_mm2");
  for (int p = 0; p < AR_COUNT; p++) sb_printf(o, ",area_%s_mm2", gpurf_metrics_area_role_name(p));
  sb_printf(o, ",leakage_mw");
  for (int p = 0; p < LK_COUNT; p++)
    sb_printf(o, ",leakage_%s_mw", gpurf_metrics_leakage_role_name(p));
  sb_printf(o, ",delay_ns,delay_cycles");
  for (int p = 0; p < RP_COUNT; p++) sb_printf(o, ",delay_%s_ns", gpurf_metrics_path_part_name(p));
  sb_printf(o, ",read_energy_pj");
  for (int p = 0; p < RP_COUNT; p++)
    sb_printf(o, ",read_energy_%s_pj", gpurf_metrics_path_part_name(p));
  for (int k = 0; k < nev; k++) sb_printf(o, ",energy_%s_%s_pj", ev[k].comp, ev[k].event);
  sb_printf(o, "\n");
  for (int i = 0; i < n; i++) {
    const gpurf_metrics_summary *s = pts[i].sum;
    sb_printf(o, "%d", i + 1);
    for (int a = 0; a < op->naxes; a++)
      for (int k = 0; k < op->axes[a]->nkeys; k++)
        sb_printf(o, ",%s", op->axes[a]->values[pts[i].index[a]][k]);
    sb_printf(o, ",%.8g", gpurf_metrics_summary_area_total_m2(s) * 1e6);
    for (int p = 0; p < AR_COUNT; p++) sb_printf(o, ",%.8g", gpurf_metrics_summary_area_m2(s, p) * 1e6);
    sb_printf(o, ",%.8g", gpurf_metrics_summary_leakage_total_w(s) * 1e3);
    for (int p = 0; p < LK_COUNT; p++)
      sb_printf(o, ",%.8g", gpurf_metrics_summary_leakage_w(s, p) * 1e3);
    sb_printf(o, ",%.8g,%lld", gpurf_metrics_summary_read_path_total_s(s) * 1e9,
              gpurf_metrics_summary_read_path_cycles(s));
    for (int p = 0; p < RP_COUNT; p++)
      sb_printf(o, ",%.8g", gpurf_metrics_summary_read_path_s(s, p) * 1e9);
    sb_printf(o, ",%.8g", gpurf_metrics_summary_read_energy_total_j(s) * 1e12);
    for (int p = 0; p < RP_COUNT; p++)
      sb_printf(o, ",%.8g", gpurf_metrics_summary_read_energy_j(s, p) * 1e12);
    for (int k = 0; k < nev; k++) {
      double e;
      if (event_energy(&pts[i].table, &ev[k], &e))
        sb_printf(o, ",%.8g", e * 1e12);
      else
        sb_printf(o, ",");
    }
    sb_printf(o, "\n");
  }
}

static void print_json(sbuf *o, const gpurf_rf_design *d, const sweep_opts *op, const point *pts,
                       int n) {
  jw w;
  jw_init(&w, o);
  jw_obj_begin(&w, NULL);
  jw_str(&w, "design", d->design);
  jw_str(&w, "source", d->source);
  jw_arr_begin(&w, "points");
  for (int i = 0; i < n; i++) {
    const gpurf_metrics_summary *s = pts[i].sum;
    const gpurf_rf_table *t = &pts[i].table;
    jw_obj_begin(&w, NULL);
    jw_int(&w, "point", i + 1);
    jw_obj_begin(&w, "set");
    for (int a = 0; a < op->naxes; a++)
      for (int k = 0; k < op->axes[a]->nkeys; k++)
        jw_str(&w, op->axes[a]->keys[k], op->axes[a]->values[pts[i].index[a]][k]);
    jw_obj_end(&w);
    jw_num(&w, "area_mm2", gpurf_metrics_summary_area_total_m2(s) * 1e6);
    jw_obj_begin(&w, "area_breakdown_mm2");
    for (int p = 0; p < AR_COUNT; p++)
      jw_num(&w, gpurf_metrics_area_role_name(p), gpurf_metrics_summary_area_m2(s, p) * 1e6);
    jw_obj_end(&w);
    jw_num(&w, "leakage_mw", gpurf_metrics_summary_leakage_total_w(s) * 1e3);
    jw_obj_begin(&w, "leakage_breakdown_mw");
    for (int p = 0; p < LK_COUNT; p++)
      jw_num(&w, gpurf_metrics_leakage_role_name(p), gpurf_metrics_summary_leakage_w(s, p) * 1e3);
    jw_obj_end(&w);
    jw_num(&w, "delay_ns", gpurf_metrics_summary_read_path_total_s(s) * 1e9);
    jw_int(&w, "delay_cycles", gpurf_metrics_summary_read_path_cycles(s));
    jw_obj_begin(&w, "delay_breakdown_ns");
    for (int p = 0; p < RP_COUNT; p++)
      jw_num(&w, gpurf_metrics_path_part_name(p), gpurf_metrics_summary_read_path_s(s, p) * 1e9);
    jw_obj_end(&w);
    jw_num(&w, "read_energy_pj", gpurf_metrics_summary_read_energy_total_j(s) * 1e12);
    jw_obj_begin(&w, "read_energy_breakdown_pj");
    for (int p = 0; p < RP_COUNT; p++)
      jw_num(&w, gpurf_metrics_path_part_name(p), gpurf_metrics_summary_read_energy_j(s, p) * 1e12);
    jw_obj_end(&w);
    jw_obj_begin(&w, "energy_pj");
    for (int c = 0; c < t->n_components; c++) {
      jw_obj_begin(&w, t->components[c].name);
      for (int e = 0; e < t->components[c].n_events; e++)
        jw_num(&w, t->components[c].events[e].name, t->components[c].events[e].energy_j * 1e12);
      jw_obj_end(&w);
    }
    jw_obj_end(&w);
    jw_obj_end(&w);
  }
  jw_arr_end(&w);
  jw_obj_end(&w);
  jw_finish(&w);
}

static void print_text(sbuf *o, const gpurf_rf_design *d, const point *pts, int n) {
  sb_printf(o, "Sweep of %s (%s): %d point%s\n", d->design, d->path, n, n == 1 ? "" : "s");
  for (int i = 0; i < n; i++) {
    const gpurf_metrics_summary *s = pts[i].sum;
    const gpurf_rf_table *t = &pts[i].table;
    long long cycles = gpurf_metrics_summary_read_path_cycles(s);
    sb_printf(o, "\nPoint %d: %s\n", i + 1, pts[i].label);
    sb_printf(o, "  area %.5g mm^2: cell arrays %.5g, bank periphery %.5g, crossbar %.5g, "
                 "arbiter %.5g, extras %.5g\n",
              gpurf_metrics_summary_area_total_m2(s) * 1e6,
              gpurf_metrics_summary_area_m2(s, GPURF_METRICS_AREA_CELLS) * 1e6,
              gpurf_metrics_summary_area_m2(s, GPURF_METRICS_AREA_PERIPHERY) * 1e6,
              gpurf_metrics_summary_area_m2(s, GPURF_METRICS_AREA_CROSSBAR) * 1e6,
              gpurf_metrics_summary_area_m2(s, GPURF_METRICS_AREA_ARBITER) * 1e6,
              gpurf_metrics_summary_area_m2(s, GPURF_METRICS_AREA_EXTRAS) * 1e6);
    sb_printf(o, "  leakage %.5g mW: banks %.5g, crossbar %.5g, arbiter %.5g, extras %.5g\n",
              gpurf_metrics_summary_leakage_total_w(s) * 1e3,
              gpurf_metrics_summary_leakage_w(s, GPURF_METRICS_LEAKAGE_BANKS) * 1e3,
              gpurf_metrics_summary_leakage_w(s, GPURF_METRICS_LEAKAGE_CROSSBAR) * 1e3,
              gpurf_metrics_summary_leakage_w(s, GPURF_METRICS_LEAKAGE_ARBITER) * 1e3,
              gpurf_metrics_summary_leakage_w(s, GPURF_METRICS_LEAKAGE_EXTRAS) * 1e3);
    sb_printf(o, "  read path %.4g ns (%lld cycle%s at %g GHz): arbiter %.4g, bank %.4g, crossbar %.4g\n",
              gpurf_metrics_summary_read_path_total_s(s) * 1e9, cycles, cycles == 1 ? "" : "s",
              t->clock_hz * 1e-9,
              gpurf_metrics_summary_read_path_s(s, GPURF_METRICS_PATH_ARBITER) * 1e9,
              gpurf_metrics_summary_read_path_s(s, GPURF_METRICS_PATH_BANK) * 1e9,
              gpurf_metrics_summary_read_path_s(s, GPURF_METRICS_PATH_CROSSBAR) * 1e9);
    sb_printf(o, "  energy per read %.5g pJ: bank %.5g, crossbar %.5g, arbiter %.5g\n",
              gpurf_metrics_summary_read_energy_total_j(s) * 1e12,
              gpurf_metrics_summary_read_energy_j(s, GPURF_METRICS_PATH_BANK) * 1e12,
              gpurf_metrics_summary_read_energy_j(s, GPURF_METRICS_PATH_CROSSBAR) * 1e12,
              gpurf_metrics_summary_read_energy_j(s, GPURF_METRICS_PATH_ARBITER) * 1e12);
    sb_printf(o, "  events (pJ):");
    for (int c = 0; c < t->n_components; c++)
      for (int e = 0; e < t->components[c].n_events; e++)
        sb_printf(o, " %s.%s %.5g", t->components[c].name, t->components[c].events[e].name,
                  t->components[c].events[e].energy_j * 1e12);
    sb_printf(o, "\n");
  }
}

static void make_label(const sweep_opts *o, point *p) {
  size_t used = 0;
  p->label[0] = '\0';
  for (int a = 0; a < o->naxes; a++)
    for (int k = 0; k < o->axes[a]->nkeys && used < sizeof p->label; k++) {
      int w = snprintf(p->label + used, sizeof p->label - used, "%s%s=%s", used ? " " : "",
                       o->axes[a]->keys[k], o->axes[a]->values[p->index[a]][k]);
      if (w > 0) used += (size_t)w;
    }
}

/* The plot's x labels: the values alone, joined by '/'. */
static void plot_label(const sweep_opts *o, const point *p, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  for (int a = 0; a < o->naxes; a++)
    for (int k = 0; k < o->axes[a]->nkeys && used < size; k++) {
      int w = snprintf(buf + used, size - used, "%s%s", used ? "/" : "",
                       o->axes[a]->values[p->index[a]][k]);
      if (w > 0) used += (size_t)w;
    }
}

static int run(gpurf_ctx *ctx, const sweep_opts *o) {
  int n = 1;
  for (int a = 0; a < o->naxes; a++) {
    if (n > MAX_POINTS / o->axes[a]->nvalues) {
      cli_usage_error(PROG, "more than %d points", MAX_POINTS);
      return CLI_USAGE;
    }
    n *= o->axes[a]->nvalues;
  }
  if (o->base > n) {
    cli_usage_error(PROG, "--base %d: the sweep has %d point%s", o->base, n, n == 1 ? "" : "s");
    return CLI_USAGE;
  }
  if (o->plot) {
    int rc = sweep_plot_check(o->plot);
    if (rc != CLI_OK) return rc;
  }
  gpurf_rf_design *base = calloc(1, sizeof *base), *d = calloc(1, sizeof *d);
  point *pts = calloc((size_t)n, sizeof *pts);
  event_col *ev = calloc(GPURF_RF_MAX_COMPONENTS * GPURF_RF_MAX_EVENTS, sizeof *ev);
  sweep_plot_point *pp = calloc((size_t)n, sizeof *pp);
  char(*xl)[256] = calloc((size_t)n, sizeof *xl);
  int rc = CLI_FAIL, progress = isatty(2);
  if (!base || !d || !pts || !ev || !pp || !xl) {
    fprintf(stderr, PROG ": out of memory\n");
    goto done;
  }
  if (gpurf_rf_design_load(ctx, o->model, base) != GPURF_OK) {
    cli_print_error(ctx);
    goto done;
  }
  /* Every value is tried on the unchanged design first, so a bad key or
   * value fails before any point is evaluated. */
  for (int a = 0; a < o->naxes; a++)
    for (int v = 0; v < o->axes[a]->nvalues; v++)
      for (int k = 0; k < o->axes[a]->nkeys; k++) {
        *d = *base;
        if (gpurf_rf_design_set(ctx, d, o->axes[a]->keys[k], o->axes[a]->values[v][k]) !=
            GPURF_OK) {
          cli_print_error(ctx);
          goto done;
        }
      }
  for (int i = 0; i < n; i++) {
    point *p = &pts[i];
    int rest = i;
    for (int a = o->naxes - 1; a >= 0; a--) {
      p->index[a] = rest % o->axes[a]->nvalues;
      rest /= o->axes[a]->nvalues;
    }
    make_label(o, p);
    *d = *base;
    for (int a = 0; a < o->naxes; a++)
      for (int k = 0; k < o->axes[a]->nkeys; k++)
        gpurf_rf_design_set(ctx, d, o->axes[a]->keys[k], o->axes[a]->values[p->index[a]][k]);
    if (progress) fprintf(stderr, "\r" PROG ": point %d of %d", i + 1, n);
    if (gpurf_rf_design_table(ctx, d, &p->table) != GPURF_OK) {
      char why[1024];
      gpurf_error_format(gpurf_ctx_error(ctx), why, sizeof why);
      fprintf(stderr, "%s" PROG ": point %d (%s): %s\n", progress ? "\n" : "", i + 1, p->label,
              why);
      goto done;
    }
    if (gpurf_metrics_summary_alloc(ctx, &p->sum) != GPURF_OK ||
        gpurf_metrics_summarise(ctx, &p->table, p->sum) != GPURF_OK) {
      if (progress) fprintf(stderr, "\n");
      cli_print_error(ctx);
      goto done;
    }
  }
  if (progress) fprintf(stderr, "\r%*s\r", 60, "");
  sbuf out;
  sb_init(&out);
  if (o->fmt == FMT_CSV) {
    int nev = collect_events(pts, n, ev, GPURF_RF_MAX_COMPONENTS * GPURF_RF_MAX_EVENTS);
    print_csv(&out, o, pts, n, ev, nev);
  } else if (o->fmt == FMT_JSON) {
    print_json(&out, base, o, pts, n);
  } else {
    print_text(&out, base, pts, n);
  }
  rc = CLI_OK;
  if (o->plot) {
    for (int i = 0; i < n; i++) {
      plot_label(o, &pts[i], xl[i], sizeof xl[i]);
      pp[i] = (sweep_plot_point){xl[i], pts[i].sum};
    }
    char title[512];
    /* The title names the keys, the ticks carry the values. */
    size_t used = (size_t)snprintf(title, sizeof title, "%s, sweeping ", base->design);
    for (int a = 0; a < o->naxes && used < sizeof title; a++)
      for (int k = 0; k < o->axes[a]->nkeys && used < sizeof title; k++)
        used += (size_t)snprintf(title + used, sizeof title - used, "%s%s",
                                 a + k ? " / " : "", o->axes[a]->keys[k]);
    rc = sweep_plot(o->plot, title, pp, n, o->base > 0 ? o->base - 1 : 0);
  }
  if (rc == CLI_OK) rc = sb_flush_stdout(&out);
  sb_free(&out);
done:
  for (int i = 0; pts && i < n; i++) gpurf_metrics_summary_free(pts[i].sum);
  free(base);
  free(d);
  free(pts);
  free(ev);
  free(pp);
  free(xl);
  return rc;
}

int cmd_sweep(gpurf_ctx *ctx, const cli_parsed *p) {
  sweep_opts o;
  memset(&o, 0, sizeof o);
  int rc = parse_args(p, &o);
  if (rc == CLI_OK) rc = run(ctx, &o);
  for (int i = 0; i < o.naxes; i++) {
    free(o.axes[i]);
    free(o.text[i]);
  }
  return rc;
}
