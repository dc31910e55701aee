/* Traces read in brief (gpurf_trace_next_briefs): the same records, in the
 * same order, as gpurf_trace_next gives, shapes that keep their fields while
 * their stamp stands, and on a damaged or cut binary trace the same records
 * before the same error message. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpurf/trace.h"
#include "test_util.h"

#define TRACES GPURF_TEST_DATA_DIR "/traces"

static void tmp_path(char *buf, size_t n, const char *name) {
  snprintf(buf, n, "%s/%ld-brief-%s", GPURF_TEST_TMP_DIR, (long)getpid(), name);
}

/* What a shape stands for, as a record has it. */
typedef struct fixed {
  uint64_t stamp, pc;
  char opcode[GPURF_TRACE_OPCODE_MAX];
  int op_class, latency, mem;
  uint8_t mem_width, n_dst, n_src, n_dst_regs;
  gpurf_trace_operand dst[GPURF_TRACE_MAX_DST], src[GPURF_TRACE_MAX_SRC];
} fixed;

static void fixed_of(const gpurf_trace_inst *t, uint64_t stamp, fixed *f) {
  memset(f, 0, sizeof *f);
  f->stamp = stamp;
  f->pc = t->pc;
  memcpy(f->opcode, t->opcode, strnlen(t->opcode, sizeof f->opcode - 1));
  f->op_class = t->op_class, f->latency = t->latency, f->mem = t->mem;
  f->mem_width = t->mem_width, f->n_dst = t->n_dst, f->n_src = t->n_src;
  f->n_dst_regs = t->n_dst_regs;
  memcpy(f->dst, t->dst, t->n_dst * sizeof *f->dst);
  memcpy(f->src, t->src, t->n_src * sizeof *f->src);
}

/* The outcome of reading a trace to its end or first error. */
typedef struct outcome {
  int rc;
  uint64_t n;
  char msg[2048];
} outcome;

static void finish(gpurf_ctx *ctx, int rc, outcome *o) {
  o->rc = rc;
  o->msg[0] = '\0';
  if (rc < 0) gpurf_error_format(gpurf_ctx_error(ctx), o->msg, sizeof o->msg);
}

static void read_whole(const char *path, outcome *o) {
  gpurf_ctx *ctx = test_ctx();
  gpurf_trace_reader *r = NULL;
  gpurf_trace_inst *t = malloc(sizeof *t);
  int rc = gpurf_trace_reader_alloc(ctx, path, &r);
  o->n = 0;
  while (rc == GPURF_OK && (rc = gpurf_trace_next(ctx, r, t)) == GPURF_OK) o->n++;
  finish(ctx, rc, o);
  gpurf_trace_reader_free(r);
  free(t);
  gpurf_ctx_free(ctx);
}

/* Reads path in brief, cap records a call, and checks each record against
 * those of a second reader read whole (when check is set): position, mask,
 * the shape's fields, and that a shape's fields stand while its stamp does.
 * Every n_mixed-th call reads a record whole from the brief reader instead. */
