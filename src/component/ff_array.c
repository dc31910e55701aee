/* Flip-flop and latch arrays (register-file caches, operand register files):
 * one array per bank, an entry per row of `width` storage cells.
 *
 *   write port  ->  write-enable decoder -> one clock gate per entry -> the
 *                   entry's gated clock; the data bus runs down every column
 *                   to the D pin of each entry (through an M:1 multiplexer
 *                   per cell with M write ports)
 *   read port   ->  select lines -> an E:1 tree of 2:1 multiplexers per bit
 *                   (a transmission gate and an inverter per node) -> an
 *                   output driver at the bank edge
 *
 * Clock gating: only the written entry's cells see a clock edge, and the
 * array's clock is itself enabled only in cycles with a write, so a cycle
 * without a write costs leakage only. Per-access energies are therefore:
 *   read  = select lines and buffers, the multiplexer nodes that change, the
 *           output driver (no clock);
 *   write = write-enable decode, the array clock spine to every entry's
 *           clock gate, the written entry's gated clock and clock pins, the
 *           data bus to every entry's D pin, and the written cells' internal
 *           switching.
 * Data and addresses are random: a data node changes on half the accesses, an
 * address bit on half, and a change costs half of C Vdd^2 on average; a
 * clock pulse (rise and fall) costs C Vdd^2. These are static CMOS paths, so
 * the spec's data_activity (for precharged sub-array data paths) does not
 * apply. Banks are private to their users (one per 4-lane cluster, say):
 * there is no wiring between them; area and leakage cover all banks.
 *
 * Breakdown slots: cells = storage cells (internal switching, leakage);
 * decoder = write-enable decode and read select buffers; wordline = clock
 * spine, clock gates and gated clocks; bitline = read multiplexer trees;
 * write_driver = data bus drivers and write-port multiplexers;
 * output_driver = read-port drivers; routing = address wires across the
 * bank. */
#include <math.h>
#include <string.h>

#include "component/bank_internal.h"
#include "core/ctx_internal.h"

/* Clock-to-output of the storage cell: a master-slave flip-flop passes its
 * slave transmission gate and two inverters after the clock edge (about two
 * FO4 delays); a transparent latch one gate and an inverter (about one). */
#define DFF_CLK_TO_Q_FO4 2.0
#define LATCH_D_TO_Q_FO4 1.0
/* Bits of the word one local read-select buffer serves (a byte). */
#define SELECT_SEGMENT_BITS 8

typedef struct ff_geom {
  long long entries;
  int width, levels;
  double array_w, array_h;
  double wire_c, wire_r; /* local wire, per metre */
} ff_geom;

static int ceil_log2(long long n) {
  int l = 0;
  while ((1LL << l) < n) l++;
  return l;
}

/* Two random entries of [0, n): the chance that their offsets within
 * aligned blocks of m entries differ (the level's node then takes a
 * different leaf). For n a multiple of m it is 1 - 1/m. */
static double offset_change_p(long long n, long long m) {
  long long full = n / m, rem = n % m;
  double same = (double)rem * (double)(full + 1) * (double)(full + 1) +
                (double)(m - rem) * (double)full * (double)full;
  return 1.0 - same / ((double)n * (double)n);
}

/* Two random entries of [0, n): the chance that address bit `bit` differs,
 * 2 q (1 - q) with q the share of entries that have it set (1/2 when n is
 * a multiple of 2^(bit+1); small for a top bit that only a few entries set). */
static double bit_change_p(long long n, int bit) {
  long long half = 1LL << bit, block = half << 1;
  long long ones = (n / block) * half + (n % block > half ? n % block - half : 0);
  double q = (double)ones / (double)n;
  return 2.0 * q * (1.0 - q);
}

/* One read port: select buffers, the multiplexer tree of every bit, the
 * output driver. Adds energy, area, leakage into c; returns the delay.
 * For any entry count the tree has entries - 1 multiplexers: at each level
 * the nodes below pair up and an odd one passes through to the level above,
 * so area and energy grow with the entries without steps at powers of two;
 * only the depth (the delay) steps. */
