/* Bank stealing (Jing et al.) on hand-timed micro-traces, with the default
 * (GTX480) parameters of test_pipeline.c: 16 banks, bank (reg + warp) mod
 * 16, two schedulers (warp slot mod 2), GTO, ALU latency 4 on two ALU
 * pipelines, reads arbitrated the cycle after issue, a result bus of two.
 * An ALU instruction whose read is granted in cycle c is dispatched in c+1
 * and written in c+5; a run ends in the cycle after its last write. */
#include <string.h>

#include "test_util.h"

#include "gpurf/technique.h"

#define MICRO GPURF_TEST_DATA_DIR "/microtraces/"

typedef struct run {
  gpurf_pipeline_stats st;
  int n;
  char name[16][40];
  double value[16];
} run;

static uint64_t counter(const run *r, const char *name) {
  for (int i = 0; i < r->n; i++)
    if (!strcmp(r->name[i], name)) return (uint64_t)r->value[i];
  fail_msg("no counter %s", name);
  return 0;
}

/* "stealing", "read-stealing" (mode=read) or "write-stealing" (mode=write). */
static gpurf_technique *make(gpurf_ctx *ctx, const char *tech) {
  gpurf_technique *t = NULL;
  assert_ok(ctx, gpurf_technique_alloc(ctx, "stealing", &t));
  if (!strcmp(tech, "read-stealing")) assert_ok(ctx, gpurf_technique_set(ctx, t, "mode", "read"));
  if (!strcmp(tech, "write-stealing")) assert_ok(ctx, gpurf_technique_set(ctx, t, "mode", "write"));
  return t;
}

/* Runs a trace with a technique (NULL: the baseline) to its end. */
static void run_trace(const char *path, const char *tech, run *out) {
  gpurf_ctx *ctx = test_ctx();
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  gpurf_technique *t = tech ? make(ctx, tech) : NULL;
  gpurf_pipeline *p = NULL;
  gpurf_trace_reader *r = NULL;
  assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, NULL, t ? gpurf_technique_hooks(t) : NULL, &p));
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, path, &r));
  assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
  assert_ok(ctx, gpurf_pipeline_stats_get(p, &out->st));
  out->n = t ? gpurf_technique_counter_count(t) : 0;
  assert_true(out->n <= 16);
  for (int i = 0; i < out->n; i++) {
    snprintf(out->name[i], sizeof out->name[i], "%s", gpurf_technique_counter_name(t, i));
    out->value[i] = gpurf_technique_counter_value(t, i);
  }
  gpurf_trace_reader_free(r);
  gpurf_pipeline_free(p);
  gpurf_technique_free(t);
  gpurf_ctx_free(ctx);
}

/* stealread.gtrace (Fig. 6). Baseline: warps 0 and 1 issue in 0 and read
 * banks 1 and 2 in 1; warps 2 and 3 issue in 1 and both ask bank 10 in 2:
 * warp 2 wins, warp 3 reads in 3. Writes in 6, 6, 7, 8: 9 cycles, one
 * inter-read conflict. Read stealing: in cycle 0 the look-ahead warps 2
 * and 3 would meet in bank 10, which is idle in cycle 1, so warp 2 (the
 * first scheduler's) is read ahead with warps 0 and 1; scheduler 0 issues
 * nothing in 1 and warp 3 issues then, reading bank 10 alone in 2. Warps
 * 0 and 2 take the two ALUs in 2 (written in 6), 1 and 3 in 3 (written in
 * 7): 8 cycles, no conflict. */
static void test_read_conflict_removed(void **state) {
  (void)state;
  run r;
  run_trace(MICRO "stealread.gtrace", NULL, &r);
  assert_int_equal(r.st.cycles, 9);
  assert_int_equal(r.st.conflicts_inter_read, 1);
  run_trace(MICRO "stealread.gtrace", "read-stealing", &r);
  assert_int_equal(r.st.cycles, 8);
  assert_int_equal(r.st.conflicts_inter_read, 0);
  assert_int_equal(r.st.reads, 4); /* read stealing adds no read */
  assert_int_equal(counter(&r, "read_aheads"), 1);
  assert_int_equal(counter(&r, "stolen_reads"), 1);
  assert_rel(r.st.operand_fetch_penalty + 1.0, 1.0, 1e-12);
  run_trace(MICRO "stealread.gtrace", "stealing", &r);
  assert_int_equal(r.st.cycles, 8);
  run_trace(MICRO "stealread.gtrace", "write-stealing", &r);
  assert_int_equal(r.st.cycles, 9);
}

/* writeblock.gtrace: the MOV's result for R1 (bank 1) arrives in 5 while
 * the FADD's read of R17 waits for bank 1. Baseline: the write wins, the
 * read goes in 6, the FADD is written in 11: 12 cycles. Write stealing:
 * R1 is written to the free register of bank 2 (round robin from bank 1)
 * in 5 and the read of R17 goes in 5; in 6 bank 2 is idle and no read waits
 * at bank 1, so R1 is read from bank 2 and its write at home is granted in
 * 7; the FADD is written in 10: 11 cycles, one extra read and write. */
