/* Fixture for the layering check: a lower layer reaching up. */
#include "gpurf/rf.h"
#include "tech/tech_internal.h"
