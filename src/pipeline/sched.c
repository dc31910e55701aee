/* Warp schedulers with the baseline's hooks: GTO, LRR and two-level, each
 * picking from bitmasks of the warps that can issue (sched_internal.h has
 * how a warp's verdict is kept); the hooked ones are in sched_hooked.c. */
#include <string.h>

#include "pipeline/sched_internal.h"

void pipe_list_remove(int *list, int *n, int slot) {
  for (int i = 0; i < *n; i++)
    if (list[i] == slot) {
      memmove(&list[i], &list[i + 1], (size_t)(*n - i - 1) * sizeof *list);
      (*n)--;
      return;
    }
}

/* Whether the slots of s->list (oldest first) grow. */
static int ages_grow_with_slots(const sched *s) {
  for (int i = 1; i < s->n; i++)
    if (s->list[i] < s->list[i - 1]) return 0;
  return 1;
}

void pipe_sched_add(gpurf_pipeline *p, int slot) {
  sched *s = &p->s[p->slot_sched[slot]];
  s->list[s->n++] = slot; /* ages only grow: the list stays oldest first */
  s->members |= (uint64_t)1 << slot;
  p->ws.members |= (uint64_t)1 << slot;
  s->age_by_slot = ages_grow_with_slots(s);
  if (p->prm.policy == GPURF_PIPELINE_TWO_LEVEL) pipe_pending_push(s, slot);
}

void pipe_sched_remove(gpurf_pipeline *p, int slot) {
  sched *s = &p->s[p->slot_sched[slot]];
  pipe_list_remove(s->list, &s->n, slot);
  s->members &= ~((uint64_t)1 << slot);
  p->ws.members &= ~((uint64_t)1 << slot);
  s->age_by_slot = ages_grow_with_slots(s);
  pipe_list_remove(s->active, &s->n_active, slot);
  s->active_mask &= ~((uint64_t)1 << slot);
  pipe_list_remove(pipe_pending(s), &s->n_pending, slot);
  if (s->last == slot) s->last = -1, s->last_bit = 0;
}

/* The first held stall reason of a scheduler's warps (among), all of whose
 * verdicts are known (IDLE when none): collector shortage comes first when
 * one past the scoreboard waits for a unit (passed, of its warps). */
static inline int stall_reason(const warp_sets *v, uint64_t passed, uint64_t among) {
  if (passed) return GPURF_PIPELINE_STALL_COLLECTOR;
  /* Collector shortage is never held: the reasons after it, in order. */
  _Static_assert(GPURF_PIPELINE_STALL_COLLECTOR == 0 && GPURF_PIPELINE_STALL_SCOREBOARD == 1 &&
                     GPURF_PIPELINE_STALL_BARRIER == 2 && GPURF_PIPELINE_STALL_IBUFFER == 3 &&
                     GPURF_PIPELINE_STALL_IDLE == 4,
                 "the stall reasons' order");
  if (v->held_by[1] & among) return 1;
  if (v->held_by[2] & among) return 2;
  return v->held_by[3] & among ? 3 : GPURF_PIPELINE_STALL_IDLE;
}

/* Judges every warp whose verdict is not known, of all schedulers; returns
 * the warps past the scoreboard. */
static inline uint64_t judge_unknown(gpurf_pipeline *p) {
  const warp_sets *v = &p->ws;
  uint64_t passed = v->passed[0] | v->passed[1] | v->passed[2];
  const uint64_t unknown = v->members & ~(v->closed | passed);
  if (unknown) {
    pipe_judge_set(p, unknown);
    passed = v->passed[0] | v->passed[1] | v->passed[2];
  }
  return passed;
}

/* Issues the warp the scheduler picked: on the baseline's path (base, a
 * constant where it is inlined) or through the general issue. Returns the
 * collector class it took units of, or -1 when other warps' verdicts may
 * have changed (a barrier; any issue with an issue() hook). */
SCHED_INLINE int issue_picked(gpurf_pipeline *p, int slot, const int base) {
  if (base) return pipe_issue_base(p, slot);
  pipe_issue_warp(p, slot, 0);
  return -1;
}

