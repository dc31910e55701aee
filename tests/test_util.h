/* Helpers shared by the cmocka tests. */
#ifndef GPURF_TEST_UTIL_H
#define GPURF_TEST_UTIL_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "gpurf/gpurf.h"

/* Relative float comparison: cmocka 1.1's float assertion is absolute. */
#define assert_rel(actual, expected, tol)                                          \
  do {                                                                             \
    double a_ = (actual), e_ = (expected), t_ = (tol);                             \
    double d_ = fabs(a_ - e_) / (fabs(e_) > 0 ? fabs(e_) : 1.0);                   \
    if (!(d_ <= t_))                                                               \
      fail_msg("%s = %.9g, expected %.9g (relative error %.3g > %.3g)", #actual,   \
               a_, e_, d_, t_);                                                    \
  } while (0)

/* A context whose data directory is the source tree. */
static inline gpurf_ctx *test_ctx(void) {
  gpurf_ctx *ctx = gpurf_ctx_alloc();
  assert_non_null(ctx);
  assert_int_equal(gpurf_ctx_set_data_dir(ctx, GPURF_TEST_SOURCE_DIR), GPURF_OK);
  return ctx;
}

/* Fails the test with the context's formatted error. */
static inline void assert_ok(gpurf_ctx *ctx, int rc) {
  if (rc != GPURF_OK) {
    char line[1024];
    gpurf_error_format(gpurf_ctx_error(ctx), line, sizeof line);
    fail_msg("status %d: %s", rc, line);
  }
}

/* A node loaded into a new gpurf_tech; the caller frees it. */
static inline gpurf_tech *test_tech(gpurf_ctx *ctx, const char *node) {
  gpurf_tech *t = NULL;
  assert_ok(ctx, gpurf_tech_alloc(ctx, &t));
  assert_ok(ctx, gpurf_tech_load(ctx, node, t));
  return t;
}

#endif
