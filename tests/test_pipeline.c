/* The register-file pipeline on hand-written micro-traces whose cycle
 * counts are worked out by hand in the comments, with the default
 * (GTX480) parameters: ALU latency 4, one cycle of bank read, writes first.
 *
 * Timing of one ALU instruction issued in cycle c: its reads are
 * arbitrated in c+1 and arrive in c+2, where it is dispatched; its result
 * is ready in c+2+4 = c+6 and written the same cycle. The write clears the
 * scoreboard before issue in that cycle, so a dependent instruction issues
 * in c+6 and reads the new value in c+7. A run ends in the cycle after the
 * last write. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

#define MICRO GPURF_TEST_DATA_DIR "/microtraces/"

static void run_trace(const char *path, const char *const *set, gpurf_pipeline_stats *st) {
  gpurf_ctx *ctx = test_ctx();
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  for (; set && *set; set += 2)
    assert_ok(ctx, gpurf_pipeline_params_set(ctx, &prm, set[0], set[1]));
  gpurf_pipeline *p = NULL;
  gpurf_trace_reader *r = NULL;
  assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, NULL, NULL, &p));
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, path, &r));
  assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
  assert_ok(ctx, gpurf_pipeline_stats_get(p, st));
  gpurf_trace_reader_free(r);
  gpurf_pipeline_free(p);
  gpurf_ctx_free(ctx);
}

/* Four dependent FADDs: one every latency + 2 cycles, issued in 0, 6, 12,
 * 18; the last is written in 24: 25 cycles. With latency 10: issued every
 * 12 cycles, the last written in 36 + 12 = 48: 49 cycles. The chain pays
 * its latency in full. */
static void test_chain(void **state) {
  (void)state;
  gpurf_pipeline_stats st;
  run_trace(MICRO "chain.gtrace", NULL, &st);
  assert_int_equal(st.cycles, 25);
  assert_int_equal(st.warp_instructions, 4);
  assert_int_equal(st.reads, 4);
  assert_int_equal(st.writes, 4);
  assert_int_equal(st.conflicts_inter_read + st.conflicts_inter_write + st.conflicts_intra, 0);
  assert_rel(st.operand_fetch_cycles, 2.0, 1e-12);
  assert_rel(st.operand_fetch_penalty + 1.0, 1.0, 1e-12);
  const char *const slow[] = {"latency_alu", "10", NULL};
  run_trace(MICRO "chain.gtrace", slow, &st);
  assert_int_equal(st.cycles, 49);
}

/* Two warps, one per scheduler, issue in cycle 0 and ask bank 1 in cycle 1.
 * Warp 0 wins (older request first in the queue) and is written in cycle 6;
 * warp 1 reads in cycle 2 and is written in cycle 7: 8 cycles, one
 * inter-read conflict. Reading another bank: both written in 6, 7 cycles. */
static void test_two_warps_one_bank(void **state) {
  (void)state;
  gpurf_pipeline_stats st;
  run_trace(MICRO "samebank.gtrace", NULL, &st);
  assert_int_equal(st.cycles, 8);
  assert_int_equal(st.conflicts_inter_read, 1);
  assert_int_equal(st.conflicts_inter_write + st.conflicts_intra, 0);
  assert_rel(st.operand_fetch_penalty, 0.5, 1e-12); /* one of two waited a cycle */
  run_trace(MICRO "otherbank.gtrace", NULL, &st);
  assert_int_equal(st.cycles, 7);
  assert_int_equal(st.conflicts_inter_read, 0);
}

/* Read cycles added between two runs (gpurf_pipeline_extend, as a
 * technique's attach does): the instructions fetched before are charged
 * the conflict-free fetch of their time, those after the longer one. Every
 * read crossed to a collector, and each access took its bank one cycle. */