/* The ready set after an issue took units of class cls, for the next
 * scheduler (whose warps the issue left alone): the class's warps leave it
 * when its last unit went, a wide one when too few are left. */
static inline uint64_t ready_after_take(const gpurf_pipeline *p, uint64_t ready, int cls) {
  const warp_sets *v = &p->ws;
  return pipe_wide_fit(p, ready & ~(v->passed[cls] & pipe_full_mask(p->cu_free[cls])));
}

/* GTO's pick among a scheduler's ready warps: the greedy warp (the one
 * issued last) when it is ready, else the oldest. */
static inline int pick_gto(const gpurf_pipeline *p, sched *s, uint64_t ready) {
  const int last = s->last, greedy = (ready & s->last_bit) != 0;
  int slot = __builtin_ctzll(ready);
  if (!s->age_by_slot) {
    uint64_t kc = p->w[slot].age;
    for (uint64_t m = greedy ? 0 : ready & (ready - 1); m; m &= m - 1) {
      int i = __builtin_ctzll(m);
      if (p->w[i].age < kc) slot = i, kc = p->w[i].age;
    }
  }
  slot = greedy ? last : slot; /* loaded before: a conditional move */
  s->last = slot;
  s->last_bit = (uint64_t)1 << slot;
  return slot;
}

/* LRR's pick: the oldest ready warp younger than the one issued last, else
 * the oldest ready one. */
static inline int pick_lrr(const gpurf_pipeline *p, sched *s, uint64_t ready) {
  if (s->age_by_slot) {
    /* The younger ones are the higher slots. */
    const uint64_t younger = s->last >= 0 ? ready & ~(((uint64_t)2 << s->last) - 1) : 0;
    const int slot = __builtin_ctzll(younger ? younger : ready);
    s->last = slot;
    return slot;
  }
  const int rr = s->last >= 0;
  const uint64_t after = rr ? p->w[s->last].age : 0, behind = (uint64_t)1 << 62;
  int slot = -1;
  uint64_t kc = 0;
  for (uint64_t m = ready; m; m &= m - 1) {
    int i = __builtin_ctzll(m);
    uint64_t key = rr && p->w[i].age <= after ? p->w[i].age + behind : p->w[i].age;
    if (slot < 0 || key < kc) slot = i, kc = key;
  }
  s->last = slot;
  return slot;
}

/* One scheduler's turn in a cycle of GTO or LRR (lrr, a constant) with the
 * baseline's select, given the ready warps and those past the scoreboard
 * of all schedulers: it issues its pick of its own ready warps, or counts
 * the cycle's stall, the first of its warps' reasons. The ready set and
 * the passed warps are brought up to date for the next scheduler. */
SCHED_INLINE void scan_turn(gpurf_pipeline *p, sched *s, uint64_t *ready, uint64_t *passed,
                            const int lrr, const int base) {
  const uint64_t mine = s->members, r = *ready & mine;
  if (r) {
    const int cls = issue_picked(p, lrr ? pick_lrr(p, s, r) : pick_gto(p, s, r), base);
    if (cls >= 0) {
      *ready = ready_after_take(p, *ready, cls);
    } else {
      *passed = judge_unknown(p);
      *ready = pipe_collector_ready(p);
    }
    return;
  }
  p->st.stalls[stall_reason(&p->ws, *passed & mine, mine)]++;
}

/* One cycle of GTO or LRR with the baseline's select, all schedulers at
 * once: the warps without a verdict are judged and the ready set is found
 * once for all of them (a verdict is valid whenever it is found, so judging
 * a warp before its scheduler's turn changes nothing); each scheduler then
 * takes its own warps of it. An issue changes the free collector units,
 * and a barrier it completes releases warps: the next scheduler looks
 * again. Two schedulers (two, a constant: the common SM) take their turns
 * without a loop. */