static void test_write_stolen_and_moved_home(void **state) {
  (void)state;
  run r;
  run_trace(MICRO "writeblock.gtrace", NULL, &r);
  assert_int_equal(r.st.cycles, 12);
  assert_int_equal(r.st.conflicts_inter_write, 1);
  run_trace(MICRO "writeblock.gtrace", "write-stealing", &r);
  assert_int_equal(r.st.cycles, 11);
  assert_int_equal(r.st.conflicts_inter_write + r.st.conflicts_inter_read, 0);
  assert_int_equal(r.st.reads, 2);
  assert_int_equal(r.st.writes, 3);
  assert_int_equal(r.st.bank_writes[2], 1); /* the stealing write */
  assert_int_equal(r.st.bank_reads[2], 1);  /* read back */
  assert_int_equal(r.st.bank_writes[1], 1); /* home */
  assert_int_equal(counter(&r, "writes_stolen"), 1);
  assert_int_equal(counter(&r, "moves_home"), 1);
  assert_int_equal(counter(&r, "writes_normal"), 1);
  assert_int_equal(counter(&r, "forced_writebacks"), 0);
}

/* stealraw.gtrace: writeblock.gtrace and then FADD R4 R1. Baseline: the
 * write of R1 in 5 releases the FADD R4 R1, issued in 5; in 6 it meets the
 * older read of R17 in bank 1 and reads in 7, written in 12: 13 cycles.
 * Write stealing: R1 goes to bank 2 in 5 and the FADD R4 R1 issuing in 5
 * reads it first (RAW): the write-back is forced. Bank 2 is busy with the
 * stealing write in 5, so R1 is read from it in 6; the forced write takes
 * bank 1 in 7, the read of R1 (held back in 6) loses to it and goes in 8;
 * written in 13: 14 cycles, a stall the baseline did not have. */
static void test_forced_writeback_on_raw(void **state) {
  (void)state;
  run r;
  run_trace(MICRO "stealraw.gtrace", NULL, &r);
  assert_int_equal(r.st.cycles, 13);
  assert_int_equal(r.st.conflicts_inter_read, 1);
  assert_int_equal(r.st.conflicts_inter_write, 1);
  run_trace(MICRO "stealraw.gtrace", "stealing", &r);
  assert_int_equal(r.st.cycles, 14);
  assert_int_equal(r.st.conflicts_inter_read, 0);
  assert_int_equal(r.st.conflicts_inter_write, 1); /* the read behind the forced write */
  assert_int_equal(counter(&r, "forced_writebacks"), 1);
  assert_int_equal(counter(&r, "moves_home"), 1);
}

/* Stops a run after `cycles` cycles and lets the technique's arbiter choose
 * among hand-made requests for `bank`. */
static int arbitrate_after(const char *trace, const char *tech, uint64_t cycles, int bank,
                           const gpurf_pipeline_req *reqs, int n, int n_calls) {
  gpurf_ctx *ctx = test_ctx();
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  gpurf_technique *t = make(ctx, tech);
  const gpurf_pipeline_hooks *hk = gpurf_technique_hooks(t);
  gpurf_pipeline *p = NULL;
  gpurf_trace_reader *r = NULL;
  assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, NULL, hk, &p));
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, trace, &r));
  assert_int_equal(gpurf_pipeline_run(ctx, p, r, cycles), GPURF_ERANGE);
  assert_int_equal(gpurf_pipeline_cycle(p), cycles);
  int g = -1;
  for (int i = 0; i < n_calls; i++) g = hk->arbitrate(hk->state, p, bank, reqs, n);
  gpurf_trace_reader_free(r);
  gpurf_pipeline_free(p);
  gpurf_technique_free(t);
  gpurf_ctx_free(ctx);
  return g;
}

/* forced write > normal read > stealing read > normal write (a stealing
 * write only takes a bank nobody asks for). writeblock.gtrace stopped
 * before cycle 7 has R1 of warp 0 on its way home to bank 1; stealread
 * stopped before cycle 1 has warp 2's reads stolen. Ages are chosen so
 * that age order would pick otherwise. */
static void test_priorities(void **state) {
  (void)state;
  const gpurf_pipeline_req home[] = {
      {1, 0, 0, 5, -1, 2}, /* normal write, oldest */
      {0, 1, 0, 9, 0, 3},  /* normal read */
      {1, 0, 0, 1, -1, 6}, /* the forced write of R1 */
  };
  assert_int_equal(arbitrate_after(MICRO "writeblock.gtrace", "stealing", 7, 1, home, 3, 1), 2);
  /* Once R1 is home a write of it is a normal write again. */
  assert_int_equal(arbitrate_after(MICRO "writeblock.gtrace", "stealing", 7, 1, home, 3, 2), 1);
  assert_int_equal(arbitrate_after(MICRO "writeblock.gtrace", "stealing", 7, 1, home, 2, 1), 1);
  const gpurf_pipeline_req ahead[] = {
      {1, 0, 0, 3, -1, 0}, /* normal write */
      {0, 1, 2, 8, 1, 0},  /* warp 2's stolen read */
      {0, 1, 1, 9, 2, 0},  /* a normal read */
  };
  assert_int_equal(arbitrate_after(MICRO "stealread.gtrace", "stealing", 1, 10, ahead, 3, 1), 2);
  assert_int_equal(arbitrate_after(MICRO "stealread.gtrace", "stealing", 1, 10, ahead, 2, 1), 1);
  /* Read stealing alone keeps the conventional order: writes first. */
  assert_int_equal(arbitrate_after(MICRO "stealread.gtrace", "read-stealing", 1, 10, ahead, 2, 1),
                   0);
  const gpurf_pipeline_req later[] = {{0, 1, 2, 8, 1, 0}, {0, 1, 1, 9, 2, 1}};
  assert_int_equal(arbitrate_after(MICRO "stealread.gtrace", "stealing", 1, 10, later, 2, 1), 1);
}

