/* gpurf sweep MODEL --set key=v1,v2 ...: the Cartesian product of design
 * keys, each point reduced to area, leakage, read-path delay and energy by
 * role, with per-event energies of every component; optionally plotted.
 * The library (gpurf/sweep.h) evaluates; this file parses and prints. With
 * --shard a run writes its share of the points for `gpurf sweep merge`. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/sweep.h"

#define PROG "gpurf sweep"
#define MAX_POINTS GPURF_SWEEP_MAX_POINTS

typedef struct sweep_opts {
  const char *model, *plot, *out;
  out_format fmt;
  int base, jobs, shard_index, shard_count, merge, has_format;
  int naxes, nparts;
  const char *sets[GPURF_SWEEP_MAX_AXES]; /* the --set arguments */
  const char **parts;                     /* merge's results files */
} sweep_opts;

/* Roles and parts of a design's summary, as columns and keys. */
enum {
  AR_COUNT = GPURF_METRICS_AREA_ROLES,
  LK_COUNT = GPURF_METRICS_LEAKAGE_ROLES,
  RP_COUNT = GPURF_METRICS_PATH_PARTS
};

/* The options of `sweep` (merge = 0) or `sweep merge` (merge = 1); the
 * table has checked their names and shapes. */
static int parse_args(const cli_parsed *p, int merge, sweep_opts *o) {
  long long n = 0;
  const char *name, *v;
  o->merge = merge;
  o->fmt = p->fmt;
  o->has_format = cli_get(p, "--format") != NULL;
  o->plot = cli_get(p, "--plot");
  if (cli_count_opt(p, "--base", MAX_POINTS, &n)) return CLI_USAGE;
  o->base = (int)n;
  if (merge) {
    o->parts = (const char **)p->pos;
    o->nparts = p->npos;
    if (o->nparts == 0) {
      cli_usage_error(p->prog, "merge needs the results files of the shards");
      return CLI_USAGE;
    }
    return cli_stdin_once(p->prog, o->parts, o->nparts);
  }
  o->model = p->pos[0];
  o->out = cli_get(p, "--out");
  n = 0;
  if (cli_count_opt(p, "--jobs", 256, &n)) return CLI_USAGE;
  o->jobs = (int)n;
  if (cli_get(p, "--shard") &&
      cli_parse_shard(p->prog, cli_get(p, "--shard"), &o->shard_index, &o->shard_count))
    return CLI_USAGE;
  for (int k = 0; cli_next(p, &k, &name, &v);) {
    if (o->naxes == GPURF_SWEEP_MAX_AXES) {
      cli_usage_error(p->prog, "at most %d --set options", GPURF_SWEEP_MAX_AXES);
      return CLI_USAGE;
    }
    o->sets[o->naxes++] = v;
  }
  if (o->naxes == 0) {
    cli_usage_error(p->prog, "nothing to sweep: give --set KEY=V1,V2,...");
    return CLI_USAGE;
  }
  if (o->shard_count && (o->plot || o->base || o->has_format)) {
    cli_usage_error(p->prog, "--shard writes results for 'gpurf sweep merge', which takes "
                             "--format, --plot and --base");
    return CLI_USAGE;
  }
  if (o->out && !o->shard_count) {
    cli_usage_error(p->prog, "--out names the results file of a --shard");
    return CLI_USAGE;
  }
  return CLI_OK;
}

/* Events in order of first appearance over all points: the CSV columns. */
typedef struct event_col {
  char comp[GPURF_RF_NAME_MAX], event[GPURF_RF_NAME_MAX];
} event_col;

static int event_energy(const gpurf_sweep_point *p, const event_col *e, double *out) {
  for (int c = 0; c < p->n_components; c++) {
    if (strcmp(p->components[c].name, e->comp) != 0) continue;
    for (int k = 0; k < p->components[c].n_events; k++)
      if (strcmp(p->components[c].events[k].name, e->event) == 0) {
        *out = p->components[c].events[k].energy_j;
        return 1;
      }
    return 0;
  }
  return 0;
}