SCHED_INLINE void cycle_scan(gpurf_pipeline *p, const int lrr, const int base, const int two) {
  uint64_t passed = judge_unknown(p), ready = pipe_collector_ready(p);
  sched *s = p->s;
  if (two) {
    scan_turn(p, s, &ready, &passed, lrr, base);
    scan_turn(p, s + 1, &ready, &passed, lrr, base);
    return;
  }
  for (sched *const end = s + p->prm.schedulers; s != end; s++)
    scan_turn(p, s, &ready, &passed, lrr, base);
}

/* two_level_update() with the baseline's demote and promote: an active
 * warp leaves when its reason is a barrier or a register awaiting a
 * long-latency result. Only warps whose reason is new need that look (the
 * others' verdicts are in stay and leaves), or are past the scoreboard. A
 * warp that leaves while the pending queue has room for it comes straight
 * back at the end of the active list, and leaves again next cycle while
 * its reason holds. */
static inline uint64_t two_level_base(gpurf_pipeline *p, sched *s) {
  warp_sets *const v = &p->ws;
  const uint64_t act = s->active_mask;
  pipe_judge_set(p, act & ~(v->closed | v->passed[0] | v->passed[1] | v->passed[2]));
  for (uint64_t m = act & v->closed & ~v->stay; m; m &= m - 1) {
    const int slot = __builtin_ctzll(m);
    const warp *w = &p->w[slot];
    const uint64_t bit = (uint64_t)1 << slot;
    v->stay |= bit;
    if (w->why == GPURF_PIPELINE_STALL_BARRIER ||
        (w->why == GPURF_PIPELINE_STALL_SCOREBOARD && w->why_reg >= 0 &&
         pipe_sb_hit(w->sb_long, w->why_reg)))
      v->leaves |= bit;
    else
      v->leaves &= ~bit;
  }
  const uint64_t leave = act & v->closed & v->stay & v->leaves;
  int n_active = s->n_active;
  if (leave) {
    /* They join the pending queue in their order in the active list (the
     * queue moved to the array's start first if they might not fit). */
    if (s->pending_at + s->n_pending + n_active > GPURF_PIPELINE_MAX_WARPS) {
      memmove(s->pending, pipe_pending(s), (size_t)s->n_pending * sizeof *s->pending);
      s->pending_at = 0;
    }
    int *back = pipe_pending(s) + s->n_pending, n = 0;
    for (int i = 0; i < n_active; i++) {
      const int slot = s->active[i];
      if (leave >> slot & 1)
        *back++ = slot;
      else
        s->active[n++] = slot;
    }
    s->n_pending += n_active - n;
    n_active = n;
    s->active_mask &= ~leave;
    p->acted = 1;
  }
  /* The pending queue's head enters while there is room. */
  const int room = p->prm.active_warps - n_active;
  const int k = room < s->n_pending ? room : s->n_pending;
  uint64_t in = 0;
  if (k > 0) {
    const int *head = pipe_pending(s);
    for (int i = 0; i < k; i++) {
      const int slot = head[i];
      s->active[n_active++] = slot;
      in |= (uint64_t)1 << slot;
    }
    s->active_mask |= in;
    s->n_pending -= k;
    s->pending_at = s->n_pending ? s->pending_at + k : 0;
    p->acted = 1;
  }
  s->n_active = n_active;
  return in;
}

/* schedule() for two-level with the baseline's hooks: round robin over the
 * active list from the warp after the one issued last; when none of the
 * active warps can issue, the first of their reasons. */
