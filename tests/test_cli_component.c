/* `gpurf xbar`, `gpurf arbiter` and `gpurf component` as a user meets them:
 * one-line errors with the right exit status and nothing on stdout for every
 * option, pinned JSON keys, the sizing facts on the command line, and
 * golden output. */
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"

static cli_result R;

#define XB "xbar --inputs 16 --outputs 16 --width 1024 --tech 32"
#define AR "arbiter --banks 16 --requesters 16 --classes 5 --tech 32"
#define RN "component rename --tech 40"
#define WP "component wpool --tech 22"
#define CR "component crf --tech 40"

static void xbar_bad_input(void **state) {
  (void)state;
  const cli_error_case cases[] = {
      {"xbar --outputs 4 --width 8 --tech 32", 2, "--inputs N is required"},
      {"xbar --inputs 4 --width 8 --tech 32", 2, "--outputs M is required"},
      {"xbar --inputs 4 --outputs 4 --tech 32", 2, "--width BITS is required"},
      {"xbar --inputs 4 --outputs 4 --width 8", 2, "--tech NODE is required"},
      {"xbar --inputs 0 --outputs 4 --width 8 --tech 32", 2, "--inputs must be at least 1"},
      {"xbar --inputs x --outputs 4 --width 8 --tech 32", 2, "--inputs needs a whole number"},
      {"xbar --inputs 4 --outputs 2000 --width 8 --tech 32", 2, "--outputs 2000 is too large"},
      {"xbar --inputs 4 --outputs 4 --width -8 --tech 32", 2, "--width must be positive"},
      {XB " --device ulp", 2, "--device must be"},
      {XB " --style benes", 2, "--style must be matrix or mux"},
      {XB " --activity 0", 2, "--activity must be above 0"},
      {XB " --activity lots", 2, "--activity needs a number"},
      {XB " --wire top", 2, "--wire must be local, semi-global or global"},
      {XB " --temp-k -3", 2, "--temp-k must be above 0 K"},
      {XB " --format xml", 2, "--format must be"},
      {XB " --inputs 8", 2, "--inputs given twice"},
      {XB " --style", 2, "needs a value"},
      {XB " --bogus", 2, "unknown option '--bogus'"},
      {"xbar --inputs 4 --outputs 4 --width 8 --tech 5nm", 1, "no technology data for 5 nm"},
      {XB " --temp-k 900", 1, "outside the hp leakage table"},
  };
  cli_check_errors(cases, sizeof cases / sizeof cases[0]);
}

static void arbiter_bad_input(void **state) {
  (void)state;
  const cli_error_case cases[] = {
      {"arbiter --requesters 4 --classes 5 --tech 32", 2, "--banks N is required"},
      {"arbiter --banks 4 --classes 5 --tech 32", 2, "--requesters R is required"},
      {"arbiter --banks 4 --requesters 4 --tech 32", 2, "--classes K is required"},
      {"arbiter --banks 4 --requesters 4 --classes 5", 2, "--tech NODE is required"},
      {"arbiter --banks 0 --requesters 4 --classes 5 --tech 32", 2, "--banks must be at least 1"},
      {"arbiter --banks 4 --requesters 4k --classes 5 --tech 32", 2,
       "--requesters needs a whole number"},
      {"arbiter --banks 4 --requesters 4 --classes 6 --tech 32", 2, "--classes must be 2..5"},
      {"arbiter --banks 4 --requesters 4 --classes 1 --tech 32", 2, "--classes must be 2..5"},
      {AR " --registers 8", 2, "--registers 8 cannot fill 16 banks"},
      {AR " --activity 3", 2, "--activity must be above 0"},
      {AR " --rf-area-mm2 -1", 2, "--rf-area-mm2 must be above 0"},
      {AR " --rf-area-mm2 big", 2, "--rf-area-mm2 needs a number"},
      {AR " --rf-bytes 0", 2, "--rf-bytes must be at least 1"},
      {AR " --rf-bytes 1000", 2, "--rf-bytes 1000 is not a whole number"},
      {AR " --rf-bytes 131072 --rf-area-mm2 1", 2, "at most one of"},
      {AR " --rf-width 512", 2, "--rf-width needs --rf-bytes"},
      {AR " --rf-bytes 131072 --rf-width 0", 2, "--rf-width must be at least 1"},
      {AR " --device ulp", 2, "--device must be"},
      {AR " --temp-k cold", 2, "--temp-k needs a number"},
      {AR " --format yaml", 2, "--format must be"},
      {AR " --banks 8", 2, "--banks given twice"},
      {AR " extra", 2, "unexpected argument 'extra'"},
      {"arbiter --banks 4 --requesters 4 --classes 5 --tech 5nm", 1, "no technology data"},
  };
  cli_check_errors(cases, sizeof cases / sizeof cases[0]);
}