/* The costs reach the energy engine: on the 8-bank stealing design
 * (R1 and R17 share bank 1 there too) the stolen value's extra read and
 * write are bank events, and the arbiter has its five classes. */
static void test_energy_costs(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_rf_design d;
  gpurf_rf_table t;
  assert_ok(ctx, gpurf_rf_design_load(ctx, "jing-128k-8bk-stealing", &d));
  assert_ok(ctx, gpurf_rf_design_table(ctx, &d, &t));
  assert_int_equal(d.arbiter.classes, 5);
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  gpurf_pipeline_params_from_design(&prm, &d);
  gpurf_pipeline_params_from_table(&prm, &t);
  gpurf_technique *tech = make(ctx, "stealing");
  gpurf_pipeline *p = NULL;
  gpurf_trace_reader *r = NULL;
  assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, &t, gpurf_technique_hooks(tech), &p));
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, MICRO "writeblock.gtrace", &r));
  assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
  gpurf_energy_report *rep = NULL;
  assert_ok(ctx, gpurf_energy_report_alloc(ctx, &rep));
  gpurf_energy_report_in in = {5};
  assert_ok(ctx, gpurf_energy_report_get(ctx, gpurf_pipeline_energy(p), &in, rep));
  int bank = gpurf_rf_table_find(&t, "bank");
  assert_int_equal(gpurf_energy_report_event_count(rep, bank, 0), 2); /* R17, R1 read back */
  assert_int_equal(gpurf_energy_report_event_count(rep, bank, 1), 3); /* stolen, home, R3 */
  gpurf_energy_report_free(rep);
  gpurf_trace_reader_free(r);
  gpurf_pipeline_free(p);
  gpurf_technique_free(tech);
  gpurf_ctx_free(ctx);
}

/* Every instruction retires; bank reads and writes are the trace's plus
 * one read and one write per value moved home, and a stolen value is
 * moved home or dropped with its warp. */
static void test_conservation(void **state) {
  (void)state;
  const char *traces[] = {GPURF_TEST_DATA_DIR "/traces/matrixmul-32-32-trace",
                          GPURF_TEST_DATA_DIR "/traces/vectoradd-100-32-trace"};
  for (size_t i = 0; i < sizeof traces / sizeof *traces; i++) {
    run base, s;
    run_trace(traces[i], NULL, &base);
    run_trace(traces[i], "stealing", &s);
    assert_int_equal(s.st.warp_instructions, base.st.warp_instructions);
    assert_int_equal(s.st.issued, base.st.issued);
    uint64_t moved = counter(&s, "moves_home");
    assert_int_equal(s.st.reads, base.st.reads + moved);
    assert_int_equal(s.st.writes, base.st.writes + moved);
    assert_int_equal(counter(&s, "writes_stolen"), moved + counter(&s, "dead_values_dropped"));
    assert_int_equal(counter(&s, "writes_normal") + counter(&s, "writes_stolen"), base.st.writes);
  }
}

/* The technique by name, its option and its counters. */
static void test_registry(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  assert_non_null(gpurf_technique_summary("stealing"));
  gpurf_technique *t = NULL;
  assert_ok(ctx, gpurf_technique_alloc(ctx, "stealing", &t));
  assert_string_equal(gpurf_technique_hooks(t)->name, "stealing");
  assert_int_equal(gpurf_technique_set(ctx, t, "mode", "sideways"), GPURF_EINVAL);
  assert_string_equal(gpurf_ctx_error(ctx)->field, "mode");
  assert_int_equal(gpurf_technique_set(ctx, t, "entries", "2"), GPURF_ENOTFOUND);
  assert_ok(ctx, gpurf_technique_set(ctx, t, "mode", "both"));
  assert_int_equal(gpurf_technique_counter_count(t), 7);
  assert_string_equal(gpurf_technique_counter_name(t, 0), "read_aheads");
  gpurf_technique_free(t);
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_read_conflict_removed),
      cmocka_unit_test(test_write_stolen_and_moved_home),
      cmocka_unit_test(test_forced_writeback_on_raw),
      cmocka_unit_test(test_priorities),
      cmocka_unit_test(test_energy_costs),
      cmocka_unit_test(test_conservation),
      cmocka_unit_test(test_registry),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
