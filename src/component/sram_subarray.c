/* One SRAM sub-array: rows x cols cells with its row decoder, wordline
 * drivers, bitlines with precharge and column multiplexer, sense amplifiers,
 * write drivers and output drivers. Every port has its own wordlines and
 * bitlines; ports that read have sense amplifiers, ports that write have
 * write drivers. */
#include <math.h>
#include <string.h>

#include "component/bank_internal.h"

/* The bitline keeps discharging while the sense amplifier resolves; the
 * swing at precharge is taken as twice the sense margin, as CACTI does. */
#define BITLINE_SWING_PER_MARGIN 2.0
/* Sense margin: the larger of 5% of Vdd and 80 mV (offset of a latch sense
 * amplifier with process variation), as CACTI and NVSim assume. */
#define SENSE_MARGIN_FRACTION 0.05
#define SENSE_MARGIN_MIN_V 0.08
/* Precharge/equalise: three PMOS per bitline pair; column mux: one pass
 * device per bitline; widths in units of the minimum NMOS width. */
#define PRECHARGE_WIDTH_MIN 4.0
/* Bitline restore: done when the line is within this fraction of the sense
 * margin of its precharge level (CACTI, mat.cc). */
#define RESTORE_RESIDUAL 0.1
#define MUX_WIDTH_MIN 4.0
/* Latch sense amplifier footprint and idle leakage: cross-coupled pair
 * (2 NMOS + 2 PMOS), a tail enable and two isolation devices, each this many
 * minimum widths. Its load, delay and energy come from the node's latch
 * widths (sense_amp_latch). */
#define SENSE_AMP_WIDTH_MIN 2.0

typedef struct port_geom {
  double w_access_m;   /* access device on the bitline */
  double w_stack_m;    /* device in series with it when reading (pull-down) */
  int access_per_cell; /* gates a wordline sees per cell */
  int bitlines;        /* bitlines per column: 2 differential, 1 single-ended */
} port_geom;

static port_geom read_port_geom(const bank_in *in, int is_rw) {
  const gpurf_cell_sram *s = &in->spec->cell->u.sram;
  double f = in->env.f_m;
  port_geom g;
  if (!is_rw && s->w_read_access_f > 0.0) {
    /* Decoupled read stack: one gate per cell, single-ended read bitline. */
    g.w_access_m = s->w_read_access_f * f;
    g.w_stack_m = s->w_read_pulldown_f * f;
    g.access_per_cell = 1;
    g.bitlines = 1;
  } else {
    g.w_access_m = s->w_access_f * f;
    g.w_stack_m = s->w_pulldown_f * f;
    g.access_per_cell = 2;
    g.bitlines = 2;
  }
  return g;
}

static port_geom write_port_geom(const bank_in *in) {
  const gpurf_cell_sram *s = &in->spec->cell->u.sram;
  port_geom g = {s->w_access_f * in->env.f_m, s->w_pulldown_f * in->env.f_m, 2, 2};
  return g;
}

static double sense_margin_v(const gc_env *e) {
  double v = SENSE_MARGIN_FRACTION * e->vdd_v;
  return v > SENSE_MARGIN_MIN_V ? v : SENSE_MARGIN_MIN_V;
}

/* Bit-line latch sense amplifier (CACTI 7, mat.cc Mat::compute_sa_delay):
 * each latch node carries the gates of the cross-coupled pair, the drains of
 * the pair, of the isolation device and of the mux pass device after it.
 * Once enabled, the pair regenerates the input difference v_sense to the full
 * supply with time constant C / gm, gm of the NMOS and PMOS of the pair in
 * saturation ((mu_n / 2) C_ox (W / L_elec) V_dsat, the PMOS at the node's
 * gm_p / gm_n ratio: CACTI technology.cc). Each sensing charges the load
 * once to the supply. The widths are the node's (tech sense_amp w_*_f). */