static void test_extend_between_runs(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  gpurf_pipeline *p = NULL;
  gpurf_trace_reader *r = NULL;
  gpurf_pipeline_stats st;
  assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, NULL, NULL, &p));
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, MICRO "samebank.gtrace", &r));
  assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
  gpurf_trace_reader_free(r);
  assert_ok(ctx, gpurf_pipeline_stats_get(p, &st));
  const double n1 = (double)st.fetch_instructions;
  assert_rel(st.operand_fetch_penalty, 0.5, 1e-12);
  const int rc0 = gpurf_pipeline_get_params(p)->read_cycles, more = 2;
  assert_int_equal(gpurf_pipeline_extend(p, more, 0), GPURF_OK);
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, MICRO "samebank.gtrace", &r));
  assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
  gpurf_trace_reader_free(r);
  assert_ok(ctx, gpurf_pipeline_stats_get(p, &st));
  const double n = (double)st.fetch_instructions, sum = st.operand_fetch_cycles * n;
  assert_true(n > n1);
  const double want = (sum - n1 * (1 + rc0) - (n - n1) * (1 + rc0 + more)) / n;
  assert_rel(st.operand_fetch_penalty + 1.0, want + 1.0, 1e-12);
  assert_int_equal(st.crossbar_transfers, st.reads);
  double busy = 0.0;
  for (int b = 0; b < st.banks; b++) busy += st.bank_utilisation[b] * (double)st.cycles;
  assert_rel(busy, (double)(st.reads + st.writes), 1e-12);
  gpurf_pipeline_free(p);
  gpurf_ctx_free(ctx);
}

/* MOV R1 (no sources) issues in 0, dispatches in 1 and writes bank 1 in 5.
 * Three NOPs issue in 1-3; the FADD issues in 4 and asks bank 1 for R17 in
 * 5, loses to the write, reads in 6 and is written in 6 + 1 + 4 = 11: 12
 * cycles and one inter-write conflict. Reading R18 (bank 2): 11 cycles. */
static void test_write_blocks_read(void **state) {
  (void)state;
  gpurf_pipeline_stats st;
  run_trace(MICRO "writeblock.gtrace", NULL, &st);
  assert_int_equal(st.cycles, 12);
  assert_int_equal(st.conflicts_inter_write, 1);
  assert_int_equal(st.conflicts_inter_read + st.conflicts_intra, 0);
  run_trace(MICRO "writefree.gtrace", NULL, &st);
  assert_int_equal(st.cycles, 11);
  assert_int_equal(st.conflicts_inter_write, 0);
  /* Reads first: the FADD reads in 5 and the write of R1 waits a cycle
   * (writes are not conflicts); the FADD is written in 10: 11 cycles. */
  const char *const rf[] = {"arbiter", "reads_first", NULL};
  run_trace(MICRO "writeblock.gtrace", rf, &st);
  assert_int_equal(st.cycles, 11);
  assert_int_equal(st.conflicts_inter_write, 0);
}

/* A bank write taking 3 cycles (an STT-RAM bank): MOV's write of R1 holds
 * bank 1 in cycles 5-7, so the FADD's read of R17 loses three times and
 * reads in 8; dispatched in 9, its result of 13 holds bank 3 in 13-15 and
 * completes in 15: 16 cycles. */
static void test_slow_writes(void **state) {
  (void)state;
  gpurf_pipeline_stats st;
  const char *const slow[] = {"bank_write_cycles", "3", NULL};
  run_trace(MICRO "writeblock.gtrace", slow, &st);
  assert_int_equal(st.cycles, 16);
  assert_int_equal(st.conflicts_inter_write, 3);
  assert_rel(st.bank_utilisation[1], 4.0 / 16.0, 1e-12); /* the write and the read */
  /* The timing of a design's banks: WarRF's STT-RAM writes take 3.9 ns,
   * 3 cycles at 0.7 GHz; its reads one. */
  gpurf_ctx *ctx = test_ctx();
  gpurf_rf_design d;
  gpurf_rf_table t;
  assert_ok(ctx, gpurf_rf_design_load(ctx, "warrf-stt", &d));
  assert_ok(ctx, gpurf_rf_design_table(ctx, &d, &t));
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  gpurf_pipeline_params_from_table(&prm, &t);
  assert_int_equal(prm.bank_write_cycles, 3);
  assert_int_equal(prm.bank_read_cycles, 1);
  gpurf_ctx_free(ctx);
}

