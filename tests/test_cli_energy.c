/* gpurf energy as a user meets it: pinned JSON keys, the AccelWattch
 * mapping in the output, repeatable output, one-line errors with nothing on
 * stdout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_run.h"

#define DATA GPURF_TEST_DATA_DIR
#define TABLE "'" DATA "/tables/test-rf.yaml'"

static cli_result R;

static void json_has_pinned_keys(void **state) {
  (void)state;
  cli_run(&R, "energy " TABLE " '" DATA "/counters/test-rf.tsv' --format json");
  assert_int_equal(R.status, 0);
  /* 160 reads x 2 pJ + 70 writes x 3 pJ + 3 wakes x 1 pJ + 160 x 4 pJ + 160 x 0.5 pJ. */
  const char *keys[] = {"\"energy_j\": {", "\"total\": 5.773e-09", "\"dynamic\": 1.253e-09",
                        "\"leakage\": 4.52e-09", "\"by_component\": {", "\"bank\": 4.353e-09",
                        "\"average_power_w\": 0.005773", "\"cycles\": 1000", "\"seconds\": 1e-06",
                        "\"instructions\": 500", "\"energy_per_instruction_j\": 1.1546e-11",
                        "\"edp_j_s\": 5.773e-15", "\"counts_format\": \"gpurf-counters\"",
                        "\"gated_subarray_cycles\": 400", "\"wakeups\": 3"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    if (!strstr(R.out, keys[i])) fail_msg("missing %s in\n%s", keys[i], R.out);
  assert_null(strstr(R.out, "counter_mapping"));
  /* --instructions overrides the file's. */
  cli_run(&R, "energy " TABLE " '" DATA "/counters/test-rf.tsv' --format json --instructions 1000");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "\"ipc\": 1,"));
}

static void accelwattch_output_says_what_each_counter_became(void **state) {
  (void)state;
  cli_run(&R, "energy " TABLE " '" DATA "/counters/accelwattch-report.log' --format json");
  assert_int_equal(R.status, 0);
  const char *keys[] = {"\"counts_format\": \"accelwattch\"", "\"counter_mapping\": [",
                        "\"counter\": \"REG_RD\"", "\"thread_operands\": 98304",
                        "\"warp_accesses\": 3072", "\"became\": [", "\"crossbar.transfer\"",
                        "\"counter\": \"NON_REG_OPs\"", "\"kernels\": 2", "\"cycles\": 2000"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    if (!strstr(R.out, keys[i])) fail_msg("missing %s in\n%s", keys[i], R.out);
  cli_run(&R, "energy " TABLE " '" DATA "/counters/accelwattch-bare.txt' --cycles 100");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "REG_RD                 3200 thread operands -> 100 warp accesses "
                                "-> bank.read, crossbar.transfer, collector.write"));
  assert_non_null(strstr(R.out, "-> 2 warp accesses -> collector.write"));
  cli_run(&R, "energy " TABLE " '" DATA "/counters/accelwattch-bare.txt' --cycles 100 --format csv");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "component,event,count,energy_j\nbank,read,100,2e-10\n"));
  assert_non_null(strstr(R.out, "collector,write,102,5.1e-11\n"));
}

static void output_is_repeatable(void **state) {
  (void)state;
  static cli_result again;
  cli_run(&R, "energy " TABLE " '" DATA "/counters/accelwattch-report.log'");
  cli_run(&again, "energy " TABLE " '" DATA "/counters/accelwattch-report.log'");
  assert_int_equal(R.status, 0);
  assert_string_equal(R.out, again.out);
  assert_non_null(strstr(R.out, "total energy"));
}

static void errors_are_one_line_with_no_output(void **state) {
  (void)state;
  const cli_error_case cases[] = {
      {"energy", 2, "needs TABLE and COUNTS"},
      {"energy " TABLE, 2, "needs TABLE and COUNTS"},
      {"energy a b c", 2, "unexpected argument 'c'"},
      {"energy a b --frobnicate", 2, "unknown option '--frobnicate'"},
      {"energy a b --instructions many", 2, "--instructions needs a whole number"},
      {"energy a b --format xml", 2, "--format must be"},
      {"energy '" DATA "/tables/bad/unknown-key.yaml' '" DATA "/counters/test-rf.tsv'", 1,
       "unknown-key.yaml:7:7: key 'table.components[0].instancs'"},
      {"energy " TABLE " '" DATA "/counters/bad/unknown-event.tsv'", 1,
       "unknown-event.tsv:3:6: 'bank' has no event 'fetch'"},
      {"energy " TABLE " '" DATA "/counters/accelwattch-bare.txt'", 1,
       "no gpu_sim_cycle lines and no simulator log beside it"},
      {"energy " TABLE " '" DATA "/counters/test-rf.tsv' --cycles 5", 1,
       "the file gives its cycles (1000)"},
  };
  cli_check_errors(cases, sizeof cases / sizeof cases[0]);
}

