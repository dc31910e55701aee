/* The validation gate: `gpurf validate --check` over the sets in validation/
 * must pass, that is every gated reference set (CACTI 7) is within its
 * stated tolerance. Also checks that the report carries every set and that
 * --check really fails on a set outside its tolerance. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli_run.h"

static cli_result R;

/* The gate itself. On failure the summary names each metric outside its
 * tolerance, with the median error and the worst row. */
static void gated_sets_are_within_tolerance(void **state) {
  (void)state;
  cli_run(&R, "validate --check");
  if (R.status != 0) {
    /* The summary is longer than a cmocka message holds: print it first. */
    const char *summary = strstr(R.out, "\nSummary");
    fputs(summary ? summary : R.out, stdout);
    fail_msg("gpurf validate --check: status %d, %s", R.status, R.err);
  }
  assert_non_null(strstr(R.out, "Gate: pass"));
}

static void report_covers_every_set(void **state) {
  (void)state;
  cli_run(&R, "validate --format json");
  assert_int_equal(R.status, 0);
  const char *sets[] = {"\"name\": \"cacti7\"", "\"name\": \"nvsim-sram\"",
                        "\"name\": \"gebhart-table5\"", "\"name\": \"warrf-table2-sram\""};
  for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
    if (!strstr(R.out, sets[i])) fail_msg("report lacks %s", sets[i]);
  const char *keys[] = {"\"gate_pass\"", "\"median_abs_error\"", "\"worst_config\"",
                        "\"worst_ratio\"", "\"read_energy_pj\"", "\"reference\"", "\"error\"",
                        "\"not_gated_why\""};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    if (!strstr(R.out, keys[i])) fail_msg("report lacks %s", keys[i]);
  cli_run(&R, "validate --set gebhart-table5 --format csv");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "gebhart-table5,row,mrf_bank_4K_128_1r1w_40,read_energy_pj,"));
  assert_null(strstr(R.out, "cacti7"));
}

/* --check turns a set outside its tolerance into exit status 1, and only
 * with --check; the report is printed either way. */
static void check_fails_outside_tolerance(void **state) {
  (void)state;
  cli_run(&R, "validate --set '" GPURF_TEST_DATA_DIR "/validation-bad/out-of-tolerance.tsv'");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "Gate: FAIL, outside tolerance: out-of-tolerance/area"));
  cli_run(&R, "validate --check --set '" GPURF_TEST_DATA_DIR "/validation-bad/out-of-tolerance.tsv'");
  assert_int_equal(R.status, 1);
  assert_non_null(strstr(R.out, "FAIL"));
  assert_non_null(strstr(R.err, "outside its tolerance"));
}

