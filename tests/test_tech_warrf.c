/* The warrf technique (split-bank write and the write pool) on hand-timed
 * micro-traces, with the default (GTX480) parameters and 3-cycle bank
 * writes (the STT-RAM bank of warrf-stt at 0.7 GHz) unless said otherwise.
 *
 * Timing as in test_pipeline.c: an ALU instruction issued in cycle c reads
 * in c+1, is dispatched in c+2 and its result is ready in c+6; a MOV
 * without sources is dispatched in c+1 and ready in c+5. A 3-cycle write
 * granted in cycle w holds its bank in w..w+2 and completes in w+2. A run
 * ends in the cycle after the last write or retirement. */
#include <math.h>
#include <string.h>

#include "test_util.h"

#include "gpurf/technique.h"

#define MICRO GPURF_TEST_DATA_DIR "/microtraces/"

typedef struct run_out {
  gpurf_pipeline_stats st;
  double pool_searches, read_hits, allocs, evictions, demoted, dropped;
  double array_reads, array_writes;
} run_out;

static double counter(gpurf_technique *t, const char *name) {
  int n = gpurf_technique_counter_count(t);
  for (int i = 0; i < n; i++)
    if (!strcmp(gpurf_technique_counter_name(t, i), name))
      return gpurf_technique_counter_value(t, i);
  fail_msg("no counter %s", name);
  return NAN;
}

/* Runs a trace with pipeline settings pset and technique options tset
 * (NULL-terminated key, value lists); table may be NULL. */
static void run(const char *trace, const char *const *pset, const char *const *tset,
                const gpurf_rf_table *table, run_out *o, gpurf_energy_report *rep) {
  gpurf_ctx *ctx = test_ctx();
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  assert_ok(ctx, gpurf_pipeline_params_set(ctx, &prm, "bank_write_cycles", "3"));
  for (; pset && *pset; pset += 2)
    assert_ok(ctx, gpurf_pipeline_params_set(ctx, &prm, pset[0], pset[1]));
  gpurf_technique *t = NULL;
  assert_ok(ctx, gpurf_technique_alloc(ctx, "warrf", &t));
  for (; tset && *tset; tset += 2) assert_ok(ctx, gpurf_technique_set(ctx, t, tset[0], tset[1]));
  gpurf_pipeline *p = NULL;
  gpurf_trace_reader *r = NULL;
  assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, table, gpurf_technique_hooks(t), &p));
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, trace, &r));
  assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
  assert_ok(ctx, gpurf_pipeline_stats_get(p, &o->st));
  if (rep) assert_ok(ctx, gpurf_energy_report_get(ctx, gpurf_pipeline_energy(p), NULL, rep));
  o->pool_searches = counter(t, "pool_searches");
  o->read_hits = counter(t, "pool_read_hits");
  o->allocs = counter(t, "pool_allocations");
  o->evictions = counter(t, "pool_evictions");
  o->demoted = counter(t, "pool_demoted_entries");
  o->dropped = counter(t, "pool_dropped_dead");
  o->array_reads = counter(t, "pool_array_reads");
  o->array_writes = counter(t, "pool_array_writes");
  gpurf_trace_reader_free(r);
  gpurf_pipeline_free(p);
  gpurf_technique_free(t);
  gpurf_ctx_free(ctx);
}

static const char *const NO_POOL[] = {"entries", "0", NULL};

/* sbw_otherhalf: warp 0's MOV writes R1 to bank 1 in 5 (held 5-7) while
 * warp 1's FADD, issued in 4, asks bank 1 for R0 in 5. Slots 0 and 1 are
 * different sub-arrays: the read goes beside the write in 5, the FADD is
 * dispatched in 6, its result of 10 holds bank 4 in 10-12: 13 cycles, no
 * conflict. Without SBW the read loses in 5, 6 and 7 and reads in 8: the
 * result of 13 completes in 15: 16 cycles. */
