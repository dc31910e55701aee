/* The operand crossbar between banks and collectors.
 *
 * Matrix style (the bit-sliced layout of Jing et al.'s bank-stealing RF,
 * after the bit-sliced switches it cites): bit b of every port meets in one
 * slice, an N x M grid of tri-state crosspoints with a local decoder per
 * output turning an encoded select into crosspoint enables and a driver per
 * output. The W slices sit in a square array. Input bits enter on horizontal
 * wires from the left and right edges (each half of a slice row is fed from
 * its nearer edge) and outputs leave on vertical wires to the top and bottom
 * edges, the two directions on two metal layers. The channel of a slice row
 * must hold the wires of every slice between it and the edge, so with wide
 * ports the array is set by wire tracks at pitch rather than by its gates.
 *
 * Mux style, for comparison: each output has a block of W trees of 2:1
 * transmission-gate multiplexers (restored by an inverter every two levels);
 * all N input buses run past every block, so the channel holds N x W tracks.
 *
 * Energy follows one transfer: the input's W wires from the edge driver to
 * the switch, the switch, and the output wires to the edge, with every node
 * charged `activity` x C Vdd^2. Select lines and decoders are counted the
 * same way. Delay is the farthest bit's path; selects settle during
 * arbitration, before data arrive. */
#include <math.h>
#include <string.h>

#include "component/comp_internal.h"
#include "core/ctx_internal.h"

static const char *const style_names[GPURF_XBAR_STYLE_COUNT] = {"matrix", "mux"};
static const char *const part_names[GPURF_XBAR_PART_COUNT] = {"wires", "switches", "drivers",
                                                              "control"};

/* Beyond these a request is a typo, not an on-chip crossbar. */
#define XBAR_MAX_PORTS 1024
#define XBAR_MAX_WIDTH 65536

int gpurf_xbar_style_parse(const char *name, gpurf_xbar_style *out) {
  for (int i = 0; i < GPURF_XBAR_STYLE_COUNT; i++)
    if (name && strcmp(name, style_names[i]) == 0) {
      *out = (gpurf_xbar_style)i;
      return GPURF_OK;
    }
  return GPURF_EINVAL;
}

const char *gpurf_xbar_style_name(gpurf_xbar_style s) {
  return (unsigned)s < GPURF_XBAR_STYLE_COUNT ? style_names[s] : "?";
}

const char *gpurf_xbar_part_name(gpurf_xbar_part p) {
  return (unsigned)p < GPURF_XBAR_PART_COUNT ? part_names[p] : "?";
}

void gpurf_xbar_spec_init(gpurf_xbar_spec *s) {
  memset(s, 0, sizeof *s);
  s->device = GPURF_DEVICE_HP;
  s->style = GPURF_XBAR_MATRIX;
  s->activity = 0.25;
  s->temp_k = GPURF_DEFAULT_TEMP_K;
  s->wire_layer = GPURF_WIRE_SEMI_GLOBAL;
}

/* A tri-state inverter of minimum drive: data and enable devices in series
 * in both stacks. */
typedef struct tristate {
  double area_m2, c_data_f, c_en_f, c_out_f, r_ohm, leak_w, gate_leak_w;
} tristate;

static tristate tristate_min(const gc_env *e) {
  tristate t;
  double wn = 2.0 * e->w_min_m, wp = 2.0 * gc_inv_wp(e, e->w_min_m);
  t.area_m2 = gc_gate_area_m2(e, 2.0 * wn, 2.0 * wp, 2);
  t.c_data_f = gpurf_circuit_gate_c_f(e->dev, wn + wp);
  t.c_en_f = gpurf_circuit_gate_c_f(e->dev, wn + wp);
  t.c_out_f = gpurf_circuit_drain_c_f(e->tech, e->dev, wn) +
              gpurf_circuit_drain_c_f(e->tech, e->dev, wp);
  t.r_ohm = gc_inv_r(e, e->w_min_m);
  /* Disabled: both stacks hold an off device (two in series, about half). */
  t.leak_w = 0.5 * e->vdd_v * e->periph_leak_factor * 0.5 * (e->i_off_n * wn + e->i_off_p * wp);
  t.gate_leak_w = 0.5 * e->vdd_v * e->i_gate * 2.0 * (wn + wp);
  return t;
}