void sense_amp_latch(const gc_env *e, double v_sense, double *c_load_f, double *delay_s) {
  const gpurf_sense_amp *sa = &e->tech->sense_amp;
  const gpurf_device *d = e->dev;
  double wn = sa->w_sense_n_f * e->f_m, wp = sa->w_sense_p_f * e->f_m;
  double c = gpurf_circuit_gate_c_f(d, wn + wp) + gpurf_circuit_drain_c_f(e->tech, d, wn) +
             gpurf_circuit_drain_c_f(e->tech, d, wp) +
             gpurf_circuit_drain_c_f(e->tech, d, sa->w_iso_f * e->f_m) +
             gpurf_circuit_drain_c_f(e->tech, d, sa->w_mux_f * e->f_m);
  double gm_n = 0.5 * d->mobility_n_m2_per_v_s * d->c_ox_f_per_m2 * (wn / d->l_elec_m) * d->vdsat_v;
  double gm = gm_n * (1.0 + d->gm_p_to_n_ratio);
  *c_load_f = c;
  *delay_s = c / gm * log(e->vdd_v / v_sense);
}

/* Bitline capacitance of one column: half a shared drain contact per cell
 * (c_access_f: the drain of the port's access device), the wire over the
 * column, precharge, mux and (for the selected column) the sense amplifier
 * input. */
static double bitline_c(const bank_in *in, double c_access_f, int rows, int col_mux) {
  const gc_env *e = &in->env;
  const subarray_fixed *k = &in->fixed;
  double c = rows * 0.5 * c_access_f;
  c += rows * in->cell_h_m * e->tech->wires.layer[GPURF_WIRE_LOCAL].c_f_per_m;
  c += k->c_bl_precharge_f;
  if (col_mux > 1) c += k->c_bl_mux_f;
  c += k->c_bl_sense_f;
  return c;
}

/* Row decoder of one port for a sub-array of org->rows wordlines: 2-bit
 * predecode groups, a NAND per row with one input per group, then the
 * wordline driver chain. The predecoder is its mat's (bank_mat): its lines
 * run the mat's decoder column (strip_h per sub-array along it) and feed the
 * NANDs of all the mat's sub-arrays, and the mat's half (upper or lower) is
 * one more address bit it decodes. An access fires the predecoder of each
 * mat it opens once: a sub-array books its share of that energy among the
 * mat's sub-arrays along the wordline, of area and leakage among all. */
