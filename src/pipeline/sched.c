/* Warp schedulers: LRR, GTO and two-level, with the scoreboard, the
 * instruction buffer and collector allocation that decide readiness. */
#include <string.h>

#include "pipeline/pipe_internal.h"

static void list_remove(int *list, int *n, int slot) {
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
  s->dirty = 1;
  if (p->prm.policy == GPURF_PIPELINE_TWO_LEVEL) s->pending[s->n_pending++] = slot;
}

void pipe_sched_remove(gpurf_pipeline *p, int slot) {
  sched *s = &p->s[p->slot_sched[slot]];
  list_remove(s->list, &s->n, slot);
  s->members &= ~((uint64_t)1 << slot);
  s->dirty = 1;
  list_remove(s->active, &s->n_active, slot);
  list_remove(s->pending, &s->n_pending, slot);
  if (s->last == slot) s->last = -1;
}

int pipe_sb_hit(const uint64_t *sb, int reg) { return (int)(sb[reg >> 6] >> (reg & 63) & 1u); }

/* blocked() for a warp whose reason is not known: looks at its next
 * instruction and records what it finds. */
static PIPE_NOINLINE int blocked_eval(gpurf_pipeline *p, warp *w, int *reg) {
  int why = -1;
  const cinst *in = &w->code[w->pc];
  if (w->at_barrier)
    why = GPURF_PIPELINE_STALL_BARRIER;
  else if (w->ib == 0)
    why = w->pc < w->n ? GPURF_PIPELINE_STALL_IBUFFER : GPURF_PIPELINE_STALL_IDLE;
  else if (p->prm.warp_in_flight && w->in_flight >= (uint32_t)p->prm.warp_in_flight)
    *reg = w->why_reg = -1, why = GPURF_PIPELINE_STALL_SCOREBOARD; /* its own last instruction */
  /* The operands are looked at one by one, for the first that waits, only
   * when one may (cinst.regs): most checks pass on one AND. */
  if (why < 0 && (in->regs & (w->sb[0] | w->sb[1] | w->sb[2] | w->sb[3]))) {
    for (int i = 0; why < 0 && i < in->n_src; i++)
      if (pipe_sb_hit(w->sb, in->src[i]))
        *reg = w->why_reg = in->src[i], why = GPURF_PIPELINE_STALL_SCOREBOARD;
    for (int i = 0; why < 0 && i < in->n_dst; i++)
      if (pipe_sb_hit(w->sb, in->dst[i]))
        *reg = w->why_reg = in->dst[i], why = GPURF_PIPELINE_STALL_SCOREBOARD;
  }
  if (why >= 0) {
    pipe_why(p, w, why);
    return why;
  }
  w->why = WHY_SB_PASSED;
  w->next_cu = in->cu, w->next_ncu = in->n_cu;
  sched *s = &p->s[w->si];
  s->passed[in->cu] |= (uint64_t)1 << w->slot;
  if (in->n_cu > 1) s->wide |= (uint64_t)1 << w->slot;
  if (p->cu_free[in->cu] < in->n_cu) return GPURF_PIPELINE_STALL_COLLECTOR;
  return -1;
}

/* -1 when the warp can issue; otherwise the stall reason, and in *reg the
 * register that blocks it on the scoreboard. */
static inline int blocked(gpurf_pipeline *p, warp *w, int *reg) {
  if (w->why == WHY_SB_PASSED)
    return p->cu_free[w->next_cu] < w->next_ncu ? GPURF_PIPELINE_STALL_COLLECTOR : -1;
  if (w->why >= 0) {
    *reg = w->why_reg;
    return w->why;
  }
  return blocked_eval(p, w, reg);
}

