/* Primitive table files (docs/table-format.md): a design's per-event
 * energies, leakage, area, timing and gating costs, written by hand (from a
 * memory compiler, say) or by gpurf. Decoded with the schema loader into a
 * mirror of gpurf_rf_table whose list counts are the loader's size_t, then
 * checked across fields and copied. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "gpurf/rf.h"
#include "rf/table_doc.h"
#include "yaml/yaml_schema.h"

#define REQ YS_REQUIRED
#define POS (YS_REQUIRED | YS_MIN_EXCLUSIVE)

/* A list's position is recorded under the address of its first element,
 * so the first member of an element is one no cross-field check reports
 * on: names, which are checked, come second. */
typedef struct tl_event {
  double energy_j;
  char name[GPURF_RF_NAME_MAX];
} tl_event;

typedef struct tl_component {
  int instances;
  char name[GPURF_RF_NAME_MAX];
  char kind[GPURF_RF_NAME_MAX];
  double leakage_w;
  double area_m2;
  double area_cells_m2;
  int has_area_cells;
  double access_time_s;
  double write_time_s;
  int has_write_time;
  int subarrays;
  int has_subarrays;
  double gated_leakage_fraction;
  int has_fraction;
  double wake_energy_j;
  int has_wake_energy;
  double wake_latency_s;
  int has_wake_latency;
  size_t n_events;
  tl_event events[GPURF_RF_MAX_EVENTS];
} tl_component;

typedef struct tl_table {
  char design[GPURF_RF_NAME_MAX];
  double clock_hz;
  size_t n_components;
  tl_component components[GPURF_RF_MAX_COMPONENTS];
} tl_table;

typedef struct tl_root {
  tl_table table;
} tl_root;

/* Up to 1 J per event, 1 kW of leakage, 1 m^2, 1 s: anything beyond is a
 * unit mistake, not a register file. */
static const ys_field event_fields[] = {
    YS_STR(tl_event, name, REQ),
    YS_DBL(tl_event, energy_j, 0.0, 1.0, REQ),
    YS_TABLE_END};

#define TL_INT_OPT(M, LO, HI, PRESENT)                                                  \
  {#M, YS_INT, 0, offsetof(tl_component, M), 0, (LO), (HI), NULL, NULL, 0, 0, 0,       \
   offsetof(tl_component, PRESENT)}

static const ys_field component_fields[] = {
    YS_STR(tl_component, name, REQ),
    YS_STR(tl_component, kind, REQ),
    YS_INTF(tl_component, instances, 1, GPURF_RF_MAX_INSTANCES, REQ),
    YS_DBL(tl_component, leakage_w, 0.0, 1.0e3, REQ),
    YS_DBL(tl_component, area_m2, 0.0, 1.0, REQ),
    YS_DBL_OPT(tl_component, area_cells_m2, 0.0, 1.0, 0, has_area_cells),
    YS_DBL(tl_component, access_time_s, 0.0, 1.0, REQ),
    YS_DBL_OPT(tl_component, write_time_s, 0.0, 1.0, 0, has_write_time),
    TL_INT_OPT(subarrays, 0, GPURF_RF_MAX_SUBARRAYS, has_subarrays),
    YS_DBL_OPT(tl_component, gated_leakage_fraction, 0.0, 1.0, 0, has_fraction),
    YS_DBL_OPT(tl_component, wake_energy_j, 0.0, 1.0, 0, has_wake_energy),
    YS_DBL_OPT(tl_component, wake_latency_s, 0.0, 1.0, 0, has_wake_latency),
    YS_LISTF("events", tl_component, events, tl_event, n_events, 1, GPURF_RF_MAX_EVENTS,
             event_fields, REQ),
    YS_TABLE_END};

static const ys_field table_fields[] = {
    YS_STR(tl_table, design, REQ),
    YS_DBL(tl_table, clock_hz, 0.0, 1.0e12, POS),
    YS_LISTF("components", tl_table, components, tl_component, n_components, 1,
             GPURF_RF_MAX_COMPONENTS, component_fields, REQ),
    YS_TABLE_END};

static const ys_field root_fields[] = {
    YS_MAPF("table", tl_root, table, table_fields, REQ),
    YS_TABLE_END};

/* Names become TSV fields and "component.event" labels. */
static int check_name(ys_doc *doc, const char *name) {
  if (!name[0]) return ys_fail_value(doc, name, GPURF_ESCHEMA, "name is empty");
  for (const char *s = name; *s; s++)
    if (isspace((unsigned char)*s) || iscntrl((unsigned char)*s) || *s == '.')
      return ys_fail_value(doc, name, GPURF_ESCHEMA,
                           "name '%s' has white space or a '.'; names are single words", name);
  return GPURF_OK;
}

