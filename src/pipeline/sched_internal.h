/* The scheduler's files (sched.c, sched_hooked.c, issue.c): a warp's
 * verdict on its next instruction, and what the schedulers share. */
#ifndef GPURF_SCHED_INTERNAL_H
#define GPURF_SCHED_INTERNAL_H

#include <stddef.h>
#include <string.h>

#include "pipeline/pipe_internal.h"

/* A function that must be inlined: the issue and the schedulers take
 * arguments that are constants where they are called, and their paths are
 * specialised by them. */
#if defined(__GNUC__)
#define SCHED_INLINE static inline __attribute__((always_inline))
#else
#define SCHED_INLINE static inline
#endif

/* The first operand of the instruction that waits on the scoreboard,
 * sources before destinations, or -1 (inline: a quarter of the verdicts
 * after an issue look for it). */
static inline int pipe_sb_first(const warp *w, const cinst *in) {
  for (int i = 0; i < in->n_src; i++) {
    const int r = in->src[i];
    if (w->sb[r >> 6] >> (r & 63) & 1) return r;
  }
  for (int i = 0; i < in->n_dst; i++) {
    const int r = in->dst[i];
    if (w->sb[r >> 6] >> (r & 63) & 1) return r;
  }
  return -1;
}

/* The register the instruction waits on (pipe_sb_first), or -1. When its
 * registers are all below 64 (CI_LOW_REGS, most instructions), cinst.regs
 * holds them exactly, and with the scoreboard's first word they tell which
 * wait: one of them (most waits) is the first by any order, and only two
 * or more need the operands looked at in order. */
static inline int pipe_sb_wait(const warp *w, const cinst *in) {
  if (__builtin_expect(in->flags & CI_LOW_REGS, 1)) {
    const uint64_t hit = in->regs & w->sb[0];
    if (!(hit & (hit - 1))) return hit ? __builtin_ctzll(hit) : -1;
    return pipe_sb_first(w, in);
  }
  return in->regs & (w->sb[0] | w->sb[1] | w->sb[2] | w->sb[3]) ? pipe_sb_first(w, in) : -1;
}

/* Looks at the next instruction of a warp whose verdict is not known
 * (why == -1) and records it: a stall reason, held until an event of the
 * warp resets it (pipe_why), or "past the scoreboard", after which only the
 * collectors can hold it back, which is tested at each scan. A verdict is
 * valid whenever it is found, so it may be found early (right after an
 * issue) or late (by the scan). bit: the warp's slot as a bit. */
