/* The ORF allocation pass on hand-made kernels (tests/data/orf) for the
 * situations of Figs. 12 and 14 of Gebhart et al., the level of every
 * access written out. Energies per access: MRF 10/10, L1 2/2, L0 1/1, so
 * a value saves 8 per read from the L1 (9 from the L0), costs 2 (1) to
 * write there, and saves 10 when it need not be written to the MRF. */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "gpurf/orf.h"

#define ORF GPURF_TEST_DATA_DIR "/orf/"
#define M (1u << GPURF_ORF_MRF)
#define L1 (1u << GPURF_ORF_L1)
#define L0 (1u << GPURF_ORF_L0)

/* Expected levels of one instruction: sources (operand order, a level
 * mask with one bit; 0 ends the list) and destinations (masks). */
typedef struct expect {
  unsigned src[3], dst[2];
} expect;

static gpurf_dataflow *load(gpurf_ctx *ctx, const char *path) {
  gpurf_dataflow *df = NULL;
  gpurf_trace_reader *r = NULL;
  gpurf_trace_inst *in = calloc(1, sizeof *in);
  assert_non_null(in);
  assert_ok(ctx, gpurf_dataflow_alloc(ctx, &df));
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, path, &r));
  int rc;
  while ((rc = gpurf_trace_next(ctx, r, in)) == GPURF_OK)
    assert_ok(ctx, gpurf_dataflow_add(ctx, df, in));
  assert_int_equal(rc, GPURF_TRACE_END);
  assert_ok(ctx, gpurf_dataflow_analyze(ctx, df));
  gpurf_trace_reader_free(r);
  free(in);
  return df;
}

static void params(gpurf_orf_params *p, int l0, int entries) {
  gpurf_orf_params_init(p);
  p->l0 = l0;
  p->l1_entries = entries;
  p->read_j[GPURF_ORF_MRF] = p->write_j[GPURF_ORF_MRF] = 10;
  p->read_j[GPURF_ORF_L1] = p->write_j[GPURF_ORF_L1] = 2;
  p->read_j[GPURF_ORF_L0] = p->write_j[GPURF_ORF_L0] = 1;
}

static void check(const gpurf_dataflow *df, const gpurf_orf *a, const expect *e, size_t n) {
  assert_int_equal(gpurf_dataflow_inst_count(df), n);
  for (size_t i = 0; i < n; i++) {
    const gpurf_dataflow_inst *d = gpurf_dataflow_inst_at(df, i);
    unsigned ns = 0, nd = 0;
    for (unsigned s = 0; s < d->n_src; s++) {
      if (d->src[s].reg == GPURF_TRACE_REG_ZERO) continue;
      int lv = gpurf_orf_src_level(a, i, s, 0);
      if (e[i].src[ns] == 0 || lv < 0 || (1u << lv) != e[i].src[ns])
        fail_msg("instruction %zu (pc %llx) source %u: level %d, expected mask %u", i,
                 (unsigned long long)d->pc, s, lv, e[i].src[ns]);
      ns++;
    }
    if (ns < 3 && e[i].src[ns] != 0) fail_msg("instruction %zu: fewer sources than expected", i);
    for (unsigned o = 0; o < d->n_dst; o++) {
      if (d->dst[o].reg == GPURF_TRACE_REG_ZERO) continue;
      unsigned got = gpurf_orf_dst_levels(a, i, o, 0);
      if (got != e[i].dst[nd])
        fail_msg("instruction %zu (pc %llx) destination %u: levels %u, expected %u", i,
                 (unsigned long long)d->pc, o, got, e[i].dst[nd]);
      nd++;
    }
    if (nd < 2 && e[i].dst[nd] != 0)
      fail_msg("instruction %zu: fewer destinations than expected", i);
  }
}

static gpurf_orf *run(gpurf_ctx *ctx, const gpurf_dataflow *df, const gpurf_orf_params *p) {
  gpurf_orf *a = NULL;
  assert_ok(ctx, gpurf_orf_alloc(ctx, df, p, &a));
  return a;
}

