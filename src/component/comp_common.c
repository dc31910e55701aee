/* Helpers shared by the components: two-input gate logic, flip-flops,
 * argument checks, and SRAM arrays through the bank model. */
#include <math.h>
#include <string.h>

#include "component/comp_internal.h"
#include "core/ctx_internal.h"

logic_gate logic_nand2(const gc_env *e) {
  logic_gate g;
  /* Series NMOS twice the minimum width give the drive of a minimum inverter. */
  double wn = 2.0 * e->w_min_m, wp = gc_inv_wp(e, e->w_min_m);
  g.area_m2 = gc_gate_area_m2(e, 2.0 * wn, 2.0 * wp, 2);
  g.c_in_f = gpurf_circuit_gate_c_f(e->dev, wn + wp);
  g.c_par_f = gpurf_circuit_drain_c_f(e->tech, e->dev, wn) +
              2.0 * gpurf_circuit_drain_c_f(e->tech, e->dev, wp);
  g.r_ohm = gc_inv_r(e, e->w_min_m);
  /* Output high in three of four input states with the NMOS stack off (a
   * stack of two leaks about half of one device); output low in one, both
   * PMOS off. */
  g.leak_w = e->vdd_v * e->periph_leak_factor *
             (0.75 * 0.5 * e->i_off_n * wn + 0.25 * 2.0 * e->i_off_p * wp);
  g.gate_leak_w = 0.5 * e->vdd_v * e->i_gate * 2.0 * (wn + wp);
  g.c_wire_f = sqrt(g.area_m2) * e->tech->wires.layer[GPURF_WIRE_LOCAL].c_f_per_m;
  return g;
}

/* Each gate also drives a local wire about as long as its own footprint. */
void logic_add_gates(logic_sum *s, const logic_gate *g, double count, double fanout) {
  s->area_m2 += count * g->area_m2;
  s->leak_w += count * g->leak_w;
  s->gate_leak_w += count * g->gate_leak_w;
  s->gates += (long long)ceil(count);
  s->cap_f += count * (g->c_par_f + g->c_wire_f + fanout * g->c_in_f);
}

void logic_add_flops(logic_sum *s, const gc_env *e, double count) {
  gc_latch l = gc_latch_min(e);
  s->area_m2 += count * 2.0 * l.area_m2;
  s->leak_w += count * 2.0 * l.leak_w;
  s->gate_leak_w += count * 2.0 * l.gate_leak_w;
  /* A captured change flips both latches' internal nodes and the data pin;
   * the clock pins of both latches are charged every cycle. */
  s->cap_f += count * (2.0 * l.c_int_f + l.c_d_f);
  s->clock_cap_f += count * 2.0 * l.c_en_f;
  s->flops += (long long)ceil(count);
}

void logic_sum_add(logic_sum *dst, const logic_sum *src, double times) {
  dst->area_m2 += times * src->area_m2;
  dst->cap_f += times * src->cap_f;
  dst->clock_cap_f += times * src->clock_cap_f;
  dst->leak_w += times * src->leak_w;
  dst->gate_leak_w += times * src->gate_leak_w;
  dst->gates += (long long)(times * (double)src->gates);
  dst->flops += (long long)(times * (double)src->flops);
}

double logic_path_s(const gc_env *e, const logic_gate *g, int levels, double fanout,
                    double c_last_f) {
  (void)e;
  double t = 0.0, ramp = 0.0;
  for (int i = 0; i < levels; i++) {
    double load = g->c_wire_f + (i == levels - 1 ? c_last_f : fanout * g->c_in_f);
    double d = gpurf_circuit_horowitz_s(ramp, g->r_ohm * (g->c_par_f + load), 0.5, 0.5);
    t += d;
    ramp = d / 0.5;
  }
  return t;
}

long long logic_tree_gates(long long n) { return n > 1 ? n - 1 : 0; }

int logic_tree_levels(long long n) {
  int l = 0;
  while ((1LL << l) < n) l++;
  return l;
}

int comp_bits_for(long long n) { return logic_tree_levels(n); }

long long logic_decoder_gates(long long n) {
  int k = comp_bits_for(n);
  if (k <= 1) return n;
  int a = k / 2, b = k - a;
  long long pa = (1LL << a) * (a > 1 ? a - 1 : 1), pb = (1LL << b) * (b > 1 ? b - 1 : 1);
  return pa + pb + n;
}

int logic_decoder_levels(long long n) {
  int k = comp_bits_for(n);
  if (k <= 1) return 1;
  int b = k - k / 2;
  return logic_tree_levels(b) + 1;
}

int comp_check_env(gpurf_ctx *ctx, const char *what, const gpurf_tech *tech,
                   gpurf_device_kind device, double temp_k) {
  if (!tech) return gpurf_fail(ctx, GPURF_EINVAL, "%s: no technology given", what);
  if ((unsigned)device >= GPURF_DEVICE_COUNT)
    return gpurf_fail(ctx, GPURF_EINVAL, "%s: unknown device flavour", what);
  if (!(temp_k > 0.0) || !isfinite(temp_k))
    return gpurf_fail(ctx, GPURF_EINVAL, "%s: temperature must be above 0 K", what);
  return GPURF_OK;
}

int gpurf_sram_cells_load(gpurf_ctx *ctx, gpurf_sram_cells *out) {
  if (!ctx || !out) return GPURF_EINVAL;
  int rc = gpurf_cell_load(ctx, "sram-6t", &out->single_port);
  if (rc == GPURF_OK) rc = gpurf_cell_load(ctx, "sram-8t-1r1w", &out->dual_port);
  if (rc == GPURF_OK) rc = gpurf_cell_load(ctx, "sram-multiport", &out->multi_port);
  return rc;
}

const gpurf_cell *gpurf_sram_cells_pick(const gpurf_sram_cells *cells, const gpurf_ports *p) {
  if (!cells || !p) return NULL;
  if (p->rw == 1 && p->read == 0 && p->write == 0) return &cells->single_port;
  if (p->rw == 0 && p->read == 1 && p->write == 1) return &cells->dual_port;
  return &cells->multi_port;
}

int comp_array_eval(gpurf_ctx *ctx, const gpurf_tech *tech, gpurf_device_kind device,
                    double temp_k, const gpurf_sram_cells *cells, long long entries, int width,
                    gpurf_ports ports, int banks, gpurf_array_cost *out) {
  gpurf_bank_spec s;
  gpurf_bank_spec_init(&s);
  s.tech = tech;
  s.device = device;
  s.temp_k = temp_k;
  s.ports = ports;
  s.cell = gpurf_sram_cells_pick(cells, &ports);
  s.banks = banks;
  s.entries = (entries + banks - 1) / banks * banks;
  s.width_bits = width;
  gpurf_bank_cost c;
  int rc = gpurf_bank_eval(ctx, &s, &c);
  if (rc != GPURF_OK) return rc;
  memset(out, 0, sizeof *out);
  out->entries = s.entries;
  out->width_bits = width;
  out->banks = banks;
  out->area_m2 = c.area_m2;
  out->read_energy_j = c.read_energy_j;
  out->write_energy_j = c.write_energy_j;
  out->access_time_s = c.access_time_s;
  out->leakage_sub_w = c.leakage_sub_w;
  out->leakage_gate_w = c.leakage_gate_w;
  return GPURF_OK;
}
