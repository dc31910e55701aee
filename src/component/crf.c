/* SIMTight's compressed register file (Naylor et al.): the scalar register
 * file (SRF) holds, per architectural vector register, a compressed flag and
 * either a base and a stride code (uniform and affine vectors) or a pointer
 * into the vector register file (VRF). Vectors are allocated from a stack of
 * free VRF slots. The SRF is read by both the write and read pipelines, two
 * operands each: two copies with two read ports each, written together.
 * Storage: SRF = copies x warps x registers x entry bits, VRF = slots x lanes
 * x word bits, stack = slots x ceil(log2 slots). Whether the pointer has a
 * field of its own or shares the base field (the flag says which is held)
 * is a spec option; Fig. 8's totals are those of the shared layout. */
#include <string.h>

#include "component/comp_internal.h"
#include "core/ctx_internal.h"

#define MAX_WARPS 4096
#define MAX_REGS 1024
#define MAX_LANES 1024
#define MAX_WORD 1024
#define MAX_COPIES 16

void gpurf_crf_spec_init(gpurf_crf_spec *s) {
  memset(s, 0, sizeof *s);
  s->device = GPURF_DEVICE_HP;
  s->temp_k = GPURF_DEFAULT_TEMP_K;
  s->warps = 64;
  s->lanes = 32;
  s->arch_regs = 32;
  s->word_bits = 32;
  s->base_bits = 32;
  s->stride_bits = 2;
  s->srf_copies = 2;
  s->pointer_in_base = 1;
  s->srf_ports = (gpurf_ports){0, 2, 1};
  s->vrf_ports = (gpurf_ports){0, 2, 1};
}

static int check(gpurf_ctx *ctx, const gpurf_crf_spec *s) {
  int rc = comp_check_env(ctx, "compressed RF", s->tech, s->device, s->temp_k);
  if (rc != GPURF_OK) return rc;
  if (!s->cells) return gpurf_fail(ctx, GPURF_EINVAL, "compressed RF: no SRAM cells given");
  if (s->warps < 1 || s->warps > MAX_WARPS || s->arch_regs < 1 || s->arch_regs > MAX_REGS)
    return gpurf_fail(ctx, GPURF_EINVAL,
                      "compressed RF: %d warps x %d registers is outside 1..%d x 1..%d", s->warps,
                      s->arch_regs, MAX_WARPS, MAX_REGS);
  if (s->lanes < 1 || s->lanes > MAX_LANES || s->word_bits < 1 || s->word_bits > MAX_WORD)
    return gpurf_fail(ctx, GPURF_EINVAL, "compressed RF: lanes and word bits must be 1..%d",
                      MAX_LANES);
  long long regs = (long long)s->warps * s->arch_regs;
  if (s->vrf_regs < 0 || s->vrf_regs > regs)
    return gpurf_fail(ctx, GPURF_EINVAL,
                      "compressed RF: %d VRF slots is outside 0 (uncompressed)..%lld, the "
                      "architectural registers", s->vrf_regs, regs);
  /* The spill mechanism keeps one free slot per warp in flight and never
   * spills an operand of the current instruction: three slots per warp plus
   * the spill threshold (one per warp). */
  if (s->vrf_regs > 0 && s->vrf_regs < 4 * s->warps)
    return gpurf_fail(ctx, GPURF_EINVAL,
                      "compressed RF: %d VRF slots is below the %d the spill mechanism needs "
                      "(4 per warp)", s->vrf_regs, 4 * s->warps);
  if (s->vrf_regs > 0 && (s->base_bits < 1 || s->base_bits > 64 || s->stride_bits < 0 ||
                          s->stride_bits > 8 || s->srf_copies < 1 || s->srf_copies > MAX_COPIES))
    return gpurf_fail(ctx, GPURF_EINVAL,
                      "compressed RF: base 1..64 bits, stride code 0..8 bits and 1..%d SRF "
                      "copies", MAX_COPIES);
  return GPURF_OK;
}

