/* Device footprints, inverters, logical-effort driver chains and wires. */
#include "circuit/blocks.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"

static void plan_repeaters(const gc_env *e, gpurf_wire_kind layer, gc_repeater_plan *out);

int gc_env_init(gpurf_ctx *ctx, gc_env *e, const gpurf_tech *tech, gpurf_device_kind kind,
                double temp_k, int long_channel_periphery) {
  gpurf_leakage l;
  int rc = gpurf_tech_leakage_at(ctx, tech, kind, temp_k, &l);
  if (rc != GPURF_OK) return rc;
  memset(e, 0, sizeof *e);
  e->tech = tech;
  e->dev = &tech->device[kind];
  e->f_m = tech->feature_size_m;
  e->vdd_v = e->dev->vdd_v;
  e->i_off_n = l.i_off_n_a_per_m;
  e->i_off_p = l.i_off_p_a_per_m;
  e->i_gate = l.i_gate_a_per_m;
  e->w_min_m = GPURF_MIN_NMOS_WIDTH_F * e->f_m;
  e->periph_leak_factor = long_channel_periphery ? e->dev->long_channel_leakage_factor : 1.0;
  e->fo4_s = gpurf_circuit_fo4_delay_s(tech, kind);
  e->log_effort_fast = log(GC_STAGE_EFFORT_FAST);
  e->log_effort_lean = log(GC_STAGE_EFFORT_LEAN);
  /* Drain of a device of width w: w (c_j l_diff + c_sw + c_fringe) + 2 c_sw l_diff;
   * an inverter has one of width wn and one of width ratio x wn. */
  const gpurf_device *d = e->dev;
  const double ratio = d->n_to_p_drive_ratio;
  const double l_diff = tech->layout.contact_width_m + 2.0 * tech->layout.poly_to_contact_m;
  e->inv_c_in_per_m = gpurf_circuit_gate_c_f(d, 1.0) * (1.0 + ratio);
  e->inv_c_d_per_m = (d->c_junction_f_per_m2 * l_diff + d->c_junction_sidewall_f_per_m +
                      d->c_fringe_f_per_m) * (1.0 + ratio);
  e->inv_c_d_fixed = 4.0 * d->c_junction_sidewall_f_per_m * l_diff;
  e->inv_r_ohm_m = d->r_eff_n_factor * d->vdd_v / d->i_on_n_a_per_m;
  e->inv_leak_per_m = 0.5 * e->vdd_v * e->periph_leak_factor * (e->i_off_n + e->i_off_p * ratio);
  e->inv_gleak_per_m = 0.5 * e->vdd_v * e->i_gate * (1.0 + ratio);
  e->r0_ohm = gc_inv_r(e, e->w_min_m);
  e->c0_f = gc_inv_input_c(e, e->w_min_m);
  e->c0d_f = gc_inv_drain_c(e, e->w_min_m);
  /* The repeater plans use the inverter coefficients above. A bus plan is
   * a search of its own that only the wiring between banks reads, so it is
   * made on request (gc_env_plan_bus); until then every figure is NaN, which
   * no result can take unnoticed. */
  for (int k = 0; k < GPURF_WIRE_COUNT; k++) {
    plan_repeaters(e, (gpurf_wire_kind)k, &e->repeaters[k]);
    gc_repeater_plan *b = &e->bus[k];
    b->spacing_m = b->size = b->delay_s_per_m = b->cap_f_per_m = NAN;
    b->leak_w_per_m = b->gate_leak_w_per_m = b->area_m2_per_m = NAN;
  }
  return GPURF_OK;
}

void gc_env_plan_bus(gc_env *e, gpurf_wire_kind layer) { gc_bus_plan(e, layer, &e->bus[layer]); }

/* Length along the channel direction: gate plus a contacted diffusion
 * (contact and its spacing to the gate) on each side. Width grows with w plus
 * the diffusion overlap of the contacts (one contact width). */
double gc_transistor_area_m2(const gc_env *e, double w_m) {
  const gpurf_layout *lay = &e->tech->layout;
  double len = e->dev->l_phy_m + 2.0 * (lay->contact_width_m + lay->poly_to_contact_m);
  return (w_m + lay->contact_width_m) * len;
}

/* Inline for the driver chains, which take an inverter's footprint per
 * stage of every chain they size. */
