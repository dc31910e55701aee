/* WarRF (J. Wang and Y. Xie, "A Write-Aware STTRAM-Based Register File
 * Architecture for GPGPU", ACM JETC 12(1), 2015): split-bank write and the
 * write pool in front of an STT-RAM register file whose writes hold a bank
 * for several cycles (bank_write_cycles).
 *
 * Split-bank write (Section 3): each bank is two sub-arrays sharing their
 * sense amplifiers; while one is written, a read of the other proceeds.
 * The arbiter keeps, per bank, the write's remaining cycles (WBusy) and the
 * sub-array it writes (Subarray id): 16 x (2 + 1) = 48 bits for 16 banks,
 * the "two small buffers" of Section 5. The pipeline keeps the same state
 * (the held write and its end), so this file only says which reads may go
 * beside a write: those of the other sub-array. One write per bank at a
 * time, as one WBusy entry per bank allows.
 *
 * Which sub-array holds a register depends on how the rows of a bank are
 * laid out, which the paper leaves open. subarray=warp (default): rows are
 * interleaved by warp, so the sub-array is the warp slot's low bit;
 * subarray=reg: a warp's registers take consecutive rows, so it is the low
 * bit of reg / banks (a kernel with at most `banks` registers then keeps
 * every register of every warp in sub-array 0, and SBW never helps).
 *
 * Write pool (Section 4): `entries` (60) fully associative warp registers
 * between the arbiter and the banks. Every register access searches the
 * pool's indicator (warp id, register id). A write that hits updates its
 * entry; a miss takes a free entry, or evicts the least recently used one
 * to its bank (a forced write, itself subject to SBW) and takes its place.
 * Reads that hit are served by the pool. When the two-level scheduler
 * demotes a warp, its entries move to the LRU end (demotion=0: plain LRU,
 * for comparison). Entries of warps that
 * have ended hold dead values: they are dropped, not written back. The pool
 * is a single-cycle SRAM whose own port conflicts are not modelled.
 *
 * Energy: the design's "write_pool" component (our write-pool model):
 * cam_search per search, cam_update per allocation, read per pool read
 * (hit or eviction), write per pool write. */
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "pipeline/pipe_internal.h"
#include "pipeline/tech/technique_internal.h"

#define WARRF_MAX_ENTRIES 256

typedef enum { SUB_WARP = 0, SUB_REG = 1 } sub_mode;

typedef struct entry {
  int warp, reg;
  uint32_t gwarp;
  int64_t stamp; /* larger = more recently used */
} entry;

typedef struct warrf {
  int sbw;
  int entries;
  int demotion; /* 1: demoted warps' entries to the LRU end; 0: plain LRU */
  sub_mode sub;
  /* pool */
  int n;
  entry e[WARRF_MAX_ENTRIES];
  int16_t where[GPURF_PIPELINE_MAX_WARPS][GPURF_TRACE_NUM_REGS]; /* entry + 1, 0: absent */
  int64_t tick, low;
  int ev_search, ev_update, ev_read, ev_write;
  gpurf_energy *energy;
  /* counters */
  uint64_t searches, read_hits, write_hits, allocs, evictions, bypass, demoted, dropped;
  uint64_t pool_reads, pool_writes;
} warrf;

static int create(gpurf_ctx *ctx, void **state) {
  warrf *s = calloc(1, sizeof *s);
  if (!s) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  s->sbw = 1;
  s->demotion = 1;
  s->entries = 60; /* Section 4.2: N = 60 */
  *state = s;
  return GPURF_OK;
}

static int parse_int(const char *v, int lo, int hi, int *out) {
  char *end = NULL;
  long x = strtol(v, &end, 10);
  if (end == v || *end || x < lo || x > hi) return -1;
  *out = (int)x;
  return 0;
}

