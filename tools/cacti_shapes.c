/* Organisation agreement with CACTI 7: for every row of
 * validation/cacti7.tsv, the bank our search picks and the least-ED^2
 * organisation of CACTI's own sub-array shape (subarray_rows_x_cols), each
 * as ours / CACTI's per figure, and how many rows pick CACTI's shape.
 * Usage: cacti_shapes [SOURCE_DIR] [--parts] [--forced FILE]  (not run by
 * ctest; test_bank_cycle holds the figures at CACTI's shapes to the set's
 * row bounds, test_bank_forced those at the forced organisations). --parts
 * adds each organisation's read and write energy and access time by part,
 * to see which part decides between two shapes. --forced FILE (such as
 * validation/organisations/cacti7-forced.tsv: CACTI run at forced organisations) costs
 * ours at each row's organisation instead (cacti_forced.h) and ranks the
 * organisations of each configuration by each tool's ED^2. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cacti_forced.h"
#include "component/bank_internal.h"
#include "gpurf/gpurf.h"

enum { C_CONFIG, C_NODE, C_PORTS, C_BYTES, C_WIDTH, C_BANKS, C_ACCESS, C_CYCLE, C_READ, C_WRITE,
       C_AREA, C_SHAPE, C_COUNT };
static const char *const col_name[C_COUNT] = {
    "config", "node_nm", "ports", "bytes", "width_bits", "banks", "access_ns", "cycle_ns",
    "read_pj", "write_pj", "area_mm2", "subarray_rows_x_cols"};

/* Cuts a tab-separated line (its line end dropped) into at most max fields. */
static int split_tabs(char *line, char **field, int max) {
  line[strcspn(line, "\r\n")] = '\0';
  int nf = 0;
  for (char *p = line; p && nf < max;) {
    field[nf++] = p;
    p = strchr(p, '\t');
    if (p) *p++ = '\0';
  }
  return nf;
}

/* The column of each name in a header line; non-zero, with a message, when
 * one is missing. */
static int find_columns(const char *const *names, int n, char **field, int nf, int *col,
                        const char *path, int lineno) {
  for (int k = 0; k < n; k++) {
    col[k] = -1;
    for (int i = 0; i < nf; i++)
      if (!strcmp(field[i], names[k])) col[k] = i;
    if (col[k] < 0) {
      fprintf(stderr, "cacti_shapes: %s:%d: no column %s\n", path, lineno, names[k]);
      return 1;
    }
  }
  return 0;
}

static int fail(gpurf_ctx *ctx) {
  char line[1024];
  gpurf_error_format(gpurf_ctx_error(ctx), line, sizeof line);
  fprintf(stderr, "cacti_shapes: %s\n", line);
  return 1;
}

/* Our best organisation with CACTI's sub-array shape rows x cols: 1, 0
 * if there is none, -1 on an error. */
static int cost_at_shape(gpurf_ctx *ctx, const gpurf_bank_spec *s, int rows, int cols,
                         gpurf_bank_cost *out, subarray_cost *sa) {
  bank_in in;
  int found = 0;
  if (bank_in_init(ctx, s, &in) != GPURF_OK) return -1;
  in.subarray_eval = sram_subarray_eval;
  if (sram_bank_best_of_shape(ctx, &in, rows, cols, out, &found) != GPURF_OK) return -1;
  if (found && sram_subarray_eval(&in, &out->org, sa) != GPURF_OK) return -1;
  return found;
}

/* The stages of the shape's access and cycle, in ps. */
static void print_stages(const gpurf_bank_cost *c, const subarray_cost *sa) {
  const double ps = 1e12;
  printf("         stages ps: decode %.1f (row gate %.1f) wordline %.1f (ramp %.1f) bitline %.1f "
         "sense %.1f routing %.1f | wl reset %.1f precharge drv %.1f bl restore %.1f | "
         "access %.1f cycle %.1f\n",
         sa->t_decode_s * ps, sa->t_row_gate_s * ps, sa->t_wordline_s * ps,
         sa->wordline_ramp_s * ps, sa->t_bitline_s * ps, sa->t_sense_s * ps,
         c->delay_part_s[GPURF_BANK_PART_ROUTING] * ps, sa->t_wl_reset_s * ps,
         sa->t_precharge_drv_s * ps, sa->t_precharge_s * ps, c->access_time_s * ps,
         c->cycle_time_s * ps);
}

