/* The validation gate: `gpurf validate --check` over the sets in validation/
 * must pass, that is every gated reference set (CACTI 7) is within its
 * stated tolerance. Also checks that the report carries every set and that
 * --check really fails on a set outside its tolerance. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "test_util.h"

typedef struct run_result {
  int status;
  char out[1 << 18];
  char err[4096];
} run_result;

static char *slurp(const char *path, size_t max) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = calloc(1, max + 1);
  size_t n = fread(buf, 1, max, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

static void run(run_result *r, const char *args) {
  char cmd[4096], outp[512], errp[512];
  snprintf(outp, sizeof outp, "%s/validate_out.txt", GPURF_TEST_TMP_DIR);
  snprintf(errp, sizeof errp, "%s/validate_err.txt", GPURF_TEST_TMP_DIR);
  snprintf(cmd, sizeof cmd, "GPURF_DATA_DIR='%s' '%s' %s >'%s' 2>'%s'", GPURF_TEST_SOURCE_DIR,
           GPURF_TEST_CLI, args, outp, errp);
  int st = system(cmd);
  r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  char *o = slurp(outp, sizeof r->out - 1), *e = slurp(errp, sizeof r->err - 1);
  assert_non_null(o);
  assert_non_null(e);
  strcpy(r->out, o);
  strcpy(r->err, e);
  free(o);
  free(e);
}

static run_result R;

/* The gate itself. On failure the summary names each metric outside its
 * tolerance, with the median error and the worst row. */
static void gated_sets_are_within_tolerance(void **state) {
  (void)state;
  run(&R, "validate --check");
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
  run(&R, "validate --format json");
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
  run(&R, "validate --set gebhart-table5 --format csv");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "gebhart-table5,row,mrf_bank_4K_128_1r1w_40,read_energy_pj,"));
  assert_null(strstr(R.out, "cacti7"));
}

/* --check turns a set outside its tolerance into exit status 1, and only
 * with --check; the report is printed either way. */
static void check_fails_outside_tolerance(void **state) {
  (void)state;
  run(&R, "validate --set '" GPURF_TEST_DATA_DIR "/validation-bad/out-of-tolerance.tsv'");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "Gate: FAIL, outside tolerance: out-of-tolerance/area"));
  run(&R, "validate --check --set '" GPURF_TEST_DATA_DIR "/validation-bad/out-of-tolerance.tsv'");
  assert_int_equal(R.status, 1);
  assert_non_null(strstr(R.out, "FAIL"));
  assert_non_null(strstr(R.err, "outside its tolerance"));
}

static void bad_sets_and_usage(void **state) {
  (void)state;
  const struct {
    const char *args;
    int status;
    const char *err;
  } cases[] = {
      {"validate --set '" GPURF_TEST_DATA_DIR "/validation-bad/unknown-column.tsv'", 1,
       "unknown-column.tsv:4:70: column 'area_cm2': unknown column"},
      {"validate --set no-such-set", 1, "no validation set named no-such-set"},
      {"validate --format xml", 2, "--format must be"},
      {"validate --set a --set b", 2, "--set given twice"},
      {"validate --frobnicate", 2, "unknown option"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    run(&R, cases[i].args);
    if (R.status != cases[i].status || !strstr(R.err, cases[i].err) || R.out[0] != '\0')
      fail_msg("'%s': status %d, stderr '%s', stdout %zu bytes", cases[i].args, R.status, R.err,
               strlen(R.out));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(gated_sets_are_within_tolerance),
      cmocka_unit_test(report_covers_every_set),
      cmocka_unit_test(check_fails_outside_tolerance),
      cmocka_unit_test(bad_sets_and_usage),
  };
  return cmocka_run_group_tests_name("validate", tests, NULL, NULL);
}
