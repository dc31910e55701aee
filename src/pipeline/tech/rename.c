/* Register renaming for GPU register-file virtualization (Jeon et al.,
 * MICRO 2015): a warp's architected register gets a physical register of
 * the same bank at its first write and gives it back at the release flag
 * of its last use (release.h, built from the kernel's dataflow as the
 * CTAs are read); registers left out of a size-limited renaming table keep
 * theirs until the warp ends. With fewer physical registers than
 * architected ones (GPU-shrink) the scheduler throttles CTAs by their
 * register balance, and spills registers when no CTA can go on. Empty
 * sub-arrays are power gated and wake on allocation (rename_pool.c). */
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "gpurf/dataflow.h"
#include "gpurf/release.h"
#include "pipeline/tech/rename_internal.h"
#include "pipeline/tech/technique_internal.h"

#define RN_KERNELS 8
#define RN_UNMAPPED (-1)
#define RN_SPILLED (-2)
/* Cycles without any issue, with a warp held for want of a register,
 * after which a register of another warp is spilled. */
#define RN_SPILL_AFTER 200
#define RN_WARP_REG_BYTES 128 /* 32 lanes x 4 B: one coalesced access per spill or fill */

typedef struct rn_kernel {
  int used;
  uint32_t id;
  gpurf_dataflow *df; /* fed until analysed */
  gpurf_release *rel;
  gpurf_regset exempt;
  unsigned renamable, n_used, n_exempt;
  double table_full_bytes;
} rn_kernel;

typedef struct rn_cta {
  uint64_t *pc;
  uint32_t cap;
  int kernel; /* slot in kernels[] */
  int k;      /* physical registers its warps hold */
} rn_cta;

typedef struct rn_state {
  /* options */
  int phys_regs, banks, subarrays, gating, wake_cycles, flag_entries, throttle;
  double budget_bytes;
  int err; /* first failure inside a hook (analysis out of memory) */
  /* run */
  gpurf_pipeline *p;
  gpurf_pipeline_params prm;
  rn_pool pool;
  rn_kernel kernels[RN_KERNELS];
  int n_cta;
  rn_cta *cta;
  int16_t map[GPURF_PIPELINE_MAX_WARPS][GPURF_TRACE_NUM_REGS];
  int warp_cta[GPURF_PIPELINE_MAX_WARPS];
  uint64_t fill_until[GPURF_PIPELINE_MAX_WARPS];
  int n_spilled[GPURF_PIPELINE_MAX_WARPS]; /* registers of the warp in memory */
  gpurf_release_cache cache;
  int ev_lookup, ev_update, ev_alloc, ev_release, ev_flag_read, ev_flag_fill;
  uint64_t cycle_seen, last_issue, held_cycle;
  uint64_t changes, bal_changes; /* allocations and releases, to know when balances move */
  int held_any;
  long long *bal, min1, min2;
  int min1_cta;
  uint64_t peak_arch;
  uint64_t allocations, rel_pir, rel_pbr, unmapped_reads, throttle_cycles, throttle_events;
  uint64_t full_stalls, spills, fills, wake_stalls, alloc_failures;
  uint64_t dyn_insts, pir_entries, pir_decoded, pbr_fetched;
} rn_state;

/* ---- options ---- */

static int rn_create(gpurf_ctx *ctx, void **out) {
  rn_state *s = calloc(1, sizeof *s);
  if (!s) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  s->budget_bytes = 1024; /* Sec. 7.1: 1 KB per SM */
  s->wake_cycles = 1;
  s->flag_entries = 10; /* Sec. 7.2: ten entries, 68 B */
  s->throttle = 1;
  *out = s;
  return GPURF_OK;
}

static int parse_int(gpurf_ctx *ctx, const char *key, const char *v, long lo, long hi, int *out) {
  char *end;
  long x = strtol(v, &end, 10);
  if (!*v || *end || x < lo || x > hi)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, key, "%s must be an integer in %ld..%ld",
                         key, lo, hi);
  *out = (int)x;
  return GPURF_OK;
}

