/* Private pieces shared by the tech module's files. */
#ifndef GPURF_TECH_INTERNAL_H
#define GPURF_TECH_INTERNAL_H

#include "gpurf/tech.h"
#include "yaml/yaml_schema.h"

/* Field table for a whole node file. */
extern const ys_field gpurf_tech_schema[];

/* Checks that need several fields at once (vth < vdd, increasing table). */
int gpurf_tech_check(ys_doc *doc, const gpurf_tech *tech);

/* One scalar parameter of a node, for interpolation across nodes. */
typedef struct gpurf_tech_param {
  const char *name;
  size_t offset; /* from the start of gpurf_tech */
  int log_scale; /* interpolate log(value): quantities that scale exponentially */
} gpurf_tech_param;

/* Every interpolable parameter except the leakage tables; *count set. */
const gpurf_tech_param *gpurf_tech_params(size_t *count);

/* Builds a node at feature_size_m from nodes sorted by feature size. */
int gpurf_tech_interpolate(gpurf_ctx *ctx, const gpurf_tech *nodes, size_t n,
                           double feature_size_m, gpurf_tech *out);

/* Parses "22", "22nm", "22.5 nm" into metres; returns 0 when it is not a size. */
int gpurf_tech_parse_node_name(const char *name, double *feature_size_m);

/* 1-D monotone interpolation used across nodes and temperatures: Steffen with
 * three or more points, linear with two; in log space when log_scale. */
int gpurf_tech_interp1(const double *x, const double *y, size_t n, double at,
                       int log_scale, double *out);

#endif
