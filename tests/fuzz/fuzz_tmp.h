/* The one file a fuzz target writes its inputs to (the readers take paths):
 * private to the process, in TMPDIR (else /tmp), and removed when the
 * process exits normally, as libFuzzer's runs and the replays under ctest
 * do. (After a crash it stays, beside the input libFuzzer saves.) */
#ifndef GPURF_FUZZ_TMP_H
#define GPURF_FUZZ_TMP_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char fuzz_tmp[4096];

static void fuzz_tmp_remove(void) {
  if (fuzz_tmp[0]) remove(fuzz_tmp);
}

/* The path, made at the first call with this suffix (one per target). */
static const char *fuzz_tmp_path(const char *suffix) {
  if (!fuzz_tmp[0]) {
    const char *dir = getenv("TMPDIR");
    snprintf(fuzz_tmp, sizeof fuzz_tmp, "%s/gpurf-fuzz-%ld%s", dir && dir[0] ? dir : "/tmp",
             (long)getpid(), suffix);
    atexit(fuzz_tmp_remove);
  }
  return fuzz_tmp;
}

#endif
