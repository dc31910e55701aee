/* Node files: every shipped node loads, names resolve, bad node files are
 * rejected at the offending line, temperature scales leakage. */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static const char *const shipped[] = {"22nm", "32nm", "40nm", "45nm", "65nm", "90nm"};

/* Every device parameter and leakage row of a and b agree bit for bit. */
static void assert_same_devices(const gpurf_tech *a, const gpurf_tech *b) {
  for (int k = 0; k < GPURF_DEVICE_COUNT; k++) {
    const gpurf_device *da = gpurf_tech_device(a, (gpurf_device_kind)k);
    const gpurf_device *db = gpurf_tech_device(b, (gpurf_device_kind)k);
    for (int p = 0; p < GPURF_DEVICE_PARAM_COUNT; p++) {
      double va = gpurf_tech_device_value(da, (gpurf_device_param)p);
      double vb = gpurf_tech_device_value(db, (gpurf_device_param)p);
      assert_memory_equal(&va, &vb, sizeof va);
    }
    assert_int_equal(gpurf_tech_device_leakage_rows(da), gpurf_tech_device_leakage_rows(db));
    for (size_t i = 0; i < gpurf_tech_device_leakage_rows(da); i++) {
      gpurf_leakage la, lb;
      assert_int_equal(gpurf_tech_device_leakage_row(da, i, &la), GPURF_OK);
      assert_int_equal(gpurf_tech_device_leakage_row(db, i, &lb), GPURF_OK);
      assert_memory_equal(&la, &lb, sizeof la);
    }
  }
}

static void every_shipped_node_loads(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  for (size_t i = 0; i < sizeof shipped / sizeof shipped[0]; i++) {
    gpurf_tech *t = test_tech(ctx, shipped[i]);
    assert_string_equal(gpurf_tech_name(t), shipped[i]);
    assert_int_equal(gpurf_tech_interpolated(t, NULL, NULL), 0);
    assert_non_null(strstr(gpurf_tech_path(t), shipped[i]));
    assert_rel(gpurf_tech_value(t, GPURF_TECH_FEATURE_SIZE_M), atof(shipped[i]) * 1e-9, 1e-12);
    for (int k = 0; k < GPURF_DEVICE_COUNT; k++) {
      const gpurf_device *d = gpurf_tech_device(t, (gpurf_device_kind)k);
      assert_true(gpurf_tech_device_source(d)[0] != '\0');
      double vdd = gpurf_tech_device_value(d, GPURF_DEVICE_VDD_V);
      double i_on = gpurf_tech_device_value(d, GPURF_DEVICE_I_ON_N_A_PER_M);
      assert_true(vdd > 0.5 && vdd < 1.5);
      assert_true(i_on > 100.0 && i_on < 1e4);
      assert_int_equal(gpurf_tech_device_leakage_rows(d), 11);
    }
    for (int w = 0; w < GPURF_WIRE_COUNT; w++) {
      double r = gpurf_tech_wire_value(t, (gpurf_wire_kind)w, GPURF_WIRE_R_OHM_PER_M);
      double c = gpurf_tech_wire_value(t, (gpurf_wire_kind)w, GPURF_WIRE_C_F_PER_M);
      assert_true(r > 1e3);
      assert_true(c > 1e-11 && c < 1e-9);
    }
    for (int s = GPURF_TECH_WIRES; s <= GPURF_TECH_SENSE_AMP; s++)
      assert_true(gpurf_tech_source(t, (gpurf_tech_section)s)[0] != '\0');
    for (int p = 0; p < GPURF_TECH_PARAM_COUNT; p++)
      assert_true(gpurf_tech_value(t, (gpurf_tech_param)p) > 0.0);
    gpurf_tech_free(t);
  }
  gpurf_ctx_free(ctx);
}