static void test_sbw_other_half(void **state) {
  (void)state;
  run_out o;
  run(MICRO "sbw_otherhalf.gtrace", NULL, NO_POOL, NULL, &o, NULL);
  assert_int_equal(o.st.cycles, 13);
  assert_int_equal(o.st.conflicts_inter_write, 0);
  assert_int_equal(o.st.reads, 1);
  assert_int_equal(o.st.writes, 2);
  const char *const off[] = {"entries", "0", "sbw", "0", NULL};
  run(MICRO "sbw_otherhalf.gtrace", NULL, off, NULL, &o, NULL);
  assert_int_equal(o.st.cycles, 16);
  assert_int_equal(o.st.conflicts_inter_write, 3);
}

/* writeblock: one warp writes R1 and then reads R17, both in bank 1. Rows
 * interleaved by warp put both in one sub-array: the read waits as without
 * SBW (reads in 8, 16 cycles, three conflicts). With a warp's registers in
 * consecutive rows, R1 (row 0) and R17 (row 1) are in different halves: the
 * read goes in 5 beside the write and the run takes 13 cycles. */
static void test_sbw_same_half(void **state) {
  (void)state;
  run_out o;
  run(MICRO "writeblock.gtrace", NULL, NO_POOL, NULL, &o, NULL);
  assert_int_equal(o.st.cycles, 16);
  assert_int_equal(o.st.conflicts_inter_write, 3);
  const char *const by_reg[] = {"entries", "0", "subarray", "reg", NULL};
  run(MICRO "writeblock.gtrace", NULL, by_reg, NULL, &o, NULL);
  assert_int_equal(o.st.cycles, 13);
  assert_int_equal(o.st.conflicts_inter_write, 0);
}

/* wpool_hit: MOV R1's result of 5 goes to the pool (no bank write), so the
 * FADD issues in 5, finds R1 in the pool, has it in 7 as from a bank and is
 * dispatched in 7; its result of 11 goes to the pool too: 12 cycles, no
 * bank access. Three searches (two writes, one read), two allocations. The
 * STT-RAM register file without the pool takes 16 cycles (the MOV's write
 * completes in 7). With the pool's energy (warrf-stt-sbw-wpool): each
 * event costs what the table says. */
static void test_wpool_hit(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_rf_design *d = gpurf_rf_design_alloc();
  gpurf_rf_table *t = gpurf_rf_table_alloc();
  assert_non_null(d);
  assert_non_null(t);
  assert_ok(ctx, gpurf_rf_design_load(ctx, "warrf-stt-sbw-wpool", d));
  assert_ok(ctx, gpurf_rf_design_table(ctx, d, t));
  gpurf_energy_report *rep = NULL;
  assert_ok(ctx, gpurf_energy_report_alloc(ctx, &rep));
  run_out o;
  run(MICRO "wpool_hit.gtrace", NULL, NULL, t, &o, rep);
  assert_int_equal(o.st.cycles, 12);
  assert_int_equal(o.st.reads + o.st.writes, 0);
  assert_rel(o.read_hits, 1, 0);
  assert_rel(o.pool_searches, 3, 0);
  assert_rel(o.allocs, 2, 0);
  assert_rel(o.array_reads, 1, 0);
  assert_rel(o.array_writes, 2, 0);
  int c = gpurf_rf_table_find(t, "write_pool");
  assert_true(c >= 0);
  const gpurf_rf_component *pc = gpurf_rf_table_component(t, c);
#define EV(name) gpurf_rf_component_event(pc, gpurf_rf_table_find_event(t, c, name))->energy_j
  double want = 3 * EV("cam_search") + 2 * EV("cam_update") + EV("read") + 2 * EV("write");
#undef EV
  int rc = -1;
  for (int i = 0; i < gpurf_energy_report_components(rep); i++)
    if (!strcmp(gpurf_energy_report_component_name(rep, i), "write_pool")) rc = i;
  assert_true(rc >= 0);
  assert_rel(gpurf_energy_report_component_dynamic_energy_j(rep, rc), want, 1e-12);
  gpurf_energy_report_free(rep);
  run(MICRO "wpool_hit.gtrace", NULL, NO_POOL, NULL, &o, NULL);
  assert_int_equal(o.st.cycles, 16);
  gpurf_rf_table_free(t);
  gpurf_rf_design_free(d);
  gpurf_ctx_free(ctx);
}

