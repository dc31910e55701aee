/* The model against CACTI 7 at organisations CACTI was forced to
 * (validation/organisations/cacti7-forced.tsv: its own pick and the organisations around
 * it, 80 in all). Each row is costed at the organisation of CACTI's sub-array
 * shape, ndwl and ndbl (tools/cacti_forced.h, FORCED_SAME_SPLIT; our mux
 * follows, so where CACTI's mats open both halves we open half as many
 * sub-arrays). What holds there (docs/models.md): the cycle within 1.2x of
 * CACTI's on every row (median |error| at most 5%), leakage within the
 * CACTI set's row bound of 1.5x, and the CACTI set's medians (read energy
 * 25%, access time, write energy, leakage and area 20%). Access time, read
 * and write energy and area do not hold the set's row bounds away from
 * CACTI's pick: CACTI's tree between two mats costs more than ours.
 * The rows whose organisation the cacti space holds (every mat along the
 * word open: 60 of 80) are also costed there, at CACTI's organisation
 * itself (FORCED_CACTI_SPACE), as the CACTI set is: the cycle within 1.15x
 * on every row, and the set's medians and row bound on read energy. */
#include <stdlib.h>
#include <string.h>

#include "cacti_forced.h"
#include "test_fixtures.h"

enum { COL_CONFIG, COL_NODE, COL_PORTS, COL_BYTES, COL_WIDTH, COL_BANKS, COL_NDWL, COL_NDBL,
       COL_NSPD, COL_NDCM, COL_NDSAM1, COL_NDSAM2, COL_SHAPE, COL_ACCESS, COL_CYCLE, COL_READ,
       COL_WRITE, COL_LEAK, COL_AREA, COL_COUNT };
enum { M_ACCESS, M_CYCLE, M_READ, M_WRITE, M_LEAK, M_AREA, M_COUNT };
static const char *const metric_name[M_COUNT] = {"access time", "cycle time", "read energy",
                                                 "write energy", "leakage", "area"};
#define MAX_ROWS 128

typedef struct forced_fixture {
  gpurf_ctx *ctx;
  gpurf_tech *tech[3];
  gpurf_cell sram6t, sram8t, multiport;
  int n;
  char config[MAX_ROWS][64];
  double ratio[MAX_ROWS][M_COUNT]; /* ours / CACTI's */
  int n_cacti;                     /* rows the cacti space holds */
  char config_cacti[MAX_ROWS][64];
  double ratio_cacti[MAX_ROWS][M_COUNT];
} forced_fixture;

static const char *const nodes[3] = {"32nm", "40nm", "45nm"};

