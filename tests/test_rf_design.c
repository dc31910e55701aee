/* Register-file designs: every shipped model loads and builds its primitive
 * table; broken designs fail at the offending line; `gpurf rf` prints it. */
#include <dirent.h>
#include <string.h>

#include "cli_run.h"

static void every_shipped_model_builds(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  DIR *dir = opendir(GPURF_TEST_SOURCE_DIR "/models");
  assert_non_null(dir);
  struct dirent *de;
  int n = 0;
  static gpurf_rf_design d;
  static gpurf_rf_table t;
  while ((de = readdir(dir)) != NULL) {
    size_t len = strlen(de->d_name);
    if (len < 6 || strcmp(de->d_name + len - 5, ".yaml") != 0) continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/models/%s", GPURF_TEST_SOURCE_DIR, de->d_name);
    assert_ok(ctx, gpurf_rf_design_load(ctx, path, &d));
    assert_ok(ctx, gpurf_rf_design_table(ctx, &d, &t));
    assert_true(t.n_components >= 1);
    for (int c = 0; c < t.n_components; c++) {
      const gpurf_rf_component *comp = &t.components[c];
      assert_true(comp->instances >= 1);
      assert_true(comp->area_m2 > 0.0 && comp->leakage_w >= 0.0);
      for (int e = 0; e < comp->n_events; e++) assert_true(comp->events[e].energy_j > 0.0);
    }
    n++;
  }
  closedir(dir);
  assert_true(n >= 3);
  gpurf_ctx_free(ctx);
}

/* The WarRF facts the designs must reproduce from the models: an STT-RAM
 * write takes 3 cycles of the 0.7 GHz core clock, an SRAM access one. */
static void warrf_cycles(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  static gpurf_rf_design d;
  static gpurf_rf_table t;
  assert_ok(ctx, gpurf_rf_design_load(ctx, "warrf-stt", &d));
  assert_ok(ctx, gpurf_rf_design_table(ctx, &d, &t));
  int bank = gpurf_rf_table_find(&t, "bank");
  assert_true(bank >= 0);
  assert_true(gpurf_rf_table_find_event(&t, bank, "write") >= 0);
  assert_int_equal(gpurf_rf_table_find_event(&t, bank, "erase"), -1);
  assert_int_equal(gpurf_rf_table_find(&t, "router"), -1);
  double w = t.components[bank].write_time_s * t.clock_hz;
  assert_true(w > 2.0 && w <= 3.0);
  assert_ok(ctx, gpurf_rf_design_load(ctx, "warrf-sram", &d));
  assert_ok(ctx, gpurf_rf_design_table(ctx, &d, &t));
  assert_true(t.components[0].access_time_s * t.clock_hz <= 1.0);
  assert_int_equal(t.components[0].instances, 16);
  gpurf_ctx_free(ctx);
}

/* Operand collectors: one per crossbar output, a flip-flop array of three
 * warp operands whose write (one operand from the crossbar) is costed, and
 * none without a crossbar. A collector is far smaller and cheaper than a
 * bank: three warp registers against a bank's 64, a write of a few
 * flip-flop rows against a bank read. */
