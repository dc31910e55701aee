/* Fixture for the layering check: includes of its own and lower layers. */
#include <math.h>

#include "circuit/constants.h"
#include "gpurf/tech.h"
