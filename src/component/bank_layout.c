/* Placement and routing of a bank: sub-arrays in an ndbl x ndwl grid, data
 * and address buses from the port at the middle of the bank's bottom edge
 * to every sub-array, and, for several banks, the same again between banks.
 * Energy follows the path of one access (a tree with repeaters at its
 * junctions); area counts every wire track at its pitch. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "component/bank_internal.h"

/* Static address wires with random addresses: half toggle per access and a
 * toggle costs half of C Vdd^2. */
#define ADDRESS_ACTIVITY 0.25
/* Share of the semi-global tracks over an array that the bank's buses may
 * use. None: as in CACTI's area model (htree2.cc, the buses between mats
 * widen the bank by their pitch), the layer over the cells carries the
 * array's own power grid, wordline and bitline straps and the sense
 * amplifiers' supplies, so every bus wire between mats takes a channel
 * beside the sub-arrays (within a mat: MAT_SUBARRAY_ROWS). */
#define OVER_ARRAY_TRACKS 0.0
/* The layer of the tree between banks: CACTI routes everything outside its
 * mats on the semi-global layer (cache.cfg as shipped: "Wire outside mat -
 * semi-global", with Global_30 repeated wires). */
#define INTERBANK_LAYER GPURF_WIRE_SEMI_GLOBAL
/* Sub-array rows of one mat: CACTI's mat is 2 x 2 sub-arrays whose column
 * periphery meets in the middle (mat.cc). */
#define MAT_SUBARRAY_ROWS 2
/* Control wires (enable, read/write, clock) routed with the address. */
#define CONTROL_WIRES 3

typedef struct route {
  double delay_s;
  double stage_s;         /* the longest piece a new signal must wait for: the whole
                             wire unrepeated, the driver and one segment repeated */
  double wire_energy_j;   /* wire, repeaters and port load, average length */
  double driver_energy_j; /* the driver at the source */
  double wire_leak_w;     /* repeaters of one wire */
  double wire_area_m2;
  double driver_leak_w;   /* one source driver */
  double driver_area_m2;
} route;

/* A route's wire and source driver, sized for its worst length l_max and
 * its `taps` sources: all that its average length leaves alone, so routes
 * of one worst length share it. */
typedef struct route_sized {
  gc_wire w;
  gc_chain d;
  double c_taps_f;
} route_sized;

/* A wire of worst length l_max shared by `taps` sources, each with its own
 * driver (tri-state): the idle drivers' drains load the wire. `alone`, if
 * not NULL, is the same wire sized for one source (by this function).
 * d_rep is the wire's repeated delay at l_max (gc_wire_rep_delay; any
 * value when l_max is 0), which the routes of one length share. */
static void route_size(const bank_in *in, gpurf_wire_kind layer, double l_max, double d_rep,
                       int taps, const route_sized *alone, route_sized *z) {
  const gc_env *e = &in->env;
  const layout_fixed *lf = &in->layout;
  const gpurf_wire_layer *wl = &e->tech->wires.layer[layer];
  double c_port = lf->c_port_f;
  double c_wire = wl->c_f_per_m * l_max;
  /* A repeated route's source driver is the node's (layout_fixed) when
   * its taps are a count that table holds. */
  int k = gc_ceil_log2(taps);
  int kept = (1 << k) == taps && k <= lf->rep_k_max;
  /* Size a source driver for the wire alone (for a repeated wire it drives
   * the first repeater), then load the wire with the idle taps' drains. */
  double c_taps = 0.0;
  if (taps > 1 && alone) {
    /* alone was sized for one source: repeated, its driver is rep_chain[0]. */
    kept = kept && alone->w.repeaters > 0;
    c_taps = kept ? lf->rep_c_taps_f[k] : (taps - 1) * gc_inv_drain_c(e, alone->d.last_wn_m);
  } else if (taps > 1) {
    gc_wire w0 = gc_wire_eval(e, layer, l_max, lf->r_port_ohm, c_port);
    double c_first = w0.repeaters > 0 ? c_port : c_wire + c_port;
    gc_chain d0 = gc_driver_chain(e, lf->c_in_min_f, c_first,
                                  w0.repeaters > 0 ? 0.0 : wl->r_ohm_per_m * l_max, 0.0);
    c_taps = (taps - 1) * gc_inv_drain_c(e, d0.last_wn_m);
    kept = 0;
  }
  z->c_taps_f = c_taps;
  z->w = l_max > 0.0 ? gc_wire_eval_rep(e, layer, l_max, lf->r_port_ohm, c_port + c_taps, d_rep)
                     : gc_wire_eval(e, layer, l_max, lf->r_port_ohm, c_port + c_taps);
  if (z->w.repeaters > 0)
    z->d = kept ? lf->rep_chain[k]
                : gc_driver_chain(e, lf->c_in_min_f, c_port + c_taps, 0.0, 0.0);
  else
    z->d = gc_driver_chain(e, lf->c_in_min_f, c_wire + c_port + c_taps,
                           wl->r_ohm_per_m * l_max, 0.0);
}