/* R1 and R17 of one instruction share bank 1: read in cycles 1 and 2,
 * dispatched in 3, written in 7: 8 cycles, one intra-instruction conflict. */
static void test_intra(void **state) {
  (void)state;
  gpurf_pipeline_stats st;
  run_trace(MICRO "intra.gtrace", NULL, &st);
  assert_int_equal(st.cycles, 8);
  assert_int_equal(st.conflicts_intra, 1);
  assert_int_equal(st.reads, 2);
}

/* Two one-warp CTAs run side by side (25 cycles, as chain.gtrace); with one
 * CTA at a time the second is admitted in cycle 25 and ends in 50. */
static void test_cta_limit(void **state) {
  (void)state;
  gpurf_pipeline_stats st;
  run_trace(MICRO "twocta.gtrace", NULL, &st);
  assert_int_equal(st.cycles, 25);
  assert_int_equal(st.ctas, 2);
  const char *const one[] = {"max_ctas", "1", NULL};
  run_trace(MICRO "twocta.gtrace", one, &st);
  assert_int_equal(st.cycles, 50);
}

/* Warp 1 issues its chain in 0, 6, 12 and its BAR (no operands) in 13,
 * which releases warp 0, waiting there since cycle 0; scheduler 0 has
 * already passed in 13, so warp 0's FADD issues in 14 (written in 20).
 * Warp 1's last FADD waits for R3, written in 12 + 6 = 18, issues then and
 * is written in 24: 25 cycles. */
static void test_barrier(void **state) {
  (void)state;
  gpurf_pipeline_stats st;
  run_trace(MICRO "barrier.gtrace", NULL, &st);
  assert_int_equal(st.cycles, 25);
  assert_int_equal(st.warp_instructions, 7);
  /* Scheduler 0 holds only warp 0: at the barrier in cycles 1-13. */
  assert_int_equal(st.stalls[GPURF_PIPELINE_STALL_BARRIER], 13);
}

/* Warp 1 never reaches the barrier: its chain issues in 0, 6 and 12, and
 * the write of R3 in 18 retires its last instruction, which releases warp 0
 * (waiting since cycle 0) in the same cycle, before issue: its FADD issues
 * in 18 and is written in 24, 25 cycles; scheduler 0 counts the barrier in
 * cycles 1-17. Warp 0 must not keep its stall reason past the barrier. */
static void test_barrier_exit(void **state) {
  (void)state;
  gpurf_pipeline_stats st;
  run_trace(MICRO "barrier_exit.gtrace", NULL, &st);
  assert_int_equal(st.cycles, 25);
  assert_int_equal(st.warp_instructions, 5);
  assert_int_equal(st.stalls[GPURF_PIPELINE_STALL_BARRIER], 17);
}

/* Distinct non-RZ source and destination registers, read from the trace. */
static void count_regs(const char *path, uint64_t *insts, uint64_t *reads, uint64_t *writes) {
  gpurf_ctx *ctx = test_ctx();
  gpurf_trace_reader *r = NULL;
  gpurf_trace_inst *in = malloc(sizeof *in);
  assert_non_null(in);
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, path, &r));
  *insts = *reads = *writes = 0;
  while (gpurf_trace_next(ctx, r, in) == GPURF_OK) {
    uint8_t seen[256] = {0}, wseen[256] = {0};
    (*insts)++;
    for (int i = 0; i < in->n_src; i++)
      for (int k = 0; k < in->src[i].width; k++) {
        int reg = in->src[i].reg + k;
        if (in->src[i].reg < GPURF_TRACE_NUM_REGS && reg < GPURF_TRACE_NUM_REGS && !seen[reg]++)
          (*reads)++;
      }
    for (int i = 0; i < in->n_dst; i++)
      for (int k = 0; k < in->dst[i].width; k++) {
        int reg = in->dst[i].reg + k;
        if (in->dst[i].reg < GPURF_TRACE_NUM_REGS && reg < GPURF_TRACE_NUM_REGS && !wseen[reg]++)
          (*writes)++;
      }
  }
  free(in);
  gpurf_trace_reader_free(r);
  gpurf_ctx_free(ctx);
}

