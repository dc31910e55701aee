/* Jeon et al.'s register renaming table ("GPU register file virtualization",
 * MICRO 2015): one entry per warp and renamed architected register holding a
 * physical register id of ceil(log2(physical registers)) bits, in banks so
 * the operands of an instruction look up concurrently; per bank an
 * availability bit vector with a find-first-free encoder; and the release
 * flag cache holding the 54 flag bits of recent per-instruction release
 * instructions. Sizing: warps x renamed registers x id bits. With a byte
 * budget the compiler renames only the registers that fit (Jeon's 1 KB
 * table: the longest-lived are exempted and mapped directly). */
#include <math.h>
#include <string.h>

#include "component/comp_internal.h"
#include "core/ctx_internal.h"

#define MAX_WARPS 4096
#define MAX_REGS 4096
#define MAX_PHYS (1 << 20)
#define MAX_BANKS 64

void gpurf_rename_spec_init(gpurf_rename_spec *s) {
  memset(s, 0, sizeof *s);
  s->device = GPURF_DEVICE_HP;
  s->temp_k = GPURF_DEFAULT_TEMP_K;
  s->warps = 48;
  s->arch_regs = 63;
  s->phys_regs = 1024;
  s->banks = 4;
  s->flag_entries = 10;
  s->flag_bits = 54;
}

static int check(gpurf_ctx *ctx, const gpurf_rename_spec *s) {
  int rc = comp_check_env(ctx, "renaming table", s->tech, s->device, s->temp_k);
  if (rc != GPURF_OK) return rc;
  if (!s->cells) return gpurf_fail(ctx, GPURF_EINVAL, "renaming table: no SRAM cells given");
  if (s->warps < 1 || s->warps > MAX_WARPS)
    return gpurf_fail(ctx, GPURF_EINVAL, "renaming table: %d warps is outside 1..%d", s->warps,
                      MAX_WARPS);
  if (s->arch_regs < 1 || s->arch_regs > MAX_REGS)
    return gpurf_fail(ctx, GPURF_EINVAL, "renaming table: %d registers is outside 1..%d",
                      s->arch_regs, MAX_REGS);
  if (s->banks < 1 || s->banks > MAX_BANKS)
    return gpurf_fail(ctx, GPURF_EINVAL, "renaming table: %d banks is outside 1..%d", s->banks,
                      MAX_BANKS);
  if (s->phys_regs < 2 || s->phys_regs > MAX_PHYS || s->phys_regs % s->banks != 0)
    return gpurf_fail(ctx, GPURF_EINVAL,
                      "renaming table: %d physical registers must be 2..%d and fill %d banks "
                      "evenly", s->phys_regs, MAX_PHYS, s->banks);
  if (s->budget_bytes < 0)
    return gpurf_fail(ctx, GPURF_EINVAL, "renaming table: budget must be 0 (none) or positive");
  if (s->flag_entries < 0 || (s->flag_entries > 0 && (s->flag_bits < 1 || s->flag_tag_bits < 0)))
    return gpurf_fail(ctx, GPURF_EINVAL,
                      "renaming table: a release flag cache needs at least one flag bit");
  return GPURF_OK;
}

/* One bank's availability vector: the bits, a find-first-set encoder over
 * them (prefix OR, grant, an OR tree per id bit) and the set/clear decoder. */
typedef struct avail {
  logic_sum find, mark, bits;
  int find_levels;
} avail;

static avail avail_bank(const gc_env *e, const logic_gate *g, long long n) {
  avail a;
  memset(&a, 0, sizeof a);
  int lv = logic_tree_levels(n), idb = comp_bits_for(n);
  logic_add_gates(&a.find, g, 0.5 * (double)n * lv + (double)n, 2.0);
  logic_add_gates(&a.find, g, (double)idb * (double)logic_tree_gates(n / 2), 1.0);
  logic_add_gates(&a.mark, g, (double)logic_decoder_gates(n) + 2.0 * (double)n, 1.0);
  logic_add_flops(&a.bits, e, (double)n);
  a.find_levels = lv + 1 + logic_tree_levels(n / 2);
  return a;
}