static int rn_set(gpurf_ctx *ctx, void *state, const char *key, const char *value) {
  rn_state *s = state;
  if (!strcmp(key, "phys_regs")) return parse_int(ctx, key, value, 0, 1 << 20, &s->phys_regs);
  if (!strcmp(key, "banks"))
    return parse_int(ctx, key, value, 0, GPURF_PIPELINE_MAX_BANKS, &s->banks);
  if (!strcmp(key, "subarrays")) return parse_int(ctx, key, value, 0, 4096, &s->subarrays);
  if (!strcmp(key, "gating")) return parse_int(ctx, key, value, 0, 1, &s->gating);
  if (!strcmp(key, "wake_cycles")) return parse_int(ctx, key, value, 0, 100000, &s->wake_cycles);
  if (!strcmp(key, "flag_cache")) return parse_int(ctx, key, value, 0, 64, &s->flag_entries);
  if (!strcmp(key, "throttle")) return parse_int(ctx, key, value, 0, 1, &s->throttle);
  if (!strcmp(key, "budget_bytes")) {
    int b;
    int rc = parse_int(ctx, key, value, 0, 1 << 24, &b);
    if (rc == GPURF_OK) s->budget_bytes = b;
    return rc;
  }
  return gpurf_fail_at(
      ctx, GPURF_ENOTFOUND, NULL, 0, 0, key,
      "rename has no option '%s' (phys_regs, banks, budget_bytes, subarrays, gating, "
      "wake_cycles, flag_cache, throttle)",
      key);
}

/* ---- setup ---- */

static int event(gpurf_energy *e, const char *name) {
  int id;
  return e && gpurf_energy_event_id(e, "rename_table", name, &id) == GPURF_OK ? id : -1;
}

static int rn_attach(gpurf_ctx *ctx, gpurf_pipeline *p, void *state) {
  rn_state *s = state;
  s->p = p;
  s->prm = *gpurf_pipeline_get_params(p);
  /* The banks renaming keeps a register in: the paper's four main banks
   * (Sec. 7.1) when the pipeline's banks are their sub-banks. */
  int banks = s->banks ? s->banks : s->prm.banks % 4 == 0 ? 4 : s->prm.banks;
  if (banks > s->prm.banks || s->prm.banks % banks)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "banks",
                         "banks (%d) must divide the pipeline's banks (%d)", banks, s->prm.banks);
  s->banks = banks;
  int phys = s->phys_regs ? s->phys_regs : (int)(s->prm.registers / s->prm.warp_size);
  if (phys < banks || phys % banks)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "phys_regs",
                         "phys_regs (%d) must be a multiple of the banks (%d)", phys, banks);
  s->phys_regs = phys;
  gpurf_energy *e = gpurf_pipeline_energy(p);
  int comp = -1;
  if (e && gpurf_energy_component_id(e, "bank", &comp) != GPURF_OK) comp = -1;
  int sub = s->subarrays;
  if (sub == 0) {
    sub = 4; /* Fig. 8: four sub-arrays per bank, unless the design gates otherwise */
    if (e && comp >= 0) {
      int n = 0;
      while (n < 4096 && gpurf_energy_gate(e, comp, 0, n, 0) == GPURF_OK) n++;
      if (n > 0) sub = n;
    }
  }
  if (sub > phys / banks) sub = phys / banks;
  int rc = rn_pool_init(&s->pool, banks, phys / banks, sub, s->gating);
  if (rc != GPURF_OK) return gpurf_fail(ctx, rc, "cannot build the physical register pool");
  s->subarrays = sub;
  rn_pool_bind(&s->pool, p, e, comp, s->prm.banks);
  s->n_cta = s->prm.max_ctas + 1;
  s->cta = calloc((size_t)s->n_cta, sizeof *s->cta);
  s->bal = calloc((size_t)s->n_cta, sizeof *s->bal);
  if (!s->cta || !s->bal) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  for (int i = 0; i < s->n_cta; i++) s->cta[i].kernel = -1;
  for (int w = 0; w < GPURF_PIPELINE_MAX_WARPS; w++) {
    s->warp_cta[w] = -1;
    for (int r = 0; r < GPURF_TRACE_NUM_REGS; r++) s->map[w][r] = RN_UNMAPPED;
  }
  gpurf_release_cache_init(&s->cache, (unsigned)s->flag_entries);
  s->ev_lookup = event(e, "lookup"), s->ev_update = event(e, "update");
  s->ev_alloc = event(e, "alloc"), s->ev_release = event(e, "release");
  s->ev_flag_read = event(e, "flag_read"), s->ev_flag_fill = event(e, "flag_fill");
  s->held_cycle = UINT64_MAX;
  return GPURF_OK;
}

