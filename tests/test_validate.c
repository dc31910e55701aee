/* Reference sets through the library: the shipped sets read with their
 * conventions applied (in SI), compared with the bank model, and every
 * malformed file refused with file, line, column and column name in the
 * error record. */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static gpurf_validate_set *load_shipped(gpurf_ctx *ctx, const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/validation/%s.tsv", GPURF_TEST_SOURCE_DIR, name);
  gpurf_validate_set *s = NULL;
  assert_ok(ctx, gpurf_validate_set_load(ctx, path, &s));
  assert_non_null(s);
  return s;
}

static size_t find_row(const gpurf_validate_set *s, const char *config) {
  for (size_t i = 0; i < gpurf_validate_set_rows(s); i++)
    if (strcmp(gpurf_validate_row_config(s, i), config) == 0) return i;
  fail_msg("no row %s in %s", config, gpurf_validate_set_name(s));
  return 0;
}

static double ref_of(const gpurf_validate_set *s, size_t row, gpurf_validate_metric m) {
  double v = 0;
  if (!gpurf_validate_row_reference(s, row, m, &v))
    fail_msg("row %zu of %s has no %s", row, gpurf_validate_set_name(s),
             gpurf_validate_metric_name(m));
  return v;
}

static void metric_names_and_units(void **state) {
  (void)state;
  assert_string_equal(gpurf_validate_metric_name(GPURF_VALIDATE_READ_ENERGY), "read_energy");
  assert_string_equal(gpurf_validate_metric_key(GPURF_VALIDATE_READ_ENERGY), "read_energy_pj");
  assert_string_equal(gpurf_validate_metric_unit(GPURF_VALIDATE_AREA), "mm^2");
  assert_rel(gpurf_validate_metric_scale(GPURF_VALIDATE_AREA), 1e6, 0);
  assert_rel(gpurf_validate_metric_scale(GPURF_VALIDATE_ACCESS_TIME), 1e9, 0);
  assert_null(gpurf_validate_metric_name(GPURF_VALIDATE_METRICS));
  assert_true(gpurf_validate_metric_scale(GPURF_VALIDATE_METRICS) == 0.0);
}

static void cacti7_reads_with_its_gate(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_validate_set *s = load_shipped(ctx, "cacti7");
  assert_string_equal(gpurf_validate_set_name(s), "cacti7");
  assert_int_equal(gpurf_validate_set_rows(s), 20);
  assert_true(gpurf_validate_set_gated(s));
  assert_true(gpurf_validate_set_leakage_per_bank(s));
  const gpurf_validate_metric gated[] = {GPURF_VALIDATE_READ_ENERGY, GPURF_VALIDATE_WRITE_ENERGY,
                                         GPURF_VALIDATE_ACCESS_TIME, GPURF_VALIDATE_LEAKAGE,
                                         GPURF_VALIDATE_AREA};
  /* Read energy: 20% / 2x (a row may sit at another one-mat organisation
   * than CACTI's); the other four: 20% / 1.5x. */
  for (size_t i = 0; i < 5; i++) {
    double median = 0, ratio = 0;
    assert_int_equal(gpurf_validate_set_tolerance(s, gated[i], &median, &ratio), 1);
    assert_rel(median, 0.20, 1e-12);
    assert_rel(ratio, i == 0 ? 2.0 : 1.5, 1e-12);
  }
  /* The cycle is gated in CACTI's own organisations: 20%, 2x. */
  double cyc_median = 0, cyc_ratio = 0;
  assert_int_equal(gpurf_validate_set_tolerance(s, GPURF_VALIDATE_CYCLE_TIME, &cyc_median, &cyc_ratio), 1);
  assert_rel(cyc_median, 0.20, 1e-12);
  assert_rel(cyc_ratio, 2.0, 1e-12);
  assert_int_equal(gpurf_validate_set_tolerance(s, GPURF_VALIDATE_METRICS, NULL, NULL),
                   GPURF_EINVAL);
  size_t r = find_row(s, "c_128K_16bk_1024_32");
  assert_string_equal(gpurf_validate_row_node(s, r), "32nm");
  assert_string_equal(gpurf_validate_row_cell(s, r), "sram");
  gpurf_bank_spec spec;
  assert_int_equal(gpurf_validate_row_spec(s, r, &spec), GPURF_OK);
  assert_null(spec.tech);
  assert_null(spec.cell);
  assert_int_equal(spec.banks, 16);
  assert_int_equal(spec.width_bits, 1024);
  assert_int_equal(spec.entries, 1024); /* 131072 bytes of 1024-bit words */
  assert_int_equal(spec.device, GPURF_DEVICE_HP);
  assert_int_equal(spec.space, GPURF_BANK_SPACE_CACTI);
  assert_rel(spec.temp_k, 360, 1e-12);
  /* Leakage is the sum of the subthreshold and gate columns, mW to W. */
  assert_rel(ref_of(s, r, GPURF_VALIDATE_LEAKAGE), (25.3 + 2.82) * 1e-3, 1e-12);
  r = find_row(s, "e_4K_128_3r1w_40");
  assert_int_equal(gpurf_validate_row_spec(s, r, &spec), GPURF_OK);
  assert_int_equal(spec.ports.read, 3);
  assert_int_equal(spec.ports.write, 1);
  /* Out of range. */
  assert_null(gpurf_validate_row_config(s, 20));
  assert_int_equal(gpurf_validate_row_spec(s, 20, &spec), GPURF_EINVAL);
  double v = 0;
  assert_int_equal(gpurf_validate_row_reference(s, 20, GPURF_VALIDATE_AREA, &v), 0);
  assert_true(isnan(v));
  gpurf_validate_set_free(s);
  gpurf_ctx_free(ctx);
}