static void read_brief(const char *path, size_t cap, int check, size_t n_mixed, outcome *o) {
  gpurf_ctx *ctx = test_ctx(), *ctx2 = test_ctx();
  gpurf_trace_reader *r = NULL, *whole = NULL;
  gpurf_trace_inst *t = malloc(sizeof *t), *s = malloc(sizeof *s);
  gpurf_trace_brief *b = malloc(cap * sizeof *b);
  fixed *seen = NULL, f;
  int rc = gpurf_trace_reader_alloc(ctx, path, &r);
  if (check) assert_ok(ctx2, gpurf_trace_reader_alloc(ctx2, path, &whole));
  if (rc == GPURF_OK) seen = calloc(gpurf_trace_reader_shapes(r), sizeof *seen);
  o->n = 0;
  for (size_t call = 1; rc == GPURF_OK; call++) {
    if (n_mixed && call % n_mixed == 0) {
      if ((rc = gpurf_trace_next(ctx, r, s)) != GPURF_OK) break;
      assert_ok(ctx2, gpurf_trace_next(ctx2, whole, t));
      assert_int_equal(s->pc, t->pc);
      assert_int_equal(s->mask, t->mask);
      o->n++;
      continue;
    }
    size_t n = 0;
    gpurf_trace_where w;
    rc = gpurf_trace_next_briefs(ctx, r, b, cap, &n, &w);
    if (rc != GPURF_OK) {
      assert_int_equal(n, 0);
      break;
    }
    assert_true(n >= 1 && n <= cap);
    for (size_t i = 0; i < n; i++, o->n++) {
      assert_true(b[i].shape < gpurf_trace_reader_shapes(r));
      assert_true(b[i].stamp != 0);
      assert_int_equal(gpurf_trace_reader_shape(r, b[i].shape, s), GPURF_OK);
      fixed mine;
      fixed_of(s, b[i].stamp, &mine);
      fixed *prev = &seen[b[i].shape];
      if (prev->stamp == b[i].stamp && memcmp(prev, &mine, sizeof mine) != 0)
        fail_msg("%s: record %llu: shape %u changed under stamp %llu", path,
                 (unsigned long long)o->n, b[i].shape, (unsigned long long)b[i].stamp);
      *prev = mine;
      if (!check) continue;
      assert_ok(ctx2, gpurf_trace_next(ctx2, whole, t));
      fixed_of(t, b[i].stamp, &f);
      if (memcmp(&f, &mine, sizeof f) != 0)
        fail_msg("%s: record %llu (pc %llx): the shape's fields differ from the record's", path,
                 (unsigned long long)o->n, (unsigned long long)t->pc);
      assert_int_equal(b[i].mask, t->mask);
      assert_int_equal(w.kernel, t->kernel);
      assert_memory_equal(w.cta, t->cta, sizeof w.cta);
      assert_int_equal(w.warp, t->warp);
    }
  }
  finish(ctx, rc, o);
  if (check && rc == GPURF_TRACE_END) assert_int_equal(gpurf_trace_next(ctx2, whole, t), rc);
  gpurf_trace_reader_free(r);
  gpurf_trace_reader_free(whole);
  free(seen);
  free(b);
  free(s);
  free(t);
  gpurf_ctx_free(ctx);
  gpurf_ctx_free(ctx2);
}

static void same_outcome(const char *path, const outcome *a, const outcome *b) {
  if (a->rc != b->rc || a->n != b->n || strcmp(a->msg, b->msg) != 0)
    fail_msg("%s: whole: status %d after %llu records '%s'; in brief: status %d after %llu '%s'",
             path, a->rc, (unsigned long long)a->n, a->msg, b->rc, (unsigned long long)b->n,
             b->msg);
}

static void convert(const char *in, const char *out, gpurf_trace_format fmt) {
  gpurf_ctx *ctx = test_ctx();
  assert_ok(ctx, gpurf_trace_convert(ctx, in, out, fmt));
  gpurf_ctx_free(ctx);
}

