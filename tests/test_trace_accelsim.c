/* Accel-Sim traces: the two recorded traces, every line layout of the hand-
 * written ones, register widths and the opcode table. */
#include <stdlib.h>
#include <string.h>

#include "gpurf/trace.h"
#include "test_util.h"

#define TRACES GPURF_TEST_DATA_DIR "/traces"

/* Reads the whole trace, checking that each record is well formed. */
static void read_all(const char *path, gpurf_trace_stats *s) {
  gpurf_ctx *ctx = test_ctx();
  assert_ok(ctx, gpurf_trace_stats_file(ctx, path, s));
  gpurf_ctx_free(ctx);
}

static void recorded_traces_match_their_insts_headers(void **state) {
  (void)state;
  gpurf_trace_stats s;
  read_all(TRACES "/vectoradd-100-32-trace", &s);
  assert_int_equal(s.warp_instructions, 344);
  assert_int_equal(s.ctas, 1);
  assert_int_equal(s.warps, 32);
  assert_int_equal(s.registers_per_thread, 8);
  assert_int_equal(s.unknown_opcodes, 0);
  read_all(TRACES "/matrixmul-32-32-trace/kernel-1.traceg", &s);
  assert_int_equal(s.warp_instructions, 4416);
  assert_int_equal(s.ctas, 1);
  assert_int_equal(s.warps, 32);
  assert_int_equal(s.registers_per_thread, 30);
  assert_int_equal(s.class_count[GPURF_TRACE_CLASS_LD_SHARED], 1280); /* 1024 .32 + 256 .128 */
  assert_int_equal(s.class_count[GPURF_TRACE_CLASS_FP], 1024);
  assert_int_equal(s.class_count[GPURF_TRACE_CLASS_BARRIER], 128); /* BAR.SYNC, MEMBAR.CTA */
  assert_int_equal(s.unknown_opcodes, 0);
}

static void memcpy_lines_are_counted(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_trace_reader *r;
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, TRACES "/vectoradd-100-32-trace", &r));
  gpurf_trace_stats s;
  assert_ok(ctx, gpurf_trace_stats_reader(ctx, r, &s));
  uint64_t count, bytes;
  gpurf_trace_reader_memcpy(r, &count, &bytes);
  assert_int_equal(count, 3);
  assert_int_equal(bytes, 1200);
  assert_int_equal(gpurf_trace_reader_format(r), GPURF_TRACE_FORMAT_ACCELSIM);
  assert_string_equal(gpurf_trace_reader_kernel(r)->name, "_Z6vecAddIfEvPT_S1_S1_i");
  gpurf_trace_reader_free(r);
  gpurf_ctx_free(ctx);
}

/* Finds the first record at pc in the trace at path. */
static int find_pc(const char *path, uint32_t kernel, uint64_t pc, gpurf_trace_inst *out) {
  gpurf_ctx *ctx = test_ctx();
  gpurf_trace_reader *r;
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, path, &r));
  int rc, found = 0;
  while ((rc = gpurf_trace_next(ctx, r, out)) == GPURF_OK)
    if (out->kernel == kernel && out->pc == pc) {
      found = 1;
      break;
    }
  if (rc < 0) assert_ok(ctx, rc);
  gpurf_trace_reader_free(r);
  gpurf_ctx_free(ctx);
  return found;
}