static void collectors_are_costed(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  static gpurf_rf_design d;
  static gpurf_rf_table t;
  assert_ok(ctx, gpurf_rf_design_load(ctx, "fermi-baseline", &d));
  assert_ok(ctx, gpurf_rf_design_table(ctx, &d, &t));
  int cu = gpurf_rf_table_find(&t, GPURF_RF_COLLECTOR), bank = gpurf_rf_table_find(&t, "bank");
  assert_true(cu >= 0 && bank >= 0);
  const gpurf_rf_component *c = &t.components[cu], *b = &t.components[bank];
  assert_int_equal(c->instances, d.crossbar.outputs);
  assert_string_equal(c->kind, "dff");
  int w = gpurf_rf_table_find_event(&t, cu, GPURF_EV_WRITE);
  int r = gpurf_rf_table_find_event(&t, cu, GPURF_EV_READ);
  assert_true(w >= 0 && r >= 0);
  double e_w = c->events[w].energy_j, e_bank = b->events[0].energy_j;
  assert_true(e_w > 0.0 && e_w < e_bank);
  assert_true(c->events[r].energy_j > 0.0);
  assert_true(c->area_m2 > 0.0 && c->area_m2 < b->area_m2);
  assert_true(c->leakage_w > 0.0);
  /* A collector access fits in the cycle the bank access takes. */
  assert_true(c->access_time_s > 0.0 && c->access_time_s < b->access_time_s);
  assert_ok(ctx, gpurf_rf_design_load(ctx, "warrf-sram", &d));
  assert_ok(ctx, gpurf_rf_design_table(ctx, &d, &t));
  assert_int_equal(gpurf_rf_table_find(&t, GPURF_RF_COLLECTOR), -1);
  gpurf_ctx_free(ctx);
}

typedef struct bad_design {
  const char *file;
  int line, column;
  const char *field, *message;
} bad_design;

static void broken_designs_fail_at_the_line(void **state) {
  (void)state;
  const bad_design cases[] = {
      {"bad-device.yaml", 4, 9, "device", "is not hp, lstp or lop"},
      {"bad-opt.yaml", 18, 10, "banks[0].opt", "'fastest' is not"},
      {"bad-ports.yaml", 14, 12, "banks[0].ports", "'2x' is not a port mix"},
      {"bad-gate-groups.yaml", 18, 18, "banks[0].gate_groups", "6 is not a power of two"},
      {"bad-wire.yaml", 22, 9, "crossbar.wire", "'copper' is not local, semi-global or global"},
      {"bad-style.yaml", 22, 10, "crossbar.style", "'bus' is not matrix or mux"},
      {"bad-port.yaml", 18, 11, "banks[0].port", "'side' is not edge or point"},
      {"bad-policy.yaml", 11, 11, "sm.policy", "'fifo' is not lrr, gto or two_level"},
      {"bad-extra-kind.yaml", 19, 11, "extras[0].kind", "'victim_cache' is not rename_table"},
      {"duplicate-name.yaml", 18, 11, "banks[1].name", "used twice"},
      {"fractional-entries.yaml", 16, 14, "banks[0].entries", "whole number"},
      {"missing-clock.yaml", 1, 1, "clock_hz", "missing required key"},
      {"unknown-key.yaml", 16, 5, "banks[0].colour", "unknown key"},
      {"unknown-cell.yaml", 13, 11, "banks[0].cell", "no cell named 'no-such-cell'"},
  };
  gpurf_ctx *ctx = test_ctx();
  static gpurf_rf_design d;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/models-bad/%s", GPURF_TEST_DATA_DIR, cases[i].file);
    int rc = gpurf_rf_design_load(ctx, path, &d);
    const gpurf_error *e = gpurf_ctx_error(ctx);
    if (rc == GPURF_OK || e->line != cases[i].line || e->column != cases[i].column ||
        strcmp(e->field, cases[i].field) != 0 || !strstr(e->message, cases[i].message)) {
      char line[1024];
      gpurf_error_format(e, line, sizeof line);
      fail_msg("%s: got '%s'", cases[i].file, line);
    }
  }
  assert_int_equal(gpurf_rf_design_load(ctx, "no-such-design", &d), GPURF_ENOTFOUND);
  gpurf_ctx_free(ctx);
}

/* Extras the schema accepts but their component model refuses (a range
 * that depends on the kind, or on the SM's sizes) load, and costing them
 * fails at the extra's place in the file. */