/* A synthetic preset written as a binary trace (addresses, values, hints). */
static void every_format_reads_the_same(void **state) {
  (void)state;
  char mm[1024], hw[1024], hwt[1024], nregs[1024], syn[1024];
  tmp_path(mm, sizeof mm, "mm.gtraceb");
  tmp_path(hw, sizeof hw, "hw.gtraceb");
  tmp_path(hwt, sizeof hwt, "hw.gtrace");
  tmp_path(nregs, sizeof nregs, "nregs.gtraceb");
  tmp_path(syn, sizeof syn, "syn.gtraceb");
  convert(TRACES "/matrixmul-32-32-trace", mm, GPURF_TRACE_FORMAT_BINARY);
  convert(TRACES "/handwritten", hw, GPURF_TRACE_FORMAT_BINARY);
  convert(TRACES "/handwritten", hwt, GPURF_TRACE_FORMAT_TEXT);
  /* Registers past the kernel's count: the count becomes unknown mid-trace. */
  convert(TRACES "/nregs/native-below-used.gtrace", nregs, GPURF_TRACE_FORMAT_BINARY);
  /* Several 256 KiB chunks, with values and addresses. */
  const gpurf_trace_gen_params g = {"matrixmul", 3, 2, 0, 300, 1};
  test_write_preset_binary(&g, syn);
  const char *paths[] = {mm, hw, hwt, nregs, syn, TRACES "/handwritten",
                         TRACES "/nregs/below-used.traceg"};
  const size_t caps[] = {1, 3, 64, 1000};
  for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
    outcome whole, brief;
    read_whole(paths[i], &whole);
    assert_int_equal(whole.rc, GPURF_TRACE_END);
    for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
      read_brief(paths[i], caps[c], 1, 0, &brief);
      same_outcome(paths[i], &whole, &brief);
    }
    read_brief(paths[i], 16, 1, 5, &brief); /* mixed with whole records */
    same_outcome(paths[i], &whole, &brief);
  }
  remove(mm), remove(hw), remove(hwt), remove(nregs), remove(syn);
}

/* The records of a pc with addresses as base and a one-byte stride in one
 * warp, a longer stride or one address per lane in the others: read in
 * brief as whole, each form after any other. */
static void addresses_of_every_form(void **state) {
  (void)state;
  char path[1024];
  tmp_path(path, sizeof path, "addr.gtraceb");
  gpurf_ctx *ctx = test_ctx();
  const gpurf_trace_gen_params g = {"compute", 7, 1, 6, 300, 0};
  gpurf_trace_reader *r = NULL;
  gpurf_trace_writer *w = NULL;
  gpurf_trace_inst *t = malloc(sizeof *t);
  assert_non_null(t);
  assert_ok(ctx, gpurf_trace_gen_alloc(ctx, &g, &r));
  assert_ok(ctx, gpurf_trace_writer_alloc(ctx, path, GPURF_TRACE_FORMAT_BINARY, &w));
  int rc;
  size_t kinds[3] = {0, 0, 0};
  while ((rc = gpurf_trace_next(ctx, r, t)) == GPURF_OK) {
    if (t->flags & GPURF_TRACE_HAS_ADDR) {
      /* Even warps as generated (a one-byte stride), odd ones in turn a
       * stride of two varint bytes and no stride: warp 1 after the first
       * form at every pc. */
      unsigned kind = t->warp % 2 ? 1 + (unsigned)(kinds[1] + kinds[2]) % 2 : 0;
      kinds[kind]++;
      uint64_t base = 0x10000 + 64 * (uint64_t)t->pc;
      for (unsigned l = 0; l < GPURF_TRACE_WARP_SIZE && kind; l++)
        t->addr[l] = t->mask >> l & 1 ? base + (kind == 1 ? 4096u * l : (uint64_t)l * l) : 0;
    }
    assert_ok(ctx, gpurf_trace_write(ctx, w, gpurf_trace_reader_kernel(r), t));
  }
  assert_int_equal(rc, GPURF_TRACE_END);
  assert_ok(ctx, gpurf_trace_writer_commit(ctx, w));
  assert_true(kinds[0] > 0 && kinds[1] > 0 && kinds[2] > 0);
  gpurf_trace_writer_free(w);
  gpurf_trace_reader_free(r);
  free(t);
  gpurf_ctx_free(ctx);
  outcome whole, brief;
  read_whole(path, &whole);
  assert_int_equal(whole.rc, GPURF_TRACE_END);
  const size_t caps[] = {1, 7, 256};
  for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
    read_brief(path, caps[c], 1, 0, &brief);
    same_outcome(path, &whole, &brief);
  }
  remove(path);
}

