/* Repeat records of binary traces (version 2): a record whose head (opcode,
 * flags, operands, memory width) is that of the last record at its pc is
 * written as a repeat. Version 1 files read as before and give the same
 * records; a kernel with more pcs than the map of heads holds reads back
 * whole; a repeat that names no head, or one in a version 1 file, is an
 * error with its byte, the same whole or in brief. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpurf/trace.h"
#include "test_util.h"

#define V1 GPURF_TEST_DATA_DIR "/riscv"
#define V2 GPURF_TEST_DATA_DIR "/traces/binary-v2"

static void tmp_path(char *buf, size_t n, const char *name) {
  snprintf(buf, n, "%s/%ld-repeat-%s", GPURF_TEST_TMP_DIR, (long)getpid(), name);
}

/* The fields of two records, as far as their counts and flags give them. */
static void assert_same_record(const gpurf_trace_inst *a, const gpurf_trace_inst *b) {
  assert_int_equal(a->kernel, b->kernel);
  assert_memory_equal(a->cta, b->cta, sizeof a->cta);
  assert_int_equal(a->warp, b->warp);
  assert_int_equal(a->pc, b->pc);
  assert_int_equal(a->mask, b->mask);
  assert_string_equal(a->opcode, b->opcode);
  assert_int_equal(a->op_class, b->op_class);
  assert_int_equal(a->mem, b->mem);
  assert_int_equal(a->mem_width, b->mem_width);
  assert_int_equal(a->n_dst, b->n_dst);
  assert_int_equal(a->n_src, b->n_src);
  assert_int_equal(a->n_dst_regs, b->n_dst_regs);
  assert_memory_equal(a->dst, b->dst, a->n_dst * sizeof a->dst[0]);
  assert_memory_equal(a->src, b->src, a->n_src * sizeof a->src[0]);
  assert_int_equal(a->flags, b->flags);
  assert_int_equal(a->line, b->line);
  assert_int_equal(a->imm, b->imm);
  assert_int_equal(a->last_use, b->last_use);
  assert_int_equal(a->strand_end, b->strand_end);
  assert_int_equal(a->reconv_pc, b->reconv_pc);
  if (a->flags & GPURF_TRACE_HAS_ADDR) assert_memory_equal(a->addr, b->addr, sizeof a->addr);
  for (unsigned k = 0; (a->flags & GPURF_TRACE_HAS_VALUES) && k < a->n_dst_regs; k++)
    for (unsigned l = 0; l < GPURF_TRACE_WARP_SIZE; l++)
      if (a->mask >> l & 1) assert_int_equal(a->values[k][l], b->values[k][l]);
}

/* Reads two traces side by side, whole, to their end: the same records. */
static uint64_t assert_same_traces(const char *pa, const char *pb) {
  gpurf_ctx *ctx = test_ctx();
  gpurf_trace_reader *a = NULL, *b = NULL;
  gpurf_trace_inst *x = malloc(sizeof *x), *y = malloc(sizeof *y);
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, pa, &a));
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, pb, &b));
  uint64_t n = 0;
  int rc;
  while ((rc = gpurf_trace_next(ctx, a, x)) == GPURF_OK) {
    assert_ok(ctx, gpurf_trace_next(ctx, b, y));
    assert_same_record(x, y);
    n++;
  }
  assert_int_equal(rc, GPURF_TRACE_END);
  assert_int_equal(gpurf_trace_next(ctx, b, y), GPURF_TRACE_END);
  gpurf_trace_reader_free(a);
  gpurf_trace_reader_free(b);
  free(x);
  free(y);
  gpurf_ctx_free(ctx);
  return n;
}

/* Reads a trace to its end or first error, in brief (an odd batch of 7:
 * reads end inside runs of repeats) or whole: the records and the sum of
 * their masks; the message in msg. */
static int read_trace(const char *path, int brief, uint64_t *n, uint64_t *masks, char *msg,
                      size_t cap) {
  gpurf_ctx *ctx = test_ctx();
  gpurf_trace_reader *r = NULL;
  gpurf_trace_inst *t = malloc(sizeof *t);
  gpurf_trace_brief b[7];
  gpurf_trace_where w;
  size_t got = 0;
  *n = *masks = 0;
  int rc = gpurf_trace_reader_alloc(ctx, path, &r);
  while (rc == GPURF_OK) {
    if (brief) {
      if ((rc = gpurf_trace_next_briefs(ctx, r, b, 7, &got, &w)) != GPURF_OK) break;
      for (size_t i = 0; i < got; i++, (*n)++) *masks += b[i].mask;
    } else {
      if ((rc = gpurf_trace_next(ctx, r, t)) != GPURF_OK) break;
      (*n)++, *masks += t->mask;
    }
  }
  msg[0] = '\0';
  if (rc < 0) gpurf_error_format(gpurf_ctx_error(ctx), msg, cap);
  gpurf_trace_reader_free(r);
  free(t);
  gpurf_ctx_free(ctx);
  return rc;
}