static void names_paths_and_list_resolve(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_tech *a = test_tech(ctx, "22"), *b = test_tech(ctx, "22nm");
  gpurf_tech *c = test_tech(ctx, GPURF_TEST_SOURCE_DIR "/tech/22nm.yaml");
  assert_same_devices(a, b);
  assert_same_devices(a, c);
  gpurf_tech_entry e[16];
  size_t n = 0;
  assert_ok(ctx, gpurf_tech_list(ctx, e, 16, &n));
  assert_true(n >= 6);
  for (size_t i = 1; i < n; i++) assert_true(e[i].feature_size_m > e[i - 1].feature_size_m);
  assert_int_equal(gpurf_tech_load(ctx, "fast", a), GPURF_EINVAL);
  gpurf_ctx *bare = gpurf_ctx_alloc();
  assert_ok(bare, gpurf_ctx_set_data_dir(bare, GPURF_TEST_TMP_DIR "/no-such-data-dir"));
  assert_int_equal(gpurf_tech_load(bare, "22nm", a), GPURF_ENOTFOUND);
  gpurf_ctx_free(bare);
  /* A failed load leaves the node as it was. */
  assert_same_devices(a, b);
  assert_string_equal(gpurf_tech_name(a), "22nm");
  gpurf_tech_free(a);
  gpurf_tech_free(b);
  gpurf_tech_free(c);
  gpurf_ctx_free(ctx);
}

static void outside_the_covered_range_is_an_error(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_tech *t = NULL;
  assert_ok(ctx, gpurf_tech_alloc(ctx, &t));
  assert_int_equal(gpurf_tech_load(ctx, "5nm", t), GPURF_EUNSUPPORTED);
  assert_non_null(strstr(gpurf_ctx_error(ctx)->message, "does not extrapolate"));
  assert_int_equal(gpurf_tech_load(ctx, "130", t), GPURF_EUNSUPPORTED);
  gpurf_tech_free(t);
  gpurf_ctx_free(ctx);
}

static void leakage_table_rows_are_returned_exactly(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_tech *t = test_tech(ctx, "45nm");
  const gpurf_device *d = gpurf_tech_device(t, GPURF_DEVICE_HP);
  for (size_t i = 0; i < gpurf_tech_device_leakage_rows(d); i++) {
    gpurf_leakage row, l;
    assert_ok(ctx, gpurf_tech_device_leakage_row(d, i, &row));
    assert_ok(ctx, gpurf_tech_leakage_at(ctx, t, GPURF_DEVICE_HP, row.temp_k, &l));
    assert_rel(l.i_off_n_a_per_m, row.i_off_n_a_per_m, 1e-12);
    assert_rel(l.i_gate_a_per_m, row.i_gate_a_per_m, 1e-12);
  }
  gpurf_tech_free(t);
  gpurf_ctx_free(ctx);
}

/* Subthreshold leakage rises with temperature; between rows the log-space
 * interpolation stays between its neighbours. */
static void leakage_grows_with_temperature(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_tech *t = test_tech(ctx, "40nm");
  double prev = 0.0;
  for (double temp = 300.0; temp <= 400.0; temp += 2.5) {
    gpurf_leakage l;
    assert_ok(ctx, gpurf_tech_leakage_at(ctx, t, GPURF_DEVICE_HP, temp, &l));
    assert_true(l.i_off_n_a_per_m > prev);
    prev = l.i_off_n_a_per_m;
  }
  gpurf_leakage l300, l360;
  assert_ok(ctx, gpurf_tech_leakage_at(ctx, t, GPURF_DEVICE_HP, 300.0, &l300));
  assert_ok(ctx, gpurf_tech_leakage_at(ctx, t, GPURF_DEVICE_HP, GPURF_DEFAULT_TEMP_K, &l360));
  assert_true(l360.i_off_n_a_per_m > 1.5 * l300.i_off_n_a_per_m);
  assert_int_equal(gpurf_tech_leakage_at(ctx, t, GPURF_DEVICE_HP, 250.0, &l300),
                   GPURF_EUNSUPPORTED);
  assert_int_equal(gpurf_tech_leakage_at(ctx, t, GPURF_DEVICE_HP, 401.0, &l300),
                   GPURF_EUNSUPPORTED);
  gpurf_tech_free(t);
  gpurf_ctx_free(ctx);
}

