/* Read-only accessors of an energy report. Programs outside the library see
 * the report only through these, so its layout (events_internal.h) can grow
 * without breaking them. */

#include "events/events_internal.h"

#define REPORT_GET(type, field, none)                                \
  type gpurf_energy_report_##field(const gpurf_energy_report *r) {   \
    return r ? r->field : none;                                      \
  }

REPORT_GET(const char *, design, "")
REPORT_GET(double, clock_hz, 0.0)
REPORT_GET(uint64_t, cycles, 0)
REPORT_GET(double, seconds, 0.0)
REPORT_GET(uint64_t, instructions, 0)
REPORT_GET(double, dynamic_energy_j, 0.0)
REPORT_GET(double, wake_energy_j, 0.0)
REPORT_GET(double, leakage_energy_j, 0.0)
REPORT_GET(double, total_energy_j, 0.0)
REPORT_GET(double, average_power_w, 0.0)
REPORT_GET(double, dynamic_power_w, 0.0)
REPORT_GET(double, leakage_power_w, 0.0)
REPORT_GET(double, edp_j_s, 0.0)
REPORT_GET(double, ipc, 0.0)
REPORT_GET(double, energy_per_instruction_j, 0.0)
REPORT_GET(double, instructions_per_j, 0.0)

int gpurf_energy_report_components(const gpurf_energy_report *r) {
  return r ? r->n_components : 0;
}

static const ev_component_report *component(const gpurf_energy_report *r, int c) {
  return r && c >= 0 && c < r->n_components ? &r->components[c] : NULL;
}

#define COMPONENT_GET(type, field, none)                                              \
  type gpurf_energy_report_component_##field(const gpurf_energy_report *r, int c) {  \
    const ev_component_report *k = component(r, c);                                   \
    return k ? k->field : none;                                                       \
  }

COMPONENT_GET(const char *, name, "")
COMPONENT_GET(const char *, kind, "")
COMPONENT_GET(int, instances, 0)
COMPONENT_GET(int, subarrays, 0)
COMPONENT_GET(uint64_t, gated_subarray_cycles, 0)
COMPONENT_GET(uint64_t, wakeups, 0)
COMPONENT_GET(double, wake_energy_j, 0.0)
COMPONENT_GET(double, wake_time_s, 0.0)
COMPONENT_GET(double, leakage_saved_j, 0.0)
COMPONENT_GET(double, dynamic_energy_j, 0.0)
COMPONENT_GET(double, leakage_energy_j, 0.0)
COMPONENT_GET(double, total_energy_j, 0.0)

int gpurf_energy_report_events(const gpurf_energy_report *r, int c) {
  const ev_component_report *k = component(r, c);
  return k ? k->n_events : 0;
}

static int has_event(const ev_component_report *k, int v) {
  return k && v >= 0 && v < k->n_events;
}

const char *gpurf_energy_report_event_name(const gpurf_energy_report *r, int c, int v) {
  const ev_component_report *k = component(r, c);
  return has_event(k, v) ? k->event_name[v] : "";
}

uint64_t gpurf_energy_report_event_count(const gpurf_energy_report *r, int c, int v) {
  const ev_component_report *k = component(r, c);
  return has_event(k, v) ? k->event_count[v] : 0;
}

double gpurf_energy_report_event_energy_j(const gpurf_energy_report *r, int c, int v) {
  const ev_component_report *k = component(r, c);
  return has_event(k, v) ? k->event_energy_j[v] : 0.0;
}
