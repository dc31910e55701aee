/* The event engine through its API: counting, time, gating, the report's
 * arithmetic, merging, and what it refuses. Costs are arbitrary round
 * numbers chosen so every expected value can be worked out by hand. */
#include <stdlib.h>
#include <string.h>

#include "gpurf/events.h"
#include "test_util.h"

/* 4 banks (2 sub-arrays each) with read 2 pJ, write 3 pJ, 1 mW leakage;
 * one crossbar, transfer 4 pJ, 0.5 mW; clock 1 GHz. */
static void small_table(gpurf_rf_table *t) {
  memset(t, 0, sizeof *t);
  strcpy(t->design, "unit");
  t->clock_hz = 1.0e9;
  t->n_components = 2;
  gpurf_rf_component *b = &t->components[0];
  strcpy(b->name, "bank");
  strcpy(b->kind, "sram");
  b->instances = 4;
  b->leakage_w = 1.0e-3;
  b->subarrays = 2;
  b->gated_leakage_fraction = 0.1;
  b->wake_energy_j = 1.0e-12;
  b->wake_latency_s = 2.0e-9;
  b->n_events = 2;
  strcpy(b->events[0].name, "read");
  b->events[0].energy_j = 2.0e-12;
  strcpy(b->events[1].name, "write");
  b->events[1].energy_j = 3.0e-12;
  gpurf_rf_component *x = &t->components[1];
  strcpy(x->name, "crossbar");
  strcpy(x->kind, "xbar");
  x->instances = 1;
  x->leakage_w = 0.5e-3;
  x->n_events = 1;
  strcpy(x->events[0].name, "transfer");
  x->events[0].energy_j = 4.0e-12;
}

static gpurf_energy *engine_of(gpurf_ctx *ctx, const gpurf_rf_table *t) {
  gpurf_energy *e = NULL;
  assert_ok(ctx, gpurf_energy_alloc(ctx, t, &e));
  assert_non_null(e);
  return e;
}

static void counts_and_leakage_add_up(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_rf_table t;
  small_table(&t);
  gpurf_energy *e = engine_of(ctx, &t);
  int rd, wr, tr;
  assert_ok(ctx, gpurf_energy_event_id(e, "bank", "read", &rd));
  assert_ok(ctx, gpurf_energy_event_id(e, "bank", "write", &wr));
  assert_ok(ctx, gpurf_energy_event_id(e, "crossbar", "transfer", &tr));
  for (int i = 0; i < 4; i++) assert_int_equal(gpurf_energy_add(e, rd, i, 25), GPURF_OK);
  assert_int_equal(gpurf_energy_add(e, wr, 3, 10), GPURF_OK);
  assert_int_equal(gpurf_energy_add(e, tr, 0, 100), GPURF_OK);
  gpurf_energy_advance(e, 600);
  gpurf_energy_advance(e, 400);
  assert_int_equal(gpurf_energy_cycles(e), 1000);
  gpurf_energy_report *r = test_report(ctx);
  gpurf_energy_report_in in = {500};
  assert_ok(ctx, gpurf_energy_report_get(ctx, e, &in, r));
  assert_int_equal(gpurf_energy_report_event_count(r, 0, 0), 100);
  assert_int_equal(gpurf_energy_report_event_count(r, 0, 1), 10);
  assert_rel(gpurf_energy_report_event_energy_j(r, 0, 0), 100 * 2.0e-12, 1e-12);
  assert_rel(gpurf_energy_report_component_dynamic_energy_j(r, 0), 100 * 2.0e-12 + 10 * 3.0e-12,
             1e-12);
  assert_rel(gpurf_energy_report_component_dynamic_energy_j(r, 1), 100 * 4.0e-12, 1e-12);
  /* 1 us: 4 banks x 1 mW + 0.5 mW. */
  assert_rel(gpurf_energy_report_seconds(r), 1.0e-6, 1e-12);
  assert_rel(gpurf_energy_report_component_leakage_energy_j(r, 0), 4 * 1.0e-3 * 1.0e-6, 1e-12);
  assert_rel(gpurf_energy_report_leakage_energy_j(r), 4.5e-3 * 1.0e-6, 1e-12);
  double total = 230e-12 + 400e-12 + 4.5e-9;
  assert_rel(gpurf_energy_report_total_energy_j(r), total, 1e-12);
  assert_rel(gpurf_energy_report_average_power_w(r), total / 1.0e-6, 1e-12);
  assert_rel(gpurf_energy_report_edp_j_s(r), total * 1.0e-6, 1e-12);
  assert_rel(gpurf_energy_report_ipc(r), 0.5, 1e-12);
  assert_rel(gpurf_energy_report_energy_per_instruction_j(r), total / 500, 1e-12);
  assert_rel(gpurf_energy_report_instructions_per_j(r), 500 / total, 1e-12);
  gpurf_energy_free(e);
  gpurf_energy_report_free(r);
  gpurf_ctx_free(ctx);
}

