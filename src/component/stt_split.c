/* Split sub-array write for STT-RAM banks (WarRF's split bank write): the
 * sub-arrays of a bank form two halves along the bitlines, with the sense
 * amplifiers between them, and each half takes its row address from a latch
 * of its own. The write address is held in the written half's latch for the
 * whole pulse while a read address reaches the other half through a second
 * address path, so a read of one half may proceed during a write of the
 * other. What this adds to a bank, and what it costs:
 *   - a second address bus from the port (read address and write address
 *     travel separately), with its own drivers and repeaters;
 *   - per half, an address latch and a 2:1 multiplexer choosing the read or
 *     the write address for that half;
 *   - one multiplexer and one transparent latch in the address path of every
 *     access. */
#include <math.h>
#include <string.h>

#include "component/bank_internal.h"

/* Control wires of the second path: its valid strobe and the half select. */
#define SPLIT_CONTROL_WIRES 2
/* Random addresses: half the bits toggle per access, costing half of C Vdd^2
 * each (as the shared address bus is charged in bank_layout.c). */
#define SPLIT_ADDRESS_ACTIVITY 0.25

void stt_split_extra(const bank_in *in, const gpurf_bank_org *org, const subarray_cost *sa,
                     gpurf_bank_cost *c, double *bank_w, double *bank_h) {
  (void)org;
  (void)sa;
  const gc_env *e = &in->env;
  const double v2 = e->vdd_v * e->vdd_v;
  const double pitch = e->tech->wires.layer[GPURF_WIRE_SEMI_GLOBAL].pitch_m;
  const int bits = in->address_bits;
  const int wires = bits + SPLIT_CONTROL_WIRES;

  /* The second bus runs along the bottom edge to the middle of the bank,
   * where the sense amplifiers divide the halves, and up to the far half: it
   * takes a channel of its own beside the first bus (conservatively, no
   * tracks over the array are left for it). */
  double w = *bank_w, h = *bank_h;
  double len = 0.5 * w + 0.5 * h;
  gc_wire wire = gc_wire_eval(e, GPURF_WIRE_SEMI_GLOBAL, len, gc_inv_r(e, GC_PORT_LOAD_MIN * e->w_min_m),
                              gc_inv_input_c(e, e->w_min_m));
  gc_chain drv = gc_driver_chain(e, gc_inv_input_c(e, e->w_min_m),
                                 wire.repeaters > 0 ? gc_inv_input_c(e, GC_PORT_LOAD_MIN * e->w_min_m)
                                                    : e->tech->wires.layer[GPURF_WIRE_SEMI_GLOBAL]
                                                              .c_f_per_m * len,
                                 0.0, 0.0);
  double channel = wires * pitch;
  c->area_part_m2[GPURF_BANK_PART_ROUTING] +=
      channel * (w + h) + wires * (wire.area_m2 + drv.area_m2);
  c->leakage_part_w[GPURF_BANK_PART_ROUTING] += wires * (wire.leak_w + drv.leak_w);
  c->leakage_gate_w += wires * drv.gate_leak_w;
  *bank_w = w + channel;
  *bank_h = h + channel;

  /* Latches and multiplexers of the two halves. An access clocks one half's
   * latch; with random addresses half its bits change. Each access still
   * drives one address bus, as before, so the bus adds no dynamic energy. */
  gc_latch lat = gc_latch_min(e);
  gc_mux2 mx = gc_mux2_min(e);
  /* The latch enables pulse (a full charge each); the multiplexer selects
   * of a half change when it turns from reads to writes, about every other
   * access with reads and writes mixed (half a toggle, half of C Vdd^2). */
  double e_access = bits * (lat.c_en_f + 0.25 * mx.c_sel_f) * v2 +
                    SPLIT_ADDRESS_ACTIVITY * bits * (lat.c_d_f + lat.c_int_f + mx.c_out_f) * v2;
  c->read_part_j[GPURF_BANK_PART_DECODER] += e_access;
  c->write_part_j[GPURF_BANK_PART_DECODER] += e_access;
  c->area_part_m2[GPURF_BANK_PART_DECODER] += 2.0 * bits * (lat.area_m2 + mx.area_m2);
  c->leakage_part_w[GPURF_BANK_PART_DECODER] += 2.0 * bits * (lat.leak_w + mx.leak_w);
  c->leakage_gate_w += 2.0 * bits * lat.gate_leak_w;

  /* The multiplexer and the transparent latch each pass the address as a
   * gate of logical effort about 4/3 at fan-out 4 would. */
  double t_path = 2.0 * 4.0 / 3.0 * e->fo4_s;
  c->delay_part_s[GPURF_BANK_PART_DECODER] += t_path;
  c->access_time_s += t_path;
  c->write_latency_s += t_path;
  /* They lengthen the decoder's pipelined stage. */
  if (c->delay_part_s[GPURF_BANK_PART_DECODER] > c->cycle_time_s)
    c->cycle_time_s = c->delay_part_s[GPURF_BANK_PART_DECODER];
}
