/* A program linking the installed gpurf: evaluates one SRAM bank. */
#include <stdio.h>

#include <gpurf/gpurf.h>

int main(int argc, char **argv) {
  gpurf_ctx *ctx = gpurf_ctx_alloc();
  if (!ctx) return 1;
  if (argc > 1) gpurf_ctx_set_data_dir(ctx, argv[1]);
  gpurf_tech tech;
  gpurf_cell cell;
  gpurf_bank_spec spec;
  gpurf_cost cost;
  gpurf_bank_spec_init(&spec);
  int rc = gpurf_tech_load(ctx, "40nm", &tech);
  if (rc == GPURF_OK) rc = gpurf_cell_load(ctx, "sram-8t-1r1w", &cell);
  if (rc == GPURF_OK) {
    spec.tech = &tech;
    spec.cell = &cell;
    spec.ports = (gpurf_ports){0, 1, 1};
    spec.entries = 256;
    spec.width_bits = 128;
    rc = gpurf_bank_eval(ctx, &spec, &cost);
  }
  if (rc != GPURF_OK) {
    char line[1024];
    gpurf_error_format(gpurf_ctx_error(ctx), line, sizeof line);
    fprintf(stderr, "%s\n", line);
    gpurf_ctx_free(ctx);
    return 1;
  }
  printf("gpurf %s: read %.3f pJ, write %.3f pJ, %.5f mm^2\n", gpurf_version(),
         cost.read_energy_j * 1e12, cost.write_energy_j * 1e12, cost.area_m2 * 1e6);
  gpurf_ctx_free(ctx);
  return 0;
}
