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

void pipe_sched_add(gpurf_pipeline *p, int slot) {
  sched *s = &p->s[p->slot_sched[slot]];
  s->list[s->n++] = slot; /* ages only grow: the list stays oldest first */
  s->members |= (uint64_t)1 << slot;
  if (p->prm.policy == GPURF_PIPELINE_TWO_LEVEL) s->pending[s->n_pending++] = slot;
}

void pipe_sched_remove(gpurf_pipeline *p, int slot) {
  sched *s = &p->s[p->slot_sched[slot]];
  pipe_list_remove(s->list, &s->n, slot);
  s->members &= ~((uint64_t)1 << slot);
  pipe_list_remove(s->active, &s->n_active, slot);
  s->active_mask &= ~((uint64_t)1 << slot);
  pipe_list_remove(s->pending, &s->n_pending, slot);
  if (s->last == slot) s->last = -1;
}

/* The first held stall reason of a scheduler whose warps are all known
 * (IDLE when none): collector shortage comes first when a warp past the
 * scoreboard waits for a unit. */
static inline int stall_reason(const sched *s, uint64_t passed) {
  if (passed) return GPURF_PIPELINE_STALL_COLLECTOR;
  int held = s->held_mask & ((1 << GPURF_PIPELINE_STALL_IDLE) - 1);
  return held ? __builtin_ctz((unsigned)held) : GPURF_PIPELINE_STALL_IDLE;
}

/* The warps of scheduler s that can issue now, each judged first if its
 * verdict is not known; when none can, the cycle's stall reason is
 * counted: the first of all its warps' reasons, which the held counts and
 * the passed sets give once every warp has its verdict. */
static inline uint64_t ready_or_stall(gpurf_pipeline *p, sched *s) {
  uint64_t passed = s->passed[0] | s->passed[1] | s->passed[2];
  uint64_t unknown = s->members & ~(s->closed | passed);
  if (unknown) {
    for (uint64_t m = unknown; m; m &= m - 1) pipe_judge(p, s, &p->w[__builtin_ctzll(m)]);
    passed = s->passed[0] | s->passed[1] | s->passed[2];
  }
  if (!passed) {
    p->st.stalls[stall_reason(s, 0)]++;
    return 0;
  }
  uint64_t ready = pipe_collector_ready(p, s);
  if (!ready) p->st.stalls[stall_reason(s, passed)]++;
  return ready;
}

/* schedule() for GTO with the baseline's select: the greedy warp when it
 * can issue, else the oldest ready one (no look-ahead: no hook reads it). */
static inline void schedule_gto(gpurf_pipeline *p, sched *s) {
  uint64_t ready = ready_or_stall(p, s);
  if (!ready) return;
  int slot = s->last;
  if (slot < 0 || !(ready >> slot & 1)) {
    slot = __builtin_ctzll(ready);
    uint64_t kc = p->w[slot].age;
    for (uint64_t m = ready & (ready - 1); m; m &= m - 1) {
      int i = __builtin_ctzll(m);
      if (p->w[i].age < kc) slot = i, kc = p->w[i].age;
    }
    s->last = slot;
  }
  pipe_issue_inl(p, slot, 0);
}

/* schedule() for LRR with the baseline's select: the oldest ready warp
 * younger than the one issued last, else the oldest ready one. */
static inline void schedule_lrr(gpurf_pipeline *p, sched *s) {
  uint64_t ready = ready_or_stall(p, s);
  if (!ready) return;
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
  pipe_issue_inl(p, slot, 0);
}

/* two_level_update() with the baseline's demote and promote: an active
 * warp leaves when its reason is a barrier or a register awaiting a
 * long-latency result. Only warps whose reason is new need that look:
 * the others were seen to stay (stay), or are past the scoreboard. */