/* A driver chain from a minimum inverter into a wire of length len on the
 * crossbar's layer ending in c_end; the wire is repeated when that is faster.
 * Returns the delay and fills the switched energy (one full charge), leakage
 * and area of chain and repeaters. */
typedef struct drive {
  double delay_s, chain_s, energy_j, leak_w, gate_leak_w, area_m2, c_in_f;
} drive;

static drive drive_wire(const gc_env *e, gpurf_wire_kind layer, double len, double c_end) {
  drive d;
  const gpurf_wire_layer *l = &e->tech->wires.layer[layer];
  double c_min = gc_inv_input_c(e, e->w_min_m);
  gc_wire w = gc_wire_eval(e, layer, len, gc_inv_r(e, GC_PORT_LOAD_MIN * e->w_min_m), c_end);
  double c_first = w.repeaters > 0 ? gc_inv_input_c(e, GC_PORT_LOAD_MIN * e->w_min_m) : l->c_f_per_m * len + c_end;
  gc_chain ch = gc_driver_chain(e, c_min, c_first, w.repeaters > 0 ? 0.0 : l->r_ohm_per_m * len, 0.0);
  if (w.repeaters > 0) {
    d.delay_s = ch.delay_s + w.delay_s;
    d.energy_j = ch.energy_j + w.energy_j;
  } else {
    /* The chain's last stage already charges the wire and the load. */
    d.delay_s = ch.delay_s + GC_SAKURAI_DISTRIBUTED_RC * l->r_ohm_per_m * len * l->c_f_per_m * len +
                GC_LN2_RC * l->r_ohm_per_m * len * c_end;
    d.energy_j = ch.energy_j;
  }
  d.chain_s = ch.delay_s;
  d.leak_w = ch.leak_w + w.leak_w;
  d.gate_leak_w = ch.gate_leak_w;
  d.area_m2 = ch.area_m2 + w.area_m2;
  d.c_in_f = c_min;
  return d;
}

/* Totals from the parts: the common record's area, leakage and transfer. */
static void finish(gpurf_xbar_cost *c) {
  gpurf_component_cost *b = &c->base;
  double energy_j = 0.0, delay_s = 0.0;
  b->kind = "xbar";
  b->area_m2 = b->leakage_sub_w = 0.0;
  b->n_parts = GPURF_XBAR_PART_COUNT;
  for (int p = 0; p < GPURF_XBAR_PART_COUNT; p++) {
    b->part_name[p] = gpurf_xbar_part_name((gpurf_xbar_part)p);
    b->area_m2 += b->area_part_m2[p];
    energy_j += c->transfer_part_j[p];
    delay_s += c->delay_part_s[p];
    b->leakage_sub_w += c->leakage_part_w[p];
  }
  b->access_time_s = delay_s;
  comp_cost_event(b, GPURF_EV_TRANSFER, energy_j, delay_s);
}