static void count(rn_state *s, int ev, uint64_t n) {
  gpurf_energy *e = gpurf_pipeline_energy(s->p);
  if (e && ev >= 0 && n) gpurf_energy_add(e, ev, 0, n);
}

/* ---- the kernel's flags ---- */

static void rn_load(void *state, gpurf_pipeline *p, int cta, uint32_t index,
                    const gpurf_trace_inst *rec) {
  (void)p;
  rn_state *s = state;
  if (s->err || cta < 0 || cta >= s->n_cta) return;
  rn_cta *c = &s->cta[cta];
  if (index == 0) {
    int k = -1, free_slot = -1;
    for (int i = 0; i < RN_KERNELS; i++) {
      if (s->kernels[i].used && s->kernels[i].id == rec->kernel) k = i;
      if (!s->kernels[i].used && free_slot < 0) free_slot = i;
    }
    if (k < 0) {
      if (free_slot < 0) { /* the oldest kernel has finished: kernels run in order */
        free_slot = 0;
        gpurf_dataflow_free(s->kernels[0].df);
        gpurf_release_free(s->kernels[0].rel);
        memset(&s->kernels[0], 0, sizeof s->kernels[0]);
      }
      k = free_slot;
      s->kernels[k].used = 1;
      s->kernels[k].id = rec->kernel;
      if (gpurf_dataflow_alloc(NULL, &s->kernels[k].df) != GPURF_OK) s->err = GPURF_ENOMEM;
    }
    c->kernel = k;
  }
  if (index >= c->cap) {
    uint32_t cap = c->cap ? 2 * c->cap : 1024;
    uint64_t *pc = realloc(c->pc, cap * sizeof *pc);
    if (!pc) {
      s->err = GPURF_ENOMEM;
      return;
    }
    c->pc = pc, c->cap = cap;
  }
  c->pc[index] = rec->pc;
  rn_kernel *K = c->kernel >= 0 ? &s->kernels[c->kernel] : NULL;
  /* The compiler's view: the code as the first CTAs read execute it. */
  if (K && K->df && !K->rel && gpurf_dataflow_add(NULL, K->df, rec) != GPURF_OK)
    s->err = GPURF_EINVAL;
}

static int live_warps(const rn_state *s) {
  int n = 0, c;
  uint32_t i;
  for (int w = 0; w < GPURF_PIPELINE_MAX_WARPS; w++)
    n += gpurf_pipeline_warp_next(s->p, w, &c, &i) == GPURF_OK;
  return n;
}

/* Analyses the kernel at its first issue: the dataflow of the CTAs read so
 * far, its release flags, and which registers the table budget leaves out
 * for the warps now resident. */
static rn_kernel *flags_of(rn_state *s, int cta) {
  if (cta < 0 || cta >= s->n_cta || s->cta[cta].kernel < 0) return NULL;
  rn_kernel *K = &s->kernels[s->cta[cta].kernel];
  if (K->rel || s->err || !K->df) return K->rel ? K : NULL;
  if (gpurf_dataflow_analyze(NULL, K->df) != GPURF_OK ||
      gpurf_release_build(NULL, K->df, &K->rel) != GPURF_OK) {
    s->err = GPURF_EINVAL;
    return NULL;
  }
  gpurf_dataflow_free(K->df);
  K->df = NULL;
  gpurf_regset used = gpurf_release_used(K->rel);
  for (int i = 0; i < 4; i++) K->n_used += (unsigned)__builtin_popcountll(used.w[i]);
  unsigned warps = (unsigned)live_warps(s);
  /* The full table has an entry for every register the kernel is compiled
   * for (Sec. 7.1), touched or not. */
  int regs = 0, cta_warps = 0;
  if (gpurf_pipeline_cta_shape(s->p, cta, &regs, &cta_warps) != GPURF_OK) regs = (int)K->n_used;
  K->table_full_bytes = gpurf_release_table_bytes(warps, (unsigned)regs, (unsigned)s->phys_regs);
  K->renamable = s->budget_bytes > 0
                     ? gpurf_release_renamable(s->budget_bytes, warps, (unsigned)s->phys_regs)
                     : GPURF_TRACE_NUM_REGS;
  K->exempt = gpurf_release_exempt(K->rel, K->renamable);
  for (int i = 0; i < 4; i++) K->n_exempt += (unsigned)__builtin_popcountll(K->exempt.w[i]);
  return K;
}

