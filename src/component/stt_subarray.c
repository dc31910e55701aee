/* One STT-RAM sub-array: rows x cols 1T1MTJ cells with the SRAM row decoder
 * and wordline drivers, bitlines (and source lines) with a column
 * multiplexer, a read path sensing the cell by voltage (a read current in,
 * the bitline voltage out) or by current (a read voltage in, a
 * current-to-voltage stage and a latch), write drivers sized for the
 * switching current and a data latch holding the written word for the
 * pulse. The cell leaks nothing (the MTJ is non-volatile and its access
 * device sits between two grounded lines when idle); the periphery leaks as
 * in SRAM. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "component/bank_internal.h"
#include "core/ctx_internal.h"

/* Column devices in units of the minimum NMOS width, as the SRAM sub-array
 * draws them: a discharge device per line (the STT bitline idles at ground
 * rather than precharged high), a pass device per line in the column mux,
 * and a latch sense amplifier of devices this many minimum widths. */
#define DISCHARGE_WIDTH_MIN 4.0
#define MUX_WIDTH_MIN 4.0
#define SENSE_AMP_WIDTH_MIN 2.0
/* The write driver's last stage is sized so that at the switching current it
 * drops no more than this share of the supply (the rest is left for the cell,
 * its access device and the line). */
#define WRITE_DRIVER_DROP_SHARE 0.1

/* NVSim's current-to-voltage converter (the facts behind its current-sense
 * read, SEAL-UCSB/NVSim, as summarised in the project's modelling notes): a
 * fixed latency per node, 1.45 ns at 22 nm, 1.07 ns at 32 nm, 0.80 ns at
 * 45 nm; 0.15 pJ and 50,000 F^2 per amplifier at 22 nm. */
static const double iv_node_m[] = {22e-9, 32e-9, 45e-9};
static const double iv_latency_s[] = {1.45e-9, 1.07e-9, 0.80e-9};
#define IV_ENERGY_22_J 0.15e-12
#define IV_AREA_F2 50000.0
#define IV_REF_F_M 22e-9
/* The supply at which the 22 nm energy holds: the 22 nm hp device's. */
#define IV_REF_VDD_V 0.8

int stt_check_node(gpurf_ctx *ctx, const bank_in *in) {
  const gpurf_cell_stt *c = &in->spec->cell->u.stt;
  double f = in->env.f_m;
  if (c->read_mode == GPURF_STT_READ_CURRENT && (f < iv_node_m[0] * (1 - 1e-9) ||
                                                 f > iv_node_m[2] * (1 + 1e-9)))
    return gpurf_fail(ctx, GPURF_EUNSUPPORTED,
                      "bank: current sensing of %s needs the current-to-voltage converter, "
                      "whose latency is known at 22, 32 and 45 nm only; %.3g nm is outside "
                      "22-45 nm (voltage sensing works at every node)",
                      in->spec->cell->name, f * 1e9);
  return GPURF_OK;
}

/* Latency between the known nodes: linear in log(latency) over log(F), the
 * way the three points fall (about F^-0.8). stt_check_node keeps F inside. */
static double iv_latency(double f_m) {
  int i = f_m <= iv_node_m[1] ? 0 : 1;
  double t = (log(f_m) - log(iv_node_m[i])) / (log(iv_node_m[i + 1]) - log(iv_node_m[i]));
  return exp(log(iv_latency_s[i]) + t * (log(iv_latency_s[i + 1]) - log(iv_latency_s[i])));
}

/* Energy scales as switched capacitance (with F) times the supply squared. */
static double iv_energy(const gc_env *e) {
  return IV_ENERGY_22_J * (e->f_m / IV_REF_F_M) * (e->vdd_v * e->vdd_v) /
         (IV_REF_VDD_V * IV_REF_VDD_V);
}

/* Read margin, headroom and the bitline voltage of the two states. Returns
 * 0 when the read works, else writes why into o->reject. */
typedef struct read_point {
  double v_on, v_off;  /* bitline (or converter output) voltage of each state */
  double margin_v;     /* their difference at the sense amplifier */
  double v_bl;         /* average bitline voltage during the read */
} read_point;

