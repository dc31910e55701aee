/* What the cycle loop's files (core.c, arbiter.c) share: retirement slots,
 * the scoreboard release and retirement that a finished write leads to. */
#ifndef GPURF_CORE_INTERNAL_H
#define GPURF_CORE_INTERNAL_H

#include <string.h>

#include "pipeline/pipe_internal.h"

/* wreq.slot of the one write of an instruction with one destination: it
 * retires with that write, so it needs no retirement slot to count down. */
#define PIPE_SLOT_SOLE (-1)

_Static_assert((PIPE_WQ_CAP & (PIPE_WQ_CAP - 1)) == 0, "write queues are rings");

/* Entry i (0: the oldest) of bank b's write queue. */
static inline wreq *pipe_wq(gpurf_pipeline *p, int b, int i) {
  return &p->wq[b][(p->wq_head[b] + i) & (PIPE_WQ_CAP - 1)];
}

int pipe_slot_grow(gpurf_ctx *ctx, gpurf_pipeline *p);

/* A retirement slot; the free list only grows when all are taken. */
static inline int pipe_slot_get(gpurf_ctx *ctx, gpurf_pipeline *p, int warp_slot, int writes) {
  if (p->n_slot_free == 0) {
    int rc = pipe_slot_grow(ctx, p);
    if (rc != GPURF_OK) return rc;
  }
  int s = p->slot_free[--p->n_slot_free];
  p->slot_left[s] = writes;
  p->slot_warp[s] = warp_slot;
  return s;
}

/* A warp held back by warp_in_flight may go once one of its own leaves. */
static inline void pipe_in_flight_done(gpurf_pipeline *p, warp *w) {
  w->in_flight--;
  if ((w->why == GPURF_PIPELINE_STALL_SCOREBOARD) & (w->why_reg < 0)) pipe_why(p, w, -1);
}

static inline void pipe_retire(gpurf_pipeline *p, int slot) {
  warp *w = &p->w[slot];
  p->acted = 1;
  pipe_in_flight_done(p, w);
  p->st.warp_instructions++;
  p->last_progress = p->cycle;
  /* (One branch, rarely taken: a warp's last instruction retiring.) */
  if ((w->in_flight == 0) & (w->pc == w->n))
    pipe_cta_warp_done(p, slot), p->warp_finished = 1, p->check_at = 0;
}

static inline void pipe_sb_clear(gpurf_pipeline *p, warp *w, int reg) {
  uint64_t m = ~((uint64_t)1 << (reg & 63));
  /* Clearing a register only changes why a warp waits when it waited for
   * that register: bits are only set when the warp issues, so any other
   * register it waits for is still the first one found on the scoreboard,
   * and barrier and buffer stalls are checked before the scoreboard. */
  if (w->why == GPURF_PIPELINE_STALL_SCOREBOARD && w->why_reg == reg) pipe_why(p, w, -1);
  w->sb[reg >> 6] &= m;
  w->sb_long[reg >> 6] &= m;
}

/* pipe_sb_clear and pipe_retire of an instruction's sole write, in one:
 * whether the warp waited for that register (its oldest wait, often the
 * case, often not) is a coin toss to the branch predictor, so its verdict
 * is reset by masks, a no-op when it did not. (Its wait for its own
 * instructions in flight, why_reg < 0, ends here too.) */
static inline void pipe_sole_done(gpurf_pipeline *p, int slot, int reg) {
  warp *w = &p->w[slot];
  const int why = w->why, wr = w->why_reg;
  const int hit = (why == GPURF_PIPELINE_STALL_SCOREBOARD) & ((wr == reg) | (wr < 0));
  const uint64_t keep = ~((uint64_t)hit << w->slot), m = ~((uint64_t)1 << (reg & 63));
  warp_sets *s = &p->ws;
  s->held_by[GPURF_PIPELINE_STALL_SCOREBOARD] &= keep;
  s->closed &= keep;
  w->why = why | -hit; /* -1 when hit */
  w->sb[reg >> 6] &= m;
  w->sb_long[reg >> 6] &= m;
  const uint32_t in_flight = --w->in_flight;
  p->acted = 1;
  p->st.warp_instructions++;
  p->last_progress = p->cycle;
  if ((in_flight == 0) & (w->pc == w->n))
    pipe_cta_warp_done(p, slot), p->warp_finished = 1, p->check_at = 0;
}

/* The register of a write is in its bank: the scoreboard lets dependants
 * go and the instruction retires when it was its last write. */
static inline void pipe_write_done(gpurf_pipeline *p, const wreq *q) {
  if (q->slot == PIPE_SLOT_SOLE) {
    pipe_sole_done(p, q->warp, q->reg);
    return;
  }
  /* A forced write moves a value whose scoreboard entry was released when
   * it was deferred; the register may be awaiting a newer write by now. */
  if (p->slot_warp[q->slot] >= 0) pipe_sb_clear(p, &p->w[q->warp], q->reg);
  if (--p->slot_left[q->slot] == 0) {
    p->slot_free[p->n_slot_free++] = q->slot;
    if (p->slot_warp[q->slot] >= 0) {
      pipe_retire(p, q->warp);
    } else {
      warp *w = &p->w[q->warp]; /* a forced write retires no instruction */
      pipe_in_flight_done(p, w);
      if (w->in_flight == 0 && w->pc == w->n && w->live)
        pipe_cta_warp_done(p, q->warp), p->warp_finished = 1, p->check_at = 0;
    }
  }
}

/* Bank b's read queue after its first entry, q, was granted: n are left.
 * An empty queue starts again where it is; otherwise its start moves on,
 * back to the start of its stride when it has gone so far that the queue
 * might outgrow the stride. */
static inline void pipe_rq_advance(gpurf_pipeline *p, int b, rreq *q, int n) {
  if (n == 0) return;
  rreq *start = p->rq + (size_t)b * p->rq_stride;
  if ((size_t)(q + 1 - start) > p->rq_room) {
    memmove(start, q + 1, (size_t)n * sizeof *q);
    p->rq_first[b] = start;
  } else {
    p->rq_first[b] = q + 1;
  }
}

/* Whether pipe_feed_admit has nothing to do: no CTA to read, and the staged
 * one has already been found not to fit. */
static inline int pipe_admit_idle(const gpurf_pipeline *p) {
  return p->staged >= 0 ? !p->freed && p->n_ctas > 0 : !p->rec_valid;
}

/* arbiter.c */
int pipe_arbitrate_general(gpurf_pipeline *p);
void pipe_writes_pending(gpurf_pipeline *p);
void pipe_count_losers(gpurf_pipeline *p, int b, int write, int cu_won);
void pipe_arb_configure(gpurf_pipeline *p);
/* idle.c */
uint64_t pipe_next_event(const gpurf_pipeline *p);
void pipe_quiet_get(gpurf_pipeline *p);
void pipe_quiet_repeat(gpurf_pipeline *p, uint64_t n);

#endif