/* The route of a sized wire whose average length is l_avg (energy), into
 * *r (filled in place: a struct returned by value is assembled and copied,
 * which stalls). */
/* The energy of a sized wire (of worst length l_max) over its average
 * length l_avg: all of a route that the average length changes. */
static inline double route_wire_energy(const gc_env *e, gpurf_wire_kind layer, double l_max,
                                       double l_avg, const route_sized *z) {
  const double v2 = e->vdd_v * e->vdd_v;
  double scale = l_max > 0.0 ? l_avg / l_max : 0.0;
  if (z->w.repeaters > 0) return z->w.energy_j * scale;
  double c_port = gc_inv_input_c(e, GC_PORT_LOAD_MIN * e->w_min_m);
  double c_wire = e->tech->wires.layer[layer].c_f_per_m * l_max;
  return (c_wire * scale + c_port + z->c_taps_f) * v2;
}

static void route_cost(const gc_env *e, gpurf_wire_kind layer, double l_max, double l_avg,
                       const route_sized *z, route *r) {
  const double v2 = e->vdd_v * e->vdd_v;
  const gpurf_wire_layer *wl = &e->tech->wires.layer[layer];
  double c_port = gc_inv_input_c(e, GC_PORT_LOAD_MIN * e->w_min_m);
  double c_wire = wl->c_f_per_m * l_max;
  double c_taps = z->c_taps_f;
  const gc_wire *w = &z->w;
  const gc_chain *d = &z->d;
  if (w->repeaters > 0) {
    r->delay_s = d->delay_s + w->delay_s;
    /* Each repeater restores the edge, so the next access may follow once
     * the previous one has passed the first segment (CACTI takes repeated
     * H-trees as pipelined, uca.cc). */
    r->stage_s = d->delay_s + w->delay_s / w->repeaters;
    r->driver_energy_j = d->energy_j;
    r->wire_energy_j = route_wire_energy(e, layer, l_max, l_avg, z);
    r->wire_leak_w = w->leak_w;
    r->wire_area_m2 = w->area_m2;
    r->driver_leak_w = d->leak_w;
    r->driver_area_m2 = d->area_m2;
  } else {
    r->delay_s = d->delay_s + GC_SAKURAI_DISTRIBUTED_RC * wl->r_ohm_per_m * l_max * c_wire;
    r->stage_s = r->delay_s;
    double c_load = c_wire + c_port + c_taps;
    r->driver_energy_j = d->energy_j - c_load * v2;
    r->wire_energy_j = route_wire_energy(e, layer, l_max, l_avg, z);
    r->wire_leak_w = 0.0;
    r->wire_area_m2 = 0.0;
    r->driver_leak_w = d->leak_w;
    r->driver_area_m2 = d->area_m2;
  }
}

/* A wire of worst length l_max (delay) and average length l_avg (energy)
 * shared by `taps` sources (route_size). */
static route route_eval(const bank_in *in, gpurf_wire_kind layer, double l_max, double l_avg,
                        int taps) {
  const gc_env *e = &in->env;
  route_sized z;
  route r;
  route_size(in, layer, l_max, l_max > 0.0 ? gc_wire_rep_delay(e, layer, l_max) : 0.0, taps, NULL,
             &z);
  route_cost(e, layer, l_max, l_avg, &z, &r);
  return r;
}

/* Levels of a binary tree reaching n leaves. */
static int tree_levels(int n) {
  return gc_ceil_log2(n);
}

/* A NAND2 driving four copies of itself: logical effort 4/3 at fan-out 4. */
static double tree_gate_delay(const bank_in *in) {
  return 4.0 / 3.0 * in->env.fo4_s;
}

static int data_wires(const bank_in *in) {
  return in->spec->width_bits * (in->read_paths + in->write_paths);
}

/* dst = k x src by part; restrict lets the compiler take two parts per
 * instruction (the same products). */
static void scale_parts(double *restrict dst, const double *restrict src, double k) {
  for (int p = 0; p < GPURF_BANK_PART_COUNT; p++) dst[p] = k * src[p];
}

/* Tracks over an array of extent len_m that the buses may use:
 * OVER_ARRAY_TRACKS x len / pitch. A zero share over a positive pitch is
 * that zero (its sign too) without the division, which would hold up the
 * candidate's whole layout. */
static inline double over_tracks(double len_m, double pitch_m) {
  double share = OVER_ARRAY_TRACKS * len_m;
  return share == 0.0 && pitch_m > 0.0 ? share : share / pitch_m;
}