static void print_cost(const char *tag, const gpurf_bank_cost *c, const double ref[C_COUNT],
                       int parts) {
  double ed2 = 0.5 * (c->read_energy_j + c->write_energy_j) * c->access_time_s * c->access_time_s;
  printf("  %-6s %4d x %-4d mux %-2d %2d x %-2d  access %5.2f cycle %5.2f read %5.2f write %5.2f "
         "area %5.2f  ED^2 %.4g J s^2\n",
         tag, c->org.rows, c->org.cols, c->org.col_mux, c->org.ndwl, c->org.ndbl,
         c->access_time_s / ref[C_ACCESS], c->cycle_time_s / ref[C_CYCLE],
         c->read_energy_j / ref[C_READ], c->write_energy_j / ref[C_WRITE],
         c->area_m2 / ref[C_AREA], ed2);
  if (parts) {
    static const char *const part[GPURF_BANK_PART_COUNT] = {
        "cells", "dec", "wl", "bl", "sa", "wd", "od", "route", "ib", "sleep"};
    printf("         read pJ:");
    for (int p = 0; p < GPURF_BANK_PART_COUNT; p++) printf(" %s %.2f", part[p], c->read_part_j[p] * 1e12);
    printf("\n         write pJ:");
    for (int p = 0; p < GPURF_BANK_PART_COUNT; p++) printf(" %s %.2f", part[p], c->write_part_j[p] * 1e12);
    printf("\n         delay ps:");
    for (int p = 0; p < GPURF_BANK_PART_COUNT; p++) printf(" %s %.1f", part[p], c->delay_part_s[p] * 1e12);
    printf("\n");
  }
}

/* --forced: the rows of a forced-organisation file, ours at each. */
enum { F_CONFIG, F_NODE, F_PORTS, F_BYTES, F_WIDTH, F_BANKS, F_ROLE, F_NDWL, F_NDBL, F_NSPD, F_NDCM,
       F_NDSAM1, F_NDSAM2, F_SHAPE, F_ACCESS, F_CYCLE, F_READ, F_WRITE, F_LEAK, F_AREA, F_COUNT };
static const char *const fcol_name[F_COUNT] = {
    "config", "node_nm", "ports", "bytes", "width_bits", "banks", "role", "Ndwl", "Ndbl", "Nspd",
    "Ndcm", "Ndsam1", "Ndsam2", "subarray_rows_x_cols", "access_ns", "cycle_ns", "read_pj",
    "write_pj", "leak_mw", "area_mm2"};
/* The figures compared, in the order printed. */
enum { M_ACCESS, M_CYCLE, M_READ, M_WRITE, M_LEAK, M_AREA, M_COUNT };
static const char *const metric_name[M_COUNT] = {"access", "cycle", "read", "write", "leak", "area"};
#define MAX_FORCED 256

typedef struct forced_row {
  char config[64], base[64], role[64];
  forced_org f;
  double ref[M_COUNT];           /* CACTI, SI */
  double ours[FORCED_KINDS][M_COUNT];
  gpurf_bank_org org[FORCED_KINDS];
  int found[FORCED_KINDS];       /* 1 costed, 0 not formable, -1 rejected by our model */
} forced_row;

static double ed2_of(const double m[M_COUNT]) { return m[M_READ] * m[M_ACCESS] * m[M_ACCESS]; }

static void ours_of(const gpurf_bank_cost *c, int banks, double m[M_COUNT]) {
  m[M_ACCESS] = c->access_time_s;
  m[M_CYCLE] = c->cycle_time_s;
  m[M_READ] = c->read_energy_j;
  m[M_WRITE] = c->write_energy_j;
  m[M_LEAK] = forced_leakage_per_bank_w(c, banks);
  m[M_AREA] = c->area_m2;
}

