/* Reference numbers: the crossbar and the bank arbiter against the figures
 * the bank-stealing paper publishes (X. Jing et al., "Bank stealing for a
 * compact and efficient register file architecture in GPGPU", IEEE TVLSI).
 * Every check names the published number, its place in the paper and the
 * tolerance; where ours misses, the measured error is written beside it and
 * the tolerance comes from an independent bound, not from our result. */
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"

static cli_result R;

/* ours must lie in published x [1 - below, 1 + above]. */
static void assert_band(const char *what, double ours, double published, double below,
                        double above) {
  double err = (ours - published) / published;
  if (!(err >= -below && err <= above))
    fail_msg("%s: ours %.6g, published %.6g, error %+.1f%% outside [-%.0f%%, +%.0f%%]", what, ours,
             published, 100.0 * err, 100.0 * below, 100.0 * above);
}

/* The value in column `col` (0-based) of the CSV row starting with key. */
static double csv_field(const char *csv, const char *key, int col) {
  const char *row = strstr(csv, key);
  if (!row) fail_msg("no row %s", key);
  for (int c = 0; c < col; c++) row = strchr(row, ',') + 1;
  return atof(row);
}

/* ---- the stealing arbiter (Sections IV-B-2 and IV-D-2; the status table is in test_arbiter.c) ---- */

typedef struct fixture {
  gpurf_ctx *ctx;
  gpurf_tech *t32;
  gpurf_cell sram;
} fixture;

static int setup(void **state) {
  static fixture f;
  f.ctx = test_ctx();
  f.t32 = test_tech(f.ctx, "32nm");
  assert_ok(f.ctx, gpurf_cell_load(f.ctx, "sram-6t", &f.sram));
  *state = &f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  gpurf_tech_free(f->t32);
  gpurf_ctx_free(f->ctx);
  return 0;
}

/* The 5-class stealing arbiter over the conventional 2-class one, for the
 * paper's 128 KB register file of 1024-bit registers in `banks` banks. */
static gpurf_arbiter_overhead stealing_overhead(fixture *f, int banks) {
  gpurf_bank_spec b;
  gpurf_bank_spec_init(&b);
  b.tech = f->t32;
  b.cell = &f->sram;
  b.entries = 1024;
  b.width_bits = 1024;
  b.banks = banks;
  gpurf_bank_cost bank;
  assert_ok(f->ctx, gpurf_bank_eval(f->ctx, &b, &bank));
  gpurf_arbiter_spec s;
  gpurf_arbiter_spec_init(&s);
  s.tech = f->t32;
  s.banks = banks;
  s.requesters = 16;
  s.classes = 5;
  gpurf_arbiter_overhead o;
  /* The banks alone: a smaller denominator than the whole register file,
   * so the share is an upper estimate. */
  assert_ok(f->ctx, gpurf_arbiter_overhead_eval(f->ctx, &s, bank.area_m2, &o));
  return o;
}

/* Section IV-D-2: the added arbitration logic is "less than 1.2% of the RF
 * area". A bound, checked as one at every bank count of the design space
 * (measured 0.18% at 4 banks to 0.27% at 16). */
static void arbiter_area_share(void **state) {
  const int banks[] = {4, 8, 16, 32};
  for (int i = 0; i < 4; i++) {
    gpurf_arbiter_overhead o = stealing_overhead(*state, banks[i]);
    if (!(o.area_share > 0.0 && o.area_share < 0.012))
      fail_msg("%d banks: stealing logic %.3f%% of the RF (paper: under 1.2%%)", banks[i],
               100.0 * o.area_share);
  }
}

/* Section IV-D-2: the stealing priorities add one AND and one OR level to
 * the read-enable path, "0.73x of an FO4 inverter delay". Measured: 1.24 FO4,
 * +70%. Tolerance -10% / +90%: two static two-input gate levels at fanout 1
 * cost at least 2 x (g + p) / (FO4's 5 tau) = 2 x (4/3 + 2) / 5 = 1.33 FO4 by
 * logical effort (Sutherland, Sproull, Harris, "Logical Effort", 1999: NAND2
 * g = 4/3, p = 2), 1.83x the paper's figure; a model built from static gates
 * should lie between the paper's estimate and that bound plus a margin for
 * the input ramp. */
static void arbiter_read_path(void **state) {
  gpurf_arbiter_overhead o = stealing_overhead(*state, 16);
  assert_band("extra read-enable path (FO4)", o.extra_read_path_fo4, 0.73, 0.10, 0.90);
}

