/* gpurf sim: pinned JSON keys, several traces with a geometric mean, the
 * shipped traces and every synthetic preset end to end, errors. */
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"

#define TRACES GPURF_TEST_DATA_DIR "/traces/"

static cli_result r;

static void test_json_keys(void **state) {
  (void)state;
  cli_run(&r, "sim --trace " TRACES "matrixmul-32-32-trace --format json");
  assert_int_equal(r.status, 0);
  const char *keys[] = {"\"design\": \"fermi-baseline\"",
                        "\"cycles\": ",
                        "\"ipc\": ",
                        "\"warp_instructions\": 4416",
                        "\"bank_conflicts\": {",
                        "\"inter_read\": ",
                        "\"inter_write\": ",
                        "\"intra\": ",
                        "\"energy_pj\": {",
                        "\"bank\": ",
                        "\"crossbar\": ",
                        "\"arbiter\": ",
                        "\"collector\": ",
                        "\"total\": ",
                        "\"edp_j_s\": ",
                        "\"bank_utilisation\": [",
                        "\"issue_stalls\": {",
                        "\"collector_full\": "};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    if (!strstr(r.out, keys[i])) fail_msg("no %s in\n%s", keys[i], r.out);
  /* Every operand delivered to a collector is a costed collector write. */
  const char *cu = strstr(r.out, "\"collector\": ");
  assert_true(cu && strtod(cu + strlen("\"collector\": "), NULL) > 0.0);
}

/* One CSV row: cycles, IPC and mean bank utilisation of the trace. */
static void check_row(const char *line, int schedulers) {
  char name[256];
  unsigned long long cycles, insts;
  double ipc, util;
  unsigned long long ir, iw, in;
  if (sscanf(line, "%255[^,],%llu,%lf,%llu,%llu,%llu,%llu,%lf", name, &cycles, &ipc, &insts, &ir,
             &iw, &in, &util) != 8)
    fail_msg("bad row '%s'", line);
  if (!(cycles > 0 && insts > 0 && ipc > 0.0 && ipc <= schedulers && util >= 0.0 && util <= 1.0))
    fail_msg("%s: cycles %llu, IPC %g, utilisation %g", name, cycles, ipc, util);
}

/* The shipped traces and every preset: IPC within the issue width (two
 * schedulers, one instruction each), utilisation within 0-100%. */
static void test_end_to_end(void **state) {
  (void)state;
  char args[4096];
  int n = snprintf(args, sizeof args,
                   "sim --format csv --trace %smatrixmul-32-32-trace --trace "
                   "%svectoradd-100-32-trace --trace %sdataflow.gtrace",
                   TRACES, TRACES, TRACES);
  int runs = 3;
  for (const gpurf_trace_preset_info *p = gpurf_trace_gen_presets(); p->name; p++, runs++)
    n += snprintf(args + n, sizeof args - (size_t)n, " --workload %s", p->name);
  cli_run(&r, args);
  assert_int_equal(r.status, 0);
  assert_int_equal(cli_count_lines(r.out), runs + 2); /* header, rows, geomean */
  char *save = NULL, *copy = strdup(r.out);
  assert_non_null(copy);
  int row = 0;
  for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save), row++)
    if (row > 0 && strncmp(line, "geomean,", 8) != 0) check_row(line, 2);
  free(copy);
  assert_non_null(strstr(r.out, "\ngeomean,"));
}

static void test_several_json(void **state) {
  (void)state;
  cli_run(&r, "sim jing-128k-16bk-straight --trace " TRACES "vectoradd-100-32-trace --trace " TRACES
              "dataflow.gtrace --format json --set policy=lrr");
  assert_int_equal(r.status, 0);
  assert_non_null(strstr(r.out, "\"runs\": ["));
  assert_non_null(strstr(r.out, "\"geomean\": {"));
  assert_non_null(strstr(r.out, "\"design\": \"jing-128k-16bk-straight\""));
}

