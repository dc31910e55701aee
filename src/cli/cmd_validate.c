/* gpurf validate: runs the bank model on every row of the reference sets in
 * DATA_DIR/validation/ and reports how far our numbers are from theirs. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/validate_report.h"

static const char *const validate_help =
    "usage: gpurf validate [--set NAME|FILE] [--format text|json|csv] [--check]\n"
    "\n"
    "Evaluates the bank model on every row of the reference sets in\n"
    "DATA_DIR/validation/*.tsv (or one set, by name or path) and prints ours,\n"
    "the reference and the relative error (ours - ref) / ref per metric, then\n"
    "per set and metric the median |error|, the worst row and whether the\n"
    "set's stated tolerance holds. Sets without a tolerance are reported only.\n"
    "--check   exit with status 1 when a gated set leaves its tolerance\n"
    "validation/README.md describes the file format.\n";

#define MAX_SETS 64

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collects the set files: one named set or every *.tsv of the directory,
 * sorted so the report is the same on every machine. */
static int find_sets(const char *data_dir, const char *which, char **paths, size_t *n) {
  char dir[VT_TEXT_MAX];
  *n = 0;
  if (which && (strchr(which, '/') || (strlen(which) > 4 && !strcmp(which + strlen(which) - 4,
                                                                      ".tsv")))) {
    paths[(*n)++] = strdup(which);
    return paths[0] ? 0 : -1;
  }
  if (!data_dir[0]) {
    fprintf(stderr, "gpurf validate: no data directory (set GPURF_DATA_DIR)\n");
    return -1;
  }
  snprintf(dir, sizeof dir, "%s/validation", data_dir);
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "gpurf validate: cannot open %s\n", dir);
    return -1;
  }
  struct dirent *e;
  while ((e = readdir(d)) != NULL && *n < MAX_SETS) {
    size_t len = strlen(e->d_name);
    if (len <= 4 || e->d_name[0] == '.' || strcmp(e->d_name + len - 4, ".tsv") != 0) continue;
    if (which && (len - 4 != strlen(which) || strncmp(e->d_name, which, len - 4) != 0)) continue;
    char path[2 * VT_TEXT_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (!(paths[*n] = strdup(path))) break;
    (*n)++;
  }
  closedir(d);
  if (e != NULL && *n < MAX_SETS) {
    fprintf(stderr, "gpurf validate: out of memory\n");
    return -1;
  }
  if (*n == 0) {
    fprintf(stderr, "gpurf validate: no validation set%s%s in %s\n", which ? " named " : "",
            which ? which : "", dir);
    return -1;
  }
  qsort(paths, *n, sizeof *paths, by_name);
  return 0;
}

/* Loaded nodes, kept for the run: most rows share a handful of them. */
typedef struct tech_cache {
  gpurf_tech **tech;
  char (*name)[VT_NAME_MAX];
  size_t n, cap;
} tech_cache;

static const gpurf_tech *cached_tech(gpurf_ctx *ctx, tech_cache *c, const char *node, int *oom) {
  for (size_t i = 0; i < c->n; i++)
    if (strcmp(c->name[i], node) == 0) return c->tech[i];
  if (c->n == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 8;
    gpurf_tech **t = realloc(c->tech, cap * sizeof *t);
    if (t) c->tech = t;
    char(*nm)[VT_NAME_MAX] = realloc(c->name, cap * sizeof *nm);
    if (nm) c->name = nm;
    if (!t || !nm) {
      *oom = 1;
      return NULL;
    }
    c->cap = cap;
  }
  if (!(c->tech[c->n] = cli_tech_load(ctx, node))) return NULL;
  snprintf(c->name[c->n], VT_NAME_MAX, "%s", node);
  return c->tech[c->n++];
}

static void row_failed(const vt_set *s, const vt_row *row, const gpurf_ctx *ctx) {
  char msg[2048];
  gpurf_error_format(gpurf_ctx_error(ctx), msg, sizeof msg);
  fprintf(stderr, "%s:%d: config '%s': %s\n", s->path, row->line, row->config, msg);
}

