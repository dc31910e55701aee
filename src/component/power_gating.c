/* Sub-array power gating of an SRAM bank (Jeon et al.'s register file gates
 * sub-arrays that hold no live register; CACTI-P's sleep-transistor view).
 *
 * A gate group is ndbl / gate_groups rows of ndwl sub-arrays, i.e. a range
 * of consecutive words, with its cells and local periphery (decoders,
 * wordline drivers, bitline periphery, sense amplifiers, write and output
 * drivers) on a virtual ground behind one NMOS footer. The bank's routing
 * stays powered, so an idle bank can still be reached.
 *
 * Sizing: while its group is accessed the footer carries the group's
 * switching current, the access energy delivered within the sub-array's own
 * access time; it is made wide enough to hold the virtual ground within
 * SLEEP_DROP of Vdd at that current (a few percent of the supply is the usual
 * budget; the slowdown it causes is not added to the access time).
 *
 * Gated, the group leaks what the off footer lets through. Waking recharges
 * the virtual ground and the group's floating nodes: every cell storage node
 * and every periphery drain (estimated from the leakage it carries) swings
 * once, E = C Vdd^2, and the footer settles the virtual ground to within 5%
 * in ln(20) R C. */
#include <math.h>

#include "component/bank_internal.h"

/* Virtual-ground drop allowed at the access current, as a fraction of Vdd. */
#define SLEEP_DROP 0.05

void bank_power_gating(const bank_in *in, const gpurf_bank_org *org, const subarray_cost *sa,
                       gpurf_bank_cost *c, double *bank_w, double *bank_h) {
  const gc_env *e = &in->env;
  const gpurf_cell_sram *cell = &in->spec->cell->u.sram;
  const int groups = in->spec->gate_groups;
  const double vdd = e->vdd_v, f = e->f_m;
  const double subs = (double)org->ndbl / groups * org->ndwl; /* sub-arrays per group */

  /* Current through one footer while its group serves an access. */
  double e_access = 0.0, t_access = sa->t_decode_s + sa->t_wordline_s + sa->t_bitline_s +
                                    sa->t_sense_s;
  double e_read = 0.0, e_write = 0.0;
  for (int p = 0; p < GPURF_BANK_PART_COUNT; p++) {
    e_read += sa->read_part_j[p];
    e_write += sa->write_part_j[p];
  }
  e_access = org->ndwl * (e_read > e_write ? e_read : e_write);
  double t_write = sa->t_decode_s + sa->t_wordline_s + sa->t_write_s;
  if (e_write > e_read && t_write > 0.0) t_access = t_write;
  double i_on = t_access > 0.0 ? e_access / (vdd * t_access) : 0.0;
  /* On-resistance of an NMOS scales as 1 / width: R x W is a constant. */
  double r_w = gc_inv_r(e, e->w_min_m) * e->w_min_m;
  double w_sleep = i_on * r_w / (SLEEP_DROP * vdd);
  if (w_sleep < e->w_min_m) w_sleep = e->w_min_m;
  double r_sleep = r_w / w_sleep;

  /* Leakage of the group when powered: its sub-arrays entirely. */
  double l_sub = 0.0;
  for (int p = 0; p < GPURF_BANK_PART_COUNT; p++) l_sub += sa->leak_part_w[p];
  double l_domain = subs * (l_sub + sa->gate_leak_w);
  /* The footer is periphery: it leaks as the bank's periphery does. */
  double l_footer = vdd * e->periph_leak_factor * e->i_off_n * w_sleep;

  /* Capacitance that swings on wake-up. Cells: both pull-down drains on the
   * virtual ground and one storage node (pull-down and pull-up drains, the
   * other inverter's gates). Periphery: NMOS drains, their width estimated
   * from the periphery leakage (inverters leak through half their devices). */
  double cells = subs * org->rows * (double)org->cols;
  double wn = cell->w_pulldown_f * f, wp = cell->w_pullup_f * f;
  double c_cell = 2.0 * gpurf_circuit_drain_c_f(e->tech, e->dev, wn) +
                  gpurf_circuit_drain_c_f(e->tech, e->dev, wn) +
                  gpurf_circuit_drain_c_f(e->tech, e->dev, wp) +
                  gpurf_circuit_gate_c_f(e->dev, wn + wp);
  double l_periph = subs * (l_sub - sa->leak_part_w[GPURF_BANK_PART_CELLS]);
  double w_periph = l_periph > 0.0 ? 2.0 * l_periph / (vdd * e->periph_leak_factor * e->i_off_n)
                                   : 0.0;
  double c_periph = gpurf_circuit_drain_c_f(e->tech, e->dev, w_periph);
  /* The virtual-ground rail: one line along every row of cells. */
  double c_rail = subs * org->rows * sa->width_m *
                  e->tech->wires.layer[GPURF_WIRE_LOCAL].c_f_per_m;
  double c_wake = cells * c_cell + c_periph + c_rail;

  double area = groups * gc_gate_area_m2(e, w_sleep, 0.0, 1);
  c->area_part_m2[GPURF_BANK_PART_SLEEP] = area;
  c->leakage_part_w[GPURF_BANK_PART_SLEEP] = 0.0; /* on while powered */
  /* The footers line the bank's bottom edge. */
  if (*bank_w > 0.0) *bank_h += area / *bank_w;

  /* One bank's leakage (totals are summed from the parts later). */
  double bank_leak = c->leakage_gate_w;
  for (int p = 0; p < GPURF_BANK_PART_COUNT; p++) bank_leak += c->leakage_part_w[p];
  double share = bank_leak / groups;
  double gated = share - l_domain + l_footer;
  if (gated < l_footer) gated = l_footer;
  c->gate_groups = groups;
  c->gated_leakage_fraction = share > 0.0 ? (gated < share ? gated / share : 1.0) : 1.0;
  c->wake_energy_j = c_wake * vdd * vdd;
  c->wake_latency_s = log(20.0) * r_sleep * c_wake;
}
