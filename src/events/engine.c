/* The event engine: a copy of the table, one counter per (component, event,
 * instance), and per-sub-array gating state. Counting is an indexed add;
 * gating keeps the cycle a sub-array was gated at, so advancing time costs
 * nothing however many sub-arrays are gated. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "events/events_internal.h"

static int good_name(const char *s, size_t size) {
  if (!memchr(s, '\0', size) || !s[0]) return 0;
  for (; *s; s++)
    if (isspace((unsigned char)*s) || iscntrl((unsigned char)*s)) return 0;
  return 1;
}

static int nonneg(double v) { return isfinite(v) && v >= 0.0; }

/* A table may be built in code, so everything the engine relies on is
 * checked here rather than trusted. */
static int check_component(gpurf_ctx *ctx, const gpurf_rf_table *t, int c) {
  const gpurf_rf_component *k = &t->components[c];
  if (!good_name(k->name, sizeof k->name))
    return gpurf_fail(ctx, GPURF_EINVAL, "component %d: name is empty or has white space", c);
  for (int j = 0; j < c; j++)
    if (strcmp(t->components[j].name, k->name) == 0)
      return gpurf_fail(ctx, GPURF_EINVAL, "component '%s' appears twice", k->name);
  if (k->instances < 1 || k->instances > GPURF_ENERGY_MAX_INSTANCES)
    return gpurf_fail(ctx, GPURF_EINVAL, "component '%s': %d instances (1 to %d)", k->name,
                      k->instances, GPURF_ENERGY_MAX_INSTANCES);
  if (k->subarrays < 0 || k->subarrays > GPURF_ENERGY_MAX_SUBARRAYS)
    return gpurf_fail(ctx, GPURF_EINVAL, "component '%s': %d sub-arrays (0 to %d)", k->name,
                      k->subarrays, GPURF_ENERGY_MAX_SUBARRAYS);
  if (!nonneg(k->leakage_w) || !nonneg(k->wake_energy_j) || !nonneg(k->wake_latency_s))
    return gpurf_fail(ctx, GPURF_EINVAL,
                      "component '%s': leakage and wake-up costs must be finite and >= 0",
                      k->name);
  if (!(k->gated_leakage_fraction >= 0.0 && k->gated_leakage_fraction <= 1.0))
    return gpurf_fail(ctx, GPURF_EINVAL, "component '%s': gated_leakage_fraction %g is not in 0..1",
                      k->name, k->gated_leakage_fraction);
  if (k->n_events < 0 || k->n_events > GPURF_RF_MAX_EVENTS)
    return gpurf_fail(ctx, GPURF_EINVAL, "component '%s': %d events (0 to %d)", k->name,
                      k->n_events, GPURF_RF_MAX_EVENTS);
  for (int e = 0; e < k->n_events; e++) {
    const gpurf_rf_event *ev = &k->events[e];
    if (!good_name(ev->name, sizeof ev->name))
      return gpurf_fail(ctx, GPURF_EINVAL, "component '%s': event %d has no name or white space",
                        k->name, e);
    for (int j = 0; j < e; j++)
      if (strcmp(k->events[j].name, ev->name) == 0)
        return gpurf_fail(ctx, GPURF_EINVAL, "component '%s': event '%s' appears twice", k->name,
                          ev->name);
    if (!nonneg(ev->energy_j))
      return gpurf_fail(ctx, GPURF_EINVAL, "component '%s': event '%s': energy %g J", k->name,
                        ev->name, ev->energy_j);
  }
  return GPURF_OK;
}

static int check_table(gpurf_ctx *ctx, const gpurf_rf_table *t) {
  if (!(isfinite(t->clock_hz) && t->clock_hz > 0.0))
    return gpurf_fail(ctx, GPURF_EINVAL, "table clock_hz %g must be above 0", t->clock_hz);
  if (t->n_components < 1 || t->n_components > GPURF_RF_MAX_COMPONENTS)
    return gpurf_fail(ctx, GPURF_EINVAL, "table has %d components (1 to %d)", t->n_components,
                      GPURF_RF_MAX_COMPONENTS);
  long total = 0;
  for (int c = 0; c < t->n_components; c++) {
    int rc = check_component(ctx, t, c);
    if (rc != GPURF_OK) return rc;
    const gpurf_rf_component *k = &t->components[c];
    total += (long)k->instances * k->subarrays;
    if (total > GPURF_ENERGY_MAX_TOTAL_SUBARRAYS)
      return gpurf_fail(ctx, GPURF_ERANGE,
                        "component '%s': %d instances x %d sub-arrays bring the table to %ld "
                        "sub-arrays; at most %ld are modelled",
                        k->name, k->instances, k->subarrays, total,
                        GPURF_ENERGY_MAX_TOTAL_SUBARRAYS);
  }
  return GPURF_OK;
}