/* ---- registers ---- */

static int bank_of(const rn_state *s, int w, int reg) {
  int x = s->prm.bank_map == GPURF_PIPELINE_MAP_REG ? reg : reg + w;
  return x % s->prm.banks % s->banks;
}

static void alloc_reg(rn_state *s, int w, int reg) {
  int b = bank_of(s, w, reg);
  int r = rn_pool_alloc(&s->pool, b, gpurf_pipeline_cycle(s->p));
  if (r < 0) { /* select checked the room: not expected */
    s->alloc_failures++;
    return;
  }
  s->map[w][reg] = (int16_t)r;
  s->allocations++;
  s->changes++;
  if (s->warp_cta[w] >= 0) s->cta[s->warp_cta[w]].k++;
  count(s, s->ev_alloc, 1);
  count(s, s->ev_update, 1);
}

static void free_reg(rn_state *s, int w, int reg) {
  int r = s->map[w][reg];
  s->changes++;
  if (r >= 0) {
    rn_pool_release(&s->pool, s->p, bank_of(s, w, reg), r);
    if (s->warp_cta[w] >= 0) s->cta[s->warp_cta[w]].k--;
    count(s, s->ev_release, 1);
  }
  s->map[w][reg] = RN_UNMAPPED;
}

/* Releases by a flag: not for registers the table does not rename. */
static int flag_release(rn_state *s, const rn_kernel *K, int w, const gpurf_regset *set) {
  int n = 0;
  for (int i = 0; i < 4; i++)
    for (uint64_t m = set->w[i] & ~K->exempt.w[i]; m; m &= m - 1) {
      int reg = i * 64 + __builtin_ctzll(m);
      if (reg < GPURF_TRACE_NUM_REGS && s->map[w][reg] >= 0) free_reg(s, w, reg), n++;
    }
  return n;
}

static void rn_issue(void *state, gpurf_pipeline *p, int w, int cta, uint32_t index) {
  rn_state *s = state;
  gpurf_pipeline_buffered_inst in;
  if (gpurf_pipeline_inst_get(p, cta, index, &in) != GPURF_OK) return;
  s->warp_cta[w] = cta;
  s->last_issue = gpurf_pipeline_cycle(p);
  s->dyn_insts++;
  rn_kernel *K = flags_of(s, cta);
  const gpurf_release_inst *ri =
      K && index < s->cta[cta].cap ? gpurf_release_at(K->rel, s->cta[cta].pc[index]) : NULL;
  count(s, s->ev_lookup, (uint64_t)(in.n_src + in.n_dst));
  if (K) count(s, s->ev_flag_read, 1);
  s->pool.defer = 1;
  if (ri) {
    if (ri->pir_start) {
      s->pir_entries++;
      if (!gpurf_release_cache_access(&s->cache, ri->pir)) {
        s->pir_decoded++;
        count(s, s->ev_flag_fill, 1);
      }
    }
    s->pbr_fetched += ri->pbr_count;
    s->rel_pbr += (uint64_t)flag_release(s, K, w, &ri->at_entry);
  }
  for (int i = 0; i < in.n_src; i++)
    if (s->map[w][in.src[i]] < 0) {
      /* A value from before the kernel, or one a flag released on a path
       * the analysis never saw: it takes a register now. */
      if (s->map[w][in.src[i]] == RN_UNMAPPED) s->unmapped_reads++;
      alloc_reg(s, w, in.src[i]);
    }
  if (ri) s->rel_pir += (uint64_t)flag_release(s, K, w, &ri->after_read);
  for (int i = 0; i < in.n_dst; i++)
    if (s->map[w][in.dst[i]] < 0) alloc_reg(s, w, in.dst[i]);
  s->pool.defer = 0;
  rn_pool_settle(&s->pool, p, gpurf_pipeline_cycle(p));
}

static void rn_warp_end(void *state, gpurf_pipeline *p, int w, int cta) {
  (void)p, (void)cta;
  rn_state *s = state;
  for (int r = 0; r < GPURF_TRACE_NUM_REGS; r++)
    if (s->map[w][r] != RN_UNMAPPED) free_reg(s, w, r);
  s->fill_until[w] = 0;
  s->n_spilled[w] = 0;
  s->pool.defer = 0;
  s->warp_cta[w] = -1;
}