static inline void two_level_base(gpurf_pipeline *p, sched *s) {
  const uint64_t act = s->active_mask;
  for (uint64_t m = act & ~(s->closed | s->passed[0] | s->passed[1] | s->passed[2]); m; m &= m - 1)
    pipe_judge(p, s, &p->w[__builtin_ctzll(m)]);
  uint64_t leave = 0;
  for (uint64_t m = act & s->closed & ~s->stay; m; m &= m - 1) {
    const int slot = __builtin_ctzll(m);
    const warp *w = &p->w[slot];
    if (w->why == GPURF_PIPELINE_STALL_BARRIER ||
        (w->why == GPURF_PIPELINE_STALL_SCOREBOARD && w->why_reg >= 0 &&
         pipe_sb_hit(w->sb_long, w->why_reg)))
      leave |= (uint64_t)1 << slot;
    else
      s->stay |= (uint64_t)1 << slot;
  }
  if (leave) {
    /* They join the pending queue in their order in the active list. */
    int n = 0;
    for (int i = 0; i < s->n_active; i++) {
      const int slot = s->active[i];
      if (leave >> slot & 1)
        s->pending[s->n_pending++] = slot;
      else
        s->active[n++] = slot;
    }
    s->n_active = n;
    s->active_mask &= ~leave;
    p->acted = 1;
  }
  /* The pending queue's head enters while there is room. */
  int k = 0;
  while (s->n_active < p->prm.active_warps && k < s->n_pending) {
    const int slot = s->pending[k++];
    s->active[s->n_active++] = slot;
    s->active_mask |= (uint64_t)1 << slot;
  }
  if (k) {
    memmove(s->pending, s->pending + k, (size_t)(s->n_pending - k) * sizeof *s->pending);
    s->n_pending -= k;
    p->acted = 1;
  }
}

/* schedule() for two-level with the baseline's hooks: round robin over the
 * active list from the warp after the one issued last; when none of the
 * active warps can issue, the first of their reasons. */
static inline void schedule_two_level(gpurf_pipeline *p, sched *s) {
  two_level_base(p, s);
  const uint64_t act = s->active_mask;
  for (uint64_t m = act & ~(s->closed | s->passed[0] | s->passed[1] | s->passed[2]); m; m &= m - 1)
    pipe_judge(p, s, &p->w[__builtin_ctzll(m)]); /* promoted just now */
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
    int why = 0;
    for (uint64_t m = act & s->closed; m; m &= m - 1) why |= 1 << p->w[__builtin_ctzll(m)].why;
    why &= (1 << GPURF_PIPELINE_STALL_IDLE) - 1;
    p->st.stalls[passed ? GPURF_PIPELINE_STALL_COLLECTOR
                        : why ? __builtin_ctz((unsigned)why) : GPURF_PIPELINE_STALL_IDLE]++;
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
  pipe_issue_inl(p, s->last, 0);
}

void pipe_issue(gpurf_pipeline *p) {
  if (p->hk.gate) {
    for (int si = 0; si < p->prm.schedulers; si++) pipe_schedule_hooked(p, si);
    return;
  }
  if (p->base_select && p->prm.policy == GPURF_PIPELINE_GTO) {
    for (int si = 0; si < p->prm.schedulers; si++) schedule_gto(p, &p->s[si]);
    return;
  }
  if (p->base_select && p->prm.policy == GPURF_PIPELINE_LRR) {
    for (int si = 0; si < p->prm.schedulers; si++) schedule_lrr(p, &p->s[si]);
    return;
  }
  const gpurf_pipeline_hooks *b = gpurf_pipeline_baseline_hooks();
  if (p->base_select && p->prm.policy == GPURF_PIPELINE_TWO_LEVEL && p->hk.demote == b->demote &&
      p->hk.promote == b->promote) {
    for (int si = 0; si < p->prm.schedulers; si++) schedule_two_level(p, &p->s[si]);
    return;
  }
  for (int si = 0; si < p->prm.schedulers; si++) pipe_schedule_generic(p, si);
}