static int read_point_eval(const bank_in *in, double r_series, read_point *rp,
                           subarray_cost *o) {
  const gc_env *e = &in->env;
  const gpurf_cell_stt *c = &in->spec->cell->u.stt;
  double headroom = e->vdd_v - e->dev->vdsat_v;
  if (c->read_mode == GPURF_STT_READ_VOLTAGE) {
    /* A current source (kept in saturation) forces read_current_a through
     * the line, the access device and the MTJ. */
    rp->v_on = c->read_current_a * (c->r_on_ohm + r_series);
    rp->v_off = c->read_current_a * (c->r_off_ohm + r_series);
    rp->v_bl = 0.5 * (rp->v_on + rp->v_off);
    if (rp->v_off > headroom) {
      snprintf(o->reject, sizeof o->reject,
               "read current %.3g uA through %.0f ohm needs %.3g V, above the %.3g V the "
               "current source can give", c->read_current_a * 1e6, c->r_off_ohm + r_series,
               rp->v_off, headroom);
      return 1;
    }
  } else {
    /* The bitline is clamped at read_voltage_v; the converter mirrors the
     * cell current into a load equal to the reference path (midway between
     * the states), so its output differs by dI x R_ref between them. */
    double i_on = c->read_voltage_v / (c->r_on_ohm + r_series);
    double i_off = c->read_voltage_v / (c->r_off_ohm + r_series);
    double r_ref = 0.5 * (c->r_on_ohm + c->r_off_ohm) + r_series;
    rp->v_on = i_on * r_ref;
    rp->v_off = i_off * r_ref;
    rp->v_bl = c->read_voltage_v;
    if (c->read_voltage_v > headroom) {
      snprintf(o->reject, sizeof o->reject, "read voltage %.3g V is above the %.3g V headroom",
               c->read_voltage_v, headroom);
      return 1;
    }
  }
  rp->margin_v = fabs(rp->v_on - rp->v_off);
  if (!(rp->margin_v > c->min_sense_voltage_v)) {
    snprintf(o->reject, sizeof o->reject,
             "read margin %.3g mV (%.0f ohm in series with the MTJ) is not above "
             "min_sense_voltage_v %.3g mV", rp->margin_v * 1e3, r_series,
             c->min_sense_voltage_v * 1e3);
    return 1;
  }
  return 0;
}

/* Write energy and supply of one transition starting from resistance r_from. */
static double write_voltage(const gc_env *e, double i_a, double r_from, double r_series,
                            double drop_v) {
  /* The driver must push the switching current through the cell in its old
   * state plus the line, and the access device drops drop_v at that current:
   * below the supply the driver runs from Vdd, above it from a boosted write
   * supply of just that voltage. */
  double v = i_a * (r_from + r_series) + drop_v;
  return v > e->vdd_v ? v : e->vdd_v;
}

