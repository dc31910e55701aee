/* Native binary traces read in chunks: a trace many chunks long reads the
 * same from a file and from a pipe, and a file cut short by someone else
 * while it is being read gives an error naming the file and the position,
 * never a signal, read whole or in brief. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpurf/trace.h"
#include "test_util.h"

/* Several read chunks (256 KiB each) long. */
static const gpurf_trace_gen_params big = {"matrixmul", 7, 2, 0, 300, 1};

static void tmp_path(char *buf, size_t n, const char *name) {
  snprintf(buf, n, "%s/%ld-%s", GPURF_TEST_TMP_DIR, (long)getpid(), name);
}

/* Writes the preset as a binary trace; returns its size in bytes. */
static long write_trace(const char *path) {
  test_write_preset_binary(&big, path);
  struct stat sb;
  assert_int_equal(stat(path, &sb), 0);
  assert_true(sb.st_size > 4 * (256 << 10));
  return (long)sb.st_size;
}

/* Reads up to `limit` records (all when 0); returns the last status and
 * counts the records and the sum of their PCs. */
static int read_some(gpurf_ctx *ctx, gpurf_trace_reader *r, uint64_t limit, uint64_t *n,
                     uint64_t *pc_sum) {
  gpurf_trace_inst *in = malloc(sizeof *in);
  int rc = GPURF_OK;
  while ((!limit || *n < limit) && (rc = gpurf_trace_next(ctx, r, in)) == GPURF_OK) {
    (*n)++;
    *pc_sum += in->pc ^ in->mask;
  }
  free(in);
  return rc;
}

/* As read_some, in brief (limit rounded up to a whole read). */
static int read_some_brief(gpurf_ctx *ctx, gpurf_trace_reader *r, uint64_t limit, uint64_t *n,
                           uint64_t *pc_sum) {
  gpurf_trace_brief b[100];
  gpurf_trace_where w;
  size_t got = 0;
  int rc = GPURF_OK;
  while ((!limit || *n < limit) &&
         (rc = gpurf_trace_next_briefs(ctx, r, b, 100, &got, &w)) == GPURF_OK)
    for (size_t i = 0; i < got; i++, (*n)++) *pc_sum += b[i].mask;
  return rc;
}

static void big_trace_from_file_and_pipe(void **state) {
  (void)state;
  char path[1024];
  tmp_path(path, sizeof path, "big.gtraceb");
  write_trace(path);
  gpurf_ctx *ctx = test_ctx();
  gpurf_trace_stats from_file, from_pipe;
  assert_ok(ctx, gpurf_trace_stats_file(ctx, path, &from_file));
  assert_int_equal(from_file.warp_instructions, 2 * 32 * 300);
  /* The file through a pipe on standard input, read as "-". */
  int fds[2];
  assert_int_equal(pipe(fds), 0);
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    close(fds[0]);
    FILE *f = fopen(path, "rb");
    char buf[4096];
    size_t got;
    while (f && (got = fread(buf, 1, sizeof buf, f)) > 0)
      if (write(fds[1], buf, got) != (ssize_t)got) _exit(1);
    _exit(f ? 0 : 1);
  }
  close(fds[1]);
  int saved = dup(STDIN_FILENO);
  assert_true(dup2(fds[0], STDIN_FILENO) >= 0);
  close(fds[0]);
  gpurf_trace_reader *r = NULL;
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, "-", &r));
  assert_ok(ctx, gpurf_trace_stats_reader(ctx, r, &from_pipe));
  gpurf_trace_reader_free(r);
  dup2(saved, STDIN_FILENO);
  close(saved);
  clearerr(stdin);
  int status = 0;
  waitpid(child, &status, 0);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  assert_memory_equal(&from_file, &from_pipe, sizeof from_file);
  remove(path);
  gpurf_ctx_free(ctx);
}

/* The file is cut to `keep` bytes after `before` records were read (0:
 * right after the open); the reader must stop with an I/O error naming the
 * file, the byte position and the cut. */
static void cut_while_reading(const char *path, long size, uint64_t before, long keep,
                              int brief) {
  gpurf_ctx *ctx = test_ctx();
  gpurf_trace_reader *r = NULL;
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, path, &r));
  uint64_t n = 0, sum = 0;
  int (*read)(gpurf_ctx *, gpurf_trace_reader *, uint64_t, uint64_t *, uint64_t *) =
      brief ? read_some_brief : read_some;
  if (before) assert_int_equal(read(ctx, r, before, &n, &sum), GPURF_OK);
  assert_int_equal(truncate(path, keep), 0);
  int rc = read(ctx, r, 0, &n, &sum);
  char msg[2048];
  gpurf_error_format(gpurf_ctx_error(ctx), msg, sizeof msg);
  if (rc != GPURF_EIO || !strstr(msg, path) || !strstr(msg, "byte ") ||
      !strstr(msg, "cut short while being read") || strchr(msg, '\n'))
    fail_msg("cut to %ld of %ld bytes after %llu records: status %d, '%s'", keep, size,
             (unsigned long long)before, rc, msg);
  assert_true(n < 2 * 32 * 300);
  gpurf_trace_reader_free(r);
  gpurf_ctx_free(ctx);
}

static void truncated_while_read(void **state) {
  (void)state;
  char path[1024];
  tmp_path(path, sizeof path, "cut.gtraceb");
  const uint64_t total = 2 * 32 * 300;
  const struct {
    uint64_t before; /* records read before the cut */
    double keep;     /* fraction of the file left */
  } cases[] = {
      {0, 0.0},         {0, 0.5},          {total / 4, 0.9},
      {total / 2, 0.0}, {total / 2, 0.25}, {total / 2, 0.75},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int brief = 0; brief < 2; brief++) {
      long size = write_trace(path);
      cut_while_reading(path, size, cases[i].before, (long)(cases[i].keep * (double)size), brief);
    }
  remove(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(big_trace_from_file_and_pipe),
      cmocka_unit_test(truncated_while_read),
  };
  return cmocka_run_group_tests_name("trace_binary", tests, NULL, NULL);
}