static double read_port(const bank_in *in, const ff_geom *g, gpurf_bank_cost *c) {
  const gc_env *e = &in->env;
  const double v2 = e->vdd_v * e->vdd_v;
  gc_mux2 mx = gc_mux2_min(e);
  double c_inv_in = gc_inv_input_c(e, e->w_min_m), c_inv_out = gc_inv_drain_c(e, e->w_min_m);
  double r_stage = gc_inv_r(e, e->w_min_m) + mx.r_ohm;
  double t = 0.0, ramp = 0.0, e_data = 0.0, e_sel = 0.0, t_sel = 0.0;
  double nodes = 0.0;
  const double row_h = g->array_h / (double)g->entries;
  long long below = g->entries; /* nodes of the level below */
  for (int k = 1; k <= g->levels; k++) {
    long long span = 1LL << (k - 1); /* entries under each input of a level-k node */
    long long muxes = below / 2;     /* per bit */
    below = muxes + below % 2;
    if (muxes == 0) continue;
    nodes += (double)muxes;
    /* A node's wire joins the middles of its two inputs' rows: span rows
     * for a full node; the last one's upper input may hold fewer entries. */
    long long upper = g->entries - (2 * muxes - 1) * span;
    if (upper > span) upper = span;
    double rows_last = 0.5 * (double)(span + upper);
    double wire_rows = (double)(muxes - 1) * (double)span + rows_last;
    double c_nodes = (double)muxes * (mx.c_out_f + c_inv_in + c_inv_out + mx.c_in_f) +
                     wire_rows * row_h * g->wire_c;
    /* A node changes when a different leaf is chosen (the entries' offsets
     * within its block differ) holding a different bit (1/2). */
    double p = 0.5 * offset_change_p(g->entries, 1LL << k);
    e_data += g->width * p * 0.5 * c_nodes * v2;
    double c_node = mx.c_out_f + span * row_h * g->wire_c + c_inv_in;
    double d = gpurf_circuit_horowitz_s(ramp, r_stage * (c_node + c_inv_out), 0.5, 0.5);
    t += d;
    ramp = d / 0.5;
    /* Select line of level k: every multiplexer of the level, across the
     * width of the bank (each bit's tree sits in a compact strip below its
     * column, so the line runs along the strips). It is cut into segments
     * of SELECT_SEGMENT_BITS bits, each with a local buffer fed from a
     * spine along the bank, which keeps the long line's RC out of the read
     * path. It changes when address bit k - 1 does. */
    double p_sel = bit_change_p(g->entries, k - 1);
    /* Every segment has the buffer of a full one; the last may be shorter. */
    int segs = (g->width + SELECT_SEGMENT_BITS - 1) / SELECT_SEGMENT_BITS;
    double bit_w = g->array_w / g->width, seg_w = SELECT_SEGMENT_BITS * bit_w;
    double c_seg = SELECT_SEGMENT_BITS * muxes * mx.c_sel_f + seg_w * g->wire_c;
    double c_buf_in = gc_inv_input_c(e, 4.0 * e->w_min_m);
    gc_chain lb = gc_driver_chain(e, c_buf_in, c_seg, seg_w * g->wire_r, 0.0);
    double c_spine = segs * c_buf_in + g->array_w * g->wire_c;
    gc_chain sp = gc_driver_chain(e, c_inv_in, c_spine, g->array_w * g->wire_r, 0.0);
    double c_lines = g->width * (muxes * mx.c_sel_f + bit_w * g->wire_c) + c_spine;
    e_sel += p_sel * (0.5 * c_lines * v2 +
                      (segs * (lb.energy_j - c_seg * v2) + (sp.energy_j - c_spine * v2)));
    double t_line = sp.delay_s + lb.delay_s;
    if (t_line > t_sel) t_sel = t_line;
    c->area_part_m2[GPURF_BANK_PART_DECODER] += segs * lb.area_m2 + sp.area_m2;
    c->leakage_part_w[GPURF_BANK_PART_DECODER] += segs * lb.leak_w + sp.leak_w;
    c->leakage_gate_w += segs * lb.gate_leak_w + sp.gate_leak_w;
  }
  double stage_area = mx.area_m2 + gc_inv_area_m2(e, e->w_min_m);
  double stage_leak = mx.leak_w + gc_inv_leak_w(e, e->w_min_m);
  c->read_part_j[GPURF_BANK_PART_BITLINE] += e_data;
  c->read_part_j[GPURF_BANK_PART_DECODER] += e_sel;
  c->area_part_m2[GPURF_BANK_PART_BITLINE] += g->width * nodes * stage_area;
  c->leakage_part_w[GPURF_BANK_PART_BITLINE] += g->width * nodes * stage_leak;
  c->leakage_gate_w += g->width * nodes * gc_inv_gate_leak_w(e, e->w_min_m);
  /* Output driver per bit into the consumer's input at the bank edge; the
   * output is the tree's root (random data over a random entry). */
  double p_out = g->levels > 0 ? 0.5 * offset_change_p(g->entries, 1LL << g->levels) : 0.5;
  gc_chain od = gc_driver_chain(e, c_inv_in, gc_inv_input_c(e, GC_PORT_LOAD_MIN * e->w_min_m), 0.0,
                                ramp);
  c->read_part_j[GPURF_BANK_PART_OUTPUT_DRIVER] += g->width * p_out * 0.5 * od.energy_j;
  c->area_part_m2[GPURF_BANK_PART_OUTPUT_DRIVER] += g->width * od.area_m2;
  c->leakage_part_w[GPURF_BANK_PART_OUTPUT_DRIVER] += g->width * od.leak_w;
  c->leakage_gate_w += g->width * od.gate_leak_w;
  c->delay_part_s[GPURF_BANK_PART_DECODER] = t_sel;
  c->delay_part_s[GPURF_BANK_PART_BITLINE] = t;
  c->delay_part_s[GPURF_BANK_PART_OUTPUT_DRIVER] = od.delay_s;
  return t_sel + t + od.delay_s;
}

