/* Native formats: Accel-Sim -> text -> binary gives the same records and the
 * same statistics; the writer never leaves a partial file. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpurf/trace.h"
#include "test_util.h"

#define TRACES GPURF_TEST_DATA_DIR "/traces"

static void tmp_path(char *buf, size_t n, const char *name) {
  snprintf(buf, n, "%s/%s", GPURF_TEST_TMP_DIR, name);
}

static void stats_of(const char *path, gpurf_trace_stats *s) {
  gpurf_ctx *ctx = test_ctx();
  memset(s, 0, sizeof *s);
  assert_ok(ctx, gpurf_trace_stats_file(ctx, path, s));
  gpurf_ctx_free(ctx);
}

static void assert_same_stats(const gpurf_trace_stats *a, const gpurf_trace_stats *b) {
  if (memcmp(a, b, sizeof *a) != 0) {
    fail_msg("statistics differ: %llu/%llu instructions, %llu/%llu values, live %.9g/%.9g",
             (unsigned long long)a->warp_instructions, (unsigned long long)b->warp_instructions,
             (unsigned long long)a->values, (unsigned long long)b->values,
             a->live_fraction_mean, b->live_fraction_mean);
  }
}

/* Compares the records of two traces field by field. */
static void assert_same_records(const char *p1, const char *p2) {
  gpurf_ctx *ctx = test_ctx();
  gpurf_trace_reader *r1, *r2;
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, p1, &r1));
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, p2, &r2));
  gpurf_trace_inst *a = malloc(sizeof *a), *b = malloc(sizeof *b);
  uint64_t n = 0;
  for (;; n++) {
    int ra = gpurf_trace_next(ctx, r1, a), rb = gpurf_trace_next(ctx, r2, b);
    assert_int_equal(ra, rb);
    if (ra == GPURF_TRACE_END) break;
    assert_ok(ctx, ra);
    if (strcmp(a->opcode, b->opcode) || a->pc != b->pc || a->mask != b->mask ||
        a->kernel != b->kernel || memcmp(a->cta, b->cta, sizeof a->cta) || a->warp != b->warp ||
        a->n_dst != b->n_dst || a->n_src != b->n_src ||
        memcmp(a->dst, b->dst, a->n_dst * sizeof a->dst[0]) ||
        memcmp(a->src, b->src, a->n_src * sizeof a->src[0]) || a->mem != b->mem ||
        a->mem_width != b->mem_width || a->op_class != b->op_class || a->flags != b->flags ||
        a->line != b->line || a->imm != b->imm)
      fail_msg("record %llu differs (%s at %llx)", (unsigned long long)n, a->opcode,
               (unsigned long long)a->pc);
    if ((a->flags & GPURF_TRACE_HAS_ADDR) && memcmp(a->addr, b->addr, sizeof a->addr))
      fail_msg("record %llu: addresses differ", (unsigned long long)n);
    if (a->flags & GPURF_TRACE_HAS_VALUES)
      for (unsigned k = 0; k < a->n_dst_regs; k++)
        for (int l = 0; l < 32; l++)
          if ((a->mask >> l & 1) && a->values[k][l] != b->values[k][l])
            fail_msg("record %llu: value of lane %d differs", (unsigned long long)n, l);
  }
  const gpurf_trace_kernel *k1 = gpurf_trace_reader_kernel(r1), *k2 = gpurf_trace_reader_kernel(r2);
  assert_string_equal(k1->name, k2->name);
  assert_int_equal(k1->nregs, k2->nregs);
  assert_int_equal(k1->binary_version, k2->binary_version);
  assert_int_equal(k1->shmem_base, k2->shmem_base);
  free(a);
  free(b);
  gpurf_trace_reader_free(r1);
  gpurf_trace_reader_free(r2);
  gpurf_ctx_free(ctx);
}

static void round_trip(const char *src, const char *stem) {
  gpurf_ctx *ctx = test_ctx();
  char text[1024], bin[1024], text2[1024];
  char name[256];
  snprintf(name, sizeof name, "%s.gtrace", stem);
  tmp_path(text, sizeof text, name);
  snprintf(name, sizeof name, "%s.gtraceb", stem);
  tmp_path(bin, sizeof bin, name);
  snprintf(name, sizeof name, "%s-again.gtrace", stem);
  tmp_path(text2, sizeof text2, name);
  assert_ok(ctx, gpurf_trace_convert(ctx, src, text, GPURF_TRACE_FORMAT_TEXT));
  assert_ok(ctx, gpurf_trace_convert(ctx, text, bin, GPURF_TRACE_FORMAT_BINARY));
  assert_ok(ctx, gpurf_trace_convert(ctx, bin, text2, GPURF_TRACE_FORMAT_TEXT));
  gpurf_trace_stats s0, s1, s2, s3;
  stats_of(src, &s0);
  stats_of(text, &s1);
  stats_of(bin, &s2);
  stats_of(text2, &s3);
  assert_same_stats(&s0, &s1);
  assert_same_stats(&s0, &s2);
  assert_same_stats(&s0, &s3);
  assert_same_records(src, bin);
  /* text -> binary -> text reproduces the text byte for byte */
  FILE *f1 = fopen(text, "rb"), *f2 = fopen(text2, "rb");
  int c1, c2;
  do {
    c1 = fgetc(f1);
    c2 = fgetc(f2);
    assert_int_equal(c1, c2);
  } while (c1 != EOF);
  fclose(f1);
  fclose(f2);
  gpurf_ctx_free(ctx);
}