int gpurf_energy_alloc(gpurf_ctx *ctx, const gpurf_rf_table *table, gpurf_energy **out) {
  if (!out) return gpurf_fail(ctx, GPURF_EINVAL, "no place for the engine");
  *out = NULL;
  if (!table) return gpurf_fail(ctx, GPURF_EINVAL, "no table");
  int rc = check_table(ctx, table);
  if (rc != GPURF_OK) return rc;
  gpurf_energy *e = calloc(1, sizeof *e);
  if (!e) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  e->table = *table;
  /* Limits above keep these below 32 x 16 x 65536 counters and
   * 32 x 65536 x 4096 sub-arrays: no overflow in size_t or uint32. */
  for (int c = 0; c < table->n_components; c++) {
    const gpurf_rf_component *k = &table->components[c];
    e->first_id[c] = e->n_ids;
    for (int v = 0; v < k->n_events; v++) {
      e->slot[e->n_ids].base = (uint32_t)e->n_counts;
      e->slot[e->n_ids].instances = (uint32_t)k->instances;
      e->n_ids++;
      e->n_counts += (size_t)k->instances;
    }
    e->sub_base[c] = e->n_sub;
    e->n_sub += (size_t)k->instances * (size_t)k->subarrays;
  }
  e->counts = calloc(e->n_counts ? e->n_counts : 1, sizeof *e->counts);
  e->gated_since = malloc((e->n_sub ? e->n_sub : 1) * sizeof *e->gated_since);
  e->gated_cycles = calloc(e->n_sub ? e->n_sub : 1, sizeof *e->gated_cycles);
  e->wakeups = calloc(e->n_sub ? e->n_sub : 1, sizeof *e->wakeups);
  if (!e->counts || !e->gated_since || !e->gated_cycles || !e->wakeups) {
    size_t n_counts = e->n_counts, n_sub = e->n_sub;
    gpurf_energy_free(e);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory for %zu counters and %zu sub-arrays",
                      n_counts, n_sub);
  }
  for (size_t i = 0; i < e->n_sub; i++) e->gated_since[i] = EV_AWAKE;
  *out = e;
  return GPURF_OK;
}

void gpurf_energy_free(gpurf_energy *e) {
  if (!e) return;
  free(e->counts);
  free(e->gated_since);
  free(e->gated_cycles);
  free(e->wakeups);
  free(e);
}

const gpurf_rf_table *gpurf_energy_table(const gpurf_energy *e) { return e ? &e->table : NULL; }

int gpurf_energy_component_id(const gpurf_energy *e, const char *component, int *index) {
  if (!e || !component || !index) return GPURF_EINVAL;
  int c = gpurf_rf_table_find(&e->table, component);
  if (c < 0) return GPURF_ENOTFOUND;
  *index = c;
  return GPURF_OK;
}

int gpurf_energy_event_id(const gpurf_energy *e, const char *component, const char *event,
                          int *id) {
  if (!e || !component || !event || !id) return GPURF_EINVAL;
  int c = gpurf_rf_table_find(&e->table, component);
  int v = c < 0 ? -1 : gpurf_rf_table_find_event(&e->table, c, event);
  if (v < 0) return GPURF_ENOTFOUND;
  *id = (int)e->first_id[c] + v;
  return GPURF_OK;
}

int gpurf_energy_add(gpurf_energy *e, int id, int instance, uint64_t count) {
  /* Unsigned compares catch negative values too. */
  if ((unsigned)id >= e->n_ids) return GPURF_EINVAL;
  const ev_slot s = e->slot[id];
  if ((unsigned)instance >= s.instances) return GPURF_EINVAL;
  e->counts[s.base + (unsigned)instance] += count;
  return GPURF_OK;
}