static void widths_rz_and_matrixmul_quads(void **state) {
  (void)state;
  gpurf_trace_inst *in = malloc(sizeof *in);
  const char *mm = TRACES "/matrixmul-32-32-trace";
  assert_true(find_pc(mm, 0, 0x278, in)); /* R12 LDS.U.128 1 R2 16 1 0x0 0 */
  assert_string_equal(in->opcode, "LDS.U.128");
  assert_int_equal(in->dst[0].reg, 12);
  assert_int_equal(in->dst[0].width, 4);
  assert_int_equal(in->src[0].width, 1);
  assert_int_equal(in->mem, GPURF_TRACE_MEM_SHARED);
  assert_int_equal(in->mem_width, 16);
  assert_int_equal(in->n_dst_regs, 4);
  const char *va = TRACES "/vectoradd-100-32-trace";
  assert_true(find_pc(va, 0, 0x98, in)); /* R4 LDG.E.CG 1 R4 4 1 base 4 */
  assert_int_equal(in->src[0].width, 2); /* .E: 64-bit address pair R4:R5 */
  assert_int_equal(in->dst[0].width, 1);
  assert_int_equal(in->latency, GPURF_TRACE_LAT_LONG);
  assert_true(in->flags & GPURF_TRACE_HAS_ADDR);
  assert_int_equal(in->addr[0], 0x7f2b2d500000ULL);
  assert_int_equal(in->addr[31], 0x7f2b2d500000ULL + 31 * 4);
  assert_true(find_pc(va, 0, 0x28, in)); /* R3 XMAD.MRG 2 R0 R255 */
  assert_int_equal(in->src[1].reg, GPURF_TRACE_REG_ZERO);
  free(in);
}

static void old_format_v5_lineinfo_and_address_modes(void **state) {
  (void)state;
  const char *dir = TRACES "/handwritten";
  gpurf_trace_stats s;
  read_all(dir, &s);
  assert_int_equal(s.kernels, 2);
  assert_int_equal(s.warp_instructions, 10);
  gpurf_trace_inst *in = malloc(sizeof *in);
  /* old format: the tb/warp prefix is checked against the block headers */
  assert_true(find_pc(dir, 0, 0x18, in));
  assert_int_equal(in->cta[0], 1);
  assert_int_equal(in->warp, 1);
  assert_int_equal(in->mask, 0xffff);
  assert_int_equal(in->addr[15], 0x100 + 15 * 4);
  assert_int_equal(in->addr[16], 0);
  /* mode 0, one address per active lane, with a .64 pair and lineinfo */
  assert_true(find_pc(dir, 1, 0x10, in));
  assert_true(in->flags & GPURF_TRACE_HAS_LINE);
  assert_int_equal(in->line, 13);
  assert_int_equal(in->dst[0].width, 2);
  assert_int_equal(in->src[0].width, 2); /* sm_70: 64-bit addresses */
  assert_int_equal(in->addr[3], 0x7f0000000030ULL);
  /* mode 2: base then one delta per further active lane */
  assert_true(find_pc(dir, 1, 0x30, in));
  assert_int_equal(in->addr[0], 0x7f0000002000ULL);
  assert_int_equal(in->addr[1], 0x7f0000002008ULL);
  assert_int_equal(in->addr[2], 0x7f0000002004ULL);
  assert_int_equal(in->src[1].width, 1);
  /* .WIDE and the version-5 immediate */
  assert_true(find_pc(dir, 1, 0x40, in));
  assert_int_equal(in->dst[0].width, 2);
  assert_int_equal(in->src[2].width, 2);
  assert_true(in->flags & GPURF_TRACE_HAS_IMM);
  assert_int_equal(in->imm, -16);
  free(in);
}

