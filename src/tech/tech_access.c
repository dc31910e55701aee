/* The public face of a node: allocation and read-only accessors. Programs
 * outside the library see gpurf_tech only through these, so the layout in
 * tech_internal.h can grow without breaking them. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "core/ctx_internal.h"
#include "tech/tech_internal.h"

int gpurf_tech_alloc(gpurf_ctx *ctx, gpurf_tech **out) {
  if (!ctx || !out) return GPURF_EINVAL;
  *out = calloc(1, sizeof **out);
  if (!*out) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  return GPURF_OK;
}

void gpurf_tech_free(gpurf_tech *tech) { free(tech); }

const char *gpurf_tech_name(const gpurf_tech *tech) { return tech ? tech->name : ""; }

const char *gpurf_tech_path(const gpurf_tech *tech) { return tech ? tech->path : ""; }

int gpurf_tech_interpolated(const gpurf_tech *tech, const char **smaller, const char **larger) {
  int yes = tech && tech->interpolated;
  if (smaller) *smaller = yes ? tech->interpolated_from[0] : "";
  if (larger) *larger = yes ? tech->interpolated_from[1] : "";
  return yes;
}

double gpurf_tech_value(const gpurf_tech *tech, gpurf_tech_param param) {
  if (!tech) return NAN;
  switch (param) {
  case GPURF_TECH_FEATURE_SIZE_M: return tech->feature_size_m;
  case GPURF_TECH_CONTACT_WIDTH_M: return tech->layout.contact_width_m;
  case GPURF_TECH_POLY_TO_CONTACT_M: return tech->layout.poly_to_contact_m;
  case GPURF_TECH_POLY_TO_POLY_M: return tech->layout.poly_to_poly_m;
  case GPURF_TECH_SENSE_AMP_DELAY_S: return tech->sense_amp.delay_s;
  case GPURF_TECH_SENSE_AMP_ENERGY_J: return tech->sense_amp.energy_j;
  case GPURF_TECH_PARAM_COUNT: break;
  }
  return NAN;
}

const char *gpurf_tech_source(const gpurf_tech *tech, gpurf_tech_section section) {
  if (!tech) return "";
  switch (section) {
  case GPURF_TECH_WIRES: return tech->wires.source;
  case GPURF_TECH_LAYOUT: return tech->layout.source;
  case GPURF_TECH_SENSE_AMP: return tech->sense_amp.source;
  }
  return "";
}

double gpurf_tech_wire_value(const gpurf_tech *tech, gpurf_wire_kind layer,
                             gpurf_wire_param param) {
  if (!tech || (unsigned)layer >= GPURF_WIRE_COUNT) return NAN;
  const gpurf_wire_layer *l = &tech->wires.layer[layer];
  switch (param) {
  case GPURF_WIRE_PITCH_M: return l->pitch_m;
  case GPURF_WIRE_R_OHM_PER_M: return l->r_ohm_per_m;
  case GPURF_WIRE_C_F_PER_M: return l->c_f_per_m;
  case GPURF_WIRE_BUS_R_OHM_PER_M: return l->bus_r_ohm_per_m;
  case GPURF_WIRE_BUS_C_F_PER_M: return l->bus_c_f_per_m;
  case GPURF_WIRE_PARAM_COUNT: break;
  }
  return NAN;
}

const gpurf_device *gpurf_tech_device(const gpurf_tech *tech, gpurf_device_kind kind) {
  if (!tech || (unsigned)kind >= GPURF_DEVICE_COUNT) return NULL;
  return &tech->device[kind];
}

/* Indexed by gpurf_device_param. */
static const struct {
  const char *key;
  size_t offset;
} device_params[GPURF_DEVICE_PARAM_COUNT] = {
#define P(field) {#field, offsetof(gpurf_device, field)}
    P(vdd_v),
    P(vth_v),
    P(vdsat_v),
    P(l_phy_m),
    P(l_elec_m),
    P(t_ox_m),
    P(c_ox_f_per_m2),
    P(mobility_n_m2_per_v_s),
    P(c_gate_f_per_m),
    P(c_fringe_f_per_m),
    P(c_overlap_f_per_m),
    P(c_junction_f_per_m2),
    P(c_junction_sidewall_f_per_m),
    P(i_on_n_a_per_m),
    P(i_on_p_a_per_m),
    P(r_eff_n_factor),
    P(n_to_p_drive_ratio),
    P(gm_p_to_n_ratio),
    P(long_channel_leakage_factor),
#undef P
};

double gpurf_tech_device_value(const gpurf_device *dev, gpurf_device_param param) {
  if (!dev || (unsigned)param >= GPURF_DEVICE_PARAM_COUNT) return NAN;
  return *(const double *)((const char *)dev + device_params[param].offset);
}

const char *gpurf_tech_device_param_key(gpurf_device_param param) {
  return (unsigned)param < GPURF_DEVICE_PARAM_COUNT ? device_params[param].key : "";
}

const char *gpurf_tech_device_source(const gpurf_device *dev) { return dev ? dev->source : ""; }

size_t gpurf_tech_device_leakage_rows(const gpurf_device *dev) { return dev ? dev->n_leakage : 0; }

int gpurf_tech_device_leakage_row(const gpurf_device *dev, size_t i, gpurf_leakage *out) {
  if (!dev || !out || i >= dev->n_leakage) return GPURF_EINVAL;
  const gpurf_leakage_point *p = &dev->leakage[i];
  *out = (gpurf_leakage){p->temp_k, p->i_off_n_a_per_m, p->i_off_p_a_per_m, p->i_gate_a_per_m};
  return GPURF_OK;
}
