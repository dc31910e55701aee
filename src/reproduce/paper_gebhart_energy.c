/* Gebhart et al.: energy parameters of the hierarchy from our models and
 * Table V, and the register-file energy of a job's accesses. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "reproduce/paper_gebhart.h"

#define ACTIVE_WARPS 8 /* the upper levels hold entries for the active warps only */

/* Loads a design and changes one key (NULL: none). */
static int load(gpurf_ctx *ctx, const char *name, const char *key, int value, gpurf_rf_design *d,
                gpurf_rf_table *t) {
  int rc = gpurf_rf_design_load(ctx, name, d);
  if (rc == GPURF_OK && key) {
    char v[32];
    snprintf(v, sizeof v, "%d", value);
    rc = gpurf_rf_design_set(ctx, d, key, v);
  }
  if (rc == GPURF_OK) rc = gpurf_rf_design_table(ctx, d, t);
  return rc;
}

static const gpurf_rf_component *comp(const gpurf_rf_table *t, const char *name) {
  int i = gpurf_rf_table_find(t, name);
  return i >= 0 ? gpurf_rf_table_component(t, i) : NULL;
}

int gebhart_energies(repro_env *env, int l1_entries, gpurf_rfhier_energy *models,
                     gpurf_rfhier_energy *paper) {
  gpurf_ctx *ctx = env->ctx;
  gpurf_rf_design *d[2] = {gpurf_rf_design_alloc(), gpurf_rf_design_alloc()};
  gpurf_rf_table *t[2] = {gpurf_rf_table_alloc(), gpurf_rf_table_alloc()};
  gpurf_tech *tech = NULL;
  int rc = d[0] && d[1] && t[0] && t[1] ? GPURF_OK
                                         : gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  /* L0, L1 and MRF from the three-level design with the L1 resized; the
   * tags of as many entries from the cache design. */
  if (rc == GPURF_OK)
    rc = load(ctx, "gebhart-l0-l1", "banks[2].entries", l1_entries * ACTIVE_WARPS, d[0], t[0]);
  if (rc == GPURF_OK)
    rc = load(ctx, "gebhart-hw-rfc", "extras[0].entries", l1_entries, d[1], t[1]);
  if (rc == GPURF_OK) rc = gpurf_tech_alloc(ctx, &tech);
  if (rc == GPURF_OK) rc = gpurf_tech_load(ctx, d[0]->tech, tech);
  const gpurf_rf_component *mrf = rc == GPURF_OK ? comp(t[0], "mrf") : NULL;
  const gpurf_rf_component *l1 = rc == GPURF_OK ? comp(t[0], "l1") : NULL;
  const gpurf_rf_component *l0 = rc == GPURF_OK ? comp(t[0], "l0") : NULL;
  const gpurf_rf_component *tags = rc == GPURF_OK ? comp(t[1], "rfc_tags") : NULL;
  if (rc == GPURF_OK && (!mrf || !l1 || !l0 || !tags))
    rc = gpurf_fail(ctx, GPURF_EINVAL, "gebhart designs lack mrf, l0, l1 or rfc_tags");
  if (rc == GPURF_OK)
    rc = gpurf_rfhier_energy_models(ctx, mrf, l1, l0, tags, tech, d[0]->device, models);
  if (rc == GPURF_OK) gpurf_rfhier_energy_paper(models, paper);
  gpurf_tech_free(tech);
  for (int i = 0; i < 2; i++) gpurf_rf_table_free(t[i]), gpurf_rf_design_free(d[i]);
  return rc;
}

static double counter(const repro_job *j, const char *name) {
  double v = repro_job_counter(j, name);
  return isnan(v) ? 0 : v;
}

void gebhart_counts_of(const repro_job *j, gebhart_counts *c) {
  memset(c, 0, sizeof *c);
  c->reads[GPURF_RFHIER_MRF] = j->m[RM_READS];
  c->writes[GPURF_RFHIER_MRF] = j->m[RM_WRITES];
  c->reads[GPURF_RFHIER_L1] = counter(j, "rfc_read_hits") + counter(j, "rfc_eviction_writebacks") +
                              counter(j, "rfc_flush_writebacks");
  c->writes[GPURF_RFHIER_L1] = counter(j, "rfc_writes");
  c->reads[GPURF_RFHIER_L0] = counter(j, "rfc_l0_read_hits") + counter(j, "rfc_l0_to_l1") +
                              counter(j, "rfc_l0_flush_writebacks");
  c->writes[GPURF_RFHIER_L0] = counter(j, "rfc_l0_writes");
  c->tag_checks = counter(j, "rfc_read_hits") + counter(j, "rfc_read_misses") +
                  counter(j, "rfc_l0_read_hits");
  c->tag_updates = counter(j, "rfc_tag_checks") - c->tag_checks;
  if (c->tag_updates < 0) c->tag_updates = 0;
}

double gebhart_energy_j(const gpurf_rfhier_energy *e, const gebhart_counts *c) {
  double j = c->tag_checks * e->tag_check_j + c->tag_updates * e->tag_update_j;
  for (int l = 0; l < GPURF_RFHIER_LEVELS; l++)
    j += c->reads[l] * gpurf_rfhier_access_j(e, (gpurf_rfhier_level)l, 0, 0) +
         c->writes[l] * gpurf_rfhier_access_j(e, (gpurf_rfhier_level)l, 1, 0);
  return j;
}