static void accelsim_round_trips(void **state) {
  (void)state;
  round_trip(TRACES "/vectoradd-100-32-trace", "rt-vectoradd");
  round_trip(TRACES "/matrixmul-32-32-trace", "rt-matrixmul");
  round_trip(TRACES "/handwritten", "rt-handwritten");
}

/* Values, divergence and hints survive both native forms. */
static void synthetic_round_trip_with_values(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_trace_gen_params p = {"compute", 7, 1, 2, 3000, 1};
  gpurf_trace_reader *r;
  gpurf_trace_writer *w;
  char text[1024];
  tmp_path(text, sizeof text, "rt-synthetic.gtrace");
  assert_ok(ctx, gpurf_trace_gen_alloc(ctx, &p, &r));
  assert_ok(ctx, gpurf_trace_writer_alloc(ctx, text, GPURF_TRACE_FORMAT_TEXT, &w));
  gpurf_trace_inst *in = malloc(sizeof *in);
  gpurf_trace_stats_acc *acc;
  assert_ok(ctx, gpurf_trace_stats_alloc(ctx, &acc));
  int rc, n = 0;
  while ((rc = gpurf_trace_next(ctx, r, in)) == GPURF_OK) {
    if (n++ % 7 == 0) {
      in->flags |= GPURF_TRACE_HAS_HINTS | GPURF_TRACE_HAS_RECONV;
      in->last_use = (uint8_t)(in->n_src ? 1 : 0);
      in->strand_end = 1;
      in->reconv_pc = 0x40;
    }
    assert_ok(ctx, gpurf_trace_stats_add(ctx, acc, gpurf_trace_reader_kernel(r), in));
    assert_ok(ctx, gpurf_trace_write(ctx, w, gpurf_trace_reader_kernel(r), in));
  }
  assert_int_equal(rc, GPURF_TRACE_END);
  assert_ok(ctx, gpurf_trace_writer_commit(ctx, w));
  gpurf_trace_writer_free(w);
  gpurf_trace_stats direct;
  memset(&direct, 0, sizeof direct);
  assert_ok(ctx, gpurf_trace_stats_finish(ctx, acc, &direct));
  gpurf_trace_stats_free(acc);
  gpurf_trace_reader_free(r);
  free(in);
  assert_true(direct.reads_classified > 1000);
  assert_true(direct.partial_mask > 0);
  gpurf_trace_stats s;
  stats_of(text, &s);
  assert_same_stats(&direct, &s);
  round_trip(text, "rt-synthetic2");
  gpurf_ctx_free(ctx);
}

static int leftover_temp_files(void) {
  DIR *d = opendir(GPURF_TEST_TMP_DIR);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (strstr(e->d_name, "partial.gtrace")) n++;
  closedir(d);
  return n;
}

static void failed_conversion_leaves_no_file(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  char out[1024];
  tmp_path(out, sizeof out, "partial.gtrace");
  unlink(out);
  int rc = gpurf_trace_convert(ctx, TRACES "/bad/insts-mismatch.traceg", out, GPURF_TRACE_FORMAT_TEXT);
  assert_true(rc < 0);
  assert_non_null(strstr(gpurf_ctx_error(ctx)->message, "insts = 3"));
  assert_int_equal(access(out, F_OK), -1);
  assert_int_equal(leftover_temp_files(), 0);
  /* an existing OUT stays as it was */
  FILE *f = fopen(out, "w");
  fputs("keep\n", f);
  fclose(f);
  rc = gpurf_trace_convert(ctx, TRACES "/bad/truncated.traceg", out, GPURF_TRACE_FORMAT_BINARY);
  assert_true(rc < 0);
  char buf[16] = "";
  f = fopen(out, "r");
  assert_non_null(fgets(buf, sizeof buf, f));
  fclose(f);
  assert_string_equal(buf, "keep\n");
  assert_int_equal(leftover_temp_files(), 1); /* OUT itself */
  unlink(out);
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(accelsim_round_trips),
      cmocka_unit_test(synthetic_round_trip_with_values),
      cmocka_unit_test(failed_conversion_leaves_no_file),
  };
  return cmocka_run_group_tests_name("trace_native", tests, NULL, NULL);
}
