/* Bank arbitration: each cycle every bank with queued requests grants one
 * (a write or an operand read), the others wait and are counted as
 * conflicts; slow writes hold their bank for several cycles, with reads
 * beside them where a technique allows (the share hook). Forced writes of
 * techniques join the write queues here too, and retirement slots are
 * kept here. */
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "pipeline/core_internal.h"

/* Doubles the retirement slots (all are taken). */
int pipe_slot_grow(gpurf_ctx *ctx, gpurf_pipeline *p) {
  size_t cap = p->slot_cap ? 2 * p->slot_cap : 256;
  int32_t *l = realloc(p->slot_left, cap * sizeof *l);
  if (l) p->slot_left = l;
  int32_t *w = realloc(p->slot_warp, cap * sizeof *w);
  if (w) p->slot_warp = w;
  int32_t *f = realloc(p->slot_free, cap * sizeof *f);
  if (f) p->slot_free = f;
  if (!l || !w || !f) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  for (size_t i = p->slot_cap; i < cap; i++) p->slot_free[p->n_slot_free++] = (int32_t)i;
  p->slot_cap = cap;
  return GPURF_OK;
}

/* Reads waiting on bank b lose this cycle to `write` or to collector cu. */
void pipe_count_losers(gpurf_pipeline *p, int b, int write, int cu_won) {
  int nr = p->rq_n[b];
  if (write) {
    p->st.conflicts_inter_write += (uint64_t)nr;
    return;
  }
  const rreq *q = pipe_rq(p, b);
  uint64_t intra = 0;
  for (int i = 0; i < nr; i++) intra += q[i].cu == cu_won;
  p->st.conflicts_intra += intra;
  p->st.conflicts_inter_read += (uint64_t)nr - intra;
}

/* What base_arbitrate (baseline.c) grants, read off the queues: the
 * preferred class if it has a request, oldest first, ties to the first.
 * Queues are oldest first unless the clock was set back (age_mixed). */
static int base_pick(gpurf_pipeline *p, int b, int nw, int nr) {
  int writes = p->prm.reads_first ? nr == 0 : nw > 0;
  if (!p->age_mixed) return writes ? 0 : nw;
  int best = 0;
  if (writes) {
    for (int i = 1; i < nw; i++)
      if (pipe_wq(p, b, i)->age < pipe_wq(p, b, best)->age) best = i;
    return best;
  }
  const rreq *q = pipe_rq(p, b);
  for (int i = 1; i < nr; i++)
    if (pipe_rq_age(p, &q[i]) < pipe_rq_age(p, &q[best])) best = i;
  return nw + best;
}

/* The technique's arbitrate hook over bank b's requests, writes first.
 * Apart, so that the baseline's cycles do not carry its request table on
 * their stack. */
static PIPE_NOINLINE int hook_pick(gpurf_pipeline *p, int b, int nw, int nr) {
  gpurf_pipeline_req reqs[PIPE_WQ_CAP + PIPE_RQ_CAP];
  int n = 0;
  for (int i = 0; i < nw; i++, n++) {
    const wreq *q = pipe_wq(p, b, i);
    reqs[n] = (gpurf_pipeline_req){1, 0, q->warp, q->reg, -1, q->age};
  }
  for (int i = 0; i < nr; i++, n++) {
    const rreq *q = &pipe_rq(p, b)[i];
    reqs[n] = (gpurf_pipeline_req){0, 1, q->warp, q->reg, q->cu, pipe_rq_age(p, q)};
  }
  return p->hk.arbitrate(p->hk.state, p, b, reqs, n);
}

/* Takes entry gi out of bank b's read queue. */
static inline rreq rq_take(gpurf_pipeline *p, int b, int gi) {
  rreq *q = p->rq_first[b];
  rreq r = q[gi];
  int n = --p->rq_n[b];
  if (gi == 0) {
    pipe_rq_advance(p, b, q, n);
    return r;
  }
  /* Queues hold a few entries: a loop beats a call to memmove. */
  for (int i = gi; i < n; i++) q[i] = q[i + 1];
  return r;
}

/* Read gi of bank b goes to its collector; returns the collector. */
static inline int read_granted(gpurf_pipeline *p, int b, int gi) {
  rreq q = rq_take(p, b, gi);
  cu *c = &p->c[q.cu];
  uint64_t at = p->cycle + (uint64_t)p->prm.read_cycles;
  if (at > c->ready) c->ready = at;
  if (--c->pending == 0) {
    p->cu_main[q.cu >> 6] |= (uint64_t)1 << (q.cu & 63);
    if (c->ready < p->disp_at) p->disp_at = c->ready;
  }
  p->st.bank_reads[b]++;
  return q.cu;
}

