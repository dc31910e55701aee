/* Interrupted commands leave no temporary files: `trace gen`, `trace
 * convert`, `sweep --plot` and `bench sim` (its temporary trace) are each
 * stopped by SIGINT or SIGTERM (sent to their process group, as a terminal
 * sends Ctrl-C) once their temporary file exists, and must then have
 * removed it and died of the signal. A file-size limit stops a command the
 * signal missed from filling the disk. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli_run.h"

static char dir[512];

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* Files in dir whose name contains part. */
static int count_files(const char *part) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) n += strstr(e->d_name, part) != NULL;
  closedir(d);
  return n;
}

/* Runs shell command cmd in its own process group, waits (at most 20 s)
 * for a file whose name contains tmp_part, sends sig to the group and
 * checks that the command died of it with no such file left. */
static void interrupt_when(const char *cmd, const char *tmp_part, int sig) {
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    setpgid(0, 0);
    char full[8192];
    snprintf(full, sizeof full, "ulimit -f 1048576; exec %s >/dev/null 2>&1", cmd);
    execl("/bin/sh", "sh", "-c", full, (char *)NULL);
    _exit(127);
  }
  setpgid(pid, pid);
  int seen = 0;
  for (int i = 0; i < 20000 && !seen; i++) {
    seen = count_files(tmp_part) > 0;
    if (!seen) sleep_ms(1);
  }
  if (!seen) {
    kill(-pid, SIGKILL);
    waitpid(pid, NULL, 0);
    fail_msg("'%s' made no '%s' file", cmd, tmp_part);
  }
  kill(-pid, sig);
  int st;
  waitpid(pid, &st, 0);
  kill(-pid, SIGKILL); /* anything the group left running (a child) */
  if (!WIFSIGNALED(st) || WTERMSIG(st) != sig)
    fail_msg("'%s': not ended by signal %d (status %d)", cmd, sig, st);
  if (count_files(tmp_part) != 0) fail_msg("'%s' left a '%s' file", cmd, tmp_part);
}

static int setup(void **state) {
  (void)state;
  snprintf(dir, sizeof dir, "%s/interrupt_%ld", GPURF_TEST_TMP_DIR, (long)getpid());
  mkdir(dir, 0755);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd) == 0 ? 0 : -1;
}

static void trace_gen_and_convert(void **state) {
  (void)state;
  char cmd[4096];
  /* 4.9 M warp instructions: far more than is written before the signal. */
  snprintf(cmd, sizeof cmd,
           "'%s' trace gen --workload compute --seed 1 --ctas 8 --warps 48 --insts 12800 -o "
           "'%s/gen.gtrace'", GPURF_TEST_CLI, dir);
  interrupt_when(cmd, "gen.gtrace", SIGINT);
  /* An input that takes about a second to convert. */
  snprintf(cmd, sizeof cmd,
           "'%s' trace gen --workload compute --seed 1 --ctas 1 --warps 32 --insts 8000 -o "
           "'%s/in.gtraceb' >/dev/null", GPURF_TEST_CLI, dir);
  assert_int_equal(system(cmd), 0);
  snprintf(cmd, sizeof cmd, "'%s' trace convert '%s/in.gtraceb' '%s/out.gtrace'", GPURF_TEST_CLI,
           dir, dir);
  interrupt_when(cmd, "out.gtrace", SIGTERM);
}

/* The temporary binary trace of `bench sim` lives in TMPDIR. */
static void bench_sim(void **state) {
  (void)state;
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "env TMPDIR='%s' '%s' bench sim --n 50", dir, GPURF_TEST_CLI);
  interrupt_when(cmd, "gpurf-bench-", SIGINT);
}

/* sweep --plot, with a stand-in gnuplot that never finishes: the four
 * temporary files beside the plot exist while it runs. */
static void sweep_plot(void **state) {
  (void)state;
  char path[1024], cmd[4096];
  snprintf(path, sizeof path, "%s/gnuplot", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs("#!/bin/sh\nexec sleep 30\n", f);
  fclose(f);
  chmod(path, 0755);
  snprintf(cmd, sizeof cmd,
           "env PATH='%s':/usr/bin:/bin GPURF_DATA_DIR='%s' '%s' sweep jing-128k-16bk-straight "
           "--set 'banks[0].count=8' --plot '%s/plot.png'", dir, GPURF_TEST_SOURCE_DIR,
           GPURF_TEST_CLI, dir);
  interrupt_when(cmd, "plot.png", SIGINT);
}

/* Files of dir/sub whose name contains part (0 when sub does not exist). */
static int count_in(const char *sub, const char *part) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, sub);
  DIR *d = opendir(path);
  if (!d) return 0;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) n += strstr(e->d_name, part) != NULL;
  closedir(d);
  return n;
}