/* Every instruction issued and retired once; bank reads and writes are the
 * registers the trace names; per-bank counts add up. */
static void check_conservation(const char *path, const char *const *set) {
  gpurf_pipeline_stats st;
  run_trace(path, set, &st);
  uint64_t insts, reads, writes;
  count_regs(path, &insts, &reads, &writes);
  assert_int_equal(st.issued, insts);
  assert_int_equal(st.warp_instructions, insts);
  assert_int_equal(st.reads, reads);
  assert_int_equal(st.writes, writes);
  uint64_t br = 0, bw = 0;
  for (int b = 0; b < st.banks; b++) {
    br += st.bank_reads[b], bw += st.bank_writes[b];
    assert_true(st.bank_utilisation[b] >= 0.0 && st.bank_utilisation[b] <= 1.0);
  }
  assert_int_equal(br, reads);
  assert_int_equal(bw, writes);
  assert_int_equal(st.crossbar_transfers, reads);
  /* Each scheduler either issues or stalls for one reason every cycle. */
  uint64_t stalls = 0;
  for (int i = 0; i < st.n_stalls; i++) stalls += st.stalls[i];
  assert_int_equal(stalls + st.issued, st.cycles * 2);
  assert_true(st.ipc > 0.0 && st.ipc <= 2.0);
}

static void test_conservation(void **state) {
  (void)state;
  const char *const lrr[] = {"policy", "lrr", NULL};
  const char *const two[] = {"policy", "two_level", "active_warps", "2", NULL};
  const char *const tight[] = {"collectors_sp", "1", "collectors_mem", "1", "banks", "2", NULL};
  const char *traces[] = {GPURF_TEST_DATA_DIR "/traces/matrixmul-32-32-trace",
                          GPURF_TEST_DATA_DIR "/traces/vectoradd-100-32-trace",
                          GPURF_TEST_DATA_DIR "/traces/dataflow.gtrace", MICRO "barrier.gtrace"};
  for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
    check_conservation(traces[i], NULL);
    check_conservation(traces[i], lrr);
    check_conservation(traces[i], two);
    check_conservation(traces[i], tight);
  }
}

/* Every synthetic preset: all issued and retired, IPC within the issue
 * width (one instruction per scheduler), each bank busy 0-100% of cycles. */
static void test_presets(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  for (const gpurf_trace_preset_info *pi = gpurf_trace_gen_presets(); pi->name; pi++) {
    gpurf_trace_gen_params g = {pi->name, 7, 0, 0, 0, -1};
    gpurf_trace_stats ts;
    gpurf_trace_reader *r = NULL;
    assert_ok(ctx, gpurf_trace_gen_alloc(ctx, &g, &r));
    assert_ok(ctx, gpurf_trace_stats_reader(ctx, r, &ts));
    gpurf_trace_reader_free(r);
    gpurf_pipeline *p = NULL;
    assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, NULL, NULL, &p));
    assert_ok(ctx, gpurf_trace_gen_alloc(ctx, &g, &r));
    assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
    gpurf_pipeline_stats st;
    assert_ok(ctx, gpurf_pipeline_stats_get(p, &st));
    assert_int_equal(st.issued, ts.warp_instructions);
    assert_int_equal(st.warp_instructions, ts.warp_instructions);
    assert_true(st.ipc > 0.0 && st.ipc <= prm.schedulers);
    for (int b = 0; b < st.banks; b++)
      assert_true(st.bank_utilisation[b] >= 0.0 && st.bank_utilisation[b] <= 1.0);
    gpurf_trace_reader_free(r);
    gpurf_pipeline_free(p);
  }
  gpurf_ctx_free(ctx);
}

/* Memory follows the CTAs resident, not the trace: 64 CTAs of 8 warps of
 * 256 instructions, at most 6 CTAs resident (48 warps) and one read ahead. */
