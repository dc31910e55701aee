/* The SM's cycle loop. A cycle runs its stages in reverse order so that an
 * instruction moves one stage per cycle: results onto the result bus and
 * into bank write queues, bank arbitration (writes and operand reads),
 * dispatch from collectors to execution units, issue, fetch. Stages look
 * only at what is due: results by their ready cycle, banks with requests,
 * units with waiting collectors. */
#include "core/ctx_internal.h"
#include "pipeline/core_internal.h"

/* A result through the writeback hook or with several destinations: the
 * banks its registers go to, and a retirement slot counting down their
 * writes. Returns 1 when a bank's write queue has no room (the result bus
 * stops), else a status. */
static PIPE_NOINLINE int writeback_banks(gpurf_ctx *ctx, gpurf_pipeline *p, int u, int ws,
                                         const cinst *in, uint64_t now) {
  warp *w = &p->w[ws];
  int bank[PIPE_MAX_DST], room = 1;
  for (int i = 0; i < in->n_dst; i++) {
    bank[i] = GPURF_PIPELINE_NO_BANK;
    if (p->base_wb || p->hk.writeback(p->hk.state, p, ws, in->dst[i]) == GPURF_PIPELINE_WB_BANK)
      bank[i] = pipe_map(p, ws, w->gid, in->dst[i], 1);
    int need = 1;
    for (int j = 0; j < i; j++) need += bank[j] == bank[i];
    if (bank[i] >= 0 && p->wq_n[bank[i]] + need > PIPE_WQ_CAP) room = 0;
  }
  if (!room) return 1;
  pipe_res_pop(p, u);
  int writes = 0;
  for (int i = 0; i < in->n_dst; i++)
    if (bank[i] >= 0)
      writes++;
    else
      pipe_sb_clear(p, w, in->dst[i]);
  if (writes == 0) {
    pipe_retire(p, ws);
    return GPURF_OK;
  }
  int s = pipe_slot_get(ctx, p, ws, writes);
  if (s < 0) return s;
  for (int i = 0; i < in->n_dst; i++) {
    if (bank[i] < 0) continue;
    *pipe_wq(p, bank[i], p->wq_n[bank[i]]++) = (wreq){in->dst[i], (uint8_t)ws, s, now};
    p->bank_req |= (uint64_t)1 << bank[i];
  }
  return GPURF_OK;
}

/* Results whose latency has passed take the result bus, in order, while
 * the banks they write have room in their queues. res_next is the first
 * result's ready: most cycles none is due, and the loop stops at the first
 * result not yet due. */
static inline int writeback(gpurf_ctx *ctx, gpurf_pipeline *p, int *granted) {
  const uint64_t now = p->cycle;
  if (p->res_next > now) return GPURF_OK;
  int bus = p->prm.result_bus_width;
  const int one_bank = p->base_bank, direct = p->wb_direct;
  p->acted = 1;
  do {
    const int u = p->res_unit;
    const result *rp = &p->res[u].r[p->res[u].head];
    const int ws = rp->warp;
    const cinst *in = rp->in;
    const int n_dst = in->n_dst;
    if (n_dst == 0) {
      pipe_res_pop(p, u);
      pipe_retire(p, ws);
      continue;
    }
    if (bus == 0) break;
    if (!one_bank || n_dst != 1) {
      int rc = writeback_banks(ctx, p, u, ws, in, now);
      if (rc == 1) break;
      if (rc != GPURF_OK) return rc;
      bus--;
      continue;
    }
    /* The common case: one register to its bank, and the instruction
     * retires with that write (no slot to count down). */
    const int reg = in->dst[0], b = pipe_base_bank(p, ws, reg);
    const uint64_t bit = (uint64_t)1 << b;
    if (direct && !(p->bank_req & bit) && p->bank_free[b] <= now) {
      /* Nothing is queued at its free bank: arbitration would grant this
       * write this cycle, alone. It is written at once. (Only the order of
       * its completion among the cycle's grants differs, which nothing
       * sees without a warp_end hook.) */
      pipe_res_pop(p, u);
      bus--;
      *granted = 1;
      p->bank_free[b] = now + 1;
      p->holder_write[b] = 1;
      p->st.bank_writes[b]++;
      pipe_sole_done(p, ws, reg); /* pipe_write_done of a sole write */
      continue;
    }
    if (p->wq_n[b] == PIPE_WQ_CAP) break;
    pipe_res_pop(p, u);
    bus--;
    *pipe_wq(p, b, p->wq_n[b]++) = (wreq){(uint8_t)reg, (uint8_t)ws, PIPE_SLOT_SOLE, now};
    p->bank_req |= bit;
  } while (p->res_next <= now);
  return GPURF_OK;
}