static int set(gpurf_ctx *ctx, void *state, const char *key, const char *value) {
  warrf *s = state;
  if (!strcmp(key, "sbw")) {
    if (parse_int(value, 0, 1, &s->sbw) == 0) return GPURF_OK;
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, key, "'%s' is not 0 or 1", value);
  }
  if (!strcmp(key, "demotion")) {
    if (parse_int(value, 0, 1, &s->demotion) == 0) return GPURF_OK;
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, key, "'%s' is not 0 or 1", value);
  }
  if (!strcmp(key, "entries")) {
    if (parse_int(value, 0, WARRF_MAX_ENTRIES, &s->entries) == 0) return GPURF_OK;
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, key, "'%s' is not a count in 0..%d",
                         value, WARRF_MAX_ENTRIES);
  }
  if (!strcmp(key, "subarray")) {
    if (!strcmp(value, "warp") || !strcmp(value, "reg")) {
      s->sub = !strcmp(value, "reg") ? SUB_REG : SUB_WARP;
      return GPURF_OK;
    }
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, key, "'%s' is not warp or reg", value);
  }
  return gpurf_fail_at(ctx, GPURF_ENOTFOUND, NULL, 0, 0, key,
                       "unknown option (warrf has sbw, entries, subarray, demotion)");
}

static void count(warrf *s, int id) {
  if (s->energy && id >= 0) gpurf_energy_add(s->energy, id, 0, 1);
}

static int attach(gpurf_ctx *ctx, gpurf_pipeline *p, void *state) {
  warrf *s = state;
  (void)ctx;
  s->n = 0;
  s->tick = s->low = 0;
  memset(s->where, 0, sizeof s->where);
  s->searches = s->read_hits = s->write_hits = s->allocs = s->evictions = 0;
  s->bypass = s->demoted = s->dropped = s->pool_reads = s->pool_writes = 0;
  s->energy = gpurf_pipeline_energy(p);
  s->ev_search = s->ev_update = s->ev_read = s->ev_write = -1;
  if (s->energy && s->entries > 0) {
    /* A design without a write pool runs the mechanism without its energy. */
    if (gpurf_energy_event_id(s->energy, "write_pool", "cam_search", &s->ev_search) != GPURF_OK)
      s->ev_search = -1;
    if (gpurf_energy_event_id(s->energy, "write_pool", "cam_update", &s->ev_update) != GPURF_OK)
      s->ev_update = -1;
    if (gpurf_energy_event_id(s->energy, "write_pool", "read", &s->ev_read) != GPURF_OK)
      s->ev_read = -1;
    if (gpurf_energy_event_id(s->energy, "write_pool", "write", &s->ev_write) != GPURF_OK)
      s->ev_write = -1;
  }
  return GPURF_OK;
}

static int sub_of(const warrf *s, const gpurf_pipeline *p, int ws, int reg) {
  return s->sub == SUB_REG ? (reg / p->prm.banks) & 1 : ws & 1;
}

/* SBW: a read of the other sub-array goes beside the write. */
static int share(void *state, gpurf_pipeline *p, int bank, const gpurf_pipeline_req *held,
                 const gpurf_pipeline_req *req) {
  (void)bank;
  const warrf *s = state;
  return s->sbw && sub_of(s, p, held->warp, held->reg) != sub_of(s, p, req->warp, req->reg);
}

static void drop(warrf *s, int i) {
  entry *x = &s->e[i];
  s->where[x->warp][x->reg] = 0;
  s->e[i] = s->e[--s->n];
  if (i < s->n) s->where[s->e[i].warp][s->e[i].reg] = (int16_t)(i + 1);
}

/* The entry of (warp, reg) of the warp now in the slot, or -1. */
static int find(warrf *s, const gpurf_pipeline *p, int ws, int reg) {
  int i = s->where[ws][reg] - 1;
  if (i < 0) return -1;
  if (s->e[i].gwarp != p->w[ws].gid || !p->w[ws].live) {
    drop(s, i); /* a value of a warp that has ended */
    s->dropped++;
    return -1;
  }
  return i;
}

static int map(void *state, gpurf_pipeline *p, int ws, uint32_t gwarp, int reg, int is_write) {
  warrf *s = state;
  /* Writes reach map() when they go to a bank (bypass or eviction): the
   * search was counted in writeback(). */
  if (!is_write && s->entries > 0) {
    s->searches++;
    count(s, s->ev_search);
    if (find(s, p, ws, reg) >= 0) {
      s->read_hits++;
      s->pool_reads++;
      count(s, s->ev_read);
      return GPURF_PIPELINE_NO_BANK;
    }
  }
  return gpurf_pipeline_baseline_hooks()->map(NULL, p, ws, gwarp, reg, is_write);
}

static int lru(const warrf *s) {
  int v = 0;
  for (int i = 1; i < s->n; i++)
    if (s->e[i].stamp < s->e[v].stamp) v = i;
  return v;
}

