/* The crossbar model: input checks, the bit-sliced layout's shape, and the
 * properties a physical model must have (more ports and wider ports cost
 * more; the matrix beats mux trees on wide ports). */
#include <string.h>

#include "test_util.h"

typedef struct fixture {
  gpurf_ctx *ctx;
  gpurf_tech *t32, *t22;
} fixture;

static int setup(void **state) {
  static fixture f;
  f.ctx = test_ctx();
  f.t32 = test_tech(f.ctx, "32nm");
  f.t22 = test_tech(f.ctx, "22nm");
  *state = &f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  gpurf_tech_free(f->t32);
  gpurf_tech_free(f->t22);
  gpurf_ctx_free(f->ctx);
  return 0;
}

static gpurf_xbar_spec spec(const gpurf_tech *t, int n, int m, int w, gpurf_xbar_style st) {
  gpurf_xbar_spec s;
  gpurf_xbar_spec_init(&s);
  s.tech = t;
  s.inputs = n;
  s.outputs = m;
  s.width_bits = w;
  s.style = st;
  return s;
}

static gpurf_xbar_cost eval(fixture *f, const gpurf_xbar_spec *s) {
  gpurf_xbar_cost c;
  assert_ok(f->ctx, gpurf_xbar_eval(f->ctx, s, &c));
  return c;
}

static void names_round_trip(void **state) {
  (void)state;
  for (int i = 0; i < GPURF_XBAR_STYLE_COUNT; i++) {
    gpurf_xbar_style st;
    assert_int_equal(gpurf_xbar_style_parse(gpurf_xbar_style_name((gpurf_xbar_style)i), &st),
                     GPURF_OK);
    assert_int_equal(st, i);
  }
  gpurf_xbar_style st;
  assert_int_equal(gpurf_xbar_style_parse("benes", &st), GPURF_EINVAL);
  for (int p = 0; p < GPURF_XBAR_PART_COUNT; p++)
    assert_string_not_equal(gpurf_xbar_part_name((gpurf_xbar_part)p), "?");
}

static void bad_specs_are_rejected(void **state) {
  fixture *f = *state;
  gpurf_xbar_cost c;
  gpurf_xbar_spec s = spec(f->t32, 16, 16, 1024, GPURF_XBAR_MATRIX);
  gpurf_xbar_spec bad[7];
  for (int i = 0; i < 7; i++) bad[i] = s;
  bad[0].tech = NULL;
  bad[1].inputs = 0;
  bad[2].outputs = -1;
  bad[3].width_bits = 0;
  bad[4].activity = 0.0;
  bad[5].style = GPURF_XBAR_STYLE_COUNT;
  bad[6].temp_k = -1.0;
  for (int i = 0; i < 7; i++) {
    if (gpurf_xbar_eval(f->ctx, &bad[i], &c) != GPURF_EINVAL) fail_msg("bad spec %d accepted", i);
    assert_true(gpurf_ctx_error(f->ctx)->message[0] != '\0');
  }
}

/* The paper's layout: 1024-bit ports in a 32 x 32 array of slices, wire
 * tracks deciding the area; parts add up to the totals. */
static void matrix_is_sliced_and_wire_bound(void **state) {
  fixture *f = *state;
  gpurf_xbar_spec s = spec(f->t32, 16, 16, 1024, GPURF_XBAR_MATRIX);
  gpurf_xbar_cost c = eval(f, &s);
  assert_int_equal(c.slices_x, 32);
  assert_int_equal(c.slices_y, 32);
  assert_int_equal(c.tracks_h, 16 * 16);
  assert_true(c.base.area_part_m2[GPURF_XBAR_PART_WIRES] > 0.5 * c.base.area_m2);
  double a = 0, e = 0, d = 0;
  for (int p = 0; p < GPURF_XBAR_PART_COUNT; p++) {
    assert_true(c.base.area_part_m2[p] >= 0 && c.transfer_part_j[p] >= 0 && c.delay_part_s[p] >= 0);
    a += c.base.area_part_m2[p];
    e += c.transfer_part_j[p];
    d += c.delay_part_s[p];
  }
  assert_rel(a, c.base.area_m2, 1e-9);
  assert_rel(e, test_ev_j(&c.base, GPURF_EV_TRANSFER), 1e-9);
  assert_rel(d, c.base.access_time_s, 1e-9);
  /* The track-limited array is at least as large as its channels. */
  const double pitch = gpurf_tech_wire_value(f->t32, GPURF_WIRE_SEMI_GLOBAL, GPURF_WIRE_PITCH_M);
  assert_true(c.width_m * c.height_m >= 32.0 * 256 * pitch * 32.0 * 256 * pitch);
  assert_true(c.base.access_time_s > c.fo4_delay_s && c.base.access_time_s < 2e-9);
  assert_true(c.base.leakage_sub_w > 0 && c.base.leakage_gate_w >= 0);
}

