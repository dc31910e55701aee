/* Release flags (Jeon et al. Sec. 6) over hand-made kernels: a loop, a
 * diamond and a long-lived register; flag counts, lifetimes, renaming
 * exemptions and the release flag cache. Expected values are worked out by
 * hand in the comments. */
#include <stdlib.h>
#include <string.h>

#include "gpurf/dataflow.h"
#include "gpurf/release.h"
#include "test_util.h"

/* One record: dst < 0 for none; up to two sources (-1 for none). */
static void rec(gpurf_ctx *ctx, gpurf_dataflow *df, uint32_t warp, uint64_t pc, uint32_t mask,
                const char *op, gpurf_trace_class cls, int dst, int s0, int s1) {
  gpurf_trace_inst *in = calloc(1, sizeof *in);
  assert_non_null(in);
  in->warp = warp;
  in->pc = pc;
  in->mask = mask;
  snprintf(in->opcode, sizeof in->opcode, "%s", op);
  in->op_class = cls;
  in->latency = cls == GPURF_TRACE_CLASS_LD_GLOBAL ? GPURF_TRACE_LAT_LONG : GPURF_TRACE_LAT_SHORT;
  if (dst >= 0) in->dst[in->n_dst++] = (gpurf_trace_operand){(uint8_t)dst, 1};
  if (s0 >= 0) in->src[in->n_src++] = (gpurf_trace_operand){(uint8_t)s0, 1};
  if (s1 >= 0) in->src[in->n_src++] = (gpurf_trace_operand){(uint8_t)s1, 1};
  assert_ok(ctx, gpurf_dataflow_add(ctx, df, in));
  free(in);
}

#define ALL 0xffffffffu
#define I GPURF_TRACE_CLASS_INT
#define F GPURF_TRACE_CLASS_FP
#define B GPURF_TRACE_CLASS_BRANCH

static gpurf_regset set_of(int a, int b, int c) {
  gpurf_regset s = {{0, 0, 0, 0}};
  if (a >= 0) s.w[0] |= 1ull << a;
  if (b >= 0) s.w[0] |= 1ull << b;
  if (c >= 0) s.w[0] |= 1ull << c;
  return s;
}

static void assert_set(gpurf_regset got, gpurf_regset want) {
  for (int i = 0; i < 4; i++)
    if (got.w[i] != want.w[i])
      fail_msg("register set word %d: %llx, expected %llx", i, (unsigned long long)got.w[i],
               (unsigned long long)want.w[i]);
}

static const gpurf_release_inst *at(const gpurf_release *rel, uint64_t pc) {
  const gpurf_release_inst *r = gpurf_release_at(rel, pc);
  if (!r) fail_msg("no flags at %llx", (unsigned long long)pc);
  return r;
}

/* R0 counter, R1 base (read in the loop and after it), R4 accumulator:
 *   00 MOV R0; 08 MOV R1; 10 MOV R4
 *   18 LDG R2 <- R1          loop body, two iterations
 *   20 FADD R3 <- R2,R2      R2 dies: pir
 *   28 FADD R4 <- R3,R4      R3 dies; R4 carried: no flag
 *   30 IADD R0 <- R0         R0 carried: released after the loop only
 *   38 BRA 18
 *   40 STG R1,R4             R1 and R4 die: pir; R0 released here by pbr
 *   48 EXIT */
static gpurf_release *loop_kernel(gpurf_ctx *ctx) {
  gpurf_dataflow *df;
  assert_ok(ctx, gpurf_dataflow_alloc(ctx, &df));
  rec(ctx, df, 0, 0x00, ALL, "MOV", I, 0, -1, -1);
  rec(ctx, df, 0, 0x08, ALL, "MOV", I, 1, -1, -1);
  rec(ctx, df, 0, 0x10, ALL, "MOV", I, 4, -1, -1);
  for (int it = 0; it < 2; it++) {
    rec(ctx, df, 0, 0x18, ALL, "LDG", GPURF_TRACE_CLASS_LD_GLOBAL, 2, 1, -1);
    rec(ctx, df, 0, 0x20, ALL, "FADD", F, 3, 2, 2);
    rec(ctx, df, 0, 0x28, ALL, "FADD", F, 4, 3, 4);
    rec(ctx, df, 0, 0x30, ALL, "IADD", I, 0, 0, -1);
    rec(ctx, df, 0, 0x38, it == 0 ? ALL : 0, "BRA", B, -1, -1, -1);
  }
  rec(ctx, df, 0, 0x40, ALL, "STG", GPURF_TRACE_CLASS_ST_GLOBAL, -1, 1, 4);
  rec(ctx, df, 0, 0x48, ALL, "EXIT", B, -1, -1, -1);
  assert_ok(ctx, gpurf_dataflow_analyze(ctx, df));
  gpurf_release *rel;
  assert_ok(ctx, gpurf_release_build(ctx, df, &rel));
  gpurf_dataflow_free(df);
  return rel;
}