/* Fig. 12(a), one L1 entry, no L0: R3..R7 and R9 live one instruction
 * (saving 16 per slot) and take the entry first; R1 (reads at 0010, 0020,
 * 0060: 32 over 6 slots) does not fit whole, nor up to 0020 (R3 holds the
 * entry there): its first read alone is kept (saving 8 - 2 = 6), so R1 is
 * written to the L1 and the MRF, and 0020 and 0060 read the MRF. */
static void test_fig12a_partial(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_dataflow *df = load(ctx, ORF "fig12a.gtrace");
  gpurf_orf_params p;
  params(&p, 0, 1);
  p.read_operands = 0;
  gpurf_orf *a = run(ctx, df, &p);
  const expect part[] = {
      {{M}, {L1 | M}},      /* 0000 R1 <- R2 */
      {{L1}, {L1}},         /* 0010 R3 <- R1 */
      {{M, L1}, {L1}},      /* 0020 R4 <- R1 R3 */
      {{L1}, {L1}},         /* 0030 R5 <- R4 */
      {{L1}, {L1}},         /* 0040 R6 <- R5 */
      {{L1}, {L1}},         /* 0050 R7 <- R6 */
      {{M, L1}, {L1}},      /* 0060 R9 <- R1 R7 */
      {{M, L1}, {0}},       /* 0070 STS R8 R9 */
  };
  check(df, a, part, 8);
  double r[3], w[3];
  gpurf_orf_counts(a, r, w);
  assert_rel(r[GPURF_ORF_MRF], 4, 1e-12);
  assert_rel(r[GPURF_ORF_L1], 7, 1e-12);
  assert_rel(w[GPURF_ORF_MRF], 1, 1e-12);
  assert_rel(w[GPURF_ORF_L1], 7, 1e-12);
  gpurf_orf_free(a);

  /* Without partial ranges R1 stays in the MRF. */
  p.partial = 0;
  a = run(ctx, df, &p);
  const expect whole[] = {{{M}, {M}},      {{M}, {L1}},     {{M, L1}, {L1}}, {{L1}, {L1}},
                          {{L1}, {L1}},    {{L1}, {L1}},    {{M, L1}, {L1}}, {{M, L1}, {0}}};
  check(df, a, whole, 8);
  gpurf_orf_free(a);

  /* Two entries: R1 fits whole in the second and never touches the MRF. */
  p.partial = 1;
  p.l1_entries = 2;
  a = run(ctx, df, &p);
  const expect two[] = {{{M}, {L1}},      {{L1}, {L1}},    {{L1, L1}, {L1}}, {{L1}, {L1}},
                        {{L1}, {L1}},     {{L1}, {L1}},    {{L1, L1}, {L1}}, {{M, L1}, {0}}};
  check(df, a, two, 8);
  gpurf_orf_free(a);
  gpurf_dataflow_free(df);
  gpurf_ctx_free(ctx);
}

/* Three levels on Fig. 12(a): L0 of one entry, L1 of one. R3..R7 move to
 * the L0 (saving 18 per slot); R9 is read by the shared memory unit, so
 * it stays out of the L0 and takes the L1 at 0060-0070; R1 (6 per slot in
 * the L0, where R3 blocks it) fits whole in the L1 before R9. */
static void test_fig12a_three_levels(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_dataflow *df = load(ctx, ORF "fig12a.gtrace");
  gpurf_orf_params p;
  params(&p, 1, 1);
  p.read_operands = 0;
  gpurf_orf *a = run(ctx, df, &p);
  const expect e[] = {
      {{M}, {L1}},       {{L1}, {L0}},      {{L1, L0}, {L0}}, {{L0}, {L0}},
      {{L0}, {L0}},      {{L0}, {L0}},      {{L1, L0}, {L1}}, {{M, L1}, {0}},
  };
  check(df, a, e, 8);
  gpurf_orf_free(a);
  gpurf_dataflow_free(df);
  gpurf_ctx_free(ctx);
}