/* Ours / CACTI's per figure for one row of the file. */
static void cost_row(forced_fixture *f, char **field, const int *col) {
  static const int ref_col[M_COUNT] = {COL_ACCESS, COL_CYCLE, COL_READ, COL_WRITE, COL_LEAK, COL_AREA};
  static const double si[M_COUNT] = {1e-9, 1e-9, 1e-12, 1e-12, 1e-3, 1e-6};
  assert_true(f->n < MAX_ROWS);
  int i = f->n++;
  snprintf(f->config[i], sizeof f->config[i], "%s", field[col[COL_CONFIG]]);
  gpurf_bank_spec s;
  gpurf_bank_spec_init(&s);
  int node = -1;
  for (int k = 0; k < 3; k++)
    if (atoi(nodes[k]) == atoi(field[col[COL_NODE]])) node = k;
  if (node < 0) fail_msg("%s: node %s", f->config[i], field[col[COL_NODE]]);
  s.tech = f->tech[node];
  assert_int_equal(gpurf_ports_parse(field[col[COL_PORTS]], &s.ports), GPURF_OK);
  s.cell = test_cell_for_ports(&s.ports, &f->sram6t, &f->sram8t, &f->multiport);
  s.width_bits = atoi(field[col[COL_WIDTH]]);
  s.entries = atoll(field[col[COL_BYTES]]) * 8 / s.width_bits;
  s.banks = atoi(field[col[COL_BANKS]]);
  s.temp_k = 360.0;
  s.opt = GPURF_BANK_OPT_ED2_READ;
  forced_org fo = {atoi(field[col[COL_NDWL]]), atoi(field[col[COL_NDBL]]),
                   atoi(field[col[COL_NSPD]]), atoi(field[col[COL_NDCM]]),
                   atoi(field[col[COL_NDSAM1]]), atoi(field[col[COL_NDSAM2]]), 0, 0};
  assert_int_equal(sscanf(field[col[COL_SHAPE]], "%d x %d", &fo.rows, &fo.cols), 2);
  bank_in in;
  assert_ok(f->ctx, bank_in_init(f->ctx, &s, &in));
  in.subarray_eval = sram_subarray_eval;
  gpurf_bank_org org;
  if (!forced_our_org(&in, &fo, FORCED_SAME_SPLIT, &org))
    fail_msg("%s: no organisation of ours has CACTI's %d x %d sub-arrays, %d x %d", f->config[i],
             fo.rows, fo.cols, fo.ndwl, fo.ndbl);
  gpurf_bank_cost c;
  subarray_cost sa;
  assert_int_equal(forced_eval(&in, &org, &c, &sa), GPURF_OK);
  if (sa.reject[0]) fail_msg("%s: rejected: %s", f->config[i], sa.reject);
  const double ours[M_COUNT] = {c.access_time_s, c.cycle_time_s, c.read_energy_j, c.write_energy_j,
                                forced_leakage_per_bank_w(&c, s.banks), c.area_m2};
  for (int m = 0; m < M_COUNT; m++) {
    double ref = atof(field[col[ref_col[m]]]) * si[m];
    assert_true(ref > 0.0);
    f->ratio[i][m] = ours[m] / ref;
  }
  /* CACTI's organisation itself in the cacti space, where it holds. */
  gpurf_bank_spec sc = s;
  sc.space = GPURF_BANK_SPACE_CACTI;
  assert_ok(f->ctx, bank_in_init(f->ctx, &sc, &in));
  in.subarray_eval = sram_subarray_eval;
  if (!forced_cacti_org(&in, &fo, &org)) return;
  assert_int_equal(forced_eval(&in, &org, &c, &sa), GPURF_OK);
  if (sa.reject[0]) fail_msg("%s: rejected in the cacti space: %s", f->config[i], sa.reject);
  int j = f->n_cacti++;
  memcpy(f->config_cacti[j], f->config[i], sizeof f->config_cacti[j]);
  const double oc[M_COUNT] = {c.access_time_s, c.cycle_time_s, c.read_energy_j, c.write_energy_j,
                              forced_leakage_per_bank_w(&c, s.banks), c.area_m2};
  for (int m = 0; m < M_COUNT; m++)
    f->ratio_cacti[j][m] = oc[m] / (atof(field[col[ref_col[m]]]) * si[m]);
}

static int setup(void **state) {
  static forced_fixture f;
  f.ctx = test_ctx();
  for (int i = 0; i < 3; i++) f.tech[i] = test_tech(f.ctx, nodes[i]);
  assert_ok(f.ctx, gpurf_cell_load(f.ctx, "sram-6t", &f.sram6t));
  assert_ok(f.ctx, gpurf_cell_load(f.ctx, "sram-8t-1r1w", &f.sram8t));
  assert_ok(f.ctx, gpurf_cell_load(f.ctx, "sram-multiport", &f.multiport));
  static const char *const names[COL_COUNT] = {
      "config", "node_nm", "ports", "bytes", "width_bits", "banks", "Ndwl", "Ndbl", "Nspd",
      "Ndcm", "Ndsam1", "Ndsam2", "subarray_rows_x_cols", "access_ns", "cycle_ns", "read_pj",
      "write_pj", "leak_mw", "area_mm2"};
  FILE *in = fopen(GPURF_TEST_SOURCE_DIR "/validation/organisations/cacti7-forced.tsv", "r");
  assert_non_null(in);
  char line[1024], *field[32];
  int col[COL_COUNT], have_header = 0;
  while (fgets(line, sizeof line, in)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    int nf = test_split_tabs(line, field, 32);
    if (!have_header) {
      test_find_columns("cacti7-forced.tsv", names, COL_COUNT, field, nf, col);
      have_header = 1;
      continue;
    }
    assert_int_equal(nf, 21);
    cost_row(&f, field, col);
  }
  fclose(in);
  assert_int_equal(f.n, 80);
  assert_int_equal(f.n_cacti, 60);
  *state = &f;
  return 0;
}