/* wpool_evict with one entry: MOV R1 takes it in 5; MOV R2's result of 6
 * evicts R1, whose forced write holds bank 1 in 6-8, and takes the entry.
 * NOPs issue in 2-6; the FADD issues in 7, R1 is no longer pooled: it asks
 * bank 1 in 8, loses to the write (one conflict), reads in 9, is
 * dispatched in 10; its result of 14 evicts R2 (bank 2, 14-16): 17 cycles,
 * two bank writes, one bank read, three allocations, two evictions. */
static void test_wpool_evict(void **state) {
  (void)state;
  run_out o;
  const char *const one[] = {"entries", "1", NULL};
  run(MICRO "wpool_evict.gtrace", NULL, one, NULL, &o, NULL);
  assert_int_equal(o.st.cycles, 17);
  assert_int_equal(o.st.writes, 2);
  assert_int_equal(o.st.bank_writes[1], 1);
  assert_int_equal(o.st.bank_writes[2], 1);
  assert_int_equal(o.st.reads, 1);
  assert_int_equal(o.st.conflicts_inter_write, 1);
  assert_rel(o.read_hits + 1, 1, 0);
  assert_rel(o.allocs, 3, 0);
  assert_rel(o.evictions, 2, 0);
  assert_rel(o.array_reads, 2, 0); /* the evicted values leave through the pool's read port */
}

/* wpool_demote, one scheduler, two-level with both warps active, 1-cycle
 * writes, global latency 20, two entries. Round robin: warp 0 NOP in 0,
 * warp 1 MOV R5 in 1, warp 0 MOV R1 in 2, warp 1 NOP in 3, warp 0 LDG in
 * 4; from 5 warp 0 waits on the load and is demoted (and, the active set
 * having room, promoted again) every cycle; warp 1 issues NOPs in 5 and 6
 * and MOV R6 in 7. R5 enters the pool in 6, R1 in 7 and moves to the LRU
 * end in the demotions of 7-11 (five moves). R6's result of 12 finds the
 * pool full: plain LRU would evict R5 (older), the demotion rule evicts
 * R1: one write, to bank 1. Warp 1 ends in 12, so its entries are dead.
 * The load's result of 6 + 20 = 26 drops them (no write-back) and takes an
 * entry; the FADD issues in 26, reads R2 from the pool and is dispatched
 * in 28; its result of 32 goes to the pool: 33 cycles. Plain LRU evicts R5
 * in 12 and keeps R1, which R4 then evicts in 32: two writes, 33 cycles. */
static void test_wpool_demotion(void **state) {
  (void)state;
  const char *const p[] = {"schedulers", "1", "policy", "two_level", "active_warps", "2",
                           "latency_global", "20", "bank_write_cycles", "1", NULL};
  const char *const two[] = {"entries", "2", NULL};
  run_out o;
  run(MICRO "wpool_demote.gtrace", p, two, NULL, &o, NULL);
  assert_int_equal(o.st.cycles, 33);
  assert_int_equal(o.st.writes, 1);
  assert_int_equal(o.st.bank_writes[1], 1); /* warp 0's R1: (1 + 0) mod 16 */
  assert_rel(o.demoted, 5, 0);
  assert_rel(o.dropped, 2, 0);
  assert_rel(o.evictions, 1, 0);
  assert_rel(o.allocs, 5, 0);
  assert_rel(o.read_hits, 1, 0);
  const char *const plain[] = {"entries", "2", "demotion", "0", NULL};
  run(MICRO "wpool_demote.gtrace", p, plain, NULL, &o, NULL);
  assert_int_equal(o.st.cycles, 33);
  assert_int_equal(o.st.writes, 2);
  assert_int_equal(o.st.bank_writes[6], 1); /* warp 1's R5 in 12: (5 + 1) mod 16 */
  assert_int_equal(o.st.bank_writes[1], 1); /* warp 0's R1, evicted by R4 in 32 */
  assert_rel(o.demoted + 1, 1, 0);
}