static void decoder_eval(const bank_in *in, const gpurf_bank_org *org, double c_wl, double r_wl,
                         double strip_h, subarray_cost *o, int ports) {
  const gc_env *e = &in->env;
  const int rows = org->rows;
  bank_mat mat;
  bank_mat_of(org, &mat);
  /* With whole mats both halves open on the same row address: the
   * predecoder fires once for the mat's four open sub-arrays and decodes no
   * half. */
  const int whole = in->whole_mats && mat.h > 1;
  const double share_e = whole ? 1.0 / mat.subarrays : 1.0 / mat.w, share_a = 1.0 / mat.subarrays;
  int bits = gc_ceil_log2(whole ? rows : rows * mat.h);
  int triple, pairs, single;
  gc_predecode_groups(bits, &triple, &pairs, &single);
  int groups = triple + pairs + single;
  int fanin = groups > 0 ? groups : 1;
  const subarray_fixed *k = &in->fixed;
  double c_nand_in = k->nand_c_in_f[fanin], c_nand_out = k->nand_c_out_f[fanin];
  double nand_area = k->nand_area_m2[fanin], nand_leak = k->nand_leak_w[fanin];

  /* 2-bit groups drive four lines, each feeding a quarter of the mat's
   * row gates; an odd count of bits makes one 3-bit group of eight lines
   * feeding an eighth (gc_predecode_groups). Every line runs the height of
   * the mat's decoder column. One line per group pulses. Each gate sees
   * the ramp of the one before: the row gate the predecode line's, the
   * wordline driver's first stage the row gate's (CACTI 7, decoder.cc
   * Decoder::compute_delays, each stage's horowitz() with the previous
   * stage's output rise time; mat.cc passes the predecoder's output rise
   * time to the row decoder). The driver's input is the minimum
   * inverter's. Sub-arrays of one height in mats of one shape share their
   * predecoder, which the search takes once. */
  const gpurf_wire_layer *lw = &e->tech->wires.layer[GPURF_WIRE_LOCAL];
  double line_h = mat.h * strip_h;
  double c_wire_line = line_h * lw->c_f_per_m, r_line = line_h * lw->r_ohm_per_m;
  double nands = (double)rows * mat.subarrays; /* row gates on the mat's lines */
  gc_predecode pre = gc_predecode_eval(e, bits, nands, c_nand_in, k->c_in_min_f, c_wire_line,
                                       r_line, k->tau_nand_s[fanin], k->t_nand_s[fanin]);
  double t_pre = pre.t_pre_s;
  double e_pre = share_e * pre.energy_j;
  double a_pre = share_a * pre.area_m2;
  double l_pre = share_a * pre.leak_w;
  double t_nand = pre.t_gate_s;
  gc_chain wl = gc_driver_chain(e, k->c_in_min_f, c_wl, r_wl, t_nand / 0.5);
  o->t_decode_s = t_pre + t_nand;
  o->t_row_gate_s = t_nand;
  o->t_wordline_s = wl.delay_s;
  o->wordline_ramp_s = wl.out_ramp_s;
  /* After the access the driver's last NMOS pulls the wordline back down
   * (CACTI's wordline reset in its cycle time, mat.cc). */
  double tf_reset = gc_inv_r(e, wl.last_wn_m) * (gc_inv_drain_c(e, wl.last_wn_m) + c_wl) +
                    0.5 * r_wl * c_wl;
  o->t_wl_reset_s = gc_horowitz_s(0.0, tf_reset, 0.5, 0.5);
  double v2 = e->vdd_v * e->vdd_v;
  double e_dec = e_pre + (c_nand_out + wl.input_c_f) * v2;
  o->read_part_j[GPURF_BANK_PART_DECODER] += e_dec * (in->read_paths > 0 ? 1 : 0);
  o->write_part_j[GPURF_BANK_PART_DECODER] += e_dec;
  o->read_part_j[GPURF_BANK_PART_WORDLINE] += wl.energy_j;
  o->write_part_j[GPURF_BANK_PART_WORDLINE] += wl.energy_j;
  o->area_part_m2[GPURF_BANK_PART_DECODER] += ports * (rows * nand_area + a_pre);
  o->area_part_m2[GPURF_BANK_PART_WORDLINE] += ports * rows * wl.area_m2;
  o->leak_part_w[GPURF_BANK_PART_DECODER] += ports * (rows * nand_leak + l_pre);
  o->leak_part_w[GPURF_BANK_PART_WORDLINE] += ports * rows * wl.leak_w;
  o->gate_leak_w += ports * rows * wl.gate_leak_w;
}

/* Leakage of one cell: in each inverter of the latch one device is off; the
 * access device on the side storing 0 leaks from its precharged bitline;
 * a decoupled read stack leaks through two off devices in series (halved). */
static void cell_leakage(const bank_in *in, double *sub_w, double *gate_w) {
  const gc_env *e = &in->env;
  const gpurf_cell_sram *s = &in->spec->cell->u.sram;
  const gpurf_ports *p = &in->spec->ports;
  double f = e->f_m;
  double i = e->i_off_n * s->w_pulldown_f * f + e->i_off_p * s->w_pullup_f * f;
  i += (p->rw + p->write) * e->i_off_n * s->w_access_f * f;
  for (int k = 0; k < p->read; k++) {
    port_geom g = read_port_geom(in, 0);
    i += g.bitlines == 1 ? 0.5 * e->i_off_n * g.w_access_m : e->i_off_n * g.w_access_m;
  }
  *sub_w = i * e->vdd_v;
  /* Gate tunnelling through the on pull-down and pull-up. */
  *gate_w = e->i_gate * (s->w_pulldown_f + s->w_pullup_f) * f * e->vdd_v;
}

