/* From a design to its primitive table. Every component model fills the
 * same record (gpurf_component_cost); this file only says how a design's
 * sections become the models' specs, then copies each record into the table
 * in one way. The order of the table is the order of `kinds` below. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "gpurf/bank.h"
#include "gpurf/cell.h"
#include "gpurf/component.h"
#include "gpurf/rf.h"
#include "gpurf/tech.h"
#include "rf/rf_internal.h"

/* An operand collector holds the source operands of one warp instruction
 * until all have arrived: three registers (the most a Fermi arithmetic
 * instruction reads, FFMA's a, b and c; the pipeline's collector_slots
 * default), each one crossbar word wide. Its storage is laid out as one
 * slice per lane beside the lane's datapath (a flip-flop array of three
 * lane words), so no wire crosses the warp's width. */
#define COLLECTOR_SLOTS 3

/* What every component's spec is built from. */
typedef struct rf_env {
  gpurf_ctx *ctx;
  const gpurf_rf_design *d;
  const gpurf_tech *tech;
  const gpurf_sram_cells *cells; /* loaded when the design has extras */
} rf_env;

/* One component of the table: its name, instances and costs. */
typedef struct rf_item {
  const char *name;
  int instances;
  gpurf_component_cost cost;
} rf_item;

typedef int (*rf_cost_fn)(const rf_env *env, size_t index, rf_item *out);

/* "sram" picks the shipped SRAM cell for the port mix, as gpurf bank does. */
static const char *cell_for(const char *cell, const gpurf_ports *p) {
  if (strcmp(cell, "sram") != 0) return cell;
  if (p->rw == 1 && p->read == 0 && p->write == 0) return "sram-6t";
  if (p->rw == 0 && p->read == 1 && p->write == 1) return "sram-8t-1r1w";
  return "sram-multiport";
}

/* A bank of the design's tech, device, temperature and clock. */
static void bank_spec(const rf_env *env, gpurf_bank_spec *spec) {
  gpurf_bank_spec_init(spec);
  spec->tech = env->tech;
  spec->device = env->d->device;
  spec->temp_k = env->d->temp_k;
  spec->clock_hz = env->d->clock_hz;
  spec->banks = 1; /* each bank of a register file has its own port */
}

static int bank_cost(const rf_env *env, size_t i, rf_item *out) {
  const gpurf_rf_bank_group *g = &env->d->bank_groups[i];
  gpurf_bank_spec spec;
  bank_spec(env, &spec);
  gpurf_cell cell;
  int rc = gpurf_cell_load(env->ctx, cell_for(g->cell, &g->ports), &cell);
  if (rc != GPURF_OK) return rc;
  spec.cell = &cell;
  spec.ports = g->ports;
  spec.opt = g->opt;
  spec.entries = g->entries;
  spec.width_bits = g->width_bits;
  spec.split_write = g->split_write;
  spec.port_along_edge = g->port == GPURF_RF_PORT_EDGE;
  spec.gate_groups = g->gate_groups;
  gpurf_bank_cost cost;
  if ((rc = gpurf_bank_eval(env->ctx, &spec, &cost)) != GPURF_OK) return rc;
  out->name = g->name;
  out->instances = g->count;
  return gpurf_bank_cost_common(&spec, &cost, &out->cost);
}

static int crossbar_cost(const rf_env *env, size_t i, rf_item *out) {
  (void)i;
  const gpurf_rf_design *d = env->d;
  gpurf_xbar_spec spec;
  gpurf_xbar_spec_init(&spec);
  spec.tech = env->tech;
  spec.device = d->device;
  spec.temp_k = d->temp_k;
  spec.inputs = d->crossbar.inputs;
  spec.outputs = d->crossbar.outputs;
  spec.width_bits = d->crossbar.width_bits;
  spec.style = d->crossbar.style;
  if (d->crossbar.activity > 0.0) spec.activity = d->crossbar.activity;
  spec.wire_layer = d->crossbar.wire;
  gpurf_xbar_cost cost;
  int rc = gpurf_xbar_eval(env->ctx, &spec, &cost);
  if (rc != GPURF_OK) return rc;
  out->name = GPURF_RF_CROSSBAR;
  out->instances = 1;
  out->cost = cost.base;
  return GPURF_OK;
}