int gpurf_rename_eval(gpurf_ctx *ctx, const gpurf_rename_spec *s, gpurf_rename_cost *cost) {
  if (!ctx || !s || !cost) return GPURF_EINVAL;
  int rc = check(ctx, s);
  if (rc != GPURF_OK) return rc;
  gpurf_rename_cost c;
  memset(&c, 0, sizeof c);
  c.entry_bits = comp_bits_for(s->phys_regs);
  c.renamed_regs = s->arch_regs;
  if (s->budget_bytes > 0) {
    long long fit = s->budget_bytes * 8 / ((long long)s->warps * c.entry_bits);
    if (fit < 1)
      return gpurf_fail(ctx, GPURF_EINVAL,
                        "renaming table: a budget of %lld bytes holds no register for %d warps "
                        "of %d-bit entries", s->budget_bytes, s->warps, c.entry_bits);
    if (fit < c.renamed_regs) c.renamed_regs = (int)fit;
  }
  c.exempt_regs = s->arch_regs - c.renamed_regs;
  c.table_bits = (long long)s->warps * c.renamed_regs * c.entry_bits;
  c.availability_bits = s->phys_regs;
  c.flag_cache_bits = (long long)s->flag_entries * (s->flag_bits + s->flag_tag_bits);

  const gpurf_ports one_rw = {1, 0, 0};
  rc = comp_array_eval(ctx, s->tech, s->device, s->temp_k, s->cells,
                       (long long)s->warps * c.renamed_regs, c.entry_bits, one_rw, s->banks,
                       &c.table);
  if (rc != GPURF_OK) return rc;
  if (s->flag_entries > 0) {
    rc = comp_array_eval(ctx, s->tech, s->device, s->temp_k, s->cells, s->flag_entries,
                         s->flag_bits + s->flag_tag_bits, one_rw, 1, &c.flag_cache);
    if (rc != GPURF_OK) return rc;
  }

  gc_env e;
  if ((rc = gc_env_init(ctx, &e, s->tech, s->device, s->temp_k, 1)) != GPURF_OK) return rc;
  logic_gate g = logic_nand2(&e);
  avail a = avail_bank(&e, &g, s->phys_regs / s->banks);
  const double v2 = e.vdd_v * e.vdd_v;
  /* One flip-flop written per event, its clock gated otherwise. */
  double flop_j = (a.bits.cap_f + a.bits.clock_cap_f) / (double)(s->phys_regs / s->banks) * v2;
  double avail_area_m2 = s->banks * (a.find.area_m2 + a.mark.area_m2 + a.bits.area_m2);
  double alloc_j = LOGIC_ACTIVITY * (a.find.cap_f + a.mark.cap_f) * v2 + flop_j;
  double release_j = LOGIC_ACTIVITY * a.mark.cap_f * v2 + flop_j;
  double alloc_s = logic_path_s(&e, &g, a.find_levels, 2.0, g.c_in_f);

  gpurf_component_cost *b = &c.base;
  b->kind = "rename_table";
  comp_cost_event(b, GPURF_EV_LOOKUP, c.table.read_energy_j, c.table.access_time_s);
  comp_cost_event(b, GPURF_EV_UPDATE, c.table.write_energy_j, 0.0);
  comp_cost_event(b, GPURF_EV_ALLOC, alloc_j, alloc_s);
  comp_cost_event(b, GPURF_EV_RELEASE, release_j, 0.0);
  comp_cost_event(b, GPURF_EV_FLAG_READ, c.flag_cache.read_energy_j, 0.0);
  comp_cost_event(b, GPURF_EV_FLAG_FILL, c.flag_cache.write_energy_j, 0.0);
  b->access_time_s = c.table.access_time_s;
  comp_cost_part(b, "table", c.table.area_m2);
  comp_cost_part(b, "flag_cache", c.flag_cache.area_m2);
  comp_cost_part(b, "availability", avail_area_m2);
  b->area_m2 = c.table.area_m2 + c.flag_cache.area_m2 + avail_area_m2;
  b->leakage_sub_w = c.table.leakage_sub_w + c.flag_cache.leakage_sub_w +
                     s->banks * (a.find.leak_w + a.mark.leak_w + a.bits.leak_w);
  b->leakage_gate_w = c.table.leakage_gate_w + c.flag_cache.leakage_gate_w +
                      s->banks * (a.find.gate_leak_w + a.mark.gate_leak_w + a.bits.gate_leak_w);
  *cost = c;
  return GPURF_OK;
}
