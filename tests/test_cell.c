/* Shipped memory-cell files and the multi-port growth rule. */
#include <string.h>

#include "test_util.h"

static void shipped_cells_load(void **state) {
  (void)state;
  const struct {
    const char *name;
    gpurf_cell_kind kind;
  } cells[] = {
      {"sram-6t", GPURF_CELL_SRAM},          {"sram-8t-1r1w", GPURF_CELL_SRAM},
      {"sram-multiport", GPURF_CELL_SRAM},   {"dff", GPURF_CELL_DFF},
      {"latch", GPURF_CELL_LATCH},           {"stt-40f2-cal-vol", GPURF_CELL_STT_MTJ},
      {"stt-40f2-cal-cur", GPURF_CELL_STT_MTJ}, {"stt-40f2-vol", GPURF_CELL_STT_MTJ},
      {"stt-40f2-cur", GPURF_CELL_STT_MTJ},
  };
  gpurf_ctx *ctx = test_ctx();
  for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++) {
    gpurf_cell c;
    assert_ok(ctx, gpurf_cell_load(ctx, cells[i].name, &c));
    assert_int_equal(c.kind, cells[i].kind);
    assert_string_equal(c.name, cells[i].name);
    assert_true(c.source[0] != '\0');
  }
  gpurf_ctx_free(ctx);
}

/* A user's own cell may omit `source`: it loads with an empty one. */
static void own_cell_needs_no_source(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_cell c;
  assert_ok(ctx, gpurf_cell_load(ctx, GPURF_TEST_DATA_DIR "/cell-no-source.yaml", &c));
  assert_string_equal(c.name, "my-cell");
  assert_string_equal(c.source, "");
  gpurf_ctx_free(ctx);
}

static void sram_6t_matches_the_nvsim_sample(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_cell c;
  assert_ok(ctx, gpurf_cell_load(ctx, "sram-6t", &c));
  assert_rel(c.u.sram.area_f2, 146.0, 0);
  assert_rel(c.u.sram.aspect_ratio, 1.46, 0);
  assert_rel(c.u.sram.w_access_f, 1.31, 0);
  assert_rel(c.u.sram.w_pulldown_f, 2.08, 0);
  assert_rel(c.u.sram.w_pullup_f, 1.23, 0);
  gpurf_tech *t = test_tech(ctx, "40nm");
  gpurf_cell_dims d;
  assert_ok(ctx, gpurf_circuit_cell_dims(ctx, t, &c, &d));
  assert_rel(d.area_m2, 146.0 * 40e-9 * 40e-9, 1e-9);
  assert_rel(d.height_m / d.width_m, 1.46, 1e-9);
  assert_int_equal(d.extra_ports, 0);
  gpurf_tech_free(t);
  gpurf_ctx_free(ctx);
}

/* More ports cost more area: each extra port adds wire tracks both ways. */
static void cell_area_grows_with_ports(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_tech *t = test_tech(ctx, "32nm");
  const char *const order[] = {"sram-6t", "sram-8t-1r1w", "sram-multiport"};
  double prev = 0.0;
  for (size_t i = 0; i < 3; i++) {
    gpurf_cell c;
    gpurf_cell_dims d;
    assert_ok(ctx, gpurf_cell_load(ctx, order[i], &c));
    assert_ok(ctx, gpurf_circuit_cell_dims(ctx, t, &c, &d));
    assert_true(d.area_m2 > prev);
    prev = d.area_m2;
  }
  gpurf_cell c;
  assert_ok(ctx, gpurf_cell_load(ctx, "sram-6t", &c));
  double pitch = gpurf_tech_wire_value(t, GPURF_WIRE_LOCAL, GPURF_WIRE_PITCH_M);
  for (int extra = 1; extra <= 4; extra++) {
    gpurf_cell grown = c;
    grown.u.sram.read_ports = extra;
    gpurf_cell_dims d0, d1;
    assert_ok(ctx, gpurf_circuit_cell_dims(ctx, t, &c, &d0));
    assert_ok(ctx, gpurf_circuit_cell_dims(ctx, t, &grown, &d1));
    assert_rel(d1.height_m - d0.height_m, 2.0 * pitch * extra, 1e-9);
    assert_rel(d1.width_m - d0.width_m, 2.0 * pitch * extra, 1e-9);
  }
  gpurf_tech_free(t);
  gpurf_ctx_free(ctx);
}

static void stt_cells_carry_the_reference_inputs(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_cell v, c;
  assert_ok(ctx, gpurf_cell_load(ctx, "stt-40f2-cal-vol", &v));
  assert_ok(ctx, gpurf_cell_load(ctx, "stt-40f2-cal-cur", &c));
  assert_int_equal(v.u.stt.read_mode, GPURF_STT_READ_VOLTAGE);
  assert_int_equal(c.u.stt.read_mode, GPURF_STT_READ_CURRENT);
  assert_rel(v.u.stt.area_f2, 40.0, 0);
  assert_rel(v.u.stt.r_on_ohm, 3000.0, 0);
  assert_rel(v.u.stt.r_off_ohm, 6000.0, 0);
  assert_rel(v.u.stt.read_current_a, 30e-6, 1e-12);
  assert_rel(c.u.stt.read_voltage_v, 0.25, 1e-12);
  assert_rel(v.u.stt.set_current_a, 150e-6, 1e-12);
  assert_rel(v.u.stt.set_pulse_s, 3.8e-9, 1e-12);
  assert_rel(v.u.stt.min_sense_voltage_v, 0.025, 1e-12);
  assert_int_equal(v.u.stt.has_set_energy, 0);
  gpurf_ctx_free(ctx);
}

/* The flip-flop's optional D-pin energy with the clock low: given in the
 * shipped dff (see tech/cells/dff.yaml), absent from a cell that leaves it
 * out, and in every other field the same cell. */
static void ff_data_internal_is_optional(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_cell shipped, own;
  assert_ok(ctx, gpurf_cell_load(ctx, "dff", &shipped));
  assert_int_equal(shipped.u.ff.has_data_internal, 1);
  assert_rel(shipped.u.ff.data_internal_width_f, 70.111, 1e-12);
  assert_ok(ctx, gpurf_cell_load(ctx, GPURF_TEST_DATA_DIR "/dff-no-idle-masters.yaml", &own));
  assert_int_equal(own.u.ff.has_data_internal, 0);
  assert_true(own.u.ff.data_internal_width_f == 0.0);
  assert_rel(own.u.ff.internal_switched_width_f, shipped.u.ff.internal_switched_width_f, 1e-12);
  assert_rel(own.u.ff.clock_internal_width_f, shipped.u.ff.clock_internal_width_f, 1e-12);
  assert_rel(own.u.ff.area_f2, shipped.u.ff.area_f2, 1e-12);
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(shipped_cells_load),
      cmocka_unit_test(own_cell_needs_no_source),
      cmocka_unit_test(sram_6t_matches_the_nvsim_sample),
      cmocka_unit_test(cell_area_grows_with_ports),
      cmocka_unit_test(stt_cells_carry_the_reference_inputs),
      cmocka_unit_test(ff_data_internal_is_optional),
  };
  return cmocka_run_group_tests_name("cell", tests, NULL, NULL);
}
