/* Counter files: re-costing a file gives what counting the same events
 * through the API gives; AccelWattch reports become the documented events;
 * every defect is one FILE:LINE:COL message and leaves the engine as it was. */
#include <stdlib.h>
#include <string.h>

#include "gpurf/events.h"
#include "test_util.h"

#define DATA GPURF_TEST_DATA_DIR
#define TABLE DATA "/tables/test-rf.yaml"

static gpurf_energy *engine_from_file(gpurf_ctx *ctx) {
  gpurf_rf_table t;
  assert_ok(ctx, gpurf_rf_table_load(ctx, TABLE, &t));
  gpurf_energy *e = NULL;
  assert_ok(ctx, gpurf_energy_alloc(ctx, &t, &e));
  return e;
}

static int id_of(gpurf_energy *e, const char *c, const char *v) {
  int id = -1;
  assert_int_equal(gpurf_energy_event_id(e, c, v, &id), GPURF_OK);
  return id;
}

/* The Done-when criterion: counters/test-rf.tsv holds exactly these events. */
static void recosting_a_file_equals_counting_through_the_api(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_energy *api = engine_from_file(ctx), *file = engine_from_file(ctx);
  int rd = id_of(api, "bank", "read"), wr = id_of(api, "bank", "write");
  assert_int_equal(gpurf_energy_add(api, rd, 0, 100), GPURF_OK);
  assert_int_equal(gpurf_energy_add(api, rd, 3, 50), GPURF_OK);
  assert_int_equal(gpurf_energy_add(api, wr, 1, 70), GPURF_OK);
  assert_int_equal(gpurf_energy_add(api, rd, 0, 10), GPURF_OK);
  assert_int_equal(gpurf_energy_add(api, id_of(api, "crossbar", "transfer"), 0, 160), GPURF_OK);
  assert_int_equal(gpurf_energy_add(api, id_of(api, "collector", "write"), 1, 160), GPURF_OK);
  /* Sub-array 1 of bank 2: gated 400 cycles, woken 3 times. */
  int bank;
  assert_ok(ctx, gpurf_energy_component_id(api, "bank", &bank));
  gpurf_energy_advance(api, 100);
  for (int k = 0; k < 3; k++) {
    assert_int_equal(gpurf_energy_gate(api, bank, 2, 1, 1), GPURF_OK);
    gpurf_energy_advance(api, k < 2 ? 150 : 100);
    assert_int_equal(gpurf_energy_gate(api, bank, 2, 1, 0), GPURF_OK);
  }
  gpurf_energy_advance(api, 1000 - gpurf_energy_cycles(api));

  gpurf_counts_info info;
  assert_ok(ctx, gpurf_energy_load_counts(ctx, file, DATA "/counters/test-rf.tsv", &info));
  assert_int_equal(info.format, GPURF_COUNTS_NATIVE);
  assert_true(info.has_cycles && info.cycles == 1000);
  assert_true(info.has_instructions && info.instructions == 500);
  assert_int_equal(info.n_mappings, 0);

  gpurf_energy_report *a = test_report(ctx), *f = test_report(ctx);
  gpurf_energy_report_in in = {500};
  assert_ok(ctx, gpurf_energy_report_get(ctx, api, &in, a));
  assert_ok(ctx, gpurf_energy_report_get(ctx, file, &in, f));
  assert_same_report(a, f);
  assert_int_equal(gpurf_energy_report_component_wakeups(f, 0), 3);
  assert_int_equal(gpurf_energy_report_component_gated_subarray_cycles(f, 0), 400);
  assert_true(gpurf_energy_report_total_energy_j(f) > 0.0);
  gpurf_energy_report_free(a);
  gpurf_energy_report_free(f);
  gpurf_energy_free(api);
  gpurf_energy_free(file);
  gpurf_ctx_free(ctx);
}