static void opcode_table_and_width_rules(void **state) {
  (void)state;
  gpurf_trace_class c;
  gpurf_trace_latency l;
  gpurf_trace_mem m;
  assert_int_equal(gpurf_trace_classify("XMAD.PSL.CBCC", 61, &c, &l, &m), 1);
  assert_int_equal(c, GPURF_TRACE_CLASS_INT);
  assert_int_equal(gpurf_trace_classify("XMAD", 80, &c, &l, &m), 0); /* not an Ampere opcode */
  assert_int_equal(gpurf_trace_classify("IMAD.WIDE", 86, &c, &l, &m), 1);
  assert_int_equal(l, GPURF_TRACE_LAT_SHORT);
  assert_int_equal(gpurf_trace_classify("IMAD", 61, &c, &l, &m), 1);
  assert_int_equal(l, GPURF_TRACE_LAT_MEDIUM);
  assert_int_equal(gpurf_trace_classify("LDGSTS.E.BYPASS.128", 80, &c, &l, &m), 1);
  assert_int_equal(gpurf_trace_classify("HMMA.16816.F32", 75, &c, &l, &m), 1);
  assert_int_equal(c, GPURF_TRACE_CLASS_FP);
  assert_int_equal(gpurf_trace_classify("MUFU.RSQ", 70, &c, &l, &m), 1);
  assert_int_equal(c, GPURF_TRACE_CLASS_SFU);
  assert_int_equal(gpurf_trace_classify("TEX.B.LL", 61, &c, &l, &m), 1);
  assert_int_equal(m, GPURF_TRACE_MEM_TEXTURE);
  assert_int_equal(gpurf_trace_classify("FROBNICATE", 70, &c, &l, &m), 0);
  assert_int_equal(c, GPURF_TRACE_CLASS_OTHER);
  gpurf_trace_inst *in = calloc(1, sizeof *in);
  strcpy(in->opcode, "DFMA");
  in->n_dst = 1, in->n_src = 3;
  gpurf_trace_classify(in->opcode, 70, &in->op_class, &in->latency, &in->mem);
  gpurf_trace_infer_widths(in, 70);
  assert_int_equal(in->dst[0].width, 2);
  assert_int_equal(in->src[2].width, 2);
  strcpy(in->opcode, "F2F.F64.F32");
  in->n_src = 1;
  gpurf_trace_infer_widths(in, 70);
  assert_int_equal(in->dst[0].width, 2);
  assert_int_equal(in->src[0].width, 1);
  strcpy(in->opcode, "F2I.F64.TRUNC"); /* one float type: the source's */
  gpurf_trace_infer_widths(in, 70);
  assert_int_equal(in->dst[0].width, 1);
  assert_int_equal(in->src[0].width, 2);
  strcpy(in->opcode, "STG.E.128");
  in->n_dst = 0, in->n_src = 2;
  gpurf_trace_classify(in->opcode, 61, &in->op_class, &in->latency, &in->mem);
  gpurf_trace_infer_widths(in, 61);
  assert_int_equal(in->src[0].width, 2);
  assert_int_equal(in->src[1].width, 4);
  assert_int_equal(in->mem_width, 16);
  strcpy(in->opcode, "STS.64");
  gpurf_trace_classify(in->opcode, 70, &in->op_class, &in->latency, &in->mem);
  gpurf_trace_infer_widths(in, 70);
  assert_int_equal(in->src[0].width, 1);
  assert_int_equal(in->src[1].width, 2);
  free(in);
}

static void recorded_value_usage(void **state) {
  (void)state;
  /* vectorAdd, counted by hand from the trace: 236 register writes, 160 of
   * them read once; 280 register operands plus 32 RZ operands. */
  gpurf_trace_stats s;
  read_all(TRACES "/vectoradd-100-32-trace", &s);
  assert_int_equal(s.values, 236);
  assert_int_equal(s.reads_hist[1], 160);
  assert_int_equal(s.src_operands + s.rz_reads, 312);
  assert_true(s.live_fraction_mean > 0.0 && s.live_fraction_mean < 1.0);
  assert_int_equal(s.reads_classified, 0); /* no values in Accel-Sim traces */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(recorded_traces_match_their_insts_headers),
      cmocka_unit_test(memcpy_lines_are_counted),
      cmocka_unit_test(widths_rz_and_matrixmul_quads),
      cmocka_unit_test(old_format_v5_lineinfo_and_address_modes),
      cmocka_unit_test(opcode_table_and_width_rules),
      cmocka_unit_test(recorded_value_usage),
  };
  return cmocka_run_group_tests_name("trace_accelsim", tests, NULL, NULL);
}