/* Zeroes every byte of c but the area, read, write and leakage parts. */
static void clear_but_scaled_parts(gpurf_bank_cost *c) {
  _Static_assert(offsetof(gpurf_bank_cost, read_part_j) ==
                         offsetof(gpurf_bank_cost, area_part_m2) + sizeof c->area_part_m2 &&
                     offsetof(gpurf_bank_cost, write_part_j) ==
                         offsetof(gpurf_bank_cost, read_part_j) + sizeof c->read_part_j &&
                     offsetof(gpurf_bank_cost, delay_part_s) ==
                         offsetof(gpurf_bank_cost, write_part_j) + sizeof c->write_part_j &&
                     offsetof(gpurf_bank_cost, leakage_part_w) ==
                         offsetof(gpurf_bank_cost, delay_part_s) + sizeof c->delay_part_s,
                 "gpurf_bank_cost's parts changed order: update the clearing");
  unsigned char *b = (unsigned char *)c;
  const size_t tail = offsetof(gpurf_bank_cost, leakage_part_w) + sizeof c->leakage_part_w;
  bank_clear_bytes(b, offsetof(gpurf_bank_cost, area_part_m2));
  bank_clear_bytes(c->delay_part_s, sizeof c->delay_part_s);
  bank_clear_bytes(b + tail, sizeof *c - tail);
}

static void bank_layout_mats_tree(const bank_in *in, const gpurf_bank_org *org,
                                  const subarray_cost *sa, gpurf_bank_cost *c, double *bank_w,
                                  double *bank_h);

