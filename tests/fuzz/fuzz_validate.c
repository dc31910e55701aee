/* Validation sets (validation/NAME.tsv). */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  gpurf_ctx *ctx = fuzz_ctx();
  gpurf_validate_set *set = NULL;
  fuzz_check_error(ctx, gpurf_validate_set_load(ctx, fuzz_write_input(".tsv", data, size), &set));
  gpurf_validate_set_free(set);
  gpurf_ctx_free(ctx);
  return 0;
}