static int collect_events(const gpurf_sweep *sw, event_col *cols, int max) {
  int nc = 0;
  for (size_t i = 0; i < gpurf_sweep_point_count(sw); i++) {
    const gpurf_sweep_point *p = gpurf_sweep_point_get(sw, i);
    for (int c = 0; c < p->n_components; c++)
      for (int e = 0; e < p->components[c].n_events; e++) {
        const char *cn = p->components[c].name, *en = p->components[c].events[e].name;
        int seen = 0;
        for (int k = 0; k < nc && !seen; k++)
          seen = strcmp(cols[k].comp, cn) == 0 && strcmp(cols[k].event, en) == 0;
        if (seen || nc == max) continue;
        snprintf(cols[nc].comp, sizeof cols[nc].comp, "%s", cn);
        snprintf(cols[nc].event, sizeof cols[nc].event, "%s", en);
        nc++;
      }
  }
  return nc;
}

static void print_csv(sbuf *o, const gpurf_sweep *sw, const event_col *ev, int nev) {
  size_t naxes = gpurf_sweep_axis_count(sw);
  sb_printf(o, "point");
  for (size_t a = 0; a < naxes; a++)
    for (size_t k = 0; k < gpurf_sweep_key_count(sw, a); k++)
      sb_printf(o, ",%s", gpurf_sweep_key(sw, a, k));
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
  for (size_t i = 0; i < gpurf_sweep_point_count(sw); i++) {
    const gpurf_sweep_point *pt = gpurf_sweep_point_get(sw, i);
    const gpurf_metrics_summary *s = pt->summary;
    sb_printf(o, "%zu", i + 1);
    for (size_t a = 0; a < naxes; a++)
      for (size_t k = 0; k < gpurf_sweep_key_count(sw, a); k++)
        sb_printf(o, ",%s", gpurf_sweep_value(sw, i, a, k));
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
      if (event_energy(pt, &ev[k], &e))
        sb_printf(o, ",%.8g", e * 1e12);
      else
        sb_printf(o, ",");
    }
    sb_printf(o, "\n");
  }
}