void bank_layout_single(const bank_in *in, const gpurf_bank_org *org, const subarray_cost *sa,
                        gpurf_bank_cost *c, double *bank_w, double *bank_h) {
  const gc_env *e = &in->env;
  const gpurf_bank_spec *s = in->spec;
  const double pitch = e->tech->wires.layer[GPURF_WIRE_SEMI_GLOBAL].pitch_m;
  const int dw = data_wires(in);
  const int aw = in->wordline_ports * (in->address_bits + CONTROL_WIRES);
  double grid_w = org->ndwl * sa->width_m, grid_h = org->ndbl * sa->height_m;
  /* Cleared first, but for the parts scaled from the sub-array below
   * (bank_clear_bytes says why in pieces). */
  clear_but_scaled_parts(c);
  c->org = *org;
  if (in->whole_mats) {
    bank_layout_mats_tree(in, org, sa, c, bank_w, bank_h);
    return;
  }

  /* Buses: a horizontal bus along the bottom edge converging on the port
   * (half the wires on each side) and, with several sub-array rows, a
   * vertical bus per sub-array column. Wires run over the array on the
   * semi-global layer as far as its tracks allow; only the excess needs a
   * channel of its own beside the array. */
  /* With the port along the edge the data need no horizontal bus: each bit
   * leaves below its own column. */
  const int edge = s->port_along_edge;
  double h_tracks = (edge ? 0.0 : 0.5 * dw) + aw - over_tracks(grid_h, pitch);
  double v_tracks = (double)dw / org->ndwl + aw - over_tracks(sa->width_m, pitch);
  double h_ch = h_tracks > 0.0 ? h_tracks * pitch : 0.0;
  /* Two sub-array rows are one mat in CACTI's sense: their column
   * periphery faces a shared strip, and the mat books its wires as that
   * strip's height (mat.cc: h_addr_datain_wires, h_subarray_out_drv), with
   * no vertical tracks beside its sub-arrays; the wires from the upper row
   * cross the lower one as a sub-array's own output wires do. Channels
   * beside the sub-arrays start with a second mat along the bitline, where
   * the tree between mats runs (htree2.cc). */
  double v_ch = org->ndbl > MAT_SUBARRAY_ROWS && v_tracks > 0.0 ? org->ndwl * v_tracks * pitch : 0.0;
  double w = grid_w + v_ch, h = grid_h + h_ch;
  bank_mat mat;
  bank_mat_of(org, &mat);
  /* Data and address enter and leave a mat of two sub-array rows at the
   * strip between them (CACTI's mat.cc: the sub-array output wire is one
   * sub-array high): the farthest mat's strip lies one sub-array below the
   * top edge, the average one at half the height. */
  double l_vmax = org->ndbl > 1 ? grid_h - sa->height_m : 0.0;
  double l_vavg = org->ndbl > 1 ? 0.5 * grid_h : 0.0;
  double l_max = l_vmax + (edge ? 0.0 : 0.5 * w);
  double l_avg = l_vavg + (edge ? 0.0 : 0.25 * w);
  /* The address always arrives at one point, the middle of the edge. */
  double l_addr_max = l_vmax + 0.5 * w;

  /* Read data leave through a tri-state driver in every mat along a
   * column; write data and the address are driven once, from the port. */
  const int mat_rows = org->ndbl / mat.h;
  /* The three share one worst length (the address unless the data run
   * along the edge): their wire and driver are sized once. */
  route_sized alone, tapped;
  double d_rep = l_max > 0.0 ? gc_wire_rep_delay(e, GPURF_WIRE_SEMI_GLOBAL, l_max) : 0.0;
  route_size(in, GPURF_WIRE_SEMI_GLOBAL, l_max, d_rep, 1, NULL, &alone);
  if (mat_rows > 1)
    route_size(in, GPURF_WIRE_SEMI_GLOBAL, l_max, d_rep, mat_rows, &alone, &tapped);
  route out, in_data, addr;
  /* Routes of one sized wire differ by their average length alone: one
   * of them is costed, the others take its figures but the wire's energy. */
  route_cost(e, GPURF_WIRE_SEMI_GLOBAL, l_max, l_avg, mat_rows > 1 ? &tapped : &alone, &out);
  if (mat_rows > 1) route_cost(e, GPURF_WIRE_SEMI_GLOBAL, l_max, l_avg, &alone, &in_data);
  else in_data = out;
  /* Address: to the farthest sub-array for delay; for energy along a spine
   * the width of the bank and up every sub-array column. */
  double l_addr_tot = w + (org->ndbl > 1 ? org->ndwl * grid_h : 0.0);
  if (l_addr_max == l_max) {
    addr = in_data;
    addr.wire_energy_j = route_wire_energy(e, GPURF_WIRE_SEMI_GLOBAL, l_max, l_addr_tot, &alone);
  } else
    addr = route_eval(in, GPURF_WIRE_SEMI_GLOBAL, l_addr_max, l_addr_tot, 1);

  int nsub = org->ndwl * org->ndbl;
  scale_parts(c->area_part_m2, sa->area_part_m2, nsub);
  scale_parts(c->leakage_part_w, sa->leak_part_w, nsub);
  /* One row of ndwl sub-arrays serves an access (with whole mats, both
   * rows of each mat along it). */
  const int open = bank_open_subarrays(in, org);
  scale_parts(c->read_part_j, sa->read_part_j, open);
  scale_parts(c->write_part_j, sa->write_part_j, open);
  c->leakage_gate_w = nsub * sa->gate_leak_w;

  double w_bits = s->width_bits, act = s->data_activity;
  int out_wires = s->width_bits * in->read_paths, in_wires = s->width_bits * in->write_paths;
  double addr_e = ADDRESS_ACTIVITY * aw / in->wordline_ports * (addr.wire_energy_j + addr.driver_energy_j);
  c->read_part_j[GPURF_BANK_PART_OUTPUT_DRIVER] = act * w_bits * out.driver_energy_j;
  c->read_part_j[GPURF_BANK_PART_ROUTING] = act * w_bits * out.wire_energy_j + addr_e;
  c->write_part_j[GPURF_BANK_PART_ROUTING] =
      act * w_bits * (in_data.wire_energy_j + in_data.driver_energy_j) + addr_e;
  c->area_part_m2[GPURF_BANK_PART_OUTPUT_DRIVER] = (double)mat_rows * out_wires * out.driver_area_m2;
  c->leakage_part_w[GPURF_BANK_PART_OUTPUT_DRIVER] = (double)mat_rows * out_wires * out.driver_leak_w;
  c->area_part_m2[GPURF_BANK_PART_ROUTING] =
      h_ch * w + v_ch * grid_h + out_wires * out.wire_area_m2 +
      in_wires * (in_data.wire_area_m2 + in_data.driver_area_m2) +
      aw * (addr.wire_area_m2 + addr.driver_area_m2);
  c->leakage_part_w[GPURF_BANK_PART_ROUTING] =
      out_wires * out.wire_leak_w + in_wires * (in_data.wire_leak_w + in_data.driver_leak_w) +
      aw * (addr.wire_leak_w + addr.driver_leak_w);
  route data = out;
  /* The address tree gates each branch point (only the selected branch
   * toggles) and the data tree selects among its branches: one gate per
   * level of a tree over the mats, each way (CACTI's H-tree ends at the
   * mats, htree2.cc; inside a mat the sub-arrays' own drivers reach the
   * strip). */
  double t_tree = 2.0 * tree_levels(mat.count) * tree_gate_delay(in);
  double t_route = addr.delay_s + data.delay_s + t_tree;
  c->delay_part_s[GPURF_BANK_PART_ROUTING] = t_route;
  c->delay_part_s[GPURF_BANK_PART_DECODER] = sa->t_decode_s;
  c->delay_part_s[GPURF_BANK_PART_WORDLINE] = sa->t_wordline_s;
  c->delay_part_s[GPURF_BANK_PART_BITLINE] = sa->t_bitline_s;
  c->delay_part_s[GPURF_BANK_PART_SENSE_AMP] = sa->t_sense_s;
  /* The access time is the sum of the parts in part order. The others are
   * still 0 here, and adding +0 to a sum that starts at +0 changes no bit,
   * so the sum is taken from the values, not read back from the cleared
   * record (those reads would wait for the clearing). */
  _Static_assert(GPURF_BANK_PART_DECODER < GPURF_BANK_PART_WORDLINE &&
                     GPURF_BANK_PART_WORDLINE < GPURF_BANK_PART_BITLINE &&
                     GPURF_BANK_PART_BITLINE < GPURF_BANK_PART_SENSE_AMP &&
                     GPURF_BANK_PART_SENSE_AMP < GPURF_BANK_PART_ROUTING,
                 "the access time adds the delay parts in part order");
  c->access_time_s =
      0.0 + sa->t_decode_s + sa->t_wordline_s + sa->t_bitline_s + sa->t_sense_s + t_route;
  /* Cycle time as CACTI composes its random cycle (uca.cc, mat.cc): the
   * sub-array is one stage, busy from its row gate firing through wordline,
   * bitline and sense to the restore (the wordline's fall, the precharge
   * enable across the sub-array, the bitline back to its precharge level);
   * the decoder and each route are stages of their own that the next
   * access may enter while the array finishes. The cycle is the slowest
   * stage. Every stage but the restore lies on the access path, so
   * access + restore >= cycle. */
  c->restore_time_s = sa->t_wl_reset_s + sa->t_precharge_drv_s + sa->t_precharge_s;
  double t_stage[] = {sa->t_row_gate_s + sa->t_wordline_s + sa->t_bitline_s + sa->t_sense_s +
                          c->restore_time_s,
                      sa->t_decode_s, addr.stage_s, data.stage_s};
  double t_cycle = 0.0;
  for (size_t k = 0; k < sizeof t_stage / sizeof t_stage[0]; k++)
    t_cycle = t_stage[k] > t_cycle ? t_stage[k] : t_cycle;
  c->cycle_time_s = t_cycle;
  double t_in = addr.delay_s > data.delay_s ? addr.delay_s : data.delay_s;
  c->write_latency_s = t_in + 0.5 * t_tree + sa->t_decode_s + sa->t_wordline_s + sa->t_write_s;
  *bank_w = w;
  *bank_h = h;
}