static void component_bad_input(void **state) {
  (void)state;
  const cli_error_case cases[] = {
      {"component", 2, "name a component"},
      {"component regfile --tech 40", 2, "unknown component 'regfile'"},
      {"component rename", 2, "--tech NODE is required"},
      {"component rfc-tags", 2, "--tech NODE is required"},
      {"component rfc-tags --tech 40 --lookups 9", 2, "--lookups 9 is too large"},
      {"component rfc-tags --tech 40 --regs 1", 2, "--regs must be at least 2"},
      {"component rfc-tags --tech 5nm", 1, "no technology data for 5 nm"},
      {RN " --warps 0", 2, "--warps must be at least 1"},
      {RN " --regs x", 2, "--regs needs a whole number"},
      {RN " --phys-regs 1", 2, "--phys-regs must be at least 2"},
      {RN " --phys-regs 1022", 2, "do not split evenly over 4 banks"},
      {RN " --banks 100", 2, "--banks 100 is too large"},
      {RN " --budget-bytes 0", 2, "--budget-bytes must be at least 1"},
      {RN " --budget-bytes 10", 1, "holds no register for 48 warps"},
      {RN " --flag-entries -1", 2, "--flag-entries must be positive"},
      {RN " --flag-bits 0", 2, "--flag-bits must be at least 1"},
      {RN " --flag-tag-bits 65", 2, "--flag-tag-bits 65 is too large"},
      {RN " --device ulp", 2, "--device must be"},
      {RN " --temp-k 0", 2, "--temp-k must be above 0 K"},
      {RN " --format xml", 2, "--format must be"},
      {"component rename --tech 5nm", 1, "no technology data"},
      {WP " --entries 0", 2, "--entries must be at least 1"},
      {WP " --warps many", 2, "--warps needs a whole number"},
      {WP " --regs 0", 2, "--regs must be at least 1"},
      {WP " --lanes 0", 2, "--lanes must be at least 1"},
      {WP " --word-bits 2048", 2, "--word-bits 2048 is too large"},
      {WP " --ports 2x", 2, "--ports must be"},
      {WP " --rf-area-mm2 0", 2, "--rf-area-mm2 must be above 0"},
      {WP " --rf-bytes 1000", 2, "--rf-bytes 1000 is not a whole number"},
      {WP " --rf-banks 4", 2, "--rf-banks needs --rf-bytes"},
      {WP " --rf-bytes 131072 --rf-banks 0", 2, "--rf-banks must be at least 1"},
      {WP " --entries 60 --entries 30", 2, "--entries given twice"},
      {CR " --warps 0", 2, "--warps must be at least 1"},
      {CR " --lanes x", 2, "--lanes needs a whole number"},
      {CR " --regs 0", 2, "--regs must be at least 1"},
      {CR " --word-bits 0", 2, "--word-bits must be at least 1"},
      {CR " --vrf-regs 0", 2, "--vrf-regs must be at least 1"},
      {CR " --vrf-regs 100", 1, "below the 256 the spill mechanism needs"},
      {CR " --vrf-regs 4096", 1, "outside 0 (uncompressed)..2048"},
      {CR " --base-bits 65", 2, "--base-bits 65 is too large"},
      {CR " --stride-bits 9", 2, "--stride-bits 9 is too large"},
      {CR " --srf-copies 0", 2, "--srf-copies must be at least 1"},
      {CR " --separate-pointer --separate-pointer", 2, "--separate-pointer given twice"},
      {CR " --separate-pointer=1", 2, "unknown option '--separate-pointer=1'"},
  };
  cli_check_errors(cases, sizeof cases / sizeof cases[0]);
}

