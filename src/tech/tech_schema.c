/* The schema of tech/<node>.yaml: keys, types and physical ranges. The bounds
 * are wide enough for any CMOS node from 180 nm down to a few nanometres and
 * reject what cannot be physical (negative capacitance, Vdd above 5 V). */
#include "tech/tech_internal.h"

#include <string.h>

#define REQ YS_REQUIRED
#define POS (YS_REQUIRED | YS_MIN_EXCLUSIVE)

static const ys_field leakage_fields[] = {
    YS_DBL(gpurf_leakage_point, temp_k, 0.0, 1000.0, POS),
    YS_DBL(gpurf_leakage_point, i_off_n_a_per_m, 0.0, 1.0e4, POS),
    YS_DBL(gpurf_leakage_point, i_off_p_a_per_m, 0.0, 1.0e4, POS),
    YS_DBL(gpurf_leakage_point, i_gate_a_per_m, 0.0, 1.0e4, REQ),
    YS_TABLE_END};

static const ys_field device_fields[] = {
    YS_STR(gpurf_device, source, REQ),
    YS_DBL(gpurf_device, vdd_v, 0.0, 5.0, POS),
    YS_DBL(gpurf_device, vth_v, 0.0, 2.0, POS),
    YS_DBL(gpurf_device, vdsat_v, 0.0, 5.0, POS),
    YS_DBL(gpurf_device, l_phy_m, 0.0, 1.0e-6, POS),
    YS_DBL(gpurf_device, l_elec_m, 0.0, 1.0e-6, POS),
    YS_DBL(gpurf_device, t_ox_m, 0.0, 1.0e-7, POS),
    YS_DBL(gpurf_device, c_ox_f_per_m2, 0.0, 1.0, POS),
    YS_DBL(gpurf_device, mobility_n_m2_per_v_s, 0.0, 1.0, POS),
    YS_DBL(gpurf_device, c_gate_f_per_m, 0.0, 1.0e-8, POS),
    YS_DBL(gpurf_device, c_fringe_f_per_m, 0.0, 1.0e-8, REQ),
    YS_DBL(gpurf_device, c_overlap_f_per_m, 0.0, 1.0e-8, REQ),
    YS_DBL(gpurf_device, c_junction_f_per_m2, 0.0, 1.0, REQ),
    YS_DBL(gpurf_device, c_junction_sidewall_f_per_m, 0.0, 1.0e-8, REQ),
    YS_DBL(gpurf_device, i_on_n_a_per_m, 0.0, 1.0e5, POS),
    YS_DBL(gpurf_device, i_on_p_a_per_m, 0.0, 1.0e5, POS),
    YS_DBL(gpurf_device, r_eff_n_factor, 0.0, 10.0, POS),
    YS_DBL(gpurf_device, n_to_p_drive_ratio, 0.0, 10.0, POS),
    YS_DBL(gpurf_device, gm_p_to_n_ratio, 0.0, 10.0, POS),
    YS_DBL(gpurf_device, long_channel_leakage_factor, 0.0, 1.0, POS),
    YS_LISTF("leakage", gpurf_device, leakage, gpurf_leakage_point, n_leakage, 2,
             GPURF_TECH_MAX_TEMPS, leakage_fields, REQ),
    YS_TABLE_END};

static const ys_field devices_fields[] = {
    YS_MAPF("hp", gpurf_tech, device[GPURF_DEVICE_HP], device_fields, REQ),
    YS_MAPF("lstp", gpurf_tech, device[GPURF_DEVICE_LSTP], device_fields, REQ),
    YS_MAPF("lop", gpurf_tech, device[GPURF_DEVICE_LOP], device_fields, REQ),
    YS_TABLE_END};

static const ys_field wire_layer_fields[] = {
    YS_DBL(gpurf_wire_layer, pitch_m, 0.0, 1.0e-4, POS),
    YS_DBL(gpurf_wire_layer, r_ohm_per_m, 0.0, 1.0e12, POS),
    YS_DBL(gpurf_wire_layer, c_f_per_m, 0.0, 1.0e-8, POS),
    YS_DBL(gpurf_wire_layer, bus_r_ohm_per_m, 0.0, 1.0e12, POS),
    YS_DBL(gpurf_wire_layer, bus_c_f_per_m, 0.0, 1.0e-8, POS),
    YS_TABLE_END};