/* Fig. 12(b): R0 from before the kernel, read eight times. As a read
 * operand it saves 7 x 8 - 2: the first read comes from the MRF and fills
 * the L1, the seven others read the L1. Without read-operand allocation
 * all eight read the MRF. */
static void test_fig12b_read_operand(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_dataflow *df = load(ctx, ORF "fig12b.gtrace");
  gpurf_orf_params p;
  params(&p, 0, 1);
  gpurf_orf *a = run(ctx, df, &p);
  const expect e[] = {{{M}, {0}},  {{L1}, {0}}, {{L1}, {0}}, {{L1}, {0}},
                      {{L1}, {0}}, {{L1}, {0}}, {{L1}, {0}}, {{L1}, {0}}};
  check(df, a, e, 8);
  assert_int_equal(gpurf_orf_src_fill(a, 0, 0, 0), L1);
  assert_int_equal(gpurf_orf_src_fill(a, 1, 0, 0), 0);
  double r[3], w[3];
  gpurf_orf_counts(a, r, w);
  assert_rel(r[GPURF_ORF_MRF], 1, 1e-12);
  assert_rel(r[GPURF_ORF_L1], 7, 1e-12);
  assert_rel(w[GPURF_ORF_L1], 1, 1e-12);
  gpurf_orf_free(a);
  p.read_operands = 0;
  a = run(ctx, df, &p);
  const expect none[] = {{{M}, {0}}, {{M}, {0}}, {{M}, {0}}, {{M}, {0}},
                         {{M}, {0}}, {{M}, {0}}, {{M}, {0}}, {{M}, {0}}};
  check(df, a, none, 8);
  gpurf_orf_free(a);
  gpurf_dataflow_free(df);
  gpurf_ctx_free(ctx);
}

/* Fig. 14, two L1 entries, no L0. Instructions in layout order: 0000
 * R2 <- R3 (BB6), 0010 BRA, 0020 and 0030 (BB7), 0040 BRA, 0050 (BB8),
 * 0060 R4 <- R1 R2 (BB9), 0070 EXIT. R2 crosses the hammock from BB6 to
 * BB9 and lives in the L1 (it is written on every path); R4 is dead and
 * written to the L1 only; R3, R5, R6 are read once from the MRF. */
static void test_fig14(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_orf_params p;
  params(&p, 0, 2);
  /* (a) R1 written in BB7 only: BB9's read may see the value from before
   * the strand, so it reads the MRF, and BB7's write goes to the MRF. */
  gpurf_dataflow *df = load(ctx, ORF "fig14a.gtrace");
  gpurf_orf *a = run(ctx, df, &p);
  const expect ea[] = {{{M}, {L1}},     {{0}, {0}},  {{M}, {M}}, {{M}, {0}},
                       {{0}, {0}},      {{M}, {0}},  {{M, L1}, {L1}}, {{0}, {0}}};
  check(df, a, ea, 8);
  gpurf_orf_free(a);
  gpurf_dataflow_free(df);
  /* (b) BB7 also reads R1: that read comes from the L1, so BB7 writes R1
   * to both the L1 and the MRF; BB9 still reads the MRF. */
  df = load(ctx, ORF "fig14b.gtrace");
  a = run(ctx, df, &p);
  const expect eb[] = {{{M}, {L1}},     {{0}, {0}},  {{M}, {L1 | M}}, {{L1}, {0}},
                       {{0}, {0}},      {{M}, {0}},  {{M, L1}, {L1}}, {{0}, {0}}};
  check(df, a, eb, 8);
  gpurf_orf_free(a);
  gpurf_dataflow_free(df);
  /* (c) Both sides write R1, to the same entry: BB9 reads it from the L1
   * and R1 never touches the MRF. Without forward branches every value
   * crossing a block reads the MRF: R1 and R2 go to the MRF. */
  df = load(ctx, ORF "fig14c.gtrace");
  a = run(ctx, df, &p);
  const expect ec[] = {{{M}, {L1}},     {{0}, {0}},  {{M}, {L1}}, {{M}, {0}},
                       {{0}, {0}},      {{M}, {L1}}, {{L1, L1}, {L1}}, {{0}, {0}}};
  check(df, a, ec, 8);
  gpurf_orf_free(a);
  p.forward_branches = 0;
  a = run(ctx, df, &p);
  const expect eblock[] = {{{M}, {M}},      {{0}, {0}},  {{M}, {M}}, {{M}, {0}},
                           {{0}, {0}},      {{M}, {M}},  {{M, M}, {L1}}, {{0}, {0}}};
  check(df, a, eblock, 8);
  gpurf_orf_free(a);
  gpurf_dataflow_free(df);
  gpurf_ctx_free(ctx);
}

