/* Time to clock cycles: the one rounding rule shared by the pipeline's
 * parameters, `gpurf rf` and `gpurf sweep`. */
#include <math.h>

#include "core/ctx_internal.h"
#include "gpurf/metrics.h"

/* A time computed as a sum of model delays lands a few ulps above or below
 * a whole number of cycles when it "is" one; a margin far above those ulps
 * and far below any real fraction of a cycle keeps such times whole. */
#define CYCLE_MARGIN 1e-9

int gpurf_metrics_cycles(gpurf_ctx *ctx, double time_s, double clock_hz, long long *cycles) {
  if (!cycles) return gpurf_fail(ctx, GPURF_EINVAL, "no place for the cycle count");
  if (!isfinite(time_s) || time_s < 0.0)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "time_s",
                         "a time must be 0 or more seconds, not %g", time_s);
  if (!isfinite(clock_hz) || !(clock_hz > 0.0))
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "clock_hz",
                         "a clock must be above 0 Hz, not %g", clock_hz);
  double c = ceil(time_s * clock_hz - CYCLE_MARGIN);
  /* 2^62: well inside long long, and far beyond any register-file timing. */
  if (!(c < 4.611686018427388e18))
    return gpurf_fail_at(ctx, GPURF_ERANGE, NULL, 0, 0, "time_s",
                         "%g s at %g Hz is too many cycles to count", time_s, clock_hz);
  *cycles = c > 0.0 ? (long long)c : 0;
  return GPURF_OK;
}
