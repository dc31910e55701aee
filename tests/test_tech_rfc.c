/* The register-file cache technique on hand-written micro-traces whose MRF
 * reads and writes are counted by hand below. In each trace every
 * instruction waits for the one before, so cache writes and reads happen
 * in program order. MRF reads are the pipeline's bank reads; MRF writes
 * its bank writes (results that bypass the cache, and write-backs).
 *
 * rfc_evict, 2 entries per thread, FIFO:
 *   0000 R1 <- R0      R0 miss (MRF read 1); R1 in: [R1]
 *   0010 R2 <- R1      R1 hit;               R2 in: [R1 R2]
 *   0020 R3 <- R0 R2   R0 miss (2), R2 hit;  R3 in, R1 out (read again at 0030:
 *                                            live, written back: MRF write 1)
 *   0030 R4 <- R1 R3   R1 miss (3), R3 hit;  R4 in, R2 out (last read at 0020)
 *   0040 R5 <- R3 R4   R3 hit, R4 hit;       R5 in, R3 out (last read at 0040)
 * Reads: 3 from the MRF, 5 hits. Writes: with liveness only R1's write-back
 * (R2 and R3 are dead when evicted); without liveness R1, R2 and R3: 3.
 * R4 and R5 stay in the cache when the warp ends (dead). With 8 entries
 * nothing is evicted: reads 3 (R0, R0, and R1 still hits: 2), writes 0. */
#include <math.h>
#include <string.h>

#include "test_util.h"

#include "gpurf/technique.h"

#define MICRO GPURF_TEST_DATA_DIR "/microtraces/"

typedef struct outcome {
  gpurf_pipeline_stats st;
  gpurf_technique *t;
} outcome;

/* Runs `path` with the rfc technique and options opts[] = {key, value, ...}
 * and pipeline settings set[]; the technique stays for its counters. */
static void run_rfc(gpurf_ctx *ctx, const char *path, const char *const *opts,
                    const char *const *set, outcome *o) {
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  for (; set && *set; set += 2)
    assert_ok(ctx, gpurf_pipeline_params_set(ctx, &prm, set[0], set[1]));
  assert_ok(ctx, gpurf_technique_alloc(ctx, "rfc", &o->t));
  for (; opts && *opts; opts += 2) assert_ok(ctx, gpurf_technique_set(ctx, o->t, opts[0], opts[1]));
  gpurf_pipeline *p = NULL;
  gpurf_trace_reader *r = NULL;
  assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, NULL, gpurf_technique_hooks(o->t), &p));
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, path, &r));
  assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
  assert_ok(ctx, gpurf_pipeline_stats_get(p, &o->st));
  gpurf_trace_reader_free(r);
  gpurf_pipeline_free(p);
}

static double counter(gpurf_technique *t, const char *name) {
  int n = gpurf_technique_counter_count(t);
  for (int i = 0; i < n; i++)
    if (!strcmp(gpurf_technique_counter_name(t, i), name))
      return gpurf_technique_counter_value(t, i);
  fail_msg("no counter %s", name);
  return NAN;
}

static void test_evict_fifo(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  outcome o;
  const char *const two[] = {"entries", "2", NULL};
  run_rfc(ctx, MICRO "rfc_evict.gtrace", two, NULL, &o);
  assert_int_equal(o.st.warp_instructions, 5);
  assert_int_equal(o.st.reads, 3);
  assert_int_equal(o.st.writes, 1);
  assert_rel(counter(o.t, "rfc_read_hits"), 5, 1e-12);
  assert_rel(counter(o.t, "rfc_read_misses"), 3, 1e-12);
  assert_rel(counter(o.t, "rfc_writes"), 5, 1e-12);
  assert_rel(counter(o.t, "rfc_evictions"), 3, 1e-12);
  assert_rel(counter(o.t, "rfc_eviction_writebacks"), 1, 1e-12);
  assert_rel(counter(o.t, "rfc_evictions_dead"), 2, 1e-12);
  assert_rel(counter(o.t, "mrf_reads_avoided"), 5, 1e-12);
  assert_rel(counter(o.t, "mrf_writes_avoided"), 4, 1e-12);
  /* A tag check per source read and per cache write. */
  assert_rel(counter(o.t, "rfc_tag_checks"), 8 + 5, 1e-12);
  gpurf_technique_free(o.t);

  const char *const no_live[] = {"entries", "2", "liveness", "0", NULL};
  run_rfc(ctx, MICRO "rfc_evict.gtrace", no_live, NULL, &o);
  assert_int_equal(o.st.reads, 3);
  assert_int_equal(o.st.writes, 3);
  assert_rel(counter(o.t, "rfc_eviction_writebacks"), 3, 1e-12);
  gpurf_technique_free(o.t);

  /* Two levels (l0=1): 0000 R0 miss, R1 into the L0; 0010 R1 hit in the
   * L0, R2 pushes R1 (live) into the L1; 0020 R0 miss, R2 hit in the L0
   * (its last read), R3 replaces the dead R2; 0030 R1 hit in the L1, R3
   * hit in the L0, R4 pushes R3 (live) into the L1; 0040 R3 in the L1, R4
   * in the L0 (last reads), R5 replaces the dead R4. MRF reads 2, writes
   * 0; L0 hits 4, L1 hits 2, two moves to the L1, two dead L0 values. */
  const char *const l0[] = {"entries", "2", "l0", "1", NULL};
  run_rfc(ctx, MICRO "rfc_evict.gtrace", l0, NULL, &o);
  assert_int_equal(o.st.reads, 2);
  assert_int_equal(o.st.writes, 0);
  assert_rel(counter(o.t, "rfc_l0_read_hits"), 4, 1e-12);
  assert_rel(counter(o.t, "rfc_read_hits"), 2, 1e-12);
  assert_rel(counter(o.t, "rfc_l0_to_l1"), 2, 1e-12);
  assert_rel(counter(o.t, "rfc_l0_dead"), 2, 1e-12);
  assert_rel(counter(o.t, "rfc_writes"), 2, 1e-12);
  assert_rel(counter(o.t, "rfc_l0_writes"), 5, 1e-12);
  assert_rel(counter(o.t, "mrf_writes_avoided"), 5, 1e-12);
  gpurf_technique_free(o.t);

  const char *const eight[] = {"entries", "8", NULL};
  run_rfc(ctx, MICRO "rfc_evict.gtrace", eight, NULL, &o);
  assert_int_equal(o.st.reads, 2);
  assert_int_equal(o.st.writes, 0);
  assert_rel(counter(o.t, "rfc_evictions"), 0, 1e-12);
  gpurf_technique_free(o.t);
  gpurf_ctx_free(ctx);
}