static int teardown(void **state) {
  forced_fixture *f = *state;
  for (int i = 0; i < 3; i++) gpurf_tech_free(f->tech[i]);
  gpurf_ctx_free(f->ctx);
  return 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* One stand-in's rows: the own space's or the cacti space's. */
typedef struct forced_view {
  int n;
  const char (*config)[64];
  const double (*ratio)[M_COUNT];
} forced_view;

static forced_view own_rows(const forced_fixture *f) {
  return (forced_view){f->n, f->config, f->ratio};
}

static forced_view cacti_rows(const forced_fixture *f) {
  return (forced_view){f->n_cacti, f->config_cacti, f->ratio_cacti};
}

static double median_abs_error(forced_view v, int m) {
  double err[MAX_ROWS];
  for (int i = 0; i < v.n; i++) err[i] = fabs(v.ratio[i][m] - 1.0);
  qsort(err, (size_t)v.n, sizeof err[0], cmp_double);
  return v.n % 2 ? err[v.n / 2] : 0.5 * (err[v.n / 2 - 1] + err[v.n / 2]);
}

/* Every row within max_ratio of CACTI's, either way. */
static void check_rows(forced_view v, int m, double max_ratio) {
  for (int i = 0; i < v.n; i++) {
    double r = v.ratio[i][m];
    if (!(r <= max_ratio && r >= 1.0 / max_ratio))
      fail_msg("%s: %s %.3f x CACTI's at its organisation (bound %gx)", v.config[i],
               metric_name[m], r, max_ratio);
  }
}

static void check_median(forced_view v, int m, double max_median) {
  double med = median_abs_error(v, m);
  if (med > max_median)
    fail_msg("%s: median |error| %.1f%% at CACTI's organisations (bound %.0f%%)", metric_name[m],
             100.0 * med, 100.0 * max_median);
}

/* The cycle is the slowest pipelined stage: decoder, sub-array, routes.
 * Those follow the organisation as CACTI's do. */
static void cycle_at_forced_organisations(void **state) {
  const forced_fixture *f = *state;
  check_rows(own_rows(f), M_CYCLE, 1.2);
  check_median(own_rows(f), M_CYCLE, 0.05);
}

static void leakage_at_forced_organisations(void **state) {
  const forced_fixture *f = *state;
  check_rows(own_rows(f), M_LEAK, 1.5);
  check_median(own_rows(f), M_LEAK, 0.20);
}

/* The CACTI set's gate medians hold over the forced organisations too;
 * its row bounds do not (docs/models.md). */
static void medians_at_forced_organisations(void **state) {
  const forced_fixture *f = *state;
  check_median(own_rows(f), M_READ, 0.25);
  check_median(own_rows(f), M_ACCESS, 0.20);
  check_median(own_rows(f), M_WRITE, 0.20);
  check_median(own_rows(f), M_AREA, 0.20);
}

/* At CACTI's organisations themselves, in the space the CACTI set is
 * evaluated in: the cycle and leakage on every row, and the set's medians
 * (read energy tightened to 20%). Away from one mat CACTI's tree between
 * mats costs more access time and energy than ours (read down to 0.43x at
 * two mats), so the row bounds of access, read and write do not hold there
 * (docs/models.md); read stays within 2.5x. */
static void cacti_space_at_forced_organisations(void **state) {
  const forced_fixture *f = *state;
  check_rows(cacti_rows(f), M_CYCLE, 1.15);
  check_median(cacti_rows(f), M_CYCLE, 0.05);
  check_rows(cacti_rows(f), M_READ, 2.5);
  check_rows(cacti_rows(f), M_LEAK, 1.5);
  check_median(cacti_rows(f), M_READ, 0.20);
  check_median(cacti_rows(f), M_ACCESS, 0.20);
  check_median(cacti_rows(f), M_WRITE, 0.20);
  check_median(cacti_rows(f), M_LEAK, 0.20);
  check_median(cacti_rows(f), M_AREA, 0.20);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cycle_at_forced_organisations),
      cmocka_unit_test(cacti_space_at_forced_organisations),
      cmocka_unit_test(leakage_at_forced_organisations),
      cmocka_unit_test(medians_at_forced_organisations),
  };
  return cmocka_run_group_tests_name("bank_forced", tests, setup, teardown);
}