static void test_text(void **state) {
  (void)state;
  cli_run(&r, "sim --trace " TRACES "vectoradd-100-32-trace");
  assert_int_equal(r.status, 0);
  assert_non_null(strstr(r.out, "bank conflicts: inter-read "));
  assert_non_null(strstr(r.out, "operand fetch "));
  assert_string_equal(r.err, "");
  cli_run(&r, "sim --help");
  assert_int_equal(r.status, 0);
  assert_non_null(strstr(r.out, "collectors_sp"));
}

static void test_bench(void **state) {
  (void)state;
  cli_run(&r, "bench sim --workload matrixmul --n 1 --format json");
  assert_int_equal(r.status, 0);
  assert_non_null(strstr(r.out, "\"warp_instructions\": 4416"));
  assert_non_null(strstr(r.out, "\"warp_instructions_per_s\": "));
  assert_non_null(strstr(r.out, "\"trace_read_time_s\": "));
  assert_non_null(strstr(r.out, "\"warp_instructions_per_cpu_s\": "));
  assert_non_null(strstr(r.out, "\"trace_format\": \"binary\""));
  assert_non_null(strstr(r.out, "\"trace_values\": false"));
  cli_run(&r, "bench sim --workload matrixmul --n 1 --values");
  assert_int_equal(r.status, 0);
  assert_non_null(strstr(r.out, "as a binary trace with per-lane values, 4416 warp instructions"));
  cli_run(&r, "bench sim --trace " TRACES "vectoradd-100-32-trace --n 1");
  assert_int_equal(r.status, 0);
  assert_non_null(strstr(r.out, "344 warp instructions"));
  assert_non_null(strstr(r.out, "M warp instructions/s on one core"));
  /* A run this short is timed in micro- or milliseconds, not as 0.000 s. */
  assert_true(strstr(r.out, " us: ") || strstr(r.out, " ms: "));
  assert_null(strstr(r.out, "0.000 s"));
  assert_non_null(strstr(r.out, "per CPU second of the process: "));
}

/* The baseline named as a technique prints the run without one. */
static void test_technique_baseline(void **state) {
  (void)state;
  static cli_result a, b;
  cli_run(&a, "sim --trace " TRACES "dataflow.gtrace --format json");
  cli_run(&b, "sim --trace " TRACES "dataflow.gtrace --format json --technique baseline");
  assert_int_equal(a.status, 0);
  assert_int_equal(b.status, 0);
  assert_string_equal(a.out, b.out);
  cli_run(&a, "sim --technique list");
  assert_int_equal(a.status, 0);
  assert_non_null(strstr(a.out, "baseline "));
}

/* The register-file cache from the command: its counters and the bank
 * accesses of tests/test_tech_rfc.c's rfc_evict (3 reads, 1 write). */
static void test_technique_rfc(void **state) {
  (void)state;
  static cli_result c;
  cli_run(&c, "sim --trace " GPURF_TEST_DATA_DIR "/microtraces/rfc_evict.gtrace --format json "
              "--technique rfc --technique-set entries=2");
  assert_int_equal(c.status, 0);
  assert_non_null(strstr(c.out, "\"bank_reads\": 3,"));
  assert_non_null(strstr(c.out, "\"bank_writes\": 1,"));
  assert_non_null(strstr(c.out, "\"rfc_read_hits\": 5,"));
  assert_non_null(strstr(c.out, "\"rfc_eviction_writebacks\": 1,"));
  cli_run(&c, "sim --technique list");
  assert_non_null(strstr(c.out, "rfc "));
}

/* Several traces and presets on one thread and on two: the same bytes in
 * every format, and the same first error when a run fails. */