/* Section IV-B-2: read stealing adds a 2:1 multiplexer to the warp scheduler,
 * "1.2x of an FO4 inverter delay". Measured: 0.82 FO4, -32%. Tolerance +/-40%:
 * the paper does not say which multiplexer. A static (tristate-inverter) 2:1
 * mux at fanout 1 is (g + p) / 5 = (2 + 4) / 5 = 1.2 FO4 by logical effort,
 * the paper's number; ours is a transmission-gate mux, whose late select
 * passes an inverter at fanout 1 ((1 + 1) / 5 = 0.4 FO4) and then one pass
 * gate into a gate of its size (about as much again): some 0.8 FO4, 33%
 * below. The band accepts either circuit, not one 40% beyond both. */
static void arbiter_scheduler_mux(void **state) {
  gpurf_arbiter_overhead o = stealing_overhead(*state, 16);
  assert_band("scheduler 2:1 mux (FO4)", o.scheduler_mux_fo4, 1.2, 0.40, 0.40);
}

/* ---- the crossbar in the 128 KB design space (Sections II-C and VI-A) ---- */

/* Section II-C-2: "nearly 50% additional area" from 16 to 32 banks, and
 * Section VI-A: the 8-bank RF saves "nearly 25%" against 16 banks; the
 * growth is the crossbar's (Fig. 3(a)). Measured: 32/16 = 1.85 (+23%),
 * 8/16 = 0.61 (-19%). Tolerance +/-35%, from two bounds independent of our
 * crossbar: CACTI 7's own 1024-bit banks (validation/cacti7.tsv) give 1.83
 * and 0.58 before any crossbar (+22%, -22%), and a wire-bound crossbar, whose
 * area is linear in the bank count, gives 2 and 0.5 (+33%, -33%). A model in
 * which both banks and crossbar scale as those references do lies inside
 * the band; a crossbar growing faster than linearly leaves it. */
static void crossbar_area_scaling(void **state) {
  (void)state;
  cli_run(&R, "table jing-f3 --format csv");
  assert_int_equal(R.status, 0);
  assert_band("area 32/16 banks", csv_field(R.out, "\n32 banks,area,", 3), 1.5, 0.35, 0.35);
  assert_band("area 8/16 banks", csv_field(R.out, "\n8 banks,area,", 3), 0.75, 0.35, 0.35);
  /* The crossbar alone is the part that must scale about linearly. */
  double x32 = csv_field(R.out, "\n32 banks,area_crossbar,", 3);
  double x16 = csv_field(R.out, "\n16 banks,area_crossbar,", 3);
  assert_band("crossbar area 32/16 banks", x32 / x16, 2.0, 0.25, 0.25);
}

/* Section II-C-3: "with an increasing number of banks, the crossbar delay
 * tends to dominate", and "even the worst case scheme studied ... can still
 * meet the sub-1-GHz GPGPU frequency". Bounds: at 32 banks the crossbar is
 * the larger part of the read path (measured 0.59 against the bank's 0.36,
 * in units of the 16-bank read path), and every read path of 4 to 32 banks
 * is under 1 ns (measured at most 0.69 ns, at 32 banks). */
static void crossbar_delay(void **state) {
  (void)state;
  cli_run(&R, "table jing-t3 --format csv");
  assert_int_equal(R.status, 0);
  double path16_ns = csv_field(R.out, "\nrf,read_path_delay,", 3);
  assert_true(path16_ns > 0.0);
  cli_run(&R, "table jing-f3 --format csv");
  assert_int_equal(R.status, 0);
  assert_true(csv_field(R.out, "\n32 banks,delay_crossbar,", 3) >
              csv_field(R.out, "\n32 banks,delay_bank,", 3));
  const char *rows[] = {"\n4 banks,delay,", "\n8 banks,delay,", "\n16 banks,delay,",
                        "\n32 banks,delay,"};
  for (int i = 0; i < 4; i++) {
    double ns = csv_field(R.out, rows[i], 3) * path16_ns;
    if (!(ns > 0.0 && ns < 1.0)) fail_msg("%s read path %.3f ns: not under 1 ns", rows[i] + 1, ns);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(arbiter_area_share),     cmocka_unit_test(arbiter_read_path),
      cmocka_unit_test(arbiter_scheduler_mux),
      cmocka_unit_test(crossbar_area_scaling),  cmocka_unit_test(crossbar_delay),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
