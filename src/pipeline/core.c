/* One SM cycle, stages in reverse order so that an instruction moves one
 * stage per cycle: results onto the result bus and into bank write queues,
 * bank arbitration (writes and operand reads), dispatch from collectors to
 * execution units, issue, fetch. */
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "pipeline/pipe_internal.h"

/* Doubles the retirement slots (all are taken). */
static int slot_grow(gpurf_ctx *ctx, gpurf_pipeline *p) {
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

/* A retirement slot; the free list only grows when all are taken. */
static inline int slot_get(gpurf_ctx *ctx, gpurf_pipeline *p, int warp_slot, int writes) {
  if (p->n_slot_free == 0) {
    int rc = slot_grow(ctx, p);
    if (rc != GPURF_OK) return rc;
  }
  int s = p->slot_free[--p->n_slot_free];
  p->slot_left[s] = writes;
  p->slot_warp[s] = warp_slot;
  return s;
}

/* A warp held back by warp_in_flight may go once one of its own leaves. */
static inline void in_flight_done(gpurf_pipeline *p, warp *w) {
  w->in_flight--;
  if (w->why == GPURF_PIPELINE_STALL_SCOREBOARD && w->why_reg < 0) pipe_why(p, w, -1);
}

static void retire(gpurf_pipeline *p, int slot) {
  warp *w = &p->w[slot];
  p->acted = 1;
  in_flight_done(p, w);
  p->st.warp_instructions++;
  p->last_progress = p->cycle;
  if (w->in_flight == 0 && w->pc == w->n) pipe_cta_warp_done(p, slot);
}

static void sb_clear(gpurf_pipeline *p, warp *w, int reg) {
  uint64_t m = ~((uint64_t)1 << (reg & 63));
  /* Clearing a register only changes why a warp waits when it waited for
   * that register: bits are only set when the warp issues, so any other
   * register it waits for is still the first one found on the scoreboard,
   * and barrier and buffer stalls are checked before the scoreboard. */
  if (w->why == GPURF_PIPELINE_STALL_SCOREBOARD && w->why_reg == reg) pipe_why(p, w, -1);
  w->sb[reg >> 6] &= m;
  w->sb_long[reg >> 6] &= m;
}

/* Results whose latency has passed take the result bus, in order, while
 * the banks they write have room in their queues. */
static int writeback(gpurf_ctx *ctx, gpurf_pipeline *p) {
  int bus = p->prm.result_bus_width;
  while (p->res_next <= p->cycle) {
    int u = p->res_unit;
    const result r = p->res[u].r[p->res[u].head];
    if (r.ready > p->cycle) break;
    p->acted = 1;
    warp *w = &p->w[r.warp];
    if (r.in->n_dst == 0) {
      pipe_res_pop(p, u);
      retire(p, r.warp);
      continue;
    }
    if (bus == 0) break;
    if (p->base_bank && r.in->n_dst == 1) {
      /* The common case of the loops below: one register to its bank. */
      int b = pipe_base_bank(p, r.warp, r.in->dst[0]);
      if (p->wq_n[b] + 1 > PIPE_WQ_CAP) break;
      pipe_res_pop(p, u);
      bus--;
      int s = slot_get(ctx, p, r.warp, 1);
      if (s < 0) return s;
      p->wq[b][p->wq_n[b]++] = (wreq){r.in->dst[0], (uint8_t)r.warp, s, p->cycle};
      p->bank_req |= (uint64_t)1 << b;
      continue;
    }
    int bank[PIPE_MAX_DST], room = 1;
    for (int i = 0; i < r.in->n_dst; i++) {
      bank[i] = GPURF_PIPELINE_NO_BANK;
      if (p->base_wb ||
          p->hk.writeback(p->hk.state, p, r.warp, r.in->dst[i]) == GPURF_PIPELINE_WB_BANK)
        bank[i] = pipe_map(p, r.warp, w->gid, r.in->dst[i], 1);
      int need = 1;
      for (int j = 0; j < i; j++) need += bank[j] == bank[i];
      if (bank[i] >= 0 && p->wq_n[bank[i]] + need > PIPE_WQ_CAP) room = 0;
    }
    if (!room) break;
    pipe_res_pop(p, u);
    bus--;
    int writes = 0;
    for (int i = 0; i < r.in->n_dst; i++)
      if (bank[i] >= 0)
        writes++;
      else
        sb_clear(p, w, r.in->dst[i]);
    if (writes == 0) {
      retire(p, r.warp);
      continue;
    }
    int s = slot_get(ctx, p, r.warp, writes);
    if (s < 0) return s;
    for (int i = 0; i < r.in->n_dst; i++) {
      if (bank[i] < 0) continue;
      wreq *q = &p->wq[bank[i]][p->wq_n[bank[i]]++];
      p->bank_req |= (uint64_t)1 << bank[i];
      q->reg = r.in->dst[i];
      q->warp = (uint8_t)r.warp;
      q->slot = s;
      q->age = p->cycle;
    }
  }
  return GPURF_OK;
}

/* The register of a write is in its bank: the scoreboard lets dependants
 * go and the instruction retires when it was its last write. */
static void write_done(gpurf_pipeline *p, const wreq *q) {
  /* A forced write moves a value whose scoreboard entry was released when
   * it was deferred; the register may be awaiting a newer write by now. */
  if (p->slot_warp[q->slot] >= 0) sb_clear(p, &p->w[q->warp], q->reg);
  if (--p->slot_left[q->slot] == 0) {
    p->slot_free[p->n_slot_free++] = q->slot;
    if (p->slot_warp[q->slot] >= 0) {
      retire(p, q->warp);
    } else {
      warp *w = &p->w[q->warp]; /* a forced write retires no instruction */
      in_flight_done(p, w);
      if (w->in_flight == 0 && w->pc == w->n && w->live) pipe_cta_warp_done(p, q->warp);
    }
  }
}

/* Reads waiting on bank b lose this cycle to `write` or to collector cu. */
static void count_losers(gpurf_pipeline *p, int b, int write, int cu_won) {
  if (write) {
    p->st.conflicts_inter_write += (uint64_t)p->rq_n[b];
    return;
  }
  for (int i = 0; i < p->rq_n[b]; i++) {
    if (pipe_rq(p, b)[i].cu == cu_won)
      p->st.conflicts_intra++;
    else
      p->st.conflicts_inter_read++;
  }
}

/* What base_arbitrate (baseline.c) grants, read off the queues: the
 * preferred class if it has a request, oldest first, ties to the first. */
static int base_pick(const gpurf_pipeline *p, int b, int nw, int nr) {
  int writes = p->prm.reads_first ? nr == 0 : nw > 0;
  int best = 0;
  if (writes) {
    for (int i = 1; i < nw; i++)
      if (p->wq[b][i].age < p->wq[b][best].age) best = i;
    return best;
  }
  for (int i = 1; i < nr; i++)
    if (pipe_rq(p, b)[i].age < pipe_rq(p, b)[best].age) best = i;
  return nw + best;
}

/* The technique's arbitrate hook over bank b's requests, writes first.
 * Apart, so that the baseline's cycles do not carry its request table on
 * their stack. */
static PIPE_NOINLINE int hook_pick(gpurf_pipeline *p, int b, int nw, int nr) {
  gpurf_pipeline_req reqs[PIPE_WQ_CAP + PIPE_RQ_CAP];
  int n = 0;
  for (int i = 0; i < nw; i++, n++) {
    const wreq *q = &p->wq[b][i];
    reqs[n] = (gpurf_pipeline_req){1, 0, q->warp, q->reg, -1, q->age};
  }
  for (int i = 0; i < nr; i++, n++) {
    const rreq *q = &pipe_rq(p, b)[i];
    reqs[n] = (gpurf_pipeline_req){0, 1, q->warp, q->reg, q->cu, q->age};
  }
  return p->hk.arbitrate(p->hk.state, p, b, reqs, n);
}

/* Read gi of bank b goes to its collector; returns the collector. */
static inline int read_granted(gpurf_pipeline *p, int b, int gi) {
  int nr = p->rq_n[b];
  rreq q = pipe_rq(p, b)[gi];
  for (int i = gi; i < nr - 1; i++) pipe_rq(p, b)[i] = pipe_rq(p, b)[i + 1];
  p->rq_n[b]--;
  cu *c = &p->c[q.cu];
  uint64_t at = p->cycle + (uint64_t)p->prm.read_cycles;
  if (at > c->ready) c->ready = at;
  if (--c->pending == 0) {
    p->cu_main[q.cu >> 6] |= (uint64_t)1 << (q.cu & 63);
    if (c->ready < p->disp_at) p->disp_at = c->ready;
  }
  p->st.bank_reads[b]++;
  p->st.reads++;
  p->st.crossbar_transfers++;
  p->st.collector_accesses++;
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
    gpurf_pipeline_req r = {0, 1, q->warp, q->reg, q->cu, q->age};
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
      gpurf_pipeline_req r = {0, 1, q->warp, q->reg, q->cu, q->age};
      if ((g < 0 || q->age < pipe_rq(p, b)[g].age) && p->hk.share(p->hk.state, p, b, &held, &r))
        g = i;
    }
  } else {
    g = share_pick_hook(p, b, &held);
  }
  if (g < 0) return 0;
  read_granted(p, b, g);
  p->share_free[b] = end;
  if (p->rq_n[b] + p->wq_n[b] == 0) p->bank_req &= ~((uint64_t)1 << b);
  return 1;
}

