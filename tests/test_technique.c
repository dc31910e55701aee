/* The technique registry: names, unknown names and options, and the
 * baseline technique giving exactly the run without one. */
#include <string.h>

#include "test_util.h"

#include "gpurf/technique.h"

static void test_names(void **state) {
  (void)state;
  int n = gpurf_technique_count();
  assert_true(n >= 1);
  assert_string_equal(gpurf_technique_name_at(0), "baseline");
  assert_null(gpurf_technique_name_at(n));
  assert_null(gpurf_technique_name_at(-1));
  for (int i = 0; i < n; i++) assert_non_null(gpurf_technique_summary(gpurf_technique_name_at(i)));
  assert_null(gpurf_technique_summary("nothing"));
}

static void test_unknown(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_technique *t = NULL;
  assert_int_equal(gpurf_technique_alloc(ctx, "telepathy", &t), GPURF_ENOTFOUND);
  assert_null(t);
  assert_non_null(strstr(gpurf_ctx_error(ctx)->message, "baseline"));
  assert_ok(ctx, gpurf_technique_alloc(ctx, "baseline", &t));
  assert_string_equal(gpurf_technique_name(t), "baseline");
  assert_int_equal(gpurf_technique_set(ctx, t, "entries", "6"), GPURF_ENOTFOUND);
  assert_int_equal(gpurf_technique_counter_count(t), 0);
  assert_null(gpurf_technique_counter_name(t, 0));
  gpurf_technique_free(t);
  gpurf_ctx_free(ctx);
}

static void run(gpurf_ctx *ctx, const gpurf_pipeline_hooks *h, gpurf_pipeline_stats *st) {
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  gpurf_trace_gen_params g = {"compute", 3, 1, 8, 200, -1};
  gpurf_trace_reader *r = NULL;
  gpurf_pipeline *p = NULL;
  assert_ok(ctx, gpurf_trace_gen_alloc(ctx, &g, &r));
  assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, NULL, h, &p));
  assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
  assert_ok(ctx, gpurf_pipeline_stats_get(p, st));
  gpurf_pipeline_free(p);
  gpurf_trace_reader_free(r);
}

static void test_baseline_is_no_technique(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_technique *t = NULL;
  assert_ok(ctx, gpurf_technique_alloc(ctx, "baseline", &t));
  gpurf_pipeline_stats a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  run(ctx, NULL, &a);
  run(ctx, gpurf_technique_hooks(t), &b);
  assert_true(a.warp_instructions > 0);
  assert_int_equal(a.cycles, b.cycles);
  assert_int_equal(a.reads, b.reads);
  assert_int_equal(a.conflicts_inter_read, b.conflicts_inter_read);
  assert_int_equal(a.conflicts_inter_write, b.conflicts_inter_write);
  gpurf_technique_free(t);
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_names), cmocka_unit_test(test_unknown),
                                     cmocka_unit_test(test_baseline_is_no_technique)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