#define RUNS DATA "/accelwattch-runs"

/* Our register-file power on the run's time base, from the JSON's own
 * totals: dynamic energy over cycles / clock, plus leakage power. */
static double ours_at_run_clock(const char *json, double cycles, double clock_hz) {
  double total = cli_json_number(json, "total"), leak = cli_json_number(json, "leakage");
  return (total - leak) / (cycles / clock_hz) + cli_json_number(json, "leakage_power_w");
}

/* The real TITAN X matrixMul run: the directory, or its report alone, finds
 * the simulator's output for the cycles; AccelWattch's RF power stands
 * beside ours with the ratio. */
static void accelwattch_run_directory(void **state) {
  (void)state;
  const char *args[] = {
      "energy fermi-baseline '" RUNS "/titanx-matrixmul' --format json",
      "energy fermi-baseline '" RUNS "/titanx-matrixmul/titanx-aw-matrixmul.accelwattch_power_"
      "report.log' --format json",
      "energy fermi-baseline '" RUNS "/titanx-matrixmul/titanx-aw-matrixmul.accelwattch_power_"
      "report.log' --format json --sim-log '" RUNS "/titanx-matrixmul/titanx-aw-matrixmul.stdout"
      ".txt'",
  };
  for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
    cli_run(&R, args[i]);
    if (R.status != 0) fail_msg("'%s': %s", args[i], R.err);
    /* gpu_sim_cycle = 7506 and -gpgpu_clock_domains 1417.0 in the log,
     * gpu_avg_RFP = 0.157323 W and gpu_tot_REG_RD = 220160 in the report. */
    assert_int_equal((int)cli_json_number(R.out, "cycles"), 7506);
    assert_int_equal((int)cli_json_number(R.out, "gpu_tot_sim_cycle"), 7506);
    assert_rel(cli_json_number(R.out, "run_clock_hz"), 1.417e9, 1e-12);
    assert_rel(cli_json_number(R.out, "accelwattch_rf_power_w"), 0.157323, 1e-12);
    assert_int_equal((int)cli_json_number(R.out, "warp_accesses"), 220160 / 32);
    double ours = ours_at_run_clock(R.out, 7506, 1.417e9);
    assert_rel(cli_json_number(R.out, "ours_rf_power_w"), ours, 1e-5);
    assert_rel(cli_json_number(R.out, "ratio"), ours / 0.157323, 1e-4);
    assert_non_null(strstr(R.out, "\"name\": \"_Z8mult_gpuIfEvPT_S1_S1_ii\""));
  }
  cli_run(&R, "energy fermi-baseline '" RUNS "/titanx-matrixmul'");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "AccelWattch 0.157323 W, ours/AccelWattch "));
}

/* Two kernels: each has its cycles from the log, and AccelWattch's power
 * over the run is weighted by them: (2 W x 300 + 1 W x 100) / 400. */