static void loop(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_release *rel = loop_kernel(ctx);
  assert_set(at(rel, 0x20)->after_read, set_of(2, -1, -1));
  assert_set(at(rel, 0x28)->after_read, set_of(3, -1, -1));
  assert_set(at(rel, 0x30)->after_read, set_of(-1, -1, -1));
  assert_set(at(rel, 0x40)->after_read, set_of(1, 4, -1));
  assert_set(at(rel, 0x40)->at_entry, set_of(0, -1, -1));
  assert_null(gpurf_release_at(rel, 0x50));
  /* blocks 00-10, 18-38, 40-48: one pir each; one pbr (R0) */
  assert_true(at(rel, 0x18)->pir_start);
  assert_false(at(rel, 0x20)->pir_start);
  assert_int_equal(at(rel, 0x20)->pir, at(rel, 0x18)->pir);
  gpurf_release_counts c;
  gpurf_release_counts_get(rel, &c);
  assert_int_equal(c.static_insts, 10);
  assert_int_equal(c.static_pir, 3);
  assert_int_equal(c.static_pbr, 1);
  assert_int_equal(c.pbr_regs, 1);
  /* 3 + 2 x 5 + 2 executions; pirs entered 1 + 2 + 1 times */
  assert_int_equal(c.dynamic_insts, 15);
  assert_int_equal(c.dynamic_pir, 4);
  assert_int_equal(c.dynamic_pbr, 1);
  /* lifetimes in layout order: R0 6 (to its rewrite) and 2 (to the pbr);
   * R4 3 and 3; R1 7; R2 and R3 1 */
  double m;
  unsigned k;
  assert_ok(ctx, gpurf_release_lifetime(rel, 0, &m, &k));
  assert_int_equal(k, 2);
  assert_rel(m, 4.0, 1e-12);
  assert_ok(ctx, gpurf_release_lifetime(rel, 4, &m, &k));
  assert_rel(m, 3.0, 1e-12);
  assert_ok(ctx, gpurf_release_lifetime(rel, 1, &m, &k));
  assert_rel(m, 7.0, 1e-12);
  assert_int_equal(k, 1);
  assert_ok(ctx, gpurf_release_lifetime(rel, 3, &m, &k));
  assert_rel(m, 1.0, 1e-12);
  assert_int_equal(gpurf_release_lifetime(rel, 9, &m, &k), GPURF_ENOTFOUND);
  /* three of five renamed: the two longest-lived (R1, R0) are exempt */
  assert_set(gpurf_release_exempt(rel, 3), set_of(0, 1, -1));
  assert_set(gpurf_release_exempt(rel, 5), set_of(-1, -1, -1));
  gpurf_release_free(rel);
  gpurf_ctx_free(ctx);
}

/* A diamond, each path taken by one warp:
 *   00 MOV R1 (read at the end: long-lived); 08 MOV R2; 10 MOV R3; 18 BRA 30
 *   20 FADD R4 <- R2,R3; 28 BRA 38        (then)
 *   30 FMUL R4 <- R2,R2                    (else)
 *   38 FADD R5 <- R4,R1                    reconvergence: pbr releases R2, R3
 *   40 STG R5,R1; 48 EXIT */
static gpurf_release *diamond_kernel(gpurf_ctx *ctx) {
  gpurf_dataflow *df;
  assert_ok(ctx, gpurf_dataflow_alloc(ctx, &df));
  for (uint32_t w = 0; w < 2; w++) {
    rec(ctx, df, w, 0x00, ALL, "MOV", I, 1, -1, -1);
    rec(ctx, df, w, 0x08, ALL, "MOV", I, 2, -1, -1);
    rec(ctx, df, w, 0x10, ALL, "MOV", I, 3, -1, -1);
    rec(ctx, df, w, 0x18, w ? ALL : 0, "BRA", B, -1, -1, -1);
    if (w == 0) {
      rec(ctx, df, w, 0x20, ALL, "FADD", F, 4, 2, 3);
      rec(ctx, df, w, 0x28, ALL, "BRA", B, -1, -1, -1);
    } else {
      rec(ctx, df, w, 0x30, ALL, "FMUL", F, 4, 2, 2);
    }
    rec(ctx, df, w, 0x38, ALL, "FADD", F, 5, 4, 1);
    rec(ctx, df, w, 0x40, ALL, "STG", GPURF_TRACE_CLASS_ST_GLOBAL, -1, 5, 1);
    rec(ctx, df, w, 0x48, ALL, "EXIT", B, -1, -1, -1);
  }
  assert_ok(ctx, gpurf_dataflow_analyze(ctx, df));
  gpurf_release *rel;
  assert_ok(ctx, gpurf_release_build(ctx, df, &rel));
  gpurf_dataflow_free(df);
  return rel;
}