SCHED_INLINE void schedule_two_level(gpurf_pipeline *p, sched *s, const int base) {
  /* Every active warp has its verdict but those that entered just now. */
  const warp_sets *const v = &p->ws;
  const uint64_t entered = two_level_base(p, s);
  const uint64_t act = s->active_mask;
  pipe_judge_set(p, entered & ~(v->closed | v->passed[0] | v->passed[1] | v->passed[2]));
  const uint64_t ready = pipe_collector_ready(p) & act;
  if (!ready) {
    const uint64_t passed = act & (v->passed[0] | v->passed[1] | v->passed[2]);
    p->st.stalls[stall_reason(v, passed, act)]++;
    return;
  }
  const int n = s->n_active;
  int start = 0;
  if (s->last >= 0 && (act >> s->last & 1)) {
    if (s->last_at < n && s->active[s->last_at] == s->last) {
      start = s->last_at + 1; /* the list has not moved since */
    } else {
      for (int i = 0; i < n; i++)
        if (s->active[i] == s->last) start = i + 1;
    }
  }
  if (start >= n) start = 0;
  int k = start;
  while (!(ready >> s->active[k] & 1)) k = k + 1 == n ? 0 : k + 1;
  s->last = s->active[k];
  s->last_at = k;
  (void)issue_picked(p, s->last, base);
}

/* A cycle of two-level: each scheduler in turn, with the issue's form
 * (base) fixed. */
SCHED_INLINE void cycle_two(gpurf_pipeline *p, const int base) {
  sched *s = p->s, *const end = s + p->prm.schedulers;
  do
    schedule_two_level(p, s, base);
  while (++s != end);
}

/* The paths of the baseline's select, one function for each policy and
 * issue form, so that the path is chosen once a cycle by one jump. */
static PIPE_NOINLINE void cycle_two_level_base(gpurf_pipeline *p) { cycle_two(p, 1); }
static PIPE_NOINLINE void cycle_two_level(gpurf_pipeline *p) { cycle_two(p, 0); }
/* GTO and LRR: the path for two schedulers, and for any number (each its
 * own function, so that the common one stays small). */
#define CYCLE_SCAN(name, lrr, base)                                                   \
  static PIPE_NOINLINE void name##_any(gpurf_pipeline *p) { cycle_scan(p, lrr, base, 0); } \
  static PIPE_NOINLINE void name##_two(gpurf_pipeline *p) { cycle_scan(p, lrr, base, 1); }
CYCLE_SCAN(cycle_gto_base, 0, 1)
CYCLE_SCAN(cycle_gto, 0, 0)
CYCLE_SCAN(cycle_lrr_base, 1, 1)
CYCLE_SCAN(cycle_lrr, 1, 0)

static void cycle_hooked(gpurf_pipeline *p) {
  for (int si = 0; si < p->prm.schedulers; si++) pipe_schedule_hooked(p, si);
}

static void cycle_generic(gpurf_pipeline *p) {
  for (int si = 0; si < p->prm.schedulers; si++) pipe_schedule_generic(p, si);
}

/* The path of a pipeline's cycles: the hooks and the policy are fixed for
 * its life. A gate() hook takes the hooked schedulers; a technique's select
 * (or two-level's demote or promote) the generic ones; otherwise the
 * policy's own, with the issue's baseline path when reads go through the
 * baseline's map and no issue() hook is told. */
static pipe_issue_fn *issue_path(const gpurf_pipeline *p) {
  const gpurf_pipeline_hooks *b = gpurf_pipeline_baseline_hooks();
  if (p->hk.gate) return cycle_hooked;
  if (!p->base_select) return cycle_generic;
  const int base = p->base_map && !p->hk.issue, two = p->prm.schedulers == 2;
  switch (p->prm.policy) {
  case GPURF_PIPELINE_GTO:
    if (base) return two ? cycle_gto_base_two : cycle_gto_base_any;
    return two ? cycle_gto_two : cycle_gto_any;
  case GPURF_PIPELINE_LRR:
    if (base) return two ? cycle_lrr_base_two : cycle_lrr_base_any;
    return two ? cycle_lrr_two : cycle_lrr_any;
  case GPURF_PIPELINE_TWO_LEVEL:
    if (p->hk.demote != b->demote || p->hk.promote != b->promote) return cycle_generic;
    return base ? cycle_two_level_base : cycle_two_level;
  default:
    return cycle_generic;
  }
}

void pipe_issue(gpurf_pipeline *p) {
  if (!p->issue_fn) p->issue_fn = issue_path(p);
  p->issue_fn(p);
}