void subarray_prepare(bank_in *in) {
  const gc_env *e = &in->env;
  subarray_fixed *k = &in->fixed;
  k->c_in_min_f = gc_inv_input_c(e, e->w_min_m);
  k->r_nand_ohm = gc_inv_r(e, e->w_min_m) * 1.0;
  for (int fanin = 1; fanin <= DECODER_FANIN_MAX; fanin++) {
    /* NAND with drive equal to the minimum inverter: series NMOS fan-in times wider. */
    double wn_nand = fanin * e->w_min_m, wp_nand = gc_inv_wp(e, e->w_min_m);
    k->nand_c_in_f[fanin] = gpurf_circuit_gate_c_f(e->dev, wn_nand + wp_nand);
    k->nand_c_out_f[fanin] = gpurf_circuit_drain_c_f(e->tech, e->dev, wn_nand) +
                             fanin * gpurf_circuit_drain_c_f(e->tech, e->dev, wp_nand);
    k->nand_area_m2[fanin] = gc_gate_area_m2(e, fanin * wn_nand, fanin * wp_nand, fanin);
    k->nand_leak_w[fanin] = 0.5 * e->vdd_v * e->periph_leak_factor *
                            (e->i_off_n * wn_nand / fanin + e->i_off_p * wp_nand * fanin);
    k->tau_nand_s[fanin] = k->r_nand_ohm * (k->nand_c_out_f[fanin] + k->c_in_min_f);
    k->t_nand_s[fanin] = gc_horowitz_s(0.0, k->tau_nand_s[fanin], 0.5, 0.5);
  }
}

void sram_subarray_prepare(bank_in *in) {
  const gc_env *e = &in->env;
  const gpurf_ports *p = &in->spec->ports;
  const gpurf_wire_layer *local = &e->tech->wires.layer[GPURF_WIRE_LOCAL];
  subarray_fixed *k = &in->fixed;
  subarray_prepare(in);
  cell_leakage(in, &k->cell_sub_w, &k->cell_gate_w);
  port_geom rg = read_port_geom(in, p->rw > 0);
  port_geom wg = write_port_geom(in);
  k->c_wl_per_col_f = rg.access_per_cell * gpurf_circuit_gate_c_f(e->dev, rg.w_access_m) +
                      in->cell_w_m * local->c_f_per_m;
  k->c_bl_access_read_f = gpurf_circuit_drain_c_f(e->tech, e->dev, rg.w_access_m);
  k->c_bl_access_write_f = gpurf_circuit_drain_c_f(e->tech, e->dev, wg.w_access_m);
  k->c_bl_precharge_f = 1.5 * gpurf_circuit_drain_c_f(e->tech, e->dev, PRECHARGE_WIDTH_MIN * e->w_min_m);
  k->c_bl_mux_f = gpurf_circuit_drain_c_f(e->tech, e->dev, MUX_WIDTH_MIN * e->w_min_m);
  /* The isolation device is on while the bitline develops: the latch's
   * load hangs on the bitline. */
  sense_amp_latch(e, sense_margin_v(e), &k->sa_c_load_f, &k->sa_delay_s);
  k->c_bl_sense_f = k->sa_c_load_f;
  k->r_cell_ohm = gpurf_circuit_r_on_ohm(e->dev, rg.w_access_m, 0) +
                  gpurf_circuit_r_on_ohm(e->dev, rg.w_stack_m, 0);
  k->r_mux_ohm = gpurf_circuit_r_on_ohm(e->dev, MUX_WIDTH_MIN * e->w_min_m, 0);
  double vs = sense_margin_v(e);
  k->sense_margin_v = vs;
  k->log_sense = log(e->vdd_v / (e->vdd_v - vs));
  k->log_restore = log((e->vdd_v - RESTORE_RESIDUAL * vs) / (e->vdd_v - vs));
  k->v_overdrive_v = e->vdd_v - e->dev->vth_v;
  k->swing_v = BITLINE_SWING_PER_MARGIN * vs;
  double w_pre = PRECHARGE_WIDTH_MIN * e->w_min_m;
  k->c_pre_gates_f = 3.0 * gpurf_circuit_gate_c_f(e->dev, gc_inv_wp(e, w_pre));
  k->r_pre_ohm = gpurf_circuit_r_on_ohm(e->dev, gc_inv_wp(e, w_pre), 1);
  double sa_w = SENSE_AMP_WIDTH_MIN * e->w_min_m;
  k->sa_width_m = sa_w;
  /* Four NMOS (pair, tail) and three PMOS (pair, ...) in four gate columns. */
  k->sa_area_m2 = gc_gate_area_m2(e, 4.0 * sa_w, 3.0 * sa_w, 4);
  k->pre_area_m2 = gc_gate_area_m2(e, 0.0, 3.0 * gc_inv_wp(e, w_pre), 3);
  k->mux_area_m2 = gc_gate_area_m2(e, 2.0 * MUX_WIDTH_MIN * e->w_min_m, 0.0, 2);
  k->c_mux_sel_f = gpurf_circuit_gate_c_f(e->dev, 2.0 * MUX_WIDTH_MIN * e->w_min_m);
  k->read_bitlines = rg.bitlines;
  k->bitlines_per_col = (p->rw + p->write) * 2 + p->read * rg.bitlines;
}