/* Strands: 0030 reads the load's R3 and starts a strand. R1 is read in
 * its own strand (0020: from the L1) and in the next (0030: from the
 * MRF), so 0000 writes it to both; R3 crosses too: MRF only. R4:2 are the
 * load's address (MRF), R5 is dead (L1 only), R6 lives within strand 1. */
static void test_strand(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_dataflow *df = load(ctx, ORF "strand.gtrace");
  assert_int_equal(gpurf_dataflow_strand_count(df), 2);
  gpurf_orf_params p;
  params(&p, 0, 2);
  gpurf_orf *a = run(ctx, df, &p);
  const expect e[] = {{{M}, {L1 | M}}, {{M}, {M}}, {{L1}, {L1}}, {{M, M}, {L1}}, {{M, L1}, {0}}};
  check(df, a, e, 5);
  assert_int_equal(gpurf_orf_src_level(a, 1, 0, 1), GPURF_ORF_MRF); /* R5 of the pair */
  gpurf_orf_free(a);
  gpurf_dataflow_free(df);
  gpurf_ctx_free(ctx);
}

/* A loop in one strand: 0010's R1 is read at 0020 (from the L1) and by
 * 0010 of the next iteration through the back edge, which reads the MRF:
 * 0010 writes R1 to both. 0000's R1 crosses into the loop's strand (MRF);
 * R2 is dead (L1). Instructions: 0000 0010 0020 0030(BRA) 0040(EXIT). */
static void test_loop(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_dataflow *df = load(ctx, ORF "loop.gtrace");
  gpurf_orf_params p;
  params(&p, 0, 2);
  gpurf_orf *a = run(ctx, df, &p);
  const expect e[] = {{{0}, {M}}, {{M}, {L1 | M}}, {{L1}, {L1}}, {{0}, {0}}, {{0}, {0}}};
  check(df, a, e, 5);
  double r[3], w[3];
  gpurf_orf_counts(a, r, w);
  /* Executions: 0010 and 0020 twice. */
  assert_rel(r[GPURF_ORF_MRF], 2, 1e-12);
  assert_rel(r[GPURF_ORF_L1], 2, 1e-12);
  assert_rel(w[GPURF_ORF_MRF], 3, 1e-12);
  assert_rel(w[GPURF_ORF_L1], 4, 1e-12);
  gpurf_orf_free(a);
  gpurf_dataflow_free(df);
  gpurf_ctx_free(ctx);
}

static void test_bad_params(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_dataflow *df = load(ctx, ORF "fig12b.gtrace");
  gpurf_orf_params p;
  gpurf_orf *a = NULL;
  params(&p, 0, 9);
  assert_int_equal(gpurf_orf_alloc(ctx, df, &p, &a), GPURF_EINVAL);
  assert_string_equal(gpurf_ctx_error(ctx)->field, "l1_entries");
  assert_null(a);
  gpurf_orf_params_init(&p); /* energies unset */
  assert_int_equal(gpurf_orf_alloc(ctx, df, &p, &a), GPURF_EINVAL);
  assert_null(a);
  gpurf_dataflow_free(df);
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fig12a_partial),      cmocka_unit_test(test_fig12a_three_levels),
      cmocka_unit_test(test_fig12b_read_operand), cmocka_unit_test(test_fig14),
      cmocka_unit_test(test_strand),              cmocka_unit_test(test_loop),
      cmocka_unit_test(test_bad_params),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
