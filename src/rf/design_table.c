/* From a design to its primitive table: every component is evaluated with
 * its model and reduced to per-event energies, leakage, area and timing. */
#include <stdio.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "gpurf/bank.h"
#include "gpurf/cell.h"
#include "gpurf/component.h"
#include "gpurf/rf.h"
#include "gpurf/tech.h"
#include "rf/rf_internal.h"
#include "tech/tech_internal.h"

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

/* A new component with the facts every model gives: name, kind, count,
 * leakage, area and access time; NULL (error set) when the table is full. */
static gpurf_rf_component *new_component(gpurf_ctx *ctx, gpurf_rf_table *t, const char *name,
                                         const char *kind, int instances, double leakage_w,
                                         double area_m2, double access_time_s) {
  gpurf_rf_component *c = add_component(ctx, t);
  if (!c) return NULL;
  snprintf(c->name, sizeof c->name, "%s", name);
  snprintf(c->kind, sizeof c->kind, "%s", kind);
  c->instances = instances;
  c->leakage_w = leakage_w;
  c->area_m2 = area_m2;
  c->access_time_s = access_time_s;
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
  spec.ports = g->ports;
  int rc = gpurf_cell_load(ctx, cell_for(g->cell, &spec.ports), &cell);
  if (rc != GPURF_OK) return rc;
  spec.opt = g->opt;
  spec.tech = tech;
  spec.cell = &cell;
  spec.device = d->device;
  spec.entries = g->entries;
  spec.width_bits = g->width_bits;
  spec.banks = 1; /* each bank of a register file has its own port */
  spec.temp_k = d->temp_k;
  spec.clock_hz = d->clock_hz;
  spec.split_write = g->split_write;
  spec.port_along_edge = g->port == GPURF_RF_PORT_EDGE;
  spec.gate_groups = g->gate_groups;
  gpurf_cost cost;
  rc = gpurf_bank_eval(ctx, &spec, &cost);
  if (rc != GPURF_OK) return rc;
  gpurf_rf_component *c =
      new_component(ctx, t, g->name, gpurf_cell_kind_name(cell.kind), g->count,
                    cost.leakage_sub_w + cost.leakage_gate_w, cost.area_m2, cost.access_time_s);
  if (!c) return GPURF_EINVAL;
  c->area_cells_m2 = cost.area_part_m2[GPURF_PART_CELLS];
  c->write_time_s = cost.write_latency_s;
  if (cost.gate_groups > 0) {
    c->subarrays = cost.gate_groups;
    c->gated_leakage_fraction = cost.gated_leakage_fraction;
    c->wake_energy_j = cost.wake_energy_j;
    c->wake_latency_s = cost.wake_latency_s;
  }
  add_event(c, "read", cost.read_energy_j);
  add_event(c, "write", cost.write_energy_j);
  return GPURF_OK;
}

static int crossbar(gpurf_ctx *ctx, const gpurf_rf_design *d, const gpurf_tech *tech,
                    gpurf_device_kind kind, gpurf_rf_table *t) {
  gpurf_xbar_spec spec;
  gpurf_xbar_spec_init(&spec);
  spec.tech = tech;
  spec.device = kind;
  spec.temp_k = d->temp_k;
  spec.inputs = d->crossbar.inputs;
  spec.outputs = d->crossbar.outputs;
  spec.width_bits = d->crossbar.width_bits;
  spec.style = d->crossbar.style;
  if (d->crossbar.activity > 0.0) spec.activity = d->crossbar.activity;
  spec.wire_layer = d->crossbar.wire;
  gpurf_xbar_cost cost;
  int rc = gpurf_xbar_eval(ctx, &spec, &cost);
  if (rc != GPURF_OK) return rc;
  gpurf_rf_component *c = new_component(ctx, t, "crossbar", "xbar", 1,
                                        cost.leakage_sub_w + cost.leakage_gate_w, cost.area_m2,
                                        cost.delay_s);
  if (!c) return GPURF_EINVAL;
  add_event(c, "transfer", cost.transfer_energy_j);
  return GPURF_OK;
}