static void print_json(sbuf *o, const gpurf_sweep *sw) {
  const gpurf_rf_design *d = gpurf_sweep_design(sw);
  jw w;
  jw_init(&w, o);
  jw_obj_begin(&w, NULL);
  jw_str(&w, "design", d->design);
  jw_str(&w, "source", d->source);
  jw_arr_begin(&w, "points");
  for (size_t i = 0; i < gpurf_sweep_point_count(sw); i++) {
    const gpurf_sweep_point *t = gpurf_sweep_point_get(sw, i);
    const gpurf_metrics_summary *s = t->summary;
    jw_obj_begin(&w, NULL);
    jw_int(&w, "point", (long long)i + 1);
    jw_obj_begin(&w, "set");
    for (size_t a = 0; a < gpurf_sweep_axis_count(sw); a++)
      for (size_t k = 0; k < gpurf_sweep_key_count(sw, a); k++)
        jw_str(&w, gpurf_sweep_key(sw, a, k), gpurf_sweep_value(sw, i, a, k));
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

static void print_text(sbuf *o, const gpurf_sweep *sw) {
  const gpurf_rf_design *d = gpurf_sweep_design(sw);
  size_t n = gpurf_sweep_point_count(sw);
  sb_printf(o, "Sweep of %s (%s): %zu point%s\n", d->design, d->path, n, n == 1 ? "" : "s");
  for (size_t i = 0; i < n; i++) {
    const gpurf_sweep_point *t = gpurf_sweep_point_get(sw, i);
    const gpurf_metrics_summary *s = t->summary;
    long long cycles = gpurf_metrics_summary_read_path_cycles(s);
    char label[512];
    gpurf_sweep_point_label(sw, i, label, sizeof label);
    sb_printf(o, "\nPoint %zu: %s\n", i + 1, label);
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

/* The plot's x labels: the values alone, joined by '/'. */
static void plot_label(const gpurf_sweep *sw, size_t i, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t a = 0; a < gpurf_sweep_axis_count(sw); a++)
    for (size_t k = 0; k < gpurf_sweep_key_count(sw, a) && used < size; k++) {
      int w = snprintf(buf + used, size - used, "%s%s", used ? "/" : "",
                       gpurf_sweep_value(sw, i, a, k));
      if (w > 0) used += (size_t)w;
    }
}

static int plot(const gpurf_sweep *sw, const char *path, int base) {
  size_t n = gpurf_sweep_point_count(sw);
  sweep_plot_point *pp = calloc(n, sizeof *pp);
  char(*xl)[256] = calloc(n, sizeof *xl);
  if (!pp || !xl) {
    free(pp);
    free(xl);
    fprintf(stderr, PROG ": out of memory\n");
    return CLI_FAIL;
  }
  for (size_t i = 0; i < n; i++) {
    plot_label(sw, i, xl[i], sizeof xl[i]);
    pp[i] = (sweep_plot_point){xl[i], gpurf_sweep_point_get(sw, i)->summary};
  }
  char title[512];
  /* The title names the keys, the ticks carry the values. */
  size_t used = (size_t)snprintf(title, sizeof title, "%s, sweeping ",
                                 gpurf_sweep_design(sw)->design);
  for (size_t a = 0; a < gpurf_sweep_axis_count(sw) && used < sizeof title; a++)
    for (size_t k = 0; k < gpurf_sweep_key_count(sw, a) && used < sizeof title; k++)
      used += (size_t)snprintf(title + used, sizeof title - used, "%s%s", a + k ? " / " : "",
                               gpurf_sweep_key(sw, a, k));
  int rc = sweep_plot(path, title, pp, (int)n, base > 0 ? base - 1 : 0);
  free(pp);
  free(xl);
  return rc;
}

/* Prints the whole sweep to standard output (and plots it). */
static int print(const gpurf_sweep *sw, const sweep_opts *o) {
  sbuf out;
  sb_init(&out);
  if (o->fmt == FMT_CSV) {
    int max = GPURF_RF_MAX_COMPONENTS * GPURF_RF_MAX_EVENTS;
    event_col *ev = calloc((size_t)max, sizeof *ev);
    if (!ev) {
      sb_free(&out);
      fprintf(stderr, PROG ": out of memory\n");
      return CLI_FAIL;
    }
    print_csv(&out, sw, ev, collect_events(sw, ev, max));
    free(ev);
  } else if (o->fmt == FMT_JSON) {
    print_json(&out, sw);
  } else {
    print_text(&out, sw);
  }
  int rc = o->plot ? plot(sw, o->plot, o->base) : CLI_OK;
  if (rc == CLI_OK) rc = sb_flush_stdout(&out);
  sb_free(&out);
  return rc;
}

/* The shard's results: to FILE, DIR/shard-I-of-N.results or standard
 * output. A file appears whole or not at all (written beside, renamed). */
static int write_shard(gpurf_ctx *ctx, const gpurf_sweep *sw, const sweep_opts *o) {
  if (!o->out) {
    if (gpurf_sweep_write_results(ctx, sw, stdout) == GPURF_OK) return CLI_OK;
    cli_print_error(ctx);
    return CLI_FAIL;
  }
  char path[4096], tmp[4200];
  size_t len = strlen(o->out);
  struct stat st;
  int is_dir = stat(o->out, &st) == 0 && S_ISDIR(st.st_mode);
  if (!is_dir && len > 0 && o->out[len - 1] == '/') {
    if (mkdir(o->out, 0777) != 0 && errno != EEXIST) {
      cli_errorf(PROG ": %s: cannot create directory: %s", o->out, strerror(errno));
      return CLI_FAIL;
    }
    is_dir = 1;
  }
  if (is_dir)
    snprintf(path, sizeof path, "%s%sshard-%d-of-%d.results", o->out,
             o->out[len - 1] == '/' ? "" : "/", o->shard_index, o->shard_count);
  else
    snprintf(path, sizeof path, "%s", o->out);
  if (cli_output_file_ok(path) != CLI_OK) return CLI_FAIL;
  snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", path);
  /* An interrupt removes the temporary file (cleanup.c). */
  cli_cleanup_mask mask;
  cli_cleanup_hold(&mask);
  int fd = mkstemp(tmp);
  int slot = fd >= 0 ? cli_cleanup_add(tmp) : -1;
  cli_cleanup_release(&mask);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    cli_errorf(PROG ": %s: cannot create: %s", path, strerror(errno));
    if (fd >= 0) close(fd), unlink(tmp);
    cli_cleanup_remove(slot);
    return CLI_FAIL;
  }
  int rc = gpurf_sweep_write_results(ctx, sw, f);
  int closed = fclose(f) == 0;
  if (rc == GPURF_OK && (!closed || rename(tmp, path) != 0)) {
    cli_errorf(PROG ": %s: cannot write: %s", path, strerror(errno));
    rc = GPURF_EIO;
  } else if (rc != GPURF_OK) {
    cli_print_error(ctx);
  }
  if (rc != GPURF_OK) unlink(tmp);
  cli_cleanup_remove(slot);
  return rc == GPURF_OK ? CLI_OK : CLI_FAIL;
}

static void show_progress(void *arg, size_t done, size_t total) {
  (void)arg;
  fprintf(stderr, "\r" PROG ": point %zu of %zu", done, total);
}

/* The sweep the options describe, evaluated (all points or a shard's), or
 * merged from results files; NULL after printing why. */
static gpurf_sweep *evaluate(gpurf_ctx *ctx, const sweep_opts *o, int *rc) {
  gpurf_sweep *sw = NULL;
  *rc = CLI_FAIL;
  if (o->merge) {
    if (gpurf_sweep_merge(ctx, o->parts, (size_t)o->nparts, &sw) != GPURF_OK) cli_print_error(ctx);
    else *rc = CLI_OK;
    return sw;
  }
  if (gpurf_sweep_alloc(ctx, o->model, &sw) != GPURF_OK) {
    cli_print_error(ctx);
    return NULL;
  }
  for (int i = 0; i < o->naxes; i++)
    if (gpurf_sweep_add(ctx, sw, o->sets[i]) != GPURF_OK) {
      const gpurf_error *e = gpurf_ctx_error(ctx);
      /* The library's "set" field is this command's --set option. */
      if (e->status == GPURF_ENOMEM) {
        cli_print_error(ctx);
      } else {
        cli_usage_error(PROG, "%s%s", strcmp(e->field, "set") ? "" : "--set ", e->message);
        *rc = CLI_USAGE;
      }
      gpurf_sweep_free(sw);
      return NULL;
    }
  size_t n = gpurf_sweep_point_count(sw);
  if ((size_t)o->base > n) {
    cli_usage_error(PROG, "--base %d: the sweep has %zu point%s", o->base, n, n == 1 ? "" : "s");
    *rc = CLI_USAGE;
  } else if (!o->plot || (*rc = sweep_plot_check(o->plot)) == CLI_OK) {
    int progress = isatty(2);
    gpurf_sweep_run_opts ro = {o->jobs, o->shard_index, o->shard_count,
                               progress ? show_progress : NULL, NULL};
    if (gpurf_sweep_prepare(ctx, sw) != GPURF_OK) {
      cli_print_error(ctx);
    } else if (gpurf_sweep_run(ctx, sw, &ro) != GPURF_OK) {
      /* A point that fails says so after the command's name. */
      const gpurf_error *e = gpurf_ctx_error(ctx);
      char why[2048];
      gpurf_error_format(e, why, sizeof why);
      fprintf(stderr, "%s%s%s\n", progress ? "\n" : "", e->file[0] ? "" : PROG ": ", why);
    } else {
      *rc = CLI_OK;
    }
    if (progress) fprintf(stderr, "\r%*s\r", 60, "");
  }
  if (*rc != CLI_OK) {
    gpurf_sweep_free(sw);
    return NULL;
  }
  return sw;
}

static int sweep(gpurf_ctx *ctx, const cli_parsed *p, int merge) {
  sweep_opts o;
  memset(&o, 0, sizeof o);
  int rc = parse_args(p, merge, &o);
  if (rc == CLI_OK && o.merge && o.plot) rc = sweep_plot_check(o.plot);
  gpurf_sweep *sw = rc == CLI_OK ? evaluate(ctx, &o, &rc) : NULL;
  if (sw && o.merge && (size_t)o.base > gpurf_sweep_point_count(sw)) {
    size_t n = gpurf_sweep_point_count(sw);
    cli_usage_error(PROG, "--base %d: the sweep has %zu point%s", o.base, n, n == 1 ? "" : "s");
    rc = CLI_USAGE;
  } else if (sw) {
    rc = o.shard_count ? write_shard(ctx, sw, &o) : print(sw, &o);
  }
  gpurf_sweep_free(sw);
  return rc < 0 ? CLI_OK : rc;
}

int cmd_sweep(gpurf_ctx *ctx, const cli_parsed *p) { return sweep(ctx, p, 0); }

int cmd_sweep_merge(gpurf_ctx *ctx, const cli_parsed *p) { return sweep(ctx, p, 1); }