static void without_instructions_the_per_instruction_metrics_are_zero(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_rf_table t;
  small_table(&t);
  gpurf_energy *e = engine_of(ctx, &t);
  gpurf_energy_report *r = test_report(ctx);
  assert_ok(ctx, gpurf_energy_report_get(ctx, e, NULL, r));
  assert_true(gpurf_energy_report_total_energy_j(r) == 0.0 &&
              gpurf_energy_report_average_power_w(r) == 0.0);
  gpurf_energy_advance(e, 10);
  assert_ok(ctx, gpurf_energy_report_get(ctx, e, NULL, r));
  assert_true(gpurf_energy_report_ipc(r) == 0.0 &&
              gpurf_energy_report_energy_per_instruction_j(r) == 0.0 &&
              gpurf_energy_report_instructions_per_j(r) == 0.0);
  assert_true(gpurf_energy_report_edp_j_s(r) > 0.0);
  gpurf_energy_free(e);
  gpurf_energy_report_free(r);
  gpurf_ctx_free(ctx);
}

static void gating_saves_leakage_and_costs_wakeups(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_rf_table t;
  small_table(&t);
  gpurf_energy *e = engine_of(ctx, &t);
  int bank;
  assert_ok(ctx, gpurf_energy_component_id(e, "bank", &bank));
  gpurf_energy_advance(e, 100);
  assert_int_equal(gpurf_energy_gate(e, bank, 1, 0, 1), GPURF_OK);
  gpurf_energy_advance(e, 200);
  assert_int_equal(gpurf_energy_gate(e, bank, 1, 0, 1), GPURF_OK); /* already gated */
  gpurf_energy_advance(e, 100);
  assert_int_equal(gpurf_energy_gate(e, bank, 1, 0, 0), GPURF_OK); /* 300 cycles, 1 wake */
  assert_int_equal(gpurf_energy_gate(e, bank, 1, 0, 0), GPURF_OK); /* already awake */
  assert_int_equal(gpurf_energy_gate(e, bank, 3, 1, 1), GPURF_OK); /* open to the end */
  gpurf_energy_advance(e, 600);
  gpurf_energy_report *r = test_report(ctx);
  assert_ok(ctx, gpurf_energy_report_get(ctx, e, NULL, r));
  assert_int_equal(gpurf_energy_report_component_gated_subarray_cycles(r, 0), 300 + 600);
  assert_int_equal(gpurf_energy_report_component_wakeups(r, 0), 1);
  assert_rel(gpurf_energy_report_component_wake_energy_j(r, 0), 1.0e-12, 1e-12);
  assert_rel(gpurf_energy_report_component_wake_time_s(r, 0), 2.0e-9, 1e-12);
  /* A sub-array's share is 0.5 mW; gated it leaks 10% of that. */
  double saved = 0.9 * 0.5e-3 * 900e-9;
  assert_rel(gpurf_energy_report_component_leakage_saved_j(r, 0), saved, 1e-12);
  assert_rel(gpurf_energy_report_component_leakage_energy_j(r, 0), 4 * 1.0e-3 * 1.0e-6 - saved,
             1e-12);
  assert_rel(gpurf_energy_report_component_dynamic_energy_j(r, 0), 1.0e-12, 1e-12);
  /* Tallied gating: the same sub-array cannot be gated longer than elapsed. */
  assert_int_equal(gpurf_energy_add_gated(e, bank, 0, 1, 1000, 2), GPURF_OK);
  assert_ok(ctx, gpurf_energy_report_get(ctx, e, NULL, r));
  assert_int_equal(gpurf_energy_add_gated(e, bank, 0, 1, 1, 0), GPURF_OK);
  assert_int_equal(gpurf_energy_report_get(ctx, e, NULL, r), GPURF_ERANGE);
  assert_non_null(strstr(gpurf_ctx_error(ctx)->message, "more than the 1000 that elapsed"));
  /* A refused report reads as empty, not half written. */
  assert_int_equal(gpurf_energy_report_components(r), 0);
  assert_true(gpurf_energy_report_total_energy_j(r) == 0.0);
  gpurf_energy_free(e);
  gpurf_energy_report_free(r);
  gpurf_ctx_free(ctx);
}

