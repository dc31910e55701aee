/* Allocation, copies and look-ups of primitive tables and designs. The
 * library allocates them so that their sizes can grow without breaking a
 * program linked against an older version (rf.h, gpurf_rf_table). */
#include <stdlib.h>
#include <string.h>

#include "gpurf/rf.h"

gpurf_rf_table *gpurf_rf_table_alloc(void) { return calloc(1, sizeof(gpurf_rf_table)); }

void gpurf_rf_table_free(gpurf_rf_table *t) { free(t); }

gpurf_rf_design *gpurf_rf_design_alloc(void) { return calloc(1, sizeof(gpurf_rf_design)); }

void gpurf_rf_design_free(gpurf_rf_design *d) { free(d); }

void gpurf_rf_table_copy(gpurf_rf_table *dst, const gpurf_rf_table *src) {
  if (dst && src && dst != src) memcpy(dst, src, sizeof *dst);
}

void gpurf_rf_design_copy(gpurf_rf_design *dst, const gpurf_rf_design *src) {
  if (dst && src && dst != src) memcpy(dst, src, sizeof *dst);
}

const gpurf_rf_component *gpurf_rf_table_component(const gpurf_rf_table *t, int i) {
  if (!t || i < 0 || i >= t->n_components || i >= GPURF_RF_MAX_COMPONENTS) return NULL;
  return &t->components[i];
}

const gpurf_rf_event *gpurf_rf_component_event(const gpurf_rf_component *c, int i) {
  if (!c || i < 0 || i >= c->n_events || i >= GPURF_RF_MAX_EVENTS) return NULL;
  return &c->events[i];
}

gpurf_rf_bank_group *gpurf_rf_design_bank_group(gpurf_rf_design *d, size_t i) {
  if (!d || i >= d->n_bank_groups || i >= GPURF_RF_MAX_BANK_GROUPS) return NULL;
  return &d->bank_groups[i];
}

gpurf_rf_extra *gpurf_rf_design_extra(gpurf_rf_design *d, size_t i) {
  if (!d || i >= d->n_extras || i >= GPURF_RF_MAX_EXTRAS) return NULL;
  return &d->extras[i];
}

gpurf_rf_component *gpurf_rf_table_add_component(gpurf_rf_table *t) {
  if (!t || t->n_components < 0 || t->n_components >= GPURF_RF_MAX_COMPONENTS) return NULL;
  gpurf_rf_component *c = &t->components[t->n_components++];
  memset(c, 0, sizeof *c);
  return c;
}

gpurf_rf_event *gpurf_rf_component_add_event(gpurf_rf_component *c) {
  if (!c || c->n_events < 0 || c->n_events >= GPURF_RF_MAX_EVENTS) return NULL;
  gpurf_rf_event *e = &c->events[c->n_events++];
  memset(e, 0, sizeof *e);
  return e;
}

int gpurf_rf_table_find(const gpurf_rf_table *t, const char *component) {
  if (!t || !component) return -1;
  for (int i = 0; i < t->n_components && i < GPURF_RF_MAX_COMPONENTS; i++)
    if (strcmp(t->components[i].name, component) == 0) return i;
  return -1;
}

int gpurf_rf_table_find_event(const gpurf_rf_table *t, int c, const char *event) {
  if (!t || !event || c < 0 || c >= t->n_components || c >= GPURF_RF_MAX_COMPONENTS) return -1;
  const gpurf_rf_component *comp = &t->components[c];
  for (int i = 0; i < comp->n_events && i < GPURF_RF_MAX_EVENTS; i++)
    if (strcmp(comp->events[i].name, event) == 0) return i;
  return -1;
}
