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
  s->active_mask &= ~((uint64_t)1 << slot);
  list_remove(s->pending, &s->n_pending, slot);
  if (s->last == slot) s->last = -1;
}

int pipe_sb_hit(const uint64_t *sb, int reg) { return (int)(sb[reg >> 6] >> (reg & 63) & 1u); }

/* The first operand of the instruction that waits on the scoreboard,
 * sources before destinations, or -1. */
static PIPE_NOINLINE int sb_first(const warp *w, const cinst *in) {
  for (int i = 0; i < in->n_src; i++)
    if (pipe_sb_hit(w->sb, in->src[i])) return in->src[i];
  for (int i = 0; i < in->n_dst; i++)
    if (pipe_sb_hit(w->sb, in->dst[i])) return in->dst[i];
  return -1;
}

/* Looks at the next instruction of a warp whose verdict is not known
 * (why == -1) and records it: a stall reason, held until an event of the
 * warp resets it (pipe_why), or "past the scoreboard", after which only the
 * collectors can hold it back, which is tested at each scan. A verdict is
 * valid whenever it is found, so it may be found early (right after an
 * issue) or late (by the scan). */
static inline void judge(gpurf_pipeline *p, sched *s, warp *w) {
  const cinst *in = &w->code[w->pc];
  const uint64_t bit = (uint64_t)1 << w->slot;
  int why;
  if (w->at_barrier) {
    why = GPURF_PIPELINE_STALL_BARRIER;
  } else if (w->ib == 0) {
    why = w->pc < w->n ? GPURF_PIPELINE_STALL_IBUFFER : GPURF_PIPELINE_STALL_IDLE;
  } else if (p->prm.warp_in_flight && w->in_flight >= (uint32_t)p->prm.warp_in_flight) {
    w->why_reg = -1, why = GPURF_PIPELINE_STALL_SCOREBOARD; /* its own last instruction */
  } else {
    /* The operands are looked at one by one, for the first that waits,
     * only when one may (cinst.regs): most checks pass on one AND. */
    int reg = -1;
    if (in->regs & (w->sb[0] | w->sb[1] | w->sb[2] | w->sb[3])) reg = sb_first(w, in);
    if (reg < 0) {
      const int cls = in->cu, n_cu = in->n_cu; /* before the byte stores */
      w->why = WHY_SB_PASSED;
      w->next_cu = (uint8_t)cls, w->next_ncu = (uint8_t)n_cu;
      s->passed[cls] |= bit;
      if (n_cu > 1) s->wide |= bit;
      return;
    }
    w->why_reg = reg, why = GPURF_PIPELINE_STALL_SCOREBOARD;
  }
  /* pipe_why(p, w, why) from a warp with no verdict. */
  s->dirty = 1;
  s->held[why]++;
  s->held_mask |= 1 << why;
  s->closed |= bit;
  s->stay &= ~bit; /* a new reason: two-level has not seen it yet */
  w->why = why;
}

