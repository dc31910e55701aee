/* Sweep results files (the shards `gpurf sweep merge` joins) read into a
 * sweep of a shipped design: any input fails with one line or fills whole
 * points. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  gpurf_ctx *ctx = fuzz_ctx();
  gpurf_sweep *s = NULL;
  if (gpurf_sweep_alloc(ctx, "jing-128k-16bk-straight", &s) != GPURF_OK ||
      gpurf_sweep_add(ctx, s, "banks[0].count+banks[0].entries=8:128,16:64") != GPURF_OK ||
      gpurf_sweep_add(ctx, s, "clock_hz=7e8,1e9") != GPURF_OK)
    abort();
  int rc = gpurf_sweep_read_results(ctx, s, fuzz_write_input(".results", data, size));
  fuzz_check_error(ctx, rc);
  /* A point read is whole: a summary and at least the banks' events. */
  for (size_t i = 0; rc == GPURF_OK && i < gpurf_sweep_point_count(s); i++) {
    const gpurf_sweep_point *p = gpurf_sweep_point_get(s, i);
    if (p->done && (!p->summary || p->n_components > GPURF_RF_MAX_COMPONENTS)) abort();
  }
  gpurf_sweep_free(s);
  gpurf_ctx_free(ctx);
  return 0;
}
