/* Node files: every shipped node loads, names resolve, bad node files are
 * rejected at the offending line, temperature scales leakage. */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static const char *const shipped[] = {"22nm", "32nm", "40nm", "45nm", "65nm", "90nm"};

static void every_shipped_node_loads(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  for (size_t i = 0; i < sizeof shipped / sizeof shipped[0]; i++) {
    gpurf_tech t;
    assert_ok(ctx, gpurf_tech_load(ctx, shipped[i], &t));
    assert_string_equal(t.name, shipped[i]);
    assert_int_equal(t.interpolated, 0);
    assert_rel(t.feature_size_m, atof(shipped[i]) * 1e-9, 1e-12);
    for (int k = 0; k < GPURF_DEVICE_COUNT; k++) {
      const gpurf_device *d = &t.device[k];
      assert_true(d->source[0] != '\0');
      assert_true(d->vdd_v > 0.5 && d->vdd_v < 1.5);
      assert_true(d->i_on_n_a_per_m > 100.0 && d->i_on_n_a_per_m < 1e4);
      assert_int_equal(d->n_leakage, 11);
    }
    for (int w = 0; w < GPURF_WIRE_COUNT; w++) {
      assert_true(t.wires.layer[w].r_ohm_per_m > 1e3);
      assert_true(t.wires.layer[w].c_f_per_m > 1e-11 && t.wires.layer[w].c_f_per_m < 1e-9);
    }
  }
  gpurf_ctx_free(ctx);
}

static void names_paths_and_list_resolve(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_tech a, b, c;
  assert_ok(ctx, gpurf_tech_load(ctx, "22", &a));
  assert_ok(ctx, gpurf_tech_load(ctx, "22nm", &b));
  assert_ok(ctx, gpurf_tech_load(ctx, GPURF_TEST_SOURCE_DIR "/tech/22nm.yaml", &c));
  assert_memory_equal(&a.device, &b.device, sizeof a.device);
  assert_memory_equal(&a.device, &c.device, sizeof a.device);
  gpurf_tech_entry e[16];
  size_t n = 0;
  assert_ok(ctx, gpurf_tech_list(ctx, e, 16, &n));
  assert_true(n >= 6);
  for (size_t i = 1; i < n; i++) assert_true(e[i].feature_size_m > e[i - 1].feature_size_m);
  assert_int_equal(gpurf_tech_load(ctx, "fast", &a), GPURF_EINVAL);
  gpurf_ctx *bare = gpurf_ctx_alloc();
  assert_ok(bare, gpurf_ctx_set_data_dir(bare, GPURF_TEST_TMP_DIR "/no-such-data-dir"));
  assert_int_equal(gpurf_tech_load(bare, "22nm", &a), GPURF_ENOTFOUND);
  gpurf_ctx_free(bare);
  gpurf_ctx_free(ctx);
}

static void outside_the_covered_range_is_an_error(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_tech t;
  assert_int_equal(gpurf_tech_load(ctx, "5nm", &t), GPURF_EUNSUPPORTED);
  assert_non_null(strstr(gpurf_ctx_error(ctx)->message, "does not extrapolate"));
  assert_int_equal(gpurf_tech_load(ctx, "130", &t), GPURF_EUNSUPPORTED);
  gpurf_ctx_free(ctx);
}

static void leakage_table_rows_are_returned_exactly(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_tech t;
  assert_ok(ctx, gpurf_tech_load(ctx, "45nm", &t));
  const gpurf_device *d = &t.device[GPURF_DEVICE_HP];
  for (size_t i = 0; i < d->n_leakage; i++) {
    gpurf_leakage l;
    assert_ok(ctx, gpurf_tech_leakage_at(ctx, &t, GPURF_DEVICE_HP, d->leakage[i].temp_k, &l));
    assert_rel(l.i_off_n_a_per_m, d->leakage[i].i_off_n_a_per_m, 1e-12);
    assert_rel(l.i_gate_a_per_m, d->leakage[i].i_gate_a_per_m, 1e-12);
  }
  gpurf_ctx_free(ctx);
}

/* Subthreshold leakage rises with temperature; between rows the log-space
 * interpolation stays between its neighbours. */
static void leakage_grows_with_temperature(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_tech t;
  assert_ok(ctx, gpurf_tech_load(ctx, "40nm", &t));
  double prev = 0.0;
  for (double temp = 300.0; temp <= 400.0; temp += 2.5) {
    gpurf_leakage l;
    assert_ok(ctx, gpurf_tech_leakage_at(ctx, &t, GPURF_DEVICE_HP, temp, &l));
    assert_true(l.i_off_n_a_per_m > prev);
    prev = l.i_off_n_a_per_m;
  }
  gpurf_leakage l300, l360;
  assert_ok(ctx, gpurf_tech_leakage_at(ctx, &t, GPURF_DEVICE_HP, 300.0, &l300));
  assert_ok(ctx, gpurf_tech_leakage_at(ctx, &t, GPURF_DEVICE_HP, GPURF_DEFAULT_TEMP_K, &l360));
  assert_true(l360.i_off_n_a_per_m > 1.5 * l300.i_off_n_a_per_m);
  assert_int_equal(gpurf_tech_leakage_at(ctx, &t, GPURF_DEVICE_HP, 250.0, &l300),
                   GPURF_EUNSUPPORTED);
  assert_int_equal(gpurf_tech_leakage_at(ctx, &t, GPURF_DEVICE_HP, 401.0, &l300),
                   GPURF_EUNSUPPORTED);
  gpurf_ctx_free(ctx);
}

