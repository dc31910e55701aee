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
  s->age_by_slot = ages_grow_with_slots(s);
  if (p->prm.policy == GPURF_PIPELINE_TWO_LEVEL) pipe_pending_push(s, slot);
}

void pipe_sched_remove(gpurf_pipeline *p, int slot) {
  sched *s = &p->s[p->slot_sched[slot]];
  pipe_list_remove(s->list, &s->n, slot);
  s->members &= ~((uint64_t)1 << slot);
  s->age_by_slot = ages_grow_with_slots(s);
  pipe_list_remove(s->active, &s->n_active, slot);
  s->active_mask &= ~((uint64_t)1 << slot);
  pipe_list_remove(pipe_pending(s), &s->n_pending, slot);
  if (s->last == slot) s->last = -1;
}

/* The first held stall reason of a scheduler's warps in `among`, all of
 * whose verdicts are known (IDLE when none): collector shortage comes
 * first when one past the scoreboard waits for a unit (passed). */
static inline int stall_reason(const sched *s, uint64_t passed, uint64_t among) {
  if (passed) return GPURF_PIPELINE_STALL_COLLECTOR;
  /* Collector shortage is never held: the reasons after it, in order. */
  _Static_assert(GPURF_PIPELINE_STALL_COLLECTOR == 0 && GPURF_PIPELINE_STALL_SCOREBOARD == 1 &&
                     GPURF_PIPELINE_STALL_BARRIER == 2 && GPURF_PIPELINE_STALL_IBUFFER == 3 &&
                     GPURF_PIPELINE_STALL_IDLE == 4,
                 "the stall reasons' order");
  if (s->held_by[1] & among) return 1;
  if (s->held_by[2] & among) return 2;
  return s->held_by[3] & among ? 3 : GPURF_PIPELINE_STALL_IDLE;
}

/* The warps of scheduler s that can issue now, each judged first if its
 * verdict is not known; when none can, the cycle's stall reason is
 * counted: the first of all its warps' reasons, which the held sets and
 * the passed sets give once every warp has its verdict. */
static inline uint64_t ready_or_stall(gpurf_pipeline *p, sched *s) {
  uint64_t passed = s->passed[0] | s->passed[1] | s->passed[2];
  uint64_t unknown = s->members & ~(s->closed | passed);
  if (unknown) {
    for (uint64_t m = unknown; m; m &= m - 1) pipe_judge(p, s, &p->w[__builtin_ctzll(m)]);
    passed = s->passed[0] | s->passed[1] | s->passed[2];
  }
  if (!passed) {
    p->st.stalls[stall_reason(s, 0, ~(uint64_t)0)]++;
    return 0;
  }
  uint64_t ready = pipe_collector_ready(p, s);
  if (!ready) p->st.stalls[GPURF_PIPELINE_STALL_COLLECTOR]++;
  return ready;
}

/* Issues the warp the scheduler picked: on the baseline's path (base, a
 * constant where it is inlined) or through the general issue. */
SCHED_INLINE void issue_picked(gpurf_pipeline *p, sched *s, int slot, const int base) {
  if (base)
    pipe_issue_base(p, s, slot);
  else
    pipe_issue_warp(p, slot, 0);
}

/* schedule() for GTO with the baseline's select: the greedy warp when it
 * can issue, else the oldest ready one (no look-ahead: no hook reads it).
 * The greedy warp is looked at first, alone: when it can issue, the others
 * need no verdict this cycle (a verdict is valid whenever it is found). */
SCHED_INLINE void schedule_gto(gpurf_pipeline *p, sched *s, const int base) {
  if (s->closed == s->members) {
    /* Every warp holds a reason (none past the scoreboard, none to judge):
     * the cycle stalls for the first of them. */
    p->st.stalls[stall_reason(s, 0, ~(uint64_t)0)]++;
    return;
  }
  int slot = s->last;
  if (slot >= 0) {
    const warp *w = &p->w[slot];
    if (w->why == WHY_SB_PASSED && p->cu_free[w->next_cu] >= w->next_ncu) {
      issue_picked(p, s, slot, base);
      return;
    }
  }
  uint64_t ready = ready_or_stall(p, s);
  if (!ready) return;
  if (slot < 0 || !(ready >> slot & 1)) {
    slot = __builtin_ctzll(ready);
    uint64_t kc = p->w[slot].age;
    for (uint64_t m = s->age_by_slot ? 0 : ready & (ready - 1); m; m &= m - 1) {
      int i = __builtin_ctzll(m);
      if (p->w[i].age < kc) slot = i, kc = p->w[i].age;
    }
    s->last = slot;
  }
  issue_picked(p, s, slot, base);
}