static void test_options(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_technique *t = NULL;
  assert_ok(ctx, gpurf_technique_alloc(ctx, "warrf", &t));
  assert_int_equal(gpurf_technique_set(ctx, t, "colour", "1"), GPURF_ENOTFOUND);
  assert_string_equal(gpurf_ctx_error(ctx)->field, "colour");
  assert_int_equal(gpurf_technique_set(ctx, t, "entries", "-1"), GPURF_EINVAL);
  assert_string_equal(gpurf_ctx_error(ctx)->field, "entries");
  assert_int_equal(gpurf_technique_set(ctx, t, "entries", "1000"), GPURF_EINVAL);
  assert_int_equal(gpurf_technique_set(ctx, t, "sbw", "2"), GPURF_EINVAL);
  assert_int_equal(gpurf_technique_set(ctx, t, "subarray", "row"), GPURF_EINVAL);
  assert_int_equal(gpurf_technique_set(ctx, t, "demotion", "x"), GPURF_EINVAL);
  assert_ok(ctx, gpurf_technique_set(ctx, t, "subarray", "reg"));
  assert_int_equal(gpurf_technique_counter_count(t), 10);
  gpurf_technique_free(t);
  gpurf_ctx_free(ctx);
}

/* With SBW and the pool both off the technique is the baseline, cycle for
 * cycle, on a synthetic workload with slow writes. */
static void test_off_is_baseline(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_pipeline_stats st[2];
  for (int k = 0; k < 2; k++) {
    gpurf_pipeline_params prm;
    gpurf_pipeline_params_init(&prm);
    assert_ok(ctx, gpurf_pipeline_params_set(ctx, &prm, "bank_write_cycles", "3"));
    assert_ok(ctx, gpurf_pipeline_params_set(ctx, &prm, "policy", "two_level"));
    gpurf_technique *t = NULL;
    if (k) {
      assert_ok(ctx, gpurf_technique_alloc(ctx, "warrf", &t));
      assert_ok(ctx, gpurf_technique_set(ctx, t, "sbw", "0"));
      assert_ok(ctx, gpurf_technique_set(ctx, t, "entries", "0"));
    }
    gpurf_trace_gen_params g = {"compute", 3, 1, 8, 200, -1};
    gpurf_trace_reader *r = NULL;
    gpurf_pipeline *p = NULL;
    assert_ok(ctx, gpurf_trace_gen_alloc(ctx, &g, &r));
    assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, NULL, t ? gpurf_technique_hooks(t) : NULL, &p));
    assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
    assert_ok(ctx, gpurf_pipeline_stats_get(p, &st[k]));
    gpurf_pipeline_free(p);
    gpurf_trace_reader_free(r);
    gpurf_technique_free(t);
  }
  assert_int_equal(st[0].cycles, st[1].cycles);
  assert_int_equal(st[0].reads, st[1].reads);
  assert_int_equal(st[0].writes, st[1].writes);
  assert_int_equal(st[0].conflicts_inter_write, st[1].conflicts_inter_write);
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sbw_other_half), cmocka_unit_test(test_sbw_same_half),
      cmocka_unit_test(test_wpool_hit),      cmocka_unit_test(test_wpool_evict),
      cmocka_unit_test(test_wpool_demotion), cmocka_unit_test(test_options),
      cmocka_unit_test(test_off_is_baseline),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