/* ---- issue control: throttling, room in the banks, wake-ups, fills ---- */

/* The CTA balance counters of Sec. 8.1: C_i is what a CTA may need at
 * most (registers per thread x warps), k_i what it holds. The paper lets
 * warps go while the free registers exceed min(C_i - k_i), so that the CTA
 * with the smallest balance can always finish, and else lets only that
 * CTA's warps go. Checked here per allocation: a warp of CTA j taking n
 * registers goes if the free registers left still cover the smallest
 * balance after it (the smallest-balance CTA itself always can). */
static void balances(rn_state *s, uint64_t now) {
  if (now == s->cycle_seen && s->bal_changes == s->changes && now) return;
  s->cycle_seen = now;
  s->bal_changes = s->changes;
  int live[GPURF_PIPELINE_MAX_WARPS + 1] = {0};
  for (int w = 0; w < GPURF_PIPELINE_MAX_WARPS; w++) {
    int c;
    uint32_t i;
    if (gpurf_pipeline_warp_next(s->p, w, &c, &i) == GPURF_OK && c < s->n_cta) live[c] = 1;
  }
  uint64_t arch = 0;
  s->min1 = s->min2 = -1;
  s->min1_cta = -1;
  for (int c = 0; c < s->n_cta; c++) {
    s->bal[c] = -1;
    if (!live[c] && s->cta[c].k == 0) continue;
    int regs, warps;
    if (gpurf_pipeline_cta_shape(s->p, c, &regs, &warps) != GPURF_OK) continue;
    long long C = (long long)regs * warps, bal = C - s->cta[c].k;
    arch += (uint64_t)C;
    if (!live[c]) continue; /* its warps have issued everything: it needs no more */
    s->bal[c] = bal < 0 ? 0 : bal;
    if (s->min1 < 0 || s->bal[c] < s->min1)
      s->min2 = s->min1, s->min1 = s->bal[c], s->min1_cta = c;
    else if (s->min2 < 0 || s->bal[c] < s->min2)
      s->min2 = s->bal[c];
  }
  if (arch > s->peak_arch) s->peak_arch = arch;
}

/* 1 when CTA cta may take n more registers under the balance rule. */
static int balance_allows(const rn_state *s, int cta, int n) {
  if (!s->throttle || n == 0 || cta < 0 || cta >= s->n_cta || s->bal[cta] < 0) return 1;
  /* The CTA with the smallest balance always goes; when even it cannot
   * finish (one CTA needs more than the register file), spills make room. */
  if (cta == s->min1_cta) return 1;
  long long left = (long long)s->phys_regs - s->pool.allocated - n;
  long long own = s->bal[cta] - n < 0 ? 0 : s->bal[cta] - n;
  long long other = cta == s->min1_cta ? s->min2 : s->min1;
  long long m = other >= 0 && other < own ? other : own;
  return left >= m;
}

/* Counts the cycles in which the rule held some warp back, and how often
 * that began. */
static void throttle_note(rn_state *s, uint64_t now, int held) {
  if (!held) return;
  if (now != s->held_cycle) {
    if (now != s->held_cycle + 1 || !s->held_any) s->throttle_events++;
    s->throttle_cycles++;
    s->held_cycle = now;
    s->held_any = 1;
  }
}

/* Registers the warp's next instruction needs per bank. */
static int needs(const rn_state *s, int w, const gpurf_pipeline_buffered_inst *in, int *need) {
  int any = 0;
  for (int i = 0; i < in->n_src + in->n_dst; i++) {
    int reg = i < in->n_src ? in->src[i] : in->dst[i - in->n_src];
    if (s->map[w][reg] >= 0) continue;
    int dup = 0;
    for (int j = 0; j < i; j++) dup |= (j < in->n_src ? in->src[j] : in->dst[j - in->n_src]) == reg;
    if (!dup) need[bank_of(s, w, reg)]++, any = 1;
  }
  return any;
}

/* Spills one register of bank b held by a warp other than w (one of
 * another CTA first) to memory: the way out when no CTA can go on. */
