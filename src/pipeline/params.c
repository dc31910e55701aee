/* SM parameters: GTX480 defaults, setting by name, range checks. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "gpurf/metrics.h"
#include "gpurf/pipeline.h"

void gpurf_pipeline_params_init(gpurf_pipeline_params *p) {
  memset(p, 0, sizeof *p);
  /* GPGPU-Sim, configs/tested-cfgs/SM2_GTX480/gpgpusim.config: */
  p->clock_hz = 700e6; /* -gpgpu_clock_domains 700.0:... */
  p->max_warps = 48;   /* -gpgpu_shader_core_pipeline 1536:32 */
  p->max_threads = 1536;
  p->warp_size = 32;
  p->max_ctas = 8;                          /* -gpgpu_shader_cta 8 */
  p->registers = 32768;                     /* -gpgpu_shader_registers 32768 */
  p->shared_bytes = 49152;                  /* -gpgpu_shmem_size 49152 */
  p->schedulers = 2;                        /* -gpgpu_num_sched_per_core 2 */
  p->policy = GPURF_PIPELINE_GTO;           /* -gpgpu_scheduler gto */
  p->active_warps = 6;                      /* the file's two_level_active:6 alternative */
  p->banks = 16;                            /* -gpgpu_num_reg_banks 16 */
  p->collectors[GPURF_PIPELINE_CU_SP] = 6;  /* -gpgpu_operand_collector_num_units_sp 6 */
  p->collectors[GPURF_PIPELINE_CU_SFU] = 8; /* -gpgpu_operand_collector_num_units_sfu 8 */
  p->collectors[GPURF_PIPELINE_CU_MEM] = 2; /* GPGPU-Sim's default for the mem class */
  /* -gpgpu_pipeline_widths ...,OC_EX_SP 2,..,OC_EX_SFU 1,OC_EX_MEM 1, EX_WB 2 */
  p->units[GPURF_PIPELINE_UNIT_ALU] = 2;
  p->units[GPURF_PIPELINE_UNIT_SFU] = 1;
  p->units[GPURF_PIPELINE_UNIT_SHARED] = 1;
  p->units[GPURF_PIPELINE_UNIT_GLOBAL] = 1;
  p->result_bus_width = 2;
  /* -ptx_opcode_latency_fp 4,...: ADD 4 at initiation interval 1. */
  p->latency[GPURF_PIPELINE_UNIT_ALU] = 4;
  p->interval[GPURF_PIPELINE_UNIT_ALU] = 1;
  /* The SFU path's slowest FP op, DIV: latency 39 (-ptx_opcode_latency_fp);
   * 4 SFUs per Fermi SM (NVIDIA Fermi white paper, 2009) take 8 cycles per
   * 32-thread warp. */
  p->latency[GPURF_PIPELINE_UNIT_SFU] = 39;
  p->interval[GPURF_PIPELINE_UNIT_SFU] = 8;
  p->latency[GPURF_PIPELINE_UNIT_SHARED] = 26; /* -gpgpu_smem_latency 26 */
  p->interval[GPURF_PIPELINE_UNIT_SHARED] = 1;
  /* A miss through L1 (-gpgpu_l1_latency 35), L2 (-gpgpu_l2_rop_latency 120)
   * and DRAM (-dram_latency 100); the interconnect is not counted. */
  p->latency[GPURF_PIPELINE_UNIT_GLOBAL] = 255;
  p->interval[GPURF_PIPELINE_UNIT_GLOBAL] = 1;
  /* 6 channels x 2 chips x 4 B (-gpgpu_n_mem 6, -gpgpu_n_mem_per_ctrlr 2,
   * -gpgpu_dram_buswidth 4) at 924 MHz x 4 (GDDR5) = 177.4 GB/s, shared by
   * 15 SMs (-gpgpu_n_clusters 15) at 700 MHz: 16.9 B per SM cycle. */
  p->global_bytes_per_cycle = 16.9;
  p->ibuffer_depth = 2; /* GPGPU-Sim decodes two instructions per fetch */
  p->collector_slots = 3;
  p->read_cycles = 1;
  p->bank_read_cycles = 1;
  p->bank_write_cycles = 1;
  p->bank_map = GPURF_PIPELINE_MAP_REG_PLUS_WARP;
  p->reads_first = 0;
  p->warp_in_flight = 0;
  p->issue_width = 1;
}