/* The baseline's arbitration over banks taken one cycle per access (the
 * general loop is in arbiter.c): a bank with requests is free, unless a
 * technique accessed it itself this cycle, and grants its oldest write, or
 * its oldest read (reads_first: the other way round); the reads left lose.
 * Its grants leave holder_write and holder_cu alone: they are only read
 * while a bank is taken, and a one-cycle grant's bank is free the next
 * cycle (who takes a bank beyond it, writeback or a technique, sets them). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int arbitrate_plain_t(gpurf_pipeline *p, const int two_words) {
  const uint64_t now = p->cycle, at = now + (uint64_t)p->prm.read_cycles;
  const int writes_first = !p->prm.reads_first;
  int granted = 0;
  /* The loop's sums and arrivals are kept in registers and stored once
   * after it: through memory, each grant's read-modify-write of the same
   * words would wait for the last one's store (the compiler cannot keep
   * them in registers across the stores of the grants, which may alias). */
  uint64_t arr0 = 0, arr1 = 0, inter_write = 0, inter_read = 0, intra = 0;
  for (uint64_t m = p->bank_req; m; m &= m - 1) {
    int b = __builtin_ctzll(m), nw = p->wq_n[b], nr = p->rq_n[b];
    if (p->bank_free[b] > now) {
      pipe_count_losers(p, b, p->holder_write[b], p->holder_cu[b]);
      continue;
    }
    granted = 1;
    p->bank_free[b] = now + 1;
    /* A write when writes go first, or when no read waits (the bank has a
     * request: then a write). */
    if (nw > 0 && (writes_first || nr == 0)) {
      int h = p->wq_head[b];
      wreq q = p->wq[b][h];
      p->wq_head[b] = (uint8_t)((h + 1) & (PIPE_WQ_CAP - 1));
      p->wq_n[b] = nw - 1;
      p->st.bank_writes[b]++;
      inter_write += (uint64_t)nr;
      pipe_write_done(p, &q);
      /* (Its completion may queue a technique's forced write.) */
      if (nr == 0 && p->wq_n[b] == 0) p->bank_req &= ~((uint64_t)1 << b);
      continue;
    }
    rreq *q = p->rq_first[b];
    int ci = q->cu, n = nr - 1;
    p->rq_n[b] = n;
    if (n) {
      uint64_t same = 0;
      for (int i = 1; i <= n; i++) same += q[i].cu == ci;
      intra += same;
      inter_read += (uint64_t)n - same;
      pipe_rq_advance(p, b, q, n);
    } else if (nw == 0) {
      p->bank_req &= ~((uint64_t)1 << b);
    }
    /* A collector's reads come no earlier than the last one granted, so
     * `at` is its arrival. Whether this was its last read is a coin toss to
     * the branch predictor: it joins the set without a branch, in the word
     * of its index (hi: all ones for the second). */
    cu *c = &p->c[ci];
    c->ready = at;
    const uint64_t bit = (uint64_t)(--c->pending == 0) << (ci & 63);
    if (two_words) {
      const uint64_t hi = 0 - (uint64_t)(ci >> 6);
      arr0 |= bit & ~hi;
      arr1 |= bit & hi;
    } else {
      arr0 |= bit;
    }
    p->st.bank_reads[b]++;
  }
  /* The collectors whose last read is granted now all arrive at `at` (the
   * clock only goes back with arb_plain off until the arrivals are folded
   * into cu_main): they join that cycle's set. */
  uint64_t *const arrive = p->arr[at & (PIPE_ARR_RING - 1)];
  arrive[0] |= arr0;
  if (two_words) arrive[1] |= arr1;
  p->st.conflicts_inter_write += inter_write;
  p->st.conflicts_inter_read += inter_read;
  p->st.conflicts_intra += intra;
  return granted;
}

/* arbitrate_plain for at most 64 collectors (the second word of the
 * arrival sets is never set), and for more. */
static int arbitrate_plain(gpurf_pipeline *p) { return arbitrate_plain_t(p, 0); }
static int arbitrate_plain_wide(gpurf_pipeline *p) { return arbitrate_plain_t(p, 1); }

