/* gpurf trace record and the recorded RV32 traces: the shipped traces go
 * through gpurf sim and gpurf trace stats; record's errors leave no file;
 * with the cross compiler, recording is deterministic and a kernel that
 * runs past the step limit is reported. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_run.h"

#define RV GPURF_TEST_DATA_DIR "/riscv/"

static cli_result r;

static void test_shipped_sim(void **state) {
  (void)state;
  cli_run(&r, "sim --format csv --trace " RV "vecadd.gtraceb --trace " RV "gcd.gtraceb --trace " RV
              "matmul.gtraceb");
  assert_int_equal(r.status, 0);
  assert_int_equal(cli_count_lines(r.out), 5); /* header, three rows, geomean */
}

static void test_shipped_stats(void **state) {
  (void)state;
  const char *names[] = {"vecadd", "gcd", "matmul"};
  const char *insts[] = {"\"warp_instructions\": 364", "\"warp_instructions\": 450",
                         "\"warp_instructions\": 394"};
  for (int i = 0; i < 3; i++) {
    char args[1024];
    snprintf(args, sizeof args, "trace stats --format json %s%s.gtraceb", RV, names[i]);
    cli_run(&r, args);
    assert_int_equal(r.status, 0);
    if (!strstr(r.out, insts[i])) fail_msg("%s: %s not in\n%s", names[i], insts[i], r.out);
    assert_null(strstr(r.out, "\"writes_classified\": 0,")); /* the records carry values */
  }
  /* gcd diverges: partial masks; vecadd does not */
  cli_run(&r, "trace stats " RV "gcd.gtraceb");
  assert_int_equal(r.status, 0);
  assert_null(strstr(r.out, "partial active masks 0.0%"));
}

/* The recorded traces are the reproduction's riscv workload set. */
static void test_reproduce_riscv(void **state) {
  (void)state;
  cli_run(&r, "reproduce simtight --workloads riscv --format json");
  assert_int_equal(r.status, 0);
  assert_non_null(strstr(r.out, "\"workloads\": [\"gcd\", \"matmul\", \"vecadd\"]"));
}

static void test_help(void **state) {
  (void)state;
  cli_run(&r, "trace record --help");
  assert_int_equal(r.status, 0);
  assert_non_null(strstr(r.out, "usage: gpurf trace record"));
  cli_run(&r, "bench emu --help");
  assert_non_null(strstr(r.out, "usage: gpurf bench emu"));
  cli_run(&r, "trace gen --list");
  assert_int_equal(r.status, 0);
  assert_non_null(strstr(r.out, "riscv/scan_carry"));
}

static void test_record_errors(void **state) {
  (void)state;
  char bad[512], out[512], args[2048];
  snprintf(bad, sizeof bad, "%s/emu_not_elf.txt", GPURF_TEST_TMP_DIR);
  snprintf(out, sizeof out, "%s/emu_never.gtraceb", GPURF_TEST_TMP_DIR);
  FILE *f = fopen(bad, "w");
  assert_non_null(f);
  fputs("hello\n", f);
  fclose(f);
  unlink(out);
  snprintf(args, sizeof args, "trace record --elf %s -o %s", bad, out);
  cli_run(&r, args);
  assert_int_equal(r.status, 1);
  char want[1024];
  snprintf(want, sizeof want, "%s: not an ELF file\n", bad);
  assert_string_equal(r.err, want);
  assert_int_not_equal(access(out, F_OK), 0);
  unlink(bad);

  cli_run(&r, "trace record --kernel vecadd");
  assert_int_equal(r.status, 2);
  cli_run(&r, "trace record --kernel vecadd --elf x -o y");
  assert_int_equal(r.status, 2);
  cli_run(&r, "trace record --kernel vecadd --warps 65 -o y");
  assert_int_equal(r.status, 2);
  cli_run(&r, "trace record --kernel vecadd --warps 6 --blocks 4 -o y");
  assert_int_equal(r.status, 2);
  cli_run(&r, "trace record --kernel vecadd --reconv sideways -o y");
  assert_int_equal(r.status, 2);
}