static int arbiter(gpurf_ctx *ctx, const gpurf_rf_design *d, const gpurf_tech *tech,
                   gpurf_device_kind kind, gpurf_rf_table *t) {
  gpurf_arbiter_spec spec;
  gpurf_arbiter_spec_init(&spec);
  spec.tech = tech;
  spec.device = kind;
  spec.temp_k = d->temp_k;
  spec.banks = d->arbiter.banks;
  spec.requesters = d->arbiter.requesters;
  spec.classes = d->arbiter.classes;
  if (d->sm.threads_per_warp > 0) spec.rf_registers = (int)(d->sm.registers / d->sm.threads_per_warp);
  gpurf_arbiter_cost cost;
  int rc = gpurf_arbiter_eval(ctx, &spec, &cost);
  if (rc != GPURF_OK) return rc;
  gpurf_rf_component *c = new_component(ctx, t, "arbiter", "arbiter", 1,
                                        cost.leakage_sub_w + cost.leakage_gate_w, cost.area_m2,
                                        cost.read_path_s);
  if (!c) return GPURF_EINVAL;
  add_event(c, "decision", cost.decision_energy_j);
  return GPURF_OK;
}

/* The extra structures take the SM's sizes (warps, lanes, warp registers)
 * and keep the component models' defaults for what the design leaves out. */
static int extra(gpurf_ctx *ctx, const gpurf_rf_design *d, const gpurf_tech *tech,
                 gpurf_device_kind kind, const gpurf_sram_cells *cells, const gpurf_rf_extra *x,
                 gpurf_rf_table *t) {
  gpurf_rf_component *c = NULL;
  int rc;
  if (x->kind == GPURF_RF_EXTRA_RENAME_TABLE) {
    gpurf_rename_spec spec;
    gpurf_rename_spec_init(&spec);
    spec.tech = tech, spec.device = kind, spec.temp_k = d->temp_k, spec.cells = cells;
    spec.warps = d->sm.warps;
    spec.phys_regs = (int)(d->sm.registers / d->sm.threads_per_warp);
    if (x->arch_regs) spec.arch_regs = x->arch_regs;
    spec.budget_bytes = x->budget_bytes;
    gpurf_rename_cost k;
    if ((rc = gpurf_rename_eval(ctx, &spec, &k)) != GPURF_OK) return rc;
    c = new_component(ctx, t, x->name, gpurf_rf_extra_kind_name(x->kind), 1, k.leakage_w, k.area_m2, k.lookup_time_s);
    if (!c) return GPURF_EINVAL;
    add_event(c, "lookup", k.lookup_energy_j);
    add_event(c, "update", k.update_energy_j);
    add_event(c, "alloc", k.alloc_energy_j);
    add_event(c, "release", k.release_energy_j);
    add_event(c, "flag_read", k.flag_read_energy_j);
    add_event(c, "flag_fill", k.flag_fill_energy_j);
  } else if (x->kind == GPURF_RF_EXTRA_RFC_TAGS) {
    gpurf_cell flop;
    if ((rc = gpurf_cell_load(ctx, "dff", &flop)) != GPURF_OK) return rc;
    gpurf_rfc_tags_spec spec;
    gpurf_rfc_tags_spec_init(&spec);
    spec.tech = tech, spec.device = kind, spec.temp_k = d->temp_k, spec.cell = &flop;
    if (x->active_warps) spec.warps = x->active_warps;
    if (x->entries) spec.entries_per_thread = x->entries;
    if (x->arch_regs) spec.arch_regs = x->arch_regs;
    gpurf_rfc_tags_cost k;
    if ((rc = gpurf_rfc_tags_eval(ctx, &spec, &k)) != GPURF_OK) return rc;
    c = new_component(ctx, t, x->name, gpurf_rf_extra_kind_name(x->kind), 1, k.leakage_w, k.area_m2, k.check_time_s);
    if (!c) return GPURF_EINVAL;
    add_event(c, "check", k.check_energy_j);
    add_event(c, "update", k.update_energy_j);
  } else if (x->kind == GPURF_RF_EXTRA_WRITE_POOL) {
    gpurf_wpool_spec spec;
    gpurf_wpool_spec_init(&spec);
    spec.tech = tech, spec.device = kind, spec.temp_k = d->temp_k, spec.cells = cells;
    spec.warps = d->sm.warps;
    spec.lanes = d->sm.threads_per_warp;
    if (x->entries) spec.entries = x->entries;
    if (x->arch_regs) spec.arch_regs = x->arch_regs;
    gpurf_wpool_cost k;
    if ((rc = gpurf_wpool_eval(ctx, &spec, &k)) != GPURF_OK) return rc;
    c = new_component(ctx, t, x->name, gpurf_rf_extra_kind_name(x->kind), 1, k.leakage_w, k.area_m2, k.pool_access_time_s);
    if (!c) return GPURF_EINVAL;
    add_event(c, "cam_search", k.cam_search_energy_j);
    add_event(c, "cam_update", k.cam_update_energy_j);
    add_event(c, "read", k.pool_read_energy_j);
    add_event(c, "write", k.pool_write_energy_j);
  } else {
    gpurf_crf_spec spec;
    gpurf_crf_spec_init(&spec);
    spec.tech = tech, spec.device = kind, spec.temp_k = d->temp_k, spec.cells = cells;
    spec.warps = d->sm.warps;
    spec.lanes = d->sm.threads_per_warp;
    if (x->arch_regs) spec.arch_regs = x->arch_regs;
    spec.vrf_regs = x->vrf_regs;
    gpurf_crf_cost k;
    if ((rc = gpurf_crf_eval(ctx, &spec, &k)) != GPURF_OK) return rc;
    c = new_component(ctx, t, x->name, gpurf_rf_extra_kind_name(x->kind), 1, k.leakage_w, k.area_m2, k.read_path_s);
    if (!c) return GPURF_EINVAL;
    /* Without a VRF size the register file is uncompressed: only the
     * vector array exists and it is read and written directly. */
    if (x->vrf_regs > 0) {
      add_event(c, "srf_read", k.srf_read_energy_j);
      add_event(c, "srf_write", k.srf_write_energy_j);
      add_event(c, "vrf_read", k.vrf_read_energy_j);
      add_event(c, "vrf_write", k.vrf_write_energy_j);
      add_event(c, "stack_push", k.stack_push_energy_j);
      add_event(c, "stack_pop", k.stack_pop_energy_j);
    } else {
      add_event(c, "read", k.vrf_read_energy_j);
      add_event(c, "write", k.vrf_write_energy_j);
    }
  }
  return GPURF_OK;
}

