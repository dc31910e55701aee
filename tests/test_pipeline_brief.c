/* The pipeline reads its trace in brief unless a technique sees records:
 * both ways give the same results, on binary, text and synthetic traces, on
 * a pipeline run over one trace after another (whose readers' shapes share
 * numbers and stamps), and on a program longer than the compact forms one
 * generation of the brief path's pool holds (forms are made anew, and
 * those of CTAs gone given back, while CTAs still point at older ones). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

#define TRACES GPURF_TEST_DATA_DIR "/traces/"

/* A technique that sees every record and does nothing with it: the pipeline
 * then reads records whole. */
static void see_record(void *state, gpurf_pipeline *p, int cta, uint32_t index,
                       const gpurf_trace_inst *inst) {
  (void)p, (void)cta, (void)index, (void)inst;
  (*(uint64_t *)state)++;
}

static void same_stats(const char *what, const gpurf_pipeline_stats *a,
                       const gpurf_pipeline_stats *b) {
  if (a->cycles != b->cycles || a->warp_instructions != b->warp_instructions ||
      a->reads != b->reads || a->writes != b->writes ||
      a->conflicts_inter_read != b->conflicts_inter_read ||
      a->conflicts_inter_write != b->conflicts_inter_write ||
      a->conflicts_intra != b->conflicts_intra || a->max_buffered != b->max_buffered ||
      a->collector_accesses != b->collector_accesses || a->banks != b->banks ||
      memcmp(a->stalls, b->stalls, sizeof a->stalls) != 0 ||
      memcmp(a->bank_reads, b->bank_reads, sizeof a->bank_reads) != 0 ||
      memcmp(a->bank_writes, b->bank_writes, sizeof a->bank_writes) != 0 ||
      memcmp(a->dispatch_stalls, b->dispatch_stalls, sizeof a->dispatch_stalls) != 0)
    fail_msg("%s: in brief %llu cycles, %llu reads; whole %llu cycles, %llu reads", what,
             (unsigned long long)a->cycles, (unsigned long long)a->reads,
             (unsigned long long)b->cycles, (unsigned long long)b->reads);
}

/* Runs the traces one after another on one pipeline (reset between), in
 * brief or whole; the stats of the last run. */
static void run(const char *const *paths, size_t n, int whole, gpurf_pipeline_stats *st) {
  gpurf_ctx *ctx = test_ctx();
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  uint64_t seen = 0;
  gpurf_pipeline_hooks hooks;
  memset(&hooks, 0, sizeof hooks);
  hooks.name = "see-records";
  hooks.state = &seen;
  hooks.load = see_record;
  gpurf_pipeline *p = NULL;
  assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, NULL, whole ? &hooks : NULL, &p));
  for (size_t i = 0; i < n; i++) {
    gpurf_trace_reader *r = NULL;
    assert_ok(ctx, gpurf_trace_reader_alloc(ctx, paths[i], &r));
    if (i) gpurf_pipeline_reset(p);
    assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
    gpurf_trace_reader_free(r);
  }
  assert_ok(ctx, gpurf_pipeline_stats_get(p, st));
  assert_true(whole ? seen > 0 : seen == 0);
  gpurf_pipeline_free(p);
  gpurf_ctx_free(ctx);
}

static void write_preset(const char *workload, const char *path) {
  const gpurf_trace_gen_params g = {workload, 4, 2, 0, 400, 1};
  test_write_preset_binary(&g, path);
}

/* More distinct instructions than a generation of forms (PIPE_POOL_GEN,
 * 32768), in more CTAs than are resident at once. */
static void write_long(const char *path) {
  const gpurf_trace_gen_params g = {"compute", 7, 12, 2, 40000, 0};
  test_write_preset_binary(&g, path);
}

static void brief_and_whole_agree(void **state) {
  (void)state;
  char mm[1024], hpc[1024], cmp[1024], lng[1024];
  snprintf(mm, sizeof mm, "%s/%ld-pb-mm.gtraceb", GPURF_TEST_TMP_DIR, (long)getpid());
  snprintf(hpc, sizeof hpc, "%s/%ld-pb-hpc.gtraceb", GPURF_TEST_TMP_DIR, (long)getpid());
  snprintf(cmp, sizeof cmp, "%s/%ld-pb-compute.gtraceb", GPURF_TEST_TMP_DIR, (long)getpid());
  snprintf(lng, sizeof lng, "%s/%ld-pb-long.gtraceb", GPURF_TEST_TMP_DIR, (long)getpid());
  gpurf_ctx *ctx = test_ctx();
  assert_ok(ctx, gpurf_trace_convert(ctx, TRACES "matrixmul-32-32-trace", mm,
                                     GPURF_TRACE_FORMAT_BINARY));
  gpurf_ctx_free(ctx);
  write_preset("hpc", hpc);
  write_preset("compute", cmp);
  write_long(lng);
  const char *one[][1] = {{mm}, {hpc}, {TRACES "handwritten"}, {TRACES "dataflow.gtrace"}, {lng}};
  gpurf_pipeline_stats a, b;
  for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) {
    run(one[i], 1, 0, &a);
    run(one[i], 1, 1, &b);
    same_stats(one[i][0], &a, &b);
  }
  /* One pipeline, three readers: shapes of the same numbers and stamps. */
  const char *seq[] = {hpc, cmp, mm};
  run(seq, 3, 0, &a);
  run(seq, 3, 1, &b);
  same_stats("hpc, compute, matrixmul", &a, &b);
  /* After the long one, a pipeline whose pool has moved on generations. */
  const char *seq2[] = {lng, mm};
  run(seq2, 2, 0, &a);
  run(seq2, 2, 1, &b);
  same_stats("long, matrixmul", &a, &b);
  remove(mm), remove(hpc), remove(cmp), remove(lng);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(brief_and_whole_agree),
  };
  return cmocka_run_group_tests_name("pipeline_brief", tests, NULL, NULL);
}
