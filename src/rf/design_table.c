/* From a design to its primitive table: every component is evaluated with
 * its model and reduced to per-event energies, leakage, area and timing. */
#include <stdio.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "gpurf/bank.h"
#include "gpurf/cell.h"
#include "gpurf/rf.h"
#include "gpurf/tech.h"

/* The next free component of the table, or NULL (error set) when full. */
static gpurf_rf_component *add_component(gpurf_ctx *ctx, gpurf_rf_table *t) {
  if (t->n_components >= GPURF_RF_MAX_COMPONENTS) {
    gpurf_fail(ctx, GPURF_EINVAL, "design has more than %d components", GPURF_RF_MAX_COMPONENTS);
    return NULL;
  }
  gpurf_rf_component *c = &t->components[t->n_components++];
  memset(c, 0, sizeof *c);
  return c;
}

static void add_event(gpurf_rf_component *c, const char *name, double energy_j) {
  if (c->n_events >= GPURF_RF_MAX_EVENTS) return;
  gpurf_rf_event *e = &c->events[c->n_events++];
  snprintf(e->name, sizeof e->name, "%s", name);
  e->energy_j = energy_j;
}

/* "sram" picks the shipped SRAM cell for the port mix, as gpurf bank does. */
static const char *cell_for(const char *cell, const gpurf_ports *p) {
  if (strcmp(cell, "sram") != 0) return cell;
  if (p->rw == 1 && p->read == 0 && p->write == 0) return "sram-6t";
  if (p->rw == 0 && p->read == 1 && p->write == 1) return "sram-8t-1r1w";
  return "sram-multiport";
}

static int bank_group(gpurf_ctx *ctx, const gpurf_rf_design *d, const gpurf_tech *tech,
                      const gpurf_rf_bank_group *g, gpurf_rf_table *t) {
  gpurf_bank_spec spec;
  gpurf_bank_spec_init(&spec);
  gpurf_cell cell;
  if (gpurf_ports_parse(g->ports, &spec.ports) != GPURF_OK)
    return gpurf_fail_at(ctx, GPURF_ESCHEMA, d->path, 0, 0, "banks.ports", "bad ports '%s'",
                         g->ports);
  int rc = gpurf_cell_load(ctx, cell_for(g->cell, &spec.ports), &cell);
  if (rc != GPURF_OK) return rc;
  gpurf_device_kind kind;
  gpurf_device_kind_parse(d->device, &kind);
  gpurf_opt_parse(g->opt, &spec.opt);
  spec.tech = tech;
  spec.cell = &cell;
  spec.device = kind;
  spec.entries = g->entries;
  spec.width_bits = g->width_bits;
  spec.banks = 1; /* each bank of a register file has its own port */
  spec.temp_k = d->temp_k;
  spec.clock_hz = d->clock_hz;
  spec.split_write = g->split_write;
  gpurf_cost cost;
  rc = gpurf_bank_eval(ctx, &spec, &cost);
  if (rc != GPURF_OK) return rc;
  gpurf_rf_component *c = add_component(ctx, t);
  if (!c) return GPURF_EINVAL;
  snprintf(c->name, sizeof c->name, "%s", g->name);
  snprintf(c->kind, sizeof c->kind, "%s", gpurf_cell_kind_name(cell.kind));
  c->instances = g->count;
  c->leakage_w = cost.leakage_sub_w + cost.leakage_gate_w;
  c->area_m2 = cost.area_m2;
  c->area_cells_m2 = cost.area_part_m2[GPURF_PART_CELLS];
  c->access_time_s = cost.access_time_s;
  c->write_time_s = cost.write_latency_s;
  add_event(c, "read", cost.read_energy_j);
  add_event(c, "write", cost.write_energy_j);
  return GPURF_OK;
}

int gpurf_rf_design_table(gpurf_ctx *ctx, const gpurf_rf_design *d, gpurf_rf_table *out) {
  if (!ctx || !d || !out) return GPURF_EINVAL;
  gpurf_tech tech;
  int rc = gpurf_tech_load(ctx, d->tech, &tech);
  if (rc != GPURF_OK) return rc;
  gpurf_rf_table t;
  memset(&t, 0, sizeof t);
  snprintf(t.design, sizeof t.design, "%s", d->design);
  t.clock_hz = d->clock_hz;
  for (size_t i = 0; i < d->n_bank_groups; i++) {
    rc = bank_group(ctx, d, &tech, &d->bank_groups[i], &t);
    if (rc != GPURF_OK) return rc;
  }
  *out = t;
  return GPURF_OK;
}