/* rfc_hint: the trace's hints replace the computed liveness. They mark
 * R0 (0020), R1 (0030), R3 and R4 (0040), not R2 (0020): R1 and R2 are
 * written back when evicted, R3 is not. Reads as in rfc_evict. */
static void test_trace_hints(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  outcome o;
  const char *const two[] = {"entries", "2", NULL};
  run_rfc(ctx, MICRO "rfc_hint.gtrace", two, NULL, &o);
  assert_int_equal(o.st.reads, 3);
  assert_int_equal(o.st.writes, 2);
  assert_rel(counter(o.t, "rfc_evictions_dead"), 1, 1e-12);
  gpurf_technique_free(o.t);
  gpurf_ctx_free(ctx);
}

/* rfc_lru, 2 entries: 0000 R0 miss, R1 in; 0010 R1 hit, R2 in; 0020 reads
 * R2 then R1 (both hits) and writes R3. FIFO evicts R1 (first in), which
 * 0030 reads again: a miss, and R1 was live: written back; then R4 evicts
 * R2 (dead). MRF reads 2, writes 1. LRU evicts R2 (touched before R1 at
 * 0020; dead), 0030 hits R1 and R3, and R4 evicts R1 (touched before R3
 * at 0030; dead): MRF reads 1, writes 0. */
static void test_lru(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  outcome o;
  const char *const fifo[] = {"entries", "2", "replace", "fifo", NULL};
  run_rfc(ctx, MICRO "rfc_lru.gtrace", fifo, NULL, &o);
  assert_int_equal(o.st.reads, 2);
  assert_int_equal(o.st.writes, 1);
  gpurf_technique_free(o.t);
  const char *const lru[] = {"entries", "2", "replace", "lru", NULL};
  run_rfc(ctx, MICRO "rfc_lru.gtrace", lru, NULL, &o);
  assert_int_equal(o.st.reads, 1);
  assert_int_equal(o.st.writes, 0);
  assert_rel(counter(o.t, "rfc_read_hits"), 5, 1e-12);
  gpurf_technique_free(o.t);
  gpurf_ctx_free(ctx);
}

/* rfc_flush, two-level with one active warp: 0000 R0 miss, R1 into the
 * cache; 0010 the load reads R4 and R5 (misses); 0020 waits on the load
 * (long latency): the warp is demoted, and once R1 has arrived a flush
 * writes it back (it is read at 0020: live). The load's R2 bypasses the
 * cache into its bank. 0020 then reads R2 and R1 from the MRF and R3 goes
 * into the cache. MRF reads 5 (R0 R4 R5 R2 R1), writes 2 (R1, R2). Without
 * flushes R1 stays and hits: reads 4, writes 1 (R2). */
