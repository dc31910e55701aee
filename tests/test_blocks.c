/* The circuit blocks' arithmetic shortcuts, which the organisation search
 * relies on for speed: each must give exactly what the plain computation
 * gives (rounding up, bit counts, driver chains and predecoders through the
 * memo, the Horowitz delay of a step and at half swing, a gate's folds). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "test_util.h"

#include "circuit/blocks.h"

/* splitmix64: a fixed sequence of test values. */
static uint64_t next_u64(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static void ceil_is_exact(void **state) {
  (void)state;
  const double edge[] = {0.0, -0.0, 1e-300, 0.5, 1.0, 1.0 + 0x1p-52, 2.0 - 0x1p-52, 3.0,
                         0x1p52 - 0.5, 0x1p52, 0x1p52 + 1.0, 0x1p53, 0x1p63, 1e300, -1.5,
                         -0.25, INFINITY, -INFINITY};
  for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
    assert_same_bits(gc_ceil(edge[i]), ceil(edge[i]));
  assert_true(isnan(gc_ceil(NAN)));
  uint64_t s = 7;
  for (int i = 0; i < 1000000; i++) {
    /* Quotients as the models form them: lengths over spacings, widths
     * over folds, from far below one to far above. */
    double x = ldexp((double)(next_u64(&s) >> 11) * 0x1p-53, (int)(next_u64(&s) % 80) - 30);
    if (i % 4 == 0) x = (double)(next_u64(&s) % 4096) * (i % 8 == 0 ? 1.0 : 1.0 + 0x1p-52);
    assert_same_bits(gc_ceil(x), ceil(x));
  }
}

static void ceil_log2_counts_bits(void **state) {
  (void)state;
  assert_int_equal(gc_ceil_log2(1), 0);
  for (long long n = 2; n <= (1LL << 20); n++)
    if (gc_ceil_log2(n) != (int)ceil(log2((double)n))) fail_msg("n = %lld", n);
}

/* A chain from the memo is the chain sized afresh, bit for bit, whatever
 * else the memo holds (far more keys than slots, so slots are reused) and
 * whatever input ramp the slot's chain was last timed for. */
static void memo_returns_the_chain_sized_afresh(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_tech *tech = test_tech(ctx, "32nm");
  gc_env plain, memo;
  assert_ok(ctx, gc_env_init(ctx, &plain, tech, GPURF_DEVICE_HP, 360.0, 1));
  memo = plain;
  memo.memo = gc_chain_memo_alloc();
  assert_non_null(memo.memo);
  uint64_t s = 11;
  double loads[512];
  for (int i = 0; i < 512; i++)
    loads[i] = ldexp(1.0 + (double)(next_u64(&s) % 1000) / 1000.0, -(int)(next_u64(&s) % 30) - 12);
  for (int round = 0; round < 8; round++) {
    for (int i = 0; i < 512; i++) {
      double c_in = gc_inv_input_c(&plain, plain.w_min_m) * (1.0 + (i % 3));
      double r_wire = (i % 5) * 100.0;
      double effort = i % 2 ? GC_STAGE_EFFORT_FAST : GC_STAGE_EFFORT_LEAN;
      /* The same sizing met again with other ramps takes the slot's delay loop. */
      for (int j = 0; j < 4; j++) {
        double ramp = ((i + round + j) % 3) * 1.5e-11 * (1.0 + (i % 7));
        gc_chain a = gc_driver_chain_effort(&plain, c_in, loads[(i * 7 + round) % 512], r_wire, ramp, effort);
        gc_chain b = gc_driver_chain_effort(&memo, c_in, loads[(i * 7 + round) % 512], r_wire, ramp, effort);
        assert_memory_equal(&a, &b, sizeof a);
      }
    }
  }
  gc_chain_memo_free(memo.memo);
  gpurf_tech_free(tech);
  gpurf_ctx_free(ctx);
}

/* The Horowitz delay of a step at half swing is tau ln 2 to the last bit:
 * its shortcut takes no root. */
static void horowitz_step_is_tau_ln2(void **state) {
  (void)state;
  double lv = -GC_LN2_EXACT; /* log(0.5), as the general path takes it */
  assert_same_bits(sqrt(lv * lv + 2.0 * 0.0 * 0.5 * 0.5), GC_LN2_EXACT);
  uint64_t s = 3;
  for (int i = 0; i < 100000; i++) {
    double tau = ldexp(1.0 + (double)(next_u64(&s) >> 11) * 0x1p-53, (int)(next_u64(&s) % 120) - 100);
    assert_same_bits(gpurf_circuit_horowitz_s(0.0, tau, 0.5, 0.5), tau * sqrt(lv * lv));
  }
}

/* At half swing with b = 0.5 the delay takes a / 2 where the general path
 * takes 2 a b (1 - v): the same bits for every ramp, to ramps so large
 * that 2 a overflows (there the general path is kept). */
static void horowitz_half_swing_is_the_general_path(void **state) {
  (void)state;
  double lv = -GC_LN2_EXACT;
  uint64_t s = 5;
  for (int i = 0; i < 200000; i++) {
    double tau = ldexp(1.0 + (double)(next_u64(&s) >> 11) * 0x1p-53, (int)(next_u64(&s) % 120) - 100);
    double ramp = ldexp(1.0 + (double)(next_u64(&s) >> 11) * 0x1p-53, (int)(next_u64(&s) % 160) - 120);
    if (i % 1000 == 0) ramp = ldexp(1.0, 1020) * (double)(1 + i % 7);
    double a = ramp / tau;
    double plain = tau * sqrt(lv * lv + 2.0 * a * 0.5 * (1.0 - 0.5));
    assert_same_bits(gpurf_circuit_horowitz_s(ramp, tau, 0.5, 0.5), plain);
  }
}

/* A gate's footprint with the plain divisions (no shortcut for one fold). */
static double gate_area_plain(const gc_env *e, double wn_m, double wp_m, int fingers) {
  const gpurf_layout *lay = &e->tech->layout;
  double fold = GC_MAX_FOLD_F * e->f_m;
  int folds_n = wn_m > 0.0 ? (int)ceil(wn_m / fold) : 0;
  int folds_p = wp_m > 0.0 ? (int)ceil(wp_m / fold) : 0;
  int folds = folds_n > folds_p ? folds_n : folds_p;
  if (folds < 1) folds = 1;
  double h = (wn_m > 0.0 ? wn_m / folds : 0.0) + (wp_m > 0.0 ? wp_m / folds : 0.0) +
             (wn_m > 0.0 && wp_m > 0.0 ? GC_NP_GAP_F * e->f_m : 0.0) +
             2.0 * GC_POWER_RAIL_F * e->f_m;
  double poly_pitch = e->dev->l_phy_m + lay->contact_width_m + 2.0 * lay->poly_to_contact_m;
  double w = fingers * folds * poly_pitch + lay->contact_width_m + 2.0 * lay->poly_to_contact_m;
  return h * w;
}

static void gate_area_within_one_fold_is_plain(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_tech *tech = test_tech(ctx, "45nm");
  gc_env e;
  assert_ok(ctx, gc_env_init(ctx, &e, tech, GPURF_DEVICE_LSTP, 360.0, 1));
  double fold = GC_MAX_FOLD_F * e.f_m;
  const double edge[] = {0.0, fold, nextafter(fold, 0.0), nextafter(fold, INFINITY), 2.0 * fold,
                         nextafter(2.0 * fold, INFINITY), 1e-12, 1e-3};
  for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
    for (size_t j = 0; j < sizeof edge / sizeof edge[0]; j++)
      assert_same_bits(gc_gate_area_m2(&e, edge[i], edge[j], 2),
                       gate_area_plain(&e, edge[i], edge[j], 2));
  uint64_t s = 9;
  for (int i = 0; i < 200000; i++) {
    double wn = fold * ldexp((double)(next_u64(&s) >> 11) * 0x1p-53, (int)(next_u64(&s) % 8) - 4);
    double wp = i % 3 ? wn * e.dev->n_to_p_drive_ratio : 0.0;
    int fingers = 1 + (int)(next_u64(&s) % 4);
    assert_same_bits(gc_gate_area_m2(&e, wn, wp, fingers), gate_area_plain(&e, wn, wp, fingers));
  }
  gpurf_tech_free(tech);
  gpurf_ctx_free(ctx);
}

/* A predecoder from the memo is the one built afresh, bit for bit, with far
 * more predecoders than slots and each met again. */
static void predecoder_memo_is_fresh(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_tech *tech = test_tech(ctx, "22nm");
  gc_env plain, memo;
  assert_ok(ctx, gc_env_init(ctx, &plain, tech, GPURF_DEVICE_HP, 360.0, 1));
  memo = plain;
  memo.memo = gc_chain_memo_alloc();
  assert_non_null(memo.memo);
  double c_in = gc_inv_input_c(&plain, plain.w_min_m);
  for (int round = 0; round < 3; round++) {
    uint64_t s = 13; /* the same predecoders every round */
    for (int i = 0; i < 400; i++) {
      int bits = (int)(next_u64(&s) % 13);
      double gates = (double)(1 + next_u64(&s) % 4096);
      double c_gate = c_in * (1.0 + (double)(next_u64(&s) % 8));
      double c_wire = ldexp((double)(next_u64(&s) % 1000), -60);
      double r_wire = (double)(next_u64(&s) % 500);
      double tau = ldexp(1.0 + (double)(next_u64(&s) % 100) / 100.0, -38);
      gc_predecode a = gc_predecode_eval(&plain, bits, gates, c_gate, c_in, c_wire, r_wire, tau,
                                         tau * GC_LN2_EXACT);
      gc_predecode b = gc_predecode_eval(&memo, bits, gates, c_gate, c_in, c_wire, r_wire, tau,
                                         tau * GC_LN2_EXACT);
      assert_memory_equal(&a, &b, sizeof a);
    }
  }
  gc_chain_memo_free(memo.memo);
  gpurf_tech_free(tech);
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(ceil_is_exact),
      cmocka_unit_test(ceil_log2_counts_bits),
      cmocka_unit_test(memo_returns_the_chain_sized_afresh),
      cmocka_unit_test(horowitz_step_is_tau_ln2),
      cmocka_unit_test(horowitz_half_swing_is_the_general_path),
      cmocka_unit_test(gate_area_within_one_fold_is_plain),
      cmocka_unit_test(predecoder_memo_is_fresh),
  };
  return cmocka_run_group_tests_name("blocks", tests, NULL, NULL);
}
