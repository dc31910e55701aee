/* Cell files (tech/cells/NAME.yaml). */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  gpurf_ctx *ctx = fuzz_ctx();
  static gpurf_cell cell;
  fuzz_check_error(ctx, gpurf_cell_load_file(ctx, fuzz_write_input(".yaml", data, size), &cell));
  gpurf_ctx_free(ctx);
  return 0;
}