/* The links of the H-tree from the port to one bank, in CACTI's order
 * (htree2.cc): while there are more horizontal levels than vertical ones a
 * horizontal link alone, then a horizontal and a vertical link per level,
 * then the vertical links left. The first horizontal link is half the
 * group's width (the port at the middle of its side to the centre), the
 * first vertical one a quarter of its height, each next one half as long.
 * Each link ends where the tree splits in two, so link i exists 2^i times.
 * Fills the length of one path and of the whole tree (one wire each). */
static void htree_lengths(double w, double h, int lev_h, int lev_v, double *path, double *tree) {
  double len = 0.5 * w, ht = 0.25 * h, copies = 1.0;
  *path = *tree = 0.0;
  while (lev_h > 0 || lev_v > 0) {
    double link[2];
    int k = 0;
    if (lev_h > lev_v) {
      link[k++] = len;
      len *= 0.5;
      lev_h--;
    } else if (lev_h > 0) {
      link[k++] = len;
      link[k++] = ht;
      len *= 0.5;
      ht *= 0.5;
      lev_h--;
      lev_v--;
    } else {
      link[k++] = ht;
      ht *= 0.5;
      lev_v--;
    }
    for (int i = 0; i < k; i++) {
      *path += link[i];
      *tree += copies * link[i];
      copies *= 2.0;
    }
  }
}

/* Widening of the group by the tree's buses: each level's links carry the
 * whole bus beside the banks, the next level's half as far (CACTI's
 * bus x 2 (1 - 2^-levels)). */
static double bus_channel(double bus_w, int levels) {
  double half_pow = 1.0; /* 2^-levels, exactly */
  for (int i = 0; i < levels; i++) half_pow *= 0.5;
  return 2.0 * bus_w * (1.0 - half_pow);
}

