/* Register-file designs and their primitive tables. A design (a YAML file in models/)
 * composes banks, a crossbar, an arbiter, collectors and the extra structures
 * of a technique; its primitive table says what each component costs per
 * event, in leakage and in area. The event engine (events.h) and simulators
 * work from the table alone. All SI. */
#ifndef GPURF_RF_H
#define GPURF_RF_H

#include <stddef.h>

#include "gpurf/context.h"
#include "gpurf/export.h"

GPURF_BEGIN_DECLS

#define GPURF_RF_NAME_MAX 48
#define GPURF_RF_MAX_EVENTS 16
#define GPURF_RF_MAX_COMPONENTS 32

/* One kind of event of a component and the dynamic energy it costs. */
typedef struct gpurf_rf_event {
  char name[GPURF_RF_NAME_MAX]; /* e.g. "read", "write", "transfer", "lookup" */
  double energy_j;              /* per event of one instance */
} gpurf_rf_event;

/* A component of a design: `instances` identical copies (16 banks, 1
 * crossbar, 8 collectors ...), each with the same events and costs. */
typedef struct gpurf_rf_component {
  char name[GPURF_RF_NAME_MAX]; /* e.g. "bank", "crossbar", "arbiter", "write_pool" */
  char kind[GPURF_RF_NAME_MAX]; /* the model behind it: "sram", "stt", "dff", "xbar", ... */
  int instances;
  double leakage_w;             /* per instance, all sub-arrays powered */
  double area_m2;               /* per instance */
  double access_time_s;         /* per event on the critical path; 0 if none */
  /* Sub-array power gating (Jeon et al.): a gated sub-array leaks
   * gated_leakage_fraction of its share; waking one costs wake_energy_j and
   * wake_latency_s. subarrays = 0: the component cannot be gated. */
  int subarrays;                /* per instance */
  double gated_leakage_fraction;
  double wake_energy_j;
  double wake_latency_s;
  int n_events;
  gpurf_rf_event events[GPURF_RF_MAX_EVENTS];
} gpurf_rf_component;

/* The primitive table of a design. */
typedef struct gpurf_rf_table {
  char design[GPURF_RF_NAME_MAX];
  double clock_hz;              /* the design's clock: cycles -> seconds */
  int n_components;
  gpurf_rf_component components[GPURF_RF_MAX_COMPONENTS];
} gpurf_rf_table;

/* Index of a component by name, or -1. */
GPURF_API int gpurf_rf_table_find(const gpurf_rf_table *table, const char *component);
/* Index of an event of component c by name, or -1. */
GPURF_API int gpurf_rf_table_find_event(const gpurf_rf_table *table, int c, const char *event);

GPURF_END_DECLS

#endif