static void accelwattch_run_every_kernel(void **state) {
  (void)state;
  cli_run(&R, "energy " TABLE " '" RUNS "/two-kernels' --format json");
  if (R.status != 0) fail_msg("%s", R.err);
  assert_int_equal((int)cli_json_number(R.out, "cycles"), 400);
  assert_rel(cli_json_number(R.out, "accelwattch_rf_power_w"), 1.75, 1e-12);
  const char *second = strstr(R.out, "\"name\": \"_Z6secondPf\"");
  assert_non_null(second);
  assert_int_equal((int)cli_json_number(second, "cycles"), 100);
  assert_rel(cli_json_number(second, "rf_power_w"), 1.0, 1e-12);
  /* 9600 + 3200 thread operands read over both kernels = 300 warp reads. */
  assert_int_equal((int)cli_json_number(R.out, "warp_accesses"), 300);
  double ours = ours_at_run_clock(R.out, 400, 1e9);
  assert_rel(cli_json_number(R.out, "ours_rf_power_w"), ours, 1e-5);
  const cli_error_case cases[] = {
      {"energy " TABLE " '" RUNS "/two-kernels' --sim-log '" RUNS "/bad/renamed.o1'", 1,
       "renamed.o1:8:15: kernel 2 is '_Z5thirdPf' here but '_Z6secondPf' in the report"},
      {"energy " TABLE " '" RUNS "/two-kernels' --sim-log '" RUNS "/bad/one-kernel.o1'", 1,
       "one-kernel.o1: 1 gpu_sim_cycle line for the report's 2 kernels"},
      {"energy " TABLE " '" RUNS "/bad'", 1, "no accelwattch_power_report.log in this directory"},
      {"energy " TABLE " '" RUNS "/two-kernels' --sim-log a --cycles 5", 2,
       "--cycles and --sim-log both give the cycles"},
      {"energy " TABLE " '" DATA "/counters/test-rf.tsv' --sim-log a", 1,
       "--sim-log is for AccelWattch reports"},
      {"energy " TABLE " '" DATA "/counters/accelwattch-report.log' --sim-log '" RUNS
       "/two-kernels/run.o1'", 1, "the report gives its own gpu_sim_cycle lines"},
  };
  cli_check_errors(cases, sizeof cases / sizeof cases[0]);
}

static void copy_file(const char *from, const char *to) {
  FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
  assert_non_null(in);
  assert_non_null(out);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0) assert_int_equal(fwrite(buf, 1, n, out), n);
  fclose(in);
  fclose(out);
}

/* Runs kept side by side in one directory, as the project's reference runs
 * are (RUN.accelwattch_power_report.log beside RUN.stdout.txt and another
 * run's log): the report's own log is the one named as it is; with none
 * such, two logs are still an error. */
static void accelwattch_runs_side_by_side(void **state) {
  (void)state;
  char dir[512], path[1024], cmd[2048];
  snprintf(dir, sizeof dir, "%s/aw_side_%ld", GPURF_TEST_TMP_DIR, (long)getpid());
  mkdir(dir, 0755);
  const char *names[] = {"titanx-aw-matrixmul.accelwattch_power_report.log",
                         "titanx-aw-matrixmul.stdout.txt"};
  for (int i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    char from[1024];
    snprintf(from, sizeof from, "%s/titanx-matrixmul/%s", RUNS, names[i]);
    copy_file(from, path);
  }
  snprintf(path, sizeof path, "%s/gtx480-vectoradd.stdout.txt", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs("kernel_name = _Z6vecAddPfS_S_i\ngpu_sim_cycle = 702\n", f);
  fclose(f);
  for (int i = 0; i < 2; i++) {
    snprintf(cmd, sizeof cmd, "energy fermi-baseline '%s%s%s' --format json", dir,
             i ? "/" : "", i ? names[0] : "");
    cli_run(&R, cmd);
    if (R.status != 0) fail_msg("'%s': %s", cmd, R.err);
    assert_int_equal((int)cli_json_number(R.out, "cycles"), 7506);
    assert_non_null(strstr(R.out, "titanx-aw-matrixmul.stdout.txt"));
  }
  /* The report's own log gone: two other logs, neither named as it is. */
  snprintf(path, sizeof path, "%s/%s", dir, names[1]);
  char other[1024];
  snprintf(other, sizeof other, "%s/gtx480-matrixmul.stdout.txt", dir);
  assert_int_equal(rename(path, other), 0);
  snprintf(cmd, sizeof cmd, "energy fermi-baseline '%s'", dir);
  cli_run(&R, cmd);
  if (R.status != 1 || !strstr(R.err, "2 simulator logs with gpu_sim_cycle lines") || R.out[0])
    fail_msg("'%s': status %d, %s", cmd, R.status, R.err);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(json_has_pinned_keys),
      cmocka_unit_test(accelwattch_output_says_what_each_counter_became),
      cmocka_unit_test(output_is_repeatable),
      cmocka_unit_test(errors_are_one_line_with_no_output),
      cmocka_unit_test(accelwattch_run_directory),
      cmocka_unit_test(accelwattch_run_every_kernel),
      cmocka_unit_test(accelwattch_runs_side_by_side),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