/* One collector per crossbar output. A crossbar transfer writes one
 * operand into every lane slice at once, and dispatch reads one from every
 * slice: the events of the whole collector are a slice's times the lanes
 * (their times are a slice's). Without a whole lane word per slice (a
 * crossbar width that the lanes do not divide) the collector is one array. */
static int collector_cost(const rf_env *env, size_t i, rf_item *out) {
  (void)i;
  const gpurf_rf_design *d = env->d;
  int lanes = d->sm.threads_per_warp;
  if (d->crossbar.width_bits % lanes != 0) lanes = 1;
  gpurf_bank_spec spec;
  bank_spec(env, &spec);
  gpurf_cell flop;
  int rc = gpurf_cell_load(env->ctx, "dff", &flop);
  if (rc != GPURF_OK) return rc;
  spec.cell = &flop;
  spec.ports = (gpurf_ports){0, 1, 1};
  spec.banks = lanes;
  spec.entries = (long long)COLLECTOR_SLOTS * lanes;
  spec.width_bits = d->crossbar.width_bits / lanes;
  gpurf_bank_cost cost;
  if ((rc = gpurf_bank_eval(env->ctx, &spec, &cost)) != GPURF_OK) return rc;
  out->name = GPURF_RF_COLLECTOR;
  out->instances = d->crossbar.outputs;
  if ((rc = gpurf_bank_cost_common(&spec, &cost, &out->cost)) != GPURF_OK) return rc;
  for (int e = 0; e < out->cost.n_events; e++) out->cost.events[e].energy_j *= lanes;
  return GPURF_OK;
}

static int arbiter_cost(const rf_env *env, size_t i, rf_item *out) {
  (void)i;
  const gpurf_rf_design *d = env->d;
  gpurf_arbiter_spec spec;
  gpurf_arbiter_spec_init(&spec);
  spec.tech = env->tech;
  spec.device = d->device;
  spec.temp_k = d->temp_k;
  spec.banks = d->arbiter.banks;
  spec.requesters = d->arbiter.requesters;
  spec.classes = d->arbiter.classes;
  spec.rf_registers = (int)(d->sm.registers / d->sm.threads_per_warp);
  gpurf_arbiter_cost cost;
  int rc = gpurf_arbiter_eval(env->ctx, &spec, &cost);
  if (rc != GPURF_OK) return rc;
  out->name = GPURF_RF_ARBITER;
  out->instances = 1;
  out->cost = cost.base;
  return GPURF_OK;
}

/* The extra structures take the SM's sizes (warps, lanes, warp registers)
 * and keep the component models' defaults for what the design leaves out. */

static int rename_cost(const rf_env *env, const gpurf_rf_extra *x, gpurf_component_cost *out) {
  const gpurf_rf_design *d = env->d;
  gpurf_rename_spec spec;
  gpurf_rename_spec_init(&spec);
  spec.tech = env->tech, spec.device = d->device, spec.temp_k = d->temp_k, spec.cells = env->cells;
  spec.warps = d->sm.warps;
  spec.phys_regs = (int)(d->sm.registers / d->sm.threads_per_warp);
  if (x->arch_regs) spec.arch_regs = x->arch_regs;
  spec.budget_bytes = x->budget_bytes;
  gpurf_rename_cost k;
  int rc = gpurf_rename_eval(env->ctx, &spec, &k);
  if (rc == GPURF_OK) *out = k.base;
  return rc;
}

