/* Dataflow over a hand-written loop with a divergent if-then
 * (tests/data/traces/dataflow.gtrace) and over the recorded matrixMul. */
#include <stdlib.h>
#include <string.h>

#include "gpurf/dataflow.h"
#include "gpurf/trace.h"
#include "test_util.h"

static gpurf_dataflow *analyse(gpurf_ctx *ctx, const char *path) {
  gpurf_trace_reader *r;
  gpurf_dataflow *df;
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, path, &r));
  assert_ok(ctx, gpurf_dataflow_alloc(ctx, &df));
  gpurf_trace_inst *in = malloc(sizeof *in);
  int rc;
  while ((rc = gpurf_trace_next(ctx, r, in)) == GPURF_OK) assert_ok(ctx, gpurf_dataflow_add(ctx, df, in));
  assert_int_equal(rc, GPURF_TRACE_END);
  assert_ok(ctx, gpurf_dataflow_analyze(ctx, df));
  free(in);
  gpurf_trace_reader_free(r);
  return df;
}

static const gpurf_dataflow_inst *at(const gpurf_dataflow *df, uint64_t pc) {
  long i = gpurf_dataflow_find_pc(df, pc);
  if (i < 0) fail_msg("no instruction at %llx", (unsigned long long)pc);
  return gpurf_dataflow_inst_at(df, (size_t)i);
}

static void loop_with_divergent_if(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_dataflow *df = analyse(ctx, GPURF_TEST_DATA_DIR "/traces/dataflow.gtrace");
  assert_int_equal(gpurf_dataflow_inst_count(df), 13);
  assert_int_equal(gpurf_dataflow_block_count(df), 5);
  assert_int_equal(at(df, 0x30)->executions, 2);
  /* the branch at 0x60 diverges; its paths reconverge at 0x90 */
  const gpurf_dataflow_block *b = gpurf_dataflow_block_at(df, at(df, 0x60)->block);
  assert_true(b->divergent);
  assert_int_equal(b->reconv_pc, 0x90);
  /* R3 dies inside the if-then: released at the reconvergence point, not
   * by its last read in the path (Jeon's per-branch release flag) */
  assert_true(gpurf_regset_has(&b->release_at_reconv, 3));
  assert_false(gpurf_regset_has(&b->release_at_reconv, 5));
  assert_int_equal(at(df, 0x70)->last_use, 0);
  /* per-instruction release flags */
  assert_int_equal(at(df, 0x50)->last_use, 0x1); /* R2 dies, R4 lives on */
  assert_int_equal(at(df, 0x90)->last_use, 0x2); /* R5 dies, R0 is loop-carried */
  assert_int_equal(at(df, 0xb0)->last_use, 0x3);
  /* the loop and its carried registers */
  assert_int_equal(gpurf_dataflow_loop_count(df), 1);
  const gpurf_dataflow_loop *L = gpurf_dataflow_loop_at(df, 0);
  assert_int_equal(gpurf_dataflow_block_at(df, L->header)->start_pc, 0x30);
  assert_true(gpurf_regset_has(&L->carried, 0));
  assert_true(gpurf_regset_has(&L->carried, 4));
  assert_false(gpurf_regset_has(&L->carried, 1));
  assert_true(gpurf_dataflow_block_at(df, L->header)->loop_header);
  /* strands: the loop header (backward target), the read of the loaded R2
   * and the code after the backward branch each start one */
  assert_int_equal(gpurf_dataflow_strand_count(df), 4);
  assert_true(at(df, 0x30)->strand_start & GPURF_STRAND_BACKWARD_TARGET);
  assert_true(at(df, 0x50)->strand_start & GPURF_STRAND_LONG_LATENCY);
  assert_true(at(df, 0x40)->strand_end);
  assert_true(at(df, 0xb0)->strand_start & GPURF_STRAND_AFTER_BACKWARD);
  assert_int_equal(at(df, 0x40)->strand_start, 0);
  /* def-use: R4 read at 0x50 comes from 0x10 (entry) or 0x80 (loop) */
  const uint32_t *defs;
  size_t nd = gpurf_dataflow_reaching_defs(df, (size_t)gpurf_dataflow_find_pc(df, 0x50), 1, &defs);
  assert_int_equal(nd, 2);
  uint64_t p0 = gpurf_dataflow_inst_at(df, defs[0])->pc, p1 = gpurf_dataflow_inst_at(df, defs[1])->pc;
  assert_true((p0 == 0x10 && p1 == 0x80) || (p0 == 0x80 && p1 == 0x10));
  /* liveness */
  assert_true(gpurf_regset_has(&at(df, 0x40)->live_out, 5));
  assert_false(gpurf_regset_has(&at(df, 0x90)->live_out, 5));
  gpurf_dataflow_free(df);
  gpurf_ctx_free(ctx);
}

static void recorded_matrixmul(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_dataflow *df =
      analyse(ctx, GPURF_TEST_DATA_DIR "/traces/matrixmul-32-32-trace/kernel-1.traceg");
  size_t n = gpurf_dataflow_inst_count(df);
  assert_true(n > 100 && n < 200);
  /* FFMA accumulates into R12 and the LDS.U.128 quad feeds it: the quad's
   * destinations are live after the load */
  const gpurf_dataflow_inst *lds = at(df, 0x278);
  for (unsigned r = 12; r < 16; r++) assert_true(gpurf_regset_has(&lds->live_out, r));
  /* every register read has a reaching definition or comes from entry, and
   * nothing live at entry except what the kernel never writes */
  const gpurf_dataflow_block *entry = gpurf_dataflow_block_at(df, 0);
  assert_false(gpurf_regset_has(&entry->live_in, 12));
  gpurf_dataflow_free(df);
  gpurf_ctx_free(ctx);
}

static void conflicting_pc_is_an_error(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_dataflow *df;
  assert_ok(ctx, gpurf_dataflow_alloc(ctx, &df));
  gpurf_trace_inst *in = calloc(1, sizeof *in);
  strcpy(in->opcode, "MOV");
  in->pc = 0x10;
  in->mask = 0xffffffffu;
  assert_ok(ctx, gpurf_dataflow_add(ctx, df, in));
  strcpy(in->opcode, "FADD");
  assert_int_equal(gpurf_dataflow_add(ctx, df, in), GPURF_EPARSE);
  assert_non_null(strstr(gpurf_ctx_error(ctx)->message, "two different instructions"));
  in->kernel = 1;
  assert_int_equal(gpurf_dataflow_add(ctx, df, in), GPURF_EINVAL);
  free(in);
  gpurf_dataflow_free(df);
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(loop_with_divergent_if),
      cmocka_unit_test(recorded_matrixmul),
      cmocka_unit_test(conflicting_pc_is_an_error),
  };
  return cmocka_run_group_tests_name("trace_dataflow", tests, NULL, NULL);
}
