/* Nodes between the shipped files: each parameter is interpolated over the
 * feature size with GSL's monotone Steffen spline, so an interpolated value
 * never overshoots its neighbours. */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_interp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tech/tech_internal.h"

#define INTERP_MAX_POINTS 64

int gpurf_tech_interp1(const double *x, const double *y, size_t n, double at,
                       int log_scale, double *out) {
  if (n == 0 || n > INTERP_MAX_POINTS) return GPURF_EINVAL;
  if (at < x[0] || at > x[n - 1]) return GPURF_EUNSUPPORTED;
  double ys[INTERP_MAX_POINTS];
  int use_log = log_scale;
  for (size_t i = 0; i < n; i++)
    if (!(y[i] > 0.0)) use_log = 0; /* a zero (no gate leakage) cannot go to log space */
  for (size_t i = 0; i < n; i++) ys[i] = use_log ? log(y[i]) : y[i];
  if (n == 1) {
    *out = y[0];
    return GPURF_OK;
  }
  /* Exact hits return the stored value bit for bit. */
  for (size_t i = 0; i < n; i++) {
    if (at == x[i]) {
      *out = y[i];
      return GPURF_OK;
    }
  }
  /* GSL's error handler is process-wide and aborts by default. Rather than
   * touch that global, every precondition GSL would report through it
   * (strictly increasing x, enough points) is checked here first. */
  for (size_t i = 1; i < n; i++)
    if (!(x[i] > x[i - 1])) return GPURF_EINVAL;
  const gsl_interp_type *type = n >= 3 ? gsl_interp_steffen : gsl_interp_linear;
  gsl_interp *interp = gsl_interp_alloc(type, n);
  if (!interp) return GPURF_ENOMEM;
  int st = gsl_interp_init(interp, x, ys, n);
  double v = 0.0;
  if (st == GSL_SUCCESS) st = gsl_interp_eval_e(interp, x, ys, at, NULL, &v);
  gsl_interp_free(interp);
  if (st != GSL_SUCCESS) return GPURF_EINVAL;
  *out = use_log ? exp(v) : v;
  return GPURF_OK;
}

static int interp_leakage(gpurf_ctx *ctx, const gpurf_tech *nodes, size_t n,
                          int k, const double *x, double at, gpurf_device *dev) {
  const gpurf_device *first = &nodes[0].device[k];
  for (size_t i = 1; i < n; i++) {
    const gpurf_device *d = &nodes[i].device[k];
    int same = d->n_leakage == first->n_leakage;
    for (size_t r = 0; same && r < d->n_leakage; r++)
      same = d->leakage[r].temp_k == first->leakage[r].temp_k;
    if (!same)
      return gpurf_fail_at(ctx, GPURF_EUNSUPPORTED, nodes[i].path, 0, 0, "leakage",
                           "cannot interpolate: %s's leakage table has other temperatures "
                           "than %s's",
                           nodes[i].name, nodes[0].name);
  }
  dev->n_leakage = first->n_leakage;
  for (size_t r = 0; r < first->n_leakage; r++) {
    double yn[INTERP_MAX_POINTS], yp[INTERP_MAX_POINTS], yg[INTERP_MAX_POINTS];
    for (size_t i = 0; i < n; i++) {
      yn[i] = nodes[i].device[k].leakage[r].i_off_n_a_per_m;
      yp[i] = nodes[i].device[k].leakage[r].i_off_p_a_per_m;
      yg[i] = nodes[i].device[k].leakage[r].i_gate_a_per_m;
    }
    gpurf_leakage_point *p = &dev->leakage[r];
    p->temp_k = first->leakage[r].temp_k;
    int rc = gpurf_tech_interp1(x, yn, n, at, 1, &p->i_off_n_a_per_m);
    if (rc == GPURF_OK) rc = gpurf_tech_interp1(x, yp, n, at, 1, &p->i_off_p_a_per_m);
    if (rc == GPURF_OK) rc = gpurf_tech_interp1(x, yg, n, at, 1, &p->i_gate_a_per_m);
    if (rc != GPURF_OK) return gpurf_fail(ctx, rc, "leakage interpolation failed");
  }
  return GPURF_OK;
}

int gpurf_tech_interpolate(gpurf_ctx *ctx, const gpurf_tech *nodes, size_t n,
                           double at, gpurf_tech *out) {
  if (n < 2 || n > INTERP_MAX_POINTS)
    return gpurf_fail(ctx, GPURF_EINVAL, "interpolation needs 2 to %d nodes",
                      INTERP_MAX_POINTS);
  double x[INTERP_MAX_POINTS];
  for (size_t i = 0; i < n; i++) {
    x[i] = nodes[i].feature_size_m;
    if (i > 0 && !(x[i] > x[i - 1]))
      return gpurf_fail_at(ctx, GPURF_EINVAL, nodes[i].path, 0, 0, "feature_size_m",
                           "two node files give the same feature size %g m", x[i]);
  }
  if (at < x[0] || at > x[n - 1])
    return gpurf_fail(ctx, GPURF_EUNSUPPORTED, "%g nm lies outside %g-%g nm", at * 1e9,
                      x[0] * 1e9, x[n - 1] * 1e9);
  gpurf_tech t;
  memset(&t, 0, sizeof t);
  size_t np;
  const tech_interp_param *params = tech_interp_params(&np);
  for (size_t p = 0; p < np; p++) {
    double y[INTERP_MAX_POINTS];
    for (size_t i = 0; i < n; i++)
      y[i] = *(const double *)((const char *)&nodes[i] + params[p].offset);
    double v;
    int rc = gpurf_tech_interp1(x, y, n, at, params[p].log_scale, &v);
    if (rc != GPURF_OK)
      return gpurf_fail(ctx, rc, "interpolation of %s failed", params[p].name);
    *(double *)((char *)&t + params[p].offset) = v;
  }
  for (int k = 0; k < GPURF_DEVICE_COUNT; k++) {
    int rc = interp_leakage(ctx, nodes, n, k, x, at, &t.device[k]);
    if (rc != GPURF_OK) return rc;
  }
  size_t hi = 1;
  while (hi < n - 1 && x[hi] < at) hi++;
  const gpurf_tech *a = &nodes[hi - 1], *b = &nodes[hi];
  t.feature_size_m = at;
  t.interpolated = 1;
  snprintf(t.interpolated_from[0], sizeof t.interpolated_from[0], "%s", a->name);
  snprintf(t.interpolated_from[1], sizeof t.interpolated_from[1], "%s", b->name);
  char src[GPURF_TECH_SOURCE_MAX];
  snprintf(src, sizeof src,
           "interpolated over feature size (monotone Steffen spline across %zu node "
           "files; log scale for currents and wire resistance) between %s and %s",
           n, a->name, b->name);
  for (int k = 0; k < GPURF_DEVICE_COUNT; k++)
    gpurf_strlcpy(t.device[k].source, src, sizeof t.device[k].source);
  gpurf_strlcpy(t.wires.source, src, sizeof t.wires.source);
  gpurf_strlcpy(t.layout.source, src, sizeof t.layout.source);
  gpurf_strlcpy(t.sense_amp.source, src, sizeof t.sense_amp.source);
  *out = t;
  return GPURF_OK;
}