int sram_subarray_eval(const bank_in *in, const gpurf_bank_org *org, subarray_cost *o) {
  const gc_env *e = &in->env;
  subarray_cost_clear(o);
  const int rows = org->rows, cols = org->cols, mux = org->col_mux;
  const int groups = cols / mux; /* sensed/written bits per sub-array */
  const double v2 = e->vdd_v * e->vdd_v;
  const double array_w = cols * in->cell_w_m, array_h = rows * in->cell_h_m;
  const gpurf_wire_layer *local = &e->tech->wires.layer[GPURF_WIRE_LOCAL];

  const subarray_fixed *k = &in->fixed;

  /* Cells. */
  double cell_sub = k->cell_sub_w, cell_gate = k->cell_gate_w;
  o->area_part_m2[GPURF_BANK_PART_CELLS] = array_w * array_h;
  o->leak_part_w[GPURF_BANK_PART_CELLS] = (double)rows * cols * cell_sub;
  o->gate_leak_w += (double)rows * cols * cell_gate;

  /* Wordline and decoder, for each port. A read uses one read port's
   * decoder; a write one write port's. The decoder strip is as tall as the array. */
  double c_wl = cols * k->c_wl_per_col_f;
  double r_wl = cols * in->cell_w_m * local->r_ohm_per_m;
  decoder_eval(in, org, c_wl, r_wl, array_h, o, in->wordline_ports);

  /* Bitlines: the read. Every column on the open row discharges. */
  double c_bl = bitline_c(in, k->c_bl_access_read_f, rows, mux);
  double r_cell = k->r_cell_ohm;
  double r_mux = mux > 1 ? k->r_mux_ohm : 0.0;
  double r_bl_wire = rows * in->cell_h_m * local->r_ohm_per_m;
  double tau_bl = (r_cell + r_mux + 0.5 * r_bl_wire) * c_bl;
  /* A slowly rising wordline turns the cell on gradually: the step-input
   * delay is corrected for the wordline slope m (Horowitz's ramp analysis,
   * as in CACTI's bitline model). */
  double t_step = tau_bl * k->log_sense;
  double m = e->vdd_v / (o->wordline_ramp_s > 0.0 ? o->wordline_ramp_s : 1e-15);
  double vov = k->v_overdrive_v;
  o->t_bitline_s = t_step <= 0.5 * vov / m ? sqrt(2.0 * t_step * vov / m) : t_step + vov / (2.0 * m);
  double swing = k->swing_v;
  double c_pre_gates = k->c_pre_gates_f;
  /* The precharge/equalise enable: a driver chain into every column's
   * precharge gates and the line across the sub-array, which toggles on
   * every access (its gates, its wire and the chain's own stages: CACTI
   * charges the same driver, mat.cc bl_precharge_eq_drv). */
  gc_chain pre_drv = gc_driver_chain(e, k->c_in_min_f,
                                     cols * c_pre_gates + array_w * local->c_f_per_m,
                                     array_w * local->r_ohm_per_m, 0.0);
  /* Only the column the mux selects reaches a sense amplifier: the others
   * swing without its load. */
  double c_bl_open = c_bl - k->c_bl_sense_f;
  o->read_part_j[GPURF_BANK_PART_BITLINE] =
      (groups * c_bl + (cols - groups) * c_bl_open) * swing * e->vdd_v + pre_drv.energy_j;
  /* Precharge: an enable line across the sub-array turns on every
   * column's precharge and equaliser, which restore the swing through the
   * precharge PMOS and half the bitline wire. The read left the line one
   * sense margin below the precharge level; it is restored to a tenth of
   * that, at the rate of the device fully on (CACTI's SRAM restore, mat.cc:
   * ln((V_pre - 0.1 V_sense) / (V_pre - V_sense)) (R_pre + R_bl / 2) C_bl). */
  double r_pre = k->r_pre_ohm;
  o->t_precharge_s = k->log_restore * (r_pre + 0.5 * r_bl_wire) * c_bl;
  o->t_precharge_drv_s = pre_drv.delay_s;

  /* Sense amplifiers: one latch per mux group per read port. */
  o->t_sense_s = k->sa_delay_s;
  o->read_part_j[GPURF_BANK_PART_SENSE_AMP] = groups * k->sa_c_load_f * v2;
  double sa_w = k->sa_width_m, sa_area = k->sa_area_m2;
  o->area_part_m2[GPURF_BANK_PART_SENSE_AMP] = in->read_paths * groups * sa_area;
  /* An idle latch sense amplifier has its tail off: leakage of the stack. */
  o->leak_part_w[GPURF_BANK_PART_SENSE_AMP] =
      in->read_paths * groups * e->vdd_v * e->periph_leak_factor * e->i_off_n * sa_w;

  /* Precharge and column multiplexer footprint, per bitline of every port. */
  int bitlines_per_col = k->bitlines_per_col;
  double pre_area = k->pre_area_m2;
  double mux_area = mux > 1 ? k->mux_area_m2 : 0.0;
  o->area_part_m2[GPURF_BANK_PART_BITLINE] = cols * 0.5 * bitlines_per_col * (pre_area + mux_area);
  if (mux > 1) {
    double c_sel = groups * k->c_mux_sel_f +
                   array_w * local->c_f_per_m;
    o->read_part_j[GPURF_BANK_PART_BITLINE] += c_sel * v2;
    o->write_part_j[GPURF_BANK_PART_BITLINE] += c_sel * v2;
  }

  /* Writes: the driver pulls one bitline of each written column to ground;
   * the other columns on the open row see a read-like discharge. */
  double c_bl_w = bitline_c(in, k->c_bl_access_write_f, rows, mux);
  gc_chain wd = gc_driver_chain_effort(e, k->c_in_min_f, c_bl_w, r_bl_wire, 0.0,
                                       GC_STAGE_EFFORT_LEAN);
  /* The bitline's own charge is booked to the bitline, the driver's stages
   * to the driver (a model without write drivers still charges the line). */
  o->write_part_j[GPURF_BANK_PART_WRITE_DRIVER] = groups * (wd.energy_j - c_bl_w * v2);
  o->write_part_j[GPURF_BANK_PART_BITLINE] += groups * c_bl_w * v2;
  o->write_part_j[GPURF_BANK_PART_BITLINE] +=
      (cols - groups) * (c_bl_w - k->c_bl_sense_f) * swing * e->vdd_v + pre_drv.energy_j;
  o->area_part_m2[GPURF_BANK_PART_WRITE_DRIVER] = in->write_paths * groups * 2.0 * wd.area_m2;
  o->leak_part_w[GPURF_BANK_PART_WRITE_DRIVER] = in->write_paths * groups * 2.0 * wd.leak_w;
  o->gate_leak_w += in->write_paths * groups * 2.0 * wd.gate_leak_w;
  /* The cell flips once its node crosses the trip point: the driver's
   * discharge of the bitline dominates. */
  o->t_write_s = wd.delay_s;

  /* Sub-array footprint: the decoder strip beside the array, the column
   * periphery below it, pitch-matched. */
  double dec_area = o->area_part_m2[GPURF_BANK_PART_DECODER] + o->area_part_m2[GPURF_BANK_PART_WORDLINE];
  double col_area = o->area_part_m2[GPURF_BANK_PART_BITLINE] + o->area_part_m2[GPURF_BANK_PART_SENSE_AMP] +
                    o->area_part_m2[GPURF_BANK_PART_WRITE_DRIVER];
  o->width_m = array_w + dec_area / array_h;
  o->height_m = array_h + col_area / array_w;
  return GPURF_OK;
}

void subarray_row_decoder(const bank_in *in, const gpurf_bank_org *org, double c_wl, double r_wl,
                          double strip_h_m, subarray_cost *o, int ports) {
  decoder_eval(in, org, c_wl, r_wl, strip_h_m, o, ports);
}