static int cmp_dbl(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Rank (1 = least ED^2) of row i among the n rows from first, by ED^2 of
 * CACTI (kind < 0) or of ours (kind); 0 where that tool has no figure. */
static int ed2_rank(const forced_row *r, int first, int n, int i, int kind) {
  if (kind >= 0 && r[i].found[kind] != 1) return 0;
  double e = kind < 0 ? ed2_of(r[i].ref) : ed2_of(r[i].ours[kind]);
  int rank = 1;
  for (int j = first; j < first + n; j++) {
    if (j == i || (kind >= 0 && r[j].found[kind] != 1)) continue;
    double o = kind < 0 ? ed2_of(r[j].ref) : ed2_of(r[j].ours[kind]);
    rank += o < e;
  }
  return rank;
}

static void print_forced_summary(const forced_row *r, int n) {
  static const char *const kind_name[FORCED_KINDS] = {"same split", "same mux", "cacti space"};
  printf("ours / CACTI over the rows each stand-in forms (min / median / max):\n");
  for (int k = 0; k < FORCED_KINDS; k++) {
    double v[MAX_FORCED];
    int formed = 0;
    for (int i = 0; i < n; i++) formed += r[i].found[k] == 1;
    printf("  %-10s (%d rows):", kind_name[k], formed);
    for (int m = 0; m < M_COUNT; m++) {
      int c = 0;
      for (int i = 0; i < n; i++)
        if (r[i].found[k] == 1) v[c++] = r[i].ours[k][m] / r[i].ref[m];
      if (!c) continue;
      qsort(v, (size_t)c, sizeof v[0], cmp_dbl);
      printf(" %s %.2f/%.2f/%.2f", metric_name[m], v[0], c % 2 ? v[c / 2] : 0.5 * (v[c / 2 - 1] + v[c / 2]),
             v[c - 1]);
    }
    printf("\n");
  }
  /* Tracking: a step away from CACTI's pick changes each figure by a factor
   * in each tool; their quotient is 1 where ours follows CACTI's step. */
  static const char *const step[3] = {"rows/2", "cols/2", "near_gpurf"};
  printf("step from CACTI's pick, (ours_step / ours_pick) / (CACTI_step / CACTI_pick), min..max:\n");
  for (int k = 0; k < FORCED_KINDS; k++)
    for (int st = 0; st < 3; st++) {
      double lo[M_COUNT], hi[M_COUNT];
      int c = 0;
      for (int m = 0; m < M_COUNT; m++) lo[m] = INFINITY, hi[m] = -INFINITY;
      for (int i = 0; i < n; i++) {
        if (!strstr(r[i].role, step[st]) || strstr(r[i].role, "cacti_pick") || r[i].found[k] != 1)
          continue;
        int p = -1;
        for (int j = 0; j < n; j++)
          if (!strcmp(r[j].base, r[i].base) && strstr(r[j].role, "cacti_pick")) p = j;
        if (p < 0 || r[p].found[k] != 1) continue;
        c++;
        for (int m = 0; m < M_COUNT; m++) {
          double t = (r[i].ours[k][m] / r[p].ours[k][m]) / (r[i].ref[m] / r[p].ref[m]);
          if (t < lo[m]) lo[m] = t;
          if (t > hi[m]) hi[m] = t;
        }
      }
      if (!c) continue;
      printf("  %-10s %-10s (%2d):", kind_name[k], step[st], c);
      for (int m = 0; m < M_COUNT; m++) printf(" %s %.2f..%.2f", metric_name[m], lo[m], hi[m]);
      printf("\n");
    }
}

static int run_forced(gpurf_ctx *ctx, const gpurf_cell cell[3], const char *path, int parts) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "cacti_shapes: cannot open %s\n", path);
    return 1;
  }
  static forced_row row[MAX_FORCED];
  static const double si[F_COUNT] = {[F_ACCESS] = 1e-9, [F_CYCLE] = 1e-9, [F_READ] = 1e-12,
                                     [F_WRITE] = 1e-12, [F_LEAK] = 1e-3, [F_AREA] = 1e-6};
  char line[2048], *field[32];
  int col[F_COUNT], have_header = 0, n = 0, lineno = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    if (line[0] == '#' || line[0] == '\n') continue;
    int nf = split_tabs(line, field, 32);
    if (!have_header) {
      if (find_columns(fcol_name, F_COUNT, field, nf, col, path, lineno) != 0) {
        fclose(f);
        return 1;
      }
      have_header = 1;
      continue;
    }
    if (n >= MAX_FORCED || nf <= col[F_AREA]) {
      fprintf(stderr, "cacti_shapes: %s:%d: %s\n", path, lineno,
              n >= MAX_FORCED ? "too many rows" : "too few fields");
      fclose(f);
      return 1;
    }
    forced_row *r = &row[n++];
    snprintf(r->config, sizeof r->config, "%s", field[col[F_CONFIG]]);
    snprintf(r->base, sizeof r->base, "%.*s", (int)strcspn(field[col[F_CONFIG]], "/"),
             field[col[F_CONFIG]]);
    snprintf(r->role, sizeof r->role, "%s", field[col[F_ROLE]]);
    static const int mcol[M_COUNT] = {F_ACCESS, F_CYCLE, F_READ, F_WRITE, F_LEAK, F_AREA};
    for (int m = 0; m < M_COUNT; m++) r->ref[m] = atof(field[col[mcol[m]]]) * si[mcol[m]];
    r->f = (forced_org){atoi(field[col[F_NDWL]]), atoi(field[col[F_NDBL]]), atoi(field[col[F_NSPD]]),
                        atoi(field[col[F_NDCM]]), atoi(field[col[F_NDSAM1]]),
                        atoi(field[col[F_NDSAM2]]), 0, 0};
    if (sscanf(field[col[F_SHAPE]], "%d x %d", &r->f.rows, &r->f.cols) != 2) {
      fprintf(stderr, "cacti_shapes: %s:%d: subarray_rows_x_cols '%s' is not 'R x C'\n", path,
              lineno, field[col[F_SHAPE]]);
      fclose(f);
      return 1;
    }
    char node[16];
    snprintf(node, sizeof node, "%snm", field[col[F_NODE]]);
    gpurf_tech *tech = NULL;
    if (gpurf_tech_alloc(ctx, &tech) != GPURF_OK || gpurf_tech_load(ctx, node, tech) != GPURF_OK) {
      fclose(f);
      return fail(ctx);
    }
    gpurf_bank_spec s;
    gpurf_bank_spec_init(&s);
    s.tech = tech;
    if (gpurf_ports_parse(field[col[F_PORTS]], &s.ports) != GPURF_OK) {
      fclose(f);
      return fail(ctx);
    }
    s.cell = s.ports.rw == 1 && !s.ports.read && !s.ports.write        ? &cell[0]
             : !s.ports.rw && s.ports.read == 1 && s.ports.write == 1 ? &cell[1]
                                                                     : &cell[2];
    s.width_bits = atoi(field[col[F_WIDTH]]);
    s.entries = atoll(field[col[F_BYTES]]) * 8 / s.width_bits;
    s.banks = atoi(field[col[F_BANKS]]);
    s.temp_k = 360.0;
    s.opt = GPURF_BANK_OPT_ED2_READ;
    bank_in in;
    if (bank_in_init(ctx, &s, &in) != GPURF_OK) {
      fclose(f);
      return fail(ctx);
    }
    in.subarray_eval = sram_subarray_eval;
    /* The same bank in the cacti space (on the heap: a bank_in is large). */
    gpurf_bank_spec s_cacti = s;
    s_cacti.space = GPURF_BANK_SPACE_CACTI;
    bank_in *in_cacti = malloc(sizeof *in_cacti);
    if (!in_cacti || bank_in_init(ctx, &s_cacti, in_cacti) != GPURF_OK) {
      free(in_cacti);
      fclose(f);
      return in_cacti ? fail(ctx) : 1;
    }
    in_cacti->subarray_eval = sram_subarray_eval;
    printf("%-32s %-22s mux %d:", r->config, r->role, r->f.ndcm * r->f.ndsam1 * r->f.ndsam2);
    for (int k = 0; k < FORCED_KINDS; k++) {
      gpurf_bank_cost c;
      subarray_cost sa;
      const bank_in *ink = k == FORCED_CACTI_SPACE ? in_cacti : &in;
      r->found[k] = forced_our_org(ink, &r->f, (forced_kind)k, &r->org[k]);
      if (r->found[k] && forced_eval(ink, &r->org[k], &c, &sa) != GPURF_OK) {
        free(in_cacti);
        fclose(f);
        return fail(ctx);
      }
      if (r->found[k] && sa.reject[0]) r->found[k] = -1;
      static const char *const tag[FORCED_KINDS] = {"split", "mux", "cacti"};
      printf(" | %s", tag[k]);
      if (r->found[k] == 0) {
        printf(" not formable");
        continue;
      }
      printf(" %dx%d m%d", r->org[k].ndwl, r->org[k].ndbl, r->org[k].col_mux);
      if (r->found[k] < 0) {
        printf(" rejected: %s", sa.reject);
        continue;
      }
      ours_of(&c, s.banks, r->ours[k]);
      for (int m = 0; m < M_COUNT; m++) printf(" %.2f", r->ours[k][m] / r->ref[m]);
      if (parts) {
        printf("\n      ");
        print_cost(tag[k], &c, (const double[C_COUNT]){
            [C_ACCESS] = r->ref[M_ACCESS], [C_CYCLE] = r->ref[M_CYCLE], [C_READ] = r->ref[M_READ],
            [C_WRITE] = r->ref[M_WRITE], [C_AREA] = r->ref[M_AREA]}, 1);
        print_stages(&c, &sa);
      }
    }
    printf("\n");
    free(in_cacti);
    gpurf_tech_free(tech);
  }
  fclose(f);
  printf("\nED^2 (read energy x access^2) rank among each configuration's organisations, "
         "1 = least: CACTI / ours same split / ours same mux / ours in the cacti space "
         "(0: not costed)\n");
  for (int i = 0; i < n;) {
    int m = 1;
    while (i + m < n && !strcmp(row[i + m].base, row[i].base)) m++;
    printf("  %s:", row[i].base);
    for (int j = i; j < i + m; j++)
      printf(" %s %d/%d/%d/%d", row[j].config + strlen(row[j].base) + 1,
             ed2_rank(row, i, m, j, -1), ed2_rank(row, i, m, j, FORCED_SAME_SPLIT),
             ed2_rank(row, i, m, j, FORCED_SAME_MUX), ed2_rank(row, i, m, j, FORCED_CACTI_SPACE));
    printf("\n");
    i += m;
  }
  print_forced_summary(row, n);
  return 0;
}