static void eval_matrix(const gpurf_xbar_spec *s, const gc_env *e, gpurf_xbar_cost *c) {
  const int n = s->inputs, m = s->outputs, w = s->width_bits;
  const double v2 = e->vdd_v * e->vdd_v, a = s->activity;
  const gpurf_wire_layer *wl = &e->tech->wires.layer[s->wire_layer];
  const double pitch = wl->pitch_m, c_local = e->tech->wires.layer[GPURF_WIRE_LOCAL].c_f_per_m;
  const int sx = (int)ceil(sqrt((double)w)), sy = (w + sx - 1) / sx;
  const int hx = (sx + 1) / 2, hy = (sy + 1) / 2; /* slices between an edge and the middle */
  const int sel = comp_bits_for(n) > 0 ? comp_bits_for(n) : 1;
  tristate xp = tristate_min(e);
  logic_gate g = logic_nand2(e);

  /* One slice: crosspoints, a decoder and an output driver per output. */
  logic_sum dec = {0};
  logic_add_gates(&dec, &g, (double)logic_decoder_gates(n), 1.0);
  double c_port = gc_inv_input_c(e, GC_PORT_LOAD_MIN * e->w_min_m);
  /* Size the output driver for the worst output wire, found from a first
   * guess of the slice pitch that the wire tracks alone would give. */
  int tracks_h = n * hx, tracks_v = m * hy + m * sel;
  double row_p = tracks_h * pitch, col_p = tracks_v * pitch;
  drive out_drv = drive_wire(e, s->wire_layer, (hy - 0.5) * row_p, c_port);
  double a_slice = n * m * xp.area_m2 + m * dec.area_m2 + m * out_drv.area_m2;
  double side = sqrt(a_slice);
  double side_min = (n > m ? n : m) * e->tech->wires.layer[GPURF_WIRE_LOCAL].pitch_m;
  if (side < side_min) side = side_min;
  if (row_p < side) row_p = side;
  if (col_p < side) col_p = side;
  /* The select spine along the top edge feeds every slice column. */
  double spine_h = m * sel * pitch;
  double width = sx * col_p, height = sy * row_p + spine_h;
  c->slices_x = sx;
  c->slices_y = sy;
  c->tracks_h = tracks_h;
  c->tracks_v = tracks_v;

  /* Wires. Inside a slice, an input line crosses m crosspoints and an output
   * line n crosspoints, each about a slice side long. */
  double c_slice_in = m * xp.c_data_f + side * c_local;
  double c_slice_out = n * xp.c_out_f + side * c_local + out_drv.c_in_f;
  double l_in_max = (hx - 0.5) * col_p, l_in_avg = 0.5 * hx * col_p;
  double l_out_max = (hy - 0.5) * row_p, l_out_avg = 0.5 * hy * row_p;
  drive in_max = drive_wire(e, s->wire_layer, l_in_max, c_slice_in);
  drive in_avg = drive_wire(e, s->wire_layer, l_in_avg, c_slice_in);
  drive out_max = drive_wire(e, s->wire_layer, l_out_max, c_port);
  drive out_avg = drive_wire(e, s->wire_layer, l_out_avg, c_port);
  double t_xp = gpurf_circuit_horowitz_s(0.0, xp.r_ohm * c_slice_out, 0.5, 0.5);

  /* Energy of one word: per bit the input path, the crosspoint and the
   * output path; chains' internal stages count as drivers. */
  double wire_in_j = (wl->c_f_per_m * l_in_avg) * v2, wire_out_j = (wl->c_f_per_m * l_out_avg) * v2;
  double drv_j = (in_avg.energy_j - wire_in_j - c_slice_in * v2) + (out_avg.energy_j - wire_out_j);
  c->transfer_part_j[GPURF_XBAR_PART_WIRES] = a * w * (wire_in_j + wire_out_j);
  c->transfer_part_j[GPURF_XBAR_PART_SWITCHES] = a * w * (c_slice_in + c_slice_out) * v2;
  c->transfer_part_j[GPURF_XBAR_PART_DRIVERS] = a * w * drv_j;
  /* Select lines of one output run down every slice column from the spine,
   * each feeding its decoder's predecoder in every slice; in each slice the
   * old and new enables and their decode paths switch. */
  double fan_sel = (double)(1 << ((sel + 1) / 2));
  double c_sel_line = (sx * sy * row_p + width) * wl->c_f_per_m + w * fan_sel * g.c_in_f;
  double c_dec = 2.0 * logic_decoder_levels(n) * (g.c_par_f + g.c_wire_f + g.c_in_f) + 2.0 * xp.c_en_f;
  c->transfer_part_j[GPURF_XBAR_PART_CONTROL] = a * (sel * c_sel_line + w * c_dec) * v2;

  c->delay_part_s[GPURF_XBAR_PART_DRIVERS] = in_max.chain_s + out_max.chain_s;
  c->delay_part_s[GPURF_XBAR_PART_WIRES] =
      in_max.delay_s - in_max.chain_s + out_max.delay_s - out_max.chain_s;
  c->delay_part_s[GPURF_XBAR_PART_SWITCHES] = t_xp;

  /* Area: the slice array is the larger of its wire tracks and its gates;
   * port drivers line the edges. What the gates do not fill is wiring. */
  double a_xp = (double)w * n * m * xp.area_m2, a_dec = (double)w * m * dec.area_m2;
  double a_out = (double)w * m * out_max.area_m2, a_in = (double)w * n * in_max.area_m2;
  double a_array = width * height;
  if (a_array < a_xp + a_dec + a_out) a_array = a_xp + a_dec + a_out;
  c->base.area_part_m2[GPURF_XBAR_PART_SWITCHES] = a_xp;
  c->base.area_part_m2[GPURF_XBAR_PART_CONTROL] = a_dec + spine_h * width;
  c->base.area_part_m2[GPURF_XBAR_PART_DRIVERS] = a_out + a_in;
  c->base.area_part_m2[GPURF_XBAR_PART_WIRES] = a_array - a_xp - a_dec - a_out - spine_h * width;
  /* Input drivers in two strips down the left and right edges. */
  c->width_m = width + a_in / height;
  c->height_m = height;

  c->leakage_part_w[GPURF_XBAR_PART_SWITCHES] = (double)w * n * m * xp.leak_w;
  c->leakage_part_w[GPURF_XBAR_PART_CONTROL] = (double)w * m * dec.leak_w;
  /* Repeaters along every input and output wire: average lengths. */
  c->leakage_part_w[GPURF_XBAR_PART_DRIVERS] = (double)w * (n * in_avg.leak_w + m * out_avg.leak_w);
  c->base.leakage_gate_w = (double)w * (n * m * xp.gate_leak_w + m * dec.gate_leak_w +
                                   n * in_avg.gate_leak_w + m * out_avg.gate_leak_w);
}