void bank_layout_prepare(bank_in *in) {
  const gc_env *e = &in->env;
  layout_fixed *lf = &in->layout;
  lf->c_port_f = gc_inv_input_c(e, GC_PORT_LOAD_MIN * e->w_min_m);
  lf->r_port_ohm = gc_inv_r(e, GC_PORT_LOAD_MIN * e->w_min_m);
  lf->c_in_min_f = gc_inv_input_c(e, e->w_min_m);
  /* The source drivers of repeated routes, as route_size sizes them. */
  const gpurf_cell_kind kind = in->spec->cell->kind;
  lf->rep_k_max = -1;
  if (kind == GPURF_CELL_SRAM || kind == GPURF_CELL_STT_MTJ) {
    /* Taps are the mats along a column: at most half the sub-arrays along
     * the bitline, which the search takes up to the next power of two of
     * the words (and the table's last count). */
    int k_max = gc_ceil_log2(in->entries_per_bank) - 1;
    if (k_max > LAYOUT_TAPS_LOG2 - 1) k_max = LAYOUT_TAPS_LOG2 - 1;
    if (k_max < 0) k_max = 0;
    lf->rep_k_max = k_max;
    for (int k = 0; k <= k_max; k++) {
      int taps = 1 << k;
      lf->rep_c_taps_f[k] =
          taps > 1 ? (taps - 1) * gc_inv_drain_c(e, lf->rep_chain[0].last_wn_m) : 0.0;
      lf->rep_chain[k] =
          gc_driver_chain(e, lf->c_in_min_f, lf->c_port_f + lf->rep_c_taps_f[k], 0.0, 0.0);
    }
  }
  /* The grid as CACTI lays out its banks (uca.cc): the counts as even as
   * powers of two allow, the larger count along the banks' shorter side,
   * whatever the banks' shape (not the most compact placement: a wide bank
   * still gets as many rows of banks as columns). Either shape's grid and
   * the widening by its buses depend on the bank count alone. */
  const int n = in->spec->banks;
  if (n > 1) {
    int few = 1;
    while (few * few * 4 <= n) few *= 2;
    int many = (n + few - 1) / few;
    const double pitch = e->tech->wires.layer[INTERBANK_LAYER].pitch_m;
    int bank_bits = gc_ceil_log2(n);
    int aw = in->wordline_ports * (in->address_bits + bank_bits + CONTROL_WIRES);
    int dw = data_wires(in);
    double bus_w = (dw + aw) * pitch;
    for (int tall = 0; tall < 2; tall++) {
      interbank_grid *g = &lf->grid[tall];
      g->nx = tall ? many : few;
      g->ny = tall ? few : many;
      g->lev_h = tree_levels(g->nx);
      g->lev_v = tree_levels(g->ny);
      g->aw = aw;
      g->dw = dw;
      g->channel_w_m = bus_channel(bus_w, g->lev_v);
      g->channel_h_m = bus_channel(bus_w, g->lev_h);
    }
  }
  /* The tree between banks is built of bus wires on its layer, and so, in
   * the cacti space, is the tree between a bank's mats. (An environment
   * the context kept has its plan: NaN marks none.) */
  if ((in->spec->banks > 1 || in->whole_mats) && isnan(in->env.bus[INTERBANK_LAYER].spacing_m))
    bank_layout_plan_buses(&in->env);
}

void bank_layout_plan_buses(gc_env *e) { gc_env_plan_bus(e, INTERBANK_LAYER); }

/* A bank as CACTI 7 builds it (the cacti space, whole mats): mats of 2 x 2
 * sub-arrays whose data leave each sub-array across its own width to the
 * mat's centre (mat.cc: the sub-array output wire is one sub-array wide),
 * the address entering at the mat's predecoder in the middle of its strip;
 * with several mats an H-tree of repeated bus wires from the bank's root to
 * each mat's centre (htree2.cc), whose buses widen the bank as between
 * banks (bus_channel), and none with one mat: the bank's boundary is its
 * tree's root, where CACTI stops counting. */
