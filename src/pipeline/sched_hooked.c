/* The schedulers with a technique's hooks: a select() that picks among the
 * policy's candidates, two-level with the technique's demote() and
 * promote(), and gate(), which may let a warp issue, replay or wait. */
#include "pipeline/sched_internal.h"

/* Two-level: demote active warps stuck on long-latency results or at a
 * barrier, then fill the active set from the pending warps. */
static void two_level_update(gpurf_pipeline *p, sched *s) {
  for (int i = 0; i < s->n_active;) {
    int slot = s->active[i], reg = -1;
    warp *w = &p->w[slot];
    int b = pipe_blocked(p, w, &reg);
    /* A warp at a barrier always leaves: an active set full of waiting
     * warps would keep out the ones they wait for. */
    int leave = b == GPURF_PIPELINE_STALL_BARRIER;
    if (leave && p->hk.demote != gpurf_pipeline_baseline_hooks()->demote)
      p->hk.demote(p->hk.state, p, slot, -1, 0); /* a notice: it leaves anyway */
    if (leave || (b == GPURF_PIPELINE_STALL_SCOREBOARD && reg >= 0 &&
                  p->hk.demote(p->hk.state, p, slot, reg, pipe_sb_hit(w->sb_long, reg)))) {
      pipe_list_remove(s->active, &s->n_active, slot);
      s->active_mask &= ~((uint64_t)1 << slot);
      pipe_pending_push(s, slot);
      p->acted = 1;
      continue;
    }
    i++;
  }
  while (s->n_active < p->prm.active_warps && s->n_pending > 0) {
    int k = p->hk.promote(p->hk.state, p, (int)(s - p->s), pipe_pending(s), s->n_pending);
    if (k < 0 || k >= s->n_pending) k = 0;
    int slot = pipe_pending(s)[k];
    pipe_list_remove(pipe_pending(s), &s->n_pending, slot);
    s->active[s->n_active++] = slot;
    s->active_mask |= (uint64_t)1 << slot;
    p->acted = 1;
  }
}

/* The warps of `open` (scheduler s's, reason not held) that can issue now,
 * the reasons of the others added to *why. Warps whose reason is not known
 * yet get their look first; then the ones past the scoreboard are ready
 * when their class has a free unit (the wide ones: enough free units). */
static inline uint64_t ready_scan(gpurf_pipeline *p, uint64_t open, int *why) {
  const warp_sets *s = &p->ws;
  int reg;
  uint64_t passed = s->passed[0] | s->passed[1] | s->passed[2];
  for (uint64_t m = open & ~passed; m; m &= m - 1) {
    int b = pipe_blocked_eval(p, &p->w[__builtin_ctzll(m)], &reg);
    if (b >= 0) *why |= 1 << b;
  }
  passed = s->passed[0] | s->passed[1] | s->passed[2];
  uint64_t ready = pipe_collector_ready(p);
  if (open & passed & ~ready) *why |= 1 << GPURF_PIPELINE_STALL_COLLECTOR;
  return open & ready;
}

/* schedule() with a technique's select, or two-level with its demote or
 * promote: the policy's candidate and look-ahead, then the hook's pick. */
