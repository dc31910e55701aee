/* Areas of whole register files: a design's total, and the plain SRAM
 * register file that overheads of extra structures are set against. */
#include <string.h>

#include "core/ctx_internal.h"
#include "gpurf/metrics.h"

int gpurf_metrics_area_total(gpurf_ctx *ctx, const gpurf_rf_table *t, double *area_m2) {
  if (!t || !area_m2) return gpurf_fail(ctx, GPURF_EINVAL, "no table or no place for the area");
  double a = 0.0;
  /* The register file as the papers measure it: the operand collectors are
   * costed in energy, not in its area. */
  for (int i = 0; i < t->n_components; i++)
    if (strcmp(t->components[i].name, GPURF_RF_COLLECTOR) != 0)
      a += t->components[i].instances * t->components[i].area_m2;
  *area_m2 = a;
  return GPURF_OK;
}

int gpurf_metrics_sram_rf_area(gpurf_ctx *ctx, const gpurf_tech *tech, gpurf_device_kind device,
                               double temp_k, long long bytes, int banks, int width_bits,
                               double *area_m2) {
  if (!ctx || !tech || !area_m2) return GPURF_EINVAL;
  if (bytes <= 0 || banks <= 0 || width_bits <= 0 || (bytes * 8) % width_bits != 0)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "bytes",
                         "%lld bytes in %d banks of %d-bit words is not a register file", bytes,
                         banks, width_bits);
  gpurf_cell cell;
  int rc = gpurf_cell_load(ctx, "sram-6t", &cell);
  if (rc != GPURF_OK) return rc;
  gpurf_bank_spec s;
  gpurf_bank_spec_init(&s);
  s.tech = tech;
  s.device = device;
  s.temp_k = temp_k;
  s.cell = &cell;
  s.width_bits = width_bits;
  s.banks = banks;
  s.entries = bytes * 8 / width_bits;
  gpurf_bank_cost c;
  if ((rc = gpurf_bank_eval(ctx, &s, &c)) != GPURF_OK) return rc;
  *area_m2 = c.area_m2;
  return GPURF_OK;
}
