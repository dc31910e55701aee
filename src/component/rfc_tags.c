/* The tag store of a hardware register file cache (Gebhart et al., ACM TOCS
 * 30(2), 2012, Section 4.1: "a stage to check the register file cache tags";
 * Section 6: "The tags for the RFC are located close to the scheduler").
 *
 * Tags are per warp, not per thread: every thread of a warp caches the same
 * registers. The store is a flip-flop array (the bank model's flop array)
 * with a row per active warp holding entries_per_thread tags; a tag is the
 * architected register number, a valid bit and a dirty bit (the RFC writes
 * dirty values back to the MRF on eviction unless liveness says they are
 * dead). A check reads the issuing warp's row once and compares each of the
 * instruction's operands with every tag in parallel: an XOR per register
 * bit, an AND tree over those and the valid bit, and an encoder turning the
 * hit lines into the entry number. The comparators are two-input gates of
 * the shared logic model (an XOR counts as three NAND2-equivalents). */
#include <string.h>

#include "component/comp_internal.h"
#include "core/ctx_internal.h"

#define MAX_WARPS 1024
#define MAX_ENTRIES 64
#define MAX_REGS 4096
#define MAX_LOOKUPS 8
/* NAND2-equivalents of a two-input XOR. */
#define XOR_GATES 3.0

void gpurf_rfc_tags_spec_init(gpurf_rfc_tags_spec *s) {
  memset(s, 0, sizeof *s);
  s->device = GPURF_DEVICE_HP;
  s->temp_k = GPURF_DEFAULT_TEMP_K;
  s->warps = 8;
  s->entries_per_thread = 6;
  s->arch_regs = 63;
  s->lookups = 4;
}

static int check(gpurf_ctx *ctx, const gpurf_rfc_tags_spec *s) {
  int rc = comp_check_env(ctx, "RFC tags", s->tech, s->device, s->temp_k);
  if (rc != GPURF_OK) return rc;
  if (!s->cell || (s->cell->kind != GPURF_CELL_DFF && s->cell->kind != GPURF_CELL_LATCH))
    return gpurf_fail(ctx, GPURF_EINVAL, "RFC tags: the store needs a flip-flop or latch cell");
  if (s->warps < 1 || s->warps > MAX_WARPS)
    return gpurf_fail(ctx, GPURF_EINVAL, "RFC tags: %d warps is outside 1..%d", s->warps,
                      MAX_WARPS);
  if (s->entries_per_thread < 1 || s->entries_per_thread > MAX_ENTRIES)
    return gpurf_fail(ctx, GPURF_EINVAL, "RFC tags: %d entries per thread is outside 1..%d",
                      s->entries_per_thread, MAX_ENTRIES);
  if (s->arch_regs < 2 || s->arch_regs > MAX_REGS)
    return gpurf_fail(ctx, GPURF_EINVAL, "RFC tags: %d registers per thread is outside 2..%d",
                      s->arch_regs, MAX_REGS);
  if (s->lookups < 1 || s->lookups > MAX_LOOKUPS)
    return gpurf_fail(ctx, GPURF_EINVAL, "RFC tags: %d operands per check is outside 1..%d",
                      s->lookups, MAX_LOOKUPS);
  return GPURF_OK;
}

int gpurf_rfc_tags_eval(gpurf_ctx *ctx, const gpurf_rfc_tags_spec *s, gpurf_rfc_tags_cost *cost) {
  if (!ctx || !s || !cost) return GPURF_EINVAL;
  int rc = check(ctx, s);
  if (rc != GPURF_OK) return rc;
  gpurf_rfc_tags_cost c;
  memset(&c, 0, sizeof c);
  const int reg_bits = comp_bits_for(s->arch_regs), n = s->entries_per_thread;
  c.tag_bits = reg_bits + 2;
  c.store_bits = (long long)s->warps * n * c.tag_bits;

  gpurf_bank_spec b;
  gpurf_bank_spec_init(&b);
  b.tech = s->tech;
  b.device = s->device;
  b.temp_k = s->temp_k;
  b.cell = s->cell;
  b.ports = (gpurf_ports){0, 1, 1};
  b.entries = s->warps;
  b.width_bits = n * c.tag_bits;
  gpurf_bank_cost store;
  if ((rc = gpurf_bank_eval(ctx, &b, &store)) != GPURF_OK) return rc;
  c.store = (gpurf_array_cost){s->warps,           b.width_bits,           1,
                               store.area_m2,      store.read_energy_j,    store.write_energy_j,
                               store.access_time_s, store.leakage_sub_w,   store.leakage_gate_w};

  gc_env e;
  if ((rc = gc_env_init(ctx, &e, s->tech, s->device, s->temp_k, 1)) != GPURF_OK) return rc;
  logic_gate g = logic_nand2(&e);
  /* One comparator: an XOR per register bit, an AND tree over those and the
   * valid bit. Per operand: n comparators and an encoder of n hit lines
   * (an OR tree per output bit) with the any-hit OR. */
  logic_sum one = {0};
  logic_add_gates(&one, &g, XOR_GATES * reg_bits, 1.0);
  logic_add_gates(&one, &g, (double)logic_tree_gates(reg_bits + 1), 1.0);
  logic_sum per_operand = {0};
  logic_sum_add(&per_operand, &one, n);
  int idx_bits = comp_bits_for(n);
  logic_add_gates(&per_operand, &g, (double)(idx_bits + 1) * logic_tree_gates(n), 1.0);
  logic_sum cmp = {0};
  logic_sum_add(&cmp, &per_operand, s->lookups);

  const double v2 = e.vdd_v * e.vdd_v;
  /* Row read, then XOR, AND tree and encoder in series. */
  int levels = 2 + logic_tree_levels(reg_bits + 1) + logic_tree_levels(n);
  double check_s = store.access_time_s + logic_path_s(&e, &g, levels, 1.0, g.c_in_f);
  gpurf_component_cost *cb = &c.base;
  cb->kind = "rfc_tags";
  comp_cost_event(cb, GPURF_EV_CHECK, store.read_energy_j + LOGIC_ACTIVITY * cmp.cap_f * v2,
                  check_s);
  comp_cost_event(cb, GPURF_EV_UPDATE, store.write_energy_j, 0.0);
  cb->access_time_s = check_s;
  comp_cost_part(cb, "store", store.area_m2);
  comp_cost_part(cb, "compare", cmp.area_m2);
  cb->area_m2 = store.area_m2 + cmp.area_m2;
  cb->leakage_sub_w = c.store.leakage_sub_w + cmp.leak_w;
  cb->leakage_gate_w = c.store.leakage_gate_w + cmp.gate_leak_w;
  *cost = c;
  return GPURF_OK;
}