#ifdef GPURF_RISCV_KERNEL_DIR
static void test_record_kernel(void **state) {
  (void)state;
  char a[512], b[512], args[2048];
  snprintf(a, sizeof a, "%s/emu_rec_a.gtraceb", GPURF_TEST_TMP_DIR);
  snprintf(b, sizeof b, "%s/emu_rec_b.gtraceb", GPURF_TEST_TMP_DIR);
  snprintf(args, sizeof args, "trace record --kernel gcd --size 100 --warps 4 --blocks 2 -o %s", a);
  cli_run(&r, args);
  assert_int_equal(r.status, 0);
  assert_non_null(strstr(r.out, "Self test: PASSED"));
  snprintf(args, sizeof args, "trace record --kernel gcd --size 100 --warps 4 --blocks 2 -o %s", b);
  cli_run(&r, args);
  assert_int_equal(r.status, 0);
  char *x = cli_slurp(a, 1 << 22), *y = cli_slurp(b, 1 << 22);
  assert_non_null(x);
  assert_non_null(y);
  struct stat sa, sb;
  assert_int_equal(stat(a, &sa), 0);
  assert_int_equal(stat(b, &sb), 0);
  assert_int_equal(sa.st_size, sb.st_size); /* the same bytes: recording is deterministic */
  assert_true(sa.st_size > 1000 && sa.st_size < (1 << 22));
  assert_memory_equal(x, y, (size_t)sa.st_size);
  free(x);
  free(y);
  snprintf(args, sizeof args, "trace stats %s", a);
  cli_run(&r, args);
  assert_int_equal(r.status, 0);
  assert_non_null(strstr(r.out, "kernels 1, CTAs 2, warps 4"));
  unlink(a);
  unlink(b);
  snprintf(args, sizeof args, "trace record --kernel gcd --step-limit 1000 -o %s", a);
  cli_run(&r, args);
  assert_int_equal(r.status, 1);
  assert_non_null(strstr(r.err, "gcd.elf: PC 0x"));
  assert_non_null(strstr(r.err, ": ran past the step limit of 1000 warp instructions\n"));
  assert_int_not_equal(access(a, F_OK), 0);
  /* the same program given as an ELF */
  snprintf(args, sizeof args, "trace record --elf %s/vecadd.elf --warps 2 -o %s --format json",
           GPURF_RISCV_KERNEL_DIR, a);
  cli_run(&r, args);
  assert_int_equal(r.status, 0);
  assert_non_null(strstr(r.out, "\"launches\": 1"));
  assert_int_equal(access(a, F_OK), 0);
  unlink(a);
  /* and on standard input */
  snprintf(args, sizeof args, "trace record --elf - --warps 2 -o %s --format json < %s/vecadd.elf",
           a, GPURF_RISCV_KERNEL_DIR);
  cli_run(&r, args);
  if (r.status != 0) fail_msg("trace record --elf -: %s", r.err);
  assert_non_null(strstr(r.out, "\"launches\": 1"));
  assert_int_equal(access(a, F_OK), 0);
  unlink(a);
  cli_run(&r, "bench emu --kernel vecadd --n 1 --format json");
  assert_int_equal(r.status, 0);
  assert_non_null(strstr(r.out, "\"thread_instructions_per_s\": "));
  assert_non_null(strstr(r.out, "\"warp_instructions_per_s_with_trace\": "));
  cli_run(&r, "trace record --kernel nosuch -o never.gtraceb");
  assert_int_equal(r.status, 1);
  assert_non_null(strstr(r.err, "kernel 'nosuch' not found"));
}
#endif

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shipped_sim), cmocka_unit_test(test_shipped_stats),
      cmocka_unit_test(test_record_errors), cmocka_unit_test(test_reproduce_riscv),
      cmocka_unit_test(test_help),
#ifdef GPURF_RISCV_KERNEL_DIR
      cmocka_unit_test(test_record_kernel),
#endif
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