static inline double gate_area(const gc_env *e, double wn_m, double wp_m, int fingers) {
  const gpurf_layout *lay = &e->tech->layout;
  double fold = GC_MAX_FOLD_F * e->f_m;
  /* A device no wider than a fold is one fold (0 < w / fold <= 1), and a
   * width divided by one fold is itself: the divisions are taken only where
   * they can give something else, which in the small early stages of every
   * driver chain they cannot. */
  int folds_n = wn_m > 0.0 ? (wn_m <= fold ? 1 : (int)gc_ceil(wn_m / fold)) : 0;
  int folds_p = wp_m > 0.0 ? (wp_m <= fold ? 1 : (int)gc_ceil(wp_m / fold)) : 0;
  int folds = folds_n > folds_p ? folds_n : folds_p;
  if (folds < 1) folds = 1;
  double h = (wn_m > 0.0 ? (folds == 1 ? wn_m : wn_m / folds) : 0.0) +
             (wp_m > 0.0 ? (folds == 1 ? wp_m : wp_m / folds) : 0.0) +
             (wn_m > 0.0 && wp_m > 0.0 ? GC_NP_GAP_F * e->f_m : 0.0) +
             2.0 * GC_POWER_RAIL_F * e->f_m;
  double poly_pitch = e->dev->l_phy_m + lay->contact_width_m + 2.0 * lay->poly_to_contact_m;
  double w = fingers * folds * poly_pitch + lay->contact_width_m + 2.0 * lay->poly_to_contact_m;
  return h * w;
}

double gc_gate_area_m2(const gc_env *e, double wn_m, double wp_m, int fingers) {
  return gate_area(e, wn_m, wp_m, fingers);
}

double gc_inv_area_m2(const gc_env *e, double wn_m) {
  return gate_area(e, wn_m, gc_inv_wp(e, wn_m), 1);
}

gc_latch gc_latch_min(const gc_env *e) {
  gc_latch l;
  double w = e->w_min_m, wp = gc_inv_wp(e, w);
  /* Two inverters and two transmission gates: four N and four P devices. */
  l.area_m2 = gc_gate_area_m2(e, 4.0 * w, 4.0 * wp, 4);
  l.c_d_f = gpurf_circuit_gate_c_f(e->dev, w) + gpurf_circuit_drain_c_f(e->tech, e->dev, w);
  l.c_en_f = 2.0 * gpurf_circuit_gate_c_f(e->dev, w + wp);
  l.c_int_f = 2.0 * (gc_inv_input_c(e, w) + gc_inv_drain_c(e, w));
  l.leak_w = 2.0 * gc_inv_leak_w(e, w);
  l.gate_leak_w = 2.0 * gc_inv_gate_leak_w(e, w);
  return l;
}

gc_mux2 gc_mux2_min(const gc_env *e) {
  gc_mux2 m;
  double w = e->w_min_m, wp = gc_inv_wp(e, w);
  m.area_m2 = gc_gate_area_m2(e, 3.0 * w, 3.0 * wp, 3);
  m.c_in_f = gpurf_circuit_drain_c_f(e->tech, e->dev, w) +
             gpurf_circuit_drain_c_f(e->tech, e->dev, wp);
  /* Select drives one gate of each gate pair and the select inverter. */
  m.c_sel_f = 2.0 * gpurf_circuit_gate_c_f(e->dev, w + wp);
  m.c_out_f = 2.0 * m.c_in_f;
  /* N and P of a transmission gate in parallel. */
  double rn = gpurf_circuit_r_on_ohm(e->dev, w, 0), rp = gpurf_circuit_r_on_ohm(e->dev, wp, 1);
  m.r_ohm = rn * rp / (rn + rp);
  m.leak_w = gc_inv_leak_w(e, w) + 0.5 * e->vdd_v * e->periph_leak_factor *
                                       (e->i_off_n * w + e->i_off_p * wp);
  return m;
}

gc_chain_memo *gc_chain_memo_alloc(void) {
  gc_chain_memo *m = malloc(sizeof *m);
  if (m) gc_chain_memo_clear(m);
  return m;
}

void gc_chain_memo_clear(gc_chain_memo *memo) {
  memset(memo->used, 0, sizeof memo->used);
  memo->pre_used = 0;
}

static gc_predecode predecode(const gc_env *e, int bits, double gates, double c_gate,
                              double c_in, double c_wire, double r_wire, double tau_gate,
                              double t_gate_step_s) {
  gc_predecode r = {0};
  if (bits > 0) {
    int triple, pairs, single;
    gc_predecode_groups(bits, &triple, &pairs, &single);
    /* A kind of group the address does not have weighs nothing: its chain
     * is left unsized (zero). */
    gc_chain p8 = {0}, p4 = {0}, p2 = {0};
    if (triple) p8 = gc_driver_chain(e, c_in, (gates / 8.0) * c_gate + c_wire, r_wire, 0.0);
    if (pairs) p4 = gc_driver_chain(e, c_in, (gates / 4.0) * c_gate + c_wire, r_wire, 0.0);
    if (single) p2 = gc_driver_chain(e, c_in, (gates / 2.0) * c_gate + c_wire, r_wire, 0.0);
    /* The row gate waits for the slowest line. */
    const gc_chain *slow = pairs ? &p4 : triple ? &p8 : &p2;
    if (triple && p8.delay_s > slow->delay_s) slow = &p8;
    if (single && p2.delay_s > slow->delay_s) slow = &p2;
    r.t_pre_s = slow->delay_s;
    r.ramp_pre_s = slow->out_ramp_s;
    r.energy_j = triple * p8.energy_j + pairs * p4.energy_j + single * p2.energy_j;
    r.area_m2 = triple * 8.0 * p8.area_m2 + pairs * 4.0 * p4.area_m2 + single * 2.0 * p2.area_m2;
    r.leak_w = triple * 8.0 * p8.leak_w + pairs * 4.0 * p4.leak_w + single * 2.0 * p2.leak_w;
  }
  r.t_gate_s = r.ramp_pre_s > 0.0 ? gc_horowitz_s(r.ramp_pre_s, tau_gate, 0.5, 0.5) : t_gate_step_s;
  return r;
}