/* reproduce --out: the library writes each file of the report under a
 * temporary name (DIR/.NAME.tmp-XXXXXX) the cleanup registry does not know.
 * The command is stopped while such a file exists, interrupted, and let go:
 * it must still end by the signal and leave no temporary file. (Writing the
 * report takes milliseconds, so the stop is what makes the interrupt land
 * inside it; a run that finishes first is tried again.) */
static void reproduce_report(void **state) {
  (void)state;
  char cmd[4096];
  int caught = 0;
  for (int attempt = 0; attempt < 20 && !caught; attempt++) {
    snprintf(cmd, sizeof cmd, "rm -rf '%s/rep'", dir);
    assert_int_equal(system(cmd), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
      setpgid(0, 0);
      char out[1024];
      snprintf(out, sizeof out, "%s/rep", dir);
      int fd = open("/dev/null", O_WRONLY);
      dup2(fd, 1);
      dup2(fd, 2);
      setenv("GPURF_DATA_DIR", GPURF_TEST_SOURCE_DIR, 1);
      execl(GPURF_TEST_CLI, GPURF_TEST_CLI, "reproduce", "warrf", "--workloads", "shipped",
            "--out", out, "--quiet", (char *)NULL);
      _exit(127);
    }
    setpgid(pid, pid);
    int st = 0;
    for (;;) {
      if (waitpid(pid, &st, WNOHANG) == pid) break; /* finished before a catch */
      if (count_in("rep", ".tmp-") == 0) continue;
      kill(-pid, SIGSTOP);
      if (count_in("rep", ".tmp-") == 0) {
        kill(-pid, SIGCONT);
        continue;
      }
      caught = 1;
      kill(-pid, SIGINT);
      kill(-pid, SIGCONT);
      waitpid(pid, &st, 0);
      if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGINT)
        fail_msg("reproduce --out: not ended by SIGINT (status %d)", st);
      if (count_in("rep", ".tmp-") != 0) fail_msg("reproduce --out left a temporary file");
      break;
    }
  }
  if (!caught) fail_msg("reproduce --out: never stopped while writing its report");
}

/* SIGTERM to gpurf alone (a supervisor stopping one process), not its
 * group, while gnuplot draws: gnuplot outlived gpurf and wrote its output
 * after the handler had removed the temporary files. The stand-in writes
 * the output named in the script a second after it starts. */
static void sweep_plot_term_alone(void **state) {
  (void)state;
  char path[1200], cmd[4096], sub[600];
  snprintf(sub, sizeof sub, "%s/alone", dir);
  mkdir(sub, 0755);
  snprintf(path, sizeof path, "%s/gnuplot", sub);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs("#!/bin/sh\nout=$(sed -n \"s/^set output '\\(.*\\)'$/\\1/p\" \"$1\")\n"
        "sleep 1\necho drawn > \"$out\"\n",
        f);
  fclose(f);
  chmod(path, 0755);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    setpgid(0, 0);
    snprintf(cmd, sizeof cmd, "%s:/usr/bin:/bin", sub);
    setenv("PATH", cmd, 1);
    setenv("GPURF_DATA_DIR", GPURF_TEST_SOURCE_DIR, 1);
    snprintf(path, sizeof path, "%s/plot.png", sub);
    int fd = open("/dev/null", O_WRONLY);
    dup2(fd, 1);
    dup2(fd, 2);
    execl(GPURF_TEST_CLI, GPURF_TEST_CLI, "sweep", "jing-128k-16bk-straight", "--set",
          "banks[0].count=8", "--plot", path, (char *)NULL);
    _exit(127);
  }
  setpgid(pid, pid);
  int seen = 0;
  for (int i = 0; i < 20000 && !seen; i++) {
    seen = count_in("alone", "plot.png.tmp") == 4;
    if (!seen) sleep_ms(1);
  }
  sleep_ms(200); /* gnuplot started */
  kill(pid, SIGTERM);
  int st;
  waitpid(pid, &st, 0);
  sleep_ms(1500); /* past the stand-in's write */
  kill(-pid, SIGKILL);
  if (!seen) fail_msg("sweep --plot made no temporary files");
  if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGTERM) fail_msg("not ended by SIGTERM (status %d)", st);
  if (count_in("alone", "plot.png") != 0) fail_msg("sweep --plot left a file after SIGTERM");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(trace_gen_and_convert),
      cmocka_unit_test(bench_sim),
      cmocka_unit_test(sweep_plot),
      cmocka_unit_test(reproduce_report),
      cmocka_unit_test(sweep_plot_term_alone),
  };
  return cmocka_run_group_tests_name("interrupt", tests, setup, teardown);
}