static void accelwattch_counters_become_warp_accesses(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_energy *e = engine_from_file(ctx);
  gpurf_counts_info info;
  assert_ok(ctx, gpurf_energy_load_counts(ctx, e, DATA "/counters/accelwattch-report.log", &info));
  assert_int_equal(info.format, GPURF_COUNTS_ACCELWATTCH);
  assert_int_equal(info.kernels, 2);
  assert_true(info.has_cycles && info.cycles == 2000);
  assert_int_equal(info.n_mappings, 3);
  /* gpu_tot_ lines summed over both kernels; gpu_avg_/max_/min_ ignored. */
  const gpurf_counter_mapping *m = info.mappings;
  assert_string_equal(m[0].counter, "REG_RD");
  assert_rel(m[0].thread_operands, 65536 + 32768, 1e-15);
  assert_int_equal(m[0].warp_accesses, 3072);
  assert_int_equal(m[0].n_targets, 3);
  assert_string_equal(m[0].targets[0], "bank.read");
  assert_string_equal(m[0].targets[1], "crossbar.transfer");
  assert_string_equal(m[0].targets[2], "collector.write");
  assert_string_equal(m[1].counter, "REG_WR");
  assert_int_equal(m[1].warp_accesses, 1536);
  assert_int_equal(m[1].n_targets, 1);
  assert_string_equal(m[1].targets[0], "bank.write");
  assert_string_equal(m[2].counter, "NON_REG_OPs");
  assert_int_equal(m[2].warp_accesses, 512);
  assert_string_equal(m[2].targets[0], "collector.write");
  gpurf_energy_report *r = test_report(ctx);
  assert_ok(ctx, gpurf_energy_report_get(ctx, e, NULL, r));
  assert_int_equal(gpurf_energy_report_event_count(r, 0, 0), 3072);
  assert_int_equal(gpurf_energy_report_event_count(r, 0, 1), 1536);
  assert_int_equal(gpurf_energy_report_event_count(r, 1, 0), 3072);
  assert_int_equal(gpurf_energy_report_event_count(r, 2, 0), 3072 + 512);
  assert_int_equal(gpurf_energy_report_cycles(r), 2000);
  gpurf_energy_free(e);

  /* Bare form; halves round up (48 / 32 = 1.5 -> 2); no cycles given. */
  e = engine_from_file(ctx);
  assert_ok(ctx, gpurf_energy_load_counts(ctx, e, DATA "/counters/accelwattch-bare.txt", &info));
  assert_false(info.has_cycles);
  assert_int_equal(info.mappings[2].warp_accesses, 2);
  assert_int_equal(gpurf_energy_cycles(e), 0);
  gpurf_energy_free(e);

  /* A table without a crossbar or collectors charges banks only. */
  gpurf_rf_table t;
  assert_ok(ctx, gpurf_rf_table_load(ctx, DATA "/tables/minimal.yaml", &t));
  strcpy(t.components[0].events[0].name, "write");
  t.components[0].n_events = 1;
  assert_ok(ctx, gpurf_energy_alloc(ctx, &t, &e));
  assert_int_equal(gpurf_energy_load_counts(ctx, e, DATA "/counters/accelwattch-bare.txt", &info),
                   GPURF_EINVAL);
  assert_non_null(strstr(gpurf_ctx_error(ctx)->message, "named 'bank' with events 'read' and"));
  gpurf_energy_free(e);
  t.components[0].n_events = 2;
  strcpy(t.components[0].events[1].name, "read");
  assert_ok(ctx, gpurf_energy_alloc(ctx, &t, &e));
  assert_ok(ctx, gpurf_energy_load_counts(ctx, e, DATA "/counters/accelwattch-bare.txt", &info));
  assert_int_equal(info.mappings[0].n_targets, 1);
  assert_int_equal(info.mappings[2].n_targets, 0);
  gpurf_energy_free(e);
  gpurf_energy_report_free(r);
  gpurf_ctx_free(ctx);
}