static void derived_checks_are_physical(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  double prev_fo4 = 0.0;
  const char *const by_size[] = {"22nm", "32nm", "45nm", "65nm", "90nm"};
  for (size_t i = 0; i < 5; i++) {
    gpurf_tech t;
    gpurf_tech_derived d;
    assert_ok(ctx, gpurf_tech_load(ctx, by_size[i], &t));
    assert_ok(ctx, gpurf_circuit_derive(ctx, &t, GPURF_DEVICE_HP, 360.0, &d));
    /* FO4 of ITRS high-performance devices: a few ps to a few tens of ps. */
    assert_true(d.fo4_delay_s > 2e-12 && d.fo4_delay_s < 60e-12);
    assert_true(d.fo4_delay_s > prev_fo4); /* older nodes are slower */
    prev_fo4 = d.fo4_delay_s;
    assert_true(d.r_on_p_ohm_m > d.r_on_n_ohm_m);
    for (int w = 1; w < GPURF_WIRE_COUNT; w++)
      assert_true(d.wire_rc_delay_1mm_s[w] < d.wire_rc_delay_1mm_s[w - 1]);
  }
  gpurf_ctx_free(ctx);
}

/* Copies tech/45nm.yaml to a temporary file with line `line` replaced. */
static void write_mutant(const char *out, int line, const char *replacement) {
  FILE *in = fopen(GPURF_TEST_SOURCE_DIR "/tech/45nm.yaml", "r");
  FILE *o = fopen(out, "w");
  assert_non_null(in);
  assert_non_null(o);
  char buf[4096];
  int n = 0;
  while (fgets(buf, sizeof buf, in)) {
    n++;
    fputs(n == line ? replacement : buf, o);
  }
  fclose(in);
  fclose(o);
}

typedef struct mutant {
  int line;
  const char *text;
  int status;
  const char *field;
  const char *message;
} mutant;

static void bad_node_files_are_rejected_at_the_line(void **state) {
  (void)state;
  const mutant cases[] = {
      {16, "    vdd_v: 7.0\n", GPURF_ERANGE, "devices.hp.vdd_v", "must be <= 5"},
      {24, "    c_gate_f_per_m: -6.78e-10\n", GPURF_ERANGE, "devices.hp.c_gate_f_per_m",
       "must be > 0"},
      {16, "    vdd_v: 0.15\n", GPURF_ERANGE, "devices.hp.vth_v", "not below the supply"},
      {37, "      - {temp_k: 290, i_off_n_a_per_m: 0.3, i_off_p_a_per_m: 0.3, i_gate_a_per_m: 0.0359}\n",
       GPURF_ERANGE, "devices.hp.leakage[1].temp_k", "must increase"},
      {16, "    vdd: 1.0\n", GPURF_ESCHEMA, "devices.hp.vdd", "did you mean 'vdd_v'"},
      {80, "  lopp:\n", GPURF_ESCHEMA, "devices.lopp", "unknown key"},
      {24, "    c_gate_f_per_m: 6.78e-10 F/m\n", GPURF_ESCHEMA, "devices.hp.c_gate_f_per_m",
       "expected a number"},
  };
  gpurf_ctx *ctx = test_ctx();
  char path[1024];
  snprintf(path, sizeof path, "%s/mutant.yaml", GPURF_TEST_TMP_DIR);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    write_mutant(path, cases[i].line, cases[i].text);
    gpurf_tech t;
    int rc = gpurf_tech_load_file(ctx, path, &t);
    const gpurf_error *e = gpurf_ctx_error(ctx);
    if (rc != cases[i].status || strcmp(e->field, cases[i].field) != 0 ||
        !strstr(e->message, cases[i].message) || e->line <= 0) {
      char line[1024];
      gpurf_error_format(e, line, sizeof line);
      fail_msg("case %zu: got %d '%s'", i, rc, line);
    }
    /* Value errors point at the mutated line itself. */
    if (strstr(cases[i].field, "vth") == NULL) assert_int_equal(e->line, cases[i].line);
  }
  remove(path);
  gpurf_ctx_free(ctx);
}

static void device_kind_names_round_trip(void **state) {
  (void)state;
  for (int k = 0; k < GPURF_DEVICE_COUNT; k++) {
    gpurf_device_kind out;
    assert_int_equal(gpurf_device_kind_parse(gpurf_device_kind_name((gpurf_device_kind)k), &out),
                     GPURF_OK);
    assert_int_equal(out, k);
  }
  gpurf_device_kind out;
  assert_int_equal(gpurf_device_kind_parse("ulp", &out), GPURF_EINVAL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_shipped_node_loads),
      cmocka_unit_test(names_paths_and_list_resolve),
      cmocka_unit_test(outside_the_covered_range_is_an_error),
      cmocka_unit_test(leakage_table_rows_are_returned_exactly),
      cmocka_unit_test(leakage_grows_with_temperature),
      cmocka_unit_test(derived_checks_are_physical),
      cmocka_unit_test(bad_node_files_are_rejected_at_the_line),
      cmocka_unit_test(device_kind_names_round_trip),
  };
  return cmocka_run_group_tests_name("tech", tests, NULL, NULL);
}
