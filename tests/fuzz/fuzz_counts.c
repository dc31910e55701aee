/* Counter files, both formats (native and AccelWattch reports), read into an
 * engine over the test table. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  gpurf_ctx *ctx = fuzz_ctx();
  static gpurf_rf_table table;
  static int have_table;
  if (!have_table) {
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/tables/test-rf.yaml", gpurf_ctx_data_dir(ctx));
    if (gpurf_rf_table_load(ctx, path, &table) != GPURF_OK) abort();
    have_table = 1;
  }
  gpurf_energy *engine = NULL;
  if (gpurf_energy_alloc(ctx, &table, &engine) != GPURF_OK) abort();
  static gpurf_counts_info info;
  fuzz_check_error(ctx, gpurf_energy_load_counts(ctx, engine, fuzz_write_input(".tsv", data, size),
                                                 &info));
  gpurf_energy_free(engine);
  gpurf_ctx_free(ctx);
  return 0;
}
