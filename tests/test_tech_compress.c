/* SIMTight's compressed register file: detection on hand-made vectors
 * (uniform, each stride, negative base, carries, partial writes), the
 * expansion and merge of a partial write, the free-slot stack, and on a
 * micro-trace the spill mode entered and left with hand-counted slots and
 * an unspill. */
#include <math.h>
#include <string.h>

#include "test_util.h"

#include "gpurf/technique.h"
#include "pipeline/tech/compress_model.h"

#define FULL 0xffffffffu

static void affine(uint32_t *v, uint32_t base, uint32_t stride) {
  for (int i = 0; i < CRFM_LANES; i++) v[i] = base + (uint32_t)i * stride;
}

static void test_detect_uniform(void **state) {
  (void)state;
  uint32_t v[CRFM_LANES];
  affine(v, 0xdeadbeefu, 0);
  crfm_value c = crfm_detect(v, FULL);
  assert_int_equal(c.kind, CRFM_UNIFORM);
  assert_int_equal(c.base, 0xdeadbeefu);
  assert_int_equal(c.stride, 0);
  v[31] ^= 1u;
  assert_int_equal(crfm_detect(v, FULL).kind, CRFM_VECTOR);
}

static void test_detect_strides(void **state) {
  (void)state;
  uint32_t v[CRFM_LANES];
  static const uint32_t strides[] = {1, 2, 4};
  for (int k = 0; k < 3; k++) {
    uint32_t s = strides[k];
    affine(v, 0x1000u, s); /* 0x1000 is a multiple of 32 s */
    crfm_value c = crfm_detect(v, FULL);
    assert_int_equal(c.kind, CRFM_AFFINE);
    assert_int_equal(c.base, 0x1000u);
    assert_int_equal(c.stride, s);
    assert_int_equal(crfm_stride_of_code(crfm_stride_code(s)), s);
  }
  /* Stride 8 has no code: a vector. */
  affine(v, 0x1000u, 8);
  assert_int_equal(crfm_detect(v, FULL).kind, CRFM_VECTOR);
  /* A base that is not a multiple of 32 s: the low bits would carry. */
  affine(v, 0x7f0u, 1);
  assert_int_equal(crfm_detect(v, FULL).kind, CRFM_VECTOR);
  affine(v, 0x1020u, 2); /* 0x1020 mod 64 = 32 */
  assert_int_equal(crfm_detect(v, FULL).kind, CRFM_VECTOR);
}

static void test_detect_negative(void **state) {
  (void)state;
  uint32_t v[CRFM_LANES];
  affine(v, (uint32_t)-128, 4); /* -128 + 4 i: 0xffffff80 is a multiple of 128 */
  crfm_value c = crfm_detect(v, FULL);
  assert_int_equal(c.kind, CRFM_AFFINE);
  assert_int_equal(c.base, 0xffffff80u);
  assert_int_equal(c.stride, 4);
  affine(v, (uint32_t)-100, 1); /* not aligned */
  assert_int_equal(crfm_detect(v, FULL).kind, CRFM_VECTOR);
  affine(v, 0x1000u + 31u, (uint32_t)-1); /* a falling sequence */
  assert_int_equal(crfm_detect(v, FULL).kind, CRFM_VECTOR);
  affine(v, (uint32_t)-1, 0);
  assert_int_equal(crfm_detect(v, FULL).kind, CRFM_UNIFORM);
}

static void test_partial(void **state) {
  (void)state;
  uint32_t v[CRFM_LANES], old[CRFM_LANES];
  affine(v, 5, 0);
  /* Uniform on its active lanes, but the others keep the old value. */
  assert_int_equal(crfm_detect(v, 0x0000ffffu).kind, CRFM_VECTOR);
  crfm_value o = {CRFM_AFFINE, 100, 2};
  crfm_expand(&o, old);
  assert_int_equal(old[0], 100);
  assert_int_equal(old[31], 162);
  crfm_merge(old, v, 0x0000ffffu);
  for (int i = 0; i < 16; i++) assert_int_equal(old[i], 5);
  for (int i = 16; i < 32; i++) assert_int_equal(old[i], 100 + 2 * i);
  assert_int_equal(crfm_detect(old, FULL).kind, CRFM_VECTOR);
  /* The merge of a uniform into the same uniform compresses again. */
  crfm_value u = {CRFM_UNIFORM, 5, 0};
  crfm_expand(&u, old);
  crfm_merge(old, v, 0x00ff00ffu);
  assert_int_equal(crfm_detect(old, FULL).kind, CRFM_UNIFORM);
}

