/* Gate-level primitives: on-resistance, gate and drain capacitance, the
 * Horowitz ramp-input delay and the FO4 inverter delay built from them. */
#include <math.h>
#include <string.h>

#include "circuit/blocks.h"
#include "circuit/constants.h"
#include "core/ctx_internal.h"
#include "gpurf/circuit.h"
#include "tech/tech_internal.h"

double gpurf_circuit_horowitz_s(double input_ramp_s, double tau_s, double v_switch,
                                double b) {
  return gc_horowitz_s(input_ramp_s, tau_s, v_switch, b);
}

double gpurf_circuit_r_on_ohm(const gpurf_device *dev, double width_m, int is_pmos) {
  double r_n = dev->r_eff_n_factor * dev->vdd_v / dev->i_on_n_a_per_m; /* ohm m */
  double r = is_pmos ? r_n * dev->n_to_p_drive_ratio : r_n;
  return r / width_m;
}

/* The fringe counts GC_GATE_FRINGE_SIDES times, as in CACTI and NVSim,
 * whose per-node fringe data our tech files carry. */
double gpurf_circuit_gate_c_f(const gpurf_device *dev, double width_m) {
  return (dev->c_gate_f_per_m + dev->c_overlap_f_per_m + GC_GATE_FRINGE_SIDES * dev->c_fringe_f_per_m) *
         width_m;
}

/* Junction area (width x diffusion length), the sidewall facing away from
 * the gate, and the drain-to-gate fringe. The diffusion length of a single
 * contacted drain is the contact plus its spacing to the gate on each side. */
double gpurf_circuit_drain_c_f(const gpurf_tech *tech, const gpurf_device *dev,
                               double width_m) {
  double l_diff = tech->layout.contact_width_m + 2.0 * tech->layout.poly_to_contact_m;
  return dev->c_junction_f_per_m2 * l_diff * width_m +
         dev->c_junction_sidewall_f_per_m * (width_m + 2.0 * l_diff) +
         dev->c_fringe_f_per_m * width_m;
}

/* The PMOS is sized for equal rise and fall (width ratio = drive ratio), so
 * one time constant serves both edges. Each stage sees the previous stage's
 * output ramp (delay / (1 - v_switch)); a few iterations reach the fixed
 * point of a long FO4 chain. The result does not depend on the width. */
double gpurf_circuit_fo4_delay_s(const gpurf_tech *tech, gpurf_device_kind kind) {
  const gpurf_device *dev = &tech->device[kind];
  const double wn = 4.0 * tech->feature_size_m;
  const double wp = wn * dev->n_to_p_drive_ratio;
  const double r = gpurf_circuit_r_on_ohm(dev, wn, 0);
  const double c_load = GC_FO4_FANOUT * gpurf_circuit_gate_c_f(dev, wn + wp) +
                        gpurf_circuit_drain_c_f(tech, dev, wn) +
                        gpurf_circuit_drain_c_f(tech, dev, wp);
  const double tau = r * c_load;
  const double vs = 0.5;
  double delay = tau * GC_LN2_EXACT;
  for (int i = 0; i < 50; i++) {
    double next = gpurf_circuit_horowitz_s(delay / (1.0 - vs), tau, vs, 0.5);
    if (fabs(next - delay) < 1e-6 * delay) {
      delay = next;
      break;
    }
    delay = next;
  }
  return delay;
}

int gpurf_circuit_derive(gpurf_ctx *ctx, const gpurf_tech *tech, gpurf_device_kind kind,
                         double temp_k, gpurf_tech_derived *out) {
  if (!ctx || !tech || !out) return GPURF_EINVAL;
  if ((unsigned)kind >= GPURF_DEVICE_COUNT)
    return gpurf_fail(ctx, GPURF_EINVAL, "unknown device flavour %d", (int)kind);
  gpurf_tech_derived d;
  memset(&d, 0, sizeof d);
  int rc = gpurf_tech_leakage_at(ctx, tech, kind, temp_k, &d.leakage);
  if (rc != GPURF_OK) return rc;
  const gpurf_device *dev = &tech->device[kind];
  d.r_on_n_ohm_m = gpurf_circuit_r_on_ohm(dev, 1.0, 0);
  d.r_on_p_ohm_m = gpurf_circuit_r_on_ohm(dev, 1.0, 1);
  d.c_input_f_per_m = gpurf_circuit_gate_c_f(dev, 1.0);
  /* Per metre of a wide device: the perimeter terms of 2 x l_diff vanish. */
  d.c_drain_f_per_m = gpurf_circuit_drain_c_f(tech, dev, 1.0) -
                      dev->c_junction_sidewall_f_per_m * 2.0 *
                          (tech->layout.contact_width_m + 2.0 * tech->layout.poly_to_contact_m);
  d.fo4_delay_s = gpurf_circuit_fo4_delay_s(tech, kind);
  /* Distributed RC line, step input: 50% point at 0.38 RC (Sakurai 1983, constants.h). */
  for (int w = 0; w < GPURF_WIRE_COUNT; w++) {
    const gpurf_wire_layer *l = &tech->wires.layer[w];
    d.wire_rc_delay_1mm_s[w] = GC_SAKURAI_DISTRIBUTED_RC * (l->r_ohm_per_m * 1e-3) * (l->c_f_per_m * 1e-3);
  }
  *out = d;
  return GPURF_OK;
}