static int eval_row(gpurf_ctx *ctx, tech_cache *tc, const vt_set *s, const vt_row *row,
                    vr_row *out) {
  gpurf_bank_spec spec = row->spec;
  gpurf_cell cell;
  const char *cell_name = strcmp(row->cell, "sram") == 0 ? cli_sram_cell_for(&spec.ports)
                                                         : row->cell;
  int oom = 0;
  const gpurf_tech *tech = cached_tech(ctx, tc, row->node, &oom);
  if (oom) {
    fprintf(stderr, "gpurf validate: out of memory\n");
    return -1;
  }
  if (!tech || gpurf_cell_load(ctx, cell_name, &cell) != GPURF_OK) {
    row_failed(s, row, ctx);
    return -1;
  }
  if (!row->ports_given && cell.kind == GPURF_CELL_SRAM)
    spec.ports = (gpurf_ports){cell.u.sram.rw_ports, cell.u.sram.read_ports,
                               cell.u.sram.write_ports};
  spec.tech = tech;
  spec.cell = &cell;
  gpurf_cost cost;
  if (gpurf_bank_eval(ctx, &spec, &cost) != GPURF_OK) {
    row_failed(s, row, ctx);
    return -1;
  }
  snprintf(out->tech, sizeof out->tech, "%s", gpurf_tech_name(tech));
  snprintf(out->cell, sizeof out->cell, "%s", cell.name);
  gpurf_ports_format(&spec.ports, out->ports, sizeof out->ports);
  for (int m = 0; m < VT_METRIC_COUNT; m++) {
    out->ours[m] = vt_metric_of((vt_metric)m, &cost);
    int leak = m == VT_LEAKAGE || m == VT_LEAKAGE_SUB || m == VT_LEAKAGE_GATE;
    /* CACTI reports one bank plus the wiring between banks; gpurf reports
     * all banks. Gate leakage has no per-part breakdown and scales whole. */
    if (leak && s->leakage_per_bank) {
      double wiring_mw =
          m == VT_LEAKAGE_GATE ? 0.0 : cost.leakage_part_w[GPURF_PART_INTERBANK] * 1e3;
      out->ours[m] = (out->ours[m] - wiring_mw) / spec.banks + wiring_mw;
    }
  }
  return 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int summarise(vr_set *r) {
  const vt_set *s = &r->set;
  double *err = malloc((s->n_rows + 1) * sizeof *err);
  if (!err) return -1;
  r->pass = 1;
  for (int m = 0; m < VT_METRIC_COUNT; m++) {
    vr_stat *st = &r->stat[m];
    memset(st, 0, sizeof *st);
    double worst = -1;
    for (size_t i = 0; i < s->n_rows; i++) {
      if (!s->rows[i].has[m]) continue;
      double ratio = r->rows[i].ours[m] / s->rows[i].ref[m];
      err[st->rows++] = fabs(ratio - 1.0);
      if (vr_off_factor(ratio) > worst) {
        worst = vr_off_factor(ratio);
        st->worst = i;
        st->worst_ratio = ratio;
      }
    }
    if (st->rows == 0) continue;
    qsort(err, (size_t)st->rows, sizeof *err, cmp_double);
    int h = st->rows / 2;
    st->median_abs = st->rows % 2 ? err[h] : 0.5 * (err[h - 1] + err[h]);
    const vt_tolerance *t = &s->tol[m];
    if (!t->gated) continue;
    st->pass = (t->median == 0 || st->median_abs <= t->median) &&
               (t->max_ratio == 0 || worst <= t->max_ratio);
    if (!st->pass) r->pass = 0;
  }
  free(err);
  return 0;
}

int cmd_validate(gpurf_ctx *ctx, int argc, char **argv) {
  cli_args a = {argc, argv, 0, "gpurf validate"};
  const char *which = NULL;
  out_format fmt = FMT_TEXT;
  int check = 0;
  for (a.pos = 0; a.pos < a.argc; a.pos++) {
    const char *v, *arg = a.argv[a.pos];
    int bad = 0;
    if (cli_is_help(arg)) {
      fputs(validate_help, stdout);
      return CLI_OK;
    } else if (cli_opt_value(&a, "--format", &v, &bad)) {
      if (bad || cli_parse_format(a.prog, v, 1, &fmt)) return CLI_USAGE;
    } else if (cli_opt_value(&a, "--set", &v, &bad)) {
      if (bad) return CLI_USAGE;
      if (which || !*v) {
        cli_usage_error(a.prog, which ? "--set given twice" : "--set needs a name");
        return CLI_USAGE;
      }
      which = v;
    } else if (cli_is_flag(&a, "--check")) {
      check = 1;
    } else {
      cli_usage_error(a.prog, "%s '%s'", arg[0] == '-' ? "unknown option" : "unexpected argument",
                      arg);
      return CLI_USAGE;
    }
  }
  char *paths[MAX_SETS];
  size_t n = 0;
  const char *data_dir = gpurf_ctx_data_dir(ctx);
  if (find_sets(data_dir, which, paths, &n) != 0) return CLI_FAIL;
  vr_set *sets = calloc(n, sizeof *sets);
  tech_cache tc = {0};
  int rc = sets ? CLI_OK : CLI_FAIL;
  size_t loaded = 0;
  /* Every set is read before anything is evaluated, so a malformed file
   * is reported at once and nothing is printed. */
  for (; rc == CLI_OK && loaded < n; loaded++) {
    char err[2048];
    vr_set *r = &sets[loaded];
    if (vt_set_read(paths[loaded], &r->set, err, sizeof err) != 0) {
      fprintf(stderr, "%s\n", err);
      rc = CLI_FAIL;
      break;
    }
    size_t dl = strlen(data_dir);
    const char *p = paths[loaded];
    snprintf(r->shown_path, sizeof r->shown_path, "%s",
             dl && !strncmp(p, data_dir, dl) && p[dl] == '/' ? p + dl + 1 : p);
    if (!(r->rows = calloc(r->set.n_rows, sizeof *r->rows))) rc = CLI_FAIL;
  }
  int all_pass = 1;
  for (size_t i = 0; rc == CLI_OK && i < n; i++) {
    for (size_t k = 0; rc == CLI_OK && k < sets[i].set.n_rows; k++)
      if (eval_row(ctx, &tc, &sets[i].set, &sets[i].set.rows[k], &sets[i].rows[k]) != 0)
        rc = CLI_FAIL;
    if (rc == CLI_OK && summarise(&sets[i]) != 0) rc = CLI_FAIL;
    if (rc == CLI_OK && sets[i].set.gated && !sets[i].pass) all_pass = 0;
  }
  if (rc == CLI_OK) {
    sbuf out;
    sb_init(&out);
    if (fmt == FMT_JSON)
      vr_print_json(&out, sets, n, all_pass);
    else if (fmt == FMT_CSV)
      vr_print_csv(&out, sets, n);
    else
      vr_print_text(&out, sets, n, all_pass);
    rc = sb_flush_stdout(&out);
    sb_free(&out);
    if (rc == CLI_OK && check && !all_pass) {
      fprintf(stderr, "gpurf validate: a gated set is outside its tolerance\n");
      rc = CLI_FAIL;
    }
  }
  for (size_t i = 0; sets && i < loaded; i++) {
    vt_set_free(&sets[i].set);
    free(sets[i].rows);
  }
  for (size_t i = 0; i < n; i++) free(paths[i]);
  free(sets);
  for (size_t i = 0; i < tc.n; i++) gpurf_tech_free(tc.tech[i]);
  free(tc.tech);
  free(tc.name);
  return rc;
}
