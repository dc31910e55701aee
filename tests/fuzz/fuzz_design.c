/* Register-file designs (models/NAME.yaml): loaded, then costed by the
 * component models, which is where a value the schema let through meets
 * the models' own ranges. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  gpurf_ctx *ctx = fuzz_ctx();
  static gpurf_rf_design design;
  static gpurf_rf_table table;
  int rc = gpurf_rf_design_load(ctx, fuzz_write_input(".yaml", data, size), &design);
  if (rc == GPURF_OK) rc = gpurf_rf_design_table(ctx, &design, &table);
  fuzz_check_error(ctx, rc);
  gpurf_ctx_free(ctx);
  return 0;
}