void pipe_schedule_generic(gpurf_pipeline *p, int si) {
  sched *s = &p->s[si];
  const int *order = s->list;
  int n = s->n, start = 0, first = -1;
  /* Outside two-level every warp of the scheduler is eligible, so the
   * reasons of the warps skipped are the held sets. */
  int fast = p->prm.policy != GPURF_PIPELINE_TWO_LEVEL;
  if (!fast) {
    two_level_update(p, s);
    order = s->active, n = s->n_active;
  }
  if (p->prm.policy != GPURF_PIPELINE_GTO && s->last >= 0) {
    /* Round robin: start after the warp issued last (the fast scan orders
     * by age instead). */
    for (int i = 0; i < n && !fast; i++)
      if (order[i] == s->last) start = i + 1;
  } else if (s->last >= 0) {
    first = s->last; /* greedy: the same warp while it can issue */
  }
  int cand = -1, look = -1, why = 0, reg;
  if (first >= 0 && p->w[first].live) {
    int b = pipe_blocked(p, &p->w[first], &reg);
    if (b < 0)
      cand = first;
    else
      why |= 1 << b;
  }
  /* The baseline issues the greedy warp whenever it can, whatever the
   * others wait for: they need no look (what they wait for is only ever
   * recorded, never acted on, in a cycle with an issue). */
  if (cand >= 0 && fast && p->base_select) {
    pipe_issue_warp(p, cand, 0);
    return;
  }
  if (fast) {
    /* Only warps whose reason is not held need a look; the policy's order
     * is by age (GTO), or by age after the warp issued last (LRR). */
    int rr = p->prm.policy == GPURF_PIPELINE_LRR && s->last >= 0;
    uint64_t after = rr ? p->w[s->last].age : 0;
    uint64_t open = s->members & ~p->ws.closed, kc = 0, kl = 0;
    if (first >= 0) open &= ~((uint64_t)1 << first);
    for (open = ready_scan(p, open, &why); open; open &= open - 1) {
      int slot = __builtin_ctzll(open);
      const warp *w = &p->w[slot];
      uint64_t key = rr && w->age <= after ? w->age + ((uint64_t)1 << 62) : w->age;
      if (cand < 0 || key < kc) {
        look = cand, kl = kc;
        cand = slot, kc = key;
      } else if (look < 0 || key < kl) {
        look = slot, kl = key;
      }
    }
  } else {
    if (start >= n) start = 0;
    for (int j = 0, k = start; j < n && look < 0; j++, k = k + 1 == n ? 0 : k + 1) {
      int slot = order[k];
      if (slot == first) continue;
      int b = pipe_blocked(p, &p->w[slot], &reg);
      if (b >= 0) {
        why |= 1 << b;
      } else if (cand < 0) {
        cand = slot;
      } else {
        look = slot;
      }
    }
  }
  if (p->base_select) {
    /* The baseline issues cand, found able to issue in this very scan. */
    if (cand >= 0) {
      pipe_issue_warp(p, cand, 0);
      s->last = cand;
      return;
    }
  } else {
    gpurf_pipeline_select sel = {si, cand, look, p->cycle};
    int pick = p->hk.select(p->hk.state, p, &sel);
    if (pick >= 0 && pick < GPURF_PIPELINE_MAX_WARPS && p->w[pick].live &&
        pick % p->prm.schedulers == si && pipe_blocked(p, &p->w[pick], &reg) < 0) {
      pipe_issue_warp(p, pick, 0);
      s->last = pick;
      return;
    }
  }
  if (fast) why |= pipe_held_reasons(&p->ws, s->members);
  int reason = GPURF_PIPELINE_STALL_IDLE;
  if (cand >= 0)
    reason = GPURF_PIPELINE_STALL_HOOK;
  else
    for (int r = 0; r < GPURF_PIPELINE_STALL_IDLE; r++)
      if (why >> r & 1) {
        reason = r;
        break;
      }
  p->st.stalls[reason]++;
}

/* With a gate() hook: up to issue_width passes, each scanning the warps
 * in the policy's order (GTO: the last issued first, then by age; LRR: by
 * age after the last issued) until the hook lets one issue or replay. */
void pipe_schedule_hooked(gpurf_pipeline *p, int si) {
  sched *s = &p->s[si];
  const int *order = s->list;
  int n = s->n;
  if (p->prm.policy == GPURF_PIPELINE_TWO_LEVEL) {
    two_level_update(p, s);
    order = s->active, n = s->n_active;
  }
  uint64_t tried = 0;
  int why = 0, any = 0, reg;
  for (int pass = 0; pass < p->prm.issue_width; pass++) {
    int start = 0, first = p->prm.policy == GPURF_PIPELINE_GTO ? s->last : -1, got = -1;
    if (p->prm.policy != GPURF_PIPELINE_GTO && s->last >= 0)
      for (int i = 0; i < n; i++)
        if (order[i] == s->last) start = i + 1;
    /* k walks the order from start, wrapping (no division per warp). */
    for (int j = -1, k = start < n ? start : 0; j < n && got < 0; j++) {
      int slot = first;
      if (j >= 0) {
        slot = order[k];
        k = k + 1 == n ? 0 : k + 1;
      }
      if (slot < 0 || (j >= 0 && slot == first) || (tried >> slot & 1u)) continue;
      warp *w = &p->w[slot];
      if (!w->live) continue;
      if (w->hold_until > p->cycle) {
        why |= 1 << GPURF_PIPELINE_STALL_HOOK;
        continue;
      }
      int b = pipe_blocked(p, w, &reg);
      if (b >= 0) {
        why |= 1 << b;
        continue;
      }
      const cinst *in = w->code[w->pc];
      gpurf_pipeline_gate_inst v = {w->tag ? w->tag[w->pc] : 0, in->unit, in->n_src, in->n_dst,
                               in->src, in->dst, 0};
      int r = p->hk.gate(p->hk.state, p, slot, w->gid, &v, pass);
      if (r == GPURF_PIPELINE_ISSUE_SKIP) {
        why |= 1 << GPURF_PIPELINE_STALL_HOOK;
        continue;
      }
      tried |= (uint64_t)1 << slot;
      got = slot;
      if (r > 0) {
        w->hold_until = p->cycle + (uint64_t)r;
        p->last_progress = p->cycle;
      } else {
        pipe_issue_warp(p, slot, v.latency_adjust);
      }
    }
    if (got < 0) continue;
    s->last = got;
    any = 1;
  }
  if (any) return;
  int reason = GPURF_PIPELINE_STALL_IDLE;
  for (int r = 0; r < GPURF_PIPELINE_STALL_IDLE; r++)
    if (why >> r & 1) {
      reason = r;
      break;
    }
  if (reason == GPURF_PIPELINE_STALL_IDLE && (why >> GPURF_PIPELINE_STALL_HOOK & 1))
    reason = GPURF_PIPELINE_STALL_HOOK;
  p->st.stalls[reason]++;
}

