/* gpurf trace as a user meets it: pinned JSON keys, one-line errors with
 * nothing on stdout, conversion that never leaves a partial file. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_run.h"

#define TRACES GPURF_TEST_DATA_DIR "/traces"

static cli_result R;

static void stats_json_has_pinned_keys(void **state) {
  (void)state;
  cli_run(&R, "trace stats '" TRACES "/vectoradd-100-32-trace' --format json");
  assert_int_equal(R.status, 0);
  const char *keys[] = {"\"warp_instructions\": 344", "\"ctas\": 1", "\"warps\": 32",
                        "\"registers_per_thread\": 8", "\"instruction_mix\"",
                        "\"src_operands_per_instruction\"", "\"reads_per_value\"",
                        "\"read_once_lifetime\"", "\"live_registers\"", "\"fraction_over_time\"",
                        "\"uniform_affine\"", "\"memcpy_count\": 3", "\"format\": \"accelsim\""};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    if (!strstr(R.out, keys[i])) fail_msg("missing %s", keys[i]);
  cli_run(&R, "trace stats '" TRACES "/matrixmul-32-32-trace/kernelslist.g'");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "warp instructions 4416"));
  assert_non_null(strstr(R.out, "registers per thread 30"));
}

static void errors_are_one_line_with_no_output(void **state) {
  (void)state;
  const cli_error_case cases[] = {
      {"trace stats '" TRACES "/bad/insts-mismatch.traceg'", 1,
       "insts-mismatch.traceg:19:1: warp 0 of thread block 0,0,0 has 2 instructions"},
      {"trace stats '" TRACES "/bad/compressed.traceg' --format json", 1, "gzip-compressed"},
      {"trace stats", 2, "which trace?"},
      {"trace stats x --format xml", 2, "--format must be"},
      {"trace frobnicate", 2, "unknown subcommand"},
      {"trace convert '" TRACES "/handwritten'", 2, "needs IN and OUT"},
      {"trace convert a b --to yaml", 2, "--to must be text or binary"},
      {"trace gen --workload compute", 2, "needs --workload NAME, --seed S and -o OUT"},
      {"trace gen --workload nope --seed 1 -o /dev/null", 2, "unknown workload 'nope'"},
      {"trace gen --workload compute --seed 1 --warps 0 -o x", 2, "--warps needs a whole number"},
      {"trace dataflow '" TRACES "/dataflow.gtrace' --kernel 3", 1, "no kernel 3"},
  };
  cli_check_errors(cases, sizeof cases / sizeof cases[0]);
}

static void convert_and_gen(void **state) {
  (void)state;
  char out[1024], cmd[2048];
  snprintf(out, sizeof out, "%s/cli-convert.gtraceb", GPURF_TEST_TMP_DIR);
  unlink(out);
  snprintf(cmd, sizeof cmd, "trace convert '" TRACES "/bad/truncated.traceg' '%s'", out);
  cli_run(&R, cmd);
  assert_int_equal(R.status, 1);
  assert_int_equal(access(out, F_OK), -1);
  snprintf(cmd, sizeof cmd, "trace convert '" TRACES "/vectoradd-100-32-trace' '%s'", out);
  cli_run(&R, cmd);
  assert_int_equal(R.status, 0);
  snprintf(cmd, sizeof cmd, "trace stats '%s' --format json", out);
  cli_run(&R, cmd);
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "\"warp_instructions\": 344"));
  assert_non_null(strstr(R.out, "\"format\": \"binary\""));
  snprintf(out, sizeof out, "%s/cli-gen.gtrace", GPURF_TEST_TMP_DIR);
  snprintf(cmd, sizeof cmd, "trace gen --workload matrixmul --seed 5 -o '%s'", out);
  cli_run(&R, cmd);
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "wrote 4416 warp instructions"));
  cli_run(&R, "trace gen --list --format json");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "\"fitted_to\""));
  cli_run(&R, "trace dataflow '" TRACES "/dataflow.gtrace' --format json");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "\"reconvergence_pc\": 144"));
  cli_run(&R, "trace dataflow '" TRACES "/dataflow.gtrace'");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "loop-carried: R0 R4"));
}

static void help(void **state) {
  (void)state;
  const char *helps[] = {"trace --help", "trace stats --help", "trace convert --help",
                         "trace gen --help", "trace dataflow --help"};
  cli_check_usage(helps, sizeof helps / sizeof helps[0], "usage: gpurf trace");
  cli_run(&R, "help");
  assert_non_null(strstr(R.out, "  trace stats PATH "));
  assert_non_null(strstr(R.out, "  trace dataflow PATH "));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(stats_json_has_pinned_keys),
      cmocka_unit_test(errors_are_one_line_with_no_output),
      cmocka_unit_test(convert_and_gen),
      cmocka_unit_test(help),
  };
  return cmocka_run_group_tests_name("cli_trace", tests, NULL, NULL);
}
