/* The rename technique (Jeon et al.) on hand-written micro-traces, with the
 * default (GTX480) timing of tests/test_pipeline.c and one bank: an ALU
 * instruction without reads issued in cycle c is dispatched in c+1 and
 * written in c+5; one reading a register issued in c reads in c+1,
 * dispatches in c+2 and is done in c+6; a run ends the cycle after. */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#define MICRO GPURF_TEST_DATA_DIR "/microtraces/"

typedef struct run {
  gpurf_pipeline_stats st;
  double wakeups_engine, gated_cycles_engine;
  gpurf_technique *t;
} run;

static double counter(gpurf_technique *t, const char *name) {
  int n = gpurf_technique_counter_count(t);
  for (int i = 0; i < n; i++)
    if (!strcmp(gpurf_technique_counter_name(t, i), name))
      return gpurf_technique_counter_value(t, i);
  fail_msg("no counter %s", name);
  return 0;
}

/* Runs trace on one bank with the rename technique set by sets (pairs);
 * with a design the energy engine's gating is read back. */
static void run_trace(const char *trace, const char *design, const char *const *sets, run *out) {
  gpurf_ctx *ctx = test_ctx();
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  assert_ok(ctx, gpurf_pipeline_params_set(ctx, &prm, "banks", "1"));
  gpurf_rf_design *d = gpurf_rf_design_alloc();
  gpurf_rf_table *t = gpurf_rf_table_alloc();
  assert_non_null(d);
  assert_non_null(t);
  if (design) {
    assert_ok(ctx, gpurf_rf_design_load(ctx, design, d));
    assert_ok(ctx, gpurf_rf_design_table(ctx, d, t));
  }
  assert_ok(ctx, gpurf_technique_alloc(ctx, "rename", &out->t));
  for (; sets && *sets; sets += 2)
    assert_ok(ctx, gpurf_technique_set(ctx, out->t, sets[0], sets[1]));
  gpurf_pipeline *p = NULL;
  gpurf_trace_reader *r = NULL;
  assert_ok(ctx,
            gpurf_pipeline_alloc(ctx, &prm, design ? t : NULL, gpurf_technique_hooks(out->t), &p));
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, trace, &r));
  assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
  assert_ok(ctx, gpurf_pipeline_stats_get(p, &out->st));
  out->wakeups_engine = out->gated_cycles_engine = -1;
  if (design) {
    gpurf_energy_report *rep = test_report(ctx);
    assert_ok(ctx, gpurf_energy_report_get(ctx, gpurf_pipeline_energy(p), NULL, rep));
    int c = 0;
    while (strcmp(gpurf_energy_report_component_name(rep, c), "bank")) c++;
    out->wakeups_engine = (double)gpurf_energy_report_component_wakeups(rep, c);
    out->gated_cycles_engine = (double)gpurf_energy_report_component_gated_subarray_cycles(rep, c);
    gpurf_energy_report_free(rep);
  }
  gpurf_trace_reader_free(r);
  gpurf_pipeline_free(p);
  gpurf_rf_table_free(t);
  gpurf_rf_design_free(d);
  gpurf_ctx_free(ctx);
}

/* One physical register, two warps of one CTA (one per scheduler):
 * warp 0 writes R0 in cycle 0 (written in 5); warp 1's write waits. In
 * cycle 5 warp 0's read issues and releases the register (scheduler 0
 * goes first), and warp 1's write takes it in the same cycle: written in
 * 10, read issued in 10, done in 16: 17 cycles (14 without renaming, where
 * both writes start in cycle 0). */
static void freed_and_reused(void **state) {
  (void)state;
  run r;
  const char *const sets[] = {"phys_regs", "1", NULL};
  run_trace(MICRO "rename-reuse.gtrace", NULL, sets, &r);
  assert_int_equal(r.st.cycles, 17);
  assert_int_equal(counter(r.t, "peak_physical_regs"), 1);
  assert_int_equal(counter(r.t, "allocations"), 2);
  assert_int_equal(counter(r.t, "releases_pir"), 2);
  assert_int_equal(counter(r.t, "rf_full_stalls"), 5); /* warp 1 in cycles 0-4 */
  assert_int_equal(counter(r.t, "spills"), 0);
  /* the pir of the two-instruction block: fetched by warp 0, a cache hit for warp 1 */
  assert_int_equal(counter(r.t, "pir_entries"), 2);
  assert_int_equal(counter(r.t, "pir_decoded"), 1);
  gpurf_technique_free(r.t);
  /* With room for both, renaming costs no cycle. */
  const char *const roomy[] = {"phys_regs", "2", NULL};
  run_trace(MICRO "rename-reuse.gtrace", NULL, roomy, &r);
  assert_int_equal(r.st.cycles, 14);
  assert_int_equal(counter(r.t, "peak_physical_regs"), 2);
  gpurf_technique_free(r.t);
}