int gpurf_rf_design_table(gpurf_ctx *ctx, const gpurf_rf_design *d, gpurf_rf_table *out) {
  if (!ctx || !d || !out) return GPURF_EINVAL;
  int rc = rf_design_check(ctx, d);
  if (rc != GPURF_OK) return rc;
  gpurf_tech tech;
  rc = gpurf_tech_load(ctx, d->tech, &tech);
  if (rc != GPURF_OK) return rc;
  gpurf_rf_table t;
  memset(&t, 0, sizeof t);
  snprintf(t.design, sizeof t.design, "%s", d->design);
  t.clock_hz = d->clock_hz;
  for (size_t i = 0; i < d->n_bank_groups; i++) {
    rc = bank_group(ctx, d, &tech, &d->bank_groups[i], &t);
    if (rc != GPURF_OK) return rc;
  }
  gpurf_device_kind kind = d->device;
  if (d->has_crossbar && (rc = crossbar(ctx, d, &tech, kind, &t)) != GPURF_OK) return rc;
  if (d->has_arbiter && (rc = arbiter(ctx, d, &tech, kind, &t)) != GPURF_OK) return rc;
  if (d->n_extras > 0) {
    gpurf_sram_cells cells;
    if ((rc = gpurf_sram_cells_load(ctx, &cells)) != GPURF_OK) return rc;
    for (size_t i = 0; i < d->n_extras; i++)
      if ((rc = extra(ctx, d, &tech, kind, &cells, &d->extras[i], &t)) != GPURF_OK) return rc;
  }
  *out = t;
  return GPURF_OK;
}