static void bank_layout_mats_tree(const bank_in *in, const gpurf_bank_org *org,
                                  const subarray_cost *sa, gpurf_bank_cost *c, double *bank_w,
                                  double *bank_h) {
  const gc_env *e = &in->env;
  const gpurf_bank_spec *s = in->spec;
  const int dw = data_wires(in);
  const int aw = in->wordline_ports * (in->address_bits + CONTROL_WIRES);
  const int nx = org->ndwl >= 2 ? org->ndwl / 2 : 1, ny = org->ndbl >= 2 ? org->ndbl / 2 : 1;
  const int lev_h = tree_levels(nx), lev_v = tree_levels(ny);
  const double pitch = e->tech->wires.layer[INTERBANK_LAYER].pitch_m;
  /* The strip between a mat's two rows of sub-arrays carries its address
   * and, under each sub-array, that sub-array's data in and out, one track
   * each (mat.cc: h_addr_datain_wires). */
  const double strip_h = (aw + 0.5 * dw / nx) * pitch;
  const double mat_w = (org->ndwl >= 2 ? 2 : 1) * sa->width_m;
  const double mat_h = (org->ndbl >= 2 ? 2 : 1) * sa->height_m + strip_h;
  const double bus_w = (dw + aw) * pitch;
  double w = nx * mat_w + bus_channel(bus_w, lev_v);
  double h = ny * mat_h + bus_channel(bus_w, lev_h);
  double path = 0.0, tree = 0.0;
  if (nx * ny > 1) htree_lengths(w, h, lev_h, lev_v, &path, &tree);

  /* Inside a mat each bit leaves its sub-array through a driver onto a
   * wire one sub-array wide to the mat's centre line (mat.cc: the
   * sub-array output wire, per output bit); the address reaches the mat's
   * predecoder at that line without a wire of its own. CACTI builds that
   * wire, as the trees, as a repeated bus wire (its Global_30 wire type for
   * every wire outside the sub-arrays), so it is the tree's wire here. */
  route out = route_eval(in, GPURF_WIRE_SEMI_GLOBAL, 0.0, 0.0, 1);
  route addr = out;

  const int open = bank_open_subarrays(in, org);
  const int nsub = org->ndwl * org->ndbl;
  scale_parts(c->area_part_m2, sa->area_part_m2, nsub);
  scale_parts(c->leakage_part_w, sa->leak_part_w, nsub);
  scale_parts(c->read_part_j, sa->read_part_j, open);
  scale_parts(c->write_part_j, sa->write_part_j, open);
  c->leakage_gate_w = nsub * sa->gate_leak_w;

  const gc_repeater_plan *bus = &e->bus[INTERBANK_LAYER];
  const double v2 = e->vdd_v * e->vdd_v;
  /* One bit's way: the mat's wire across the cells of its sub-array (the
   * decoder column sits at the mat's centre line, where the wire ends),
   * then the tree. */
  const double array_w = org->cols * in->cell_w_m;
  const double l_data = path + array_w;
  double e_tree = bus->cap_f_per_m * path * v2, e_data = bus->cap_f_per_m * l_data * v2;
  double t_tree = bus->delay_s_per_m * path, t_data = bus->delay_s_per_m * l_data;
  double w_bits = s->width_bits, act = s->data_activity;
  const int mats = nx * ny;
  double addr_e = ADDRESS_ACTIVITY * aw / in->wordline_ports *
                  (addr.wire_energy_j + addr.driver_energy_j + e_tree);
  c->read_part_j[GPURF_BANK_PART_OUTPUT_DRIVER] = act * w_bits * out.driver_energy_j;
  c->read_part_j[GPURF_BANK_PART_ROUTING] = act * w_bits * (out.wire_energy_j + e_data) + addr_e;
  c->write_part_j[GPURF_BANK_PART_ROUTING] =
      act * w_bits * (out.wire_energy_j + out.driver_energy_j + e_data) + addr_e;
  /* A driver per data wire per mat; the mats' wires (every mat along the
   * bitline has its own) and the tree's repeaters. */
  const double mat_wire_m = (double)s->width_bits * in->read_paths * ny * array_w;
  c->area_part_m2[GPURF_BANK_PART_OUTPUT_DRIVER] = (double)mats * dw * out.driver_area_m2;
  c->leakage_part_w[GPURF_BANK_PART_OUTPUT_DRIVER] = (double)mats * dw * out.driver_leak_w;
  c->area_part_m2[GPURF_BANK_PART_ROUTING] =
      w * h - nx * mat_w * ny * (mat_h - strip_h) +
      ((dw + aw) * tree + mat_wire_m) * bus->area_m2_per_m;
  c->leakage_part_w[GPURF_BANK_PART_ROUTING] = ((dw + aw) * tree + mat_wire_m) * bus->leak_w_per_m;
  c->leakage_gate_w += ((dw + aw) * tree + mat_wire_m) * bus->gate_leak_w_per_m;

  /* Address down the tree, data back up it. Each link ends at a branch
   * with a gate of its own (htree2.cc): a NAND that steers the address into
   * the selected branch, and on the way out a tri-state driver onto the
   * next link (logical effort 2, at fan-out 4: 2 FO4). */
  const int links = lev_h + lev_v;
  double t_gates_in = links * tree_gate_delay(in), t_gates_out = links * 2.0 * e->fo4_s;
  t_tree += t_gates_in;
  double t_route = addr.delay_s + t_tree + out.delay_s + t_data + t_gates_out;
  c->delay_part_s[GPURF_BANK_PART_ROUTING] = t_route;
  c->delay_part_s[GPURF_BANK_PART_DECODER] = sa->t_decode_s;
  c->delay_part_s[GPURF_BANK_PART_WORDLINE] = sa->t_wordline_s;
  c->delay_part_s[GPURF_BANK_PART_BITLINE] = sa->t_bitline_s;
  c->delay_part_s[GPURF_BANK_PART_SENSE_AMP] = sa->t_sense_s;
  c->access_time_s =
      0.0 + sa->t_decode_s + sa->t_wordline_s + sa->t_bitline_s + sa->t_sense_s + t_route;
  /* The cycle as bank_layout_single takes it; the wires are pipelined at
   * their repeaters. */
  c->restore_time_s = sa->t_wl_reset_s + sa->t_precharge_drv_s + sa->t_precharge_s;
  double t_seg = bus->delay_s_per_m * (l_data < bus->spacing_m ? l_data : bus->spacing_m);
  double t_stage[] = {sa->t_row_gate_s + sa->t_wordline_s + sa->t_bitline_s + sa->t_sense_s +
                          c->restore_time_s,
                      sa->t_decode_s, addr.stage_s + t_seg, out.stage_s + t_seg};
  double t_cycle = 0.0;
  for (size_t k = 0; k < sizeof t_stage / sizeof t_stage[0]; k++)
    t_cycle = t_stage[k] > t_cycle ? t_stage[k] : t_cycle;
  c->cycle_time_s = t_cycle;
  c->write_latency_s = addr.delay_s + t_tree + sa->t_decode_s + sa->t_wordline_s + sa->t_write_s;
  *bank_w = w;
  *bank_h = h;
}