static void test_memory_bound(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  gpurf_trace_gen_params g = {"compute", 3, 64, 8, 256, 0};
  gpurf_trace_reader *r = NULL;
  gpurf_pipeline *p = NULL;
  assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, NULL, NULL, &p));
  assert_ok(ctx, gpurf_trace_gen_alloc(ctx, &g, &r));
  assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
  gpurf_pipeline_stats st;
  assert_ok(ctx, gpurf_pipeline_stats_get(p, &st));
  assert_int_equal(st.warp_instructions, 64 * 8 * 256);
  assert_int_equal(st.ctas, 64);
  assert_true(st.max_buffered <= 7 * 8 * 256);
  gpurf_trace_reader_free(r);
  gpurf_pipeline_free(p);
  gpurf_ctx_free(ctx);
}

/* Energy: the engine sees one bank read per register read, one write per
 * register written, one crossbar transfer per read. */
static void test_energy(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_rf_design d;
  gpurf_rf_table t;
  assert_ok(ctx, gpurf_rf_design_load(ctx, "jing-128k-16bk-straight", &d));
  assert_ok(ctx, gpurf_rf_design_table(ctx, &d, &t));
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  gpurf_pipeline_params_from_design(&prm, &d);
  gpurf_pipeline *p = NULL;
  gpurf_trace_reader *r = NULL;
  assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, &t, NULL, &p));
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, MICRO "intra.gtrace", &r));
  assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
  gpurf_energy_report *rep = test_report(ctx);
  gpurf_energy_report_in in = {1};
  assert_ok(ctx, gpurf_energy_report_get(ctx, gpurf_pipeline_energy(p), &in, rep));
  assert_int_equal(gpurf_energy_report_cycles(rep), 8);
  int bank = gpurf_rf_table_find(&t, "bank"), xbar = gpurf_rf_table_find(&t, "crossbar");
  assert_true(bank >= 0 && xbar >= 0);
  assert_int_equal(gpurf_energy_report_event_count(rep, bank, 0), 2); /* read */
  assert_int_equal(gpurf_energy_report_event_count(rep, bank, 1), 1); /* write */
  assert_int_equal(gpurf_energy_report_event_count(rep, xbar, 0), 2);
  assert_rel(gpurf_energy_report_event_energy_j(rep, bank, 0),
             2 * t.components[bank].events[0].energy_j, 1e-12);
  gpurf_trace_reader_free(r);
  gpurf_pipeline_free(p);
  gpurf_energy_report_free(rep);
  gpurf_ctx_free(ctx);
}

/* A technique that puts every register in bank 0, declines to issue in
 * cycle 0 under a stall reason of its own, and sees look-ahead candidates. */
typedef struct probe {
  int stall, lookaheads, declined;
} probe;

static int probe_attach(gpurf_ctx *ctx, gpurf_pipeline *p, void *state) {
  return gpurf_pipeline_add_stall(ctx, p, "probe", &((probe *)state)->stall);
}

static int probe_select(void *state, gpurf_pipeline *p, const gpurf_pipeline_select *s) {
  probe *pr = state;
  pr->lookaheads += s->lookahead >= 0;
  if (s->cycle == 0 && s->candidate >= 0) {
    pr->declined++;
    gpurf_pipeline_count_stall(p, pr->stall, 1);
    return -1;
  }
  return s->candidate;
}

static int probe_map(void *state, gpurf_pipeline *p, int w, uint32_t gw, int reg, int is_write) {
  (void)state, (void)p, (void)w, (void)gw, (void)reg, (void)is_write;
  return 0;
}

