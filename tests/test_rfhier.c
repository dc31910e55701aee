/* Register-file hierarchy energy: the paper's Table V per warp access
 * worked out by hand, and our models' wire energy against Table V's. */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "gpurf/rfhier.h"

/* A warp access is 8 entries of 128 bits and 32 words on the wires.
 * Table V: MRF read 8 x 8 pJ + 32 x 1.9 pJ/mm x 1 mm = 124.8 pJ; write
 * 8 x 11 + 60.8 = 148.8 pJ; L0 read 8 x 0.7 + 32 x 1.9 x 0.05 = 8.64 pJ;
 * L1 from a shared unit: 8 x (model) + 32 x 1.9 x 0.4 = 8 x r + 24.32 pJ. */
static void test_paper(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_rf_design *d = gpurf_rf_design_alloc();
  gpurf_rf_table *t = gpurf_rf_table_alloc();
  assert_non_null(d);
  assert_non_null(t);
  assert_ok(ctx, gpurf_rf_design_load(ctx, "gebhart-hw-rfc", d));
  assert_ok(ctx, gpurf_rf_design_table(ctx, d, t));
  gpurf_tech *tech = test_tech(ctx, "40nm");
  int mrf = gpurf_rf_table_find(t, "mrf"), rfc = gpurf_rf_table_find(t, "rfc");
  int tags = gpurf_rf_table_find(t, "rfc_tags");
  assert_true(mrf >= 0 && rfc >= 0 && tags >= 0);
  gpurf_rfhier_energy m, p;
  assert_ok(ctx, gpurf_rfhier_energy_models(ctx, gpurf_rf_table_component(t, mrf), gpurf_rf_table_component(t, rfc), NULL,
                                            gpurf_rf_table_component(t, tags), tech, GPURF_DEVICE_HP, &m));
  gpurf_rfhier_energy_paper(&m, &p);
  assert_rel(gpurf_rfhier_access_j(&p, GPURF_RFHIER_MRF, 0, 0), 124.8e-12, 1e-9);
  assert_rel(gpurf_rfhier_access_j(&p, GPURF_RFHIER_MRF, 1, 1), 148.8e-12, 1e-9);
  assert_rel(gpurf_rfhier_access_j(&p, GPURF_RFHIER_L0, 0, 0), 8.64e-12, 1e-9);
  assert_rel(gpurf_rfhier_access_j(&p, GPURF_RFHIER_L1, 0, 1), 8 * m.read_j[1] + 24.32e-12, 1e-9);
  /* Our L1 and tags are kept, and the cache is cheaper than the MRF. */
  assert_rel(p.read_j[1], m.read_j[1], 1e-15);
  assert_rel(p.tag_check_j, m.tag_check_j, 1e-15);
  assert_true(m.read_j[1] > 0 && m.read_j[1] < m.read_j[0]);
  assert_true(m.tag_check_j > 0);
  /* Our wires: the same quarter C V^2 per bit as Table V's 1.9 pJ/mm,
   * with the node's own capacitance and Vdd: within a factor of two. */
  assert_true(m.wire_j_per_m > 0.95e-9 && m.wire_j_per_m < 3.8e-9);
  /* A level without a component costs no array energy. */
  assert_rel(m.read_j[2] + 1.0, 1.0, 1e-15);
  /* A component without the events is refused, naming the event. */
  assert_int_equal(gpurf_rfhier_energy_models(ctx, gpurf_rf_table_component(t, tags), NULL, NULL, NULL, tech,
                                              GPURF_DEVICE_HP, &m),
                   GPURF_ENOTFOUND);
  assert_string_equal(gpurf_ctx_error(ctx)->field, "read");
  gpurf_tech_free(tech);
  gpurf_rf_table_free(t);
  gpurf_rf_design_free(d);
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_paper)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