gc_predecode gc_predecode_eval(const gc_env *e, int bits, double gates, double c_gate,
                               double c_in, double c_wire, double r_wire, double tau_gate,
                               double t_gate_step_s) {
  gc_chain_memo *m = e->memo;
  if (!m) return predecode(e, bits, gates, c_gate, c_in, c_wire, r_wire, tau_gate, t_gate_step_s);
  const uint64_t key[8] = {(uint64_t)bits,         gc_memo_word(gates),   gc_memo_word(c_gate),
                           gc_memo_word(c_in),     gc_memo_word(c_wire),  gc_memo_word(r_wire),
                           gc_memo_word(tau_gate), gc_memo_word(t_gate_step_s)};
  uint64_t h = key[1] * 0x9E3779B97F4A7C15ull + key[4] * 0xC2B2AE3D27D4EB4Full +
               (key[0] ^ key[2]) * 0x165667B19E3779F9ull;
  size_t i = (size_t)((h ^ (h >> 29)) >> 58) % GC_PREDECODE_SLOTS;
  gc_predecode_slot *sl = &m->pre[i];
  if ((m->pre_used >> i & 1u) && memcmp(sl->key, key, sizeof key) == 0) return sl->p;
  sl->p = predecode(e, bits, gates, c_gate, c_in, c_wire, r_wire, tau_gate, t_gate_step_s);
  memcpy(sl->key, key, sizeof key);
  m->pre_used |= 1ull << i;
  return sl->p;
}

void gc_chain_memo_free(gc_chain_memo *memo) { free(memo); }

/* Sizes a chain; with tau_s, also each stage's time constant (up to
 * GC_MEMO_STAGES of them) and the stage count in *stages. */
static gc_chain driver_chain(const gc_env *e, double c_in_f, double c_load_f, double r_wire_ohm,
                             double input_ramp_s, double stage_effort, double *tau_s,
                             int *stages);

gc_chain gc_chain_memo_fill(const gc_env *e, size_t i, double c_in_f, double c_load_f,
                            double r_wire_ohm, double input_ramp_s, double stage_effort) {
  if (!e->memo)
    return driver_chain(e, c_in_f, c_load_f, r_wire_ohm, input_ramp_s, stage_effort, NULL, NULL);
  gc_memo_slot *slot = &e->memo->slot[i];
  int n = 0;
  gc_chain ch = driver_chain(e, c_in_f, c_load_f, r_wire_ohm, input_ramp_s, stage_effort,
                             slot->tau_s, &n);
  /* Too many stages for the slot: its time constants are incomplete, and
   * those of the chain it held are overwritten, so it is left empty. */
  if (n > GC_MEMO_STAGES) {
    e->memo->used[i / 64] &= ~(1ull << (i % 64));
    return ch;
  }
  slot->chain = ch;
  slot->stages = n;
  slot->key[0] = gc_memo_word(c_in_f);
  slot->key[1] = gc_memo_word(c_load_f);
  slot->key[2] = gc_memo_word(r_wire_ohm);
  slot->key[3] = gc_memo_word(stage_effort);
  slot->ramp = gc_memo_word(input_ramp_s);
  e->memo->used[i / 64] |= 1ull << (i % 64);
  return ch;
}

/* The delay loop of driver_chain over the stored time constants. */
gc_chain gc_chain_memo_reramp(const gc_env *e, size_t i, double input_ramp_s) {
  gc_memo_slot *slot = &e->memo->slot[i];
  double delay = 0.0, ramp = input_ramp_s;
  for (int k = 0; k < slot->stages; k++) {
    double d = gc_horowitz_s(ramp, slot->tau_s[k], 0.5, 0.5);
    delay += d;
    ramp = d / 0.5;
  }
  slot->chain.delay_s = delay;
  slot->chain.out_ramp_s = ramp;
  slot->ramp = gc_memo_word(input_ramp_s);
  return slot->chain;
}