static void conversions_and_maps(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_validate_set *s = load_shipped(ctx, "nvsim-sram");
  assert_false(gpurf_validate_set_gated(s));
  assert_true(gpurf_validate_set_not_gated_why(s)[0] != '\0');
  size_t r = find_row(s, "a22_sram_hp_ReadEDP");
  assert_string_equal(gpurf_validate_row_cell(s, r), "sram-6t"); /* mapped from SRAM146F2 */
  gpurf_bank_spec spec;
  gpurf_validate_row_spec(s, r, &spec);
  assert_rel(spec.temp_k, 350, 1e-12);
  assert_rel(ref_of(s, r, GPURF_VALIDATE_AREA), 5624.7e-12, 1e-12); /* um^2 to m^2 */
  assert_rel(ref_of(s, r, GPURF_VALIDATE_WRITE_LATENCY), 0.223e-9, 1e-12);
  gpurf_validate_set_free(s);
  s = load_shipped(ctx, "warrf-table2-sram");
  r = find_row(s, "warrf_sram_2M_1024_22");
  /* Per bit to per access. */
  assert_rel(ref_of(s, r, GPURF_VALIDATE_READ_ENERGY), 0.37e-12 * 1024, 1e-12);
  assert_int_equal(gpurf_validate_row_reference(s, r, GPURF_VALIDATE_LEAKAGE, NULL), 0);
  gpurf_validate_set_free(s);
  s = load_shipped(ctx, "gebhart-table5");
  r = find_row(s, "mrf_bank_4K_128_1r1w_40");
  gpurf_validate_row_spec(s, r, &spec);
  assert_rel(spec.clock_hz, 1e9, 1e-12);
  assert_rel(ref_of(s, r, GPURF_VALIDATE_AREA), 0.038e-6, 1e-12);
  gpurf_validate_set_free(s);
  gpurf_ctx_free(ctx);
}

/* Ours is the bank model's number for the row's bank, evaluated here
 * independently; the statistics follow from ours and the references. */
/* CACTI prints one bank plus the wiring between banks, whose repeaters it
 * counts along one path: the per-bank convention takes the whole tree out of
 * gpurf's all-bank leakage, divides by the banks and adds the path back. */