/* SIMTight's SM (Naylor et al., Sec. III-A): 64 warps of 32 lanes, a barrel
 * scheduler issuing one warp instruction per cycle, at most one instruction
 * per warp in the pipeline, and a register file of two read ports and one
 * write port that delivers both operands in the operand-fetch stage: no
 * collectors to wait for (as many units as may be in flight) and banks
 * enough that distinct operands, and the same register of neighbouring
 * warps, do not meet. Every instruction passes every stage whether or not
 * it reads registers, so the fixed stages are counted in each unit's
 * latency, beside the one-cycle bank read: scheduling 2, active-thread
 * selection 2, fetch 1, the second operand-fetch cycle and execute 1.
 * Shared local memory: 64 KiB in 16 banks (half the lanes: a warp's
 * requests take two cycles). DRAM timing is not given by the paper; the
 * latency and bandwidth below are ours (DDR4 behind a 200 MHz core: about
 * 40 core cycles to the DIMM; a 64-bit DDR4-2400 channel is 96 B per core
 * cycle). */
static void core_simtight(gpurf_pipeline_params *p) {
  p->clock_hz = 200e6; /* Fig. 5: 204 MHz baseline */
  p->max_warps = 64;
  p->warp_size = 32;
  p->max_threads = 2048;
  p->max_ctas = 64;
  p->registers = 65536;
  p->shared_bytes = 65536;
  p->schedulers = 1;
  p->policy = GPURF_PIPELINE_LRR;
  /* The core refills one warp's buffer per cycle: two instructions per
   * refill keep fetch ahead of issue, and stand for the second fetch port
   * the scalar pipeline adds (Sec. III-C). */
  p->ibuffer_depth = 2;
  p->warp_in_flight = 1;
  p->banks = 64;
  p->bank_map = GPURF_PIPELINE_MAP_REG_PLUS_WARP;
  for (int k = 0; k < GPURF_PIPELINE_CU_COUNT; k++) p->collectors[k] = GPURF_PIPELINE_MAX_COLLECTORS;
  p->collector_slots = 2;
  p->read_cycles = 1;
  for (int u = 0; u < GPURF_PIPELINE_UNIT_COUNT; u++) p->units[u] = 1;
  p->latency[GPURF_PIPELINE_UNIT_ALU] = 7;
  p->interval[GPURF_PIPELINE_UNIT_ALU] = 1;
  p->latency[GPURF_PIPELINE_UNIT_SFU] = 7;
  p->interval[GPURF_PIPELINE_UNIT_SFU] = 1;
  p->latency[GPURF_PIPELINE_UNIT_SHARED] = 9; /* + the bank switch there and back */
  p->interval[GPURF_PIPELINE_UNIT_SHARED] = 2;
  p->latency[GPURF_PIPELINE_UNIT_GLOBAL] = 47;
  p->interval[GPURF_PIPELINE_UNIT_GLOBAL] = 1;
  p->global_bytes_per_cycle = 96;
  p->result_bus_width = 1; /* one write port */
}

int gpurf_pipeline_params_core(gpurf_pipeline_params *p, const char *name) {
  if (!p || !name) return GPURF_EINVAL;
  if (strcmp(name, "gtx480") == 0) {
    gpurf_pipeline_params_init(p);
    return GPURF_OK;
  }
  if (strcmp(name, "simtight") == 0) {
    gpurf_pipeline_params_init(p);
    core_simtight(p);
    return GPURF_OK;
  }
  return GPURF_ENOTFOUND;
}

