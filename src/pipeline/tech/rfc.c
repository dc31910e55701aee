/* Hardware register-file cache (Gebhart et al., ACM TOCS 2012, Sec. 4.1,
 * 4.6 and 7.1-7.3): each warp that may issue owns N entries per thread.
 * Every result that is not long-latency is written into the cache instead
 * of its MRF bank; a read whose tag matches is served from the cache; an
 * evicted value goes back to the MRF unless its last read already passed
 * (the compiler's liveness hint); a warp leaving the two-level scheduler's
 * active set writes back its live entries and loses them all.
 *
 * With l0=1 the cache has two levels (Sec. 7.6): results enter an L0 of one
 * entry per thread, a value leaving the L0 goes into the L1 (the N entries)
 * unless dead, and one leaving the L1 goes to the MRF unless dead. Values
 * for the shared units are not kept out of the L0 (the paper's compiler
 * bit): every unit is assumed to reach both levels.
 *
 * Options: entries (1-8), replace (fifo|lru), liveness (0|1), flush (0|1:
 * 0 keeps the entries of a demoted warp, the paper's "ignoring flushes"
 * experiment of Sec. 7.1), l0 (0|1), component (the cache's table
 * component, "rfc"), tags (the tag store's component, "rfc_tags"). */
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "pipeline/tech/technique_internal.h"

#define RFC_MAX_ENTRIES 8
#define RFC_RETRY_CAP 256
#define RFC_NAME_MAX 32

typedef struct rfc_entry {
  int reg;        /* -1: empty */
  int dirty;      /* the MRF lacks this value, which a later read may need */
  uint64_t order; /* FIFO: when written; LRU: last touched */
} rfc_entry;

typedef struct rfc_warp {
  int active;
  uint32_t gid; /* warp the entries belong to (slots are reused) */
  rfc_entry e[RFC_MAX_ENTRIES];
  rfc_entry l0;
} rfc_warp;

typedef struct rfc_counts {
  uint64_t read_hits, read_misses, writes, bypass_long, bypass_inactive, evictions,
      eviction_writebacks, evictions_dead, flushes, flush_writebacks, flush_dead, tag_checks,
      dead_marks, l0_read_hits, l0_writes, l0_to_l1, l0_dead, l0_flush_writebacks;
} rfc_counts;

typedef struct rfc_state {
  int entries, lru, liveness, flush, l0;
  char component[RFC_NAME_MAX], tags[RFC_NAME_MAX];
  int two_level;
  int ev_read, ev_write, ev_check, ev_update, instances;
  uint64_t clock;
  rfc_warp w[GPURF_PIPELINE_MAX_WARPS];
  /* Write-backs refused by a full bank queue, sent again later. */
  int n_retry;
  int retry_warp[RFC_RETRY_CAP], retry_reg[RFC_RETRY_CAP];
  rfc_counts n;
} rfc_state;

static int rfc_create(gpurf_ctx *ctx, void **out) {
  rfc_state *s = calloc(1, sizeof *s);
  if (!s) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  s->entries = 6; /* the knee of Fig. 15 */
  s->liveness = 1;
  s->flush = 1;
  strcpy(s->component, "rfc");
  strcpy(s->tags, "rfc_tags");
  *out = s;
  return GPURF_OK;
}

static int parse_bool(const char *v, int *out) {
  if (!strcmp(v, "1") || !strcmp(v, "on")) return *out = 1, GPURF_OK;
  if (!strcmp(v, "0") || !strcmp(v, "off")) return *out = 0, GPURF_OK;
  return GPURF_EINVAL;
}