static void leakage_per_bank_counts_one_path(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_validate_set *s = load_shipped(ctx, "cacti7");
  gpurf_validate_result *res = NULL;
  assert_ok(ctx, gpurf_validate_compare(ctx, s, &res));
  size_t r = find_row(s, "c_128K_16bk_1024_32");
  gpurf_bank_spec spec;
  assert_ok(ctx, gpurf_validate_row_spec(s, r, &spec));
  gpurf_tech *tech = NULL;
  gpurf_cell cell;
  assert_ok(ctx, gpurf_tech_alloc(ctx, &tech));
  assert_ok(ctx, gpurf_tech_load(ctx, gpurf_validate_row_node(s, r), tech));
  assert_ok(ctx, gpurf_cell_load(ctx, "sram-6t", &cell)); /* "sram" at 1rw */
  spec.tech = tech;
  spec.cell = &cell;
  gpurf_bank_cost c;
  assert_ok(ctx, gpurf_bank_eval(ctx, &spec, &c));
  assert_int_equal(spec.banks, 16);
  double tree_sub = c.leakage_part_w[GPURF_BANK_PART_INTERBANK], tree_gate = c.interbank_leakage_gate_w;
  double sub = (c.leakage_sub_w - tree_sub) / 16 + c.interbank_path_leakage_sub_w;
  double gate = (c.leakage_gate_w - tree_gate) / 16 + c.interbank_path_leakage_gate_w;
  assert_rel(gpurf_validate_result_ours(res, r, GPURF_VALIDATE_LEAKAGE_SUB), sub, 1e-12);
  assert_rel(gpurf_validate_result_ours(res, r, GPURF_VALIDATE_LEAKAGE_GATE), gate, 1e-12);
  assert_rel(gpurf_validate_result_ours(res, r, GPURF_VALIDATE_LEAKAGE), sub + gate, 1e-12);
  gpurf_tech_free(tech);
  gpurf_validate_result_free(res);
  gpurf_validate_set_free(s);
  gpurf_ctx_free(ctx);
}

static void compare_matches_the_bank_model(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_validate_set *s = load_shipped(ctx, "gebhart-table5");
  gpurf_validate_result *res = NULL;
  assert_ok(ctx, gpurf_validate_compare(ctx, s, &res));
  gpurf_bank_spec spec;
  gpurf_validate_row_spec(s, 0, &spec);
  gpurf_tech *tech = NULL;
  gpurf_cell cell;
  assert_ok(ctx, gpurf_tech_alloc(ctx, &tech));
  assert_ok(ctx, gpurf_tech_load(ctx, gpurf_validate_row_node(s, 0), tech));
  assert_ok(ctx, gpurf_cell_load(ctx, "sram-8t-1r1w", &cell)); /* "sram" at 1r1w */
  spec.tech = tech;
  spec.cell = &cell;
  gpurf_bank_cost cost;
  assert_ok(ctx, gpurf_bank_eval(ctx, &spec, &cost));
  assert_rel(gpurf_validate_result_ours(res, 0, GPURF_VALIDATE_READ_ENERGY), cost.read_energy_j,
             1e-12);
  assert_rel(gpurf_validate_result_ours(res, 0, GPURF_VALIDATE_AREA), cost.area_m2, 1e-12);
  assert_string_equal(gpurf_validate_result_cell(res, 0), "sram-8t-1r1w");
  assert_string_equal(gpurf_validate_result_ports(res, 0), "1r1w");
  /* One row: the median |error| is that row's, the worst row is it. */
  double ours = gpurf_validate_result_ours(res, 0, GPURF_VALIDATE_READ_ENERGY);
  double ref = ref_of(s, 0, GPURF_VALIDATE_READ_ENERGY);
  assert_int_equal(gpurf_validate_result_rows(res, GPURF_VALIDATE_READ_ENERGY), 1);
  assert_rel(gpurf_validate_result_median_abs_error(res, GPURF_VALIDATE_READ_ENERGY),
             fabs(ours / ref - 1), 1e-12);
  assert_int_equal(gpurf_validate_result_worst_row(res, GPURF_VALIDATE_READ_ENERGY), 0);
  assert_rel(gpurf_validate_result_worst_ratio(res, GPURF_VALIDATE_READ_ENERGY), ours / ref, 1e-12);
  /* Not gated: every metric passes, and so does the set. */
  assert_true(gpurf_validate_result_pass(res, GPURF_VALIDATE_READ_ENERGY));
  assert_true(gpurf_validate_result_set_pass(res));
  /* A metric the reference does not give. */
  assert_int_equal(gpurf_validate_result_rows(res, GPURF_VALIDATE_CYCLE_TIME), 0);
  assert_true(isnan(gpurf_validate_result_median_abs_error(res, GPURF_VALIDATE_CYCLE_TIME)));
  gpurf_tech_free(tech);
  gpurf_validate_result_free(res);
  gpurf_validate_set_free(s);
  gpurf_ctx_free(ctx);
}

