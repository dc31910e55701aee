/* Figures of merit of runs: IPC, IPC per area, instructions per joule,
 * energy-delay product; and the two ways runs are set against each other or
 * against a reference: geometric mean and relative error. */
#include <math.h>
#include <stdio.h>

#include "core/ctx_internal.h"
#include "gpurf/metrics.h"

int gpurf_metrics_ipc(gpurf_ctx *ctx, uint64_t instructions, uint64_t cycles, double *ipc) {
  if (!ipc) return gpurf_fail(ctx, GPURF_EINVAL, "no place for the IPC");
  if (cycles == 0)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "cycles", "IPC of a run of 0 cycles");
  *ipc = (double)instructions / (double)cycles;
  return GPURF_OK;
}

int gpurf_metrics_ipc_per_mm2(gpurf_ctx *ctx, double ipc, double area_m2, double *ipc_per_mm2) {
  if (!ipc_per_mm2) return gpurf_fail(ctx, GPURF_EINVAL, "no place for IPC/mm^2");
  if (!isfinite(ipc) || ipc < 0.0)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "ipc", "an IPC of %g", ipc);
  if (!isfinite(area_m2) || !(area_m2 > 0.0))
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "area_m2",
                         "IPC per area needs an area above 0, not %g m^2", area_m2);
  *ipc_per_mm2 = ipc / (area_m2 * 1e6);
  return GPURF_OK;
}

int gpurf_metrics_instructions_per_j(gpurf_ctx *ctx, uint64_t instructions, double energy_j,
                                     double *per_j) {
  if (!per_j) return gpurf_fail(ctx, GPURF_EINVAL, "no place for instructions per joule");
  if (!isfinite(energy_j) || !(energy_j > 0.0))
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "energy_j",
                         "instructions per joule need an energy above 0, not %g J", energy_j);
  *per_j = (double)instructions / energy_j;
  return GPURF_OK;
}

int gpurf_metrics_edp(gpurf_ctx *ctx, double energy_j, double time_s, double *edp_j_s) {
  if (!edp_j_s) return gpurf_fail(ctx, GPURF_EINVAL, "no place for the energy-delay product");
  if (!isfinite(energy_j) || energy_j < 0.0)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "energy_j", "an energy of %g J",
                         energy_j);
  if (!isfinite(time_s) || time_s < 0.0)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "time_s", "a time of %g s", time_s);
  *edp_j_s = energy_j * time_s;
  return GPURF_OK;
}

int gpurf_metrics_geomean(gpurf_ctx *ctx, const double *v, size_t n, double *mean) {
  if (!mean || (n > 0 && !v)) return gpurf_fail(ctx, GPURF_EINVAL, "no values or no result");
  if (n == 0) return gpurf_fail(ctx, GPURF_EINVAL, "geometric mean of no values");
  double sum = 0.0;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(v[i]) || v[i] < 0.0) {
      char field[32];
      snprintf(field, sizeof field, "values[%zu]", i);
      return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, field,
                           "a geometric mean needs finite values of 0 or more, not %g", v[i]);
    }
    /* log(0) is -inf, and exp(-inf) 0: the limit the mean tends to. */
    sum += log(v[i]);
  }
  *mean = exp(sum / (double)n);
  return GPURF_OK;
}

int gpurf_metrics_rel_error(gpurf_ctx *ctx, double value, double reference, double *rel_error) {
  if (!rel_error) return gpurf_fail(ctx, GPURF_EINVAL, "no place for the error");
  if (!isfinite(reference) || reference == 0.0)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "reference",
                         "a relative error needs a finite, non-zero reference, not %g", reference);
  if (!isfinite(value))
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "value", "a value of %g", value);
  *rel_error = (value - reference) / fabs(reference);
  return GPURF_OK;
}
