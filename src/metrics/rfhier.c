/* Register-file hierarchy energy (include/gpurf/rfhier.h). */
#include <math.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "gpurf/rfhier.h"

/* Table V of Gebhart et al. (ACM TOCS 2012). */
#define PAPER_MRF_READ_J 8e-12
#define PAPER_MRF_WRITE_J 11e-12
#define PAPER_L0_READ_J 0.7e-12
#define PAPER_L0_WRITE_J 2e-12
#define PAPER_WIRE_J_PER_M 1.9e-9 /* 1.9 pJ/mm per 32-bit word */
#define LANES_PER_ENTRY 4         /* a 128-bit entry holds four lanes' registers */
#define WORD_BITS 32
/* Half the bits toggle and a toggle costs half of C V^2: the methodology
 * of Kogge et al. behind Table V (300 fF/mm, 0.9 V -> 1.9 pJ/mm/word). */
#define WIRE_ACTIVITY 0.25

static void distances(gpurf_rfhier_energy *e) {
  e->private_m[GPURF_RFHIER_MRF] = 1e-3;
  e->shared_m[GPURF_RFHIER_MRF] = 1e-3;
  e->private_m[GPURF_RFHIER_L1] = 0.2e-3;
  e->shared_m[GPURF_RFHIER_L1] = 0.4e-3;
  /* The L0 serves only the private datapath (Sec. 4.4). */
  e->private_m[GPURF_RFHIER_L0] = 0.05e-3;
  e->shared_m[GPURF_RFHIER_L0] = 0.05e-3;
}

static int event_j(gpurf_ctx *ctx, const gpurf_rf_component *c, const char *name, double *out) {
  for (int i = 0; i < c->n_events; i++) {
    const gpurf_rf_event *e = gpurf_rf_component_event(c, i);
    if (!strcmp(e->name, name)) {
      *out = e->energy_j;
      return GPURF_OK;
    }
  }
  return gpurf_fail_at(ctx, GPURF_ENOTFOUND, NULL, 0, 0, name, "component %s has no event %s",
                       c->name, name);
}

int gpurf_rfhier_energy_models(gpurf_ctx *ctx, const gpurf_rf_component *mrf,
                               const gpurf_rf_component *l1, const gpurf_rf_component *l0,
                               const gpurf_rf_component *tags, const gpurf_tech *tech,
                               gpurf_device_kind device, gpurf_rfhier_energy *out) {
  memset(out, 0, sizeof *out);
  out->lanes = 32;
  distances(out);
  const gpurf_rf_component *lv[GPURF_RFHIER_LEVELS] = {mrf, l1, l0};
  int rc = GPURF_OK;
  for (int l = 0; l < GPURF_RFHIER_LEVELS && rc == GPURF_OK; l++) {
    if (!lv[l]) continue;
    rc = event_j(ctx, lv[l], "read", &out->read_j[l]);
    if (rc == GPURF_OK) rc = event_j(ctx, lv[l], "write", &out->write_j[l]);
  }
  if (rc == GPURF_OK && tags) {
    rc = event_j(ctx, tags, "check", &out->tag_check_j);
    if (rc == GPURF_OK) rc = event_j(ctx, tags, "update", &out->tag_update_j);
  }
  if (rc != GPURF_OK) return rc;
  const gpurf_device *dev = gpurf_tech_device(tech, device);
  if (!dev) return gpurf_fail(ctx, GPURF_EINVAL, "node %s lacks the device", gpurf_tech_name(tech));
  double vdd = gpurf_tech_device_value(dev, GPURF_DEVICE_VDD_V);
  double c = gpurf_tech_wire_value(tech, GPURF_WIRE_SEMI_GLOBAL, GPURF_WIRE_C_F_PER_M);
  out->wire_j_per_m = WIRE_ACTIVITY * c * vdd * vdd * WORD_BITS;
  if (!(out->wire_j_per_m > 0) || !isfinite(out->wire_j_per_m))
    return gpurf_fail(ctx, GPURF_EINVAL, "node %s: no wire energy", gpurf_tech_name(tech));
  return GPURF_OK;
}

void gpurf_rfhier_energy_paper(const gpurf_rfhier_energy *models, gpurf_rfhier_energy *out) {
  *out = *models;
  out->read_j[GPURF_RFHIER_MRF] = PAPER_MRF_READ_J;
  out->write_j[GPURF_RFHIER_MRF] = PAPER_MRF_WRITE_J;
  out->read_j[GPURF_RFHIER_L0] = PAPER_L0_READ_J;
  out->write_j[GPURF_RFHIER_L0] = PAPER_L0_WRITE_J;
  out->wire_j_per_m = PAPER_WIRE_J_PER_M;
  distances(out);
}

double gpurf_rfhier_access_j(const gpurf_rfhier_energy *e, gpurf_rfhier_level level, int is_write,
                             int shared) {
  if (level < 0 || level >= GPURF_RFHIER_LEVELS) return NAN;
  double arr = is_write ? e->write_j[level] : e->read_j[level];
  double d = shared ? e->shared_m[level] : e->private_m[level];
  return (double)e->lanes / LANES_PER_ENTRY * arr + (double)e->lanes * e->wire_j_per_m * d;
}