/* The gate of the shipped CACTI 7 set holds, and its median is the median
 * of the per-row errors recomputed from the result. */
static void cacti7_gate_holds(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_validate_set *s = load_shipped(ctx, "cacti7");
  gpurf_validate_result *res = NULL;
  assert_ok(ctx, gpurf_validate_compare(ctx, s, &res));
  assert_true(gpurf_validate_result_set_pass(res));
  const gpurf_validate_metric m = GPURF_VALIDATE_AREA;
  double err[32];
  int n = 0;
  for (size_t i = 0; i < gpurf_validate_set_rows(s); i++) {
    double ref;
    if (!gpurf_validate_row_reference(s, i, m, &ref)) continue;
    err[n++] = fabs(gpurf_validate_result_ours(res, i, m) / ref - 1);
  }
  assert_int_equal(gpurf_validate_result_rows(res, m), n);
  int below = 0, above = 0;
  double median = gpurf_validate_result_median_abs_error(res, m);
  for (int i = 0; i < n; i++) below += err[i] < median, above += err[i] > median;
  assert_true(below <= n / 2 && above <= n / 2);
  assert_true(median <= 0.25);
  gpurf_validate_result_free(res);
  gpurf_validate_set_free(s);
  gpurf_ctx_free(ctx);
}

/* The reference band beside each row: for the 22 nm 8 KB bank of 1024-bit
 * words (CACTI 7: 22.6 pJ read, NVSim: 2.76 pJ) it is gpurf_bank_band_eval's
 * band of the same bank in the report's unit, and both references' reads lie
 * inside (NVSim's above the low end, the NVSim class on our devices, by no
 * more than its own devices' Vdd^2 and gate capacitance: test_cli_bank.c); ours lies inside its own band on every row of every
 * shipped set (leakage of one bank plus wiring where the set says so); flip-flop
 * arrays have none. */
