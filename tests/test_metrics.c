/* Figures of merit: hand-computed values for the rounding rule, the summary
 * of a hand-built table, the run metrics, geometric mean and relative error;
 * and the summary of a shipped design against what `gpurf rf` prints. */
#include <string.h>

#include "test_util.h"

static void expect_cycles(double t_s, double clock_hz, long long want) {
  long long c = -1;
  int rc = gpurf_metrics_cycles(NULL, t_s, clock_hz, &c);
  if (rc != GPURF_OK || c != want)
    fail_msg("%.17g s at %.17g Hz: status %d, %lld cycles, expected %lld", t_s, clock_hz, rc, c,
             want);
}

static void cycles_rounding(void **state) {
  (void)state;
  expect_cycles(0.0, 1e9, 0);
  expect_cycles(1e-9, 1e9, 1);      /* exactly one cycle */
  expect_cycles(1.5e-9, 1e9, 2);    /* part of a cycle takes a whole one */
  expect_cycles(0.2e-9, 1e9, 1);
  expect_cycles(1.000001e-9, 1e9, 2); /* a millionth over is over */
  /* 2.1e-9 x 1e10 is 21.000000000000004 in doubles: still 21 cycles. */
  expect_cycles(2.1e-9, 1e10, 21);
  expect_cycles(1.4e-9, 5e9, 7);
  /* Within the margin above a whole number, and just beyond it. */
  expect_cycles((3.0 + 5e-10) / 1e9, 1e9, 3);
  expect_cycles((3.0 + 1e-8) / 1e9, 1e9, 4);
  expect_cycles(0.5619e-9, 7e8, 1);
}

static void cycles_refuses_bad_input(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  long long c = 7;
  assert_int_equal(gpurf_metrics_cycles(ctx, -1e-9, 1e9, &c), GPURF_EINVAL);
  assert_string_equal(gpurf_ctx_error(ctx)->field, "time_s");
  assert_int_equal(gpurf_metrics_cycles(ctx, NAN, 1e9, &c), GPURF_EINVAL);
  assert_int_equal(gpurf_metrics_cycles(ctx, 1e-9, 0.0, &c), GPURF_EINVAL);
  assert_string_equal(gpurf_ctx_error(ctx)->field, "clock_hz");
  assert_int_equal(gpurf_metrics_cycles(ctx, 1e-9, INFINITY, &c), GPURF_EINVAL);
  assert_int_equal(gpurf_metrics_cycles(ctx, 1e10, 1e10, &c), GPURF_ERANGE);
  assert_int_equal(gpurf_metrics_cycles(NULL, 1e-9, 1e9, NULL), GPURF_EINVAL);
  assert_int_equal(c, 7); /* untouched on failure */
  gpurf_ctx_free(ctx);
}

static void add_component(gpurf_rf_table *t, const char *name, const char *kind, int instances,
                          double area_m2, double cells_m2, double leak_w, double access_s,
                          double e0_j) {
  gpurf_rf_component *c = &t->components[t->n_components++];
  memset(c, 0, sizeof *c);
  snprintf(c->name, sizeof c->name, "%s", name);
  snprintf(c->kind, sizeof c->kind, "%s", kind);
  c->instances = instances;
  c->area_m2 = area_m2;
  c->area_cells_m2 = cells_m2;
  c->leakage_w = leak_w;
  c->access_time_s = access_s;
  c->n_events = 1;
  snprintf(c->events[0].name, sizeof c->events[0].name, "op");
  c->events[0].energy_j = e0_j;
}

/* Banks, a second storage level, crossbar, arbiter and a write pool. */
static void hand_table(gpurf_rf_table *t) {
  memset(t, 0, sizeof *t);
  snprintf(t->design, sizeof t->design, "hand");
  t->clock_hz = 1e9;
  add_component(t, "bank", "sram", 16, 1e-8, 6e-9, 1e-3, 0.3e-9, 2e-12);
  add_component(t, "l0", "dff", 4, 2e-9, 1e-9, 5e-4, 0.5e-9, 1e-12);
  add_component(t, "crossbar", "xbar", 1, 3e-8, 0, 2e-3, 0.2e-9, 4e-12);
  add_component(t, "arbiter", "arbiter", 1, 1e-9, 0, 1e-4, 0.1e-9, 0.5e-12);
  add_component(t, "write_pool", "wpool", 2, 5e-9, 0, 3e-4, 0.4e-9, 1.5e-12);
}

static gpurf_rf_table table; /* 34 KB: not on the stack */

