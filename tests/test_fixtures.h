/* Bank-model fixtures shared by the SRAM and the STT/flip-flop bank tests. */
#ifndef GPURF_TEST_FIXTURES_H
#define GPURF_TEST_FIXTURES_H

#include "test_util.h"

/* Evaluates a bank that must be valid. */
static inline gpurf_bank_cost test_bank_eval(gpurf_ctx *ctx, const gpurf_bank_spec *s) {
  gpurf_bank_cost c;
  assert_ok(ctx, gpurf_bank_eval(ctx, s, &c));
  return c;
}

/* The metric a single-metric objective optimises: the search may trade the
 * others, so monotonicity checks look at this one alone. */
static inline double test_objective_metric(const gpurf_bank_cost *c, gpurf_bank_opt o) {
  switch (o) {
  case GPURF_BANK_OPT_DELAY: return c->access_time_s;
  case GPURF_BANK_OPT_ENERGY: return c->read_energy_j + c->write_energy_j;
  case GPURF_BANK_OPT_AREA: return c->area_m2;
  case GPURF_BANK_OPT_LEAKAGE: return c->leakage_sub_w + c->leakage_gate_w;
  default: return 0.0;
  }
}

/* The totals of a cost are the sums of their per-part breakdowns: a part
 * the model forgets to count shows here. Leakage is checked on its
 * subthreshold share, which the parts break down. */
static inline void test_check_part_sums(const gpurf_bank_cost *c) {
  double a = 0, r = 0, w = 0, l = 0, d = 0;
  for (int p = 0; p < GPURF_BANK_PART_COUNT; p++) {
    a += c->area_part_m2[p];
    r += c->read_part_j[p];
    w += c->write_part_j[p];
    l += c->leakage_part_w[p];
    d += c->delay_part_s[p];
  }
  assert_rel(a, c->area_m2, 1e-12);
  assert_rel(r, c->read_energy_j, 1e-12);
  assert_rel(w, c->write_energy_j, 1e-12);
  assert_rel(l, c->leakage_sub_w, 1e-12);
  assert_rel(d, c->access_time_s, 1e-12);
}

#endif