static int rfc_set(gpurf_ctx *ctx, void *state, const char *key, const char *value) {
  rfc_state *s = state;
  if (!strcmp(key, "entries")) {
    char *end;
    long v = strtol(value, &end, 10);
    if (*value == '\0' || *end != '\0' || v < 1 || v > RFC_MAX_ENTRIES)
      return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, key,
                           "entries per thread must be 1..%d, not '%s'", RFC_MAX_ENTRIES, value);
    s->entries = (int)v;
    return GPURF_OK;
  }
  if (!strcmp(key, "replace")) {
    if (strcmp(value, "fifo") && strcmp(value, "lru"))
      return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, key,
                           "replacement is fifo or lru, not '%s'", value);
    s->lru = !strcmp(value, "lru");
    return GPURF_OK;
  }
  int *flag = !strcmp(key, "liveness") ? &s->liveness
              : !strcmp(key, "flush")  ? &s->flush
              : !strcmp(key, "l0")     ? &s->l0
                                       : NULL;
  if (flag) {
    if (parse_bool(value, flag) != GPURF_OK)
      return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, key, "expected 0 or 1, not '%s'", value);
    return GPURF_OK;
  }
  char *name = !strcmp(key, "component") ? s->component : !strcmp(key, "tags") ? s->tags : NULL;
  if (name) {
    if (*value == '\0' || strlen(value) >= RFC_NAME_MAX)
      return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, key, "bad component name '%s'", value);
    strcpy(name, value);
    return GPURF_OK;
  }
  return gpurf_fail_at(ctx, GPURF_ENOTFOUND, NULL, 0, 0, key,
                       "rfc has no option '%s' (entries, replace, liveness, flush, l0, "
                       "component, tags)",
                       key);
}

static int rfc_attach(gpurf_ctx *ctx, gpurf_pipeline *p, void *state) {
  (void)ctx;
  rfc_state *s = state;
  s->two_level = gpurf_pipeline_get_params(p)->policy == GPURF_PIPELINE_TWO_LEVEL;
  for (int i = 0; i < GPURF_PIPELINE_MAX_WARPS; i++) {
    s->w[i].active = !s->two_level;
    s->w[i].gid = UINT32_MAX;
    for (int k = 0; k < RFC_MAX_ENTRIES; k++) s->w[i].e[k].reg = -1;
    s->w[i].l0.reg = -1;
  }
  s->ev_read = s->ev_write = s->ev_check = s->ev_update = -1;
  s->instances = 1;
  gpurf_energy *en = gpurf_pipeline_energy(p);
  if (en) {
    /* A design without the cache (the MRF-only baseline) costs no events. */
    if (gpurf_energy_event_id(en, s->component, "read", &s->ev_read) != GPURF_OK ||
        gpurf_energy_event_id(en, s->component, "write", &s->ev_write) != GPURF_OK)
      s->ev_read = s->ev_write = -1;
    if (gpurf_energy_event_id(en, s->tags, "check", &s->ev_check) != GPURF_OK) s->ev_check = -1;
    if (gpurf_energy_event_id(en, s->tags, "update", &s->ev_update) != GPURF_OK)
      s->ev_update = -1;
    const gpurf_rf_table *t = gpurf_energy_table(en);
    int c = gpurf_rf_table_find(t, s->component);
    const gpurf_rf_component *k = c >= 0 ? gpurf_rf_table_component(t, c) : NULL;
    if (k && k->instances > 0) s->instances = k->instances;
  }
  return GPURF_OK;
}

static void count(gpurf_pipeline *p, int id, int instance, uint64_t n) {
  if (id >= 0) gpurf_energy_add(gpurf_pipeline_energy(p), id, instance, n);
}

/* The MRF bank of a register: the pipeline's own mapping. */
static int mrf_bank(gpurf_pipeline *p, int wslot, int reg) {
  const gpurf_pipeline_params *prm = gpurf_pipeline_get_params(p);
  int x = prm->bank_map == GPURF_PIPELINE_MAP_REG ? reg : reg + wslot;
  return x % prm->banks;
}

/* A write-back to the MRF, or a retry later when the bank's queue is full. */
static void write_back(rfc_state *s, gpurf_pipeline *p, int wslot, int reg) {
  if (gpurf_pipeline_force_write(p, wslot, reg) == GPURF_OK) return;
  if (s->n_retry < RFC_RETRY_CAP) {
    s->retry_warp[s->n_retry] = wslot;
    s->retry_reg[s->n_retry++] = reg;
  }
}

static void drain_retries(rfc_state *s, gpurf_pipeline *p) {
  int k = 0;
  for (int i = 0; i < s->n_retry; i++)
    if (gpurf_pipeline_force_write(p, s->retry_warp[i], s->retry_reg[i]) != GPURF_OK)
      s->retry_warp[k] = s->retry_warp[i], s->retry_reg[k++] = s->retry_reg[i];
  s->n_retry = k;
}

/* The slot's entries, emptied (dead values, no write-back) when a new warp
 * took the slot. */
static rfc_warp *warp_of(rfc_state *s, int wslot, uint32_t gid) {
  rfc_warp *w = &s->w[wslot];
  if (w->gid != gid) {
    w->gid = gid;
    for (int k = 0; k < RFC_MAX_ENTRIES; k++) w->e[k].reg = -1;
    w->l0.reg = -1;
  }
  return w;
}

