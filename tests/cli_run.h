/* Running the gpurf command from a test: exit status, stdout and stderr. */
#ifndef GPURF_TEST_CLI_RUN_H
#define GPURF_TEST_CLI_RUN_H

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

typedef struct cli_result {
  int status;
  char out[1 << 18];
  char err[8192];
} cli_result;

/* Reads at most max bytes of path into a new buffer; NULL if unreadable. */
static inline char *cli_slurp(const char *path, size_t max) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = calloc(1, max + 1);
  if (!buf) {
    fclose(f);
    return NULL;
  }
  size_t n = fread(buf, 1, max, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

/* Runs the CLI with args (shell-quoted) and GPURF_DATA_DIR set to the source
 * tree. Output files carry the process id: ctest runs tests in parallel. */
static inline void cli_run(cli_result *r, const char *args) {
  char cmd[8192], outp[512], errp[512];
  snprintf(outp, sizeof outp, "%s/cli_out_%ld.txt", GPURF_TEST_TMP_DIR, (long)getpid());
  snprintf(errp, sizeof errp, "%s/cli_err_%ld.txt", GPURF_TEST_TMP_DIR, (long)getpid());
  snprintf(cmd, sizeof cmd, "GPURF_DATA_DIR='%s' '%s' %s >'%s' 2>'%s'", GPURF_TEST_SOURCE_DIR,
           GPURF_TEST_CLI, args, outp, errp);
  int st = system(cmd);
  r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  char *o = cli_slurp(outp, sizeof r->out - 1), *e = cli_slurp(errp, sizeof r->err - 1);
  assert_non_null(o);
  assert_non_null(e);
  strcpy(r->out, o);
  strcpy(r->err, e);
  free(o);
  free(e);
  remove(outp);
  remove(errp);
}

static inline int cli_count_lines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

/* A command that must fail: its status, and a substring of its one-line error. */
typedef struct cli_error_case {
  const char *args;
  int status;
  const char *err;
} cli_error_case;

/* Each case must exit with its status, print exactly one line on stderr
 * containing its text, and print nothing on stdout. */
static inline void cli_check_errors(const cli_error_case *cases, size_t n) {
  static cli_result r;
  for (size_t i = 0; i < n; i++) {
    cli_run(&r, cases[i].args);
    if (r.status != cases[i].status || !strstr(r.err, cases[i].err) ||
        cli_count_lines(r.err) != 1 || r.out[0] != '\0')
      fail_msg("'%s': status %d, stderr '%s', stdout %zu bytes", cases[i].args, r.status, r.err,
               strlen(r.out));
  }
}

/* The number after "KEY": in JSON output; fails the test when absent. */
static inline double cli_json_number(const char *json, const char *key) {
  char pat[128];
  snprintf(pat, sizeof pat, "\"%s\": ", key);
  const char *p = strstr(json, pat);
  if (!p) fail_msg("no %s in JSON output", key);
  return strtod(p + strlen(pat), NULL);
}

/* How many times c stands in [s, end): a CSV header and its row must agree
 * on the number of commas. */
static inline int cli_count_char(const char *s, const char *end, char c) {
  int n = 0;
  for (; s < end; s++) n += *s == c;
  return n;
}

/* Each command must exit 0 and print a usage text containing want. */
static inline void cli_check_usage(const char *const *args, size_t n, const char *want) {
  static cli_result r;
  for (size_t i = 0; i < n; i++) {
    cli_run(&r, args[i]);
    if (r.status != 0 || !strstr(r.out, want)) fail_msg("'%s' gave no usage", args[i]);
  }
}

/* A command that must succeed and print exactly the golden file (under
 * tests/data/golden). */
typedef struct cli_golden_case {
  const char *args, *golden;
} cli_golden_case;

/* Golden files pin the human output; regenerate them with
 * tools/update-golden.sh after an intended model change and review the diff.
 * Output that names the source tree is compared with SRC in its place: the
 * checkout differs from machine to machine, so no golden file can hold it. */
static inline void cli_check_goldens(const cli_golden_case *cases, size_t n) {
  static cli_result r;
  for (size_t i = 0; i < n; i++) {
    cli_run(&r, cases[i].args);
    assert_int_equal(r.status, 0);
    char path[1024];
    snprintf(path, sizeof path, "%s/golden/%s", GPURF_TEST_DATA_DIR, cases[i].golden);
    char *want = cli_slurp(path, 1 << 17);
    if (!want) fail_msg("missing golden file %s", path);
    char *p;
    while ((p = strstr(r.out, GPURF_TEST_SOURCE_DIR)) != NULL) {
      size_t len = strlen(GPURF_TEST_SOURCE_DIR);
      memmove(p + 3, p + len, strlen(p + len) + 1);
      memcpy(p, "SRC", 3);
    }
    if (strcmp(want, r.out) != 0) fail_msg("'%s' differs from %s", cases[i].args, path);
    free(want);
  }
}

#endif
