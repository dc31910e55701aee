/* libFuzzer harness shared by the trace parsers: the readers take paths, so
 * each input is written to one private file and read back to its end. */
#ifndef GPURF_FUZZ_COMMON_H
#define GPURF_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_tmp.h"
#include "gpurf/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Writes prefix + data to the private file and reads every record. */
static void fuzz_read(const char *suffix, const char *prefix, const uint8_t *data, size_t size) {
  const char *path = fuzz_tmp_path(suffix);
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  if (prefix) fputs(prefix, f);
  if (size) fwrite(data, 1, size, f);
  fclose(f);
  /* Read whole, then as a timing model reads, passing over addresses and
   * values (a path of its own in the binary reader), then in brief (another
   * one): the brief read must give as many records, then the same status
   * and message, as the whole one. */
  long count[3] = {0, 0, 0};
  int status[3] = {0, 0, 0};
  static char msg[3][1024];
  for (int pass = 0; pass < 3; pass++) {
    gpurf_ctx *ctx = gpurf_ctx_alloc();
    gpurf_trace_reader *r = NULL;
    static gpurf_trace_inst inst;
    static gpurf_trace_brief brief[64];
    gpurf_trace_where where;
    int rc = gpurf_trace_reader_alloc(ctx, path, &r);
    if (rc == GPURF_OK && pass)
      gpurf_trace_reader_omit(r, GPURF_TRACE_HAS_ADDR | GPURF_TRACE_HAS_VALUES);
    long n = 0;
    while (rc == GPURF_OK && n < 1000000) {
      size_t got = 0;
      if (pass == 2)
        rc = gpurf_trace_next_briefs(ctx, r, brief, 64, &got, &where);
      else if ((rc = gpurf_trace_next(ctx, r, &inst)) == GPURF_OK)
        got = 1;
      n += (long)got;
    }
    count[pass] = n, status[pass] = rc, msg[pass][0] = '\0';
    if (rc < 0) gpurf_error_format(gpurf_ctx_error(ctx), msg[pass], sizeof msg[pass]);
    gpurf_trace_reader_free(r);
    gpurf_ctx_free(ctx);
  }
  if (count[0] < 1000000 &&
      (count[2] != count[0] || status[2] != status[0] || strcmp(msg[2], msg[0]) != 0))
    abort();
}

#endif