static void test_hooks(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  probe pr = {0, 0, 0};
  gpurf_pipeline_hooks hk = {"probe",   &pr,  probe_attach, probe_select, NULL,
                             probe_map, NULL, NULL,         NULL,         NULL,
                             NULL,      NULL, NULL, NULL, NULL};
  gpurf_pipeline *p = NULL;
  gpurf_trace_reader *r = NULL;
  assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, NULL, &hk, &p));
  /* otherbank.gtrace: both reads now go to bank 0, and issue starts in 1. */
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, MICRO "otherbank.gtrace", &r));
  assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
  gpurf_pipeline_stats st;
  assert_ok(ctx, gpurf_pipeline_stats_get(p, &st));
  assert_int_equal(st.cycles, 9);
  assert_int_equal(st.conflicts_inter_read, 1);
  assert_int_equal(pr.declined, 2);
  assert_int_equal(st.n_stalls, GPURF_PIPELINE_STALL_BUILTIN + 1);
  assert_string_equal(st.stall_name[pr.stall], "probe");
  assert_int_equal(st.stalls[pr.stall], 2);
  assert_int_equal(st.stalls[GPURF_PIPELINE_STALL_HOOK], 2);
  gpurf_trace_reader_free(r);
  gpurf_pipeline_free(p);
  gpurf_ctx_free(ctx);
}

/* The design's sm section may carry scheduler and collector counts. */
static void write_design(const char *path, const char *extra) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f,
          "design: t\nsource: test\ntech: 40nm\ndevice: hp\ntemp_k: 360\nclock_hz: 7e8\n"
          "sm:\n  warps: 32\n  threads_per_warp: 32\n  registers: 16384\n%s"
          "banks:\n  - name: bank\n    cell: sram\n    ports: 1rw\n    count: 8\n"
          "    entries: 64\n    width_bits: 1024\n",
          extra);
  fclose(f);
}

/* The share hook (partial bank occupancy) on writeblock.gtrace with 3-cycle
 * writes: allowing every read beside a write lets the FADD read R17 in 5
 * beside the MOV's write of R1 (test_slow_writes: it waited until 8), so
 * its result of 10 completes in 12: 13 cycles, no conflict. A technique
 * arbitrate() chooses among the allowed reads (here: refuses them, and the
 * read waits as without the hook). */
static int share_all(void *state, gpurf_pipeline *p, int bank, const gpurf_pipeline_req *held,
                     const gpurf_pipeline_req *req) {
  (void)state, (void)p, (void)bank;
  return held->is_write && !req->is_write;
}

static int refuse_shared(void *state, gpurf_pipeline *p, int bank, const gpurf_pipeline_req *reqs,
                         int n) {
  int *calls = state;
  (void)bank;
  if (gpurf_pipeline_cycle(p) >= 5 && gpurf_pipeline_cycle(p) <= 7 && n == 1 && !reqs[0].is_write) {
    (*calls)++;
    return -1;
  }
  return gpurf_pipeline_baseline_hooks()->arbitrate(NULL, p, bank, reqs, n);
}

static void test_share_hook(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  for (int k = 0; k < 2; k++) {
    gpurf_pipeline_params prm;
    gpurf_pipeline_params_init(&prm);
    prm.bank_write_cycles = 3;
    int calls = 0;
    gpurf_pipeline_hooks hk = {"share", &calls, NULL, NULL, k ? refuse_shared : NULL,
                               NULL,    NULL,   NULL, NULL, share_all,
                               NULL,    NULL,   NULL, NULL, NULL};
    gpurf_pipeline *p = NULL;
    gpurf_trace_reader *r = NULL;
    assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, NULL, &hk, &p));
    assert_ok(ctx, gpurf_trace_reader_alloc(ctx, MICRO "writeblock.gtrace", &r));
    assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
    gpurf_pipeline_stats st;
    assert_ok(ctx, gpurf_pipeline_stats_get(p, &st));
    assert_int_equal(st.cycles, k ? 16 : 13);
    assert_int_equal(st.conflicts_inter_write, k ? 3 : 0);
    assert_int_equal(calls, k ? 3 : 0);
    gpurf_trace_reader_free(r);
    gpurf_pipeline_free(p);
  }
  gpurf_ctx_free(ctx);
}