static void refused_extras_fail_at_the_line(void **state) {
  (void)state;
  const bad_design cases[] = {
      {"pool-too-large.yaml", 19, 11, "extras[0]", "write pool: 1048576 entries is outside 1..65536"},
      {"crf-few-slots.yaml", 21, 11, "extras[1]", "100 VRF slots is below the 192"},
  };
  gpurf_ctx *ctx = test_ctx();
  static gpurf_rf_design d;
  static gpurf_rf_table t;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/models-bad/%s", GPURF_TEST_DATA_DIR, cases[i].file);
    assert_int_equal(gpurf_rf_design_load(ctx, path, &d), GPURF_OK);
    int rc = gpurf_rf_design_table(ctx, &d, &t);
    const gpurf_error *e = gpurf_ctx_error(ctx);
    if (rc == GPURF_OK || e->line != cases[i].line || e->column != cases[i].column ||
        strcmp(e->field, cases[i].field) != 0 || !strstr(e->message, cases[i].message) ||
        !strstr(e->file, cases[i].file)) {
      char line[1024];
      gpurf_error_format(e, line, sizeof line);
      fail_msg("%s: got '%s'", cases[i].file, line);
    }
  }
  gpurf_ctx_free(ctx);
}

static void rf_command(void **state) {
  (void)state;
  static cli_result r;
  cli_run(&r, "rf warrf-stt --format json");
  assert_int_equal(r.status, 0);
  const char *keys[] = {"\"design\": \"warrf-stt\"", "\"components\"", "\"energy_pj\"",
                        "\"read\"", "\"write\"", "\"leakage_mw_each\"", "\"area_mm2_each\"",
                        "\"access_cycles\"", "\"write_cycles\": 3", "\"totals\""};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    if (!strstr(r.out, keys[i])) fail_msg("missing %s", keys[i]);
  /* The read path sums arbiter, slowest storage and crossbar. */
  cli_run(&r, "rf jing-128k-16bk-stealing --format json");
  assert_int_equal(r.status, 0);
  double path = cli_json_number(r.out, "read_path_ns");
  const char *bd = strstr(r.out, "\"read_path_breakdown_ns\"");
  assert_non_null(bd);
  double parts = cli_json_number(bd, "bank") + cli_json_number(bd, "crossbar") +
                 cli_json_number(bd, "arbiter");
  assert_true(path > 0.0);
  assert_rel(path, parts, 1e-6);
  /* A gated bank carries its power-gating costs. */
  cli_run(&r, "rf jeon-shrink --format json");
  assert_int_equal(r.status, 0);
  assert_int_equal((int)cli_json_number(r.out, "groups"), 4);
  assert_true(cli_json_number(r.out, "wake_energy_pj") > 0.0);
  cli_run(&r, "rf warrf-sram --format csv");
  assert_int_equal(r.status, 0);
  assert_non_null(strstr(r.out, "component,kind,instances,event,energy_pj"));
  assert_int_equal(cli_count_lines(r.out), 3);
  /* A design costs a counters file directly. */
  cli_run(&r, "energy warrf-sram '" GPURF_TEST_DATA_DIR "/counters/accelwattch-report.log' "
              "--format json");
  assert_int_equal(r.status, 0);
  assert_non_null(strstr(r.out, "\"counter_mapping\""));
  const cli_error_case errors[] = {
      {"rf", 2, "which design?"},
      {"rf warrf-sram --format xml", 2, "--format must be"},
      {"rf no-such-design", 1, "no design named 'no-such-design'"},
      {"rf '" GPURF_TEST_DATA_DIR "/models-bad/bad-ports.yaml'", 1, "bad-ports.yaml:14:12:"},
      {"rf '" GPURF_TEST_DATA_DIR "/models-bad/pool-too-large.yaml'", 1,
       "pool-too-large.yaml:19:11: key 'extras[0]': write pool: 1048576 entries is outside"},
  };
  cli_check_errors(errors, sizeof errors / sizeof errors[0]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_shipped_model_builds),
      cmocka_unit_test(warrf_cycles),
      cmocka_unit_test(collectors_are_costed),
      cmocka_unit_test(broken_designs_fail_at_the_line),
      cmocka_unit_test(refused_extras_fail_at_the_line),
      cmocka_unit_test(rf_command),
  };
  return cmocka_run_group_tests_name("rf_design", tests, NULL, NULL);
}
