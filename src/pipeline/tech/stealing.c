/* Bank stealing (Jing et al., IEEE TVLSI, Section IV): idle banks serve
 * reads one cycle early (read stealing) and hold results whose own bank is
 * busy with reads (write stealing), with the five-class arbiter of Fig. 10.
 *
 * Read stealing. The paper latches, besides the warp a scheduler issues,
 * the other warp of the last level of its selection tree and reads that
 * warp's operands in the current arbitration when a collector is free, its
 * banks are idle and a conflict is coming; the scheduler then issues it in
 * the next cycle (multiplexers m1-m3). Here select() gets the policy's pick
 * and its look-ahead: when the conditions hold the look-ahead is issued in
 * the same cycle as the pick (gpurf_pipeline_issue_extra), its reads go to
 * the arbiter as stealing reads, and the scheduler issues nothing in the
 * next cycle, the slot the stolen warp would have taken. A stealing read
 * that loses its bank becomes a normal read a cycle later, as an aborted
 * steal leaves the instruction to issue normally. "A conflict is coming"
 * is taken as: after the next arbitration some bank still has a request
 * waiting (two or more requests, or one on a busy bank).
 *
 * Write stealing. Each bank has one free register (Rfree, from liveness)
 * and a 19-bit status entry. A result whose bank has reads waiting is
 * written to the free register of an idle bank (round robin over the
 * qualified banks); the scoreboard is released at once, as the paper
 * clears it and checks dependences on the status table. The value moves
 * home (a read of the temporary register, then a write at home with the
 * forced-write priority) when its temporary bank is idle and no read waits
 * at home; an instruction that reads (RAW) or writes (WAW) it first forces
 * the move, and a read waits for it in the arbiter. A value whose warp has
 * finished is dead and dropped.
 *
 * Priorities: forced write > normal read > stealing read > normal write >
 * stealing write (gpurf_arbiter_classes; 3 classes with read stealing alone, 4
 * with write stealing alone: option mode=read or mode=write). Costs: the
 * extra read and write of every stolen value are bank accesses counted by
 * the pipeline's energy engine; the arbiter's classes and status tables
 * are in the design's arbiter component (its area, leakage and decision
 * energy). */
#include <stdlib.h>
#include <string.h>

#include "gpurf/component.h"
#include "core/ctx_internal.h"
#include "pipeline/tech/technique_internal.h"

enum { HELD = 1, MOVING = 2 };

/* One bank's status table: its free register holds a stolen value. */
typedef struct entry {
  int state; /* 0: the free register is free */
  int forced;
  int warp, reg, home;
  uint32_t gwarp;
  uint64_t since; /* cycle of the stealing write */
} entry;

enum {
  C_READ_AHEADS = 0,
  C_STOLEN_READS,
  C_WRITES_NORMAL,
  C_WRITES_STOLEN,
  C_MOVES_HOME,
  C_FORCED,
  C_DROPPED,
  C_COUNT
};

static const char *const counter_names[C_COUNT] = {
    "read_aheads", "stolen_reads",      "writes_normal",      "writes_stolen",
    "moves_home",  "forced_writebacks", "dead_values_dropped"};

/* What each scheduler picked and would pick next in this cycle: the
 * operands latched into the arbitration stage (Fig. 7). */
typedef struct latch {
  uint64_t cycle; /* cycle + 1 it was latched in */
  int pick, look;
  gpurf_pipeline_inst pick_in, look_in;
} latch;

typedef struct steal {
  int read, write;
  int rank[GPURF_ARBITER_CLASS_COUNT]; /* priority of each class, 0 highest */
  int banks, map_reg;
  uint64_t maint_cycle;                                /* cycle + 1 of the last upkeep */
  uint64_t seen;                                       /* cycle + 1 of the last selection */
  uint64_t override_at[GPURF_PIPELINE_MAX_SCHEDULERS]; /* cycle + 1 whose slot is taken */
  uint64_t stolen_at[GPURF_PIPELINE_MAX_WARPS];        /* age + 1 of a warp's stealing reads */
  int n_valid, rr;
  entry e[GPURF_PIPELINE_MAX_BANKS];
  uint64_t c[C_COUNT];
  latch latch[GPURF_PIPELINE_MAX_SCHEDULERS];
} steal;

static int home(const steal *st, int warp, int reg) {
  return (st->map_reg ? reg : reg + warp) % st->banks;
}

static entry *find(steal *st, int warp, int reg) {
  if (st->n_valid == 0) return NULL;
  for (int b = 0; b < st->banks; b++)
    if (st->e[b].state && st->e[b].warp == warp && st->e[b].reg == reg) return &st->e[b];
  return NULL;
}

