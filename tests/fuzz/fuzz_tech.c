/* Technology node files (tech/NODE.yaml). */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  gpurf_ctx *ctx = fuzz_ctx();
  gpurf_tech *tech = NULL;
  if (gpurf_tech_alloc(ctx, &tech) != GPURF_OK) abort();
  fuzz_check_error(ctx, gpurf_tech_load_file(ctx, fuzz_write_input(".yaml", data, size), tech));
  gpurf_tech_free(tech);
  gpurf_ctx_free(ctx);
  return 0;
}
