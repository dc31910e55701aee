/* WarRF's write pool (Wang and Xie, ACM JETC 12(1), 2015, Section 4.2): an N-entry indicator
 * and an N-entry array of warp registers. The indicator is searched with
 * (warp id, register id) on every access; a matching entry yields its dirty
 * bit and pool id, which select the array entry.
 *
 * The indicator is modelled as a NOR-type CAM built on the SRAM cell: each
 * searched bit is a 6T cell with a compare stack (two series pairs of
 * minimum NMOS) beside it pulling the entry's matchline low on a mismatch;
 * the payload bits (dirty, pool id) are plain 6T cells on a wordline the
 * entry's matchline sense inverter drives. A search drives one searchline
 * of every searched bit, precharges every matchline and discharges those
 * that miss (all but at most one), senses them, and reads the payload of
 * the hit entry on full-swing single-ended bitlines. An update writes a
 * whole entry through a row decoder like an SRAM write. The array is an
 * SRAM bank (gpurf_bank_eval). */
#include <math.h>
#include <string.h>

#include "component/comp_internal.h"
#include "core/ctx_internal.h"

#define MAX_ENTRIES 65536
#define MAX_WARPS 4096
#define MAX_REGS 4096
#define MAX_LANES 1024
#define MAX_WORD 1024

void gpurf_wpool_spec_init(gpurf_wpool_spec *s) {
  memset(s, 0, sizeof *s);
  s->device = GPURF_DEVICE_HP;
  s->temp_k = GPURF_DEFAULT_TEMP_K;
  s->entries = 60;
  s->warps = 48;
  s->arch_regs = 63;
  s->lanes = 32;
  s->word_bits = 32;
  s->ports.rw = 1;
}

static int check(gpurf_ctx *ctx, const gpurf_wpool_spec *s) {
  int rc = comp_check_env(ctx, "write pool", s->tech, s->device, s->temp_k);
  if (rc != GPURF_OK) return rc;
  if (!s->cells) return gpurf_fail(ctx, GPURF_EINVAL, "write pool: no SRAM cells given");
  if (s->entries < 1 || s->entries > MAX_ENTRIES)
    return gpurf_fail(ctx, GPURF_EINVAL, "write pool: %d entries is outside 1..%d", s->entries,
                      MAX_ENTRIES);
  if (s->warps < 1 || s->warps > MAX_WARPS || s->arch_regs < 1 || s->arch_regs > MAX_REGS)
    return gpurf_fail(ctx, GPURF_EINVAL, "write pool: warps and registers must be 1..%d",
                      MAX_WARPS);
  if (s->lanes < 1 || s->lanes > MAX_LANES || s->word_bits < 1 || s->word_bits > MAX_WORD)
    return gpurf_fail(ctx, GPURF_EINVAL, "write pool: lanes and word bits must be 1..%d",
                      MAX_LANES);
  return GPURF_OK;
}

typedef struct cam_cost {
  double area_m2, leak_w, search_j, update_j, search_s;
} cam_cost;