static int wpool_cost(const rf_env *env, const gpurf_rf_extra *x, gpurf_component_cost *out) {
  const gpurf_rf_design *d = env->d;
  gpurf_wpool_spec spec;
  gpurf_wpool_spec_init(&spec);
  spec.tech = env->tech, spec.device = d->device, spec.temp_k = d->temp_k, spec.cells = env->cells;
  spec.warps = d->sm.warps;
  spec.lanes = d->sm.threads_per_warp;
  if (x->entries) spec.entries = x->entries;
  if (x->arch_regs) spec.arch_regs = x->arch_regs;
  gpurf_wpool_cost k;
  int rc = gpurf_wpool_eval(env->ctx, &spec, &k);
  if (rc == GPURF_OK) *out = k.base;
  return rc;
}

static int crf_cost(const rf_env *env, const gpurf_rf_extra *x, gpurf_component_cost *out) {
  const gpurf_rf_design *d = env->d;
  gpurf_crf_spec spec;
  gpurf_crf_spec_init(&spec);
  spec.tech = env->tech, spec.device = d->device, spec.temp_k = d->temp_k, spec.cells = env->cells;
  spec.warps = d->sm.warps;
  spec.lanes = d->sm.threads_per_warp;
  if (x->arch_regs) spec.arch_regs = x->arch_regs;
  spec.vrf_regs = x->vrf_regs;
  gpurf_crf_cost k;
  int rc = gpurf_crf_eval(env->ctx, &spec, &k);
  if (rc == GPURF_OK) *out = k.base;
  return rc;
}

static int rfc_tags_cost(const rf_env *env, const gpurf_rf_extra *x, gpurf_component_cost *out) {
  gpurf_cell flop;
  int rc = gpurf_cell_load(env->ctx, "dff", &flop);
  if (rc != GPURF_OK) return rc;
  gpurf_rfc_tags_spec spec;
  gpurf_rfc_tags_spec_init(&spec);
  spec.tech = env->tech, spec.device = env->d->device, spec.temp_k = env->d->temp_k;
  spec.cell = &flop;
  if (x->active_warps) spec.warps = x->active_warps;
  if (x->entries) spec.entries_per_thread = x->entries;
  if (x->arch_regs) spec.arch_regs = x->arch_regs;
  gpurf_rfc_tags_cost k;
  if ((rc = gpurf_rfc_tags_eval(env->ctx, &spec, &k)) == GPURF_OK) *out = k.base;
  return rc;
}

/* Indexed by gpurf_rf_extra_kind. */
static int (*const extra_fns[GPURF_RF_EXTRA_KIND_COUNT])(const rf_env *, const gpurf_rf_extra *,
                                                         gpurf_component_cost *) = {
    rename_cost, wpool_cost, crf_cost, rfc_tags_cost};

/* A component model refuses values the design schema lets through (ranges
 * that depend on the kind or on other sizes, such as a write pool's entries
 * or a compressed RF's slots per warp): its error is moved to the extra's
 * place in the design file. */
static int extra_cost(const rf_env *env, size_t i, rf_item *out) {
  const gpurf_rf_extra *x = &env->d->extras[i];
  out->name = x->name;
  out->instances = 1;
  int rc = extra_fns[x->kind](env, x, &out->cost);
  if (rc == GPURF_OK || x->line <= 0 || !env->d->path[0]) return rc;
  char msg[GPURF_ERROR_MESSAGE_MAX], field[32];
  gpurf_strlcpy(msg, gpurf_ctx_error(env->ctx)->message, sizeof msg);
  snprintf(field, sizeof field, "extras[%zu]", i);
  return gpurf_fail_at(env->ctx, rc, env->d->path, x->line, x->column, field, "%s (extra '%s')",
                       msg, x->name);
}

static size_t n_banks(const gpurf_rf_design *d) { return d->n_bank_groups; }
static size_t n_crossbars(const gpurf_rf_design *d) { return d->has_crossbar ? 1 : 0; }
static size_t n_arbiters(const gpurf_rf_design *d) { return d->has_arbiter ? 1 : 0; }
static size_t n_extras(const gpurf_rf_design *d) { return d->n_extras; }

