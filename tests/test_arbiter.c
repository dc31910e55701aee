/* The bank arbiter: class orders, input checks, properties (more classes,
 * banks and requesters cost more) and the bank-stealing overhead. */
#include <string.h>

#include "test_util.h"

typedef struct fixture {
  gpurf_ctx *ctx;
  gpurf_tech *t32;
  double rf_area_m2; /* 128 KB in 16 banks of 1024-bit words at 32 nm */
} fixture;

static int setup(void **state) {
  static fixture f;
  f.ctx = test_ctx();
  f.t32 = test_tech(f.ctx, "32nm");
  gpurf_cell cell;
  assert_ok(f.ctx, gpurf_cell_load(f.ctx, "sram-6t", &cell));
  gpurf_bank_spec b;
  gpurf_bank_spec_init(&b);
  b.tech = f.t32;
  b.cell = &cell;
  b.entries = 1024;
  b.width_bits = 1024;
  b.banks = 16;
  gpurf_bank_cost c;
  assert_ok(f.ctx, gpurf_bank_eval(f.ctx, &b, &c));
  f.rf_area_m2 = c.area_m2;
  *state = &f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  gpurf_tech_free(f->t32);
  gpurf_ctx_free(f->ctx);
  return 0;
}

static gpurf_arbiter_cost eval(fixture *f, int banks, int req, int k) {
  gpurf_arbiter_spec s;
  gpurf_arbiter_spec_init(&s);
  s.tech = f->t32;
  s.banks = banks;
  s.requesters = req;
  s.classes = k;
  gpurf_arbiter_cost c;
  assert_ok(f->ctx, gpurf_arbiter_eval(f->ctx, &s, &c));
  return c;
}

static void class_orders(void **state) {
  (void)state;
  gpurf_arbiter_class c[GPURF_ARBITER_MAX_CLASSES];
  assert_int_equal(gpurf_arbiter_classes(5, c), GPURF_OK);
  const gpurf_arbiter_class paper[5] = {GPURF_ARBITER_FORCED_WRITE, GPURF_ARBITER_NORMAL_READ,
                                    GPURF_ARBITER_STEALING_READ, GPURF_ARBITER_NORMAL_WRITE,
                                    GPURF_ARBITER_STEALING_WRITE};
  for (int i = 0; i < 5; i++) assert_int_equal(c[i], paper[i]);
  assert_int_equal(gpurf_arbiter_classes(2, c), GPURF_OK);
  assert_int_equal(c[0], GPURF_ARBITER_NORMAL_WRITE);
  assert_int_equal(c[1], GPURF_ARBITER_NORMAL_READ);
  assert_int_equal(gpurf_arbiter_classes(1, c), GPURF_EINVAL);
  assert_int_equal(gpurf_arbiter_classes(6, c), GPURF_EINVAL);
  assert_string_equal(gpurf_arbiter_class_name(GPURF_ARBITER_STEALING_WRITE), "stealing_write");
  for (int p = 0; p < GPURF_ARBITER_PART_COUNT; p++)
    assert_string_not_equal(gpurf_arbiter_part_name((gpurf_arbiter_part)p), "?");
}

static void bad_specs_are_rejected(void **state) {
  fixture *f = *state;
  gpurf_arbiter_spec s;
  gpurf_arbiter_spec_init(&s);
  s.tech = f->t32;
  s.banks = 16;
  s.requesters = 8;
  gpurf_arbiter_spec bad[6];
  for (int i = 0; i < 6; i++) bad[i] = s;
  bad[0].tech = NULL;
  bad[1].banks = 0;
  bad[2].requesters = 0;
  bad[3].classes = 6;
  bad[4].rf_registers = 8;
  bad[5].activity = 1.5;
  gpurf_arbiter_cost c;
  for (int i = 0; i < 6; i++)
    if (gpurf_arbiter_eval(f->ctx, &bad[i], &c) != GPURF_EINVAL)
      fail_msg("bad spec %d accepted", i);
  gpurf_arbiter_overhead o;
  assert_int_equal(gpurf_arbiter_overhead_eval(f->ctx, &s, -1.0, &o), GPURF_EINVAL);
}