void gpurf_pipeline_params_from_design(gpurf_pipeline_params *p, const gpurf_rf_design *d) {
  if (d->sm.core[0]) gpurf_pipeline_params_core(p, d->sm.core); /* checked when loaded */
  if (d->clock_hz > 0) p->clock_hz = d->clock_hz;
  if (d->sm.warps > 0) p->max_warps = d->sm.warps;
  if (d->sm.threads_per_warp > 0) p->warp_size = d->sm.threads_per_warp;
  if (d->sm.warps > 0 && d->sm.threads_per_warp > 0)
    p->max_threads = d->sm.warps * d->sm.threads_per_warp;
  if (d->sm.registers > 0) p->registers = d->sm.registers;
  if (d->n_bank_groups > 0) p->banks = d->bank_groups[0].count;
  if (d->sm.schedulers > 0) p->schedulers = d->sm.schedulers;
  if (d->sm.collectors_sp > 0) p->collectors[GPURF_PIPELINE_CU_SP] = d->sm.collectors_sp;
  if (d->sm.collectors_sfu > 0) p->collectors[GPURF_PIPELINE_CU_SFU] = d->sm.collectors_sfu;
  if (d->sm.collectors_mem > 0) p->collectors[GPURF_PIPELINE_CU_MEM] = d->sm.collectors_mem;
  if (d->sm.policy == GPURF_RF_POLICY_LRR) p->policy = GPURF_PIPELINE_LRR;
  if (d->sm.policy == GPURF_RF_POLICY_GTO) p->policy = GPURF_PIPELINE_GTO;
  if (d->sm.policy == GPURF_RF_POLICY_TWO_LEVEL) p->policy = GPURF_PIPELINE_TWO_LEVEL;
}

/* Cycles of a bank access by the library's one rounding rule, kept within
 * the 1..64 the pipeline takes. A table's times are checked when it is
 * built, so a count always exists; were it refused, one cycle stands. */
static int cycles_of(double t_s, double clock_hz) {
  long long c = 1;
  if (gpurf_metrics_cycles(NULL, t_s, clock_hz, &c) != GPURF_OK) c = 1;
  return c < 1 ? 1 : c > 64 ? 64 : (int)c;
}

void gpurf_pipeline_params_from_table(gpurf_pipeline_params *p, const gpurf_rf_table *t) {
  if (!p || !t || t->n_components < 1) return;
  int i = gpurf_rf_table_find(t, GPURF_RF_BANK);
  const gpurf_rf_component *c = &t->components[i < 0 ? 0 : i];
  p->bank_read_cycles = cycles_of(c->access_time_s, t->clock_hz);
  p->bank_write_cycles =
      c->write_time_s > 0 ? cycles_of(c->write_time_s, t->clock_hz) : p->bank_read_cycles;
  if (p->read_cycles < p->bank_read_cycles) p->read_cycles = p->bank_read_cycles;
}

typedef enum kkind { K_INT, K_LL, K_DBL, K_POLICY, K_MAP, K_ARB } kkind;

typedef struct pkey {
  const char *name;
  kkind kind;
  size_t off;
  long long lo, hi;
} pkey;

