/* Umbrella header: everything a program linking gpurf needs. */
#ifndef GPURF_GPURF_H
#define GPURF_GPURF_H

#include "gpurf/export.h"
#include "gpurf/error.h"
#include "gpurf/context.h"
#include "gpurf/tech.h"
#include "gpurf/cell.h"
#include "gpurf/circuit.h"
#include "gpurf/bank.h"
#include "gpurf/component.h"
#include "gpurf/rf.h"
#include "gpurf/events.h"
#include "gpurf/metrics.h"
#include "gpurf/sweep.h"
#include "gpurf/validate.h"
#include "gpurf/trace.h"
#include "gpurf/emu.h"
#include "gpurf/dataflow.h"
#include "gpurf/release.h"
#include "gpurf/orf.h"
#include "gpurf/pipeline.h"
#include "gpurf/technique.h"
#include "gpurf/rfhier.h"
#include "gpurf/reproduce.h"

#endif