static void bad_sets_and_usage(void **state) {
  (void)state;
  const cli_error_case cases[] = {
      {"validate --set '" GPURF_TEST_DATA_DIR "/validation-bad/unknown-column.tsv'", 1,
       "unknown-column.tsv:4:70: column 'area_cm2': unknown column"},
      {"validate --set no-such-set", 1, "no validation set named no-such-set"},
      {"validate --format xml", 2, "--format must be"},
      {"validate --set a --set b", 2, "--set given twice"},
      {"validate --frobnicate", 2, "unknown option"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cli_run(&R, cases[i].args);
    if (R.status != cases[i].status || !strstr(R.err, cases[i].err) || R.out[0] != '\0')
      fail_msg("'%s': status %d, stderr '%s', stdout %zu bytes", cases[i].args, R.status, R.err,
               strlen(R.out));
  }
}

/* /dev/zero is one endless line (of NUL bytes): the set reader must refuse
 * it within a time and memory bound (before, it grew without one). So must
 * it a text line longer than its cap. */
static void endless_input_fails_fast(void **state) {
  (void)state;
  char cmd[4096], errp[512];
  snprintf(errp, sizeof errp, "%s/zero_err_%ld.txt", GPURF_TEST_TMP_DIR, (long)getpid());
  /* AddressSanitizer reserves terabytes of address space for its shadow:
   * there the time bound alone stands. */
#if defined(__SANITIZE_ADDRESS__)
  const char *limit = "";
#else
  const char *limit = "ulimit -v 1048576; ";
#endif
  snprintf(cmd, sizeof cmd,
           "%sGPURF_DATA_DIR='%s' timeout 20 '%s' validate --set %s >/dev/null 2>'%s'", limit,
           GPURF_TEST_SOURCE_DIR, GPURF_TEST_CLI, "/dev/zero", errp);
  int st = system(cmd);
  char *err = cli_slurp(errp, 4096);
  remove(errp);
  assert_non_null(err);
  int ok = WIFEXITED(st) && WEXITSTATUS(st) == 1 && strstr(err, "/dev/zero:1:") &&
           cli_count_lines(err) == 1;
  char shown[512];
  snprintf(shown, sizeof shown, "%s", err);
  free(err);
  if (!ok)
    fail_msg("validate --set /dev/zero: status %d, stderr '%s'",
             WIFEXITED(st) ? WEXITSTATUS(st) : -1, shown);
  char longp[512];
  snprintf(longp, sizeof longp, "%s/long_line_%ld.tsv", GPURF_TEST_TMP_DIR, (long)getpid());
  FILE *f = fopen(longp, "wb");
  assert_non_null(f);
  fputs("# source: test\n", f);
  for (int i = 0; i < 200000; i++) fputc('a', f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "validate --set '%s'", longp);
  cli_run(&R, cmd);
  remove(longp);
  if (R.status != 1 || !strstr(R.err, ":2: line longer than 65536 bytes") || R.out[0])
    fail_msg("long line: status %d, stderr '%s'", R.status, R.err);
}

/* The pipeline's peer set: every figure stands beside ours, and ours is
 * what `gpurf sim` gives for the same trace and design. Never gated. */
static void pipeline_peer_is_reported(void **state) {
  (void)state;
  static cli_result sim;
  cli_run(&R, "validate --set accelsim-pipeline --format json");
  if (R.status != 0) fail_msg("%s", R.err);
  assert_non_null(strstr(R.out, "\"pipeline_peers\": ["));
  assert_non_null(strstr(R.out, "\"gated\": false"));
  const char *traces[] = {"matrixmul-32-32-trace", "vectoradd-100-32-trace"};
  /* Accel-Sim 4.2 figures of the file: cycles, warp instructions, reads. */
  const double peer[2][3] = {{3301, 4416, 6880}, {702, 344, 312}};
  const char *metrics[] = {"cycles", "warp_instructions", "bank_reads"};
  const char *sim_keys[] = {"cycles", "warp_instructions", "bank_reads"};
  for (int t = 0; t < 2; t++) {
    char args[512];
    snprintf(args, sizeof args, "sim --trace '%s/traces/%s' --format json", GPURF_TEST_DATA_DIR,
             traces[t]);
    cli_run(&sim, args);
    assert_int_equal(sim.status, 0);
    for (int m = 0; m < 3; m++) {
      char pat[256];
      snprintf(pat, sizeof pat, "\"trace\": \"%s\",\n          \"metric\": \"%s\"", traces[t],
               metrics[m]);
      const char *row = strstr(R.out, pat);
      if (!row) fail_msg("no row %s", pat);
      assert_rel(cli_json_number(row, "peer"), peer[t][m], 1e-12);
      assert_rel(cli_json_number(row, "ours"), cli_json_number(sim.out, sim_keys[m]), 1e-12);
      double ours = cli_json_number(row, "ours");
      assert_rel(cli_json_number(row, "error"), (ours - peer[t][m]) / peer[t][m], 1e-6);
    }
  }
  /* Bad peer sets name the file, line and column. */
  const cli_error_case cases[] = {
      {"validate --set '" GPURF_TEST_DATA_DIR "/validation-bad/unknown-metric-pipeline.tsv'", 1,
       "unknown-metric-pipeline.tsv:5:24: unknown metric 'bank_reeds'"},
      {"validate --set '" GPURF_TEST_DATA_DIR "/validation-bad/missing-trace-pipeline.tsv'", 1,
       "missing-trace-pipeline.tsv:4:1: column 'trace': trace 'no-such-trace' is not under"},
  };
  cli_check_errors(cases, sizeof cases / sizeof cases[0]);
}

/* The band in `gpurf validate` on the bank whose references disagree (the
 * 22 nm 8 KB bank of 1024-bit words: CACTI 7 reads at 22.6 pJ, NVSim at
 * 2.76 pJ), in text, JSON and CSV: the band is the one `gpurf bank --band`
 * gives for the same bank, and both references' reads lie inside it: the low
 * end, the NVSim class, is NVSim's omissions and latch sense amplifier on our
 * 22 nm devices, which NVSim's own devices (Vdd 0.9 V against 0.8 V, twice
 * the gate capacitance per metre) put below NVSim's figure (test_cli_bank.c).
 * NVSim's leakage lies above the band. */
#define BAND_SET "validate --set '" GPURF_TEST_DATA_DIR "/validation-band/disagree-22nm-8k.tsv'"
static double json_band_end(const char *from, const char *key, int end) {
  char pat[128];
  snprintf(pat, sizeof pat, "\"%s\": [", key);
  const char *p = strstr(from, pat);
  if (!p) fail_msg("no %s after the row", key);
  char *after;
  double lo = strtod(p + strlen(pat), &after);
  return end ? strtod(strchr(after, ',') + 1, NULL) : lo;
}

static void band_beside_every_row(void **state) {
  (void)state;
  static cli_result bank;
  cli_run(&bank, "bank --tech 22 --cell sram --bytes 8192 --width 1024 --band --format json");
  assert_int_equal(bank.status, 0);
  cli_run(&R, BAND_SET " --format json");
  assert_int_equal(R.status, 0);
  const char *cacti = strstr(R.out, "\"config\": \"cacti7_22nm_8k_1024\"");
  const char *nvsim = strstr(R.out, "\"config\": \"nvsim_22nm_8k_1024\"");
  assert_non_null(cacti);
  assert_non_null(nvsim);
  const char *keys[] = {"read_energy_pj_band", "leakage_mw_band", "area_mm2_band"};
  for (int k = 0; k < 3; k++)
    for (int end = 0; end < 2; end++) {
      assert_rel(json_band_end(cacti, keys[k], end), json_band_end(bank.out, keys[k], end), 1e-6);
      assert_rel(json_band_end(nvsim, keys[k], end), json_band_end(bank.out, keys[k], end), 1e-6);
    }
  /* Read energy is the first metric of each row: both inside. */
  const char *in = strstr(cacti, "\"in_band\": ");
  assert_true(in && in < nvsim && !strncmp(in + 11, "true", 4));
  in = strstr(nvsim, "\"in_band\": ");
  assert_true(in && !strncmp(in + 11, "true", 4));
  assert_int_equal((int)cli_json_number(R.out, "band_rows"), 6); /* the set: 3 metrics x 2 */
  assert_int_equal((int)cli_json_number(R.out, "in_band"), 5);
  const char *sum = strstr(R.out, "\"summary\": {");
  assert_non_null(sum);
  assert_int_equal((int)cli_json_number(sum, "band_rows"), 2);
  assert_int_equal((int)cli_json_number(sum, "in_band"), 2);

  cli_run(&R, BAND_SET);
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "band low  band high  ref in band"));
  const char *line = strstr(R.out, "\nleakage (mW)");
  assert_non_null(line);
  line = strstr(line, "\n  nvsim_22nm_8k_1024");
  assert_non_null(line);
  assert_non_null(strstr(line, "no, 2.94x above\n"));
  assert_non_null(strstr(R.out, "\n  disagree-22nm-8k   read_energy       2      2      2\n"));
  assert_non_null(strstr(R.out, "\n  disagree-22nm-8k   all               6      6      5\n"));

  cli_run(&R, BAND_SET " --format csv");
  assert_int_equal(R.status, 0);
  const char *nl = strchr(R.out, '\n');
  assert_non_null(strstr(R.out, ",band_low,band_high,in_band,band_rows,band_inside\n"));
  int commas = cli_count_char(R.out, nl, ',');
  for (const char *l = nl + 1; *l; l = strchr(l, '\n') + 1)
    assert_int_equal(cli_count_char(l, strchr(l, '\n'), ','), commas);
  assert_non_null(strstr(R.out, "\ndisagree-22nm-8k,row,cacti7_22nm_8k_1024,read_energy_pj,"));
  line = strstr(R.out, "\ndisagree-22nm-8k,row,nvsim_22nm_8k_1024,read_energy_pj,");
  assert_non_null(line);
  assert_non_null(strstr(line, ",yes,,\n"));
  assert_non_null(strstr(R.out, ",read_energy_pj,,,,2.44623,5.57306,no,,,,,2,2\n"));

  /* A flip-flop array has no band: nothing of it in any format. */
  cli_run(&R, "validate --set gebhart-table5-l0 --format json");
  assert_int_equal(R.status, 0);
  assert_null(strstr(R.out, "_band\": ["));
  assert_null(strstr(R.out, "\"in_band\": true"));
  cli_run(&R, "validate --set gebhart-table5-l0");
  assert_null(strstr(R.out, "band low"));
  assert_non_null(strstr(R.out, "gebhart-table5-l0  all               2      0      0"));
}

/* Golden files pin the band view in all three formats; regenerate them with
 * tools/update-golden.sh after an intended model change and review the diff. */
static void golden_outputs(void **state) {
  (void)state;
  const cli_golden_case cases[] = {
      {BAND_SET, "validate-band-22nm-8k.txt"},
      {BAND_SET " --format json", "validate-band-22nm-8k.json"},
      {BAND_SET " --format csv", "validate-band-22nm-8k.csv"},
  };
  cli_check_goldens(cases, sizeof cases / sizeof cases[0]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(gated_sets_are_within_tolerance),
      cmocka_unit_test(report_covers_every_set),
      cmocka_unit_test(check_fails_outside_tolerance),
      cmocka_unit_test(bad_sets_and_usage),
      cmocka_unit_test(endless_input_fails_fast),
      cmocka_unit_test(pipeline_peer_is_reported),
      cmocka_unit_test(band_beside_every_row),
      cmocka_unit_test(golden_outputs),
  };
  return cmocka_run_group_tests_name("validate", tests, NULL, NULL);
}