static int attach(gpurf_ctx *ctx, gpurf_pipeline *p, void *state) {
  steal *st = state;
  const gpurf_pipeline_params *prm = gpurf_pipeline_get_params(p);
  (void)ctx;
  st->banks = prm->banks;
  st->map_reg = prm->bank_map == GPURF_PIPELINE_MAP_REG;
  st->maint_cycle = st->seen = 0;
  st->n_valid = 0;
  st->rr = 0;
  memset(st->override_at, 0, sizeof st->override_at);
  memset(st->stolen_at, 0, sizeof st->stolen_at);
  memset(st->e, 0, sizeof st->e);
  memset(st->c, 0, sizeof st->c);
  memset(st->latch, 0, sizeof st->latch);
  return GPURF_OK;
}

/* Reads the temporary register now and queues the write at home, which
 * the arbiter grants as a forced write. Needs the temporary bank idle in
 * this cycle. */
static void move_home(steal *st, gpurf_pipeline *p, entry *e, int x) {
  gpurf_pipeline_bank_state bs;
  if (gpurf_pipeline_bank_get(p, x, &bs) != GPURF_OK || bs.free_at > gpurf_pipeline_cycle(p))
    return;
  if (gpurf_pipeline_force_write_bank(p, e->warp, e->reg, e->home) != GPURF_OK) return;
  gpurf_pipeline_bank_access(p, x, 0);
  e->state = MOVING;
  (void)st;
}

/* Once per cycle, at issue (after the arbitration): forced values first,
 * then values whose home bank has no read waiting. */
static void upkeep(steal *st, gpurf_pipeline *p, uint64_t now) {
  for (int b = 0; b < st->banks; b++) {
    entry *e = &st->e[b];
    uint32_t g;
    if (e->state == HELD && (gpurf_pipeline_warp_id(p, e->warp, &g) != GPURF_OK || g != e->gwarp)) {
      e->state = 0;
      st->n_valid--;
      st->c[C_DROPPED]++;
    }
  }
  for (int pass = 0; pass < 2; pass++)
    for (int b = 0; b < st->banks; b++) {
      entry *e = &st->e[b];
      if (e->state != HELD || e->since >= now || e->forced != (pass == 0)) continue;
      gpurf_pipeline_bank_state hs;
      if (!e->forced && (gpurf_pipeline_bank_get(p, e->home, &hs) != GPURF_OK || hs.reads > 0))
        continue;
      move_home(st, p, e, b);
    }
}

/* 0: the instruction touches no stolen value of its warp; 1: it reads one
 * (RAW); 2: it writes one (WAW). Either forces the value home. */
static int hazard(steal *st, gpurf_pipeline *p, int warp, const gpurf_pipeline_inst *in,
                  int force) {
  int h = 0;
  for (int b = 0; b < st->banks && st->n_valid; b++) {
    entry *e = &st->e[b];
    if (!e->state || e->warp != warp || e->gwarp != in->gwarp) continue;
    int raw = 0, waw = 0;
    for (int i = 0; i < in->n_src; i++) raw |= in->src[i] == e->reg;
    for (int i = 0; i < in->n_dst; i++) waw |= in->dst[i] == e->reg;
    if (!raw && !waw) continue;
    h = waw ? 2 : h > 1 ? h : 1;
    if (force && !e->forced) {
      e->forced = 1;
      st->c[C_FORCED]++;
      if (e->state == HELD) move_home(st, p, e, b);
    }
  }
  return h;
}

static int banks_of(const steal *st, int warp, const gpurf_pipeline_inst *in, uint64_t *mask) {
  *mask = 0;
  int distinct = 1;
  for (int i = 0; i < in->n_src; i++) {
    uint64_t bit = (uint64_t)1 << home(st, warp, in->src[i]);
    distinct &= !(*mask & bit);
    *mask |= bit;
  }
  return distinct;
}

/* Reads scheduler k's look-ahead warp in the coming arbitration when a
 * collector is free, its banks see no other request then, and its reads
 * would meet another scheduler's look-ahead in the cycle after (the
 * conflict of rc and rd in Fig. 6). `last` is the scheduler whose pick is
 * still to issue in this cycle. */