/* The technique's arbitrate hook over the reads of bank b it allows
 * beside the held write; index into the queue, or -1. Apart, as
 * hook_pick, for its request table. */
static PIPE_NOINLINE int share_pick_hook(gpurf_pipeline *p, int b,
                                         const gpurf_pipeline_req *held) {
  gpurf_pipeline_req reqs[PIPE_RQ_CAP];
  int idx[PIPE_RQ_CAP], n = 0;
  for (int i = 0; i < p->rq_n[b]; i++) {
    const rreq *q = &pipe_rq(p, b)[i];
    gpurf_pipeline_req r = {0, 1, q->warp, q->reg, q->cu, pipe_rq_age(p, q)};
    if (p->hk.share(p->hk.state, p, b, held, &r)) reqs[n] = r, idx[n++] = i;
  }
  int g = n ? p->hk.arbitrate(p->hk.state, p, b, reqs, n) : -1;
  return g >= 0 && g < n ? idx[g] : -1;
}

/* A bank held by a slow write, from the cycle it was granted: one read the
 * share hook allows beside it (the oldest, or the technique's pick among
 * them), ending with the write. Returns 1 when one was granted. */
static PIPE_NOINLINE int share_grant(gpurf_pipeline *p, int b) {
  uint64_t end = p->cycle + (uint64_t)p->prm.bank_read_cycles;
  if (p->share_free[b] > p->cycle || end > p->bank_free[b] || p->rq_n[b] == 0) return 0;
  const wreq *w = &p->wpend[b];
  gpurf_pipeline_req held = {1, 0, w->warp, w->reg, -1, w->age};
  int g = -1;
  if (p->base_arb) {
    for (int i = 0; i < p->rq_n[b]; i++) {
      const rreq *q = &pipe_rq(p, b)[i];
      gpurf_pipeline_req r = {0, 1, q->warp, q->reg, q->cu, pipe_rq_age(p, q)};
      if ((g < 0 || r.age < pipe_rq_age(p, &pipe_rq(p, b)[g])) &&
          p->hk.share(p->hk.state, p, b, &held, &r))
        g = i;
    }
  } else {
    g = share_pick_hook(p, b, &held);
  }
  if (g < 0) return 0;
  read_granted(p, b, g);
  p->bank_busy_extra[b]--; /* (beside the write: no cycle of its own) */
  p->share_free[b] = end;
  if (p->rq_n[b] + p->wq_n[b] == 0) p->bank_req &= ~((uint64_t)1 << b);
  return 1;
}

/* Write g of bank b takes the bank. */
static void grant_write(gpurf_pipeline *p, int b, int g) {
  wreq q = *pipe_wq(p, b, g);
  int n = --p->wq_n[b];
  if (g == 0)
    p->wq_head[b] = (uint8_t)((p->wq_head[b] + 1) & (PIPE_WQ_CAP - 1));
  else
    for (int i = g; i < n; i++) *pipe_wq(p, b, i) = *pipe_wq(p, b, i + 1);
  p->st.bank_writes[b]++;
  int busy = p->prm.bank_write_cycles;
  p->bank_busy_extra[b] += (uint64_t)busy - 1;
  p->bank_free[b] = p->cycle + (uint64_t)busy;
  p->holder_write[b] = 1;
  if (busy == 1) {
    pipe_write_done(p, &q);
  } else {
    p->wpend[b] = q;
    p->wpend_mask |= (uint64_t)1 << b;
    if (p->hk.share) share_grant(p, b); /* a read beside it from its first cycle */
  }
  pipe_count_losers(p, b, 1, -1);
}

/* Read gi of bank b takes the bank. */
static inline void grant_read(gpurf_pipeline *p, int b, int gi) {
  int busy = p->prm.bank_read_cycles;
  p->bank_busy_extra[b] += (uint64_t)busy - 1;
  p->bank_free[b] = p->cycle + (uint64_t)busy;
  p->holder_write[b] = 0;
  p->holder_cu[b] = read_granted(p, b, gi);
  pipe_count_losers(p, b, 0, p->holder_cu[b]);
}