/* A kernel of one CTA of two warps, named name, with nregs registers. */
static void small_kernel(gpurf_trace_kernel *k, const char *name, uint32_t nregs) {
  memset(k, 0, sizeof *k);
  snprintf(k->name, sizeof k->name, "%s", name);
  k->id = 1;
  k->grid[0] = k->grid[1] = k->grid[2] = 1;
  k->block[0] = 64, k->block[1] = k->block[2] = 1;
  k->nregs = nregs;
  k->binary_version = 70;
}

static long file_size(const char *path) {
  struct stat sb;
  assert_int_equal(stat(path, &sb), 0);
  return (long)sb.st_size;
}

static unsigned char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  static unsigned char buf[1 << 16];
  *n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  assert_true(*n < sizeof buf);
  return buf;
}

static void spill(const char *path, const unsigned char *b, size_t n) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(b, 1, n, f), n);
  fclose(f);
}

/* The recorded kernels as version 1 (as recorded before repeats) and as
 * converted to version 2: the same records, in fewer bytes. */
static void both_versions_read_the_same(void **state) {
  (void)state;
  const char *names[] = {"gcd", "vecadd"};
  for (size_t i = 0; i < 2; i++) {
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/%s.gtraceb", V1, names[i]);
    snprintf(b, sizeof b, "%s/%s.gtraceb", V2, names[i]);
    size_t n1, n2;
    assert_memory_equal(slurp(a, &n1), "GPURFTB1", 8);
    assert_memory_equal(slurp(b, &n2), "GPURFTB2", 8);
    assert_true(assert_same_traces(a, b) > 300);
    assert_true(file_size(b) < file_size(a));
    uint64_t c1, c2, m1, m2;
    char msg[512];
    assert_int_equal(read_trace(a, 1, &c1, &m1, msg, sizeof msg), GPURF_TRACE_END);
    assert_int_equal(read_trace(b, 1, &c2, &m2, msg, sizeof msg), GPURF_TRACE_END);
    assert_int_equal(c1, c2);
    assert_int_equal(m1, m2);
  }
}

/* A preset without values: after the first warp, every record of the
 * others repeats its pc's head, a few bytes each. */
static void repeats_shrink_synthetic_traces(void **state) {
  (void)state;
  char bin[512], txt[512];
  tmp_path(bin, sizeof bin, "syn.gtraceb");
  tmp_path(txt, sizeof txt, "syn.gtrace");
  const gpurf_trace_gen_params g = {"compute", 3, 1, 8, 400, 0};
  test_write_preset_binary(&g, bin);
  gpurf_ctx *ctx = test_ctx();
  assert_ok(ctx, gpurf_trace_convert(ctx, bin, txt, GPURF_TRACE_FORMAT_TEXT));
  gpurf_ctx_free(ctx);
  assert_int_equal(assert_same_traces(bin, txt), 8 * 400);
  /* An instruction record takes 19 bytes on average here; the seven warps
   * after the first repeat it in about 4. */
  assert_true(file_size(bin) < 8 * 8 * 400);
  remove(bin), remove(txt);
}

/* One kernel of more distinct pcs than the map of heads holds, run by two
 * warps: the second repeats the heads of the first 65536 pcs and writes
 * the others whole; both read back. */