static void each_defect_names_file_line_and_column(void **state) {
  (void)state;
  const struct {
    const char *file, *where, *what;
  } cases[] = {
      {"bad-version.tsv", "bad-version.tsv:1:16:", "this gpurf reads version 1"},
      {"instance-range.tsv", "instance-range.tsv:3:11:", "instance 4 of 'bank', which has 4"},
      {"unknown-component.tsv", "unknown-component.tsv:3:1:", "no component 'banks'"},
      {"unknown-event.tsv", "unknown-event.tsv:3:6:", "'bank' has no event 'fetch'"},
      {"negative-count.tsv", "negative-count.tsv:3:13:", "count '-5' is not a whole number"},
      {"count-overflow.tsv", "count-overflow.tsv:3:13:", "not a whole number from 0 to 2^64-1"},
      {"no-cycles.tsv", "no-cycles.tsv:2:1:", "no 'cycles' line"},
      {"cycles-twice.tsv", "cycles-twice.tsv:3:1:", "'cycles' given twice"},
      {"spaces.tsv", "spaces.tsv:3:1:", "(found 1 field)"},
      {"gate-ungateable.tsv", "gate-ungateable.tsv:3:7:", "'crossbar' has no sub-arrays"},
      {"subarray-range.tsv", "subarray-range.tsv:3:14:", "sub-array 2 of 'bank'"},
      {"gated-too-long.tsv", "gated-too-long.tsv:3:1:", "more than the file's 10"},
      {"nul.tsv", "nul.tsv:2:9:", "binary data (NUL byte)"},
      {"compressed.log", "compressed.log:1:1:", "gzip-compressed file"},
      {"aw-bad-value.log", "aw-bad-value.log:2:19:", "REG_RD value '12x4'"},
      {"aw-negative.log", "aw-negative.log:2:19:", "REG_RD value '-32'"},
      {"aw-mixed.log", "aw-mixed.log:3:1:", "mixes the bare form"},
      {"aw-bad-cycles.log", "aw-bad-cycles.log:3:17:", "gpu_sim_cycle '1.5e3'"},
      {"aw-no-counters.log", "aw-no-counters.log: ", "neither a gpurf counters file"},
      {"aw-averages-only.log", "aw-averages-only.log: ", "the totals are AccelWattch's gpu_tot_"},
      {"does-not-exist.tsv", "does-not-exist.tsv: ", "cannot open"},
  };
  gpurf_ctx *ctx = test_ctx();
  gpurf_energy *e = engine_from_file(ctx);
  int rd = id_of(e, "bank", "read");
  gpurf_energy_add(e, rd, 1, 9);
  gpurf_energy_advance(e, 77);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[1024], msg[2048];
    snprintf(path, sizeof path, DATA "/counters/bad/%s", cases[i].file);
    gpurf_counts_info info;
    int rc = gpurf_energy_load_counts(ctx, e, path, &info);
    gpurf_error_format(gpurf_ctx_error(ctx), msg, sizeof msg);
    if (rc >= 0 || !strstr(msg, cases[i].where) || !strstr(msg, cases[i].what))
      fail_msg("%s: status %d, message '%s'", cases[i].file, rc, msg);
  }
  /* Nothing of the bad files reached the engine. */
  gpurf_energy_report *r = test_report(ctx);
  assert_ok(ctx, gpurf_energy_report_get(ctx, e, NULL, r));
  assert_int_equal(gpurf_energy_report_cycles(r), 77);
  assert_int_equal(gpurf_energy_report_event_count(r, 0, 0), 9);
  assert_int_equal(gpurf_energy_report_event_count(r, 0, 1), 0);
  assert_int_equal(gpurf_energy_report_component_gated_subarray_cycles(r, 0), 0);
  gpurf_energy_free(e);
  gpurf_energy_report_free(r);
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(recosting_a_file_equals_counting_through_the_api),
      cmocka_unit_test(accelwattch_counters_become_warp_accesses),
      cmocka_unit_test(each_defect_names_file_line_and_column),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