static void bad_ids_count_nothing(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_rf_table t;
  small_table(&t);
  gpurf_energy *e = engine_of(ctx, &t);
  int id = -7, c = -7;
  assert_int_equal(gpurf_energy_event_id(e, "bank", "fetch", &id), GPURF_ENOTFOUND);
  assert_int_equal(gpurf_energy_event_id(e, "banks", "read", &id), GPURF_ENOTFOUND);
  assert_int_equal(id, -7);
  assert_int_equal(gpurf_energy_component_id(e, "arbiter", &c), GPURF_ENOTFOUND);
  assert_int_equal(gpurf_energy_add(e, -1, 0, 1), GPURF_EINVAL);
  assert_int_equal(gpurf_energy_add(e, 3, 0, 1), GPURF_EINVAL); /* 3 ids: 0..2 */
  assert_int_equal(gpurf_energy_add(e, 0, 4, 1), GPURF_EINVAL); /* 4 banks: 0..3 */
  assert_int_equal(gpurf_energy_add(e, 2, 1, 1), GPURF_EINVAL); /* 1 crossbar */
  assert_int_equal(gpurf_energy_add(e, 0, -1, 1), GPURF_EINVAL);
  assert_int_equal(gpurf_energy_gate(e, 1, 0, 0, 1), GPURF_EINVAL); /* crossbar: no sub-arrays */
  assert_int_equal(gpurf_energy_gate(e, 0, 0, 2, 1), GPURF_EINVAL);
  assert_int_equal(gpurf_energy_gate(e, 2, 0, 0, 1), GPURF_EINVAL);
  assert_int_equal(gpurf_energy_add_gated(e, 0, 4, 0, 1, 1), GPURF_EINVAL);
  gpurf_energy_advance(e, 10);
  gpurf_energy_report *r = test_report(ctx);
  assert_ok(ctx, gpurf_energy_report_get(ctx, e, NULL, r));
  assert_true(gpurf_energy_report_dynamic_energy_j(r) == 0.0 &&
              gpurf_energy_report_component_gated_subarray_cycles(r, 0) == 0);
  gpurf_energy_free(e);
  gpurf_energy_report_free(r);
  gpurf_ctx_free(ctx);
}