static void test_stack(void **state) {
  (void)state;
  crfm_stack s;
  assert_int_equal(crfm_stack_init(&s, 4), 0);
  for (int i = 0; i < 4; i++) assert_int_equal(crfm_stack_pop(&s), i);
  assert_int_equal(crfm_stack_pop(&s), -1);
  assert_int_equal(crfm_stack_push(&s, 2), 0);
  assert_int_equal(crfm_stack_push(&s, 0), 0);
  assert_int_equal(crfm_stack_pop(&s), 0);
  assert_int_equal(crfm_stack_pop(&s), 2);
  for (int i = 0; i < 4; i++) assert_int_equal(crfm_stack_push(&s, i), 0);
  assert_int_equal(crfm_stack_push(&s, 9), -1);
  crfm_stack_fini(&s);
}

static double counter(gpurf_technique *t, const char *name) {
  int n = gpurf_technique_counter_count(t);
  for (int i = 0; i < n; i++)
    if (!strcmp(gpurf_technique_counter_name(t, i), name)) return gpurf_technique_counter_value(t, i);
  fail_msg("no counter %s", name);
  return NAN;
}

/* One warp on the SIMTight core with a 4-slot VRF (threshold 1). */
static gpurf_technique *run_spill(gpurf_ctx *ctx, const char *policy, gpurf_pipeline_stats *st) {
  gpurf_pipeline_params prm;
  assert_int_equal(gpurf_pipeline_params_core(&prm, "simtight"), GPURF_OK);
  prm.max_warps = 1;
  prm.max_threads = 32;
  gpurf_technique *t = NULL;
  assert_ok(ctx, gpurf_technique_alloc(ctx, "compress", &t));
  assert_ok(ctx, gpurf_technique_set(ctx, t, "vrf_regs", "4"));
  assert_ok(ctx, gpurf_technique_set(ctx, t, "policy", policy));
  gpurf_trace_reader *r = NULL;
  gpurf_pipeline *p = NULL;
  assert_ok(ctx, gpurf_trace_reader_alloc(
                     ctx, GPURF_TEST_DATA_DIR "/microtraces/compress_spill.gtrace", &r));
  assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, NULL, gpurf_technique_hooks(t), &p));
  assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
  assert_ok(ctx, gpurf_pipeline_stats_get(p, st));
  gpurf_pipeline_free(p);
  gpurf_trace_reader_free(r);
  return t;
}

static void test_spill_microtrace(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_pipeline_stats st;
  gpurf_technique *t = run_spill(ctx, "rr", &st);
  assert_int_equal(st.warp_instructions, 6);
  /* R1..R4 fill the 4 slots (free 0 < 1 warp: spill mode). The first IADD
   * reads R1, R2: round robin passes slots 0, 1 and spills R3 (slot 2);
   * free 1, the mode is left, R5 takes slot 2. The second IADD spills R4
   * (slot 3), then fetches R3 back into slot 3 (free 0 again), spills R2
   * (slot 1; slot 0 is its operand R1) and runs; R6 is uniform. */
  assert_rel(counter(t, "vrf_used_max"), 4, 0);
  assert_rel(counter(t, "spills"), 3, 0);
  assert_rel(counter(t, "fills"), 1, 0);
  assert_rel(counter(t, "spill_mode_entries"), 3, 0);
  assert_rel(counter(t, "writes_vector"), 5, 0);
  assert_rel(counter(t, "writes_uniform"), 1, 0);
  assert_rel(counter(t, "vrf_overflows"), 0, 0);
  /* A register is 128 B: two 64-byte blocks each way. */
  assert_rel(counter(t, "mem_accesses_spill"), 8, 0);
  /* Pops: 5 vector writes and a fill; pushes: 3 spills. */
  assert_rel(counter(t, "stack_pops"), 6, 0);
  assert_rel(counter(t, "stack_pushes"), 3, 0);
  gpurf_technique_free(t);
  gpurf_ctx_free(ctx);
}