static void summary_of_a_hand_built_table(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  hand_table(&table);
  gpurf_metrics_summary *s = NULL;
  assert_ok(ctx, gpurf_metrics_summary_alloc(ctx, &s));
  assert_ok(ctx, gpurf_metrics_summarise(ctx, &table, s));
  /* Cells 16 x 6e-9 + 4 x 1e-9; the rest of those components is periphery;
   * the pool has no cells, so it is an extra structure. */
  assert_rel(gpurf_metrics_summary_area_m2(s, GPURF_METRICS_AREA_CELLS), 1.0e-7, 1e-12);
  assert_rel(gpurf_metrics_summary_area_m2(s, GPURF_METRICS_AREA_PERIPHERY), 6.8e-8, 1e-12);
  assert_rel(gpurf_metrics_summary_area_m2(s, GPURF_METRICS_AREA_CROSSBAR), 3e-8, 1e-12);
  assert_rel(gpurf_metrics_summary_area_m2(s, GPURF_METRICS_AREA_ARBITER), 1e-9, 1e-12);
  assert_rel(gpurf_metrics_summary_area_m2(s, GPURF_METRICS_AREA_EXTRAS), 1e-8, 1e-12);
  assert_rel(gpurf_metrics_summary_area_total_m2(s), 2.09e-7, 1e-12);
  double total = 0;
  assert_ok(ctx, gpurf_metrics_area_total(ctx, &table, &total));
  assert_rel(total, 2.09e-7, 1e-12);
  assert_rel(gpurf_metrics_summary_leakage_w(s, GPURF_METRICS_LEAKAGE_BANKS), 18e-3, 1e-12);
  assert_rel(gpurf_metrics_summary_leakage_w(s, GPURF_METRICS_LEAKAGE_EXTRAS), 6e-4, 1e-12);
  assert_rel(gpurf_metrics_summary_leakage_total_w(s), 20.7e-3, 1e-12);
  /* Slowest storage (l0, 0.5 ns) + crossbar 0.2 + arbiter 0.1 = 0.8 ns: one
   * cycle at 1 GHz. Energy: the first storage component's read. */
  assert_rel(gpurf_metrics_summary_read_path_s(s, GPURF_METRICS_PATH_BANK), 0.5e-9, 1e-12);
  assert_rel(gpurf_metrics_summary_read_path_total_s(s), 0.8e-9, 1e-12);
  assert_int_equal(gpurf_metrics_summary_read_path_cycles(s), 1);
  assert_rel(gpurf_metrics_summary_read_energy_j(s, GPURF_METRICS_PATH_BANK), 2e-12, 1e-12);
  assert_rel(gpurf_metrics_summary_read_energy_total_j(s), 6.5e-12, 1e-12);
  /* At 5 GHz the same 0.8 ns take 4 cycles. */
  table.clock_hz = 5e9;
  assert_ok(ctx, gpurf_metrics_summarise(ctx, &table, s));
  assert_int_equal(gpurf_metrics_summary_read_path_cycles(s), 4);
  /* Out of range. */
  assert_true(isnan(gpurf_metrics_summary_area_m2(s, GPURF_METRICS_AREA_ROLES)));
  assert_true(isnan(gpurf_metrics_summary_read_path_s(s, GPURF_METRICS_PATH_PARTS)));
  assert_null(gpurf_metrics_area_role_name(GPURF_METRICS_AREA_ROLES));
  assert_string_equal(gpurf_metrics_area_role_name(GPURF_METRICS_AREA_PERIPHERY),
                      "bank_periphery");
  assert_string_equal(gpurf_metrics_leakage_role_name(GPURF_METRICS_LEAKAGE_BANKS), "banks");
  assert_string_equal(gpurf_metrics_path_part_name(GPURF_METRICS_PATH_CROSSBAR), "crossbar");
  /* A table without a clock, or with a negative time, is refused. */
  table.clock_hz = 0;
  assert_int_equal(gpurf_metrics_summarise(ctx, &table, s), GPURF_EINVAL);
  assert_string_equal(gpurf_ctx_error(ctx)->field, "clock_hz");
  table.clock_hz = 1e9;
  table.components[2].access_time_s = -1e-9;
  assert_int_equal(gpurf_metrics_summarise(ctx, &table, s), GPURF_EINVAL);
  assert_string_equal(gpurf_ctx_error(ctx)->field, "crossbar");
  gpurf_metrics_summary_free(s);
  gpurf_ctx_free(ctx);
}

/* jing-128k-16bk-straight as `gpurf rf` prints it (5 and 4 significant
 * digits): "Area 0.80564 mm^2: cell arrays 0.15677, bank periphery
 * 0.060187, crossbar 0.58663, arbiter 0.0020539, extra structures 0",
 * "Leakage 127.39 mW", "Operand read path 0.5783 ns (1 cycle): arbiter
 * 0.1375, slowest storage access 0.202, crossbar 0.2388 ns". */