/* Two physical registers, two CTAs of one warp that each need two (C = 2).
 * Cycle 0: CTA 0 takes one (balance 1, one free: still covers it); CTA 1
 * taking the last would leave 0 free against balances of 1: held. Cycle 1:
 * CTA 0 takes the other. Its read issues in 6 (R1 written in 6) and frees
 * both; CTA 1 resumes in 6 (held in cycles 0-5, once) and in 7. Its writes
 * land in 11 and 12 after the reads of CTA 0 in 7 and 8; its read issues
 * in 12, reads in 13 and 14, is done in 19: 20 cycles. */
static void cta_throttled_and_resumed(void **state) {
  (void)state;
  run r;
  const char *const sets[] = {"phys_regs", "2", NULL};
  run_trace(MICRO "rename-throttle.gtrace", NULL, sets, &r);
  assert_int_equal(r.st.cycles, 20);
  assert_int_equal(counter(r.t, "throttle_events"), 1);
  assert_int_equal(counter(r.t, "throttle_cycles"), 6);
  assert_int_equal(counter(r.t, "peak_physical_regs"), 2);
  assert_int_equal(counter(r.t, "peak_architected_regs"), 4);
  assert_int_equal(counter(r.t, "spills"), 0);
  gpurf_technique_free(r.t);
  /* Without throttling both CTAs take one and wait for a second: after 200
   * cycles without an issue CTA 0 spills CTA 1's R0 (cycle 201), writes R1
   * in 202 (written 207) and reads both in 207, freeing them; CTA 1 writes
   * R1 in 207 (written 212), then fills R0: a global-memory latency (255)
   * until 467, reads in 468 and 469, done in 474: 475 cycles. */
  const char *const off[] = {"phys_regs", "2", "throttle", "0", NULL};
  run_trace(MICRO "rename-throttle.gtrace", NULL, off, &r);
  assert_int_equal(r.st.cycles, 475);
  assert_int_equal(counter(r.t, "spills"), 1);
  assert_int_equal(counter(r.t, "fills"), 1);
  assert_int_equal(counter(r.t, "spill_fill_bytes"), 256);
  assert_int_equal(counter(r.t, "throttle_events"), 0);
  gpurf_technique_free(r.t);
}

/* Every sub-array starts gated: the write of R0 wakes one and issues
 * wake_cycles later; the rest is as without gating (12 cycles). The read
 * frees R0 and gates the sub-array again. */
static void wakeup_stalls_allocation(void **state) {
  (void)state;
  static const char *const waits[] = {"0", "1", "3", "10"};
  for (int i = 0; i < 4; i++) {
    run r;
    const char *const sets[] = {"gating", i ? "1" : "0", "wake_cycles", waits[i], NULL};
    run_trace(MICRO "rename-wake.gtrace", "jeon-shrink", sets, &r);
    int w = atoi(waits[i]);
    assert_int_equal(r.st.cycles, 12 + w);
    assert_int_equal(counter(r.t, "wakeups"), i ? 1 : 0);
    assert_int_equal(counter(r.t, "wake_stalls"), w);
    /* The engine saw the wake-up in the bank's instance (the pipeline has
     * one bank here); gated: its 4 sub-arrays the whole run but the one
     * from its wake-up (cycle 0) to the release (issue of the read, cycle
     * 5 + w). */
    assert_int_equal(r.wakeups_engine, i ? 1 : 0);
    if (i) {
      double all = 4.0 * (double)r.st.cycles, awake = 5.0 + w;
      assert_rel(r.gated_cycles_engine, all - awake, 1e-12);
    }
    gpurf_technique_free(r.t);
  }
}

static void options(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_technique *t;
  assert_ok(ctx, gpurf_technique_alloc(ctx, "rename", &t));
  assert_int_equal(gpurf_technique_set(ctx, t, "wake_cycles", "-1"), GPURF_EINVAL);
  assert_string_equal(gpurf_ctx_error(ctx)->field, "wake_cycles");
  assert_int_equal(gpurf_technique_set(ctx, t, "flag_cache", "65"), GPURF_EINVAL);
  assert_int_equal(gpurf_technique_set(ctx, t, "colour", "1"), GPURF_ENOTFOUND);
  assert_ok(ctx, gpurf_technique_set(ctx, t, "budget_bytes", "2048"));
  /* phys_regs must split evenly over the banks */
  assert_ok(ctx, gpurf_technique_set(ctx, t, "phys_regs", "6"));
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  assert_ok(ctx, gpurf_pipeline_params_set(ctx, &prm, "banks", "4"));
  gpurf_pipeline *p = NULL;
  assert_int_equal(gpurf_pipeline_alloc(ctx, &prm, NULL, gpurf_technique_hooks(t), &p),
                   GPURF_EINVAL);
  assert_null(p);
  gpurf_technique_free(t);
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(freed_and_reused),
      cmocka_unit_test(cta_throttled_and_resumed),
      cmocka_unit_test(wakeup_stalls_allocation),
      cmocka_unit_test(options),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