/* The synthetic workloads, read in brief without a file. */
static void generator_in_brief(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  const gpurf_trace_gen_params g = {"compute", 5, 1, 4, 50, 0};
  gpurf_trace_reader *a = NULL, *b = NULL;
  assert_ok(ctx, gpurf_trace_gen_alloc(ctx, &g, &a));
  assert_ok(ctx, gpurf_trace_gen_alloc(ctx, &g, &b));
  gpurf_trace_inst *t = malloc(sizeof *t), *s = malloc(sizeof *s);
  gpurf_trace_brief br[8];
  gpurf_trace_where w;
  size_t n = 0, total = 0;
  int rc;
  while ((rc = gpurf_trace_next_briefs(ctx, b, br, 8, &n, &w)) == GPURF_OK) {
    for (size_t i = 0; i < n; i++, total++) {
      assert_ok(ctx, gpurf_trace_next(ctx, a, t));
      assert_ok(ctx, gpurf_trace_reader_shape(b, br[i].shape, s));
      assert_int_equal(s->pc, t->pc);
      assert_string_equal(s->opcode, t->opcode);
      assert_int_equal(br[i].mask, t->mask);
      assert_int_equal(w.warp, t->warp);
    }
  }
  assert_int_equal(rc, GPURF_TRACE_END);
  assert_int_equal(gpurf_trace_next(ctx, a, t), GPURF_TRACE_END);
  assert_int_equal(total, 4 * 50);
  /* Bad arguments. */
  assert_int_equal(gpurf_trace_next_briefs(ctx, b, br, 0, &n, &w), GPURF_EINVAL);
  assert_int_equal(gpurf_trace_reader_shape(b, gpurf_trace_reader_shapes(b), s), GPURF_EINVAL);
  gpurf_trace_reader_free(a);
  gpurf_trace_reader_free(b);
  free(t);
  free(s);
  gpurf_ctx_free(ctx);
}

/* Every prefix of a binary trace, and the trace with any one byte changed:
 * the same records, then the same status and message, whole or in brief. */
static void damaged_binary_traces(void **state) {
  (void)state;
  char full[1024], cut[1024];
  tmp_path(full, sizeof full, "full.gtraceb");
  tmp_path(cut, sizeof cut, "cut.gtraceb");
  /* With values and without (addresses then compared with the record's
   * first bytes). */
  const gpurf_trace_gen_params g[] = {{"matrixmul", 9, 1, 2, 12, 1}, {"compute", 9, 1, 2, 16, 0}};
  const char *sources[] = {NULL, NULL, TRACES "/handwritten"};
  for (size_t k = 0; k < 3; k++) {
    if (sources[k])
      convert(sources[k], full, GPURF_TRACE_FORMAT_BINARY);
    else
      test_write_preset_binary(&g[k], full);
    FILE *f = fopen(full, "rb");
    static unsigned char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    assert_true(n > 100 && n < sizeof buf);
    outcome whole, brief;
    for (size_t len = 1; len <= n; len++) {
      f = fopen(cut, "wb");
      fwrite(buf, 1, len, f);
      fclose(f);
      read_whole(cut, &whole);
      read_brief(cut, 7, 0, 0, &brief);
      same_outcome(cut, &whole, &brief);
      if (len < n) assert_true(whole.rc < 0);
    }
    const unsigned char flips[] = {0x5a, 0x80, 0x01};
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < sizeof flips; j++) {
        buf[i] ^= flips[j];
        f = fopen(cut, "wb");
        fwrite(buf, 1, n, f);
        fclose(f);
        read_whole(cut, &whole);
        read_brief(cut, 5, 0, 0, &brief);
        same_outcome(cut, &whole, &brief);
        buf[i] ^= flips[j];
      }
  }
  remove(full);
  remove(cut);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_format_reads_the_same),
      cmocka_unit_test(addresses_of_every_form),
      cmocka_unit_test(generator_in_brief),
      cmocka_unit_test(damaged_binary_traces),
  };
  return cmocka_run_group_tests_name("trace_brief", tests, NULL, NULL);
}