int main(int argc, char **argv) {
  const char *dir = ".";
  const char *forced = NULL;
  int parts = 0;
  gpurf_bank_space space = GPURF_BANK_SPACE_CACTI; /* the set's space */
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--parts")) parts = 1;
    else if (!strcmp(argv[i], "--space") && i + 1 < argc) {
      if (gpurf_bank_space_parse(argv[++i], &space) != GPURF_OK) {
        fprintf(stderr, "cacti_shapes: --space takes own or cacti\n");
        return 2;
      }
    }
    else if (!strcmp(argv[i], "--forced") && i + 1 < argc) forced = argv[++i];
    else dir = argv[i];
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/validation/cacti7.tsv", dir);
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "cacti_shapes: cannot open %s\n", path);
    return 1;
  }
  gpurf_ctx *ctx = gpurf_ctx_alloc();
  if (!ctx || gpurf_ctx_set_data_dir(ctx, dir) != GPURF_OK) return ctx ? fail(ctx) : 1;
  static const char *const cell_name[3] = {"sram-6t", "sram-8t-1r1w", "sram-multiport"};
  gpurf_cell cell[3];
  for (int i = 0; i < 3; i++)
    if (gpurf_cell_load(ctx, cell_name[i], &cell[i]) != GPURF_OK) return fail(ctx);
  if (forced) {
    fclose(f);
    int rc = run_forced(ctx, cell, forced, parts);
    gpurf_ctx_free(ctx);
    return rc;
  }
  static const double si[C_COUNT] = {[C_ACCESS] = 1e-9, [C_CYCLE] = 1e-9, [C_READ] = 1e-12,
                                     [C_WRITE] = 1e-12, [C_AREA] = 1e-6};
  char line[2048], *field[32];
  int col[C_COUNT], have_header = 0, rows = 0, same = 0, lineno = 0;
  printf("ours / CACTI 7 per figure; pick = the search's organisation, shape = the least-ED^2\n"
         "organisation of CACTI's sub-array shape (rows x cols, mux, ndwl x ndbl), by the set's\n"
         "objective (ed2-read, CACTI's rule)\n");
  while (fgets(line, sizeof line, f)) {
    lineno++;
    if (line[0] == '#' || line[0] == '\n') continue;
    int nf = split_tabs(line, field, 32);
    if (!have_header) {
      if (find_columns(col_name, C_COUNT, field, nf, col, path, lineno) != 0) return 1;
      have_header = 1;
      continue;
    }
    double ref[C_COUNT];
    for (int k = 0; k < C_COUNT; k++) ref[k] = si[k] > 0.0 && col[k] < nf ? atof(field[col[k]]) * si[k] : 0.0;
    char node[16];
    snprintf(node, sizeof node, "%snm", field[col[C_NODE]]);
    gpurf_tech *tech = NULL;
    if (gpurf_tech_alloc(ctx, &tech) != GPURF_OK || gpurf_tech_load(ctx, node, tech) != GPURF_OK)
      return fail(ctx);
    gpurf_bank_spec s;
    gpurf_bank_spec_init(&s);
    s.tech = tech;
    if (gpurf_ports_parse(field[col[C_PORTS]], &s.ports) != GPURF_OK) return fail(ctx);
    s.cell = s.ports.rw == 1 && !s.ports.read && !s.ports.write        ? &cell[0]
             : !s.ports.rw && s.ports.read == 1 && s.ports.write == 1 ? &cell[1]
                                                                     : &cell[2];
    s.width_bits = atoi(field[col[C_WIDTH]]);
    s.entries = atoll(field[col[C_BYTES]]) * 8 / s.width_bits;
    s.banks = atoi(field[col[C_BANKS]]);
    s.temp_k = 360.0;
    s.opt = GPURF_BANK_OPT_ED2_READ; /* the set's objective: CACTI's own ED^2 rule */
    s.space = space;
    int r = 0, c = 0;
    if (sscanf(field[col[C_SHAPE]], "%d x %d", &r, &c) != 2) {
      fprintf(stderr, "cacti_shapes: %s:%d: subarray_rows_x_cols '%s' is not 'R x C'\n", path,
              lineno, field[col[C_SHAPE]]);
      return 1;
    }
    gpurf_bank_cost pick, at;
    subarray_cost sa;
    if (gpurf_bank_eval(ctx, &s, &pick) != GPURF_OK) return fail(ctx);
    int found = cost_at_shape(ctx, &s, r, c, &at, &sa);
    if (found < 0) return fail(ctx);
    int eq = pick.org.rows == r && pick.org.cols == c;
    same += eq;
    rows++;
    printf("%s: CACTI %d x %d%s\n", field[col[C_CONFIG]], r, c, eq ? " (picked)" : "");
    print_cost("pick", &pick, ref, parts);
    if (found) {
      print_cost("shape", &at, ref, parts);
      print_stages(&at, &sa);
    }
    gpurf_tech_free(tech);
  }
  fclose(f);
  printf("rows whose pick has CACTI's sub-array shape: %d of %d\n", same, rows);
  gpurf_ctx_free(ctx);
  return 0;
}