/* One grant per bank per cycle; losers stay queued and are counted as
 * conflicts, classed by what won (or still holds the bank). */
static void arbitrate(gpurf_pipeline *p) {
  int granted = 0;
  for (uint64_t m = p->wpend_mask; m; m &= m - 1) {
    int b = __builtin_ctzll(m);
    if (p->bank_free[b] - 1 <= p->cycle) {
      p->acted = 1;
      p->wpend_mask &= ~((uint64_t)1 << b);
      write_done(p, &p->wpend[b]);
    }
  }
  for (uint64_t m = p->bank_req; m; m &= m - 1) {
    int b = __builtin_ctzll(m);
    if (p->bank_free[b] > p->cycle) {
      if (p->hk.share && p->holder_write[b]) granted |= share_grant(p, b);
      count_losers(p, b, p->holder_write[b], p->holder_cu[b]);
      continue;
    }
    int nw = p->wq_n[b], nr = p->rq_n[b], n = nw + nr, g = 0;
    if (p->base_arb) {
      if (n > 1) g = base_pick(p, b, nw, nr);
    } else {
      /* A technique sees single requests too: it may hold one back (a read
       * whose value is not home yet) or learn that its own write went. */
      g = hook_pick(p, b, nw, nr);
    }
    if (g < 0 || g >= n) continue; /* the technique kept the bank idle */
    if (n == 1) p->bank_req &= ~((uint64_t)1 << b);
    granted = 1;
    if (g < nw) {
      wreq q = p->wq[b][g];
      /* Queues hold a few entries: a loop beats a call to memmove. */
      for (int i = g; i < nw - 1; i++) p->wq[b][i] = p->wq[b][i + 1];
      p->wq_n[b]--;
      p->st.bank_writes[b]++;
      p->st.writes++;
      int busy = p->prm.bank_write_cycles;
      p->bank_busy[b] += (uint64_t)busy;
      p->bank_free[b] = p->cycle + (uint64_t)busy;
      p->holder_write[b] = 1;
      if (busy == 1) {
        write_done(p, &q);
      } else {
        p->wpend[b] = q;
        p->wpend_mask |= (uint64_t)1 << b;
        if (p->hk.share) share_grant(p, b); /* a read beside it from its first cycle */
      }
      count_losers(p, b, 1, -1);
    } else {
      int gi = g - nw;
      int busy = p->prm.bank_read_cycles;
      p->bank_busy[b] += (uint64_t)busy;
      p->bank_free[b] = p->cycle + (uint64_t)busy;
      p->holder_write[b] = 0;
      p->holder_cu[b] = read_granted(p, b, gi);
      count_losers(p, b, 0, p->holder_cu[b]);
    }
  }
  p->st.arbiter_decisions += (uint64_t)granted;
  p->acted |= granted;
}

