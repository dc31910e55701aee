/* libFuzzer harness shared by the file readers other than traces: each input
 * is written to one private file and handed to the reader by path, through
 * the public API, as a program linking the library would. Node and cell
 * names inside the inputs resolve in the data directory: GPURF_DATA_DIR, or
 * the working directory (tests/fuzz/run.sh runs from the source tree). */
#ifndef GPURF_FUZZ_INPUT_H
#define GPURF_FUZZ_INPUT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_tmp.h"
#include "gpurf/gpurf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Writes the input to a file private to this process; returns its path. */
static inline const char *fuzz_write_input(const char *suffix, const uint8_t *data, size_t size) {
  const char *path = fuzz_tmp_path(suffix);
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  if (size && fwrite(data, 1, size, f) != size) abort();
  fclose(f);
  return path;
}

static inline gpurf_ctx *fuzz_ctx(void) {
  gpurf_ctx *ctx = gpurf_ctx_alloc();
  if (!ctx) abort();
  const char *dir = getenv("GPURF_DATA_DIR");
  gpurf_ctx_set_data_dir(ctx, dir && dir[0] ? dir : ".");
  return ctx;
}

/* Every failure must leave a one-line message: no control bytes. */
static inline void fuzz_check_error(const gpurf_ctx *ctx, int rc) {
  if (rc == GPURF_OK) return;
  char line[2048];
  gpurf_error_format(gpurf_ctx_error(ctx), line, sizeof line);
  for (const char *p = line; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f) abort();
}

#endif
