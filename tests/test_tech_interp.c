/* Nodes between the shipped files: monotone interpolation that never leaves
 * the interval spanned by its two neighbouring nodes. */
#include <string.h>

#include "test_util.h"

static const double sizes_nm[] = {22, 32, 40, 45, 65, 90};
#define N_NODES (sizeof sizes_nm / sizeof sizes_nm[0])

/* The device scalars compared below. */
static const gpurf_device_param device_params[] = {
    GPURF_DEVICE_VDD_V,          GPURF_DEVICE_VTH_V,          GPURF_DEVICE_L_PHY_M,
    GPURF_DEVICE_C_GATE_F_PER_M, GPURF_DEVICE_C_FRINGE_F_PER_M, GPURF_DEVICE_I_ON_N_A_PER_M,
    GPURF_DEVICE_I_ON_P_A_PER_M, GPURF_DEVICE_R_EFF_N_FACTOR,
};

static double dev_param(const gpurf_tech *t, int k, gpurf_device_param p) {
  return gpurf_tech_device_value(gpurf_tech_device(t, (gpurf_device_kind)k), p);
}

static double i_off_n(const gpurf_tech *t, int k, size_t row) {
  gpurf_leakage l;
  assert_int_equal(
      gpurf_tech_device_leakage_row(gpurf_tech_device(t, (gpurf_device_kind)k), row, &l), GPURF_OK);
  return l.i_off_n_a_per_m;
}

static double wire(const gpurf_tech *t, int w, gpurf_wire_param p) {
  return gpurf_tech_wire_value(t, (gpurf_wire_kind)w, p);
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
  gpurf_tech *nodes[N_NODES];
  for (size_t i = 0; i < N_NODES; i++) {
    char name[16];
    snprintf(name, sizeof name, "%gnm", sizes_nm[i]);
    nodes[i] = test_tech(ctx, name);
  }
  gpurf_tech *t = NULL;
  assert_ok(ctx, gpurf_tech_alloc(ctx, &t));
  for (size_t i = 0; i + 1 < N_NODES; i++) {
    for (double x = sizes_nm[i] + 0.5; x < sizes_nm[i + 1]; x += 0.5) {
      char name[16];
      snprintf(name, sizeof name, "%gnm", x);
      assert_ok(ctx, gpurf_tech_load(ctx, name, t));
      assert_int_equal(gpurf_tech_interpolated(t, NULL, NULL), 1);
      const gpurf_tech *a = nodes[i], *b = nodes[i + 1];
      for (int k = 0; k < GPURF_DEVICE_COUNT; k++) {
        for (size_t p = 0; p < sizeof device_params / sizeof device_params[0]; p++)
          between(dev_param(t, k, device_params[p]), dev_param(a, k, device_params[p]),
                  dev_param(b, k, device_params[p]), "device parameter", x);
        size_t rows = gpurf_tech_device_leakage_rows(gpurf_tech_device(t, (gpurf_device_kind)k));
        for (size_t r = 0; r < rows; r++)
          between(i_off_n(t, k, r), i_off_n(a, k, r), i_off_n(b, k, r), "i_off_n", x);
      }
      for (int w = 0; w < GPURF_WIRE_COUNT; w++) {
        between(wire(t, w, GPURF_WIRE_R_OHM_PER_M), wire(a, w, GPURF_WIRE_R_OHM_PER_M),
                wire(b, w, GPURF_WIRE_R_OHM_PER_M), "wire r", x);
        between(wire(t, w, GPURF_WIRE_C_F_PER_M), wire(a, w, GPURF_WIRE_C_F_PER_M),
                wire(b, w, GPURF_WIRE_C_F_PER_M), "wire c", x);
      }
    }
  }
  gpurf_tech_free(t);
  for (size_t i = 0; i < N_NODES; i++) gpurf_tech_free(nodes[i]);
  gpurf_ctx_free(ctx);
}

static void interpolated_node_says_so(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_tech *t = test_tech(ctx, "28nm");
  const char *smaller, *larger;
  assert_int_equal(gpurf_tech_interpolated(t, &smaller, &larger), 1);
  assert_string_equal(gpurf_tech_name(t), "28nm");
  assert_string_equal(smaller, "22nm");
  assert_string_equal(larger, "32nm");
  assert_string_equal(gpurf_tech_path(t), "");
  assert_non_null(
      strstr(gpurf_tech_device_source(gpurf_tech_device(t, GPURF_DEVICE_HP)), "interpolated"));
  assert_rel(gpurf_tech_value(t, GPURF_TECH_FEATURE_SIZE_M), 28e-9, 1e-12);
  gpurf_tech *u = test_tech(ctx, "28");
  for (int k = 0; k < GPURF_DEVICE_COUNT; k++) {
    for (int p = 0; p < GPURF_DEVICE_PARAM_COUNT; p++) {
      double vt = dev_param(t, k, (gpurf_device_param)p),
             vu = dev_param(u, k, (gpurf_device_param)p);
      assert_memory_equal(&vt, &vu, sizeof vt);
    }
    for (size_t r = 0;
         r < gpurf_tech_device_leakage_rows(gpurf_tech_device(t, (gpurf_device_kind)k)); r++)
      assert_true(i_off_n(t, k, r) == i_off_n(u, k, r));
  }
  gpurf_tech_free(t);
  gpurf_tech_free(u);
  gpurf_ctx_free(ctx);
}

/* Leakage is exponential in the node: interpolating in log space gives the
 * geometric, not the arithmetic, blend near the middle of an interval. */
static void currents_blend_in_log_space(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_tech *a = test_tech(ctx, "32nm"), *b = test_tech(ctx, "22nm"), *m = test_tech(ctx, "27nm");
  gpurf_leakage la, lb, lm;
  assert_ok(ctx, gpurf_tech_device_leakage_row(gpurf_tech_device(a, GPURF_DEVICE_HP), 0, &la));
  assert_ok(ctx, gpurf_tech_device_leakage_row(gpurf_tech_device(b, GPURF_DEVICE_HP), 0, &lb));
  assert_ok(ctx, gpurf_tech_device_leakage_row(gpurf_tech_device(m, GPURF_DEVICE_HP), 0, &lm));
  gpurf_tech_free(a);
  gpurf_tech_free(b);
  gpurf_tech_free(m);
  double ia = la.i_gate_a_per_m, ib = lb.i_gate_a_per_m, im = lm.i_gate_a_per_m;
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