void bank_layout_multi(const bank_in *in, double bank_w, double bank_h, gpurf_bank_cost *c) {
  const gpurf_bank_spec *s = in->spec;
  const int n = s->banks;
  const gc_env *e = &in->env;
  /* One bank is its own total (x 1 changes no bit). */
  if (n > 1) {
    for (int p = 0; p < GPURF_BANK_PART_COUNT; p++) {
      c->area_part_m2[p] *= n;
      c->leakage_part_w[p] *= n;
    }
    c->leakage_gate_w *= n;
  }
  if (n > 1) {
    /* The grid and its buses (bank_layout_prepare), by the banks' shape. */
    const interbank_grid *g = &in->layout.grid[bank_h > bank_w];
    int nx = g->nx, ny = g->ny;
    int lev_h = g->lev_h, lev_v = g->lev_v;
    int aw = g->aw, dw = g->dw;
    double tot_w = nx * bank_w + g->channel_w_m;
    double tot_h = ny * bank_h + g->channel_h_m;
    double path, tree;
    htree_lengths(tot_w, tot_h, lev_h, lev_v, &path, &tree);
    /* Every link is a repeated bus wire (bus_wire.c), as CACTI builds the
     * links of its tree: delay and energy grow with the path, and the tree
     * has no gates or source drivers of its own (the banks' tri-state
     * output drivers select among them). */
    const gc_repeater_plan *bus = &e->bus[INTERBANK_LAYER];
    route data, addr;
    memset(&data, 0, sizeof data);
    data.delay_s = bus->delay_s_per_m * path;
    /* Pipelined at its repeaters: a stage is one repeater and its segment. */
    data.stage_s = bus->delay_s_per_m * (path < bus->spacing_m ? path : bus->spacing_m);
    data.wire_energy_j = bus->cap_f_per_m * path * e->vdd_v * e->vdd_v;
    addr = data;
    double addr_e = ADDRESS_ACTIVITY * aw / in->wordline_ports * addr.wire_energy_j;
    double data_e = s->data_activity * s->width_bits * data.wire_energy_j;
    c->read_part_j[GPURF_BANK_PART_INTERBANK] = data_e + addr_e;
    c->write_part_j[GPURF_BANK_PART_INTERBANK] = data_e + addr_e;
    /* Repeaters sit on every branch, so area and leakage count the whole
     * tree; the path's share is kept apart (CACTI prints that one). */
    c->area_part_m2[GPURF_BANK_PART_INTERBANK] =
        tot_w * tot_h - n * bank_w * bank_h + (dw + aw) * tree * bus->area_m2_per_m;
    c->leakage_part_w[GPURF_BANK_PART_INTERBANK] = (dw + aw) * tree * bus->leak_w_per_m;
    c->interbank_leakage_gate_w = (dw + aw) * tree * bus->gate_leak_w_per_m;
    c->leakage_gate_w += c->interbank_leakage_gate_w;
    c->interbank_path_leakage_sub_w = (dw + aw) * path * bus->leak_w_per_m;
    c->interbank_path_leakage_gate_w = (dw + aw) * path * bus->gate_leak_w_per_m;
    c->delay_part_s[GPURF_BANK_PART_INTERBANK] = addr.delay_s + data.delay_s;
    c->access_time_s += addr.delay_s + data.delay_s;
    /* Each direction of the tree is pipelined at its repeaters: its longest
     * unrepeated piece is a stage of its own. */
    if (addr.stage_s > c->cycle_time_s) c->cycle_time_s = addr.stage_s;
    if (data.stage_s > c->cycle_time_s) c->cycle_time_s = data.stage_s;
    c->write_latency_s += addr.delay_s > data.delay_s ? addr.delay_s : data.delay_s;
  }
  /* Sums in locals, part by part in order (the same additions). */
  double area = 0.0, leak = 0.0, e_rd = 0.0, e_wr = 0.0;
  for (int p = 0; p < GPURF_BANK_PART_COUNT; p++) {
    area += c->area_part_m2[p];
    leak += c->leakage_part_w[p];
    e_rd += c->read_part_j[p];
    e_wr += c->write_part_j[p];
  }
  c->area_m2 = area;
  c->leakage_sub_w = leak;
  c->read_energy_j = e_rd;
  c->write_energy_j = e_wr;
}