/* Without a size limit nothing spills, and the same trace runs faster. */
static void test_no_limit(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_pipeline_stats a, b;
  gpurf_technique *t = run_spill(ctx, "plru", &a);
  gpurf_technique_free(t);
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_core(&prm, "simtight");
  prm.max_warps = 1;
  prm.max_threads = 32;
  assert_ok(ctx, gpurf_technique_alloc(ctx, "compress", &t));
  gpurf_trace_reader *r = NULL;
  gpurf_pipeline *p = NULL;
  assert_ok(ctx, gpurf_trace_reader_alloc(
                     ctx, GPURF_TEST_DATA_DIR "/microtraces/compress_spill.gtrace", &r));
  assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, NULL, gpurf_technique_hooks(t), &p));
  assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
  assert_ok(ctx, gpurf_pipeline_stats_get(p, &b));
  assert_rel(counter(t, "spills"), 0, 0);
  assert_rel(counter(t, "vrf_used_max"), 5, 0);
  assert_true(b.cycles < a.cycles);
  gpurf_pipeline_free(p);
  gpurf_trace_reader_free(r);
  gpurf_technique_free(t);
  gpurf_ctx_free(ctx);
}

/* 64 warps run the same 8 uniform instructions. The first warp to reach a
 * PC runs it on the vector pipe and sets its prediction bit; the other 63
 * find the bit set and take the scalar pipe: 8 x 63 = 504, no mispredicts. */
static void test_scalar_pipe(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  for (int scalar = 0; scalar < 2; scalar++) {
    gpurf_pipeline_params prm;
    gpurf_pipeline_params_core(&prm, "simtight");
    if (scalar) prm.issue_width = 2, prm.units[GPURF_PIPELINE_UNIT_ALU] = 2;
    gpurf_technique *t = NULL;
    assert_ok(ctx, gpurf_technique_alloc(ctx, "compress", &t));
    assert_ok(ctx, gpurf_technique_set(ctx, t, "scalar", scalar ? "1" : "0"));
    gpurf_trace_reader *r = NULL;
    gpurf_pipeline *p = NULL;
    assert_ok(ctx, gpurf_trace_reader_alloc(
                       ctx, GPURF_TEST_DATA_DIR "/microtraces/compress_scalar.gtrace", &r));
    assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, NULL, gpurf_technique_hooks(t), &p));
    assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
    gpurf_pipeline_stats st;
    assert_ok(ctx, gpurf_pipeline_stats_get(p, &st));
    assert_int_equal(st.warp_instructions, 512);
    assert_rel(counter(t, "scalarisable"), 512, 0);
    assert_rel(counter(t, "scalarised"), scalar ? 504 : 0, 0);
    assert_rel(counter(t, "scalar_mispredicts"), 0, 0);
    assert_rel(counter(t, "vrf_used_max"), 0, 0);
    gpurf_pipeline_free(p);
    gpurf_trace_reader_free(r);
    gpurf_technique_free(t);
  }
  gpurf_ctx_free(ctx);
}

/* The core's warp_in_flight: one warp's independent MOVs overlap without
 * it, and wait for each other's retirement with it (no technique). */
