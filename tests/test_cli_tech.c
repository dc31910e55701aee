/* The gpurf command as a user meets it: exit statuses, one-line errors on
 * stderr with nothing on stdout, and golden output for `tech show`. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli_run.h"

static cli_result R;

static void show_40nm_json_has_every_parameter(void **state) {
  (void)state;
  cli_run(&R, "tech show 40nm --format json");
  assert_int_equal(R.status, 0);
  const char *keys[] = {"\"vdd_v\"", "\"vth_v\"", "\"l_phy_m\"", "\"c_gate_f_per_m\"",
                        "\"c_overlap_f_per_m\"", "\"c_junction_f_per_m2\"", "\"i_on_n_a_per_m\"",
                        "\"i_on_p_a_per_m\"", "\"i_off_n_a_per_m\"", "\"i_gate_a_per_m\"",
                        "\"fo4_delay_s\"", "\"r_ohm_per_m\"", "\"c_f_per_m\"", "\"pitch_m\"",
                        "\"rc_delay_1mm_s\"", "\"semi_global\"", "\"lstp\"", "\"lop\"",
                        "\"source\"", "\"interpolated\": false"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    if (!strstr(R.out, keys[i])) fail_msg("missing %s in JSON output", keys[i]);
  assert_string_equal(R.err, "");
}

static void interpolated_node_is_labelled(void **state) {
  (void)state;
  cli_run(&R, "tech show 28nm");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "Interpolated between 22nm and 32nm"));
  cli_run(&R, "tech show 28 --format json --device hp");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "\"interpolated\": true"));
  assert_null(strstr(R.out, "\"lstp\""));
}

/* A cell without `source` is shown as "not given", in text and JSON; a
 * shipped one shows its reference. */
static void cell_source_not_given(void **state) {
  (void)state;
  cli_run(&R, "cell show '" GPURF_TEST_DATA_DIR "/cell-no-source.yaml'");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "\n  source: not given\n"));
  cli_run(&R, "cell show '" GPURF_TEST_DATA_DIR "/cell-no-source.yaml' --format json");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "\"source\": \"not given\""));
  cli_run(&R, "cell show stt-40f2-cur");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "source: NVSim inputs listed in the header of validation/nvsim-stt.tsv"));
}

static void errors_are_one_line_with_no_output(void **state) {
  (void)state;
  const cli_error_case cases[] = {
      {"tech show 5nm", 1, "no technology data for 5 nm"},
      {"tech show 40nm --temp-k 500", 1, "outside the hp leakage table"},
      {"tech show 40nm --temp-k hot", 2, "--temp-k needs a number"},
      {"tech show 40nm --device ulp", 2, "--device must be hp, lstp or lop"},
      {"tech show 40nm --format xml", 2, "--format must be"},
      {"tech show", 2, "which node?"},
      {"tech show 40nm --bogus", 2, "unknown option '--bogus'"},
      {"tech show '" GPURF_TEST_DATA_DIR "/bad/empty.yaml'", 1, "empty.yaml:1:1: empty file"},
      {"tech frobnicate", 2, "unknown subcommand"},
      {"frobnicate", 2, "unknown command"},
      {"cell show '" GPURF_TEST_DATA_DIR "/bad/unknown-key.yaml'", 1,
       "unknown-key.yaml:4:1: key 'area_f3': unknown key"},
  };
  cli_check_errors(cases, sizeof cases / sizeof cases[0]);
}

static void help_and_version(void **state) {
  (void)state;
  cli_run(&R, "--version");
  assert_int_equal(R.status, 0);
  char expect[64];
  snprintf(expect, sizeof expect, "gpurf %s\n", gpurf_version());
  assert_string_equal(R.out, expect);
  const char *helps[] = {"help", "--help", "tech --help", "tech show --help", "tech list --help",
                         "cell --help", "cell show --help"};
  cli_check_usage(helps, sizeof helps / sizeof helps[0], "usage:");
}

/* Golden files pin the human output; regenerate with tools/update-golden.sh
 * after an intended change and review the diff. */
static void golden_outputs(void **state) {
  (void)state;
  const cli_golden_case cases[] = {
      {"tech show 40nm", "tech-show-40nm.txt"},
      {"tech show 28nm --device hp --temp-k 330 --format json", "tech-show-28nm-hp.json"},
  };
  cli_check_goldens(cases, sizeof cases / sizeof cases[0]);
}

static void list_shows_every_node_in_order(void **state) {
  (void)state;
  cli_run(&R, "tech list");
  assert_int_equal(R.status, 0);
  const char *p = R.out;
  const char *order[] = {"22nm", "32nm", "40nm", "45nm", "65nm", "90nm"};
  for (size_t i = 0; i < 6; i++) {
    p = strstr(p, order[i]);
    if (!p) fail_msg("%s missing or out of order", order[i]);
  }
  cli_run(&R, "tech list --format json");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "\"feature_size_nm\": 22"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(show_40nm_json_has_every_parameter),
      cmocka_unit_test(interpolated_node_is_labelled),
      cmocka_unit_test(cell_source_not_given),
      cmocka_unit_test(errors_are_one_line_with_no_output),
      cmocka_unit_test(help_and_version),
      cmocka_unit_test(golden_outputs),
      cmocka_unit_test(list_shows_every_node_in_order),
  };
  return cmocka_run_group_tests_name("cli_tech", tests, NULL, NULL);
}