/* One write port's enable decoder: 2-bit predecode lines run the height of
 * the array to a NAND per entry, whose output is the entry's clock enable.
 * Adds its costs into c; returns its delay. */
static double write_decoder(const bank_in *in, const ff_geom *g, double c_enable, gpurf_bank_cost *c) {
  const gc_env *e = &in->env;
  const double v2 = e->vdd_v * e->vdd_v;
  int bits = g->levels;
  if (bits == 0) return 0.0;
  int groups = (bits + 1) / 2, fanin = groups;
  double wn = fanin * e->w_min_m, wp = gc_inv_wp(e, e->w_min_m);
  double c_nand_in = gpurf_circuit_gate_c_f(e->dev, wn + wp);
  double c_nand_out = gpurf_circuit_drain_c_f(e->tech, e->dev, wn) +
                      fanin * gpurf_circuit_drain_c_f(e->tech, e->dev, wp);
  /* A group of two bits has four lines, each feeding a quarter of the NANDs;
   * with a random address the active line moves on three writes in four,
   * which is two line changes. */
  double c_line = (double)g->entries / 4.0 * c_nand_in + g->array_h * g->wire_c;
  gc_chain pd = gc_driver_chain(e, gc_inv_input_c(e, e->w_min_m), c_line,
                                g->array_h * g->wire_r, 0.0);
  double e_dec = groups * 0.75 * 2.0 * 0.5 * pd.energy_j;
  /* The enable of the old entry falls and the new one rises. */
  e_dec += 2.0 * 0.5 * (c_nand_out + c_enable) * v2;
  c->write_part_j[GPURF_BANK_PART_DECODER] += e_dec;
  c->area_part_m2[GPURF_BANK_PART_DECODER] +=
      groups * 4.0 * pd.area_m2 + g->entries * gc_gate_area_m2(e, fanin * wn, fanin * wp, fanin);
  c->leakage_part_w[GPURF_BANK_PART_DECODER] +=
      groups * 4.0 * pd.leak_w + g->entries * 0.5 * e->vdd_v * e->periph_leak_factor *
                                     (e->i_off_n * wn / fanin + e->i_off_p * wp * fanin);
  c->leakage_gate_w += groups * 4.0 * pd.gate_leak_w;
  return pd.delay_s + gpurf_circuit_horowitz_s(pd.out_ramp_s,
                                               gc_inv_r(e, e->w_min_m) * (c_nand_out + c_enable),
                                               0.5, 0.5);
}