#define OFF(m) offsetof(gpurf_pipeline_params, m)
static const pkey keys[] = {
    {"clock_hz", K_DBL, OFF(clock_hz), 1, 100000000000LL},
    {"max_warps", K_INT, OFF(max_warps), 1, GPURF_PIPELINE_MAX_WARPS},
    {"max_ctas", K_INT, OFF(max_ctas), 1, GPURF_PIPELINE_MAX_WARPS},
    {"max_threads", K_INT, OFF(max_threads), 1, 65536},
    {"registers", K_LL, OFF(registers), 1, 1LL << 30},
    {"shared_bytes", K_LL, OFF(shared_bytes), 0, 1LL << 30},
    {"warp_size", K_INT, OFF(warp_size), 1, 32},
    {"schedulers", K_INT, OFF(schedulers), 1, GPURF_PIPELINE_MAX_SCHEDULERS},
    {"policy", K_POLICY, OFF(policy), 0, 0},
    {"active_warps", K_INT, OFF(active_warps), 1, GPURF_PIPELINE_MAX_WARPS},
    {"ibuffer_depth", K_INT, OFF(ibuffer_depth), 1, 8},
    {"banks", K_INT, OFF(banks), 1, GPURF_PIPELINE_MAX_BANKS},
    {"bank_map", K_MAP, OFF(bank_map), 0, 0},
    {"collectors_sp", K_INT, OFF(collectors[GPURF_PIPELINE_CU_SP]), 1,
     GPURF_PIPELINE_MAX_COLLECTORS},
    {"collectors_sfu", K_INT, OFF(collectors[GPURF_PIPELINE_CU_SFU]), 1,
     GPURF_PIPELINE_MAX_COLLECTORS},
    {"collectors_mem", K_INT, OFF(collectors[GPURF_PIPELINE_CU_MEM]), 1,
     GPURF_PIPELINE_MAX_COLLECTORS},
    {"collector_slots", K_INT, OFF(collector_slots), 1, 8},
    {"read_cycles", K_INT, OFF(read_cycles), 1, 64},
    {"bank_read_cycles", K_INT, OFF(bank_read_cycles), 1, 64},
    {"bank_write_cycles", K_INT, OFF(bank_write_cycles), 1, 64},
    {"units_alu", K_INT, OFF(units[GPURF_PIPELINE_UNIT_ALU]), 1, 16},
    {"units_sfu", K_INT, OFF(units[GPURF_PIPELINE_UNIT_SFU]), 1, 16},
    {"units_shared", K_INT, OFF(units[GPURF_PIPELINE_UNIT_SHARED]), 1, 16},
    {"units_global", K_INT, OFF(units[GPURF_PIPELINE_UNIT_GLOBAL]), 1, 16},
    {"latency_alu", K_INT, OFF(latency[GPURF_PIPELINE_UNIT_ALU]), 1, 100000},
    {"latency_sfu", K_INT, OFF(latency[GPURF_PIPELINE_UNIT_SFU]), 1, 100000},
    {"latency_shared", K_INT, OFF(latency[GPURF_PIPELINE_UNIT_SHARED]), 1, 100000},
    {"latency_global", K_INT, OFF(latency[GPURF_PIPELINE_UNIT_GLOBAL]), 1, 100000},
    {"interval_alu", K_INT, OFF(interval[GPURF_PIPELINE_UNIT_ALU]), 1, 1000},
    {"interval_sfu", K_INT, OFF(interval[GPURF_PIPELINE_UNIT_SFU]), 1, 1000},
    {"interval_shared", K_INT, OFF(interval[GPURF_PIPELINE_UNIT_SHARED]), 1, 1000},
    {"interval_global", K_INT, OFF(interval[GPURF_PIPELINE_UNIT_GLOBAL]), 1, 1000},
    {"global_bytes_per_cycle", K_DBL, OFF(global_bytes_per_cycle), 1, 1000000},
    {"result_bus_width", K_INT, OFF(result_bus_width), 1, 16},
    {"arbiter", K_ARB, OFF(reads_first), 0, 0},
    {"warp_in_flight", K_INT, OFF(warp_in_flight), 0, 64},
    {"issue_width", K_INT, OFF(issue_width), 1, 4},
};
#define N_KEYS (sizeof keys / sizeof keys[0])