static void json_keys_and_facts(void **state) {
  (void)state;
  cli_run(&R, XB " --format json");
  assert_int_equal(R.status, 0);
  const char *xkeys[] = {"\"area_mm2\"", "\"transfer_energy_pj\"", "\"delay_ns\"",
                         "\"delay_fo4\"", "\"leakage_mw\"", "\"breakdown\"", "\"wires\"",
                         "\"switches\"", "\"drivers\"", "\"control\"", "\"style\": \"matrix\""};
  for (size_t i = 0; i < sizeof xkeys / sizeof xkeys[0]; i++)
    if (!strstr(R.out, xkeys[i])) fail_msg("xbar JSON lacks %s", xkeys[i]);
  assert_int_equal((int)cli_json_number(R.out, "slices_x"), 32);

  cli_run(&R, AR " --rf-bytes 131072 --format json");
  assert_int_equal(R.status, 0);
  double share = cli_json_number(R.out, "extra_area_percent_of_rf");
  assert_true(share > 0 && share < 1.2);
  assert_true(cli_json_number(R.out, "extra_read_path_fo4") > 0);
  assert_non_null(strstr(R.out, "\"priority\": \"forced_write > normal_read > stealing_read > "
                                "normal_write > stealing_write\""));

  cli_run(&R, RN " --format json");
  assert_int_equal(R.status, 0);
  assert_int_equal((long long)cli_json_number(R.out, "table_bits"), 30240);
  cli_run(&R, RN " --budget-bytes 1024 --format json");
  assert_int_equal((long long)cli_json_number(R.out, "table_bits"), 8160);

  cli_run(&R, WP " --rf-bytes 131072 --format json");
  assert_int_equal(R.status, 0);
  assert_true(cli_json_number(R.out, "area_percent_of_rf") < 6.0);

  cli_run(&R, "component rfc-tags --tech 40 --format json");
  assert_int_equal(R.status, 0);
  assert_int_equal((long long)cli_json_number(R.out, "store_bits"), 8 * 6 * 8);
  assert_true(cli_json_number(R.out, "check_energy_pj") > 0.0);
  assert_true(cli_json_number(R.out, "check_time_ns") < 1.0);

  const int vrf[] = {0, 1024, 512, 256};
  const double kbit[] = {2097, 1202, 672, 407};
  for (int i = 0; i < 4; i++) {
    char args[128];
    if (vrf[i])
      snprintf(args, sizeof args, CR " --vrf-regs %d --format json", vrf[i]);
    else
      snprintf(args, sizeof args, CR " --format json");
    cli_run(&R, args);
    assert_int_equal(R.status, 0);
    assert_rel(cli_json_number(R.out, "total_kbit"), kbit[i], 0.005);
  }
}

static void csv_and_help(void **state) {
  (void)state;
  const char *runs[] = {XB " --format csv", AR " --format csv", RN " --format csv",
                        WP " --format csv", CR " --vrf-regs 512 --format csv"};
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
    cli_run(&R, runs[i]);
    assert_int_equal(R.status, 0);
    assert_int_equal(cli_count_lines(R.out), 2);
    const char *nl = strchr(R.out, '\n');
    if (cli_count_char(R.out, nl, ',') != cli_count_char(nl + 1, R.out + strlen(R.out), ','))
      fail_msg("'%s': header and row differ in columns", runs[i]);
  }
  const char *helps[] = {"xbar --help", "arbiter --help", "component --help",
                         "component rename --help", "component crf --help"};
  cli_check_usage(helps, sizeof helps / sizeof helps[0], "usage:");
  cli_run(&R, "help");
  assert_non_null(strstr(R.out, "  xbar --inputs N"));
  assert_non_null(strstr(R.out, "  arbiter --banks N"));
  assert_non_null(strstr(R.out, "  component rename --tech NODE"));
  assert_non_null(strstr(R.out, "  component rfc-tags --tech NODE"));
}

/* Golden files pin the text and JSON output; regenerate them with
 * tools/update-golden.sh after an intended model change and review the diff. */
static void golden_outputs(void **state) {
  (void)state;
  const cli_golden_case cases[] = {
      {XB, "xbar-32nm-16x16x1024.txt"},
      {AR " --rf-bytes 131072 --format json", "arbiter-32nm-16bk-5cls.json"},
  };
  cli_check_goldens(cases, sizeof cases / sizeof cases[0]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(xbar_bad_input),      cmocka_unit_test(arbiter_bad_input),
      cmocka_unit_test(component_bad_input), cmocka_unit_test(json_keys_and_facts),
      cmocka_unit_test(csv_and_help),        cmocka_unit_test(golden_outputs),
  };
  return cmocka_run_group_tests_name("cli_component", tests, NULL, NULL);
}
