/* Primitive table files: a good file decodes into the table the engine
 * uses; each kind of defect is one FILE:LINE:COL message naming the key. */
#include <string.h>

#include "gpurf/events.h"
#include "gpurf/pipeline.h"
#include "test_util.h"

#define TABLES GPURF_TEST_DATA_DIR "/tables"

static void good_file_decodes_every_key(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_rf_table t;
  assert_ok(ctx, gpurf_rf_table_load(ctx, TABLES "/test-rf.yaml", &t));
  assert_string_equal(t.design, "test-rf");
  assert_rel(t.clock_hz, 1.0e9, 1e-15);
  assert_int_equal(t.n_components, 3);
  const gpurf_rf_component *b = &t.components[0];
  assert_string_equal(b->name, "bank");
  assert_string_equal(b->kind, "sram");
  assert_int_equal(b->instances, 4);
  assert_rel(b->leakage_w, 1.0e-3, 1e-15);
  assert_rel(b->area_m2, 2.0e-8, 1e-15);
  assert_rel(b->area_cells_m2, 1.0e-8, 1e-15);
  assert_rel(b->access_time_s, 5.0e-10, 1e-15);
  assert_rel(b->write_time_s, 1.5e-9, 1e-15);
  assert_int_equal(b->subarrays, 2);
  assert_rel(b->gated_leakage_fraction, 0.1, 1e-15);
  assert_rel(b->wake_energy_j, 1.0e-12, 1e-15);
  assert_rel(b->wake_latency_s, 2.0e-9, 1e-15);
  assert_int_equal(b->n_events, 2);
  assert_string_equal(b->events[1].name, "write");
  assert_rel(b->events[1].energy_j, 3.0e-12, 1e-15);
  /* Without gating keys a component cannot be gated. */
  assert_int_equal(t.components[1].subarrays, 0);
  /* Without write_time_s writes take the access time. */
  assert_true(t.components[1].write_time_s == 0.0);
  assert_true(t.components[1].gated_leakage_fraction == 0.0);
  assert_int_equal(gpurf_rf_table_find_event(&t, 2, "read"), 1);
  /* The bank's times reach the pipeline in whole cycles at 1 GHz. */
  gpurf_pipeline_params p;
  gpurf_pipeline_params_init(&p);
  gpurf_pipeline_params_from_table(&p, &t);
  assert_int_equal(p.bank_read_cycles, 1);
  assert_int_equal(p.bank_write_cycles, 2);
  gpurf_energy *e = NULL;
  assert_ok(ctx, gpurf_energy_alloc(ctx, &t, &e));
  gpurf_energy_free(e);
  gpurf_ctx_free(ctx);
}

static void each_defect_names_file_line_and_key(void **state) {
  (void)state;
  const struct {
    const char *file, *where, *what;
  } cases[] = {
      {"unknown-key.yaml", "unknown-key.yaml:7:7: key 'table.components[0].instancs'",
       "did you mean 'instances'?"},
      {"missing-key.yaml", "missing-key.yaml:5:7: key 'table.components[0].leakage_w'",
       "missing required key"},
      {"negative-energy.yaml", ":12:34: key 'table.components[0].events[0].energy_j'",
       "must be >= 0"},
      {"fractional-instances.yaml", ":7:18: key 'table.components[0].instances'",
       "expected a whole number"},
      {"quoted-clock.yaml", ":3:13: key 'table.clock_hz'", "quoted string"},
      {"zero-clock.yaml", ":3:13: key 'table.clock_hz'", "must be > 0"},
      {"fraction-above-one.yaml", ":14:31: key 'table.components[0].gated_leakage_fraction'",
       "must be <= 1"},
      {"space-in-name.yaml", ":5:13: key 'table.components[0].name'", "names are single words"},
      {"duplicate-event.yaml", ":13:18: key 'table.components[0].events[1].name'",
       "event 'read' is listed twice"},
      {"duplicate-component.yaml", ":13:13: key 'table.components[1].name'",
       "component 'bank' is listed twice"},
      {"gating-incomplete.yaml", ":11:18: key 'table.components[0].subarrays'",
       "needs wake_energy_j"},
      {"gating-without-subarrays.yaml", ":11:22: key 'table.components[0].wake_energy_j'",
       "has no sub-arrays to gate"},
      {"cells-exceed-area.yaml", ":11:22: key 'table.components[0].area_cells_m2'",
       "exceeds the component's area"},
      {"no-events.yaml", ":11:15: key 'table.components[0].events'", "list has 0 entries"},
      {"no-table-root.yaml", "no-table-root.yaml:1:1: key 'design'", "unknown key"},
      {"syntax-error.yaml", "syntax-error.yaml:5:1:", "invalid YAML"},
      {"does-not-exist.yaml", "does-not-exist.yaml: ", "cannot open"},
  };
  gpurf_ctx *ctx = test_ctx();
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[1024], msg[2048];
    snprintf(path, sizeof path, TABLES "/bad/%s", cases[i].file);
    gpurf_rf_table t;
    int rc = gpurf_rf_table_load(ctx, path, &t);
    gpurf_error_format(gpurf_ctx_error(ctx), msg, sizeof msg);
    if (rc >= 0 || !strstr(msg, cases[i].where) || !strstr(msg, cases[i].what))
      fail_msg("%s: status %d, message '%s'", cases[i].file, rc, msg);
    if (strchr(msg, '\n')) fail_msg("%s: message spans lines", cases[i].file);
  }
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(good_file_decodes_every_key),
      cmocka_unit_test(each_defect_names_file_line_and_key),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