static void summary_of_a_shipped_design(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  static gpurf_rf_design d;
  assert_ok(ctx, gpurf_rf_design_load(ctx, "jing-128k-16bk-straight", &d));
  assert_ok(ctx, gpurf_rf_design_table(ctx, &d, &table));
  gpurf_metrics_summary *s = NULL;
  assert_ok(ctx, gpurf_metrics_summary_alloc(ctx, &s));
  assert_ok(ctx, gpurf_metrics_summarise(ctx, &table, s));
  /* Half a unit in the last printed digit: 5 and 4 significant digits. */
  const double tol = 1e-4, tol4 = 5e-4;
  assert_rel(gpurf_metrics_summary_area_total_m2(s), 0.80564e-6, tol);
  assert_rel(gpurf_metrics_summary_area_m2(s, GPURF_METRICS_AREA_CELLS), 0.15677e-6, tol);
  assert_rel(gpurf_metrics_summary_area_m2(s, GPURF_METRICS_AREA_PERIPHERY), 0.060187e-6, tol);
  assert_rel(gpurf_metrics_summary_area_m2(s, GPURF_METRICS_AREA_CROSSBAR), 0.58663e-6, tol);
  assert_rel(gpurf_metrics_summary_area_m2(s, GPURF_METRICS_AREA_ARBITER), 0.0020539e-6, tol);
  assert_true(gpurf_metrics_summary_area_m2(s, GPURF_METRICS_AREA_EXTRAS) == 0.0);
  assert_rel(gpurf_metrics_summary_leakage_total_w(s), 127.39e-3, tol);
  assert_rel(gpurf_metrics_summary_read_path_total_s(s), 0.5783e-9, tol4);
  assert_rel(gpurf_metrics_summary_read_path_s(s, GPURF_METRICS_PATH_ARBITER), 0.1375e-9, tol4);
  assert_rel(gpurf_metrics_summary_read_path_s(s, GPURF_METRICS_PATH_BANK), 0.202e-9, tol4);
  assert_rel(gpurf_metrics_summary_read_path_s(s, GPURF_METRICS_PATH_CROSSBAR), 0.2388e-9, tol4);
  assert_int_equal(gpurf_metrics_summary_read_path_cycles(s), 1);
  /* The roles add up to the total. */
  double sum = 0;
  for (int p = 0; p < GPURF_METRICS_AREA_ROLES; p++) sum += gpurf_metrics_summary_area_m2(s, p);
  assert_rel(sum, gpurf_metrics_summary_area_total_m2(s), 1e-12);
  gpurf_metrics_summary_free(s);
  gpurf_ctx_free(ctx);
}

/* The pipeline takes its bank cycles by the same rule. */
static void pipeline_uses_the_rule(void **state) {
  (void)state;
  hand_table(&table);
  table.clock_hz = 1e10;
  table.components[0].access_time_s = 2.1e-9; /* 21.000000000000004 cycles */
  table.components[0].write_time_s = 1.5e-9;
  gpurf_pipeline_params p;
  gpurf_pipeline_params_init(&p);
  gpurf_pipeline_params_from_table(&p, &table);
  assert_int_equal(p.bank_read_cycles, 21);
  assert_int_equal(p.bank_write_cycles, 15);
}

static void run_metrics(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  double v = -1;
  assert_ok(ctx, gpurf_metrics_ipc(ctx, 300, 200, &v));
  assert_rel(v, 1.5, 1e-15);
  assert_int_equal(gpurf_metrics_ipc(ctx, 300, 0, &v), GPURF_EINVAL);
  /* 1.5 IPC on 0.5 mm^2. */
  assert_ok(ctx, gpurf_metrics_ipc_per_mm2(ctx, 1.5, 0.5e-6, &v));
  assert_rel(v, 3.0, 1e-12);
  assert_int_equal(gpurf_metrics_ipc_per_mm2(ctx, 1.5, 0.0, &v), GPURF_EINVAL);
  assert_string_equal(gpurf_ctx_error(ctx)->field, "area_m2");
  assert_int_equal(gpurf_metrics_ipc_per_mm2(ctx, -1.0, 1e-6, &v), GPURF_EINVAL);
  /* 1000 instructions on 2 nJ: 500 per nJ. */
  assert_ok(ctx, gpurf_metrics_instructions_per_j(ctx, 1000, 2e-9, &v));
  assert_rel(v * 1e-9, 500.0, 1e-12);
  assert_int_equal(gpurf_metrics_instructions_per_j(ctx, 1000, 0.0, &v), GPURF_EINVAL);
  /* 2 nJ over 3 us. */
  assert_ok(ctx, gpurf_metrics_edp(ctx, 2e-9, 3e-6, &v));
  assert_rel(v, 6e-15, 1e-12);
  assert_ok(ctx, gpurf_metrics_edp(ctx, 0.0, 3e-6, &v));
  assert_true(v == 0.0);
  assert_int_equal(gpurf_metrics_edp(ctx, 2e-9, -1.0, &v), GPURF_EINVAL);
  gpurf_ctx_free(ctx);
}