static const ys_field wires_fields[] = {
    YS_STR(gpurf_wires, source, REQ),
    YS_MAPF("local", gpurf_wires, layer[GPURF_WIRE_LOCAL], wire_layer_fields, REQ),
    YS_MAPF("semi_global", gpurf_wires, layer[GPURF_WIRE_SEMI_GLOBAL], wire_layer_fields, REQ),
    YS_MAPF("global", gpurf_wires, layer[GPURF_WIRE_GLOBAL], wire_layer_fields, REQ),
    YS_TABLE_END};

static const ys_field layout_fields[] = {
    YS_STR(gpurf_layout, source, REQ),
    YS_DBL(gpurf_layout, contact_width_m, 0.0, 1.0e-6, POS),
    YS_DBL(gpurf_layout, poly_to_contact_m, 0.0, 1.0e-6, POS),
    YS_DBL(gpurf_layout, poly_to_poly_m, 0.0, 1.0e-6, POS),
    YS_TABLE_END};

static const ys_field sense_fields[] = {
    YS_STR(gpurf_sense_amp, source, REQ),
    YS_DBL(gpurf_sense_amp, delay_s, 0.0, 1.0e-6, POS),
    YS_DBL(gpurf_sense_amp, energy_j, 0.0, 1.0e-9, POS),
    YS_DBL(gpurf_sense_amp, w_sense_n_f, 0.0, 100.0, POS),
    YS_DBL(gpurf_sense_amp, w_sense_p_f, 0.0, 100.0, POS),
    YS_DBL(gpurf_sense_amp, w_sense_en_f, 0.0, 100.0, POS),
    YS_DBL(gpurf_sense_amp, w_iso_f, 0.0, 100.0, POS),
    YS_DBL(gpurf_sense_amp, w_mux_f, 0.0, 100.0, POS),
    YS_TABLE_END};

/* The devices mapping decodes straight into gpurf_tech (its field offsets are
 * relative to the tech), so it is described with offset 0. */
const ys_field gpurf_tech_schema[] = {
    YS_STR(gpurf_tech, name, REQ),
    YS_DBL(gpurf_tech, feature_size_m, 1.0e-9, 1.0e-6, REQ),
    {"devices", YS_MAP, REQ, 0, 0, 0, 0, NULL, devices_fields, 0, 0, 0, YS_NO_FLAG},
    YS_MAPF("wires", gpurf_tech, wires, wires_fields, REQ),
    YS_MAPF("layout", gpurf_tech, layout, layout_fields, REQ),
    YS_MAPF("sense_amp", gpurf_tech, sense_amp, sense_fields, REQ),
    YS_TABLE_END};

int gpurf_tech_check(ys_doc *doc, const gpurf_tech *t) {
  for (int k = 0; k < GPURF_DEVICE_COUNT; k++) {
    const gpurf_device *d = &t->device[k];
    if (d->vth_v >= d->vdd_v)
      return ys_fail_value(doc, &d->vth_v, GPURF_ERANGE,
                           "threshold %g V is not below the supply %g V", d->vth_v,
                           d->vdd_v);
    if (d->l_elec_m > d->l_phy_m * 1.5)
      return ys_fail_value(doc, &d->l_elec_m, GPURF_ERANGE,
                           "electrical gate length %g m exceeds 1.5x the physical %g m",
                           d->l_elec_m, d->l_phy_m);
    for (size_t i = 0; i < d->n_leakage; i++) {
      const gpurf_leakage_point *p = &d->leakage[i];
      if (i > 0 && p->temp_k <= d->leakage[i - 1].temp_k)
        return ys_fail_value(doc, &p->temp_k, GPURF_ERANGE,
                             "temperatures must increase down the table (%g K after %g K)",
                             p->temp_k, d->leakage[i - 1].temp_k);
      if (p->i_off_n_a_per_m >= d->i_on_n_a_per_m)
        return ys_fail_value(doc, &p->i_off_n_a_per_m, GPURF_ERANGE,
                             "off-current %g A/m is not below the on-current %g A/m",
                             p->i_off_n_a_per_m, d->i_on_n_a_per_m);
      if (p->i_off_p_a_per_m >= d->i_on_p_a_per_m)
        return ys_fail_value(doc, &p->i_off_p_a_per_m, GPURF_ERANGE,
                             "off-current %g A/m is not below the on-current %g A/m",
                             p->i_off_p_a_per_m, d->i_on_p_a_per_m);
    }
  }
  for (int w = 1; w < GPURF_WIRE_COUNT; w++) {
    if (t->wires.layer[w].pitch_m < t->wires.layer[w - 1].pitch_m)
      return ys_fail_value(doc, &t->wires.layer[w].pitch_m, GPURF_ERANGE,
                           "pitch %g m is finer than the layer below (%g m)",
                           t->wires.layer[w].pitch_m, t->wires.layer[w - 1].pitch_m);
  }
  return GPURF_OK;
}