static int find(const rfc_warp *w, int n, int reg) {
  for (int k = 0; k < n; k++)
    if (w->e[k].reg == reg) return k;
  return -1;
}

static int rfc_map(void *state, gpurf_pipeline *p, int wslot, uint32_t gwarp, int reg,
                   int is_write) {
  rfc_state *s = state;
  if (is_write) return mrf_bank(p, wslot, reg);
  rfc_warp *w = warp_of(s, wslot, gwarp);
  int inst = wslot % s->instances;
  s->n.tag_checks++;
  count(p, s->ev_check, 0, 1);
  if (w->active && w->l0.reg == reg) {
    s->n.l0_read_hits++;
    if (s->liveness && w->l0.dirty && gpurf_pipeline_last_use(p, wslot, reg) == 1) {
      w->l0.dirty = 0;
      s->n.dead_marks++;
    }
    return GPURF_PIPELINE_NO_BANK;
  }
  int k = w->active ? find(w, s->entries, reg) : -1;
  if (k < 0) {
    s->n.read_misses++;
    return mrf_bank(p, wslot, reg);
  }
  s->n.read_hits++;
  count(p, s->ev_read, inst, 1);
  if (s->lru) w->e[k].order = ++s->clock;
  if (s->liveness && w->e[k].dirty && gpurf_pipeline_last_use(p, wslot, reg) == 1) {
    w->e[k].dirty = 0; /* dead: an eviction need not write it back */
    s->n.dead_marks++;
  }
  return GPURF_PIPELINE_NO_BANK;
}

/* Puts reg into the warp's L1 entries, evicting the oldest (FIFO) or the
 * least recently used entry; a live victim goes back to the MRF. */
static void l1_insert(rfc_state *s, gpurf_pipeline *p, int wslot, int reg) {
  rfc_warp *w = &s->w[wslot];
  int v = -1;
  for (int k = 0; k < s->entries && v < 0; k++)
    if (w->e[k].reg < 0) v = k;
  if (v < 0) {
    v = 0;
    for (int k = 1; k < s->entries; k++)
      if (w->e[k].order < w->e[v].order) v = k;
    s->n.evictions++;
    if (w->e[v].dirty) {
      s->n.eviction_writebacks++;
      write_back(s, p, wslot, w->e[v].reg);
    } else {
      s->n.evictions_dead++;
    }
  }
  w->e[v] = (rfc_entry){reg, 1, ++s->clock};
  s->n.writes++;
  count(p, s->ev_write, wslot % s->instances, 1);
}

static gpurf_pipeline_wb rfc_writeback(void *state, gpurf_pipeline *p, int wslot, int reg) {
  rfc_state *s = state;
  if (s->n_retry) drain_retries(s, p);
  rfc_warp *w = &s->w[wslot];
  /* An older copy of reg is overwritten wherever the new value goes. */
  int old = find(w, s->entries, reg);
  if (old >= 0) w->e[old].reg = -1;
  if (w->l0.reg == reg) w->l0.reg = -1;
  if (gpurf_pipeline_long_pending(p, wslot, reg)) {
    s->n.bypass_long++; /* Sec. 4.6: long-latency results go around the cache */
    return GPURF_PIPELINE_WB_BANK;
  }
  if (!w->active) {
    s->n.bypass_inactive++; /* the warp left the active set: it owns no entries */
    return GPURF_PIPELINE_WB_BANK;
  }
  s->n.tag_checks++;
  count(p, s->ev_update, 0, 1);
  if (!s->l0) {
    l1_insert(s, p, wslot, reg);
    return GPURF_PIPELINE_WB_DEFER;
  }
  if (w->l0.reg >= 0) {
    if (w->l0.dirty) {
      s->n.l0_to_l1++; /* an L0 read and an L1 write */
      l1_insert(s, p, wslot, w->l0.reg);
    } else {
      s->n.l0_dead++;
    }
  }
  w->l0 = (rfc_entry){reg, 1, 0};
  s->n.l0_writes++;
  return GPURF_PIPELINE_WB_DEFER;
}

