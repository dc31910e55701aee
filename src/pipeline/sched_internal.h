/* The scheduler's files (sched.c, sched_hooked.c, issue.c): a warp's
 * verdict on its next instruction, and what the schedulers share. */
#ifndef GPURF_SCHED_INTERNAL_H
#define GPURF_SCHED_INTERNAL_H

#include "pipeline/pipe_internal.h"

/* The first operand of the instruction that waits on the scoreboard,
 * sources before destinations, or -1 (issue.c). */
int pipe_sb_first(const warp *w, const cinst *in);

/* Looks at the next instruction of a warp whose verdict is not known
 * (why == -1) and records it: a stall reason, held until an event of the
 * warp resets it (pipe_why), or "past the scoreboard", after which only the
 * collectors can hold it back, which is tested at each scan. A verdict is
 * valid whenever it is found, so it may be found early (right after an
 * issue) or late (by the scan). */
static inline void pipe_judge(gpurf_pipeline *p, sched *s, warp *w) {
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
    if (in->regs & (w->sb[0] | w->sb[1] | w->sb[2] | w->sb[3])) reg = pipe_sb_first(w, in);
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
  s->held[why]++;
  s->held_mask |= 1 << why;
  s->closed |= bit;
  s->stay &= ~bit; /* a new reason: two-level has not seen it yet */
  w->why = why;
}

/* pipe_blocked() for a warp whose verdict is not known (issue.c). */
int pipe_blocked_eval(gpurf_pipeline *p, warp *w, int *reg);

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