/* Every scalar parameter, with the scale it is interpolated on. Off and gate
 * currents vary exponentially with the node (threshold and oxide scaling),
 * and wire resistance as a power of the cross-section: log scale for those. */
#define DEV(k, m, lg) {#m, offsetof(gpurf_tech, device[k].m), lg}
#define DEVICE_PARAMS(k)                                                     \
  DEV(k, vdd_v, 0), DEV(k, vth_v, 0), DEV(k, vdsat_v, 0), DEV(k, l_phy_m, 0), \
  DEV(k, l_elec_m, 0), DEV(k, t_ox_m, 0), DEV(k, c_ox_f_per_m2, 0),           \
  DEV(k, mobility_n_m2_per_v_s, 0), DEV(k, c_gate_f_per_m, 0),                \
  DEV(k, c_fringe_f_per_m, 0), DEV(k, c_overlap_f_per_m, 0),                  \
  DEV(k, c_junction_f_per_m2, 0), DEV(k, c_junction_sidewall_f_per_m, 0),     \
  DEV(k, i_on_n_a_per_m, 0), DEV(k, i_on_p_a_per_m, 0),                       \
  DEV(k, r_eff_n_factor, 0), DEV(k, n_to_p_drive_ratio, 0),                   \
  DEV(k, gm_p_to_n_ratio, 0), DEV(k, long_channel_leakage_factor, 0)
#define WIRE(w, m, lg) {#m, offsetof(gpurf_tech, wires.layer[w].m), lg}
#define WIRE_PARAMS(w)                                                        \
  WIRE(w, pitch_m, 0), WIRE(w, r_ohm_per_m, 1), WIRE(w, c_f_per_m, 0),          \
  WIRE(w, bus_r_ohm_per_m, 1), WIRE(w, bus_c_f_per_m, 0)

static const tech_interp_param all_params[] = {
    DEVICE_PARAMS(GPURF_DEVICE_HP),
    DEVICE_PARAMS(GPURF_DEVICE_LSTP),
    DEVICE_PARAMS(GPURF_DEVICE_LOP),
    WIRE_PARAMS(GPURF_WIRE_LOCAL),
    WIRE_PARAMS(GPURF_WIRE_SEMI_GLOBAL),
    WIRE_PARAMS(GPURF_WIRE_GLOBAL),
    {"contact_width_m", offsetof(gpurf_tech, layout.contact_width_m), 0},
    {"poly_to_contact_m", offsetof(gpurf_tech, layout.poly_to_contact_m), 0},
    {"poly_to_poly_m", offsetof(gpurf_tech, layout.poly_to_poly_m), 0},
    {"delay_s", offsetof(gpurf_tech, sense_amp.delay_s), 0},
    {"energy_j", offsetof(gpurf_tech, sense_amp.energy_j), 1},
    {"w_sense_n_f", offsetof(gpurf_tech, sense_amp.w_sense_n_f), 0},
    {"w_sense_p_f", offsetof(gpurf_tech, sense_amp.w_sense_p_f), 0},
    {"w_sense_en_f", offsetof(gpurf_tech, sense_amp.w_sense_en_f), 0},
    {"w_iso_f", offsetof(gpurf_tech, sense_amp.w_iso_f), 0},
    {"w_mux_f", offsetof(gpurf_tech, sense_amp.w_mux_f), 0},
};

const tech_interp_param *tech_interp_params(size_t *count) {
  *count = sizeof all_params / sizeof all_params[0];
  return all_params;
}
