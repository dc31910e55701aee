#include "gpurf/context.h"

#ifndef GPURF_VERSION_STRING
#error "GPURF_VERSION_STRING must come from the build system"
#endif

const char *gpurf_version(void) { return GPURF_VERSION_STRING; }