int stt_subarray_eval(const bank_in *in, const gpurf_bank_org *org, subarray_cost *o) {
  const gc_env *e = &in->env;
  const gpurf_cell_stt *c = &in->spec->cell->u.stt;
  subarray_cost_clear(o);
  const int rows = org->rows, cols = org->cols, mux = org->col_mux;
  const int groups = cols / mux; /* bits sensed or written per sub-array */
  const double v2 = e->vdd_v * e->vdd_v;
  const double array_w = cols * in->cell_w_m, array_h = rows * in->cell_h_m;
  const gpurf_wire_layer *local = &e->tech->wires.layer[GPURF_WIRE_LOCAL];
  const double w_acc = c->access_width_f * e->f_m;

  o->area_part_m2[GPURF_BANK_PART_CELLS] = array_w * array_h;

  /* One wordline per row, one access gate per cell on it. */
  double c_wl = cols * (gpurf_circuit_gate_c_f(e->dev, w_acc) + in->cell_w_m * local->c_f_per_m);
  double r_wl = cols * in->cell_w_m * local->r_ohm_per_m;
  subarray_row_decoder(in, org, c_wl, r_wl, array_h, o, 1);

  /* The write driver's last stage is sized for the switching current; so is
   * the column multiplexer's pass device, which carries the same current. */
  double i_w = c->set_current_a > c->reset_current_a ? c->set_current_a : c->reset_current_a;
  double wn_last = gpurf_circuit_r_on_ohm(e->dev, 1.0, 0) * i_w /
                   (WRITE_DRIVER_DROP_SHARE * e->vdd_v);
  if (wn_last < e->w_min_m) wn_last = e->w_min_m;
  double w_mux = MUX_WIDTH_MIN * e->w_min_m > wn_last ? MUX_WIDTH_MIN * e->w_min_m : wn_last;

  /* Bitline of one column: half a shared drain per cell, the wire, the
   * discharge device, the mux pass device and the sense amplifier input. */
  double c_bl = rows * 0.5 * gpurf_circuit_drain_c_f(e->tech, e->dev, w_acc) +
                rows * in->cell_h_m * local->c_f_per_m +
                gpurf_circuit_drain_c_f(e->tech, e->dev, DISCHARGE_WIDTH_MIN * e->w_min_m) +
                gpurf_circuit_gate_c_f(e->dev, SENSE_AMP_WIDTH_MIN * e->w_min_m);
  if (mux > 1) c_bl += gpurf_circuit_drain_c_f(e->tech, e->dev, w_mux);
  double r_line = rows * in->cell_h_m * local->r_ohm_per_m;
  double r_mux = mux > 1 ? gpurf_circuit_r_on_ohm(e->dev, w_mux, 0) : 0.0;
  double r_acc = gpurf_circuit_r_on_ohm(e->dev, w_acc, 0);
  double r_series = r_acc + r_line + r_mux;

  read_point rp;
  if (read_point_eval(in, r_series, &rp, o)) {
    /* Name the organisation in the message. */
    char why[2 * SUBARRAY_REJECT_MAX];
    snprintf(why, sizeof why, "%d x %d sub-array: %s", rows, cols, o->reject);
    memcpy(o->reject, why, SUBARRAY_REJECT_MAX - 1);
    o->reject[SUBARRAY_REJECT_MAX - 1] = '\0';
    return GPURF_OK;
  }

  /* Bitline development. Voltage sensing: the read current charges the
   * line towards v_off through the cell path; the states are told apart once
   * the slower (high-resistance) one is within half the margin of its final
   * voltage. Current sensing: the clamp holds the line, which settles through
   * its own distributed resistance loaded by the cell (the delay NVSim uses,
   * tau = R_line C_bl / 2 x (R_off + R_line / 3) / (R_off + R_line)), to
   * within a tenth. Either way the cell conducts once the wordline passes the
   * threshold. */
  double t_wl_on = o->wordline_ramp_s * e->dev->vth_v / e->vdd_v;
  if (c->read_mode == GPURF_STT_READ_VOLTAGE) {
    double tau = (c->r_off_ohm + r_series) * c_bl;
    o->t_bitline_s = t_wl_on + tau * log(2.0 * rp.v_off / rp.margin_v);
  } else {
    double tau = 0.5 * r_line * c_bl * (c->r_off_ohm + r_line / 3.0) / (c->r_off_ohm + r_line);
    o->t_bitline_s = t_wl_on + tau * log(10.0);
  }
  /* Sensing: a latch sense amplifier, after the converter when sensing by
   * current; it resolves the cell's minimum sense voltage (NVSim's
   * SenseAmp: the latch charged C Vdd^2, regenerating in C / gm ln(Vdd /
   * V_sense), as the SRAM sub-array's). */
  double sa_w = SENSE_AMP_WIDTH_MIN * e->w_min_m;
  double sa_area = gc_gate_area_m2(e, 4.0 * sa_w, 3.0 * sa_w, 4);
  double sa_c, sa_t;
  sense_amp_latch(e, c->min_sense_voltage_v, &sa_c, &sa_t);
  double e_sense = sa_c * v2;
  o->t_sense_s = sa_t;
  if (c->read_mode == GPURF_STT_READ_CURRENT) {
    o->t_sense_s += iv_latency(e->f_m);
    e_sense += iv_energy(e);
    sa_area += IV_AREA_F2 * e->f_m * e->f_m;
  }
  o->read_part_j[GPURF_BANK_PART_SENSE_AMP] = groups * e_sense;
  o->area_part_m2[GPURF_BANK_PART_SENSE_AMP] = groups * sa_area;
  /* An idle sense amplifier (and converter) is disabled: the tail device leaks. */
  o->leak_part_w[GPURF_BANK_PART_SENSE_AMP] =
      groups * e->vdd_v * e->periph_leak_factor * e->i_off_n * sa_w;

  /* Read energy per sensed column: the cell and the reference cell conduct
   * at the cell's read power for the whole sensing window, and the line is
   * charged to its read voltage from the supply. Unselected columns of the
   * open row are not driven and draw nothing. */
  double t_window = o->t_bitline_s + o->t_sense_s;
  o->read_part_j[GPURF_BANK_PART_CELLS] = groups * 2.0 * c->read_power_w * t_window;
  o->read_part_j[GPURF_BANK_PART_BITLINE] = groups * c_bl * rp.v_bl * e->vdd_v;
  double r_dis = gpurf_circuit_r_on_ohm(e->dev, DISCHARGE_WIDTH_MIN * e->w_min_m, 0);
  o->t_precharge_s = GC_LN10_RC * r_dis * c_bl;
  if (mux > 1) {
    double c_sel = cols * 2.0 * gpurf_circuit_gate_c_f(e->dev, w_mux) / mux +
                   array_w * local->c_f_per_m;
    o->read_part_j[GPURF_BANK_PART_BITLINE] += c_sel * v2;
    o->write_part_j[GPURF_BANK_PART_BITLINE] += c_sel * v2;
  }
  /* Column devices: bitline and source line each have a discharge device
   * and a mux pass device. */
  double dis_area = gc_gate_area_m2(e, DISCHARGE_WIDTH_MIN * e->w_min_m, 0.0, 1);
  double mux_area = mux > 1 ? gc_gate_area_m2(e, w_mux, 0.0, 1) : 0.0;
  o->area_part_m2[GPURF_BANK_PART_BITLINE] = cols * 2.0 * (dis_area + mux_area);
  o->leak_part_w[GPURF_BANK_PART_BITLINE] = 0.0; /* lines idle at ground: no drain bias */

  /* Writes. Set (to the low-resistance state) starts from r_off, reset from
   * r_on. Random data over random data: half the bits are set and half
   * reset, so a bit costs the mean of the two (NVSim charges the larger). */
  double v_set = write_voltage(e, c->set_current_a, c->r_off_ohm, r_line + r_mux,
                               c->access_drop_v);
  double v_reset = write_voltage(e, c->reset_current_a, c->r_on_ohm, r_line + r_mux,
                                 c->access_drop_v);
  double e_set = c->has_set_energy ? c->set_energy_j : v_set * c->set_current_a * c->set_pulse_s;
  double e_reset =
      c->has_reset_energy ? c->reset_energy_j : v_reset * c->reset_current_a * c->reset_pulse_s;
  o->write_part_j[GPURF_BANK_PART_CELLS] = groups * 0.5 * (e_set + e_reset);
  o->write_part_j[GPURF_BANK_PART_BITLINE] +=
      groups * 0.5 * c_bl * (v_set * v_set + v_reset * v_reset);
  /* Drivers on the bitline and the source line (the current flows either way):
   * a chain of lean stages into a last stage wide enough for the current. */
  gc_chain pre = gc_driver_chain_effort(e, gc_inv_input_c(e, e->w_min_m),
                                        gc_inv_input_c(e, wn_last), 0.0, 0.0,
                                        GC_STAGE_EFFORT_LEAN);
  double c_last_out = gc_inv_drain_c(e, wn_last) + c_bl;
  double t_drv = pre.delay_s + gpurf_circuit_horowitz_s(
                                   pre.out_ramp_s, (gc_inv_r(e, wn_last) + r_line) * c_last_out,
                                   0.5, 0.5);
  double drv_area = pre.area_m2 + gc_inv_area_m2(e, wn_last);
  double drv_leak = pre.leak_w + gc_inv_leak_w(e, wn_last);
  /* One of the two drivers of a written column switches per write. */
  o->write_part_j[GPURF_BANK_PART_WRITE_DRIVER] = groups * (pre.energy_j + gc_inv_drain_c(e, wn_last) * v2);
  /* The data latch holds the written bit for the pulse, which outlasts the
   * cycle, so the data bus is free for other banks: its enable pulses and
   * half its bits change with random data. */
  gc_latch lat = gc_latch_min(e);
  o->write_part_j[GPURF_BANK_PART_WRITE_DRIVER] +=
      groups * (lat.c_en_f + 0.5 * (lat.c_d_f + lat.c_int_f)) * v2;
  o->area_part_m2[GPURF_BANK_PART_WRITE_DRIVER] = groups * (2.0 * drv_area + lat.area_m2);
  o->leak_part_w[GPURF_BANK_PART_WRITE_DRIVER] = groups * (2.0 * drv_leak + lat.leak_w);
  o->gate_leak_w +=
      groups * (2.0 * (pre.gate_leak_w + gc_inv_gate_leak_w(e, wn_last)) + lat.gate_leak_w);
  double pulse = c->set_pulse_s > c->reset_pulse_s ? c->set_pulse_s : c->reset_pulse_s;
  o->t_write_s = t_drv + pulse;

  /* Footprint: decoder strip beside the array, column periphery below it. */
  double dec_area = o->area_part_m2[GPURF_BANK_PART_DECODER] + o->area_part_m2[GPURF_BANK_PART_WORDLINE];
  double col_area = o->area_part_m2[GPURF_BANK_PART_BITLINE] + o->area_part_m2[GPURF_BANK_PART_SENSE_AMP] +
                    o->area_part_m2[GPURF_BANK_PART_WRITE_DRIVER];
  o->width_m = array_w + dec_area / array_h;
  o->height_m = array_h + col_area / array_w;
  return GPURF_OK;
}
