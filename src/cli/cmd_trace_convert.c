/* gpurf trace convert IN OUT: any trace the readers take, written in the
 * native form. */
#include <string.h>

#include "cli/cli.h"
#include "gpurf/trace.h"

gpurf_trace_format cli_trace_form(const char *to, const char *out_path) {
  if (to) return strcmp(to, "binary") == 0 ? GPURF_TRACE_FORMAT_BINARY : GPURF_TRACE_FORMAT_TEXT;
  return cli_ends_with(out_path, ".gtraceb") ? GPURF_TRACE_FORMAT_BINARY
                                             : GPURF_TRACE_FORMAT_TEXT;
}

int cmd_trace_convert(gpurf_ctx *ctx, const cli_parsed *p) {
  gpurf_trace_format to = cli_trace_form(cli_get(p, "--to"), p->pos[1]);
  gpurf_trace_reader *r = NULL;
  int rc = gpurf_trace_reader_alloc(ctx, p->pos[0], &r);
  if (rc == GPURF_OK && cli_output_file_ok(p->pos[1]) != CLI_OK) {
    gpurf_trace_reader_free(r);
    return CLI_FAIL;
  }
  if (rc == GPURF_OK) rc = cli_trace_copy(ctx, r, p->pos[1], to, NULL);
  gpurf_trace_reader_free(r);
  if (rc != GPURF_OK) {
    cli_print_error(ctx);
    return CLI_FAIL;
  }
  return CLI_OK;
}
