/* Look-ups in a primitive table. */
#include <string.h>

#include "gpurf/rf.h"

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