static void band_beside_every_row(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_validate_set *s = NULL;
  assert_ok(ctx, gpurf_validate_set_load(
                     ctx, GPURF_TEST_DATA_DIR "/validation-band/disagree-22nm-8k.tsv", &s));
  gpurf_validate_result *res = NULL;
  assert_ok(ctx, gpurf_validate_compare(ctx, s, &res));
  size_t cacti = find_row(s, "cacti7_22nm_8k_1024"), nvsim = find_row(s, "nvsim_22nm_8k_1024");
  gpurf_bank_spec spec;
  gpurf_validate_row_spec(s, cacti, &spec);
  gpurf_tech *tech = NULL;
  gpurf_cell cell;
  assert_ok(ctx, gpurf_tech_alloc(ctx, &tech));
  assert_ok(ctx, gpurf_tech_load(ctx, "22nm", tech));
  assert_ok(ctx, gpurf_cell_load(ctx, "sram-6t", &cell));
  spec.tech = tech;
  spec.cell = &cell;
  gpurf_bank_cost cost;
  gpurf_bank_band band;
  assert_ok(ctx, gpurf_bank_eval(ctx, &spec, &cost));
  assert_ok(ctx, gpurf_bank_band_eval(ctx, &spec, &cost, &band));
  double lo = 0, hi = 0;
  assert_int_equal(gpurf_validate_result_band(res, cacti, GPURF_VALIDATE_READ_ENERGY, &lo, &hi), 1);
  assert_rel(lo, band.low[GPURF_BANK_METRIC_READ_ENERGY] * 1e12, 1e-12);
  assert_rel(hi, band.high[GPURF_BANK_METRIC_READ_ENERGY] * 1e12, 1e-12);
  assert_true(lo <= 2.76 && lo >= 2.76 / (1.265625 * 9.4 / 4.5) && hi > 22.6);
  assert_int_equal(gpurf_validate_result_in_band(res, cacti, GPURF_VALIDATE_READ_ENERGY), 1);
  assert_int_equal(gpurf_validate_result_in_band(res, nvsim, GPURF_VALIDATE_READ_ENERGY), 1);
  /* NVSim's area, 0.0056 mm^2, is inside the area band, as is CACTI's. */
  assert_int_equal(gpurf_validate_result_in_band(res, nvsim, GPURF_VALIDATE_AREA), 1);
  assert_int_equal(gpurf_validate_result_in_band(res, cacti, GPURF_VALIDATE_AREA), 1);
  int inside = -1;
  assert_int_equal(gpurf_validate_result_band_rows(res, GPURF_VALIDATE_READ_ENERGY, &inside), 2);
  assert_int_equal(inside, 2);
  assert_int_equal(gpurf_validate_result_band_rows(res, GPURF_VALIDATE_AREA, &inside), 2);
  assert_int_equal(inside, 2);
  /* No reference, no count; the leakage parts have no band; rows out of range. */
  assert_int_equal(gpurf_validate_result_in_band(res, cacti, GPURF_VALIDATE_CYCLE_TIME), -1);
  assert_int_equal(gpurf_validate_result_band_rows(res, GPURF_VALIDATE_CYCLE_TIME, &inside), 0);
  assert_int_equal(gpurf_validate_result_band(res, cacti, GPURF_VALIDATE_LEAKAGE_SUB, NULL, NULL), 0);
  assert_int_equal(gpurf_validate_result_band(res, 2, GPURF_VALIDATE_READ_ENERGY, NULL, NULL), 0);
  assert_int_equal(gpurf_validate_result_in_band(res, 2, GPURF_VALIDATE_READ_ENERGY), -1);
  gpurf_tech_free(tech);
  gpurf_validate_result_free(res);
  gpurf_validate_set_free(s);
  /* Ours inside its own band everywhere; the flip-flop set has no band. */
  static const char *const sets[] = {"cacti7", "nvsim-sram", "nvsim-stt", "gebhart-table5",
                                     "gebhart-table5-l0", "warrf-table2-sram", "warrf-table2-stt"};
  for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++) {
    s = load_shipped(ctx, sets[k]);
    assert_ok(ctx, gpurf_validate_compare(ctx, s, &res));
    int is_ff = strcmp(sets[k], "gebhart-table5-l0") == 0, banded = 0;
    for (size_t i = 0; i < gpurf_validate_set_rows(s); i++)
      for (int m = 0; m < GPURF_VALIDATE_METRICS; m++) {
        double ours = 0;
        if (!gpurf_validate_result_band(res, i, (gpurf_validate_metric)m, &lo, &hi)) continue;
        banded++;
        if (gpurf_validate_result_compared(res, i, (gpurf_validate_metric)m, &ours, NULL, NULL) &&
            !(ours >= lo * (1 - 1e-12) && ours <= hi * (1 + 1e-12)))
          fail_msg("%s %s %s: ours %g outside [%g, %g]", sets[k], gpurf_validate_row_config(s, i),
                   gpurf_validate_metric_name((gpurf_validate_metric)m), ours, lo, hi);
      }
    if (is_ff ? banded != 0 : banded == 0)
      fail_msg("%s: %d banded metrics", sets[k], banded);
    gpurf_validate_result_free(res);
    gpurf_validate_set_free(s);
  }
  gpurf_ctx_free(ctx);
}

static void out_of_tolerance_fails(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_validate_set *s = NULL;
  assert_ok(ctx, gpurf_validate_set_load(
                     ctx, GPURF_TEST_DATA_DIR "/validation-bad/out-of-tolerance.tsv", &s));
  gpurf_validate_result *res = NULL;
  assert_ok(ctx, gpurf_validate_compare(ctx, s, &res));
  assert_false(gpurf_validate_result_set_pass(res));
  assert_false(gpurf_validate_result_pass(res, GPURF_VALIDATE_AREA));
  /* The reference is a thousand times CACTI's area: ours is far below it. */
  assert_true(gpurf_validate_result_worst_ratio(res, GPURF_VALIDATE_AREA) < 0.01);
  /* Access time is not gated in this set. */
  assert_true(gpurf_validate_result_pass(res, GPURF_VALIDATE_ACCESS_TIME));
  gpurf_validate_result_free(res);
  gpurf_validate_set_free(s);
  gpurf_ctx_free(ctx);
}

