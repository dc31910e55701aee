/* Helpers shared by the cmocka tests. */
#ifndef GPURF_TEST_UTIL_H
#define GPURF_TEST_UTIL_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
/* The cell CACTI's validation rows name by their ports: the 6T cell for one
 * read/write port, the 8T cell for one read and one write port, the
 * multi-port cell otherwise. */
static inline const gpurf_cell *test_cell_for_ports(const gpurf_ports *p, const gpurf_cell *sram6t,
                                                    const gpurf_cell *sram8t,
                                                    const gpurf_cell *multiport) {
  if (p->rw == 1 && !p->read && !p->write) return sram6t;
  if (!p->rw && p->read == 1 && p->write == 1) return sram8t;
  return multiport;
}

static inline gpurf_tech *test_tech(gpurf_ctx *ctx, const char *node) {
  gpurf_tech *t = NULL;
  assert_ok(ctx, gpurf_tech_alloc(ctx, &t));
  assert_ok(ctx, gpurf_tech_load(ctx, node, t));
  return t;
}

/* A new, empty energy report; the caller frees it. */
static inline gpurf_energy_report *test_report(gpurf_ctx *ctx) {
  gpurf_energy_report *r = NULL;
  assert_ok(ctx, gpurf_energy_report_alloc(ctx, &r));
  return r;
}

/* Bitwise equality of two doubles (both NaN counts as equal). */
#define assert_same_bits(x, y)           \
  do {                                   \
    double x_ = (x), y_ = (y);           \
    assert_memory_equal(&x_, &y_, sizeof x_); \
  } while (0)

/* Every quantity of two energy reports agrees bit for bit. */
static inline void assert_same_report(const gpurf_energy_report *a, const gpurf_energy_report *b) {
  assert_string_equal(gpurf_energy_report_design(a), gpurf_energy_report_design(b));
  assert_int_equal(gpurf_energy_report_cycles(a), gpurf_energy_report_cycles(b));
  assert_int_equal(gpurf_energy_report_instructions(a), gpurf_energy_report_instructions(b));
  double (*const whole[])(const gpurf_energy_report *) = {
      gpurf_energy_report_clock_hz,         gpurf_energy_report_seconds,
      gpurf_energy_report_dynamic_energy_j, gpurf_energy_report_wake_energy_j,
      gpurf_energy_report_leakage_energy_j, gpurf_energy_report_total_energy_j,
      gpurf_energy_report_average_power_w,  gpurf_energy_report_dynamic_power_w,
      gpurf_energy_report_leakage_power_w,  gpurf_energy_report_edp_j_s,
      gpurf_energy_report_ipc,              gpurf_energy_report_energy_per_instruction_j,
      gpurf_energy_report_instructions_per_j};
  for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++)
    assert_same_bits(whole[i](a), whole[i](b));
  double (*const part[])(const gpurf_energy_report *, int) = {
      gpurf_energy_report_component_wake_energy_j,
      gpurf_energy_report_component_wake_time_s,
      gpurf_energy_report_component_leakage_saved_j,
      gpurf_energy_report_component_dynamic_energy_j,
      gpurf_energy_report_component_leakage_energy_j,
      gpurf_energy_report_component_total_energy_j};
  assert_int_equal(gpurf_energy_report_components(a), gpurf_energy_report_components(b));
  for (int c = 0; c < gpurf_energy_report_components(a); c++) {
    assert_string_equal(gpurf_energy_report_component_name(a, c),
                        gpurf_energy_report_component_name(b, c));
    assert_int_equal(gpurf_energy_report_component_gated_subarray_cycles(a, c),
                     gpurf_energy_report_component_gated_subarray_cycles(b, c));
    assert_int_equal(gpurf_energy_report_component_wakeups(a, c),
                     gpurf_energy_report_component_wakeups(b, c));
    for (size_t i = 0; i < sizeof part / sizeof part[0]; i++)
      assert_same_bits(part[i](a, c), part[i](b, c));
    assert_int_equal(gpurf_energy_report_events(a, c), gpurf_energy_report_events(b, c));
    for (int v = 0; v < gpurf_energy_report_events(a, c); v++) {
      assert_int_equal(gpurf_energy_report_event_count(a, c, v),
                       gpurf_energy_report_event_count(b, c, v));
      assert_same_bits(gpurf_energy_report_event_energy_j(a, c, v),
                       gpurf_energy_report_event_energy_j(b, c, v));
    }
  }
}

/* An event of a component's cost record, which must have it. */
static inline const gpurf_component_event *test_ev(const gpurf_component_cost *c,
                                                   const char *event) {
  const gpurf_component_event *e = gpurf_component_cost_event(c, event);
  if (!e) fail_msg("the %s record has no event '%s'", c->kind, event);
  return e;
}
static inline double test_ev_j(const gpurf_component_cost *c, const char *event) {
  return test_ev(c, event)->energy_j;
}
static inline double test_ev_s(const gpurf_component_cost *c, const char *event) {
  return test_ev(c, event)->time_s;
}
static inline double test_leak_w(const gpurf_component_cost *c) {
  return c->leakage_sub_w + c->leakage_gate_w;
}

/* Cuts a tab-separated line (its line end dropped) into at most max fields. */
static inline int test_split_tabs(char *line, char **field, int max) {
  int n = 0;
  line[strcspn(line, "\r\n")] = '\0';
  for (char *p = line; n < max;) {
    field[n++] = p;
    p = strchr(p, '\t');
    if (!p) break;
    *p++ = '\0';
  }
  return n;
}

/* The column of each name in a table's header line; fails the test naming
 * the table and the missing column. */
static inline void test_find_columns(const char *table, const char *const *names, int n,
                                     char **field, int nf, int *col) {
  for (int k = 0; k < n; k++) {
    col[k] = -1;
    for (int i = 0; i < nf; i++)
      if (!strcmp(field[i], names[k])) col[k] = i;
    if (col[k] < 0) fail_msg("%s has no column %s", table, names[k]);
  }
}

/* Writes a synthetic preset to path as a binary trace. */
static inline void test_write_preset_binary(const gpurf_trace_gen_params *g, const char *path) {
  gpurf_ctx *ctx = test_ctx();
  gpurf_trace_reader *r = NULL;
  gpurf_trace_writer *w = NULL;
  gpurf_trace_inst *in = malloc(sizeof *in);
  assert_non_null(in);
  assert_ok(ctx, gpurf_trace_gen_alloc(ctx, g, &r));
  assert_ok(ctx, gpurf_trace_writer_alloc(ctx, path, GPURF_TRACE_FORMAT_BINARY, &w));
  int rc;
  while ((rc = gpurf_trace_next(ctx, r, in)) == GPURF_OK)
    assert_ok(ctx, gpurf_trace_write(ctx, w, gpurf_trace_reader_kernel(r), in));
  assert_int_equal(rc, GPURF_TRACE_END);
  assert_ok(ctx, gpurf_trace_writer_commit(ctx, w));
  gpurf_trace_writer_free(w);
  gpurf_trace_reader_free(r);
  free(in);
  gpurf_ctx_free(ctx);
}

#endif