static gpurf_pipeline_wb writeback(void *state, gpurf_pipeline *p, int ws, int reg) {
  warrf *s = state;
  if (s->entries == 0) return GPURF_PIPELINE_WB_BANK;
  s->searches++;
  count(s, s->ev_search);
  int i = find(s, p, ws, reg);
  if (i >= 0) {
    s->write_hits++;
  } else {
    /* Entries of ended warps go first, without a write-back. */
    for (int k = s->n - 1; k >= 0 && s->n == s->entries; k--)
      if (s->e[k].gwarp != p->w[s->e[k].warp].gid || !p->w[s->e[k].warp].live) {
        drop(s, k);
        s->dropped++;
      }
    if (s->n == s->entries) {
      int v = lru(s);
      /* The victim's value leaves for its bank; a full write queue keeps
       * it, and the new value goes to its bank instead. */
      if (gpurf_pipeline_force_write(p, s->e[v].warp, s->e[v].reg) != GPURF_OK) {
        s->bypass++;
        return GPURF_PIPELINE_WB_BANK;
      }
      s->evictions++;
      s->pool_reads++;
      count(s, s->ev_read);
      drop(s, v);
    }
    i = s->n++;
    s->e[i] = (entry){ws, reg, p->w[ws].gid, 0};
    s->where[ws][reg] = (int16_t)(i + 1);
    s->allocs++;
    count(s, s->ev_update);
  }
  s->e[i].stamp = ++s->tick;
  s->pool_writes++;
  count(s, s->ev_write);
  return GPURF_PIPELINE_WB_DEFER;
}

/* Two-level demotion as the baseline decides it; a demoted warp's entries
 * move to the LRU end, in their own order. */
static int demote(void *state, gpurf_pipeline *p, int ws, int reg, int long_latency) {
  warrf *s = state;
  int d = gpurf_pipeline_baseline_hooks()->demote(NULL, p, ws, reg, long_latency);
  if (!d || s->entries == 0 || !s->demotion) return d;
  int idx[WARRF_MAX_ENTRIES], n = 0;
  for (int i = 0; i < s->n; i++)
    if (s->e[i].warp == ws) idx[n++] = i;
  /* Insertion sort by stamp, most recent first: each goes below the rest. */
  for (int a = 1; a < n; a++)
    for (int b = a; b > 0 && s->e[idx[b]].stamp > s->e[idx[b - 1]].stamp; b--) {
      int t = idx[b];
      idx[b] = idx[b - 1];
      idx[b - 1] = t;
    }
  int64_t min = s->low;
  for (int i = 0; i < s->n; i++)
    if (s->e[i].stamp < min) min = s->e[i].stamp;
  for (int k = 0; k < n; k++) s->e[idx[k]].stamp = --min;
  s->low = min;
  s->demoted += (uint64_t)n;
  return d;
}

/* Options are set after the hooks are taken: every hook is installed and
 * each one falls back to the baseline's behaviour when its part is off. */
static void hooks(void *state, gpurf_pipeline_hooks *out) {
  (void)state;
  memset(out, 0, sizeof *out);
  out->attach = attach;
  out->share = share;
  out->map = map;
  out->writeback = writeback;
  out->demote = demote;
}

static void counters(const void *state, gpurf_technique_counters *out) {
  const warrf *s = state;
  gpurf_technique_counter_add(out, "pool_searches", (double)s->searches);
  gpurf_technique_counter_add(out, "pool_read_hits", (double)s->read_hits);
  gpurf_technique_counter_add(out, "pool_write_hits", (double)s->write_hits);
  gpurf_technique_counter_add(out, "pool_allocations", (double)s->allocs);
  gpurf_technique_counter_add(out, "pool_evictions", (double)s->evictions);
  gpurf_technique_counter_add(out, "pool_bypass_writes", (double)s->bypass);
  gpurf_technique_counter_add(out, "pool_demoted_entries", (double)s->demoted);
  gpurf_technique_counter_add(out, "pool_dropped_dead", (double)s->dropped);
  gpurf_technique_counter_add(out, "pool_array_reads", (double)s->pool_reads);
  gpurf_technique_counter_add(out, "pool_array_writes", (double)s->pool_writes);
}

static void destroy(void *state) { free(state); }

const gpurf_technique_def gpurf_technique_warrf = {
    "warrf",
    "STT-RAM WarRF: split-bank write (sbw=1) and a write pool (entries=60; 0: none)",
    create,
    set,
    hooks,
    counters,
    destroy};