void gpurf_energy_advance(gpurf_energy *e, uint64_t cycles) { e->cycles += cycles; }

uint64_t gpurf_energy_cycles(const gpurf_energy *e) { return e->cycles; }

long ev_sub_index(const gpurf_energy *e, int component, int instance, int subarray) {
  if (component < 0 || component >= e->table.n_components) return -1;
  const gpurf_rf_component *k = &e->table.components[component];
  if (k->subarrays <= 0 || instance < 0 || instance >= k->instances || subarray < 0 ||
      subarray >= k->subarrays)
    return -1;
  return (long)(e->sub_base[component] + (size_t)instance * (size_t)k->subarrays +
                (size_t)subarray);
}

uint64_t ev_gated_cycles(const gpurf_energy *e, size_t i) {
  uint64_t g = e->gated_cycles[i];
  if (e->gated_since[i] != EV_AWAKE) g += e->cycles - e->gated_since[i];
  return g;
}

int gpurf_energy_gate(gpurf_energy *e, int component, int instance, int subarray, int gated) {
  if (!e) return GPURF_EINVAL;
  long i = ev_sub_index(e, component, instance, subarray);
  if (i < 0) return GPURF_EINVAL;
  if (gated && e->gated_since[i] == EV_AWAKE) {
    e->gated_since[i] = e->cycles;
  } else if (!gated && e->gated_since[i] != EV_AWAKE) {
    e->gated_cycles[i] += e->cycles - e->gated_since[i];
    e->gated_since[i] = EV_AWAKE;
    e->wakeups[i]++;
  }
  return GPURF_OK;
}

int gpurf_energy_add_gated(gpurf_energy *e, int component, int instance, int subarray,
                           uint64_t gated_cycles, uint64_t wakeups) {
  if (!e) return GPURF_EINVAL;
  long i = ev_sub_index(e, component, instance, subarray);
  if (i < 0) return GPURF_EINVAL;
  e->gated_cycles[i] += gated_cycles;
  e->wakeups[i] += wakeups;
  return GPURF_OK;
}

void gpurf_energy_reset(gpurf_energy *e) {
  if (!e) return;
  memset(e->counts, 0, e->n_counts * sizeof *e->counts);
  memset(e->gated_cycles, 0, e->n_sub * sizeof *e->gated_cycles);
  memset(e->wakeups, 0, e->n_sub * sizeof *e->wakeups);
  for (size_t i = 0; i < e->n_sub; i++) e->gated_since[i] = EV_AWAKE;
  e->cycles = 0;
}

static int same_shape(const gpurf_rf_table *a, const gpurf_rf_table *b) {
  if (a->n_components != b->n_components) return 0;
  for (int c = 0; c < a->n_components; c++) {
    const gpurf_rf_component *x = &a->components[c], *y = &b->components[c];
    if (strcmp(x->name, y->name) != 0 || x->instances != y->instances ||
        x->subarrays != y->subarrays || x->n_events != y->n_events)
      return 0;
    for (int v = 0; v < x->n_events; v++)
      if (strcmp(x->events[v].name, y->events[v].name) != 0) return 0;
  }
  return 1;
}

void ev_accumulate(gpurf_energy *dst, const gpurf_energy *src, int cycles_add) {
  for (size_t i = 0; i < dst->n_counts; i++) dst->counts[i] += src->counts[i];
  for (size_t i = 0; i < dst->n_sub; i++) {
    dst->gated_cycles[i] += ev_gated_cycles(src, i);
    dst->wakeups[i] += src->wakeups[i];
  }
  if (cycles_add)
    dst->cycles += src->cycles;
  else if (src->cycles > dst->cycles)
    dst->cycles = src->cycles;
}

int gpurf_energy_merge(gpurf_ctx *ctx, gpurf_energy *dst, const gpurf_energy *src) {
  if (!dst || !src || dst == src)
    return gpurf_fail(ctx, GPURF_EINVAL, "merge needs two different engines");
  if (!same_shape(&dst->table, &src->table))
    return gpurf_fail(ctx, GPURF_EINVAL,
                      "cannot merge engines of different tables ('%s' and '%s')",
                      dst->table.design, src->table.design);
  ev_accumulate(dst, src, 0);
  return GPURF_OK;
}