int gpurf_crf_eval(gpurf_ctx *ctx, const gpurf_crf_spec *s, gpurf_crf_cost *cost) {
  if (!ctx || !s || !cost) return GPURF_EINVAL;
  int rc = check(ctx, s);
  if (rc != GPURF_OK) return rc;
  gpurf_crf_cost c;
  memset(&c, 0, sizeof c);
  const long long regs = (long long)s->warps * s->arch_regs;
  const int vec_bits = s->lanes * s->word_bits;
  const long long slots = s->vrf_regs > 0 ? s->vrf_regs : regs;
  c.vrf_bits = slots * vec_bits;
  rc = comp_array_eval(ctx, s->tech, s->device, s->temp_k, s->cells, slots, vec_bits, s->vrf_ports,
                       1, &c.vrf);
  if (rc != GPURF_OK) return rc;
  gpurf_component_cost *b = &c.base;
  b->kind = "compressed_rf";
  b->access_time_s = c.vrf.access_time_s;
  b->area_m2 = c.vrf.area_m2;
  b->leakage_sub_w = c.vrf.leakage_sub_w;
  b->leakage_gate_w = c.vrf.leakage_gate_w;
  if (s->vrf_regs == 0) {
    /* Uncompressed: only the vector array exists, read and written directly. */
    comp_cost_event(b, GPURF_EV_READ, c.vrf.read_energy_j, c.vrf.access_time_s);
    comp_cost_event(b, GPURF_EV_WRITE, c.vrf.write_energy_j, 0.0);
    comp_cost_part(b, "vrf", c.vrf.area_m2);
  } else {
    c.pointer_bits = comp_bits_for(s->vrf_regs);
    int scalar = s->base_bits + s->stride_bits;
    c.srf_entry_bits = 1 + (s->pointer_in_base ? (scalar > c.pointer_bits ? scalar : c.pointer_bits)
                                               : scalar + c.pointer_bits);
    c.srf_bits = (long long)s->srf_copies * regs * c.srf_entry_bits;
    c.stack_bits = (long long)s->vrf_regs * c.pointer_bits;
    const gpurf_ports one_rw = {1, 0, 0};
    rc = comp_array_eval(ctx, s->tech, s->device, s->temp_k, s->cells, regs, c.srf_entry_bits,
                         s->srf_ports, 1, &c.srf);
    if (rc == GPURF_OK)
      rc = comp_array_eval(ctx, s->tech, s->device, s->temp_k, s->cells, s->vrf_regs,
                           c.pointer_bits, one_rw, 1, &c.stack);
    if (rc != GPURF_OK) return rc;
    /* The stack pointer: an up/down counter one bit wider than a slot
     * address (a half adder and a direction gate per bit). */
    gc_env e;
    if ((rc = gc_env_init(ctx, &e, s->tech, s->device, s->temp_k, 1)) != GPURF_OK) return rc;
    logic_gate g = logic_nand2(&e);
    logic_sum sp = {0};
    logic_add_flops(&sp, &e, c.pointer_bits + 1);
    logic_add_gates(&sp, &g, 3.0 * (c.pointer_bits + 1), 1.0);
    double sp_j = (LOGIC_ACTIVITY * sp.cap_f + sp.clock_cap_f) * e.vdd_v * e.vdd_v;
    double read_path_s = c.srf.access_time_s + c.vrf.access_time_s;
    comp_cost_event(b, GPURF_EV_SRF_READ, c.srf.read_energy_j, c.srf.access_time_s);
    comp_cost_event(b, GPURF_EV_SRF_WRITE, s->srf_copies * c.srf.write_energy_j, 0.0);
    comp_cost_event(b, GPURF_EV_VRF_READ, c.vrf.read_energy_j, c.vrf.access_time_s);
    comp_cost_event(b, GPURF_EV_VRF_WRITE, c.vrf.write_energy_j, 0.0);
    comp_cost_event(b, GPURF_EV_STACK_PUSH, c.stack.write_energy_j + sp_j, 0.0);
    comp_cost_event(b, GPURF_EV_STACK_POP, c.stack.read_energy_j + sp_j, 0.0);
    b->access_time_s = read_path_s;
    comp_cost_part(b, "srf", s->srf_copies * c.srf.area_m2);
    comp_cost_part(b, "vrf", c.vrf.area_m2);
    comp_cost_part(b, "stack", c.stack.area_m2);
    comp_cost_part(b, "stack_pointer", sp.area_m2);
    b->area_m2 += s->srf_copies * c.srf.area_m2 + c.stack.area_m2 + sp.area_m2;
    b->leakage_sub_w += s->srf_copies * c.srf.leakage_sub_w + c.stack.leakage_sub_w + sp.leak_w;
    b->leakage_gate_w += s->srf_copies * c.srf.leakage_gate_w + c.stack.leakage_gate_w +
                         sp.gate_leak_w;
  }
  c.total_bits = c.srf_bits + c.vrf_bits + c.stack_bits;
  *cost = c;
  return GPURF_OK;
}