static int spill_one(rn_state *s, int w, int b) {
  for (int pass = 0; pass < 2; pass++)
    for (int v = 0; v < GPURF_PIPELINE_MAX_WARPS; v++) {
      if (v == w || s->warp_cta[v] < 0) continue;
      if (pass == 0 && s->warp_cta[v] == s->warp_cta[w]) continue;
      for (int r = 0; r < GPURF_TRACE_NUM_REGS; r++)
        if (s->map[v][r] >= 0 && bank_of(s, v, r) == b) {
          free_reg(s, v, r);
          s->map[v][r] = RN_SPILLED;
          s->n_spilled[v]++;
          s->spills++;
          return 1;
        }
    }
  return 0;
}

/* 1 when warp w may issue now. A spilled source is filled first: its
 * register is taken now and the warp waits a global-memory latency. */
static int may_issue(rn_state *s, int w, uint64_t now) {
  int cta;
  uint32_t index;
  if (w < 0 || gpurf_pipeline_warp_next(s->p, w, &cta, &index) != GPURF_OK) return 0;
  if (s->fill_until[w] > now) return 0;
  gpurf_pipeline_buffered_inst in;
  if (gpurf_pipeline_inst_get(s->p, cta, index, &in) != GPURF_OK) return 0;
  int need[GPURF_PIPELINE_MAX_BANKS] = {0};
  if (!needs(s, w, &in, need)) return 1;
  int total = 0;
  for (int b = 0; b < s->banks; b++) total += need[b];
  /* A warp with registers in memory waits until there is room for all of
   * them, so that it does not take back what was spilled for another. */
  int in_need = 0;
  for (int i = 0; i < in.n_src; i++) in_need += s->map[w][in.src[i]] == RN_SPILLED;
  if (s->n_spilled[w] && s->phys_regs - s->pool.allocated < total + s->n_spilled[w] - in_need) {
    s->full_stalls++;
    return 0;
  }
  balances(s, now);
  if (!balance_allows(s, cta, total)) {
    throttle_note(s, now, 1);
    /* Nobody may go while registers are short in every bank it needs. */
    return 0;
  }
  int ok = 1, full_bank = -1;
  for (int b = 0; b < s->banks; b++) {
    int full;
    if (need[b] && !rn_pool_can(&s->pool, s->p, b, need[b], now, s->wake_cycles, &full)) {
      ok = 0;
      if (full) full_bank = b;
    }
  }
  if (!ok) {
    if (full_bank >= 0) {
      s->full_stalls++;
      if (now - s->last_issue > RN_SPILL_AFTER) spill_one(s, w, full_bank);
    } else {
      s->wake_stalls++;
    }
    return 0;
  }
  int filled = 0;
  for (int i = 0; i < in.n_src; i++)
    if (s->map[w][in.src[i]] == RN_SPILLED) {
      s->warp_cta[w] = cta;
      alloc_reg(s, w, in.src[i]);
      s->n_spilled[w]--;
      s->fills++;
      filled = 1;
    }
  if (filled) {
    s->fill_until[w] = now + (uint64_t)s->prm.latency[GPURF_PIPELINE_UNIT_GLOBAL];
    return 0;
  }
  s->warp_cta[w] = cta;
  return 1;
}

/* The policy's pick if it may issue, else the look-ahead warp's. */
static int rn_select(void *state, gpurf_pipeline *p, const gpurf_pipeline_select *sel) {
  rn_state *s = state;
  uint64_t now = gpurf_pipeline_cycle(p);
  if (sel->candidate >= 0 && may_issue(s, sel->candidate, now)) return sel->candidate;
  if (sel->lookahead >= 0 && may_issue(s, sel->lookahead, now)) return sel->lookahead;
  /* Both held (another CTA's warps while one is throttled, or short of
   * registers): any other warp of this scheduler that can go. */
  int n = s->prm.schedulers;
  for (int w = sel->scheduler; w < GPURF_PIPELINE_MAX_WARPS; w += n)
    if (w != sel->candidate && w != sel->lookahead && gpurf_pipeline_can_issue(p, w) &&
        may_issue(s, w, now))
      return w;
  return -1;
}

static void rn_hooks(void *state, gpurf_pipeline_hooks *out) {
  (void)state;
  memset(out, 0, sizeof *out);
  out->attach = rn_attach;
  out->select = rn_select;
  out->load = rn_load;
  out->issue = rn_issue;
  out->warp_end = rn_warp_end;
}