static void diamond(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_release *rel = diamond_kernel(ctx);
  /* inside the paths nothing is released: the other path may still read */
  assert_set(at(rel, 0x20)->after_read, set_of(-1, -1, -1));
  assert_set(at(rel, 0x30)->after_read, set_of(-1, -1, -1));
  assert_set(at(rel, 0x38)->at_entry, set_of(2, 3, -1));
  assert_set(at(rel, 0x38)->after_read, set_of(4, -1, -1));
  assert_set(at(rel, 0x40)->after_read, set_of(5, 1, -1));
  assert_int_equal(at(rel, 0x38)->pbr_count, 1);
  gpurf_release_counts c;
  gpurf_release_counts_get(rel, &c);
  assert_int_equal(c.static_pir, 4); /* blocks 00-18, 20-28, 30, 38-48 */
  assert_int_equal(c.static_pbr, 1);
  assert_int_equal(c.pbr_regs, 2);
  assert_int_equal(c.dynamic_pbr, 2); /* both warps pass the reconvergence point */
  gpurf_release_free(rel);
  gpurf_ctx_free(ctx);
}

/* R1 lives from the first instruction to the last: the longest lifetime,
 * the first left out of renaming under a budget. */
static void long_lived(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_release *rel = diamond_kernel(ctx);
  double m1, m;
  unsigned k;
  assert_ok(ctx, gpurf_release_lifetime(rel, 1, &m1, &k));
  assert_rel(m1, 8.0, 1e-12); /* index 0 to the STG at index 8 */
  for (unsigned r = 2; r <= 5; r++) {
    assert_ok(ctx, gpurf_release_lifetime(rel, r, &m, &k));
    assert_true(m < m1);
  }
  assert_set(gpurf_release_exempt(rel, 4), set_of(1, -1, -1));
  gpurf_regset used = gpurf_release_used(rel);
  assert_set(used, (gpurf_regset){{0x3e, 0, 0, 0}});
  gpurf_release_free(rel);
  gpurf_ctx_free(ctx);
}

/* Sec. 7.1: 48 warps x 63 registers x 10-bit entries = 3780 B; 1 KB
 * renames 17 registers per warp of 48. */
static void table_budget(void **state) {
  (void)state;
  assert_rel(gpurf_release_table_bytes(48, 63, 1024), 3780.0, 1e-12);
  assert_int_equal(gpurf_release_renamable(1024, 48, 1024), 17);
  assert_int_equal(gpurf_release_renamable(1024, 48, 512), 18); /* 9-bit entries */
  assert_rel(10 * GPURF_RELEASE_PIR_BYTES, 67.5, 1e-12);        /* "68 B" */
}

static void flag_cache(void **state) {
  (void)state;
  gpurf_release_cache c;
  assert_int_equal(gpurf_release_cache_init(&c, 65), GPURF_EINVAL);
  assert_int_equal(gpurf_release_cache_init(&c, 2), GPURF_OK);
  assert_int_equal(gpurf_release_cache_access(&c, 0), 0);
  assert_int_equal(gpurf_release_cache_access(&c, 1), 0);
  assert_int_equal(gpurf_release_cache_access(&c, 0), 1);
  assert_int_equal(gpurf_release_cache_access(&c, 2), 0); /* evicts 0 */
  assert_int_equal(gpurf_release_cache_access(&c, 0), 0);
  assert_int_equal(c.hits, 1);
  assert_int_equal(c.misses, 4);
  assert_int_equal(gpurf_release_cache_init(&c, 0), GPURF_OK);
  assert_int_equal(gpurf_release_cache_access(&c, 0), 0);
  assert_int_equal(gpurf_release_cache_access(&c, 0), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(loop),         cmocka_unit_test(diamond),    cmocka_unit_test(long_lived),
      cmocka_unit_test(table_budget), cmocka_unit_test(flag_cache),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