static int cam_eval(gpurf_ctx *ctx, const gpurf_wpool_spec *s, int key, int payload,
                    cam_cost *o) {
  gc_env e;
  int rc = gc_env_init(ctx, &e, s->tech, s->device, s->temp_k, 1);
  if (rc != GPURF_OK) return rc;
  gpurf_cell_dims d;
  if ((rc = gpurf_circuit_cell_dims(ctx, s->tech, &s->cells->single_port, &d)) != GPURF_OK)
    return rc;
  const gpurf_cell_sram *cs = &s->cells->single_port.u.sram;
  const double f = e.f_m, v2 = e.vdd_v * e.vdd_v, wmin = e.w_min_m;
  const double c_loc = s->tech->wires.layer[GPURF_WIRE_LOCAL].c_f_per_m;
  const double r_loc = s->tech->wires.layer[GPURF_WIRE_LOCAL].r_ohm_per_m;
  const int n = s->entries, bits = key + payload;
  logic_gate g = logic_nand2(&e);

  double a_cmp = gc_gate_area_m2(&e, 4.0 * wmin, 0.0, 2);
  double cam_w = d.width_m + a_cmp / d.height_m;
  double row_w = key * cam_w + payload * d.width_m, col_h = n * d.height_m;
  double w_acc = cs->w_access_f * f;

  /* Lines. */
  double c_ml = key * (2.0 * gpurf_circuit_drain_c_f(e.tech, e.dev, wmin) + cam_w * c_loc) +
                gpurf_circuit_drain_c_f(e.tech, e.dev, gc_inv_wp(&e, 2.0 * wmin)) +
                gc_inv_input_c(&e, wmin);
  double c_sl = n * (gpurf_circuit_gate_c_f(e.dev, wmin) + d.height_m * c_loc);
  double c_bl = n * (0.5 * gpurf_circuit_drain_c_f(e.tech, e.dev, w_acc) + d.height_m * c_loc);
  double c_wl_pay = payload * (2.0 * gpurf_circuit_gate_c_f(e.dev, w_acc) + d.width_m * c_loc);
  double c_wl = bits * 2.0 * gpurf_circuit_gate_c_f(e.dev, w_acc) + row_w * c_loc;
  gc_chain sl = gc_driver_chain(&e, gc_inv_input_c(&e, wmin), c_sl, col_h * r_loc, 0.0);
  gc_chain wl = gc_driver_chain(&e, gc_inv_input_c(&e, wmin), c_wl, row_w * r_loc, 0.0);
  /* The matchline's sense inverter drives the payload wordline. */
  gc_chain pay = gc_driver_chain(&e, gc_inv_input_c(&e, wmin), c_wl_pay,
                                 payload * d.width_m * r_loc, 0.0);
  gc_chain wd = gc_driver_chain(&e, gc_inv_input_c(&e, wmin), c_bl, col_h * r_loc, 0.0);
  logic_sum dec = {0}, hit = {0};
  logic_add_gates(&dec, &g, (double)logic_decoder_gates(n), 1.0);
  logic_add_gates(&hit, &g, (double)logic_tree_gates(n), 1.0);

  /* Search: one searchline per searched bit rises (they return low between
   * searches), every missing matchline is recharged, the hit entry's
   * payload bitlines discharge for half the bits and are restored. */
  o->search_j = key * sl.energy_j + (n - 1) * c_ml * v2 + n * pay.input_c_f * v2 + pay.energy_j +
                0.5 * payload * c_bl * v2 + LOGIC_ACTIVITY * hit.cap_f * v2;
  /* Update: decoder, wordline, and one bitline of every written pair pulled down. */
  o->update_j = LOGIC_ACTIVITY * dec.cap_f * v2 + wl.energy_j + bits * wd.energy_j;
  double r_stack = 2.0 * gpurf_circuit_r_on_ohm(e.dev, wmin, 0);
  double t_ml = gpurf_circuit_horowitz_s(sl.out_ramp_s, r_stack * c_ml, 0.5, 0.5);
  double r_read = gpurf_circuit_r_on_ohm(e.dev, w_acc, 0) +
                  gpurf_circuit_r_on_ohm(e.dev, cs->w_pulldown_f * f, 0);
  double t_bl = gpurf_circuit_horowitz_s(pay.out_ramp_s, r_read * c_bl, 0.5, 0.5);
  o->search_s = sl.delay_s + t_ml + pay.delay_s + t_bl;

  /* Footprint: cells, a searchline driver pair per searched bit, a write
   * driver pair per bit, per entry a wordline driver, matchline precharge
   * and sense, and the decoder. */
  double a_cells = n * row_w * d.height_m;
  double a_ml = gc_gate_area_m2(&e, 0.0, gc_inv_wp(&e, 2.0 * wmin), 1) + gc_inv_area_m2(&e, wmin);
  o->area_m2 = a_cells + 2.0 * key * sl.area_m2 + 2.0 * bits * wd.area_m2 +
               n * (wl.area_m2 + pay.area_m2 + a_ml) + dec.area_m2 + hit.area_m2;
  /* Cells leak as SRAM cells (one pull-down, one pull-up, one access device
   * off); each compare pair has an off device on the precharged matchline. */
  double i_cell = e.i_off_n * cs->w_pulldown_f * f + e.i_off_p * cs->w_pullup_f * f +
                  e.i_off_n * w_acc;
  double i_cmp = 0.5 * e.i_off_n * wmin;
  o->leak_w = e.vdd_v * ((double)n * bits * i_cell + (double)n * key * i_cmp) +
              2.0 * key * sl.leak_w + 2.0 * bits * wd.leak_w + n * (wl.leak_w + pay.leak_w) +
              dec.leak_w + hit.leak_w;
  return GPURF_OK;
}

int gpurf_wpool_eval(gpurf_ctx *ctx, const gpurf_wpool_spec *s, gpurf_wpool_cost *cost) {
  if (!ctx || !s || !cost) return GPURF_EINVAL;
  int rc = check(ctx, s);
  if (rc != GPURF_OK) return rc;
  gpurf_wpool_cost c;
  memset(&c, 0, sizeof c);
  c.key_bits = comp_bits_for(s->warps) + comp_bits_for(s->arch_regs);
  if (c.key_bits < 1) c.key_bits = 1;
  c.payload_bits = 1 + comp_bits_for(s->entries);
  c.cam_bits = (long long)s->entries * (c.key_bits + c.payload_bits);
  c.array_bits = (long long)s->entries * s->lanes * s->word_bits;
  rc = comp_array_eval(ctx, s->tech, s->device, s->temp_k, s->cells, s->entries,
                       s->lanes * s->word_bits, s->ports, 1, &c.array);
  if (rc != GPURF_OK) return rc;
  cam_cost cam;
  if ((rc = cam_eval(ctx, s, c.key_bits, c.payload_bits, &cam)) != GPURF_OK) return rc;
  c.cam_leakage_w = cam.leak_w;
  gpurf_component_cost *b = &c.base;
  b->kind = "write_pool";
  comp_cost_event(b, GPURF_EV_CAM_SEARCH, cam.search_j, cam.search_s);
  comp_cost_event(b, GPURF_EV_CAM_UPDATE, cam.update_j, 0.0);
  comp_cost_event(b, GPURF_EV_READ, c.array.read_energy_j, c.array.access_time_s);
  comp_cost_event(b, GPURF_EV_WRITE, c.array.write_energy_j, 0.0);
  b->access_time_s = c.array.access_time_s;
  comp_cost_part(b, "cam", cam.area_m2);
  comp_cost_part(b, "array", c.array.area_m2);
  b->area_m2 = c.array.area_m2 + cam.area_m2;
  /* The CAM model counts subthreshold leakage only. */
  b->leakage_sub_w = c.array.leakage_sub_w + cam.leak_w;
  b->leakage_gate_w = c.array.leakage_gate_w;
  *cost = c;
  return GPURF_OK;
}