static const struct rf_kind {
  size_t (*count)(const gpurf_rf_design *d);
  rf_cost_fn cost;
} kinds[] = {
    {n_banks, bank_cost},
    {n_crossbars, crossbar_cost},
    {n_arbiters, arbiter_cost},
    {n_extras, extra_cost},
    {n_crossbars, collector_cost}, /* collectors sit behind the crossbar's outputs */
};

/* The table's row of an item. The write time is kept only where it differs
 * from the access time (a bank's write), as the table format says. */
static int add_item(gpurf_ctx *ctx, gpurf_rf_table *t, const rf_item *it) {
  if (t->n_components >= GPURF_RF_MAX_COMPONENTS)
    return gpurf_fail(ctx, GPURF_EINVAL, "design has more than %d components",
                      GPURF_RF_MAX_COMPONENTS);
  const gpurf_component_cost *k = &it->cost;
  gpurf_rf_component *c = &t->components[t->n_components++];
  memset(c, 0, sizeof *c);
  snprintf(c->name, sizeof c->name, "%s", it->name);
  snprintf(c->kind, sizeof c->kind, "%s", k->kind);
  c->instances = it->instances;
  c->leakage_w = k->leakage_sub_w + k->leakage_gate_w;
  c->area_m2 = k->area_m2;
  c->area_cells_m2 = gpurf_component_cost_part_m2(k, "cells");
  c->access_time_s = k->access_time_s;
  const gpurf_component_event *w = gpurf_component_cost_event(k, GPURF_EV_WRITE);
  if (w && w->time_s != k->access_time_s) c->write_time_s = w->time_s;
  c->subarrays = k->subarrays;
  c->gated_leakage_fraction = k->gated_leakage_fraction;
  c->wake_energy_j = k->wake_energy_j;
  c->wake_latency_s = k->wake_latency_s;
  for (int e = 0; e < k->n_events && c->n_events < GPURF_RF_MAX_EVENTS; e++) {
    gpurf_rf_event *o = &c->events[c->n_events++];
    snprintf(o->name, sizeof o->name, "%s", k->events[e].name);
    o->energy_j = k->events[e].energy_j;
  }
  return GPURF_OK;
}

/* The table and the SRAM cells are built on the heap: a simulator may call
 * this from a worker thread with a small stack. */
typedef struct rf_scratch {
  gpurf_rf_table t;
  gpurf_sram_cells cells;
} rf_scratch;

static int build(gpurf_ctx *ctx, const gpurf_rf_design *d, const gpurf_tech *tech,
                 rf_scratch *w) {
  int rc;
  if (d->n_extras > 0 && (rc = gpurf_sram_cells_load(ctx, &w->cells)) != GPURF_OK) return rc;
  const rf_env env = {ctx, d, tech, d->n_extras > 0 ? &w->cells : NULL};
  snprintf(w->t.design, sizeof w->t.design, "%s", d->design);
  w->t.clock_hz = d->clock_hz;
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
    size_t n = kinds[k].count(d);
    for (size_t i = 0; i < n; i++) {
      rf_item it;
      if ((rc = kinds[k].cost(&env, i, &it)) != GPURF_OK) return rc;
      if ((rc = add_item(ctx, &w->t, &it)) != GPURF_OK) return rc;
    }
  }
  return GPURF_OK;
}

int gpurf_rf_design_table(gpurf_ctx *ctx, const gpurf_rf_design *d, gpurf_rf_table *out) {
  if (!ctx || !d || !out) return GPURF_EINVAL;
  int rc = rf_design_check(ctx, d);
  if (rc != GPURF_OK) return rc;
  gpurf_tech *tech = NULL;
  rf_scratch *w = calloc(1, sizeof *w);
  if (!w) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  rc = gpurf_tech_alloc(ctx, &tech);
  if (rc == GPURF_OK) rc = gpurf_tech_load(ctx, d->tech, tech);
  if (rc == GPURF_OK) rc = build(ctx, d, tech, w);
  if (rc == GPURF_OK) memcpy(out, &w->t, sizeof *out);
  gpurf_tech_free(tech);
  free(w);
  return rc;
}