/* Collectors with every operand go to a free pipeline of their unit. */
static int dispatch(gpurf_ctx *ctx, gpurf_pipeline *p) {
  if (p->disp_at > p->cycle) return GPURF_OK;
  uint64_t next = UINT64_MAX;
  for (int word = 0; word < 2; word++)
    for (uint64_t m = p->cu_main[word]; m; m &= m - 1) {
      int i = word * 64 + __builtin_ctzll(m);
      cu *c = &p->c[i];
      if (c->ready > p->cycle) {
        if (c->ready < next) next = c->ready;
        continue;
      }
      int u = c->unit, k = p->unit_min[u] <= p->cycle ? p->unit_min_at[u] : -1;
      if (k >= 0 && u == GPURF_PIPELINE_UNIT_GLOBAL && p->global_free > (double)p->cycle) k = -1;
      if (k < 0) {
        p->st.dispatch_stalls[u]++;
        next = p->cycle + 1; /* it tries again next cycle */
        continue;
      }
      const cinst *in = c->in;
      p->acted = 1;
      p->unit_free[u][k] = p->cycle + (uint64_t)p->prm.interval[u];
      uint64_t lo = p->unit_free[u][0];
      int at = 0;
      for (int j = 1; j < p->prm.units[u]; j++)
        if (p->unit_free[u][j] < lo) lo = p->unit_free[u][j], at = j;
      p->unit_min[u] = lo, p->unit_min_at[u] = at;
      if (u == GPURF_PIPELINE_UNIT_GLOBAL) {
        double start = p->global_free > (double)p->cycle ? p->global_free : (double)p->cycle;
        p->global_free = start + in->bytes / p->prm.global_bytes_per_cycle;
      }
      if (c->n_reads > 0) {
        double got = (double)(c->ready - c->issue), ideal = 1.0 + p->prm.read_cycles;
        p->st.fetch_instructions++;
        p->fetch_sum += got;
        p->fetch_pen_sum += got - ideal;
      }
      int lat = p->prm.latency[u] + c->lat_adj;
      result r = {p->cycle + (uint64_t)(lat < 1 ? 1 : lat), p->seq++, c->warp, in};
      int rc = pipe_res_push(ctx, p, u, &r);
      if (rc != GPURF_OK) return rc;
      for (int j = 0; j < c->n_extra; j++)
        p->cu_idle[c->extra[j] >> 6] |= (uint64_t)1 << (c->extra[j] & 63);
      p->cu_free[in->cu] += c->n_extra;
      p->cu_idle[i >> 6] |= (uint64_t)1 << (i & 63);
      p->cu_main[word] &= ~((uint64_t)1 << (i & 63));
      p->cu_free[in->cu]++;
    }
  p->disp_at = next;
  return GPURF_OK;
}