static void eval_mux(const gpurf_xbar_spec *s, const gc_env *e, gpurf_xbar_cost *c) {
  const int n = s->inputs, m = s->outputs, w = s->width_bits;
  const double v2 = e->vdd_v * e->vdd_v, a = s->activity;
  const gpurf_wire_layer *wl = &e->tech->wires.layer[s->wire_layer];
  const double pitch = wl->pitch_m;
  const int levels = comp_bits_for(n);
  gc_mux2 mx = gc_mux2_min(e);
  double c_buf = gc_inv_input_c(e, e->w_min_m);
  /* Restoring inverters after every second level of a tree. */
  double bufs = 0.0;
  for (int l = 2; l <= levels; l += 2) bufs += ceil((double)n / (1 << l));
  double muxes = n - 1;
  double c_port = gc_inv_input_c(e, GC_PORT_LOAD_MIN * e->w_min_m);
  double block_w = w * pitch;
  double chan_h = (double)n * w * pitch;
  drive out_guess = drive_wire(e, s->wire_layer, chan_h, c_port);
  double a_tree = muxes * mx.area_m2 + bufs * gc_inv_area_m2(e, e->w_min_m) + out_guess.area_m2;
  double block_h = chan_h > w * a_tree / block_w ? chan_h : w * a_tree / block_w;
  double width = m * block_w, height = block_h;
  c->tracks_h = n * w;
  c->tracks_v = w;

  /* An input bit enters a leaf multiplexer in every output block. */
  double c_in_line_load = m * mx.c_in_f;
  drive in_max = drive_wire(e, s->wire_layer, width, c_in_line_load);
  drive out_max = drive_wire(e, s->wire_layer, height, c_port);
  drive out_avg = drive_wire(e, s->wire_layer, 0.5 * height, c_port);
  /* Along the selected path: one transmission gate per level into the next
   * level's input (or a restoring inverter), Elmore over the unbuffered run. */
  double t_tree = 0.0, r_run = 0.0, path_c = 0.0;
  for (int l = 1; l <= levels; l++) {
    double c_node = mx.c_out_f + (l % 2 == 0 || l == levels ? c_buf : mx.c_in_f);
    r_run += mx.r_ohm;
    t_tree += GC_LN2_RC * r_run * c_node;
    path_c += c_node;
    if (l % 2 == 0 && l < levels) {
      double c_b = gc_inv_drain_c(e, e->w_min_m) + mx.c_in_f;
      t_tree += gpurf_circuit_horowitz_s(0.0, gc_inv_r(e, e->w_min_m) * c_b, 0.5, 0.5);
      path_c += c_b;
      r_run = 0.0;
    }
  }
  double wire_in_j = wl->c_f_per_m * width * v2, wire_out_j = wl->c_f_per_m * 0.5 * height * v2;
  c->transfer_part_j[GPURF_XBAR_PART_WIRES] = a * w * (wire_in_j + c_in_line_load * v2 + wire_out_j);
  c->transfer_part_j[GPURF_XBAR_PART_SWITCHES] = a * w * path_c * v2;
  c->transfer_part_j[GPURF_XBAR_PART_DRIVERS] =
      a * w * (in_max.energy_j - wire_in_j - c_in_line_load * v2 + out_avg.energy_j - wire_out_j);
  /* The select line of level l drives n / 2^l multiplexers in each of w
   * trees, from a driver chain of its own. */
  double c_sel = 0.0, a_sel = 0.0, l_sel = 0.0;
  for (int l = 1; l <= levels; l++) {
    double c_line = w * ceil((double)n / (1 << l)) * mx.c_sel_f + block_h * wl->c_f_per_m;
    gc_chain ch = gc_driver_chain(e, c_buf, c_line, block_h * wl->r_ohm_per_m, 0.0);
    c_sel += ch.energy_j / v2;
    a_sel += ch.area_m2;
    l_sel += ch.leak_w;
  }
  c->transfer_part_j[GPURF_XBAR_PART_CONTROL] = a * c_sel * v2;
  c->base.area_part_m2[GPURF_XBAR_PART_CONTROL] = m * a_sel;
  c->leakage_part_w[GPURF_XBAR_PART_CONTROL] = m * l_sel;
  c->delay_part_s[GPURF_XBAR_PART_DRIVERS] = in_max.chain_s + out_max.chain_s;
  c->delay_part_s[GPURF_XBAR_PART_WIRES] =
      in_max.delay_s - in_max.chain_s + out_max.delay_s - out_max.chain_s;
  c->delay_part_s[GPURF_XBAR_PART_SWITCHES] = t_tree;

  double a_sw = (double)m * w * (muxes * mx.area_m2 + bufs * gc_inv_area_m2(e, e->w_min_m));
  double a_drv = (double)m * w * out_max.area_m2 + (double)n * w * in_max.area_m2;
  double a_array = width * height;
  double a_logic = a_sw + (double)m * w * out_max.area_m2;
  if (a_array < a_logic) a_array = a_logic;
  c->base.area_part_m2[GPURF_XBAR_PART_SWITCHES] = a_sw;
  c->base.area_part_m2[GPURF_XBAR_PART_DRIVERS] = a_drv;
  c->base.area_part_m2[GPURF_XBAR_PART_WIRES] = a_array - a_logic;
  c->width_m = width;
  c->height_m = height + (double)n * w * in_max.area_m2 / width;
  c->leakage_part_w[GPURF_XBAR_PART_SWITCHES] =
      (double)m * w * (muxes * mx.leak_w + bufs * gc_inv_leak_w(e, e->w_min_m));
  c->leakage_part_w[GPURF_XBAR_PART_DRIVERS] = (double)w * (n * in_max.leak_w + m * out_max.leak_w);
  c->base.leakage_gate_w = (double)w * (n * in_max.gate_leak_w + m * out_max.gate_leak_w);
}