static void test_design_sm_keys(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  char path[512];
  snprintf(path, sizeof path, "%s/pipeline_design_%ld.yaml", GPURF_TEST_TMP_DIR, (long)getpid());
  write_design(path,
               "  schedulers: 4\n  policy: two_level\n  collectors_sp: 3\n  collectors_mem: 1\n");
  gpurf_rf_design d;
  assert_ok(ctx, gpurf_rf_design_load(ctx, path, &d));
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  gpurf_pipeline_params_from_design(&prm, &d);
  assert_int_equal(prm.schedulers, 4);
  assert_int_equal(prm.policy, GPURF_PIPELINE_TWO_LEVEL);
  assert_int_equal(prm.collectors[GPURF_PIPELINE_CU_SP], 3);
  assert_int_equal(prm.collectors[GPURF_PIPELINE_CU_SFU], 8); /* not given: the default */
  assert_int_equal(prm.collectors[GPURF_PIPELINE_CU_MEM], 1);
  assert_int_equal(prm.max_warps, 32);
  assert_int_equal(prm.banks, 8);
  assert_int_equal(prm.registers, 16384);
  write_design(path, "  policy: fifo\n");
  assert_int_equal(gpurf_rf_design_load(ctx, path, &d), GPURF_ESCHEMA);
  assert_non_null(strstr(gpurf_ctx_error(ctx)->message, "policy 'fifo'"));
  assert_int_equal(gpurf_ctx_error(ctx)->line, 11);
  remove(path);
  gpurf_ctx_free(ctx);
}

static void test_params(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  assert_int_equal(prm.registers, 32768);
  assert_int_equal(prm.banks, 16);
  assert_int_equal(prm.max_warps, 48);
  assert_int_equal(prm.schedulers, 2);
  assert_int_equal(prm.policy, GPURF_PIPELINE_GTO);
  assert_int_equal(prm.collectors[GPURF_PIPELINE_CU_SP], 6);
  assert_int_equal(prm.collectors[GPURF_PIPELINE_CU_SFU], 8);
  assert_int_equal(prm.collectors[GPURF_PIPELINE_CU_MEM], 2);
  assert_ok(ctx, gpurf_pipeline_params_check(ctx, &prm));
  assert_ok(ctx, gpurf_pipeline_params_set(ctx, &prm, "policy", "two_level"));
  assert_int_equal(prm.policy, GPURF_PIPELINE_TWO_LEVEL);
  assert_int_equal(gpurf_pipeline_params_set(ctx, &prm, "policy", "fifo"), GPURF_EINVAL);
  assert_int_equal(gpurf_pipeline_params_set(ctx, &prm, "banks", "0"), GPURF_EINVAL);
  assert_int_equal(gpurf_pipeline_params_set(ctx, &prm, "banks", "2.5"), GPURF_EINVAL);
  assert_int_equal(gpurf_pipeline_params_set(ctx, &prm, "nonsense", "1"), GPURF_ENOTFOUND);
  for (const char *const *k = gpurf_pipeline_param_names(); *k; k++) {
    gpurf_pipeline_params q;
    gpurf_pipeline_params_init(&q);
    int rc = gpurf_pipeline_params_set(ctx, &q, *k, "1");
    /* Every listed key is known; word-valued keys refuse a number. */
    assert_true(rc == GPURF_OK || rc == GPURF_EINVAL);
  }
  prm.schedulers = 0;
  assert_int_equal(gpurf_pipeline_params_check(ctx, &prm), GPURF_ERANGE);
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_params),
      cmocka_unit_test(test_design_sm_keys),
      cmocka_unit_test(test_chain),
      cmocka_unit_test(test_two_warps_one_bank),
      cmocka_unit_test(test_write_blocks_read),
      cmocka_unit_test(test_intra),
      cmocka_unit_test(test_slow_writes),
      cmocka_unit_test(test_cta_limit),
      cmocka_unit_test(test_barrier),
      cmocka_unit_test(test_barrier_exit),
      cmocka_unit_test(test_conservation),
      cmocka_unit_test(test_presets),
      cmocka_unit_test(test_memory_bound),
      cmocka_unit_test(test_energy),
      cmocka_unit_test(test_extend_between_runs),
      cmocka_unit_test(test_hooks),          cmocka_unit_test(test_share_hook),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