static void geomean(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  double m = -1;
  const double a[] = {2, 8}, b[] = {1, 10, 100}, c[] = {0, 5}, d[] = {3, -1}, e[] = {7};
  assert_ok(ctx, gpurf_metrics_geomean(ctx, a, 2, &m));
  assert_rel(m, 4.0, 1e-12);
  assert_ok(ctx, gpurf_metrics_geomean(ctx, b, 3, &m));
  assert_rel(m, 10.0, 1e-12);
  assert_ok(ctx, gpurf_metrics_geomean(ctx, e, 1, &m));
  assert_rel(m, 7.0, 1e-12);
  assert_ok(ctx, gpurf_metrics_geomean(ctx, c, 2, &m)); /* a zero makes it 0 */
  assert_true(m == 0.0);
  assert_int_equal(gpurf_metrics_geomean(ctx, d, 2, &m), GPURF_EINVAL);
  assert_string_equal(gpurf_ctx_error(ctx)->field, "values[1]");
  assert_int_equal(gpurf_metrics_geomean(ctx, a, 0, &m), GPURF_EINVAL);
  gpurf_ctx_free(ctx);
}

static void rel_error(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  double e = 0;
  assert_ok(ctx, gpurf_metrics_rel_error(ctx, 110, 100, &e));
  assert_rel(e, 0.1, 1e-12);
  assert_ok(ctx, gpurf_metrics_rel_error(ctx, 90, 100, &e));
  assert_rel(e, -0.1, 1e-12);
  /* Against |reference|: -55 lies below -50. */
  assert_ok(ctx, gpurf_metrics_rel_error(ctx, -55, -50, &e));
  assert_rel(e, -0.1, 1e-12);
  assert_ok(ctx, gpurf_metrics_rel_error(ctx, -0.10, -0.14, &e));
  assert_rel(e, 0.04 / 0.14, 1e-12);
  assert_ok(ctx, gpurf_metrics_rel_error(ctx, 0, 100, &e));
  assert_rel(e, -1.0, 1e-12);
  assert_int_equal(gpurf_metrics_rel_error(ctx, 1, 0, &e), GPURF_EINVAL);
  assert_string_equal(gpurf_ctx_error(ctx)->field, "reference");
  assert_int_equal(gpurf_metrics_rel_error(ctx, NAN, 1, &e), GPURF_EINVAL);
  gpurf_ctx_free(ctx);
}

/* The SRAM yardstick is the 6T bank the bank model gives for that size. */
static void sram_rf_area(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_tech *tech = NULL;
  assert_ok(ctx, gpurf_tech_alloc(ctx, &tech));
  assert_ok(ctx, gpurf_tech_load(ctx, "32nm", tech));
  double a = 0;
  assert_ok(ctx, gpurf_metrics_sram_rf_area(ctx, tech, GPURF_DEVICE_HP, 360, 131072, 16, 1024, &a));
  gpurf_cell cell;
  assert_ok(ctx, gpurf_cell_load(ctx, "sram-6t", &cell));
  gpurf_bank_spec s;
  gpurf_bank_spec_init(&s);
  s.tech = tech, s.cell = &cell, s.temp_k = 360, s.width_bits = 1024, s.banks = 16;
  s.entries = 1024;
  gpurf_bank_cost c;
  assert_ok(ctx, gpurf_bank_eval(ctx, &s, &c));
  assert_rel(a, c.area_m2, 1e-12);
  assert_int_equal(gpurf_metrics_sram_rf_area(ctx, tech, GPURF_DEVICE_HP, 360, 1000, 16, 1024, &a),
                   GPURF_EINVAL);
  gpurf_tech_free(tech);
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cycles_rounding),
      cmocka_unit_test(cycles_refuses_bad_input),
      cmocka_unit_test(summary_of_a_hand_built_table),
      cmocka_unit_test(summary_of_a_shipped_design),
      cmocka_unit_test(pipeline_uses_the_rule),
      cmocka_unit_test(run_metrics),
      cmocka_unit_test(geomean),
      cmocka_unit_test(rel_error),
      cmocka_unit_test(sram_rf_area),
  };
  return cmocka_run_group_tests_name("metrics", tests, NULL, NULL);
}