/* Stage count from the path effort with a target stage effort (4 for
 * gc_driver_chain: Sutherland, Sproull and Harris, "Logical Effort", 1999). */
static gc_chain driver_chain(const gc_env *e, double c_in_f, double c_load_f, double r_wire_ohm,
                             double input_ramp_s, double stage_effort, double *tau_s,
                             int *stages) {
  gc_chain ch;
  memset(&ch, 0, sizeof ch);
  double c_min = gc_inv_input_c(e, e->w_min_m);
  if (c_in_f < c_min) c_in_f = c_min;
  double h = c_load_f / c_in_f;
  /* The logarithm of the two efforts in use is taken once per node. */
  double log_effort = stage_effort == GC_STAGE_EFFORT_FAST   ? e->log_effort_fast
                      : stage_effort == GC_STAGE_EFFORT_LEAN ? e->log_effort_lean
                                                             : log(stage_effort);
  int n = h > 1.0 ? (int)floor(log(h) / log_effort + 0.5) : 1;
  if (n < 1) n = 1;
  if (stages) *stages = n;
  /* One stage drives the load itself: the step-up is never taken. */
  double f = n > 1 ? pow(h > 1.0 ? h : 1.0, 1.0 / n) : 1.0;
  double wn = e->w_min_m * (c_in_f / c_min);
  double ramp = input_ramp_s;
  ch.input_c_f = c_in_f;
  for (int i = 0; i < n; i++) {
    double c_next = (i == n - 1) ? c_load_f : gc_inv_input_c(e, wn * f);
    double r = gc_inv_r(e, wn);
    double c_self = gc_inv_drain_c(e, wn);
    /* The last stage also drives the wire's resistance (Elmore, load at the end). */
    double tau = r * (c_self + c_next) + (i == n - 1 ? r_wire_ohm * c_load_f * 0.5 : 0.0);
    if (tau_s && i < GC_MEMO_STAGES) tau_s[i] = tau;
    double d = gc_horowitz_s(ramp, tau, 0.5, 0.5);
    ch.delay_s += d;
    ramp = d / 0.5;
    ch.energy_j += (c_self + c_next) * e->vdd_v * e->vdd_v;
    ch.leak_w += gc_inv_leak_w(e, wn);
    ch.gate_leak_w += gc_inv_gate_leak_w(e, wn);
    ch.area_m2 += gc_inv_area_m2(e, wn);
    ch.last_wn_m = wn;
    wn *= f;
  }
  ch.out_ramp_s = ramp;
  return ch;
}

static void plan_repeaters(const gc_env *e, gpurf_wire_kind layer, gc_repeater_plan *out) {
  const gpurf_wire_layer *l = &e->tech->wires.layer[layer];
  double r = l->r_ohm_per_m, c = l->c_f_per_m;
  double r0 = e->r0_ohm, c0 = e->c0_f, c0d = e->c0d_f;
  /* Bakoglu's minimum-delay size and spacing. */
  double h_opt = sqrt(r0 * c / (r * c0));
  double s_opt = sqrt(2.0 * GC_LN2_RC * r0 * (c0 + c0d) / (2.0 * GC_SAKURAI_DISTRIBUTED_RC * r * c));
  if (h_opt < 1.0) h_opt = 1.0;
  double d_opt = gc_repeated_delay_per_m(e, r, c, h_opt, s_opt);
  /* Fewer, smaller repeaters: least switched capacitance within 30%. */
  static const double size_frac[] = {1.0, 0.8, 0.65, 0.5, 0.4, 0.3, 0.25};
  static const double space_mult[] = {1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0};
  double best_c = INFINITY;
  for (size_t i = 0; i < sizeof size_frac / sizeof size_frac[0]; i++) {
    for (size_t j = 0; j < sizeof space_mult / sizeof space_mult[0]; j++) {
      double h = h_opt * size_frac[i], sp = s_opt * space_mult[j];
      if (h < 1.0) continue;
      double d = gc_repeated_delay_per_m(e, r, c, h, sp);
      double cap = c + h * (c0 + c0d) / sp;
      if (d <= GC_REPEATER_DELAY_SLACK * d_opt && cap < best_c) {
        best_c = cap;
        out->spacing_m = sp;
        out->size = h;
        out->delay_s_per_m = d;
        out->cap_f_per_m = cap;
      }
    }
  }
  double wn = e->w_min_m * out->size;
  out->leak_w_per_m = gc_inv_leak_w(e, wn) / out->spacing_m;
  out->gate_leak_w_per_m = gc_inv_gate_leak_w(e, wn) / out->spacing_m;
  out->area_m2_per_m = gc_inv_area_m2(e, wn) / out->spacing_m;
}
