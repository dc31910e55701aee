/* Real-world and hostile inputs: each case runs the gpurf command under a
 * CPU-time limit and checks its wall time and peak memory, so a parse that
 * goes quadratic or a file that asks for gigabytes fails the test instead of
 * hanging it. */
/* wait4 (the child's peak memory) is a BSD/GNU extension. */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <string.h>

#include "bounded_run.h"

/* Every hostile case must finish within these (the sanitizer build runs
 * several times slower and keeps shadow memory, hence the margins). */
#define HOSTILE_CPU_S 20
#define HOSTILE_WALL_S 10.0
#define HOSTILE_RSS_KIB (512L * 1024L)

static bounded_result R;

static void run_bounded(const char *const *argv, const void *in, size_t in_len) {
  bounded_run(&R, argv, in, in_len, HOSTILE_CPU_S);
  if (R.signal) fail_msg("'%s %s' killed by signal %d", argv[0], argv[1], R.signal);
  if (R.wall_s > HOSTILE_WALL_S) fail_msg("'%s %s' took %.1f s", argv[0], argv[1], R.wall_s);
  if (R.maxrss_kib > HOSTILE_RSS_KIB)
    fail_msg("'%s %s' peaked at %ld KiB", argv[0], argv[1], R.maxrss_kib);
}

static int count_lines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

/* A one-line error naming what was wrong, nothing on stdout. */
static void expect_error(int status, const char *text) {
  if (R.status != status || !strstr(R.err, text) || count_lines(R.err) != 1 || R.out[0])
    fail_msg("status %d (want %d), stderr '%s' (want '%s'), %zu bytes on stdout", R.status, status,
             R.err, text, strlen(R.out));
}

/* Node names are decimal: "0x16" is not 22 nm, nor "1e1" 10 nm. */
static void test_tech_node_decimal_only(void **state) {
  (void)state;
  const char *hex[] = {"tech", "show", "0x16", NULL};
  run_bounded(hex, NULL, 0);
  expect_error(1, "'0x16' is neither a node");
  const char *expo[] = {"tech", "show", "1e1", NULL};
  run_bounded(expo, NULL, 0);
  expect_error(1, "'1e1' is neither a node");
  const char *ok[] = {"tech", "show", "22nm", NULL};
  run_bounded(ok, NULL, 0);
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "feature size 22 nm"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tech_node_decimal_only),
  };
  return cmocka_run_group_tests_name("hostile", tests, NULL, NULL);
}