static void malformed_sets_name_file_line_and_column(void **state) {
  (void)state;
  const struct {
    const char *file;
    int line, col;
    const char *field, *what;
  } cases[] = {
      {"unknown-column.tsv", 4, 70, "area_cm2", "unknown column"},
      {"short-row.tsv", 5, 1, "", "9 fields, but the header has 10 columns"},
      {"word-for-number.tsv", 5, 44, "read_pj", "reference value must be a positive"},
      {"negative-reference.tsv", 5, 49, "area_mm2", "reference value must be"},
      {"unknown-metric.tsv", 3, 14, "", "unknown metric 'speed'"},
      {"no-tolerance.tsv", 1, 0, "", "no '# tolerance:' line"},
      {"no-source.tsv", 1, 0, "", "no '# source:' line"},
      {"fractional-words.tsv", 5, 21, "bytes", "not a whole number of 24-bit words"},
      {"unknown-ports.tsv", 5, 17, "ports", "port counts such as"},
      {"unknown-periphery.tsv", 2, 0, "periphery", "long-channel or nominal, not 'short'"},
      {"unknown-space.tsv", 2, 0, "space", "own or cacti, not 'nvsim'"},
      {"duplicate-config.tsv", 6, 1, "config", "'a_4K_128_1rw_40' also on line 5"},
  };
  gpurf_ctx *ctx = test_ctx();
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/validation-bad/%s", GPURF_TEST_DATA_DIR, cases[i].file);
    gpurf_validate_set *s = (gpurf_validate_set *)&s; /* must be reset to NULL */
    int rc = gpurf_validate_set_load(ctx, path, &s);
    const gpurf_error *e = gpurf_ctx_error(ctx);
    if (rc != GPURF_ESCHEMA || s != NULL || e->status != GPURF_ESCHEMA ||
        strcmp(e->file, path) != 0 || e->line != cases[i].line || e->column != cases[i].col ||
        strcmp(e->field, cases[i].field) != 0 || !strstr(e->message, cases[i].what))
      fail_msg("%s: status %d, %s:%d:%d field '%s': %s", cases[i].file, rc, e->file, e->line,
               e->column, e->field, e->message);
  }
  gpurf_validate_set *s = NULL;
  assert_int_equal(gpurf_validate_set_load(ctx, GPURF_TEST_DATA_DIR "/validation-bad/none.tsv", &s),
                   GPURF_EIO);
  assert_null(s);
  assert_non_null(strstr(gpurf_ctx_error(ctx)->message, "cannot open"));
  assert_int_equal(gpurf_validate_set_load(ctx, NULL, &s), GPURF_EINVAL);
  gpurf_ctx_free(ctx);
}

/* A well-formed row the model cannot evaluate (no 7 nm node) fails the
 * comparison, naming the set's file, the row's line and config. */
static void unevaluable_row_names_file_and_line(void **state) {
  (void)state;
  char path[1024];
  snprintf(path, sizeof path, "%s/validate-7nm.tsv", GPURF_TEST_TMP_DIR);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs("# source: test set\n# tolerance: none (test)\n"
        "config\tnode_nm\tbytes\twidth_bits\tarea_mm2\n"
        "tiny\t40\t4096\t128\t0.01\n"
        "too_small\t7\t4096\t128\t0.01\n", f);
  fclose(f);
  gpurf_ctx *ctx = test_ctx();
  gpurf_validate_set *s = NULL;
  assert_ok(ctx, gpurf_validate_set_load(ctx, path, &s));
  gpurf_validate_result *res = (gpurf_validate_result *)&res;
  assert_int_not_equal(gpurf_validate_compare(ctx, s, &res), GPURF_OK);
  assert_null(res);
  const gpurf_error *e = gpurf_ctx_error(ctx);
  assert_string_equal(e->file, path);
  assert_int_equal(e->line, 5);
  assert_non_null(strstr(e->message, "config 'too_small': "));
  assert_non_null(strstr(e->message, "7 nm"));
  gpurf_validate_set_free(s);
  gpurf_ctx_free(ctx);
  remove(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(metric_names_and_units),
      cmocka_unit_test(cacti7_reads_with_its_gate),
      cmocka_unit_test(conversions_and_maps),
      cmocka_unit_test(compare_matches_the_bank_model),
      cmocka_unit_test(leakage_per_bank_counts_one_path),
      cmocka_unit_test(cacti7_gate_holds),
      cmocka_unit_test(band_beside_every_row),
      cmocka_unit_test(out_of_tolerance_fails),
      cmocka_unit_test(malformed_sets_name_file_line_and_column),
      cmocka_unit_test(unevaluable_row_names_file_and_line),
  };
  return cmocka_run_group_tests_name("validate", tests, NULL, NULL);
}