/* One warp per cycle refills its instruction buffer, round robin over the
 * warps whose buffer has room. */
static void fetch(gpurf_pipeline *p) {
  uint64_t m = p->want_fetch;
  if (!m) return;
  p->acted = 1;
  uint64_t after = p->fetch_rr < 64 ? m & (~(uint64_t)0 << p->fetch_rr) : 0;
  int slot = __builtin_ctzll(after ? after : m);
  warp *w = &p->w[slot];
  uint32_t left = w->n - w->pc;
  w->ib = left < (uint32_t)p->prm.ibuffer_depth ? left : (uint32_t)p->prm.ibuffer_depth;
  /* Only a buffer stall depends on the buffer: a barrier is checked before
   * it, and a scoreboard stall was found with instructions in it. */
  if (w->why == GPURF_PIPELINE_STALL_IBUFFER || w->why == GPURF_PIPELINE_STALL_IDLE)
    pipe_why(p, w, -1);
  p->want_fetch &= ~((uint64_t)1 << slot);
  p->fetch_rr = slot + 1;
}

int pipe_cycle(gpurf_ctx *ctx, gpurf_pipeline *p) {
  int rc = writeback(ctx, p);
  if (rc != GPURF_OK) return rc;
  arbitrate(p);
  if ((rc = dispatch(ctx, p)) != GPURF_OK) return rc;
  pipe_issue(p);
  fetch(p);
  p->cycle++;
  return GPURF_OK;
}

/* The first cycle from p->cycle on in which a quiet SM (the last cycle
 * moved nothing) may move again: a result falling due, a bank coming free
 * for its queued requests or finishing a slow write, a collector's operands
 * arriving or its unit coming free. Issue, fetch and the two-level sets only
 * change after one of these. Earlier is always safe: it only skips less. */
uint64_t pipe_next_event(const gpurf_pipeline *p) {
  uint64_t now = p->cycle, t = UINT64_MAX;
#define EVENT_AT(x)                        \
  do {                                     \
    uint64_t x_ = (x);                     \
    if (x_ >= now && x_ < t) t = x_;       \
  } while (0)
  if (p->res_n) EVENT_AT(p->res_next);
  for (uint64_t m = p->wpend_mask; m; m &= m - 1) EVENT_AT(p->bank_free[__builtin_ctzll(m)] - 1);
  for (uint64_t m = p->bank_req; m; m &= m - 1) EVENT_AT(p->bank_free[__builtin_ctzll(m)]);
  /* A read beside a held write (the share hook) frees its sub-array. */
  if (p->hk.share)
    for (uint64_t m = p->bank_req; m; m &= m - 1) EVENT_AT(p->share_free[__builtin_ctzll(m)]);
  for (int word = 0; word < 2; word++)
    for (uint64_t m = p->cu_main[word]; m; m &= m - 1) {
      const cu *c = &p->c[word * 64 + __builtin_ctzll(m)];
      EVENT_AT(c->ready);
      EVENT_AT(p->unit_min[c->unit]);
      if (c->unit == GPURF_PIPELINE_UNIT_GLOBAL && p->global_free >= (double)now) {
        /* The first cycle whose number is not below global_free. */
        double f = p->global_free;
        uint64_t g = f < 18446744073709549568.0 ? (uint64_t)f : UINT64_MAX;
        if ((double)g < f && g < UINT64_MAX) g++;
        EVENT_AT(g);
      }
    }
#undef EVENT_AT
  return t;
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
  int s = slot_get(p->ctx, p, -1 - wslot, 1);
  if (s < 0) return s;
  p->w[wslot].in_flight++;
  if (p->prm.warp_in_flight) pipe_why(p, &p->w[wslot], -1); /* may now be held */
  wreq *q = &p->wq[bank][p->wq_n[bank]++];
  p->bank_req |= (uint64_t)1 << bank;
  q->reg = (uint8_t)reg, q->warp = (uint8_t)wslot, q->slot = s, q->age = p->cycle;
  return GPURF_OK;
}