/* schedule() for LRR with the baseline's select: the oldest ready warp
 * younger than the one issued last, else the oldest ready one. */
SCHED_INLINE void schedule_lrr(gpurf_pipeline *p, sched *s, const int base) {
  uint64_t ready = ready_or_stall(p, s);
  if (!ready) return;
  if (s->age_by_slot) {
    /* The younger ones are the higher slots. */
    const uint64_t younger = s->last >= 0 ? ready & ~(((uint64_t)2 << s->last) - 1) : 0;
    const int slot = __builtin_ctzll(younger ? younger : ready);
    s->last = slot;
    issue_picked(p, s, slot, base);
    return;
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
  issue_picked(p, s, slot, base);
}

/* two_level_update() with the baseline's demote and promote: an active
 * warp leaves when its reason is a barrier or a register awaiting a
 * long-latency result. Only warps whose reason is new need that look (the
 * others' verdicts are in stay and leaves), or are past the scoreboard. A
 * warp that leaves while the pending queue has room for it comes straight
 * back at the end of the active list, and leaves again next cycle while
 * its reason holds. */
static inline uint64_t two_level_base(gpurf_pipeline *p, sched *s) {
  const uint64_t act = s->active_mask;
  for (uint64_t m = act & ~(s->closed | s->passed[0] | s->passed[1] | s->passed[2]); m; m &= m - 1)
    pipe_judge(p, s, &p->w[__builtin_ctzll(m)]);
  for (uint64_t m = act & s->closed & ~s->stay; m; m &= m - 1) {
    const int slot = __builtin_ctzll(m);
    const warp *w = &p->w[slot];
    const uint64_t bit = (uint64_t)1 << slot;
    s->stay |= bit;
    if (w->why == GPURF_PIPELINE_STALL_BARRIER ||
        (w->why == GPURF_PIPELINE_STALL_SCOREBOARD && w->why_reg >= 0 &&
         pipe_sb_hit(w->sb_long, w->why_reg)))
      s->leaves |= bit;
    else
      s->leaves &= ~bit;
  }
  const uint64_t leave = act & s->closed & s->stay & s->leaves;
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
  const uint64_t entered = two_level_base(p, s);
  const uint64_t act = s->active_mask;
  for (uint64_t m = entered & ~(s->closed | s->passed[0] | s->passed[1] | s->passed[2]); m;
       m &= m - 1)
    pipe_judge(p, s, &p->w[__builtin_ctzll(m)]);
  uint64_t ready = 0;
  for (int k = 0; k < GPURF_PIPELINE_CU_COUNT; k++)
    if (p->cu_free[k] > 0) ready |= s->passed[k];
  ready &= act;
  for (uint64_t m = ready & s->wide; m; m &= m - 1) {
    const warp *w = &p->w[__builtin_ctzll(m)];
    if (p->cu_free[w->next_cu] < w->next_ncu) ready &= ~((uint64_t)1 << w->slot);
  }
  if (!ready) {
    const uint64_t passed = act & (s->passed[0] | s->passed[1] | s->passed[2]);
    p->st.stalls[stall_reason(s, passed, act)]++;
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
  issue_picked(p, s, s->last, base);
}

/* Each scheduler in turn, with the policy's scan and the issue's form
 * (base) fixed: one function for each, so that the path is chosen once a
 * cycle by one jump. */
#define SCHEDULE_ALL(name, schedule, base)                             \
  static PIPE_NOINLINE void name(gpurf_pipeline *p) {                   \
    sched *s = p->s, *const end = s + p->prm.schedulers;                \
    do                                                                  \
      schedule(p, s, base);                                             \
    while (++s != end);                                                 \
  }
SCHEDULE_ALL(cycle_gto_base, schedule_gto, 1)
SCHEDULE_ALL(cycle_gto, schedule_gto, 0)
SCHEDULE_ALL(cycle_lrr_base, schedule_lrr, 1)
SCHEDULE_ALL(cycle_lrr, schedule_lrr, 0)
SCHEDULE_ALL(cycle_two_level_base, schedule_two_level, 1)
SCHEDULE_ALL(cycle_two_level, schedule_two_level, 0)

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
  const int base = p->base_map && !p->hk.issue;
  switch (p->prm.policy) {
  case GPURF_PIPELINE_GTO:
    return base ? cycle_gto_base : cycle_gto;
  case GPURF_PIPELINE_LRR:
    return base ? cycle_lrr_base : cycle_lrr;
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