/* Slow writes whose access ends this cycle complete. */
void pipe_writes_pending(gpurf_pipeline *p) {
  for (uint64_t m = p->wpend_mask; m; m &= m - 1) {
    int b = __builtin_ctzll(m);
    if (p->bank_free[b] - 1 <= p->cycle) {
      p->acted = 1;
      p->wpend_mask &= ~((uint64_t)1 << b);
      pipe_write_done(p, &p->wpend[b]);
    }
  }
}

/* One grant per bank per cycle; losers stay queued and are counted as
 * conflicts, classed by what won (or still holds the bank). Returns
 * whether anything was granted. The baseline over one-cycle accesses has
 * a plain loop of its own (core.c). */
int pipe_arbitrate_general(gpurf_pipeline *p) {
  uint64_t now = p->cycle;
  int granted = 0;
  for (uint64_t m = p->bank_req; m; m &= m - 1) {
    int b = __builtin_ctzll(m);
    if (p->bank_free[b] > now) {
      if (p->hk.share && p->holder_write[b]) granted |= share_grant(p, b);
      pipe_count_losers(p, b, p->holder_write[b], p->holder_cu[b]);
      continue;
    }
    int nw = p->wq_n[b], nr = p->rq_n[b], g;
    if (p->base_arb) {
      g = base_pick(p, b, nw, nr);
    } else {
      /* A technique sees single requests too: it may hold one back (a read
       * whose value is not home yet) or learn that its own write went. */
      g = hook_pick(p, b, nw, nr);
      if (g < 0 || g >= nw + nr) continue; /* the technique kept the bank idle */
    }
    granted = 1;
    if (g < nw)
      grant_write(p, b, g);
    else
      grant_read(p, b, g - nw);
    /* (A write's completion may queue a technique's forced write.) */
    if (p->wq_n[b] + p->rq_n[b] == 0) p->bank_req &= ~((uint64_t)1 << b);
  }
  return granted;
}

/* Which arbitration loop the cycle takes (after attach, and again when the
 * clock is set back with requests queued). */
void pipe_arb_configure(gpurf_pipeline *p) {
  /* Arrivals kept by cycle go back to cu_main, where admission looks at
   * their ready: the ring's slots stand for cycles of the old clock. */
  for (int s = 0; s < PIPE_ARR_RING; s++) {
    p->cu_main[0] |= p->arr[s][0], p->cu_main[1] |= p->arr[s][1];
    p->arr[s][0] = p->arr[s][1] = 0;
  }
  /* (The plain loop keeps arrivals by cycle: their ring has room for
   * read_cycles below its length.) */
  p->arb_plain = p->base_arb && !p->hk.share && !p->age_mixed && p->prm.bank_read_cycles == 1 &&
                 p->prm.bank_write_cycles == 1 && p->prm.read_cycles < PIPE_ARR_RING;
  p->wb_direct = p->arb_plain && p->base_bank && !p->hk.warp_end;
}

int gpurf_pipeline_force_write(gpurf_pipeline *p, int wslot, int reg) {
  if (!p || wslot < 0 || wslot >= GPURF_PIPELINE_MAX_WARPS || reg < 0 ||
      reg >= GPURF_TRACE_NUM_REGS)
    return GPURF_EINVAL;
  int bank = pipe_map(p, wslot, p->w[wslot].gid, reg, 1);
  return gpurf_pipeline_force_write_bank(p, wslot, reg, bank);
}

int gpurf_pipeline_force_write_bank(gpurf_pipeline *p, int wslot, int reg, int bank) {
  if (!p || wslot < 0 || wslot >= GPURF_PIPELINE_MAX_WARPS || reg < 0 ||
      reg >= GPURF_TRACE_NUM_REGS)
    return GPURF_EINVAL;
  if (bank < 0 || bank >= p->prm.banks) return GPURF_EINVAL;
  if (p->wq_n[bank] >= PIPE_WQ_CAP) return GPURF_ERANGE;
  /* A forced write retires no instruction: its slot is marked negative. */
  int s = pipe_slot_get(p->ctx, p, -1 - wslot, 1);
  if (s < 0) return s;
  p->w[wslot].in_flight++;
  if (p->prm.warp_in_flight) pipe_why(p, &p->w[wslot], -1); /* may now be held */
  wreq *q = pipe_wq(p, bank, p->wq_n[bank]++);
  p->bank_req |= (uint64_t)1 << bank;
  q->reg = (uint8_t)reg, q->warp = (uint8_t)wslot, q->slot = s, q->age = p->cycle;
  return GPURF_OK;
}