static void read_ahead(steal *st, gpurf_pipeline *p, const latch *lt, int n_sched, int k, int last,
                       uint64_t now) {
  const latch *l = &lt[k];
  int wb = l->look;
  const gpurf_pipeline_inst *b = &l->look_in;
  if (wb < 0 || b->n_src == 0) return;
  const latch *lp = &lt[last];
  int need = b->collector_units;
  if (lp->pick >= 0 && lp->pick_in.collector_class == b->collector_class)
    need += lp->pick_in.collector_units;
  if (gpurf_pipeline_collectors_free(p, b->collector_class) < need) return;
  if (st->write && hazard(st, p, wb, b, 0)) return;
  uint64_t mine, other = 0, taken = 0;
  if (!banks_of(st, wb, b, &mine)) return; /* two of its reads share a bank */
  for (int j = 0; j < n_sched; j++) {
    uint64_t m;
    if (j != k && lt[j].cycle == now + 1 && lt[j].look >= 0)
      banks_of(st, lt[j].look, &lt[j].look_in, &m), other |= m;
  }
  if (!(mine & other)) return; /* no conflict to remove */
  if (lp->pick >= 0) banks_of(st, lp->pick, &lp->pick_in, &taken);
  for (int x = 0; x < st->banks; x++) {
    gpurf_pipeline_bank_state bs;
    if (!(mine >> x & 1) || gpurf_pipeline_bank_get(p, x, &bs) != GPURF_OK) continue;
    if (bs.reads + bs.writes > 0 || bs.free_at > now + 1 || (taken >> x & 1)) return;
  }
  if (gpurf_pipeline_issue_extra(p, wb) != GPURF_OK) return;
  st->stolen_at[wb] = now + 1;
  st->override_at[k] = now + 2;
  st->c[C_READ_AHEADS]++;
  st->c[C_STOLEN_READS] += (uint64_t)b->n_src;
}

static int select_warp(void *state, gpurf_pipeline *p, const gpurf_pipeline_select *s) {
  steal *st = state;
  int k = s->scheduler, n_sched = gpurf_pipeline_get_params(p)->schedulers;
  if (k < 0 || k >= GPURF_PIPELINE_MAX_SCHEDULERS) return s->candidate;
  if (st->seen > s->cycle + 1) { /* the pipeline was reset: cycles start again */
    memset(st->override_at, 0, sizeof st->override_at);
    memset(st->stolen_at, 0, sizeof st->stolen_at);
    memset(st->latch, 0, sizeof st->latch);
    for (int b = 0; b < st->banks; b++) st->e[b].since = 0;
    st->maint_cycle = 0;
  }
  st->seen = s->cycle + 1;
  if (st->write && st->maint_cycle != s->cycle + 1) {
    st->maint_cycle = s->cycle + 1;
    upkeep(st, p, s->cycle);
  }
  latch *l = &st->latch[k];
  l->cycle = s->cycle + 1;
  l->pick = l->look = -1;
  int pick = -1;
  if (st->override_at[k] != s->cycle + 1) { /* else the warp read ahead takes this slot */
    pick = s->candidate;
    if (pick >= 0 && gpurf_pipeline_next_inst(p, pick, &l->pick_in) == GPURF_OK) {
      l->pick = pick;
      if (st->write) hazard(st, p, pick, &l->pick_in, 1);
    }
    if (s->lookahead >= 0 && s->lookahead != pick &&
        gpurf_pipeline_next_inst(p, s->lookahead, &l->look_in) == GPURF_OK)
      l->look = s->lookahead;
  }
  /* The last scheduler of the cycle sees every latch: the read-aheads. */
  if (st->read && k == n_sched - 1)
    for (int j = 0; j < n_sched; j++)
      if (st->latch[j].cycle == s->cycle + 1) read_ahead(st, p, st->latch, n_sched, j, k, s->cycle);
  return pick;
}

/* The class of a request (-1: a read that must wait for its value to come
 * home) and what granting it means for the status tables. */
static int req_class(steal *st, uint64_t now, int bank, const gpurf_pipeline_req *q, entry **mv) {
  *mv = NULL;
  entry *e = st->write ? find(st, q->warp, q->reg) : NULL;
  if (q->is_write) {
    if (e && e->state == MOVING && e->home == bank) {
      *mv = e;
      return GPURF_ARBITER_FORCED_WRITE;
    }
    return GPURF_ARBITER_NORMAL_WRITE;
  }
  /* A read queued before the value was stolen wants the older value (a
   * write-after-read): that one is at home. */
  if (e && q->age >= e->since) return -1;
  if (st->read && q->age + 1 == now && st->stolen_at[q->warp] == now)
    return GPURF_ARBITER_STEALING_READ;
  return GPURF_ARBITER_NORMAL_READ;
}

static int arbitrate(void *state, gpurf_pipeline *p, int bank, const gpurf_pipeline_req *reqs,
                     int n) {
  steal *st = state;
  uint64_t now = gpurf_pipeline_cycle(p);
  int best = -1, best_rank = 0;
  entry *best_mv = NULL;
  for (int i = 0; i < n; i++) {
    entry *mv;
    int cls = req_class(st, now, bank, &reqs[i], &mv);
    if (cls < 0) continue;
    int r = st->rank[cls];
    if (best < 0 || r < best_rank || (r == best_rank && reqs[i].age < reqs[best].age)) {
      best = i, best_rank = r, best_mv = mv;
    }
  }
  if (best >= 0 && reqs[best].is_write) {
    if (best_mv) {
      best_mv->state = 0;
      best_mv->forced = 0;
      st->n_valid--;
      st->c[C_MOVES_HOME]++;
    } else {
      st->c[C_WRITES_NORMAL]++;
    }
  }
  return best;
}

