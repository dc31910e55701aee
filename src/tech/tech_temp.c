/* Leakage at a temperature: subthreshold current grows exponentially with
 * temperature, so the table is interpolated in log space. */
#include <string.h>

#include "tech/tech_internal.h"

int gpurf_tech_leakage_at(gpurf_ctx *ctx, const gpurf_tech *tech,
                          gpurf_device_kind kind, double temp_k, gpurf_leakage *out) {
  if (!ctx || !tech || !out) return GPURF_EINVAL;
  if ((unsigned)kind >= GPURF_DEVICE_COUNT)
    return gpurf_fail(ctx, GPURF_EINVAL, "unknown device flavour %d", (int)kind);
  const gpurf_device *d = &tech->device[kind];
  size_t n = d->n_leakage;
  if (n == 0) return gpurf_fail(ctx, GPURF_EINVAL, "device has no leakage table");
  double lo = d->leakage[0].temp_k, hi = d->leakage[n - 1].temp_k;
  if (!(temp_k >= lo && temp_k <= hi))
    return gpurf_fail(ctx, GPURF_EUNSUPPORTED,
                      "temperature %g K is outside the %s leakage table of %s (%g-%g K)",
                      temp_k, gpurf_device_kind_name(kind), tech->name, lo, hi);
  double t[GPURF_TECH_MAX_TEMPS], in[GPURF_TECH_MAX_TEMPS], ip[GPURF_TECH_MAX_TEMPS],
      ig[GPURF_TECH_MAX_TEMPS];
  for (size_t i = 0; i < n; i++) {
    t[i] = d->leakage[i].temp_k;
    in[i] = d->leakage[i].i_off_n_a_per_m;
    ip[i] = d->leakage[i].i_off_p_a_per_m;
    ig[i] = d->leakage[i].i_gate_a_per_m;
  }
  gpurf_leakage r;
  memset(&r, 0, sizeof r);
  r.temp_k = temp_k;
  int rc = gpurf_tech_interp1(t, in, n, temp_k, 1, &r.i_off_n_a_per_m);
  if (rc == GPURF_OK) rc = gpurf_tech_interp1(t, ip, n, temp_k, 1, &r.i_off_p_a_per_m);
  if (rc == GPURF_OK) rc = gpurf_tech_interp1(t, ig, n, temp_k, 1, &r.i_gate_a_per_m);
  if (rc != GPURF_OK) return gpurf_fail(ctx, rc, "leakage interpolation failed");
  *out = r;
  return GPURF_OK;
}