static void alloc_checks_tables_built_in_code(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_rf_table t;
  gpurf_energy *e = (gpurf_energy *)&t; /* must be reset to NULL on failure */
  small_table(&t);
  t.clock_hz = 0;
  assert_int_equal(gpurf_energy_alloc(ctx, &t, &e), GPURF_EINVAL);
  assert_null(e);
  assert_non_null(strstr(gpurf_ctx_error(ctx)->message, "clock_hz"));
  small_table(&t);
  t.components[1].instances = 0;
  assert_int_equal(gpurf_energy_alloc(ctx, &t, &e), GPURF_EINVAL);
  small_table(&t);
  strcpy(t.components[1].name, "bank");
  assert_int_equal(gpurf_energy_alloc(ctx, &t, &e), GPURF_EINVAL);
  assert_non_null(strstr(gpurf_ctx_error(ctx)->message, "appears twice"));
  small_table(&t);
  t.components[0].events[1].energy_j = -1.0;
  assert_int_equal(gpurf_energy_alloc(ctx, &t, &e), GPURF_EINVAL);
  small_table(&t);
  t.components[0].gated_leakage_fraction = 1.5;
  assert_int_equal(gpurf_energy_alloc(ctx, &t, &e), GPURF_EINVAL);
  small_table(&t);
  strcpy(t.components[0].events[0].name, "re ad");
  assert_int_equal(gpurf_energy_alloc(ctx, &t, &e), GPURF_EINVAL);
  small_table(&t);
  t.n_components = 0;
  assert_int_equal(gpurf_energy_alloc(ctx, &t, &e), GPURF_EINVAL);
  assert_int_equal(gpurf_energy_alloc(ctx, NULL, &e), GPURF_EINVAL);
  /* Sub-arrays are tracked one by one: a table built in code with 65536
   * banks of 4096 sub-arrays (8 GB of state) is refused as a file's is, and
   * the total over components counts, each at the limit alone. */
  small_table(&t);
  t.components[0].instances = 65536;
  t.components[0].subarrays = 4096;
  assert_int_equal(gpurf_energy_alloc(ctx, &t, &e), GPURF_ERANGE);
  assert_null(e);
  assert_non_null(strstr(gpurf_ctx_error(ctx)->message, "268435456 sub-arrays"));
  small_table(&t);
  t.components[0].instances = 65536;
  t.components[0].subarrays = 16;
  t.components[1] = t.components[0];
  strcpy(t.components[1].name, "other");
  assert_int_equal(gpurf_energy_alloc(ctx, &t, &e), GPURF_ERANGE);
  assert_non_null(strstr(gpurf_ctx_error(ctx)->message, "component 'other'"));
  t.n_components = 1;
  assert_ok(ctx, gpurf_energy_alloc(ctx, &t, &e));
  gpurf_energy_free(e);
  gpurf_ctx_free(ctx);
}

/* A fixed pseudo-random sequence of adds, advances and gates. */
static void drive(gpurf_energy *e, unsigned seed, int steps) {
  uint64_t x = seed;
  for (int k = 0; k < steps; k++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    unsigned r = (unsigned)(x >> 33);
    switch (r % 4) {
    case 0: {
      int id = (int)(r / 4 % 3); /* bank read, bank write, crossbar transfer */
      gpurf_energy_add(e, id, id == 2 ? 0 : (int)(r / 16 % 4), r % 7);
      break;
    }
    case 1: gpurf_energy_advance(e, r % 13); break;
    case 2: gpurf_energy_gate(e, 0, (int)(r / 4 % 4), (int)(r / 16 % 2), (int)(r / 32 % 2)); break;
    default: gpurf_energy_add(e, 0, (int)(r / 4 % 4), 1); break;
    }
  }
}