/* One grant per bank per cycle (arbiter.c); a write granted in writeback
 * counts as this cycle's (granted). Slow writes, pending over cycles, need
 * the general loop. */
static inline void arbitrate(gpurf_pipeline *p, int granted) {
  if (p->arb_plain) {
    if (p->bank_req) granted |= p->n_cu > 64 ? arbitrate_plain_wide(p) : arbitrate_plain(p);
  } else {
    if (p->wpend_mask) pipe_writes_pending(p);
    if (p->bank_req) granted |= pipe_arbitrate_general(p);
  }
  p->st.arbiter_decisions += (uint64_t)granted;
  p->acted |= granted;
}

_Static_assert(PIPE_MAX_CU <= 128, "a result's seq has 7 bits for its collector");

/* Collector i (main unit of its instruction) goes to the pipeline of its
 * unit that has been free the longest, and its result into execution.
 * Collectors dispatch in order of index within a unit, and units in turn;
 * a result's seq, its place among results due in the same cycle, is its
 * dispatch cycle and then its collector: the order in which one pass over
 * all collectors by index would have dispatched them. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int dispatch_one(gpurf_ctx *ctx, gpurf_pipeline *p, int u, int i) {
  cu *c = &p->c[i];
  const cinst *in = c->in;
  /* The collector and the clock read before the stores below, which the
   * compiler cannot tell apart from them. */
  const uint64_t now = p->cycle, seq = (p->seq + now) << 7 | (uint64_t)i;
  const int lat = p->prm.latency[u] + c->lat_adj;
  const uint64_t ready = now + (uint64_t)(lat < 1 ? 1 : lat);
  p->acted = 1;
  {
    /* Operand fetch of a collector with reads, in whole cycles (the sums
     * are exact whatever the order of units). Whether it had reads is a
     * coin toss to the branch predictor: a collector without adds zeros. */
    const uint64_t had = 0 - (uint64_t)(c->n_reads > 0), got = (c->ready - c->issue) & had;
    p->st.fetch_instructions -= had;
    p->fetch_sum += got;
  }
  rfifo *f = &p->res[u];
  if (f->n == f->cap || ready < p->res_last[u]) {
    result r = {ready, seq, c->warp, in};
    int rc = pipe_res_push_slow(ctx, p, u, &r);
    if (rc != GPURF_OK) return rc;
  } else {
    /* The common case: room in the ring, and the result goes last. It may
     * come first only as the head of its unit, by ready or, at the same
     * ready, by seq (units take their collectors in turn, so seq does not
     * grow from unit to unit). */
    result *r = &f->r[(f->head + f->n++) & (f->cap - 1)];
    r->ready = ready, r->seq = seq, r->warp = c->warp, r->in = in;
    p->res_last[u] = ready;
    if (f->n == 1) {
      p->head_ready[u] = ready, p->head_seq[u] = seq;
      if (ready < p->res_next || (ready == p->res_next && seq < p->head_seq[p->res_unit]))
        p->res_next = ready, p->res_unit = u;
    }
  }
  /* Pipelines of a kind are alike and each is taken for `interval` cycles:
   * the one taken longest ago (unit_min_at) is free first, and the next in
   * turn becomes it. */
  uint64_t *uf = p->unit_free[u];
  int k = p->unit_min_at[u];
  uf[k] = now + (uint64_t)p->prm.interval[u];
  /* The next in turn, without a branch (with two pipelines it wraps every
   * other time): k + 1, or 0 when that is past the last. */
  k = (k + 1) & -(k + 1 < p->prm.units[u]);
  p->unit_min_at[u] = k;
  uint64_t lo = p->unit_min[u] = uf[k];
  if (u == GPURF_PIPELINE_UNIT_GLOBAL) {
    double start = p->global_free > (double)now ? p->global_free : (double)now;
    double g_f = p->global_free = start + in->bytes / p->prm.global_bytes_per_cycle;
    /* The first cycle whose number is not below global_free. */
    uint64_t g = g_f < 18446744073709549568.0 ? (uint64_t)g_f : UINT64_MAX;
    if ((double)g < g_f && g < UINT64_MAX) g++;
    if (g > lo) lo = g;
  }
  p->unit_open_at[u] = lo;
  for (int j = 0; j < c->n_extra; j++)
    p->cu_idle[c->extra[j] >> 6] |= (uint64_t)1 << (c->extra[j] & 63);
  p->cu_free[in->cu] += c->n_extra + 1;
  p->cu_idle[i >> 6] |= (uint64_t)1 << (i & 63);
  return GPURF_OK;
}