static void issue(gpurf_pipeline *p, int slot, int lat_adj) {
  warp *w = &p->w[slot];
  const cinst *in = &w->code[w->pc++];
  p->acted = 1;
  w->ib--;
  pipe_why(p, w, -1);
  if (w->ib < w->n - w->pc) p->want_fetch |= (uint64_t)1 << slot;
  w->in_flight++;
  p->st.issued++;
  p->last_progress = p->cycle;
  int k = in->n_cu, main_cu = -1;
  if (k == 1) {
    /* The common case: the class's lowest idle unit. */
    uint64_t m = p->cu_idle[0] & p->cu_class[in->cu][0];
    main_cu = m ? __builtin_ctzll(m) : 64 + __builtin_ctzll(p->cu_idle[1] & p->cu_class[in->cu][1]);
    p->cu_idle[main_cu >> 6] &= ~((uint64_t)1 << (main_cu & 63));
    p->c[main_cu].n_extra = 0;
    p->c[main_cu].owner = main_cu;
    p->cu_free[in->cu]--;
    k = 0;
  }
  /* The class's idle units, lowest index first. */
  for (int word = 0; word < 2 && k > 0; word++)
    for (uint64_t m = p->cu_idle[word] & p->cu_class[in->cu][word]; m && k > 0; m &= m - 1) {
      int i = word * 64 + __builtin_ctzll(m);
      cu *c = &p->c[i];
      p->cu_idle[word] &= ~((uint64_t)1 << (i & 63));
      if (main_cu < 0) {
        main_cu = i;
        c->n_extra = 0;
      } else {
        p->c[main_cu].extra[p->c[main_cu].n_extra++] = (int16_t)i;
      }
      c->owner = main_cu;
      k--;
      p->cu_free[in->cu]--;
    }
  cu *c = &p->c[main_cu];
  c->warp = slot;
  c->in = in;
  c->unit = in->unit;
  c->lat_adj = lat_adj;
  c->issue = c->ready = p->cycle;
  c->pending = 0;
  c->n_reads = 0;
  if (p->base_map) {
    /* The baseline's map without the call: reg (+ warp) mod banks. */
    for (int i = 0; i < in->n_src; i++) {
      int bank = pipe_base_bank(p, slot, in->src[i]);
      rreq *r = &pipe_rq(p, bank)[p->rq_n[bank]++];
      p->bank_req |= (uint64_t)1 << bank;
      *r = (rreq){(int16_t)main_cu, in->src[i], (uint8_t)slot, p->cycle};
    }
    c->pending = c->n_reads = in->n_src;
  }
  for (int i = 0; i < in->n_src && !p->base_map; i++) {
    int bank = pipe_map(p, slot, w->gid, in->src[i], 0);
    if (bank == GPURF_PIPELINE_NO_BANK) {
      /* The technique serves it: it arrives as a conflict-free bank read
       * would, read_cycles after the next arbitration. */
      uint64_t at = p->cycle + 1 + (uint64_t)p->prm.read_cycles;
      if (at > c->ready) c->ready = at;
      continue;
    }
    rreq *r = &pipe_rq(p, bank)[p->rq_n[bank]++];
    p->bank_req |= (uint64_t)1 << bank;
    r->cu = (int16_t)main_cu;
    r->reg = in->src[i];
    r->warp = (uint8_t)slot;
    r->age = p->cycle;
    c->pending++;
    c->n_reads++;
  }
  if (c->pending == 0) {
    p->cu_main[main_cu >> 6] |= (uint64_t)1 << (main_cu & 63);
    if (c->ready < p->disp_at) p->disp_at = c->ready;
  }
  for (int i = 0; i < in->n_dst; i++) {
    int r = in->dst[i];
    w->sb[r >> 6] |= (uint64_t)1 << (r & 63);
    if (in->flags & CI_LONG) w->sb_long[r >> 6] |= (uint64_t)1 << (r & 63);
  }
  if (p->hk.issue)
    p->hk.issue(p->hk.state, p, slot, w->cta, (uint32_t)(in - p->buf[w->cta].code));
  if (in->flags & CI_BARRIER) {
    cta_state *cs = &p->cta[w->cta];
    w->at_barrier = 1;
    if (++cs->arrived >= cs->live_warps) {
      for (int s = 0; s < GPURF_PIPELINE_MAX_WARPS; s++)
        if (p->w[s].live && p->w[s].cta == w->cta)
          p->w[s].at_barrier = 0, pipe_why(p, &p->w[s], -1);
      cs->arrived = 0;
    }
  }
}

/* Two-level: demote active warps stuck on long-latency results or at a
 * barrier, then fill the active set from the pending warps. */
