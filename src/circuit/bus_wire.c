/* Repeated bus wires between banks, built the way CACTI 7 builds the wires
 * of its H-trees (wire.cc): the layer drawn narrow (the tech file's bus_r and
 * bus_c), repeaters first sized and spaced for the least delay, then the
 * Global_30 trade: among larger spacings and smaller repeaters whose delay
 * stays within 30% of that optimum, the one with the least sum of dynamic
 * energy and leakage, each relative to the delay optimum's. Per metre, so
 * every link of a tree scales it by its length. Computed for every layer at
 * every env set-up, so the search is a closed form per spacing. */
#include <math.h>
#include <string.h>

#include "circuit/blocks.h"

/* Spacings searched: the optimum up to four times it (CACTI's range). */
#define BUS_SPACING_MAX 4.0
#define BUS_SPACING_STEPS 120

/* Repeaters drive long wires at speed: minimum-length devices, so their
 * leakage is the nominal device's even where the bank's periphery uses
 * long-channel ones (CACTI's repeater leakage is the nominal device's too). */
static double bus_leak_w(const gc_env *e, double wn) {
  return 0.5 * e->vdd_v * (e->i_off_n + e->i_off_p * e->dev->n_to_p_drive_ratio) * wn;
}

typedef struct bus_point {
  double delay_s_per_m, energy_j_per_m, leak_w_per_m;
} bus_point;

/* One repeated stage of size h (minimum inverters) every s metres of a line
 * of r ohm/m and c F/m: Elmore delay of the driver into its own drain, the
 * segment and the next repeater, and the distributed segment itself. */
static bus_point bus_eval(const gc_env *e, double r, double c, double h, double s) {
  const double r0 = e->r0_ohm, c0 = e->c0_f, c0d = e->c0d_f;
  bus_point p;
  double tau = GC_LN2_RC * ((r0 / h) * (h * (c0d + c0) + c * s) + r * s * h * c0) +
               GC_SAKURAI_DISTRIBUTED_RC * r * c * s * s;
  p.delay_s_per_m = tau / s;
  /* Switching, plus the short-circuit current while a repeater's input
   * slews: 65 uA per um of NMOS width for about ln 3 stage time constants
   * (Banerjee and Mehrotra, IEEE TED 49(11), 2002, as CACTI's wire model). */
  double e_sc = e->vdd_v * GC_SHORT_CIRCUIT_A_PER_M * h * e->w_min_m * GC_LN3 * tau;
  p.energy_j_per_m = ((c * s + h * (c0 + c0d)) * e->vdd_v * e->vdd_v + e_sc) / s;
  p.leak_w_per_m = bus_leak_w(e, h * e->w_min_m) / s;
  return p;
}

void gc_bus_plan(const gc_env *e, gpurf_wire_kind layer, gc_repeater_plan *out) {
  const gpurf_wire_layer *l = &e->tech->wires.layer[layer];
  const double r = l->bus_r_ohm_per_m, c = l->bus_c_f_per_m;
  const double r0 = e->r0_ohm, c0 = e->c0_f, c0d = e->c0d_f;
  /* Bakoglu's least-delay size and spacing for this stage model. */
  double h_opt = sqrt(r0 * c / (r * c0));
  double s_opt = sqrt(GC_LN2_RC * r0 * (c0 + c0d) / (GC_SAKURAI_DISTRIBUTED_RC * r * c));
  if (h_opt < 1.0) h_opt = 1.0;
  bus_point opt = bus_eval(e, r, c, h_opt, s_opt);
  /* Per metre the delay is k + a / h + b h at spacing s; energy and leakage
   * grow with h (the short-circuit term with h times the stage time, which
   * grows too), so at each spacing the best size is the smallest one within
   * the bound: the smaller root of b h^2 - (bound - k) h + a = 0. */
  const double bound = GC_REPEATER_DELAY_SLACK * opt.delay_s_per_m;
  const double a = GC_LN2_RC * r0 * c, b = GC_LN2_RC * r * c0;
  double best = INFINITY, best_h = h_opt, best_s = s_opt;
  for (int i = 0; i <= BUS_SPACING_STEPS; i++) {
    double s = s_opt * (1.0 + (BUS_SPACING_MAX - 1.0) * i / BUS_SPACING_STEPS);
    double k = (GC_LN2_RC * r0 * (c0 + c0d) + GC_SAKURAI_DISTRIBUTED_RC * r * c * s * s) / s;
    double slack = bound - k, disc = slack * slack - 4.0 * a * b;
    if (slack <= 0.0 || disc < 0.0) continue;
    double h = (slack - sqrt(disc)) / (2.0 * b);
    if (h < 1.0) h = 1.0;
    if (h > h_opt) h = h_opt;
    bus_point p = bus_eval(e, r, c, h, s);
    if (p.delay_s_per_m > bound * (1.0 + 1e-9)) continue;
    double cost = p.energy_j_per_m / opt.energy_j_per_m + p.leak_w_per_m / opt.leak_w_per_m;
    if (cost < best) {
      best = cost;
      best_h = h;
      best_s = s;
    }
  }
  bus_point p = bus_eval(e, r, c, best_h, best_s);
  double wn = best_h * e->w_min_m;
  memset(out, 0, sizeof *out);
  out->spacing_m = best_s;
  out->size = best_h;
  out->delay_s_per_m = p.delay_s_per_m;
  out->cap_f_per_m = p.energy_j_per_m / (e->vdd_v * e->vdd_v);
  out->leak_w_per_m = p.leak_w_per_m;
  out->gate_leak_w_per_m = gc_inv_gate_leak_w(e, wn) / best_s;
  out->area_m2_per_m = gc_inv_area_m2(e, wn) / best_s;
}