/* Unit u's wait set is about to change in cycle `now`: the cycles since
 * stall_since[u] are counted with the collectors that waited in them. */
static inline void stalls_flush(gpurf_pipeline *p, int u, uint64_t now) {
  p->st.dispatch_stalls[u] += (uint64_t)p->n_wait[u] * (now - p->stall_since[u]);
  p->stall_since[u] = now;
}

/* Collectors whose operands have arrived, of `m` (this cycle's arrivals
 * and cu_main), go to their unit, at once when none of their unit waits
 * before them and it is free (the common case), else into its wait set.
 * Returns those of cu_main still to arrive, and the first of their ready
 * in *next. (This cycle's arrivals have their ready now.) */
static inline uint64_t admit_word(gpurf_ctx *ctx, gpurf_pipeline *p, int word, uint64_t m,
                                  uint64_t now, uint64_t *next, int *rc) {
  uint64_t keep = 0;
  for (; m; m &= m - 1) {
    int i = __builtin_ctzll(m);
    const cu *c = &p->c[word * 64 + i];
    if (c->ready > now) {
      keep |= m & (0 - m);
      if (c->ready < *next) *next = c->ready;
      continue;
    }
    int u = c->unit;
    if (!(p->wait_units >> u & 1) && p->unit_open_at[u] <= now) {
      *rc = dispatch_one(ctx, p, u, word * 64 + i);
      if (*rc != GPURF_OK) return keep | (m & (m - 1)); /* (all there: they stay) */
      continue;
    }
    stalls_flush(p, u, now);
    p->cu_wait[u][word] |= (uint64_t)1 << i;
    p->n_wait[u]++;
    p->wait_units |= 1u << u;
    if (p->unit_open_at[u] < p->wake_at) p->wake_at = p->unit_open_at[u];
  }
  return keep;
}

/* Admission from this cycle's arrivals and cu_main (the collectors issued
 * without reads, and any left when the clock was set back); disp_at
 * becomes the first ready of those cu_main keeps. */
static int admit_ready(gpurf_ctx *ctx, gpurf_pipeline *p, uint64_t *slot) {
  const uint64_t now = p->cycle;
  uint64_t next = UINT64_MAX;
  const uint64_t m0 = slot[0] | p->cu_main[0], m1 = slot[1] | p->cu_main[1];
  slot[0] = slot[1] = 0;
  int rc = GPURF_OK;
  p->cu_main[0] = admit_word(ctx, p, 0, m0, now, &next, &rc);
  if (rc != GPURF_OK) {
    p->cu_main[1] = m1;
    return rc;
  }
  /* (Collectors past the 64th only exist with more than 64 of them.) */
  if (m1) p->cu_main[1] = admit_word(ctx, p, 1, m1, now, &next, &rc);
  p->disp_at = next;
  return rc;
}

/* Collectors with every operand go to a free pipeline of their unit, by
 * index; those left when their unit has none free stall (counted by the
 * cycle, see stall_since). Units are looked at only once one with waiting
 * collectors comes free. */
static int dispatch(gpurf_ctx *ctx, gpurf_pipeline *p) {
  const uint64_t now = p->cycle;
  uint64_t *slot = p->arr[now & (PIPE_ARR_RING - 1)];
  if ((slot[0] | slot[1]) || p->disp_at <= now) {
    int rc = admit_ready(ctx, p, slot);
    if (rc != GPURF_OK) return rc;
  }
  if (p->wake_at > now) return GPURF_OK;
  uint64_t wake = UINT64_MAX;
  for (unsigned um = p->wait_units; um; um &= um - 1) {
    int u = __builtin_ctz(um);
    if (p->unit_open_at[u] <= now) {
      stalls_flush(p, u, now);
      uint64_t *wm = p->cu_wait[u];
      do {
        int word = wm[0] ? 0 : 1, i = __builtin_ctzll(wm[word]);
        int rc = dispatch_one(ctx, p, u, word * 64 + i);
        if (rc != GPURF_OK) return rc;
        wm[word] &= ~((uint64_t)1 << i);
        if (--p->n_wait[u] == 0) {
          p->wait_units &= ~(1u << u);
          break;
        }
      } while (p->unit_open_at[u] <= now);
      if (!p->n_wait[u]) continue;
    }
    if (p->unit_open_at[u] < wake) wake = p->unit_open_at[u];
  }
  p->wake_at = wake;
  return GPURF_OK;
}