static void test_jobs(void **state) {
  (void)state;
  static cli_result one, two;
  static const char *const formats[] = {"json", "csv", "text"};
  for (int f = 0; f < 3; f++) {
    char args[2048];
    for (int j = 1; j <= 2; j++) {
      snprintf(args, sizeof args,
               "sim --trace %smatrixmul-32-32-trace --workload hpc --trace "
               "%svectoradd-100-32-trace --workload matrixmul --trace %sdataflow.gtrace "
               "--set policy=lrr --format %s --jobs %d",
               TRACES, TRACES, TRACES, formats[f], j);
      cli_run(j == 1 ? &one : &two, args);
    }
    assert_int_equal(one.status, 0);
    assert_int_equal(two.status, 0);
    assert_string_equal(one.out, two.out);
    assert_string_equal(one.err, two.err);
  }
  cli_run(&one, "sim --trace " TRACES "dataflow.gtrace --workload hpc --workload nope --trace "
                "/nonexistent/trace.gtrace --jobs 1");
  cli_run(&two, "sim --trace " TRACES "dataflow.gtrace --workload hpc --workload nope --trace "
                "/nonexistent/trace.gtrace --jobs 2");
  assert_int_equal(one.status, 2);
  assert_int_equal(two.status, 2);
  assert_string_equal(one.out, "");
  assert_string_equal(two.out, "");
  assert_string_equal(one.err, two.err);
  assert_non_null(strstr(one.err, "nope"));
}

/* Bank stealing by name, read stealing alone through its option: the
 * conflict of stealread.gtrace is gone (9 cycles to 8, test_stealing.c). */
static void test_technique_stealing(void **state) {
  (void)state;
  cli_run(&r, "sim --trace " GPURF_TEST_DATA_DIR "/microtraces/stealread.gtrace --format json "
              "--technique stealing --technique-set mode=read");
  assert_int_equal(r.status, 0);
  assert_non_null(strstr(r.out, "\"cycles\": 8,"));
  assert_non_null(strstr(r.out, "\"read_aheads\": 1"));
}

static void test_errors(void **state) {
  (void)state;
  static const cli_error_case cases[] = {
      {"sim", 2, "needs --trace PATH or --workload NAME"},
      {"sim --trace " TRACES "dataflow.gtrace --set nope=1", 2, "no SM parameter named 'nope'"},
      {"sim --trace " TRACES "dataflow.gtrace --set banks", 2, "--set needs KEY=VALUE"},
      {"sim --trace " TRACES "dataflow.gtrace --set policy=fifo", 2, "'fifo' is not one of"},
      {"sim --trace /nonexistent/trace.gtrace", 1, "/nonexistent/trace.gtrace"},
      {"sim --workload no-such-preset", 2, "no-such-preset"},
      {"sim no-such-design --trace " TRACES "dataflow.gtrace", 1,
       "no design named 'no-such-design'"},
      {"sim --trace " TRACES "dataflow.gtrace --set banks=32", 1, "16 bank instances for 32 banks"},
      {"sim --trace " TRACES "dataflow.gtrace --format xml", 2, "xml"},
      {"sim --trace " TRACES "dataflow.gtrace --technique telepathy", 2,
       "unknown technique 'telepathy' (known: baseline"},
      {"sim --trace " TRACES "dataflow.gtrace --technique baseline --technique-set x=1", 2,
       "--technique-set x: technique baseline has no options"},
      {"sim --trace " TRACES "dataflow.gtrace --technique-set x", 2, "needs KEY=VALUE"},
      {"sim --trace " TRACES "dataflow.gtrace --technique-set x=1", 2, "needs --technique NAME"},
      {"sim --trace " TRACES "dataflow.gtrace --jobs 0", 2, "--jobs must be at least 1"},
      {"sim --trace " TRACES "dataflow.gtrace --technique rfc --technique-set entries=9", 2,
       "--technique-set entries: entries per thread must be 1..8, not '9'"},
      {"sim --trace " TRACES "dataflow.gtrace --technique rfc --technique-set ways=2", 2,
       "rfc has no option 'ways'"},
      {"sim --trace " TRACES "dataflow.gtrace --jobs many", 2, "--jobs needs a whole number"},
      {"sim --trace " TRACES "dataflow.gtrace --technique stealing --technique-set mode=up", 2,
       "stealing mode 'up' is not both, read or write"},
  };
  cli_check_errors(cases, sizeof cases / sizeof cases[0]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_json_keys),    cmocka_unit_test(test_end_to_end),
      cmocka_unit_test(test_several_json), cmocka_unit_test(test_text),
      cmocka_unit_test(test_bench),        cmocka_unit_test(test_jobs),
      cmocka_unit_test(test_errors),       cmocka_unit_test(test_technique_baseline),
      cmocka_unit_test(test_technique_stealing),
      cmocka_unit_test(test_technique_rfc),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
