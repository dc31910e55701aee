/* The registry of register-file techniques: one table of definitions, each
 * from its own file under src/pipeline/tech/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "pipeline/tech/technique_internal.h"

/* The baseline as a technique: what a run without one does, selectable by
 * name so that comparisons name both sides the same way. */
static int baseline_create(gpurf_ctx *ctx, void **state) {
  (void)ctx;
  *state = NULL;
  return GPURF_OK;
}

static void baseline_hooks(void *state, gpurf_pipeline_hooks *out) {
  (void)state;
  *out = *gpurf_pipeline_baseline_hooks();
}

static void baseline_destroy(void *state) { (void)state; }

static const gpurf_technique_def baseline = {
    "baseline", "no technique: the policy's pick, writes first, every result to its bank",
    baseline_create, NULL, baseline_hooks, NULL, baseline_destroy};

extern const gpurf_technique_def gpurf_technique_stealing; /* tech/stealing.c */
extern const gpurf_technique_def gpurf_technique_warrf;
extern const gpurf_technique_def gpurf_technique_compress;
extern const gpurf_technique_def gpurf_technique_rfc;

/* Techniques in the order `gpurf sim --help` lists them. */
extern const gpurf_technique_def gpurf_technique_rename;
extern const gpurf_technique_def gpurf_technique_spill;
static const gpurf_technique_def *const techniques[] = {
    &baseline, &gpurf_technique_stealing, &gpurf_technique_warrf, &gpurf_technique_rename,
    &gpurf_technique_spill, &gpurf_technique_compress, &gpurf_technique_rfc, NULL};

#define N_TECHNIQUES (sizeof techniques / sizeof *techniques - 1)

struct gpurf_technique {
  const gpurf_technique_def *def;
  void *state;
  gpurf_pipeline_hooks hooks;
  gpurf_technique_counters counters;
};

int gpurf_technique_count(void) { return (int)N_TECHNIQUES; }

const char *gpurf_technique_name_at(int i) {
  return i >= 0 && (size_t)i < N_TECHNIQUES ? techniques[i]->name : NULL;
}

static const gpurf_technique_def *find(const char *name) {
  for (size_t i = 0; i < N_TECHNIQUES; i++)
    if (!strcmp(techniques[i]->name, name)) return techniques[i];
  return NULL;
}

const char *gpurf_technique_summary(const char *name) {
  const gpurf_technique_def *d = name ? find(name) : NULL;
  return d ? d->summary : NULL;
}

int gpurf_technique_alloc(gpurf_ctx *ctx, const char *name, gpurf_technique **out) {
  *out = NULL;
  const gpurf_technique_def *d = name ? find(name) : NULL;
  if (!d) {
    char known[256] = "";
    for (size_t i = 0; i < N_TECHNIQUES; i++) {
      size_t l = strlen(known);
      snprintf(known + l, sizeof known - l, "%s%s", i ? ", " : "", techniques[i]->name);
    }
    return gpurf_fail_at(ctx, GPURF_ENOTFOUND, NULL, 0, 0, "technique",
                         "unknown technique '%s' (known: %s)", name ? name : "",
                         N_TECHNIQUES ? known : "none");
  }
  gpurf_technique *t = calloc(1, sizeof *t);
  if (!t) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  t->def = d;
  int rc = d->create(ctx, &t->state);
  if (rc != GPURF_OK) {
    free(t);
    return rc;
  }
  d->hooks(t->state, &t->hooks);
  t->hooks.state = t->state;
  if (!t->hooks.name) t->hooks.name = d->name;
  *out = t;
  return GPURF_OK;
}

void gpurf_technique_free(gpurf_technique *t) {
  if (!t) return;
  t->def->destroy(t->state);
  free(t);
}

const char *gpurf_technique_name(const gpurf_technique *t) { return t->def->name; }

int gpurf_technique_set(gpurf_ctx *ctx, gpurf_technique *t, const char *key, const char *value) {
  if (!t->def->set)
    return gpurf_fail_at(ctx, GPURF_ENOTFOUND, NULL, 0, 0, key, "technique %s has no options",
                         t->def->name);
  return t->def->set(ctx, t->state, key, value);
}

const gpurf_pipeline_hooks *gpurf_technique_hooks(gpurf_technique *t) { return &t->hooks; }

int gpurf_technique_counter_count(gpurf_technique *t) {
  t->counters.n = 0;
  if (t->def->counters) t->def->counters(t->state, &t->counters);
  return t->counters.n;
}

const char *gpurf_technique_counter_name(const gpurf_technique *t, int i) {
  return i >= 0 && i < t->counters.n ? t->counters.name[i] : NULL;
}

double gpurf_technique_counter_value(const gpurf_technique *t, int i) {
  return i >= 0 && i < t->counters.n ? t->counters.value[i] : 0.0;
}

void gpurf_technique_counter_add(gpurf_technique_counters *c, const char *name, double value) {
  if (c->n >= GPURF_TECHNIQUE_MAX_COUNTERS) return;
  snprintf(c->name[c->n], sizeof c->name[c->n], "%s", name);
  c->value[c->n++] = value;
}