/* blocked() for a warp whose verdict is not known. */
static PIPE_NOINLINE int blocked_eval(gpurf_pipeline *p, warp *w, int *reg) {
  judge(p, &p->s[w->si], w);
  *reg = w->why_reg;
  if (w->why != WHY_SB_PASSED) return w->why;
  return p->cu_free[w->next_cu] < w->next_ncu ? GPURF_PIPELINE_STALL_COLLECTOR : -1;
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

/* The collector units of an instruction that needs k > 1 of them, the
 * class's idle ones, lowest index first; returns the main one. */
static PIPE_NOINLINE int cu_take_wide(gpurf_pipeline *p, int cls, int k) {
  int main_cu = -1;
  for (int word = 0; word < 2 && k > 0; word++)
    for (uint64_t m = p->cu_idle[word] & p->cu_class[cls][word]; m && k > 0; m &= m - 1) {
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
      p->cu_free[cls]--;
    }
  return main_cu;
}

/* Takes the collector units of the class for an instruction needing k of
 * them; returns the main one. */
static inline int cu_take(gpurf_pipeline *p, int cls, int k) {
  if (k != 1) return cu_take_wide(p, cls, k);
  /* The common case: the class's lowest idle unit. */
  uint64_t m = p->cu_idle[0] & p->cu_class[cls][0];
  int main_cu = m ? __builtin_ctzll(m) : 64 + __builtin_ctzll(p->cu_idle[1] & p->cu_class[cls][1]);
  p->cu_idle[main_cu >> 6] &= ~((uint64_t)1 << (main_cu & 63));
  p->c[main_cu].n_extra = 0;
  p->c[main_cu].owner = main_cu;
  p->cu_free[cls]--;
  return main_cu;
}

/* pipe_why(p, w, -1) apart, for the rare callers in the issue path. */
static PIPE_NOINLINE void why_reset(gpurf_pipeline *p, warp *w) { pipe_why(p, w, -1); }

/* The operand reads of collector main_cu through the map hook; a read the
 * technique serves (no bank) arrives as a conflict-free bank read would,
 * read_cycles after the next arbitration. */
static PIPE_NOINLINE void reads_hooked(gpurf_pipeline *p, const warp *w, const cinst *in,
                                       int main_cu) {
  cu *c = &p->c[main_cu];
  int slot = w->slot;
  for (int i = 0; i < in->n_src; i++) {
    int bank = pipe_map(p, slot, w->gid, in->src[i], 0);
    if (bank == GPURF_PIPELINE_NO_BANK) {
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
}

/* A barrier instruction: the warp waits until every live warp of its CTA
 * has arrived; the last to arrive releases them all. */
static PIPE_NOINLINE void barrier_arrive(gpurf_pipeline *p, warp *w) {
  cta_state *cs = &p->cta[w->cta];
  w->at_barrier = 1;
  if (++cs->arrived >= cs->live_warps) {
    for (int s = 0; s < GPURF_PIPELINE_MAX_WARPS; s++)
      if (p->w[s].live && p->w[s].cta == w->cta) p->w[s].at_barrier = 0, pipe_why(p, &p->w[s], -1);
    cs->arrived = 0;
  }
}

/* Issues the instruction at the warp's pc, which blocked() found ready. */
static PIPE_NOINLINE void issue(gpurf_pipeline *p, int slot, int lat_adj) {
  warp *w = &p->w[slot];
  sched *s = &p->s[w->si];
  const cinst *in = &w->code[w->pc];
  const uint64_t now = p->cycle;
  const uint64_t bit = (uint64_t)1 << slot;
  p->acted = 1;
  if (w->why == WHY_SB_PASSED) {
    /* pipe_why(p, w, -1) for the verdict every issue follows; it was found
     * for this instruction, so its class is the instruction's. */
    s->passed[in->cu] &= ~bit;
    if (in->n_cu > 1) s->wide &= ~bit;
    w->why = -1;
  } else {
    why_reset(p, w); /* a gate() hook acted on the warp before it issued */
  }
  uint32_t pc = ++w->pc, ib = --w->ib;
  if (ib < w->n - pc) p->want_fetch |= bit;
  w->in_flight++;
  p->st.issued++;
  p->last_progress = now;
  const int cls = in->cu, n_src = in->n_src;
  int main_cu = cu_take(p, cls, in->n_cu);
  cu *c = &p->c[main_cu];
  c->warp = slot;
  c->in = in;
  c->unit = in->unit;
  c->lat_adj = lat_adj;
  c->issue = c->ready = now;
  c->pending = 0;
  c->n_reads = 0;
  if (p->base_map) {
    /* The baseline's map without the call: reg (+ warp) mod banks. The
     * parameters in locals: the byte stores below may alias anything. */
    const int add = p->prm.bank_map == GPURF_PIPELINE_MAP_REG ? 0 : slot;
    const int mask = p->bank_mask, banks = p->prm.banks;
    rreq *const rq = p->rq;
    const size_t stride = p->rq_stride;
    uint64_t breq = p->bank_req;
    rreq t = {(int16_t)main_cu, 0, (uint8_t)slot, now};
    for (int i = 0; i < n_src; i++) {
      int x = in->src[i] + add;
      int bank = mask >= 0 ? x & mask : x % banks;
      breq |= (uint64_t)1 << bank;
      t.reg = in->src[i];
      rq[(size_t)bank * stride + (size_t)p->rq_n[bank]++] = t;
    }
    p->bank_req = breq;
    c->pending = c->n_reads = n_src;
  } else {
    reads_hooked(p, w, in, main_cu);
  }
  if (c->pending == 0) {
    p->cu_main[main_cu >> 6] |= (uint64_t)1 << (main_cu & 63);
    if (c->ready < p->disp_at) p->disp_at = c->ready;
  }
  const int flags = in->flags;
  for (int i = 0; i < in->n_dst; i++) {
    int r = in->dst[i];
    uint64_t rb = (uint64_t)1 << (r & 63);
    w->sb[r >> 6] |= rb;
    if (flags & CI_LONG) w->sb_long[r >> 6] |= rb;
  }
  if (p->hk.issue)
    p->hk.issue(p->hk.state, p, slot, w->cta, (uint32_t)(in - p->buf[w->cta].code));
  if (flags & CI_BARRIER) barrier_arrive(p, w);
  /* Its next verdict now, while the warp is in cache: the scan then has
   * nothing to look at for it. */
  if (w->why < 0) judge(p, s, w);
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
      s->active_mask &= ~((uint64_t)1 << slot);
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
    s->active_mask |= (uint64_t)1 << slot;
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
    for (uint64_t m = unknown; m; m &= m - 1) judge(p, s, &p->w[__builtin_ctzll(m)]);
    passed = s->passed[0] | s->passed[1] | s->passed[2];
  }
  if (!passed) {
    p->st.stalls[stall_reason(s, 0)]++;
    return 0;
  }
  uint64_t ready = 0;
  for (int k = 0; k < GPURF_PIPELINE_CU_COUNT; k++)
    if (p->cu_free[k] > 0) ready |= s->passed[k];
  for (uint64_t m = ready & s->wide; m; m &= m - 1) {
    const warp *w = &p->w[__builtin_ctzll(m)];
    if (p->cu_free[w->next_cu] < w->next_ncu) ready &= ~((uint64_t)1 << w->slot);
  }
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
  issue(p, slot, 0);
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
  issue(p, slot, 0);
}

/* two_level_update() with the baseline's demote and promote: an active
 * warp leaves when its reason is a barrier or a register awaiting a
 * long-latency result. Only warps whose reason is new need that look:
 * the others were seen to stay (stay), or are past the scoreboard. */
static inline void two_level_base(gpurf_pipeline *p, sched *s) {
  const uint64_t act = s->active_mask;
  for (uint64_t m = act & ~(s->closed | s->passed[0] | s->passed[1] | s->passed[2]); m; m &= m - 1)
    judge(p, s, &p->w[__builtin_ctzll(m)]);
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
    judge(p, s, &p->w[__builtin_ctzll(m)]); /* promoted just now */
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
  issue(p, s->last, 0);
}

static PIPE_NOINLINE void schedule(gpurf_pipeline *p, int si) {
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
static PIPE_NOINLINE void schedule_hooked(gpurf_pipeline *p, int si) {
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
