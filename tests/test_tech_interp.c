/* Nodes between the shipped files: monotone interpolation that never leaves
 * the interval spanned by its two neighbouring nodes. */
#include <string.h>

#include "test_util.h"

static const double sizes_nm[] = {22, 32, 40, 45, 65, 90};
#define N_NODES (sizeof sizes_nm / sizeof sizes_nm[0])

/* The device and wire scalars compared below, as offsets into gpurf_tech. */
static const size_t device_offsets[] = {
    offsetof(gpurf_device, vdd_v),          offsetof(gpurf_device, vth_v),
    offsetof(gpurf_device, l_phy_m),        offsetof(gpurf_device, c_gate_f_per_m),
    offsetof(gpurf_device, c_fringe_f_per_m), offsetof(gpurf_device, i_on_n_a_per_m),
    offsetof(gpurf_device, i_on_p_a_per_m), offsetof(gpurf_device, r_eff_n_factor),
};

static double dev_param(const gpurf_tech *t, int k, size_t off) {
  return *(const double *)((const char *)&t->device[k] + off);
}

static void between(double v, double a, double b, const char *what, double at_nm) {
  double lo = a < b ? a : b, hi = a < b ? b : a;
  double slack = 1e-9 * (hi > 0 ? hi : 1.0);
  if (v < lo - slack || v > hi + slack)
    fail_msg("%s at %g nm = %.9g leaves [%.9g, %.9g]", what, at_nm, v, lo, hi);
}

static void interpolated_values_stay_between_neighbours(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_tech nodes[N_NODES];
  for (size_t i = 0; i < N_NODES; i++) {
    char name[16];
    snprintf(name, sizeof name, "%gnm", sizes_nm[i]);
    assert_ok(ctx, gpurf_tech_load(ctx, name, &nodes[i]));
  }
  for (size_t i = 0; i + 1 < N_NODES; i++) {
    for (double x = sizes_nm[i] + 0.5; x < sizes_nm[i + 1]; x += 0.5) {
      char name[16];
      snprintf(name, sizeof name, "%gnm", x);
      gpurf_tech t;
      assert_ok(ctx, gpurf_tech_load(ctx, name, &t));
      assert_int_equal(t.interpolated, 1);
      const gpurf_tech *a = &nodes[i], *b = &nodes[i + 1];
      for (int k = 0; k < GPURF_DEVICE_COUNT; k++) {
        for (size_t p = 0; p < sizeof device_offsets / sizeof device_offsets[0]; p++)
          between(dev_param(&t, k, device_offsets[p]), dev_param(a, k, device_offsets[p]),
                  dev_param(b, k, device_offsets[p]), "device parameter", x);
        for (size_t r = 0; r < t.device[k].n_leakage; r++)
          between(t.device[k].leakage[r].i_off_n_a_per_m,
                  a->device[k].leakage[r].i_off_n_a_per_m,
                  b->device[k].leakage[r].i_off_n_a_per_m, "i_off_n", x);
      }
      for (int w = 0; w < GPURF_WIRE_COUNT; w++) {
        between(t.wires.layer[w].r_ohm_per_m, a->wires.layer[w].r_ohm_per_m,
                b->wires.layer[w].r_ohm_per_m, "wire r", x);
        between(t.wires.layer[w].c_f_per_m, a->wires.layer[w].c_f_per_m,
                b->wires.layer[w].c_f_per_m, "wire c", x);
      }
    }
  }
  gpurf_ctx_free(ctx);
}

static void interpolated_node_says_so(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_tech t;
  assert_ok(ctx, gpurf_tech_load(ctx, "28nm", &t));
  assert_int_equal(t.interpolated, 1);
  assert_string_equal(t.name, "28nm");
  assert_string_equal(t.interpolated_from[0], "22nm");
  assert_string_equal(t.interpolated_from[1], "32nm");
  assert_string_equal(t.path, "");
  assert_non_null(strstr(t.device[GPURF_DEVICE_HP].source, "interpolated"));
  assert_rel(t.feature_size_m, 28e-9, 1e-12);
  gpurf_tech u;
  assert_ok(ctx, gpurf_tech_load(ctx, "28", &u));
  assert_memory_equal(&t.device, &u.device, sizeof t.device);
  gpurf_ctx_free(ctx);
}

/* Leakage is exponential in the node: interpolating in log space gives the
 * geometric, not the arithmetic, blend near the middle of an interval. */
static void currents_blend_in_log_space(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_tech a, b, m;
  assert_ok(ctx, gpurf_tech_load(ctx, "32nm", &a));
  assert_ok(ctx, gpurf_tech_load(ctx, "22nm", &b));
  assert_ok(ctx, gpurf_tech_load(ctx, "27nm", &m));
  double ia = a.device[GPURF_DEVICE_HP].leakage[0].i_gate_a_per_m;
  double ib = b.device[GPURF_DEVICE_HP].leakage[0].i_gate_a_per_m;
  double im = m.device[GPURF_DEVICE_HP].leakage[0].i_gate_a_per_m;
  double geometric = sqrt(ia * ib), arithmetic = 0.5 * (ia + ib);
  assert_true(fabs(log(im) - log(geometric)) < fabs(log(im) - log(arithmetic)));
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(interpolated_values_stay_between_neighbours),
      cmocka_unit_test(interpolated_node_says_so),
      cmocka_unit_test(currents_blend_in_log_space),
  };
  return cmocka_run_group_tests_name("tech_interp", tests, NULL, NULL);
}