/* One warp per cycle refills its instruction buffer, round robin over the
 * warps whose buffer has room. */
static void fetch(gpurf_pipeline *p) {
  uint64_t m = p->want_fetch;
  if (!m) return;
  p->acted = 1;
  uint64_t after = m & ~p->fetch_done;
  int slot = __builtin_ctzll(after ? after : m);
  warp *w = &p->w[slot];
  uint32_t left = w->n - w->pc;
  w->ib = left < (uint32_t)p->prm.ibuffer_depth ? left : (uint32_t)p->prm.ibuffer_depth;
  /* Only a buffer stall depends on the buffer: a barrier is checked before
   * it, and a scoreboard stall was found with instructions in it. Whether
   * the warp waited for it is a coin toss to the branch predictor, so
   * pipe_why(p, w, -1) is done by masks, a no-op when it did not. */
  _Static_assert(GPURF_PIPELINE_STALL_IDLE == GPURF_PIPELINE_STALL_IBUFFER + 1, "one test for both");
  const int why = w->why, hit = (unsigned)(why - GPURF_PIPELINE_STALL_IBUFFER) <= 1;
  const uint64_t keep = ~((uint64_t)hit << slot);
  warp_sets *s = &p->ws;
  s->held_by[why & -hit] &= keep; /* (held_by[0] &= ~0 when not) */
  s->closed &= keep;
  w->why = why | -hit; /* -1 when hit */
  p->want_fetch &= ~((uint64_t)1 << slot);
  p->fetch_done = ((uint64_t)2 << slot) - 1; /* slot 63: all */
}

static inline int cycle(gpurf_ctx *ctx, gpurf_pipeline *p) {
  int granted = 0;
  int rc = writeback(ctx, p, &granted);
  if (rc != GPURF_OK) return rc;
  arbitrate(p, granted);
  if ((rc = dispatch(ctx, p)) != GPURF_OK) return rc;
  pipe_issue(p);
  fetch(p);
  p->cycle++;
  return GPURF_OK;
}

/* Cycles while no CTA is to be admitted and some remain, stopping with an
 * error where the SM is stuck (no progress for `limit` cycles) or
 * max_cycles (0: none) have passed since `start`. After a cycle that moved
 * nothing the cycles up to the next event are skipped (idle.c), to the very
 * cycle where either check would have stopped. */
int pipe_run_cycles(gpurf_ctx *ctx, gpurf_pipeline *p, uint64_t limit, uint64_t start,
                    uint64_t max_cycles) {
  /* The cycle at which max_cycles have passed (none: never). */
  const uint64_t stop =
      max_cycles && start + max_cycles >= start ? start + max_cycles : UINT64_MAX;
  /* Whether to stay is looked at after the first cycle, and after those in
   * which a warp finished: nothing else changes it. */
  p->warp_finished = 1;
  p->check_at = 0;
  for (;;) {
    uint64_t until = 0;
    if (!p->acted && p->can_skip && pipe_admit_idle(p)) {
      until = pipe_next_event(p);
      uint64_t cap = p->last_progress + limit + 1;
      if (stop < cap) cap = stop;
      if (until > cap) until = cap;
      if (until > p->cycle + 1)
        pipe_quiet_get(p);
      else
        until = 0;
    }
    p->acted = 0;
    int rc = cycle(ctx, p);
    if (rc != GPURF_OK) return rc;
    if (until && !p->acted) pipe_quiet_repeat(p, until - p->cycle);
    if (p->cycle < p->check_at) continue;
    if (p->cycle - p->last_progress > limit)
      return gpurf_fail(ctx, GPURF_EINVAL,
                        "the SM made no progress for %llu cycles (cycle %llu): a barrier "
                        "that cannot be met, or a technique that never lets a warp issue",
                        (unsigned long long)limit, (unsigned long long)p->cycle);
    if (p->cycle >= stop)
      return gpurf_fail(ctx, GPURF_ERANGE, "stopped after %llu cycles",
                        (unsigned long long)max_cycles);
    uint64_t stuck_at = p->last_progress + limit + 1;
    p->check_at = stuck_at < stop ? stuck_at : stop;
    if (!p->warp_finished) continue;
    p->warp_finished = 0;
    /* Back to the feed once pipe_admit_idle() fails or no CTA remains:
     * feed.c keeps feed_due so as a CTA leaves. */
    if (p->feed_due) return GPURF_OK;
  }
}