static void two_level_update(gpurf_pipeline *p, sched *s) {
  for (int i = 0; i < s->n_active;) {
    int slot = s->active[i], reg = -1;
    warp *w = &p->w[slot];
    int b = blocked(p, w, &reg);
    /* A warp at a barrier always leaves: an active set full of waiting
     * warps would keep out the ones they wait for. */
    int leave = b == GPURF_PIPELINE_STALL_BARRIER;
    if (leave && p->hk.demote != gpurf_pipeline_baseline_hooks()->demote)
      p->hk.demote(p->hk.state, p, slot, -1, 0); /* a notice: it leaves anyway */
    if (leave || (b == GPURF_PIPELINE_STALL_SCOREBOARD && reg >= 0 &&
                  p->hk.demote(p->hk.state, p, slot, reg, pipe_sb_hit(w->sb_long, reg)))) {
      list_remove(s->active, &s->n_active, slot);
      s->pending[s->n_pending++] = slot;
      p->acted = 1;
      continue;
    }
    i++;
  }
  while (s->n_active < p->prm.active_warps && s->n_pending > 0) {
    int k = p->hk.promote(p->hk.state, p, (int)(s - p->s), s->pending, s->n_pending);
    if (k < 0 || k >= s->n_pending) k = 0;
    int slot = s->pending[k];
    list_remove(s->pending, &s->n_pending, slot);
    s->active[s->n_active++] = slot;
    p->acted = 1;
  }
}

/* The warps of `open` (scheduler s's, reason not held) that can issue now,
 * the reasons of the others added to *why. Warps whose reason is not known
 * yet get their look first; then the ones past the scoreboard are ready
 * when their class has a free unit (the wide ones: enough free units). */
static inline uint64_t ready_scan(gpurf_pipeline *p, const sched *s, uint64_t open, int *why) {
  int reg;
  uint64_t passed = s->passed[0] | s->passed[1] | s->passed[2];
  for (uint64_t m = open & ~passed; m; m &= m - 1) {
    int b = blocked_eval(p, &p->w[__builtin_ctzll(m)], &reg);
    if (b >= 0) *why |= 1 << b;
  }
  passed = s->passed[0] | s->passed[1] | s->passed[2];
  uint64_t ready = 0;
  for (int k = 0; k < GPURF_PIPELINE_CU_COUNT; k++)
    if (p->cu_free[k] > 0) ready |= s->passed[k];
  for (uint64_t m = ready & s->wide; m; m &= m - 1) {
    const warp *w = &p->w[__builtin_ctzll(m)];
    if (p->cu_free[w->next_cu] < w->next_ncu) ready &= ~((uint64_t)1 << w->slot);
  }
  if (open & passed & ~ready) *why |= 1 << GPURF_PIPELINE_STALL_COLLECTOR;
  return open & ready;
}

/* The first stall reason of the set `why` (IDLE when none). */
static inline int first_reason(int why) {
  for (int r = 0; r < GPURF_PIPELINE_STALL_IDLE; r++)
    if (why >> r & 1) return r;
  return GPURF_PIPELINE_STALL_IDLE;
}

/* schedule() for the default case, GTO with the baseline's select: the
 * greedy warp when it can issue, else the oldest ready one (no look-ahead:
 * no hook reads it). */
static void schedule_gto(gpurf_pipeline *p, sched *s) {
  if (!s->dirty && s->stall_kept >= 0 && s->cu_seen[0] == p->cu_free[0] &&
      s->cu_seen[1] == p->cu_free[1] && s->cu_seen[2] == p->cu_free[2]) {
    p->st.stalls[s->stall_kept]++; /* nothing it looks at has changed */
    return;
  }
  int first = s->last, why = 0, reg;
  uint64_t open = s->members & ~s->closed;
  if (first >= 0) {
    warp *w = &p->w[first];
    if (w->live) {
      int b = blocked(p, w, &reg);
      if (b < 0) {
        issue(p, first, 0);
        return;
      }
      why |= 1 << b;
    }
    open &= ~((uint64_t)1 << first);
  }
  int cand = -1;
  uint64_t kc = 0;
  for (open = ready_scan(p, s, open, &why); open; open &= open - 1) {
    int slot = __builtin_ctzll(open);
    if (cand < 0 || p->w[slot].age < kc) cand = slot, kc = p->w[slot].age;
  }
  if (cand >= 0) {
    issue(p, cand, 0);
    s->last = cand;
    return;
  }
  /* The scan's own records (warps evaluated) are what it would find again. */
  s->stall_kept = first_reason(why | s->held_mask);
  s->dirty = 0;
  memcpy(s->cu_seen, p->cu_free, sizeof s->cu_seen);
  p->st.stalls[s->stall_kept]++;
}

