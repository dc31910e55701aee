/* Energy of the counted events: dynamic = counts x per-event energy plus
 * wake-ups; leakage = every instance leaking for the elapsed time, less
 * what gated sub-arrays did not leak. Sums run in table order so that the
 * same counts always give the same bits. */
#include <stdlib.h>
#include <string.h>

#include "events/events_internal.h"

static int component_report(gpurf_ctx *ctx, const gpurf_energy *e, int c, double seconds,
                            ev_component_report *r) {
  const gpurf_rf_component *k = &e->table.components[c];
  memset(r, 0, sizeof *r);
  memcpy(r->name, k->name, sizeof r->name);
  memcpy(r->kind, k->kind, sizeof r->kind);
  r->instances = k->instances;
  r->subarrays = k->subarrays;
  r->n_events = k->n_events;
  double dynamic = 0.0;
  for (int v = 0; v < k->n_events; v++) {
    const ev_slot s = e->slot[e->first_id[c] + (uint32_t)v];
    uint64_t n = 0;
    for (uint32_t i = 0; i < s.instances; i++) n += e->counts[s.base + i];
    memcpy(r->event_name[v], k->events[v].name, sizeof r->event_name[v]);
    r->event_count[v] = n;
    r->event_energy_j[v] = (double)n * k->events[v].energy_j;
    dynamic += r->event_energy_j[v];
  }
  size_t n_sub = (size_t)k->instances * (size_t)k->subarrays;
  for (size_t j = 0; j < n_sub; j++) {
    size_t i = e->sub_base[c] + j;
    uint64_t g = ev_gated_cycles(e, i);
    if (g > e->cycles)
      return gpurf_fail(ctx, GPURF_ERANGE,
                        "sub-array %zu of %s instance %zu was gated for %llu cycles, more than "
                        "the %llu that elapsed",
                        j % (size_t)k->subarrays, k->name, j / (size_t)k->subarrays,
                        (unsigned long long)g, (unsigned long long)e->cycles);
    r->gated_subarray_cycles += g;
    r->wakeups += e->wakeups[i];
  }
  r->wake_energy_j = (double)r->wakeups * k->wake_energy_j;
  r->wake_time_s = (double)r->wakeups * k->wake_latency_s;
  if (k->subarrays > 0) {
    double share_w = k->leakage_w / k->subarrays;
    r->leakage_saved_j = (1.0 - k->gated_leakage_fraction) * share_w *
                         ((double)r->gated_subarray_cycles / e->table.clock_hz);
  }
  r->dynamic_energy_j = dynamic + r->wake_energy_j;
  r->leakage_energy_j = k->leakage_w * k->instances * seconds - r->leakage_saved_j;
  r->total_energy_j = r->dynamic_energy_j + r->leakage_energy_j;
  return GPURF_OK;
}

int gpurf_energy_report_alloc(gpurf_ctx *ctx, gpurf_energy_report **out) {
  if (!ctx || !out) return GPURF_EINVAL;
  *out = calloc(1, sizeof **out);
  if (!*out) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  return GPURF_OK;
}

void gpurf_energy_report_free(gpurf_energy_report *report) { free(report); }

int gpurf_energy_report_get(gpurf_ctx *ctx, const gpurf_energy *e,
                            const gpurf_energy_report_in *in, gpurf_energy_report *out) {
  if (!e || !out) return gpurf_fail(ctx, GPURF_EINVAL, "no engine or no place for the report");
  /* Filled in place: the report is large, and a caller may run on a small
   * stack. A failure leaves it empty rather than half written. */
  gpurf_energy_report *r = out;
  memset(r, 0, sizeof *r);
  memcpy(r->design, e->table.design, sizeof r->design);
  r->clock_hz = e->table.clock_hz;
  r->cycles = e->cycles;
  r->seconds = (double)e->cycles / e->table.clock_hz;
  r->instructions = in ? in->instructions : 0;
  r->n_components = e->table.n_components;
  for (int c = 0; c < r->n_components; c++) {
    ev_component_report *cr = &r->components[c];
    int rc = component_report(ctx, e, c, r->seconds, cr);
    if (rc != GPURF_OK) {
      memset(r, 0, sizeof *r);
      return rc;
    }
    r->dynamic_energy_j += cr->dynamic_energy_j;
    r->wake_energy_j += cr->wake_energy_j;
    r->leakage_energy_j += cr->leakage_energy_j;
  }
  r->total_energy_j = r->dynamic_energy_j + r->leakage_energy_j;
  if (r->seconds > 0.0) {
    r->average_power_w = r->total_energy_j / r->seconds;
    r->dynamic_power_w = r->dynamic_energy_j / r->seconds;
    r->leakage_power_w = r->leakage_energy_j / r->seconds;
  }
  r->edp_j_s = r->total_energy_j * r->seconds;
  if (r->instructions > 0) {
    if (r->cycles > 0) r->ipc = (double)r->instructions / (double)r->cycles;
    r->energy_per_instruction_j = r->total_energy_j / (double)r->instructions;
    if (r->total_energy_j > 0.0)
      r->instructions_per_j = (double)r->instructions / r->total_energy_j;
  }
  return GPURF_OK;
}