static gpurf_pipeline_wb writeback(void *state, gpurf_pipeline *p, int warp, int reg) {
  steal *st = state;
  if (!st->write) return GPURF_PIPELINE_WB_BANK;
  uint64_t now = gpurf_pipeline_cycle(p);
  entry *e = find(st, warp, reg);
  /* The same result again (the result bus was held by a full queue). */
  if (e)
    return e->state == HELD && e->since == now ? GPURF_PIPELINE_WB_DEFER : GPURF_PIPELINE_WB_BANK;
  int h = home(st, warp, reg);
  gpurf_pipeline_bank_state hs;
  if (gpurf_pipeline_bank_get(p, h, &hs) != GPURF_OK || (hs.reads == 0 && hs.free_at <= now))
    return GPURF_PIPELINE_WB_BANK;
  uint32_t g;
  if (gpurf_pipeline_warp_id(p, warp, &g) != GPURF_OK) return GPURF_PIPELINE_WB_BANK;
  for (int k = 1; k <= st->banks; k++) {
    int x = (st->rr + k) % st->banks;
    gpurf_pipeline_bank_state xs;
    if (x == h || st->e[x].state || gpurf_pipeline_bank_get(p, x, &xs) != GPURF_OK ||
        xs.reads + xs.writes > 0 || xs.free_at > now)
      continue;
    if (gpurf_pipeline_bank_access(p, x, 1) != GPURF_OK) continue;
    st->e[x] = (entry){HELD, 0, warp, reg, h, g, now};
    st->n_valid++;
    st->rr = x;
    st->c[C_WRITES_STOLEN]++;
    return GPURF_PIPELINE_WB_DEFER;
  }
  return GPURF_PIPELINE_WB_BANK;
}

/* The arbiter's class order for the mode: 5 classes with both, 3 with
 * read stealing alone, 4 with write stealing alone. */
static void set_ranks(steal *st) {
  gpurf_arbiter_class order[GPURF_ARBITER_MAX_CLASSES];
  int k = st->read && st->write ? 5 : st->read ? 3 : 4;
  gpurf_arbiter_classes(k, order);
  for (int c = 0; c < GPURF_ARBITER_CLASS_COUNT; c++) st->rank[c] = GPURF_ARBITER_CLASS_COUNT;
  for (int i = 0; i < k; i++) st->rank[order[i]] = i;
}

static int create(gpurf_ctx *ctx, void **state) {
  steal *st = calloc(1, sizeof *st);
  if (!st) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  st->read = st->write = 1;
  set_ranks(st);
  *state = st;
  return GPURF_OK;
}

/* mode: "both" (default), "read" or "write". */
static int set(gpurf_ctx *ctx, void *state, const char *key, const char *value) {
  steal *st = state;
  if (strcmp(key, "mode") != 0)
    return gpurf_fail_at(ctx, GPURF_ENOTFOUND, NULL, 0, 0, key,
                         "technique stealing has no option '%s' (mode)", key);
  int read = !strcmp(value, "both") || !strcmp(value, "read");
  int write = !strcmp(value, "both") || !strcmp(value, "write");
  if (!read && !write)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, key,
                         "stealing mode '%s' is not both, read or write", value);
  st->read = read, st->write = write;
  set_ranks(st);
  return GPURF_OK;
}

/* The writeback hook stays in read mode too (it then writes every result
 * home): options are set after the hooks are taken. */
static void hooks(void *state, gpurf_pipeline_hooks *out) {
  (void)state;
  memset(out, 0, sizeof *out);
  out->name = "stealing";
  out->attach = attach;
  out->select = select_warp;
  out->arbitrate = arbitrate;
  out->writeback = writeback;
}

static void counters(const void *state, gpurf_technique_counters *out) {
  const steal *st = state;
  for (int i = 0; i < C_COUNT; i++)
    gpurf_technique_counter_add(out, counter_names[i], (double)st->c[i]);
}

static void destroy(void *state) { free(state); }

const gpurf_technique_def gpurf_technique_stealing = {
    "stealing",
    "bank stealing (Jing et al.): reads ahead into idle banks, results into free registers of "
    "idle banks, 5-class arbiter; option mode=both|read|write",
    create,
    set,
    hooks,
    counters,
    destroy};