static void test_warp_in_flight(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  uint64_t cycles[2];
  for (int limit = 0; limit < 2; limit++) {
    gpurf_pipeline_params prm;
    gpurf_pipeline_params_core(&prm, "simtight");
    prm.max_warps = 1, prm.max_threads = 32, prm.warp_in_flight = limit;
    gpurf_trace_reader *r = NULL;
    gpurf_pipeline *p = NULL;
    assert_ok(ctx, gpurf_trace_reader_alloc(
                       ctx, GPURF_TEST_DATA_DIR "/microtraces/compress_spill.gtrace", &r));
    assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, NULL, NULL, &p));
    assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
    gpurf_pipeline_stats st;
    assert_ok(ctx, gpurf_pipeline_stats_get(p, &st));
    assert_int_equal(st.warp_instructions, 6);
    cycles[limit] = st.cycles;
    gpurf_pipeline_free(p);
    gpurf_trace_reader_free(r);
  }
  /* Six instructions, each a full trip (the bank read, then the 7-cycle
   * unit; the write retires it in its writeback cycle) before the next. */
  assert_true(cycles[1] >= 6 * 8);
  assert_true(cycles[0] < cycles[1]);
  gpurf_ctx_free(ctx);
}

/* Compression off, the technique's gate() path (a scan per pass) picks as
 * the core's own LRR scheduler does: the same cycles, with and without
 * warp_in_flight, though only the baseline's run skips idle cycles. */
static void test_off_is_baseline(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  for (int wif = 0; wif < 2; wif++) {
    uint64_t cycles[2], reads[2];
    for (int tech = 0; tech < 2; tech++) {
      gpurf_pipeline_params prm;
      gpurf_pipeline_params_init(&prm);
      prm.policy = GPURF_PIPELINE_LRR;
      prm.warp_in_flight = wif;
      gpurf_technique *t = NULL;
      assert_ok(ctx, gpurf_technique_alloc(ctx, "compress", &t));
      assert_ok(ctx, gpurf_technique_set(ctx, t, "compress", "0"));
      gpurf_trace_reader *r = NULL;
      gpurf_pipeline *p = NULL;
      assert_ok(ctx, gpurf_trace_reader_alloc(
                         ctx, GPURF_TEST_DATA_DIR "/traces/matrixmul-32-32-trace", &r));
      assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, NULL, tech ? gpurf_technique_hooks(t) : NULL,
                                          &p));
      assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
      gpurf_pipeline_stats st;
      assert_ok(ctx, gpurf_pipeline_stats_get(p, &st));
      cycles[tech] = st.cycles, reads[tech] = st.reads;
      gpurf_pipeline_free(p);
      gpurf_trace_reader_free(r);
      gpurf_technique_free(t);
    }
    assert_int_equal(cycles[0], cycles[1]);
    assert_int_equal(reads[0], reads[1]);
  }
  gpurf_ctx_free(ctx);
}

static void test_options(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_technique *t = NULL;
  assert_ok(ctx, gpurf_technique_alloc(ctx, "compress", &t));
  assert_int_equal(gpurf_technique_set(ctx, t, "policy", "lifo"), GPURF_EINVAL);
  assert_string_equal(gpurf_ctx_error(ctx)->field, "policy");
  assert_int_equal(gpurf_technique_set(ctx, t, "vrf_regs", "-3"), GPURF_EINVAL);
  assert_int_equal(gpurf_technique_set(ctx, t, "colour", "red"), GPURF_ENOTFOUND);
  /* Below four slots per warp the spill mechanism cannot work. */
  assert_ok(ctx, gpurf_technique_set(ctx, t, "vrf_regs", "100"));
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_core(&prm, "simtight");
  gpurf_pipeline *p = NULL;
  assert_int_equal(gpurf_pipeline_alloc(ctx, &prm, NULL, gpurf_technique_hooks(t), &p),
                   GPURF_EINVAL);
  assert_string_equal(gpurf_ctx_error(ctx)->field, "vrf_regs");
  gpurf_technique_free(t);
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_detect_uniform), cmocka_unit_test(test_detect_strides),
      cmocka_unit_test(test_detect_negative), cmocka_unit_test(test_partial),
      cmocka_unit_test(test_stack),           cmocka_unit_test(test_spill_microtrace),
      cmocka_unit_test(test_no_limit),        cmocka_unit_test(test_scalar_pipe),
      cmocka_unit_test(test_warp_in_flight),  cmocka_unit_test(test_off_is_baseline),
      cmocka_unit_test(test_options),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