/* Leaving the active set: live entries go back to the MRF, all are freed. */
static void flush(rfc_state *s, gpurf_pipeline *p, int wslot) {
  rfc_warp *w = &s->w[wslot];
  s->n.flushes++;
  for (int k = 0; k < s->entries; k++) {
    if (w->e[k].reg < 0) continue;
    if (w->e[k].dirty) {
      s->n.flush_writebacks++;
      write_back(s, p, wslot, w->e[k].reg);
    } else {
      s->n.flush_dead++;
    }
    w->e[k].reg = -1;
  }
  if (w->l0.reg >= 0 && w->l0.dirty) {
    s->n.l0_flush_writebacks++;
    write_back(s, p, wslot, w->l0.reg);
  }
  w->l0.reg = -1;
}

static int rfc_demote(void *state, gpurf_pipeline *p, int wslot, int reg, int long_latency) {
  rfc_state *s = state;
  int leave = reg < 0 || long_latency;
  if (leave && s->two_level && s->flush) {
    flush(s, p, wslot);
    s->w[wslot].active = 0;
  }
  return long_latency;
}

static int rfc_promote(void *state, gpurf_pipeline *p, int scheduler, const int *pending, int n) {
  (void)p, (void)scheduler;
  rfc_state *s = state;
  if (n > 0) s->w[pending[0]].active = 1; /* the baseline's round robin: the head */
  return 0;
}

static void rfc_hooks(void *state, gpurf_pipeline_hooks *out) {
  (void)state;
  memset(out, 0, sizeof *out);
  out->attach = rfc_attach;
  out->map = rfc_map;
  out->writeback = rfc_writeback;
  out->demote = rfc_demote;
  out->promote = rfc_promote;
}

static void rfc_counters(const void *state, gpurf_technique_counters *out) {
  const rfc_state *s = state;
  const rfc_counts *n = &s->n;
  uint64_t mrf_writes = n->eviction_writebacks + n->flush_writebacks + n->l0_flush_writebacks;
  gpurf_technique_counter_add(out, "rfc_read_hits", (double)n->read_hits);
  gpurf_technique_counter_add(out, "rfc_read_misses", (double)n->read_misses);
  gpurf_technique_counter_add(out, "rfc_writes", (double)n->writes);
  gpurf_technique_counter_add(out, "rfc_bypass_long", (double)n->bypass_long);
  gpurf_technique_counter_add(out, "rfc_bypass_inactive", (double)n->bypass_inactive);
  gpurf_technique_counter_add(out, "rfc_evictions", (double)n->evictions);
  gpurf_technique_counter_add(out, "rfc_eviction_writebacks", (double)n->eviction_writebacks);
  gpurf_technique_counter_add(out, "rfc_evictions_dead", (double)n->evictions_dead);
  gpurf_technique_counter_add(out, "rfc_flushes", (double)n->flushes);
  gpurf_technique_counter_add(out, "rfc_flush_writebacks", (double)n->flush_writebacks);
  gpurf_technique_counter_add(out, "rfc_flush_dead", (double)n->flush_dead);
  gpurf_technique_counter_add(out, "rfc_dead_marks", (double)n->dead_marks);
  gpurf_technique_counter_add(out, "rfc_tag_checks", (double)n->tag_checks);
  gpurf_technique_counter_add(out, "rfc_l0_read_hits", (double)n->l0_read_hits);
  gpurf_technique_counter_add(out, "rfc_l0_writes", (double)n->l0_writes);
  gpurf_technique_counter_add(out, "rfc_l0_to_l1", (double)n->l0_to_l1);
  gpurf_technique_counter_add(out, "rfc_l0_dead", (double)n->l0_dead);
  gpurf_technique_counter_add(out, "rfc_l0_flush_writebacks", (double)n->l0_flush_writebacks);
  gpurf_technique_counter_add(out, "mrf_reads_avoided", (double)(n->read_hits + n->l0_read_hits));
  /* Results kept out of the MRF, less the write-backs. */
  uint64_t kept = s->l0 ? n->l0_writes : n->writes;
  gpurf_technique_counter_add(out, "mrf_writes_avoided",
                              (double)(kept > mrf_writes ? kept - mrf_writes : 0));
}

static void rfc_destroy(void *state) { free(state); }

const gpurf_technique_def gpurf_technique_rfc = {
    "rfc",
    "register-file cache of N entries per active thread (Gebhart et al.): FIFO/LRU, liveness "
    "hints, flush on demotion",
    rfc_create,
    rfc_set,
    rfc_hooks,
    rfc_counters,
    rfc_destroy};
