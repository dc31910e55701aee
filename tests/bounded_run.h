/* Running the gpurf command under a time and memory bound: the child gets a
 * CPU-time limit (so a runaway parse is killed, not waited for), its peak
 * resident memory comes back through wait4, and the wall time is measured.
 * Standard input is a pipe fed from a buffer, so readers are also tried on
 * input that cannot be rewound or opened twice. */
#ifndef GPURF_TEST_BOUNDED_RUN_H
#define GPURF_TEST_BOUNDED_RUN_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

typedef struct bounded_result {
  int status;       /* exit status; -1 when killed by a signal */
  int signal;       /* the signal that ended it, or 0 */
  double wall_s;
  long maxrss_kib;  /* peak resident set of the child */
  char out[1 << 16];
  char err[1 << 14];
} bounded_result;

static inline void bounded_slurp(const char *path, char *buf, size_t size) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  size_t n = fread(buf, 1, size - 1, f);
  buf[n] = '\0';
  fclose(f);
  remove(path);
}

/* Runs gpurf with argv (NULL-terminated, without the program name), with
 * stdin_data (stdin_len bytes, or none when NULL) written into a pipe on its
 * standard input, and at most cpu_s seconds of CPU time. */
static inline void bounded_run(bounded_result *r, const char *const *argv, const void *stdin_data,
                               size_t stdin_len, int cpu_s) {
  char outp[512], errp[512];
  snprintf(outp, sizeof outp, "%s/bounded_out_%ld.txt", GPURF_TEST_TMP_DIR, (long)getpid());
  snprintf(errp, sizeof errp, "%s/bounded_err_%ld.txt", GPURF_TEST_TMP_DIR, (long)getpid());
  int in[2];
  assert_int_equal(pipe(in), 0);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    struct rlimit cpu = {(rlim_t)cpu_s, (rlim_t)cpu_s + 1};
    setrlimit(RLIMIT_CPU, &cpu);
    dup2(in[0], 0);
    close(in[0]);
    close(in[1]);
    int o = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (o < 0 || e < 0) _exit(127);
    dup2(o, 1);
    dup2(e, 2);
    setenv("GPURF_DATA_DIR", GPURF_TEST_SOURCE_DIR, 1);
    const char *args[64];
    int n = 0;
    args[n++] = GPURF_TEST_CLI;
    for (; argv[n - 1] && n < 63; n++) args[n] = argv[n - 1];
    args[n] = NULL;
    execv(GPURF_TEST_CLI, (char *const *)args);
    _exit(127);
  }
  close(in[0]);
  /* The child may stop reading early (an error on the first line): a write
   * to a closed pipe must not end the test. */
  void (*old)(int) = signal(SIGPIPE, SIG_IGN);
  const char *p = stdin_data;
  for (size_t done = 0; p && done < stdin_len;) {
    ssize_t w = write(in[1], p + done, stdin_len - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    done += (size_t)w;
  }
  close(in[1]);
  int st = 0;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  assert_int_equal(wait4(pid, &st, 0, &ru), pid);
  signal(SIGPIPE, old);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  r->wall_s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  r->maxrss_kib = ru.ru_maxrss;
  r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
  bounded_slurp(outp, r->out, sizeof r->out);
  bounded_slurp(errp, r->err, sizeof r->err);
}

/* Writes len bytes to a new file under the test's temporary directory and
 * returns its path (a static buffer per slot). */
static inline const char *bounded_file(int slot, const char *name, const void *data, size_t len) {
  static char paths[4][512];
  snprintf(paths[slot], sizeof paths[slot], "%s/%ld_%s", GPURF_TEST_TMP_DIR, (long)getpid(), name);
  FILE *f = fopen(paths[slot], "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(data, 1, len, f), len);
  fclose(f);
  return paths[slot];
}

#endif