static void same_sequence_same_bits(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_rf_table t;
  small_table(&t);
  gpurf_energy *a = engine_of(ctx, &t), *b = engine_of(ctx, &t);
  drive(a, 11, 20000);
  drive(b, 11, 20000);
  gpurf_energy_report *ra = test_report(ctx), *rb = test_report(ctx);
  gpurf_energy_report_in in = {12345};
  assert_ok(ctx, gpurf_energy_report_get(ctx, a, &in, ra));
  assert_ok(ctx, gpurf_energy_report_get(ctx, b, &in, rb));
  assert_same_report(ra, rb);
  assert_true(gpurf_energy_report_dynamic_energy_j(ra) > 0 &&
              gpurf_energy_report_component_wakeups(ra, 0) > 0);
  /* Reset: back to an empty engine, which counts alike again. */
  gpurf_energy_reset(a);
  assert_int_equal(gpurf_energy_cycles(a), 0);
  assert_ok(ctx, gpurf_energy_report_get(ctx, a, NULL, ra));
  assert_true(gpurf_energy_report_total_energy_j(ra) == 0.0 &&
              gpurf_energy_report_component_gated_subarray_cycles(ra, 0) == 0);
  drive(a, 11, 20000);
  assert_ok(ctx, gpurf_energy_report_get(ctx, a, &in, ra));
  assert_same_report(ra, rb);
  gpurf_energy_report_free(ra);
  gpurf_energy_report_free(rb);
  gpurf_energy_free(a);
  gpurf_energy_free(b);
  gpurf_ctx_free(ctx);
}

/* Two threads' engines over the same 1000 cycles sum to one engine that saw
 * every event. */
static void merge_sums_per_thread_engines(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_rf_table t;
  small_table(&t);
  gpurf_energy *one = engine_of(ctx, &t), *t1 = engine_of(ctx, &t), *t2 = engine_of(ctx, &t);
  gpurf_energy_add(one, 0, 0, 5);
  gpurf_energy_add(one, 2, 0, 7);
  gpurf_energy_add(t1, 0, 0, 5);
  gpurf_energy_add(t2, 2, 0, 7);
  gpurf_energy_advance(t1, 1000);
  gpurf_energy_advance(one, 400);
  gpurf_energy_advance(t2, 400);
  gpurf_energy_gate(one, 0, 2, 1, 1);
  gpurf_energy_gate(t2, 0, 2, 1, 1); /* still gated: counted to t2's present */
  gpurf_energy_advance(one, 600);
  gpurf_energy_advance(t2, 600);
  assert_ok(ctx, gpurf_energy_merge(ctx, t1, t2));
  gpurf_energy_report *r1 = test_report(ctx), *r2 = test_report(ctx);
  assert_ok(ctx, gpurf_energy_report_get(ctx, one, NULL, r1));
  assert_ok(ctx, gpurf_energy_report_get(ctx, t1, NULL, r2));
  assert_int_equal(gpurf_energy_report_cycles(r2), 1000);
  assert_rel(gpurf_energy_report_total_energy_j(r2), gpurf_energy_report_total_energy_j(r1), 1e-15);
  assert_int_equal(gpurf_energy_report_event_count(r2, 1, 0), 7);
  assert_int_equal(gpurf_energy_report_component_gated_subarray_cycles(r2, 0), 600);
  /* Different tables do not merge (the engines keep their own copies of t). */
  t.components[0].instances = 8;
  gpurf_energy *other = engine_of(ctx, &t);
  assert_int_equal(gpurf_energy_merge(ctx, t1, other), GPURF_EINVAL);
  assert_int_equal(gpurf_energy_merge(ctx, t1, t1), GPURF_EINVAL);
  gpurf_energy_free(other);
  gpurf_energy_free(one);
  gpurf_energy_free(t1);
  gpurf_energy_free(t2);
  gpurf_energy_report_free(r1);
  gpurf_energy_report_free(r2);
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(counts_and_leakage_add_up),
      cmocka_unit_test(without_instructions_the_per_instruction_metrics_are_zero),
      cmocka_unit_test(gating_saves_leakage_and_costs_wakeups),
      cmocka_unit_test(bad_ids_count_nothing),
      cmocka_unit_test(alloc_checks_tables_built_in_code),
      cmocka_unit_test(same_sequence_same_bits),
      cmocka_unit_test(merge_sums_per_thread_engines),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
