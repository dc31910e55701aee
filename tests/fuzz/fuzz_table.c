/* Primitive tables (docs/table-format.md), and the engine built on one. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  gpurf_ctx *ctx = fuzz_ctx();
  static gpurf_rf_table table;
  int rc = gpurf_rf_table_load(ctx, fuzz_write_input(".yaml", data, size), &table);
  gpurf_energy *engine = NULL;
  if (rc == GPURF_OK) rc = gpurf_energy_alloc(ctx, &table, &engine);
  fuzz_check_error(ctx, rc);
  gpurf_energy_free(engine);
  gpurf_ctx_free(ctx);
  return 0;
}