static void more_pcs_than_the_map_holds(void **state) {
  (void)state;
  enum { PCS = 70000 };
  char path[512];
  tmp_path(path, sizeof path, "many.gtraceb");
  gpurf_ctx *ctx = test_ctx();
  gpurf_trace_kernel k;
  small_kernel(&k, "many_pcs", 16);
  gpurf_trace_inst *t = calloc(1, sizeof *t);
  gpurf_trace_writer *w = NULL;
  assert_ok(ctx, gpurf_trace_writer_alloc(ctx, path, GPURF_TRACE_FORMAT_BINARY, &w));
  uint64_t masks = 0;
  for (uint32_t warp = 0; warp < 2; warp++)
    for (uint32_t i = 0; i < PCS; i++) {
      memset(t, 0, sizeof *t);
      t->warp = warp;
      t->pc = 16 * (uint64_t)i;
      t->mask = warp ? 0xffffffffu : 0xffffu << (i % 17);
      snprintf(t->opcode, sizeof t->opcode, "%s", i % 3 ? "IADD3" : "FFMA");
      t->n_dst = 1, t->n_src = 2, t->n_dst_regs = 1;
      t->dst[0] = (gpurf_trace_operand){(uint8_t)(i % 16), 1};
      t->src[0] = (gpurf_trace_operand){(uint8_t)((i + 1) % 16), 1};
      t->src[1] = (gpurf_trace_operand){(uint8_t)((i + 5) % 16), 1};
      masks += t->mask;
      assert_ok(ctx, gpurf_trace_write(ctx, w, &k, t));
    }
  assert_ok(ctx, gpurf_trace_writer_commit(ctx, w));
  gpurf_trace_writer_free(w);
  free(t);
  gpurf_ctx_free(ctx);
  uint64_t n, m;
  char msg[512];
  assert_int_equal(read_trace(path, 0, &n, &m, msg, sizeof msg), GPURF_TRACE_END);
  assert_int_equal(n, 2 * PCS);
  assert_int_equal(m, masks);
  assert_int_equal(read_trace(path, 1, &n, &m, msg, sizeof msg), GPURF_TRACE_END);
  assert_int_equal(n, 2 * PCS);
  assert_int_equal(m, masks);
  /* An instruction record here takes 15 bytes and its pc's, a repeat 2;
   * the second warp's records past the map's 65536 pcs are written whole.
   * The kernel, CTA, warp, opcode and end records take less than 256. */
  long expect = 2L * 65536;
  for (uint32_t i = 0; i < PCS; i++) {
    long rec = 15 + (i < 8 ? 1 : i < 1024 ? 2 : 3); /* the pc, 16 x i, as a varint */
    expect += rec * (i < 65536 ? 1 : 2);
  }
  long size = file_size(path);
  if (size < expect || size > expect + 256)
    fail_msg("%ld bytes; expected %ld and the other records", size, expect);
  remove(path);
}

/* Records of one pc whose head changes, once to one too long to keep (ten
 * register operands): each change is written whole, a head as the last
 * one as a repeat; read back, whole and in brief, as written. */
static void heads_that_change(void **state) {
  (void)state;
  char path[512], txt[512];
  tmp_path(path, sizeof path, "change.gtraceb");
  tmp_path(txt, sizeof txt, "change.gtrace");
  gpurf_ctx *ctx = test_ctx();
  gpurf_trace_kernel k;
  small_kernel(&k, "changing_heads", 32);
  gpurf_trace_inst *t = calloc(1, sizeof *t);
  gpurf_trace_writer *w = NULL, *wt = NULL;
  assert_ok(ctx, gpurf_trace_writer_alloc(ctx, path, GPURF_TRACE_FORMAT_BINARY, &w));
  assert_ok(ctx, gpurf_trace_writer_alloc(ctx, txt, GPURF_TRACE_FORMAT_TEXT, &wt));
  /* Per warp, a loop of one pc: short, long, short, short, other, short. */
  const int ops[] = {3, 10, 3, 3, 4, 3};
  for (uint32_t warp = 0; warp < 2; warp++)
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
      memset(t, 0, sizeof *t);
      t->warp = warp;
      t->pc = 0x40;
      t->mask = 0xffffffffu >> i;
      snprintf(t->opcode, sizeof t->opcode, "IADD3");
      t->n_dst = ops[i] > 8 ? 2 : 1;
      t->n_src = (uint8_t)(ops[i] - t->n_dst);
      t->n_dst_regs = t->n_dst;
      for (int d = 0; d < t->n_dst; d++) t->dst[d] = (gpurf_trace_operand){(uint8_t)d, 1};
      for (int j = 0; j < t->n_src; j++) t->src[j] = (gpurf_trace_operand){(uint8_t)(4 + j), 1};
      assert_ok(ctx, gpurf_trace_write(ctx, w, &k, t));
      assert_ok(ctx, gpurf_trace_write(ctx, wt, &k, t));
    }
  assert_ok(ctx, gpurf_trace_writer_commit(ctx, w));
  assert_ok(ctx, gpurf_trace_writer_commit(ctx, wt));
  gpurf_trace_writer_free(w);
  gpurf_trace_writer_free(wt);
  free(t);
  gpurf_ctx_free(ctx);
  assert_int_equal(assert_same_traces(path, txt), 12);
  uint64_t n, m, nb, mb;
  char msg[512];
  assert_int_equal(read_trace(path, 0, &n, &m, msg, sizeof msg), GPURF_TRACE_END);
  assert_int_equal(read_trace(path, 1, &nb, &mb, msg, sizeof msg), GPURF_TRACE_END);
  assert_int_equal(nb, n);
  assert_int_equal(mb, m);
  /* An instruction record here takes 10 bytes and 2 per operand; a repeat
   * its tag, the pc difference (0: one byte; 0x40 from a warp's start: two)
   * and a mask that is not full. Warp 0: whole, whole (the long head
   * dropped), whole (no head to repeat), repeat (R), whole, whole. Warp 1:
   * a repeat (S) of the head warp 0 left, then as warp 0. Besides: the
   * magic (8 bytes), kernel (90), CTA (13), two warp (5) and one opcode
   * (7) records and the end (2). */
  const long w0 = 16 + 30 + 16 + 6 + 18 + 16, w1 = 3 + 30 + 16 + 6 + 18 + 16;
  const long expect = 8 + 90 + 13 + 2 * 5 + 7 + 2 + w0 + w1;
  if (file_size(path) != expect)
    fail_msg("%ld bytes; expected %ld", file_size(path), expect);
  remove(path), remove(txt);
}