static void schedule(gpurf_pipeline *p, int si) {
  sched *s = &p->s[si];
  const int *order = s->list;
  int n = s->n, start = 0, first = -1;
  /* Outside two-level every warp of the scheduler is eligible, so the
   * reasons of the warps skipped are the held counts. */
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
    int b = blocked(p, &p->w[first], &reg);
    if (b < 0)
      cand = first;
    else
      why |= 1 << b;
  }
  /* The baseline issues the greedy warp whenever it can, whatever the
   * others wait for: they need no look (what they wait for is only ever
   * recorded, never acted on, in a cycle with an issue). */
  if (cand >= 0 && fast && p->base_select) {
    issue(p, cand, 0);
    return;
  }
  if (fast) {
    /* Only warps whose reason is not held need a look; the policy's order
     * is by age (GTO), or by age after the warp issued last (LRR). */
    int rr = p->prm.policy == GPURF_PIPELINE_LRR && s->last >= 0;
    uint64_t after = rr ? p->w[s->last].age : 0;
    uint64_t open = s->members & ~s->closed, kc = 0, kl = 0;
    if (first >= 0) open &= ~((uint64_t)1 << first);
    for (open = ready_scan(p, s, open, &why); open; open &= open - 1) {
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
      int b = blocked(p, &p->w[slot], &reg);
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
      issue(p, cand, 0);
      s->last = cand;
      return;
    }
  } else {
    gpurf_pipeline_select sel = {si, cand, look, p->cycle};
    int pick = p->hk.select(p->hk.state, p, &sel);
    if (pick >= 0 && pick < GPURF_PIPELINE_MAX_WARPS && p->w[pick].live &&
        pick % p->prm.schedulers == si && blocked(p, &p->w[pick], &reg) < 0) {
      issue(p, pick, 0);
      s->last = pick;
      return;
    }
  }
  if (fast) why |= s->held_mask;
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

int gpurf_pipeline_can_issue(gpurf_pipeline *p, int wslot) {
  int reg;
  if (!p || wslot < 0 || wslot >= GPURF_PIPELINE_MAX_WARPS || !p->w[wslot].live) return 0;
  return blocked(p, &p->w[wslot], &reg) < 0;
}

/* With a gate() hook: up to issue_width passes, each scanning the warps
 * in the policy's order (GTO: the last issued first, then by age; LRR: by
 * age after the last issued) until the hook lets one issue or replay. */
static void schedule_hooked(gpurf_pipeline *p, int si) {
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
    for (int j = -1; j < n && got < 0; j++) {
      int slot = j < 0 ? first : order[(start + j) % n];
      if (slot < 0 || (j >= 0 && slot == first) || (tried >> slot & 1u)) continue;
      warp *w = &p->w[slot];
      if (!w->live) continue;
      if (w->hold_until > p->cycle) {
        why |= 1 << GPURF_PIPELINE_STALL_HOOK;
        continue;
      }
      int b = blocked(p, w, &reg);
      if (b >= 0) {
        why |= 1 << b;
        continue;
      }
      const cinst *in = &w->code[w->pc];
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
        issue(p, slot, v.latency_adjust);
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

void pipe_issue(gpurf_pipeline *p) {
  if (p->hk.gate) {
    for (int si = 0; si < p->prm.schedulers; si++) schedule_hooked(p, si);
    return;
  }
  if (p->base_select && p->prm.policy == GPURF_PIPELINE_GTO) {
    for (int si = 0; si < p->prm.schedulers; si++) schedule_gto(p, &p->s[si]);
    return;
  }
  for (int si = 0; si < p->prm.schedulers; si++) schedule(p, si);
}

int gpurf_pipeline_issue_extra(gpurf_pipeline *p, int slot) {
  if (!p || slot < 0 || slot >= GPURF_PIPELINE_MAX_WARPS || !p->w[slot].live)
    return GPURF_EINVAL;
  int reg;
  if (blocked(p, &p->w[slot], &reg) >= 0) return GPURF_ERANGE;
  issue(p, slot, 0);
  return GPURF_OK;
}