static void rn_counters(const void *state, gpurf_technique_counters *out) {
  const rn_state *s = state;
  unsigned used = 0, exempt = 0, renamable = 0;
  double full = 0;
  for (int i = 0; i < RN_KERNELS; i++) {
    const rn_kernel *K = &s->kernels[i];
    if (!K->rel) continue;
    if (K->n_used > used) used = K->n_used, exempt = K->n_exempt, renamable = K->renamable;
    if (K->table_full_bytes > full) full = K->table_full_bytes;
  }
  double budget = s->budget_bytes > 0 && full > s->budget_bytes ? s->budget_bytes : full;
  gpurf_technique_counter_add(out, "physical_regs", s->phys_regs);
  gpurf_technique_counter_add(out, "peak_physical_regs", s->pool.peak);
  gpurf_technique_counter_add(out, "peak_architected_regs", (double)s->peak_arch);
  gpurf_technique_counter_add(out, "allocations", (double)s->allocations);
  gpurf_technique_counter_add(out, "releases_pir", (double)s->rel_pir);
  gpurf_technique_counter_add(out, "releases_pbr", (double)s->rel_pbr);
  gpurf_technique_counter_add(out, "reads_unmapped", (double)s->unmapped_reads);
  gpurf_technique_counter_add(out, "used_regs", used);
  gpurf_technique_counter_add(out, "renamable_regs", renamable);
  gpurf_technique_counter_add(out, "exempt_regs", exempt);
  gpurf_technique_counter_add(out, "table_full_bytes", full);
  gpurf_technique_counter_add(out, "table_budget_bytes", budget);
  gpurf_technique_counter_add(out, "throttle_cycles", (double)s->throttle_cycles);
  gpurf_technique_counter_add(out, "throttle_events", (double)s->throttle_events);
  gpurf_technique_counter_add(out, "rf_full_stalls", (double)s->full_stalls);
  gpurf_technique_counter_add(out, "spills", (double)s->spills);
  gpurf_technique_counter_add(out, "fills", (double)s->fills);
  gpurf_technique_counter_add(out, "spill_fill_bytes",
                              (double)(s->spills + s->fills) * RN_WARP_REG_BYTES);
  gpurf_technique_counter_add(out, "wakeups", (double)s->pool.wakeups);
  gpurf_technique_counter_add(out, "wake_stalls", (double)s->wake_stalls);
  gpurf_technique_counter_add(out, "dynamic_insts", (double)s->dyn_insts);
  gpurf_technique_counter_add(out, "pir_entries", (double)s->pir_entries);
  gpurf_technique_counter_add(out, "pir_decoded", (double)s->pir_decoded);
  gpurf_technique_counter_add(out, "pbr_fetched", (double)s->pbr_fetched);
  gpurf_release_counts c = {0};
  for (int i = 0; i < RN_KERNELS; i++)
    if (s->kernels[i].rel) {
      gpurf_release_counts k;
      gpurf_release_counts_get(s->kernels[i].rel, &k);
      c.static_insts += k.static_insts, c.static_pir += k.static_pir;
      c.static_pbr += k.static_pbr;
    }
  gpurf_technique_counter_add(out, "static_insts", (double)c.static_insts);
  gpurf_technique_counter_add(out, "static_meta_insts", (double)(c.static_pir + c.static_pbr));
  gpurf_technique_counter_add(out, "alloc_failures", (double)s->alloc_failures);
  gpurf_technique_counter_add(out, "analysis_failed", s->err != 0);
}

static void rn_destroy(void *state) {
  rn_state *s = state;
  if (!s) return;
  for (int i = 0; i < RN_KERNELS; i++) {
    gpurf_dataflow_free(s->kernels[i].df);
    gpurf_release_free(s->kernels[i].rel);
  }
  for (int i = 0; i < s->n_cta && s->cta; i++) free(s->cta[i].pc);
  free(s->cta);
  free(s->bal);
  rn_pool_free(&s->pool);
  free(s);
}

const gpurf_technique_def gpurf_technique_rename = {
    "rename",
    "GPU register-file virtualization (Jeon et al.): physical registers from the first write "
    "to the release flag, CTA throttling when short, sub-array power gating",
    rn_create,
    rn_set,
    rn_hooks,
    rn_counters,
    rn_destroy};