/* The byte after the second warp record: warp 1's first record. */
static size_t second_warp_first_record(const unsigned char *b, size_t n) {
  int seen = 0;
  for (size_t i = 8; i + 5 < n; i++)
    if (b[i] == 'W' && b[i + 1] == 1 && !b[i + 2] && !b[i + 3] && !b[i + 4] && ++seen == 1)
      return i + 5;
  fail_msg("no record of warp 1");
  return 0;
}

/* Defects of repeats: the same message, naming the byte, whole and in
 * brief. */
static void repeat_defects(void **state) {
  (void)state;
  char full[512], bad[512];
  tmp_path(full, sizeof full, "full.gtraceb");
  tmp_path(bad, sizeof bad, "bad.gtraceb");
  const gpurf_trace_gen_params g = {"compute", 4, 1, 2, 30, 0};
  test_write_preset_binary(&g, full);
  size_t n;
  unsigned char *b = slurp(full, &n);
  const size_t at = second_warp_first_record(b, n);
  assert_true(b[at] == 'S' || b[at] == 'R');
  char where[64];
  snprintf(where, sizeof where, "byte %zu: ", at);
  struct {
    size_t pos;
    unsigned char byte;
    const char *message;
  } cases[] = {
      /* A repeat in a version 1 file. */
      {7, '1', "unknown record tag"},
      /* A pc no record of the kernel had (zigzag 0x7e: 63 past the last). */
      {at + 1, 0x7e, "repeat record of pc 0x3f, which has no head to repeat in this kernel"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    unsigned char keep = b[cases[c].pos];
    b[cases[c].pos] = cases[c].byte;
    spill(bad, b, n);
    b[cases[c].pos] = keep;
    uint64_t nw, mw, nb, mb;
    char mw_msg[512], mb_msg[512];
    assert_int_equal(read_trace(bad, 0, &nw, &mw, mw_msg, sizeof mw_msg), GPURF_EPARSE);
    assert_int_equal(read_trace(bad, 1, &nb, &mb, mb_msg, sizeof mb_msg), GPURF_EPARSE);
    assert_int_equal(nw, 30);
    assert_int_equal(nb, 30);
    assert_string_equal(mw_msg, mb_msg);
    if (!strstr(mw_msg, where) || !strstr(mw_msg, cases[c].message))
      fail_msg("case %zu: '%s' lacks '%s%s'", c, mw_msg, where, cases[c].message);
  }
  remove(full), remove(bad);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(both_versions_read_the_same),
      cmocka_unit_test(repeats_shrink_synthetic_traces),
      cmocka_unit_test(more_pcs_than_the_map_holds),
      cmocka_unit_test(heads_that_change),
      cmocka_unit_test(repeat_defects),
  };
  return cmocka_run_group_tests_name("trace_repeat", tests, NULL, NULL);
}
