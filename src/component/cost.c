/* The cost record every component fills (component.h), and the bank's
 * record expressed in it. */
#include <string.h>

#include "component/comp_internal.h"
#include "core/ctx_internal.h"

void comp_cost_event(gpurf_component_cost *c, const char *name, double energy_j, double time_s) {
  if (c->n_events >= GPURF_COMPONENT_MAX_EVENTS) return; /* sized for the largest component */
  gpurf_component_event *e = &c->events[c->n_events++];
  e->name = name;
  e->energy_j = energy_j;
  e->time_s = time_s;
}

void comp_cost_part(gpurf_component_cost *c, const char *name, double area_m2) {
  if (c->n_parts >= GPURF_COMPONENT_MAX_PARTS) return;
  c->part_name[c->n_parts] = name;
  c->area_part_m2[c->n_parts++] = area_m2;
}

const gpurf_component_event *gpurf_component_cost_event(const gpurf_component_cost *c,
                                                        const char *event) {
  if (!c || !event) return NULL;
  for (int i = 0; i < c->n_events && i < GPURF_COMPONENT_MAX_EVENTS; i++)
    if (c->events[i].name && strcmp(c->events[i].name, event) == 0) return &c->events[i];
  return NULL;
}

double gpurf_component_cost_part_m2(const gpurf_component_cost *c, const char *part) {
  if (!c || !part) return 0.0;
  for (int i = 0; i < c->n_parts && i < GPURF_COMPONENT_MAX_PARTS; i++)
    if (c->part_name[i] && strcmp(c->part_name[i], part) == 0) return c->area_part_m2[i];
  return 0.0;
}

int gpurf_bank_cost_common(const gpurf_bank_spec *spec, const gpurf_bank_cost *b,
                           gpurf_component_cost *out) {
  if (!spec || !spec->cell || !b || !out) return GPURF_EINVAL;
  memset(out, 0, sizeof *out);
  out->kind = gpurf_cell_kind_name(spec->cell->kind);
  out->area_m2 = b->area_m2;
  out->leakage_sub_w = b->leakage_sub_w;
  out->leakage_gate_w = b->leakage_gate_w;
  out->access_time_s = b->access_time_s;
  comp_cost_event(out, GPURF_EV_READ, b->read_energy_j, b->access_time_s);
  comp_cost_event(out, GPURF_EV_WRITE, b->write_energy_j, b->write_latency_s);
  for (int p = 0; p < GPURF_BANK_PART_COUNT; p++)
    comp_cost_part(out, gpurf_bank_part_name((gpurf_bank_part)p), b->area_part_m2[p]);
  if (b->gate_groups > 0) {
    out->subarrays = b->gate_groups;
    out->gated_leakage_fraction = b->gated_leakage_fraction;
    out->wake_energy_j = b->wake_energy_j;
    out->wake_latency_s = b->wake_latency_s;
  }
  return GPURF_OK;
}