int ff_array_eval(gpurf_ctx *ctx, const bank_in *in, gpurf_bank_cost *c) {
  (void)ctx;
  const gc_env *e = &in->env;
  const gpurf_bank_spec *s = in->spec;
  const gpurf_cell_ff *cell = &s->cell->u.ff;
  const double v2 = e->vdd_v * e->vdd_v, f = e->f_m;
  const gpurf_wire_layer *local = &e->tech->wires.layer[GPURF_WIRE_LOCAL];
  const int reads = s->ports.read, writes = s->ports.write;
  memset(c, 0, sizeof *c);
  ff_geom g;
  g.entries = in->entries_per_bank;
  g.width = s->width_bits;
  g.levels = ceil_log2(g.entries);
  g.array_w = g.width * in->cell_w_m;
  g.array_h = (double)g.entries * in->cell_h_m;
  g.wire_c = local->c_f_per_m;
  g.wire_r = local->r_ohm_per_m;
  const double cells = (double)g.entries * g.width;
  const double c_clk_pin = gpurf_circuit_gate_c_f(e->dev, cell->clock_gate_width_f * f);
  const double c_d_pin = gpurf_circuit_gate_c_f(e->dev, cell->data_gate_width_f * f);
  const double c_internal = gpurf_circuit_gate_c_f(e->dev, cell->internal_switched_width_f * f);
  gc_mux2 mx = gc_mux2_min(e);
  gc_latch icg = gc_latch_min(e);

  /* Cells: leakage of the idle cell; a write flips half the written bits,
   * whose Q also drives a leaf of every read port's tree. */
  c->area_part_m2[GPURF_BANK_PART_CELLS] = cells * in->cell_w_m * in->cell_h_m;
  c->leakage_part_w[GPURF_BANK_PART_CELLS] = cells * e->i_off_n * cell->leak_width_f * f * e->vdd_v;
  c->write_part_j[GPURF_BANK_PART_CELLS] = g.width * 0.5 * (c_internal + reads * mx.c_in_f) * v2;
  /* Every written cell sees one clock pulse: its pin (counted with the
   * gated clock below) and the internal nodes the clock switches. */
  if (cell->has_clock_internal)
    c->write_part_j[GPURF_BANK_PART_CELLS] +=
        g.width * gpurf_circuit_gate_c_f(e->dev, cell->clock_internal_width_f * f) * v2;
  /* The write data reach the D pin of every entry a port's bus feeds (see
   * the write ports below: all of them with one write port, about one in
   * `writes` with several). An entry that is not written holds its gated
   * clock low, and a flip-flop's master latch is transparent then, so each
   * toggle of its D flips the master: the cell's data-input energy, paid by
   * every idle entry the bus reaches on half the bits. This term grows with
   * the entries as the read trees do, which keeps writes a steady multiple
   * of reads; the written entry's own flip is in internal_switched. */
  if (cell->has_data_internal) {
    double idle = (double)(g.entries - 1) / (writes > 1 ? writes : 1);
    c->write_part_j[GPURF_BANK_PART_CELLS] +=
        idle * g.width * 0.5 * gpurf_circuit_gate_c_f(e->dev, cell->data_internal_width_f * f) * v2;
  }

  /* Clock: the spine reaches every entry's clock gate (latch enable and an
   * AND input) and pulses in cycles with a write; the written entry's gated
   * clock drives its cells' clock pins along the row through a buffer. */
  double c_gate_clk = icg.c_en_f + gc_inv_input_c(e, e->w_min_m);
  double c_spine = g.entries * c_gate_clk + g.array_h * g.wire_c;
  double c_row = g.width * (c_clk_pin + in->cell_w_m * g.wire_c);
  gc_chain spine = gc_driver_chain(e, gc_inv_input_c(e, e->w_min_m), c_spine,
                                   g.array_h * g.wire_r, 0.0);
  gc_chain row = gc_driver_chain(e, gc_inv_input_c(e, e->w_min_m), c_row,
                                 g.array_w * g.wire_r, 0.0);
  c->write_part_j[GPURF_BANK_PART_WORDLINE] = spine.energy_j + row.energy_j + icg.c_int_f * v2;
  c->area_part_m2[GPURF_BANK_PART_WORDLINE] =
      spine.area_m2 + g.entries * (icg.area_m2 + row.area_m2 + gc_inv_area_m2(e, e->w_min_m));
  c->leakage_part_w[GPURF_BANK_PART_WORDLINE] =
      spine.leak_w + g.entries * (icg.leak_w + row.leak_w + gc_inv_leak_w(e, e->w_min_m));
  c->leakage_gate_w += spine.gate_leak_w + g.entries * (icg.gate_leak_w + row.gate_leak_w);

  /* Write ports: each decodes its own enables; with several, every cell
   * takes its D through an M:1 multiplexer whose selects follow the enables. */
  double t_dec = 0.0;
  for (int p = 0; p < writes; p++) {
    double t = write_decoder(in, &g, icg.c_d_f, c);
    if (t > t_dec) t_dec = t;
  }
  double c_d_load = writes > 1 ? mx.c_in_f : c_d_pin;
  double c_bus = g.entries * c_d_load + g.array_h * g.wire_c;
  gc_chain db = gc_driver_chain(e, gc_inv_input_c(e, e->w_min_m), c_bus, g.array_h * g.wire_r, 0.0);
  c->write_part_j[GPURF_BANK_PART_WRITE_DRIVER] = g.width * 0.25 * db.energy_j;
  c->area_part_m2[GPURF_BANK_PART_WRITE_DRIVER] = writes * g.width * db.area_m2;
  c->leakage_part_w[GPURF_BANK_PART_WRITE_DRIVER] = writes * g.width * db.leak_w;
  c->leakage_gate_w += writes * g.width * db.gate_leak_w;
  if (writes > 1) {
    /* An idle entry's multiplexer keeps the port it last took, so a port's
     * data reach the D pins of about one entry in `writes`; the written
     * entry's selects change. */
    double m = cells * (writes - 1);
    double reached = (double)g.entries / writes;
    c->write_part_j[GPURF_BANK_PART_WRITE_DRIVER] +=
        g.width * reached * 0.25 * (mx.c_out_f + c_d_pin) * v2 + g.width * mx.c_sel_f * v2;
    c->area_part_m2[GPURF_BANK_PART_WRITE_DRIVER] += m * mx.area_m2;
    c->leakage_part_w[GPURF_BANK_PART_WRITE_DRIVER] += m * mx.leak_w;
  }

  /* Read ports, each with its own trees. */
  double t_read = 0.0;
  for (int p = 0; p < reads; p++) {
    gpurf_bank_cost one;
    memset(&one, 0, sizeof one);
    t_read = read_port(in, &g, &one);
    for (int k = 0; k < GPURF_BANK_PART_COUNT; k++) {
      c->area_part_m2[k] += one.area_part_m2[k];
      c->leakage_part_w[k] += one.leakage_part_w[k];
      c->read_part_j[k] = one.read_part_j[k] > 0.0 ? one.read_part_j[k] : c->read_part_j[k];
      c->delay_part_s[k] = one.delay_part_s[k];
    }
    c->leakage_gate_w += one.leakage_gate_w;
  }

  /* Address wires of every port from the bank edge across half the bank,
   * changing as random addresses do. */
  int abits = g.levels;
  gc_wire aw = gc_wire_eval(e, GPURF_WIRE_LOCAL, 0.5 * g.array_w, gc_inv_r(e, e->w_min_m),
                            gc_inv_input_c(e, e->w_min_m));
  double e_addr = 0.25 * abits * aw.energy_j;
  c->read_part_j[GPURF_BANK_PART_ROUTING] = e_addr;
  c->write_part_j[GPURF_BANK_PART_ROUTING] = e_addr;
  c->area_part_m2[GPURF_BANK_PART_ROUTING] =
      (reads + writes) * abits * (aw.area_m2 + 0.5 * g.array_w *
                                                   e->tech->wires.layer[GPURF_WIRE_LOCAL].pitch_m);
  c->leakage_part_w[GPURF_BANK_PART_ROUTING] = (reads + writes) * abits * aw.leak_w;

  /* Timing. A read is combinational: select buffers, the tree, the driver.
   * A write must have its enable through the clock gate and its data at the
   * D pins before the clock edge; the cell then takes its clock-to-output. */
  double t_cq = (s->cell->kind == GPURF_CELL_DFF ? DFF_CLK_TO_Q_FO4 : LATCH_D_TO_Q_FO4) * e->fo4_s;
  double t_in = t_dec + row.delay_s > db.delay_s ? t_dec + row.delay_s : db.delay_s;
  c->delay_part_s[GPURF_BANK_PART_ROUTING] = aw.delay_s;
  c->access_time_s = t_read + aw.delay_s;
  c->write_latency_s = aw.delay_s + t_in + t_cq;
  /* Reads and writes share one clock; nothing is precharged, so nothing
   * is restored between accesses. */
  c->cycle_time_s = c->access_time_s > c->write_latency_s ? c->access_time_s : c->write_latency_s;
  c->restore_time_s = 0.0;

  /* All banks: area and leakage scale; energies are per access of one. */
  for (int k = 0; k < GPURF_BANK_PART_COUNT; k++) {
    c->area_part_m2[k] *= s->banks;
    c->leakage_part_w[k] *= s->banks;
    c->area_m2 += c->area_part_m2[k];
    c->leakage_sub_w += c->leakage_part_w[k];
    c->read_energy_j += c->read_part_j[k];
    c->write_energy_j += c->write_part_j[k];
  }
  c->leakage_gate_w *= s->banks;
  c->org.rows = (int)g.entries;
  c->org.cols = g.width;
  c->org.col_mux = 1;
  c->org.ndwl = 1;
  c->org.ndbl = 1;
  c->org.entries_per_bank = g.entries;
  c->org.padding_bits = 0;
  c->candidates = 1;
  return GPURF_OK;
}