/* Bigger in every dimension costs more, for both styles. */
static void more_ports_and_width_cost_more(void **state) {
  fixture *f = *state;
  for (int st = 0; st < GPURF_XBAR_STYLE_COUNT; st++) {
    const int base[3] = {8, 8, 256};
    gpurf_xbar_spec s = spec(f->t32, base[0], base[1], base[2], (gpurf_xbar_style)st);
    gpurf_xbar_cost c0 = eval(f, &s);
    for (int dim = 0; dim < 3; dim++) {
      gpurf_xbar_spec b = s;
      if (dim == 0) b.inputs *= 2;
      if (dim == 1) b.outputs *= 2;
      if (dim == 2) b.width_bits *= 4;
      gpurf_xbar_cost c1 = eval(f, &b);
      if (!(c1.base.area_m2 > c0.base.area_m2))
        fail_msg("style %d dim %d: area did not grow", st, dim);
      if (!(test_ev_j(&c1.base, GPURF_EV_TRANSFER) > test_ev_j(&c0.base, GPURF_EV_TRANSFER)))
        fail_msg("style %d dim %d: energy did not grow", st, dim);
      if (!(c1.base.leakage_sub_w > c0.base.leakage_sub_w))
        fail_msg("style %d dim %d: leakage did not grow", st, dim);
      if (!(c1.base.access_time_s >= c0.base.access_time_s))
        fail_msg("style %d dim %d: delay fell", st, dim);
    }
  }
}

/* Splitting wires to four edges is what makes the matrix compact: mux trees
 * with every input bus running past every output need far more tracks. */
static void matrix_beats_mux_on_wide_ports(void **state) {
  fixture *f = *state;
  gpurf_xbar_spec m = spec(f->t32, 16, 16, 1024, GPURF_XBAR_MATRIX);
  gpurf_xbar_spec x = spec(f->t32, 16, 16, 1024, GPURF_XBAR_MUX);
  gpurf_xbar_cost cm = eval(f, &m), cx = eval(f, &x);
  assert_true(cx.base.area_m2 > 2.0 * cm.base.area_m2);
  assert_true(test_ev_j(&cx.base, GPURF_EV_TRANSFER) > test_ev_j(&cm.base, GPURF_EV_TRANSFER));
  assert_true(cx.tracks_h == 16 * 1024);
}

static void activity_scales_energy(void **state) {
  fixture *f = *state;
  gpurf_xbar_spec s = spec(f->t22, 8, 4, 128, GPURF_XBAR_MATRIX);
  gpurf_xbar_cost lo = eval(f, &s);
  s.activity = 0.5;
  gpurf_xbar_cost hi = eval(f, &s);
  assert_rel(test_ev_j(&hi.base, GPURF_EV_TRANSFER), 2.0 * test_ev_j(&lo.base, GPURF_EV_TRANSFER),
             1e-9);
  assert_rel(hi.base.area_m2, lo.base.area_m2, 1e-12);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(names_round_trip),
      cmocka_unit_test(bad_specs_are_rejected),
      cmocka_unit_test(matrix_is_sliced_and_wire_bound),
      cmocka_unit_test(more_ports_and_width_cost_more),
      cmocka_unit_test(matrix_beats_mux_on_wide_ports),
      cmocka_unit_test(activity_scales_energy),
  };
  return cmocka_run_group_tests_name("xbar", tests, setup, teardown);
}
