/* Temporary files to remove if the process is interrupted (SIGINT, SIGTERM,
 * SIGHUP) before they are renamed into place or removed: a small registry
 * the signal handler walks with only async-signal-safe calls (unlink,
 * signal, raise). The library never touches signals; the CLI registers the
 * files it and the library create (gpurf_trace_writer_tmp_path).
 *
 * The registry is the process's one piece of mutable static state, as a
 * signal handler cannot be given a context. Paths are copied in before
 * their slot is marked used (with a signal fence between), so the handler
 * never sees half a path. */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"

#define CLEANUP_SLOTS 16
#define CLEANUP_PATH_MAX 4200

static char slot_path[CLEANUP_SLOTS][CLEANUP_PATH_MAX];
static volatile sig_atomic_t slot_used[CLEANUP_SLOTS];

/* A helper process (gnuplot) writing one of the registered files: it
 * outlives a signal sent to gpurf alone and would write its file after the
 * handler removed it, so the handler ends it first. */
static volatile sig_atomic_t child_pid;

static const int handled[] = {SIGINT, SIGTERM, SIGHUP};
#define N_HANDLED (sizeof handled / sizeof handled[0])

static void handled_set(sigset_t *set) {
  sigemptyset(set);
  for (size_t k = 0; k < N_HANDLED; k++) sigaddset(set, handled[k]);
}

static void on_signal(int sig) {
  pid_t child = (pid_t)child_pid;
  if (child > 0) {
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
  }
  for (int i = 0; i < CLEANUP_SLOTS; i++)
    if (slot_used[i]) unlink(slot_path[i]);
  /* Die of the signal itself, so the parent sees how the process ended. */
  signal(sig, SIG_DFL);
  raise(sig);
}

void cli_cleanup_install(void) {
  for (size_t i = 0; i < N_HANDLED; i++) {
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    handled_set(&sa.sa_mask);
    /* A signal ignored when the process started (nohup, a background job
     * of a non-interactive shell) stays ignored. */
    if (sigaction(handled[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(handled[i], &sa, NULL);
  }
}

/* Between a temporary file's creation and its registration the handler
 * would not know it: the signals wait until both are done. */
void cli_cleanup_hold(cli_cleanup_mask *m) {
  sigset_t set;
  handled_set(&set);
  pthread_sigmask(SIG_BLOCK, &set, &m->old);
}

void cli_cleanup_release(const cli_cleanup_mask *m) {
  pthread_sigmask(SIG_SETMASK, &m->old, NULL);
}

int cli_cleanup_add(const char *path) {
  if (!path || !path[0] || strlen(path) >= CLEANUP_PATH_MAX) return -1;
  for (int i = 0; i < CLEANUP_SLOTS; i++) {
    if (slot_used[i]) continue;
    memcpy(slot_path[i], path, strlen(path) + 1);
    atomic_signal_fence(memory_order_seq_cst);
    slot_used[i] = 1;
    return i;
  }
  return -1;
}

void cli_cleanup_child(pid_t pid) { child_pid = (sig_atomic_t)pid; }

void cli_cleanup_remove(int slot) {
  if (slot >= 0 && slot < CLEANUP_SLOTS) slot_used[slot] = 0;
}
