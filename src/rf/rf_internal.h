/* Private to the rf module. */
#ifndef GPURF_RF_INTERNAL_H
#define GPURF_RF_INTERNAL_H

#include "gpurf/rf.h"

/* Checks a design the caller may have filled in by hand: every enumeration
 * in its range, port mixes with ports, counts and sizes in the ranges the
 * loader allows. GPURF_EINVAL with the key in the error's field. */
int rf_design_check(gpurf_ctx *ctx, const gpurf_rf_design *d);

#endif
