/* Bad traces: every defect gives one FILE:LINE message and a failing status,
 * never a crash or a hang. */
#include <stdlib.h>
#include <string.h>

#include "gpurf/trace.h"
#include "test_util.h"

#define BAD GPURF_TEST_DATA_DIR "/traces/bad/"

/* Reads the trace to its end; returns the formatted error ("" if none). */
static int read_trace(const char *path, char *msg, size_t n) {
  gpurf_ctx *ctx = test_ctx();
  gpurf_trace_reader *r = NULL;
  gpurf_trace_inst *in = malloc(sizeof *in);
  int rc = gpurf_trace_reader_alloc(ctx, path, &r);
  while (rc == GPURF_OK) rc = gpurf_trace_next(ctx, r, in);
  msg[0] = '\0';
  if (rc < 0) gpurf_error_format(gpurf_ctx_error(ctx), msg, n);
  gpurf_trace_reader_free(r);
  free(in);
  gpurf_ctx_free(ctx);
  return rc;
}

static void each_defect_names_file_and_line(void **state) {
  (void)state;
  const struct {
    const char *file, *where, *what;
  } cases[] = {
      {"truncated.traceg", "truncated.traceg:17:", "truncated: file ends in warp 0"},
      {"insts-mismatch.traceg", "insts-mismatch.traceg:19:", "has 2 instructions, but 'insts = 3'"},
      {"insts-too-many.traceg", "insts-too-many.traceg:17:", "more instructions than 'insts = 1'"},
      {"bad-hex.traceg", "bad-hex.traceg:17:1:", "bad hex number '00g8' for the PC"},
      {"bad-hex-address.traceg", "bad-hex-address.traceg:16:35:", "bad hex base address '0x7fzz'"},
      {"register-out-of-range.traceg", "register-out-of-range.traceg:17:27:",
       "register R300 out of range"},
      {"mask-too-wide.traceg", "mask-too-wide.traceg:16:6:", "wider than the 32 lanes"},
      {"missing-address.traceg", "missing-address.traceg:16:", "before the address of an active lane"},
      {"trailing-garbage.traceg", "trailing-garbage.traceg:16:30:", "unexpected 'junk'"},
      {"warp-out-of-range.traceg", "warp-out-of-range.traceg:14:", "warp 2 out of range"},
      {"v5-missing-immediate.traceg", "v5-missing-immediate.traceg:16:", "before the immediate"},
      {"compressed.traceg", "compressed.traceg:1:1:", "gzip-compressed file"},
      {"compressed-xz.traceg", "compressed-xz.traceg:1:1:", "xz-compressed file"},
      {"xz-list", "kernelslist.g:2:1:", "is xz-compressed; decompress it"},
      {"unknown-command", "kernelslist.g:2:1:", "unknown command 'launch"},
      {"native-truncated.gtrace", "native-truncated.gtrace:5:", "truncated: no 'end' line"},
  };
  char msg[2048];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[1024];
    snprintf(path, sizeof path, BAD "%s", cases[i].file);
    int rc = read_trace(path, msg, sizeof msg);
    if (rc >= 0 || !strstr(msg, cases[i].where) || !strstr(msg, cases[i].what))
      fail_msg("%s: status %d, message '%s'", cases[i].file, rc, msg);
    if (strchr(msg, '\n')) fail_msg("%s: message spans lines", cases[i].file);
  }
}

static void missing_and_empty_inputs(void **state) {
  (void)state;
  char msg[2048], path[1024];
  assert_true(read_trace(BAD "no-such-file.traceg", msg, sizeof msg) == GPURF_EIO);
  assert_non_null(strstr(msg, "cannot open"));
  assert_true(read_trace(GPURF_TEST_DATA_DIR "/traces", msg, sizeof msg) == GPURF_ENOTFOUND);
  assert_non_null(strstr(msg, "no kernelslist.g"));
  snprintf(path, sizeof path, "%s/empty.traceg", GPURF_TEST_TMP_DIR);
  FILE *f = fopen(path, "w");
  fclose(f);
  assert_true(read_trace(path, msg, sizeof msg) < 0);
  assert_non_null(strstr(msg, "empty file"));
}

/* Every prefix of a valid binary trace is refused, none crashes. */
static void truncated_binary_traces(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  char full[1024], cut[1024], msg[2048];
  snprintf(full, sizeof full, "%s/errors-full.gtraceb", GPURF_TEST_TMP_DIR);
  snprintf(cut, sizeof cut, "%s/errors-cut.gtraceb", GPURF_TEST_TMP_DIR);
  assert_ok(ctx, gpurf_trace_convert(ctx, GPURF_TEST_DATA_DIR "/traces/handwritten", full,
                                     GPURF_TRACE_FORMAT_BINARY));
  FILE *f = fopen(full, "rb");
  static unsigned char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  assert_true(n > 100 && n < sizeof buf);
  for (size_t len = 1; len < n; len += 1) {
    f = fopen(cut, "wb");
    fwrite(buf, 1, len, f);
    fclose(f);
    int rc = read_trace(cut, msg, sizeof msg);
    if (rc >= 0) fail_msg("prefix of %zu of %zu bytes was accepted", len, n);
  }
  /* and flipping any byte never crashes (it may still parse) */
  for (size_t i = 0; i < n; i++) {
    buf[i] ^= 0x5a;
    f = fopen(cut, "wb");
    fwrite(buf, 1, n, f);
    fclose(f);
    read_trace(cut, msg, sizeof msg);
    buf[i] ^= 0x5a;
  }
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(each_defect_names_file_and_line),
      cmocka_unit_test(missing_and_empty_inputs),
      cmocka_unit_test(truncated_binary_traces),
  };
  return cmocka_run_group_tests_name("trace_errors", tests, NULL, NULL);
}