static void test_flush(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  outcome o;
  const char *const two_level[] = {"schedulers", "1", "policy", "two_level", "active_warps", "1",
                                   NULL};
  run_rfc(ctx, MICRO "rfc_flush.gtrace", NULL, two_level, &o);
  assert_int_equal(o.st.warp_instructions, 3);
  assert_int_equal(o.st.reads, 5);
  assert_int_equal(o.st.writes, 2);
  assert_rel(counter(o.t, "rfc_flush_writebacks"), 1, 1e-12);
  assert_rel(counter(o.t, "rfc_bypass_long"), 1, 1e-12);
  assert_rel(counter(o.t, "rfc_bypass_inactive"), 0, 1e-12);
  gpurf_technique_free(o.t);
  const char *const keep[] = {"flush", "0", NULL};
  run_rfc(ctx, MICRO "rfc_flush.gtrace", keep, two_level, &o);
  assert_int_equal(o.st.reads, 4);
  assert_int_equal(o.st.writes, 1);
  assert_rel(counter(o.t, "rfc_flush_writebacks"), 0, 1e-12);
  gpurf_technique_free(o.t);
  /* All warps active (one-level): no demotion, as without flushes. */
  const char *const lrr[] = {"policy", "lrr", NULL};
  run_rfc(ctx, MICRO "rfc_flush.gtrace", NULL, lrr, &o);
  assert_int_equal(o.st.reads, 4);
  assert_int_equal(o.st.writes, 1);
  gpurf_technique_free(o.t);
  gpurf_ctx_free(ctx);
}

static void test_options(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_technique *t = NULL;
  assert_ok(ctx, gpurf_technique_alloc(ctx, "rfc", &t));
  assert_int_equal(gpurf_technique_set(ctx, t, "entries", "0"), GPURF_EINVAL);
  assert_string_equal(gpurf_ctx_error(ctx)->field, "entries");
  assert_int_equal(gpurf_technique_set(ctx, t, "entries", "9"), GPURF_EINVAL);
  assert_int_equal(gpurf_technique_set(ctx, t, "entries", "4x"), GPURF_EINVAL);
  assert_int_equal(gpurf_technique_set(ctx, t, "replace", "random"), GPURF_EINVAL);
  assert_string_equal(gpurf_ctx_error(ctx)->field, "replace");
  assert_int_equal(gpurf_technique_set(ctx, t, "liveness", "yes"), GPURF_EINVAL);
  assert_int_equal(gpurf_technique_set(ctx, t, "ways", "2"), GPURF_ENOTFOUND);
  assert_string_equal(gpurf_ctx_error(ctx)->field, "ways");
  assert_ok(ctx, gpurf_technique_set(ctx, t, "entries", "8"));
  assert_ok(ctx, gpurf_technique_set(ctx, t, "replace", "lru"));
  gpurf_technique_free(t);
  gpurf_ctx_free(ctx);
}

/* The cache's events reach the energy engine of a design that has it:
 * rfc_evict with 2 entries reads the cache 5 times, writes it 5 times and
 * checks tags 8 times (reads) with 5 updates (writes). */
static void test_energy_events(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_rf_design *d = gpurf_rf_design_alloc();
  gpurf_rf_table *tab = gpurf_rf_table_alloc();
  assert_non_null(d);
  assert_non_null(tab);
  assert_ok(ctx, gpurf_rf_design_load(ctx, "gebhart-hw-rfc", d));
  assert_ok(ctx, gpurf_rf_design_table(ctx, d, tab));
  gpurf_technique *t = NULL;
  assert_ok(ctx, gpurf_technique_alloc(ctx, "rfc", &t));
  assert_ok(ctx, gpurf_technique_set(ctx, t, "entries", "2"));
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  gpurf_pipeline_params_from_design(&prm, d);
  gpurf_pipeline *p = NULL;
  gpurf_trace_reader *r = NULL;
  assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, tab, gpurf_technique_hooks(t), &p));
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, MICRO "rfc_evict.gtrace", &r));
  assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
  gpurf_energy_report *rep = test_report(ctx);
  gpurf_energy_report_in in = {1};
  assert_ok(ctx, gpurf_energy_report_get(ctx, gpurf_pipeline_energy(p), &in, rep));
  int rfc = gpurf_rf_table_find(tab, "rfc"), tags = gpurf_rf_table_find(tab, "rfc_tags");
  assert_true(rfc >= 0 && tags >= 0);
  int rd = gpurf_rf_table_find_event(tab, rfc, "read");
  int wr = gpurf_rf_table_find_event(tab, rfc, "write");
  int ck = gpurf_rf_table_find_event(tab, tags, "check");
  int up = gpurf_rf_table_find_event(tab, tags, "update");
  assert_int_equal(gpurf_energy_report_event_count(rep, rfc, rd), 5);
  assert_int_equal(gpurf_energy_report_event_count(rep, rfc, wr), 5);
  assert_int_equal(gpurf_energy_report_event_count(rep, tags, ck), 8);
  assert_int_equal(gpurf_energy_report_event_count(rep, tags, up), 5);
  gpurf_energy_report_free(rep);
  gpurf_trace_reader_free(r);
  gpurf_pipeline_free(p);
  gpurf_technique_free(t);
  gpurf_rf_table_free(tab);
  gpurf_rf_design_free(d);
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_evict_fifo), cmocka_unit_test(test_trace_hints),
      cmocka_unit_test(test_lru),        cmocka_unit_test(test_flush),
      cmocka_unit_test(test_options),    cmocka_unit_test(test_energy_events),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
