/* Copying a trace reader into a native trace file, for `trace convert`,
 * `trace gen` and `bench sim`: the writer's temporary file is registered
 * for removal while it exists, so an interrupt leaves no OUT.tmp file. */
#include "cli/cli.h"

int cli_trace_copy(gpurf_ctx *ctx, gpurf_trace_reader *r, const char *out, gpurf_trace_format fmt,
                   uint64_t *count) {
  gpurf_trace_writer *w = NULL;
  gpurf_trace_inst inst_buf, *inst = &inst_buf; /* 2.5 KB: the stack holds it */
  uint64_t n = 0;
  cli_cleanup_mask mask;
  cli_cleanup_hold(&mask);
  int rc = gpurf_trace_writer_alloc(ctx, out, fmt, &w);
  int slot = rc == GPURF_OK ? cli_cleanup_add(gpurf_trace_writer_tmp_path(w)) : -1;
  cli_cleanup_release(&mask);
  while (rc == GPURF_OK) {
    rc = gpurf_trace_next(ctx, r, inst);
    if (rc == GPURF_TRACE_END) {
      rc = gpurf_trace_writer_commit(ctx, w);
      break;
    }
    if (rc == GPURF_OK) rc = gpurf_trace_write(ctx, w, gpurf_trace_reader_kernel(r), inst);
    n++;
  }
  gpurf_trace_writer_free(w);
  cli_cleanup_remove(slot);
  if (count) *count = n;
  return rc;
}