const char *const *gpurf_pipeline_param_names(void) {
  static const char *const names[N_KEYS + 1] = {
      "clock_hz",         "max_warps",         "max_ctas",
      "max_threads",      "registers",         "shared_bytes",
      "warp_size",        "schedulers",        "policy",
      "active_warps",     "ibuffer_depth",     "banks",
      "bank_map",         "collectors_sp",     "collectors_sfu",
      "collectors_mem",   "collector_slots",   "read_cycles",
      "bank_read_cycles", "bank_write_cycles", "units_alu",
      "units_sfu",        "units_shared",      "units_global",
      "latency_alu",      "latency_sfu",       "latency_shared",
      "latency_global",   "interval_alu",      "interval_sfu",
      "interval_shared",  "interval_global",   "global_bytes_per_cycle",
      "result_bus_width", "arbiter",           "warp_in_flight",
      "issue_width",      NULL};
  return names;
}

static int set_word(gpurf_ctx *ctx, const pkey *k, gpurf_pipeline_params *p, const char *v) {
  int *dst = (int *)((char *)p + k->off);
  static const char *const policy[] = {"lrr", "gto", "two_level", NULL};
  static const char *const map[] = {"reg+warp", "reg", NULL};
  static const char *const arb[] = {"writes_first", "reads_first", NULL};
  const char *const *words = k->kind == K_POLICY ? policy : k->kind == K_MAP ? map : arb;
  for (int i = 0; words[i]; i++)
    if (strcmp(v, words[i]) == 0) {
      *dst = i;
      return GPURF_OK;
    }
  return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, k->name, "'%s' is not one of %s|%s%s%s", v,
                       words[0], words[1], words[2] ? "|" : "", words[2] ? words[2] : "");
}

int gpurf_pipeline_params_set(gpurf_ctx *ctx, gpurf_pipeline_params *p, const char *key,
                              const char *value) {
  if (!ctx || !p || !key || !value) return GPURF_EINVAL;
  for (size_t i = 0; i < N_KEYS; i++) {
    const pkey *k = &keys[i];
    if (strcmp(key, k->name) != 0) continue;
    if (k->kind == K_POLICY || k->kind == K_MAP || k->kind == K_ARB)
      return set_word(ctx, k, p, value);
    char *end = NULL;
    errno = 0;
    double d = strtod(value, &end);
    if (end == value || *end != '\0' || errno != 0 || !(d >= (double)k->lo && d <= (double)k->hi))
      return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, key, "'%s' is not a number in %lld..%lld",
                           value, k->lo, k->hi);
    if (k->kind == K_DBL) {
      *(double *)((char *)p + k->off) = d;
      return GPURF_OK;
    }
    if (d != (double)(long long)d)
      return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, key, "'%s' is not a whole number", value);
    if (k->kind == K_LL)
      *(long long *)((char *)p + k->off) = (long long)d;
    else
      *(int *)((char *)p + k->off) = (int)d;
    return GPURF_OK;
  }
  return gpurf_fail_at(ctx, GPURF_ENOTFOUND, NULL, 0, 0, key, "no SM parameter named '%s'", key);
}

int gpurf_pipeline_params_check(gpurf_ctx *ctx, const gpurf_pipeline_params *p) {
  if (!ctx || !p) return GPURF_EINVAL;
  for (size_t i = 0; i < N_KEYS; i++) {
    const pkey *k = &keys[i];
    double v;
    if (k->kind == K_DBL)
      v = *(const double *)((const char *)p + k->off);
    else if (k->kind == K_LL)
      v = (double)*(const long long *)((const char *)p + k->off);
    else
      v = *(const int *)((const char *)p + k->off);
    long long hi = k->kind == K_POLICY ? 2 : (k->kind == K_MAP || k->kind == K_ARB) ? 1 : k->hi;
    if (!(v >= (double)k->lo && v <= (double)hi))
      return gpurf_fail_at(ctx, GPURF_ERANGE, NULL, 0, 0, k->name, "%g is outside %lld..%lld", v,
                           k->lo, hi);
  }
  if (p->schedulers > p->max_warps)
    return gpurf_fail_at(ctx, GPURF_ERANGE, NULL, 0, 0, "schedulers", "%d schedulers for %d warps",
                         p->schedulers, p->max_warps);
  return GPURF_OK;
}