static void derived_checks_are_physical(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  double prev_fo4 = 0.0;
  const char *const by_size[] = {"22nm", "32nm", "45nm", "65nm", "90nm"};
  for (size_t i = 0; i < 5; i++) {
    gpurf_tech *t = test_tech(ctx, by_size[i]);
    gpurf_tech_derived d;
    assert_ok(ctx, gpurf_circuit_derive(ctx, t, GPURF_DEVICE_HP, 360.0, &d));
    gpurf_tech_free(t);
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
      {37,
       "      - {temp_k: 290, i_off_n_a_per_m: 0.3, i_off_p_a_per_m: 0.3, i_gate_a_per_m: "
       "0.0359}\n",
       GPURF_ERANGE, "devices.hp.leakage[1].temp_k", "must increase"},
      {16, "    vdd: 1.0\n", GPURF_ESCHEMA, "devices.hp.vdd", "did you mean 'vdd_v'"},
      {80, "  lopp:\n", GPURF_ESCHEMA, "devices.lopp", "unknown key"},
      {24, "    c_gate_f_per_m: 6.78e-10 F/m\n", GPURF_ESCHEMA, "devices.hp.c_gate_f_per_m",
       "expected a number"},
  };
  gpurf_ctx *ctx = test_ctx();
  char path[1024];
  snprintf(path, sizeof path, "%s/mutant.yaml", GPURF_TEST_TMP_DIR);
  gpurf_tech *t = NULL;
  assert_ok(ctx, gpurf_tech_alloc(ctx, &t));
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    write_mutant(path, cases[i].line, cases[i].text);
    int rc = gpurf_tech_load_file(ctx, path, t);
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
  gpurf_tech_free(t);
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

/* Accessors read the node file's values; identifiers out of range read as
 * NaN, "" or NULL rather than past the end of a table. */
static void accessors_read_the_file_and_refuse_what_is_out_of_range(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_tech *t = test_tech(ctx, "45nm");
  const gpurf_device *hp = gpurf_tech_device(t, GPURF_DEVICE_HP);
  /* tech/45nm.yaml: devices.hp.vdd_v and wires.local.pitch_m. */
  assert_rel(gpurf_tech_device_value(hp, GPURF_DEVICE_VDD_V), 1.0, 1e-12);
  assert_rel(gpurf_tech_wire_value(t, GPURF_WIRE_LOCAL, GPURF_WIRE_PITCH_M), 1.125e-7, 1e-12);
  assert_string_equal(gpurf_tech_device_param_key(GPURF_DEVICE_VDD_V), "vdd_v");
  assert_string_equal(gpurf_tech_device_param_key(GPURF_DEVICE_LONG_CHANNEL_LEAKAGE_FACTOR),
                      "long_channel_leakage_factor");
  for (int p = 0; p < GPURF_DEVICE_PARAM_COUNT; p++) {
    assert_true(gpurf_tech_device_param_key((gpurf_device_param)p)[0] != '\0');
    assert_true(gpurf_tech_device_value(hp, (gpurf_device_param)p) > 0.0);
  }
  assert_true(isnan(gpurf_tech_device_value(hp, GPURF_DEVICE_PARAM_COUNT)));
  assert_string_equal(gpurf_tech_device_param_key(GPURF_DEVICE_PARAM_COUNT), "");
  assert_null(gpurf_tech_device(t, GPURF_DEVICE_COUNT));
  assert_true(isnan(gpurf_tech_value(t, GPURF_TECH_PARAM_COUNT)));
  assert_true(isnan(gpurf_tech_wire_value(t, GPURF_WIRE_COUNT, GPURF_WIRE_PITCH_M)));
  assert_true(isnan(gpurf_tech_wire_value(t, GPURF_WIRE_LOCAL, GPURF_WIRE_PARAM_COUNT)));
  gpurf_leakage l;
  assert_int_equal(gpurf_tech_device_leakage_row(hp, gpurf_tech_device_leakage_rows(hp), &l),
                   GPURF_EINVAL);
  gpurf_tech_free(t);
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(accessors_read_the_file_and_refuse_what_is_out_of_range),
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