static inline void pipe_judge_bit(gpurf_pipeline *p, warp *w, const uint64_t bit) {
  warp_sets *const s = &p->ws;
  const uint32_t wif = (uint32_t)p->prm.warp_in_flight;
  int why;
  /* The rare reasons before the scoreboard, with one branch for the three
   * (the scan mostly judges warps a write or a fetch has just let go). */
  if (__builtin_expect(w->at_barrier | (w->ib == 0) | ((wif != 0) & (w->in_flight >= wif)), 0)) {
    if (w->at_barrier) {
      why = GPURF_PIPELINE_STALL_BARRIER;
    } else if (w->ib == 0) {
      why = w->pc < w->n ? GPURF_PIPELINE_STALL_IBUFFER : GPURF_PIPELINE_STALL_IDLE;
    } else {
      w->why_reg = -1, why = GPURF_PIPELINE_STALL_SCOREBOARD; /* its own last instruction */
    }
  } else {
    /* The operands are looked at one by one, for the first that waits,
     * only when two or more do (pipe_sb_wait): most checks pass on one
     * AND. (A buffered instruction is there: pc is within the warp's
     * code.) */
    const cinst *in = w->code[w->pc];
    const int reg = pipe_sb_wait(w, in);
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
  s->held_by[why] |= bit;
  s->closed |= bit;
  s->stay &= ~bit; /* a new reason: two-level has not seen it yet */
  w->why = why;
}

/* pipe_judge_bit with the warp's bit found from its slot. */
static inline void pipe_judge(gpurf_pipeline *p, warp *w) {
  pipe_judge_bit(p, w, (uint64_t)1 << w->slot);
}

/* Judges the warps of m (none of which has a verdict), each with its bit
 * from the set: the warp's slot is not read. */
static inline void pipe_judge_set(gpurf_pipeline *p, uint64_t m) {
  for (; m; m &= m - 1) pipe_judge_bit(p, &p->w[__builtin_ctzll(m)], m & (0 - m));
}

/* Two-level's pending queue: n_pending slots from here, so that taking its
 * head moves none of the others. */
static inline int *pipe_pending(sched *s) { return s->pending + s->pending_at; }

/* A warp joins the pending queue at its back (the queue moves to the
 * array's start first when its back is at the array's end). */
static inline void pipe_pending_push(sched *s, int slot) {
  if (s->pending_at + s->n_pending == GPURF_PIPELINE_MAX_WARPS) {
    memmove(s->pending, pipe_pending(s), (size_t)s->n_pending * sizeof *s->pending);
    s->pending_at = 0;
  }
  s->pending[s->pending_at + s->n_pending++] = slot;
}

/* The held reasons of the warps in `among`, as bits by reason. */
static inline int pipe_held_reasons(const warp_sets *s, uint64_t among) {
  int held = 0;
  for (int r = 0; r < GPURF_PIPELINE_STALL_BUILTIN; r++)
    if (s->held_by[r] & among) held |= 1 << r;
  return held;
}

/* pipe_blocked() for a warp whose verdict is not known (issue.c). */
int pipe_blocked_eval(gpurf_pipeline *p, warp *w, int *reg);

/* All ones when a class has no free collector unit (free == 0; it is never
 * negative), else 0: a mask in place of a branch, from the sign of
 * free - 1 (GCC shifts signed values arithmetically). */
static inline uint64_t pipe_full_mask(int free) { return (uint64_t)(((int64_t)free - 1) >> 63); }

/* Of the ready warps, those with a wide instruction (more than one unit)
 * whose class has fewer free units than it takes leave: rare, so looked
 * at apart. */
static inline uint64_t pipe_wide_fit(const gpurf_pipeline *p, uint64_t ready) {
  if (ready & p->ws.wide) {
    for (uint64_t m = ready & p->ws.wide; m; m &= m - 1) {
      const warp *w = &p->w[__builtin_ctzll(m)];
      if (p->cu_free[w->next_cu] < w->next_ncu) ready &= ~((uint64_t)1 << w->slot);
    }
  }
  return ready;
}

/* Of the warps past the scoreboard (all schedulers'), those whose class
 * has a free collector, a wide instruction needing as many as it takes.
 * The classes are taken without a branch on the free counts (they follow
 * the issues of both schedulers, which defeats prediction). */
static inline uint64_t pipe_collector_ready(const gpurf_pipeline *p) {
  _Static_assert(GPURF_PIPELINE_CU_COUNT == 3, "three collector classes");
  const warp_sets *s = &p->ws;
  return pipe_wide_fit(p, (s->passed[0] & ~pipe_full_mask(p->cu_free[0])) |
                              (s->passed[1] & ~pipe_full_mask(p->cu_free[1])) |
                              (s->passed[2] & ~pipe_full_mask(p->cu_free[2])));
}

/* -1 when the warp can issue; otherwise the stall reason, and in *reg the
 * register that blocks it on the scoreboard. */
static inline int pipe_blocked(gpurf_pipeline *p, warp *w, int *reg) {
  if (w->why == WHY_SB_PASSED)
    return p->cu_free[w->next_cu] < w->next_ncu ? GPURF_PIPELINE_STALL_COLLECTOR : -1;
  if (w->why >= 0) {
    *reg = w->why_reg;
    return w->why;
  }
  return pipe_blocked_eval(p, w, reg);
}

/* The rare parts of an issue, out of line (issue.c): the units of a wide
 * instruction, a verdict reset after a gate() hook acted, reads through
 * the map hook, a barrier arrival. */
int pipe_cu_take_wide(gpurf_pipeline *p, int cls, int k);
void pipe_why_reset(gpurf_pipeline *p, warp *w);
void pipe_reads_hooked(gpurf_pipeline *p, const warp *w, const cinst *in, int main_cu);
void pipe_barrier_arrive(gpurf_pipeline *p, warp *w);

/* Takes the collector units of the class for an instruction needing k of
 * them; returns the main one. */
static inline int pipe_cu_take(gpurf_pipeline *p, int cls, int k) {
  if (k != 1) return pipe_cu_take_wide(p, cls, k);
  /* The common case: the class's lowest idle unit (m & -m its bit). */
  int main_cu;
  uint64_t idle = p->cu_idle[0], m = idle & p->cu_class[cls][0];
  if (m) {
    main_cu = __builtin_ctzll(m);
    p->cu_idle[0] = idle ^ (m & (0 - m));
  } else {
    idle = p->cu_idle[1], m = idle & p->cu_class[cls][1];
    main_cu = 64 + __builtin_ctzll(m);
    p->cu_idle[1] = idle ^ (m & (0 - m));
  }
  p->c[main_cu].n_extra = 0;
  p->cu_free[cls]--;
  return main_cu;
}

/* The issue in general (pipe_issue_warp is it out of line, for the hooked
 * schedulers and gpurf_pipeline_issue_extra): the warp's pc and buffer move
 * on, the instruction takes its collector units and queues its operand
 * reads, its destinations go on the scoreboard, and the warp's next
 * instruction is judged at once. pipe_issue_base below is its baseline
 * form. */
SCHED_INLINE void pipe_issue_inl(gpurf_pipeline *p, int slot, int lat_adj) {
  warp *w = &p->w[slot];
  warp_sets *s = &p->ws;
  const cinst *in = w->code[w->pc];
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
    pipe_why_reset(p, w); /* a gate() hook acted on the warp before it issued */
  }
  uint32_t pc = ++w->pc, ib = --w->ib;
  if (ib < w->n - pc) p->want_fetch |= bit;
  w->in_flight++;
  p->st.issued++;
  p->last_progress = now;
  const int cls = in->cu, n_src = in->n_src;
  int main_cu = pipe_cu_take(p, cls, in->n_cu);
  cu *c = &p->c[main_cu];
  c->warp = slot;
  c->in = in;
  c->unit = in->unit;
  c->lat_adj = lat_adj;
  c->issue = c->ready = now;
  if (p->base_map) {
    /* The baseline's map without the call: reg (+ warp) mod banks. The
     * parameters in locals: the byte stores below may alias anything. */
    const int add = p->prm.bank_map == GPURF_PIPELINE_MAP_REG ? 0 : slot;
    const int mask = p->bank_mask, banks = p->prm.banks;
    uint64_t breq = p->bank_req;
    rreq t = {(int16_t)main_cu, 0, (uint8_t)slot};
    for (int i = 0; i < n_src; i++) {
      int x = in->src[i] + add;
      int bank = mask >= 0 ? x & mask : x % banks;
      breq |= (uint64_t)1 << bank;
      t.reg = in->src[i];
      pipe_rq(p, bank)[p->rq_n[bank]++] = t;
    }
    p->bank_req = breq;
    c->pending = c->n_reads = n_src;
  } else {
    c->pending = 0;
    c->n_reads = 0;
    pipe_reads_hooked(p, w, in, main_cu);
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
    p->hk.issue(p->hk.state, p, slot, w->cta, w->start + pc - 1);
  if (flags & CI_BARRIER) pipe_barrier_arrive(p, w);
  /* Its next verdict now, while the warp is in cache: the scan then has
   * nothing to look at for it. */
  if (w->why < 0) pipe_judge(p, w);
}


/* The issue on the baseline's path (sched.c), for a warp the scan found
 * past the scoreboard with its collectors free, reads through the baseline's
 * map and no issue() hook: pipe_issue_inl with what those make known folded
 * in.
 * The warp's side comes first: its verdict goes from "passed" straight to
 * the next one, found from what the issue already holds (the buffer count,
 * its own instructions in flight, a barrier only when this instruction is
 * one). The collector and its reads follow, with few values left to hold.
 * (Nothing of one side depends on the other: a barrier touches warps'
 * verdicts, the collectors and banks only what this instruction reads.)
 * Returns the collector class the instruction took units of, or -1 for a
 * barrier, which may have reset other warps' verdicts. */
SCHED_INLINE int pipe_issue_base(gpurf_pipeline *p, int slot) {
  warp_sets *const s = &p->ws;
  warp *const w = &p->w[slot];
  const cinst *const in = w->code[w->pc];
  {
    const uint64_t bit = (uint64_t)1 << slot;
    s->passed[in->cu] &= ~bit; /* the verdict was found for this instruction */
    s->wide &= ~bit;
    const uint32_t pc = w->pc + 1, ib = w->ib - 1, n = w->n;
    w->pc = pc, w->ib = ib;
    const uint32_t in_flight = ++w->in_flight;
    if (ib < n - pc) p->want_fetch |= bit;
    const int n_dst = in->n_dst, flags = in->flags;
    {
      /* The first destination without a branch: most instructions have
       * one, many none (n_dst == 0 then sets no bit: dst[] is zeroed past
       * n_dst); more than one is rare. */
      const uint64_t long_mask = 0 - (uint64_t)(flags >> 1 & 1);
      _Static_assert(CI_LONG == 2, "CI_LONG is bit 1");
      int r = in->dst[0];
      uint64_t rb = (uint64_t)(n_dst != 0) << (r & 63);
      w->sb[r >> 6] |= rb;
      w->sb_long[r >> 6] |= rb & long_mask;
      for (int i = 1; i < n_dst; i++) {
        r = in->dst[i], rb = (uint64_t)1 << (r & 63);
        w->sb[r >> 6] |= rb;
        w->sb_long[r >> 6] |= rb & long_mask;
      }
    }
    int why;
    if (flags & CI_BARRIER) {
      w->why = -1; /* as pipe_why would find it when the last arrival frees the CTA */
      pipe_barrier_arrive(p, w);
      if (w->at_barrier) {
        why = GPURF_PIPELINE_STALL_BARRIER;
        goto held;
      }
    }
    if (ib == 0) {
      why = pc < n ? GPURF_PIPELINE_STALL_IBUFFER : GPURF_PIPELINE_STALL_IDLE;
    } else if (p->prm.warp_in_flight && in_flight >= (uint32_t)p->prm.warp_in_flight) {
      w->why_reg = -1, why = GPURF_PIPELINE_STALL_SCOREBOARD; /* its own last instruction */
    } else {
      const cinst *next = w->code[pc];
      const int reg = pipe_sb_wait(w, next);
      if (reg < 0) {
        const int ncls = next->cu, nn = next->n_cu;
        w->why = WHY_SB_PASSED;
        w->next_cu = (uint8_t)ncls, w->next_ncu = (uint8_t)nn;
        s->passed[ncls] |= bit;
        if (nn > 1) s->wide |= bit;
        goto collector;
      }
      w->why_reg = reg, why = GPURF_PIPELINE_STALL_SCOREBOARD;
    }
  held:
    /* pipe_why(p, w, why) from no verdict, as in pipe_judge. */
    s->held_by[why] |= bit;
    s->closed |= bit;
    s->stay &= ~bit;
    w->why = why;
  }
collector:;
  const uint64_t now = p->cycle;
  p->last_progress = now;
  p->st.issued++;
  p->acted = 1;
  const int cls = in->cu, took = in->flags & CI_BARRIER ? -1 : cls;
  const int main_cu = pipe_cu_take(p, cls, in->n_cu);
  cu *const c = &p->c[main_cu];
  const int n_src = in->n_src;
  /* (The stores of the counts are kept apart from the others: side by
   * side, the compiler packs them into vectors, which costs more.) */
  c->issue = now;
  c->in = in;
  c->unit = in->unit;
  c->warp = slot;
  /* (lat_adj stays 0: only a gate() hook sets it, and with one the
   * baseline's path is never taken in the pipeline's life.) */
  if (!n_src) {
    c->pending = c->n_reads = 0;
    c->ready = now;
    p->cu_main[main_cu >> 6] |= (uint64_t)1 << (main_cu & 63);
    if (now < p->disp_at) p->disp_at = now;
    return took;
  }
  c->pending = c->n_reads = n_src;
  c->ready = now;
  /* reg (+ warp) mod banks, as pipe_base_bank. */
  const int add = p->prm.bank_map == GPURF_PIPELINE_MAP_REG ? 0 : slot;
  const int mask = p->bank_mask;
  uint64_t breq = p->bank_req;
  /* A request is its collector, register and warp, one word (the register
   * added per read), stored at once: on a little-endian machine the
   * fields' bytes in rreq are the word's. */
  _Static_assert(offsetof(rreq, cu) == 0 && sizeof(int16_t) == 2 && offsetof(rreq, reg) == 2 &&
                     offsetof(rreq, warp) == 3,
                 "rreq's first word: cu, reg, warp");
  const uint32_t head = (uint32_t)(uint16_t)main_cu | (uint32_t)slot << 24;
  for (int i = 0; i < n_src; i++) {
    const int reg = in->src[i], x = reg + add;
    const int bank = mask >= 0 ? x & mask : x % p->prm.banks;
    breq |= (uint64_t)1 << bank;
    rreq *q = &pipe_rq(p, bank)[p->rq_n[bank]++];
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint32_t word = head | (uint32_t)reg << 16;
    memcpy(q, &word, sizeof word);
#else
    (void)head;
    q->cu = (int16_t)main_cu;
    q->reg = (uint8_t)reg;
    q->warp = (uint8_t)slot;
#endif
  }
  p->bank_req = breq;
  return took;
}

/* Issues the instruction at the warp's pc, which pipe_blocked() found ready
 * (issue.c). */
void pipe_issue_warp(gpurf_pipeline *p, int slot, int lat_adj);

/* Removes slot from a list of warp slots, keeping the order (sched.c). */
void pipe_list_remove(int *list, int *n, int slot);

/* The schedulers with a technique's hooks (sched_hooked.c): select,
 * demote or promote, and gate. */
void pipe_schedule_generic(gpurf_pipeline *p, int si);
void pipe_schedule_hooked(gpurf_pipeline *p, int si);

#endif