static void more_classes_cost_more(void **state) {
  fixture *f = *state;
  gpurf_arbiter_cost c2 = eval(f, 16, 16, 2), c3 = eval(f, 16, 16, 3);
  gpurf_arbiter_cost c4 = eval(f, 16, 16, 4), c5 = eval(f, 16, 16, 5);
  assert_true(c3.base.area_m2 > c2.base.area_m2 && c4.base.area_m2 > c3.base.area_m2 &&
              c5.base.area_m2 > c4.base.area_m2);
  assert_true(test_ev_j(&c3.base, GPURF_EV_DECISION) > test_ev_j(&c2.base, GPURF_EV_DECISION));
  assert_true(test_ev_j(&c5.base, GPURF_EV_DECISION) > test_ev_j(&c4.base, GPURF_EV_DECISION));
  assert_true(c5.base.leakage_sub_w > c2.base.leakage_sub_w);
  /* Merging the stealing read into the read enable adds a gate level. */
  assert_true(c3.base.access_time_s > c2.base.access_time_s);
  assert_true(c5.base.access_time_s > c2.base.access_time_s);
  assert_true(c5.write_path_s >= c5.base.access_time_s);
  assert_int_equal(c2.status_bits, 0);
}

static void more_banks_and_requesters_cost_more(void **state) {
  fixture *f = *state;
  gpurf_arbiter_cost base = eval(f, 8, 8, 5);
  gpurf_arbiter_cost banks = eval(f, 16, 8, 5), req = eval(f, 8, 16, 5);
  assert_true(banks.base.area_m2 > base.base.area_m2 && req.base.area_m2 > base.base.area_m2);
  assert_true(test_ev_j(&banks.base, GPURF_EV_DECISION) > test_ev_j(&base.base, GPURF_EV_DECISION));
  assert_true(test_ev_j(&req.base, GPURF_EV_DECISION) > test_ev_j(&base.base, GPURF_EV_DECISION));
  assert_true(req.base.access_time_s > base.base.access_time_s);
  assert_true(banks.base.access_time_s >= base.base.access_time_s);
  assert_true(base.base.area_m2 > 0 && base.gates > 0 && base.flops > 0);
}

/* The paper's status table: two valid bits, a 7-bit free register id and a
 * 10-bit destination id per bank, 152 bits for eight banks of 1024 registers. */
static void status_table_matches_the_paper(void **state) {
  fixture *f = *state;
  gpurf_arbiter_cost c = eval(f, 8, 8, 5);
  assert_int_equal(c.status_bits, 152);
}

/* The overhead against the 2-class arbiter; its comparison with the
 * published figures is in test_reference.c. */
static void stealing_overhead_is_reported(void **state) {
  fixture *f = *state;
  gpurf_arbiter_spec s;
  gpurf_arbiter_spec_init(&s);
  s.tech = f->t32;
  s.banks = 16;
  s.requesters = 16;
  gpurf_arbiter_overhead o;
  assert_ok(f->ctx, gpurf_arbiter_overhead_eval(f->ctx, &s, f->rf_area_m2, &o));
  assert_true(o.extra_area_m2 > 0);
  assert_rel(o.area_share, o.extra_area_m2 / f->rf_area_m2, 1e-12);
  assert_true(o.extra_read_path_fo4 > 0 && o.scheduler_mux_fo4 > 0);
  assert_true(o.extra_energy_j > 0);
  /* Without an RF area no share is computed. */
  assert_ok(f->ctx, gpurf_arbiter_overhead_eval(f->ctx, &s, 0.0, &o));
  assert_true(o.area_share == 0.0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(class_orders),
      cmocka_unit_test(bad_specs_are_rejected),
      cmocka_unit_test(more_classes_cost_more),
      cmocka_unit_test(more_banks_and_requesters_cost_more),
      cmocka_unit_test(status_table_matches_the_paper),
      cmocka_unit_test(stealing_overhead_is_reported),
  };
  return cmocka_run_group_tests_name("arbiter", tests, setup, teardown);
}