int gpurf_xbar_eval(gpurf_ctx *ctx, const gpurf_xbar_spec *s, gpurf_xbar_cost *cost) {
  if (!ctx || !s || !cost) return GPURF_EINVAL;
  int rc = comp_check_env(ctx, "crossbar", s->tech, s->device, s->temp_k);
  if (rc != GPURF_OK) return rc;
  if (s->inputs < 1 || s->inputs > XBAR_MAX_PORTS || s->outputs < 1 || s->outputs > XBAR_MAX_PORTS)
    return gpurf_fail(ctx, GPURF_EINVAL, "crossbar: %d inputs x %d outputs is outside 1..%d each",
                      s->inputs, s->outputs, XBAR_MAX_PORTS);
  if (s->width_bits < 1 || s->width_bits > XBAR_MAX_WIDTH)
    return gpurf_fail(ctx, GPURF_EINVAL, "crossbar: width %d bits is outside 1..%d",
                      s->width_bits, XBAR_MAX_WIDTH);
  if ((unsigned)s->style >= GPURF_XBAR_STYLE_COUNT)
    return gpurf_fail(ctx, GPURF_EINVAL, "crossbar: unknown style");
  if ((unsigned)s->wire_layer >= GPURF_WIRE_COUNT)
    return gpurf_fail(ctx, GPURF_EINVAL, "crossbar: unknown wire layer");
  if (!(s->activity > 0.0 && s->activity <= 1.0))
    return gpurf_fail(ctx, GPURF_EINVAL, "crossbar: activity %g is outside (0, 1]", s->activity);
  gc_env e;
  if ((rc = gc_env_init(ctx, &e, s->tech, s->device, s->temp_k, 1)) != GPURF_OK) return rc;
  gpurf_xbar_cost c;
  memset(&c, 0, sizeof c);
  if (s->style == GPURF_XBAR_MATRIX)
    eval_matrix(s, &e, &c);
  else
    eval_mux(s, &e, &c);
  c.fo4_delay_s = e.fo4_s;
  finish(&c);
  *cost = c;
  return GPURF_OK;
}