static int check_component(ys_doc *doc, const tl_table *t, size_t c) {
  const tl_component *k = &t->components[c];
  int rc = check_name(doc, k->name);
  if (rc != GPURF_OK) return rc;
  for (size_t j = 0; j < c; j++)
    if (strcmp(t->components[j].name, k->name) == 0)
      return ys_fail_value(doc, k->name, GPURF_ESCHEMA, "component '%s' is listed twice",
                           k->name);
  if (k->has_area_cells && k->area_cells_m2 > k->area_m2)
    return ys_fail_value(doc, &k->area_cells_m2, GPURF_ERANGE,
                         "cell area %g m^2 exceeds the component's area %g m^2",
                         k->area_cells_m2, k->area_m2);
  /* Gating costs mean something only for a gateable component, and a
   * gateable one needs all three: no silent zeros. */
  int gateable = k->has_subarrays && k->subarrays > 0;
  const struct {
    int given;
    const void *dst;
    const char *key;
  } gating[] = {{k->has_fraction, &k->gated_leakage_fraction, "gated_leakage_fraction"},
                {k->has_wake_energy, &k->wake_energy_j, "wake_energy_j"},
                {k->has_wake_latency, &k->wake_latency_s, "wake_latency_s"}};
  for (size_t g = 0; g < sizeof gating / sizeof gating[0]; g++) {
    if (gateable && !gating[g].given)
      return ys_fail_value(doc, &k->subarrays, GPURF_ESCHEMA,
                           "a component with sub-arrays to gate needs %s", gating[g].key);
    if (!gateable && gating[g].given)
      return ys_fail_value(doc, gating[g].dst, GPURF_ESCHEMA,
                           "%s given, but '%s' has no sub-arrays to gate (subarrays > 0)",
                           gating[g].key, k->name);
  }
  for (size_t e = 0; e < k->n_events; e++) {
    if ((rc = check_name(doc, k->events[e].name)) != GPURF_OK) return rc;
    for (size_t j = 0; j < e; j++)
      if (strcmp(k->events[j].name, k->events[e].name) == 0)
        return ys_fail_value(doc, k->events[e].name, GPURF_ESCHEMA,
                             "event '%s' is listed twice", k->events[e].name);
  }
  return GPURF_OK;
}

static void copy_out(const tl_table *t, gpurf_rf_table *out) {
  memset(out, 0, sizeof *out);
  memcpy(out->design, t->design, sizeof out->design);
  out->clock_hz = t->clock_hz;
  out->n_components = (int)t->n_components;
  for (size_t c = 0; c < t->n_components; c++) {
    const tl_component *k = &t->components[c];
    gpurf_rf_component *o = &out->components[c];
    memcpy(o->name, k->name, sizeof o->name);
    memcpy(o->kind, k->kind, sizeof o->kind);
    o->instances = k->instances;
    o->leakage_w = k->leakage_w;
    o->area_m2 = k->area_m2;
    o->area_cells_m2 = k->area_cells_m2;
    o->access_time_s = k->access_time_s;
    o->write_time_s = k->write_time_s;
    o->subarrays = k->subarrays;
    o->gated_leakage_fraction = k->gated_leakage_fraction;
    o->wake_energy_j = k->wake_energy_j;
    o->wake_latency_s = k->wake_latency_s;
    o->n_events = (int)k->n_events;
    for (size_t e = 0; e < k->n_events; e++) {
      memcpy(o->events[e].name, k->events[e].name, sizeof o->events[e].name);
      o->events[e].energy_j = k->events[e].energy_j;
    }
  }
}

int rf_table_from_doc(gpurf_ctx *ctx, ys_doc *doc, gpurf_rf_table *out) {
  tl_root *root = calloc(1, sizeof *root); /* ~37 KB: off the stack */
  if (!root) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  int rc = ys_decode(doc, root_fields, root);
  long total_sub = 0;
  for (size_t c = 0; rc == GPURF_OK && c < root->table.n_components; c++) {
    rc = check_component(doc, &root->table, c);
    /* The engine would refuse this too, but here the error can point at
     * the line that tips the total over. */
    const tl_component *k = &root->table.components[c];
    total_sub += (long)k->instances * k->subarrays;
    if (rc == GPURF_OK && total_sub > GPURF_RF_MAX_TOTAL_SUBARRAYS)
      rc = ys_fail_value(doc, &k->subarrays, GPURF_ERANGE,
                         "%d instances x %d sub-arrays bring the table to %ld sub-arrays; at "
                         "most %ld are modelled",
                         k->instances, k->subarrays, total_sub, GPURF_RF_MAX_TOTAL_SUBARRAYS);
  }
  if (rc == GPURF_OK) copy_out(&root->table, out);
  free(root);
  return rc;
}

int gpurf_rf_table_load(gpurf_ctx *ctx, const char *path, gpurf_rf_table *out) {
  if (!path || !out) return gpurf_fail(ctx, GPURF_EINVAL, "no table path or no place for it");
  ys_doc *doc = NULL;
  int rc = ys_open(ctx, path, &doc);
  if (rc != GPURF_OK) return rc;
  rc = rf_table_from_doc(ctx, doc, out);
  ys_close(doc);
  return rc;
}
