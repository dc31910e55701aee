/* Idle cycles: after a cycle in which nothing moved (every hook the
 * baseline's), the cycles up to the next event are all alike. One more is
 * simulated to learn what each adds to the counters, and the rest are
 * added at once. */
#include <string.h>

#include "pipeline/core_internal.h"

/* The first cycle from p->cycle on in which a quiet SM (the last cycle
 * moved nothing) may move again: a result falling due, a bank coming free
 * for its queued requests or finishing a slow write, a collector's operands
 * arriving or its unit coming free. Issue, fetch and the two-level sets only
 * change after one of these. Earlier is always safe: it only skips less. */
uint64_t pipe_next_event(const gpurf_pipeline *p) {
  uint64_t now = p->cycle, t = UINT64_MAX;
#define EVENT_AT(x)                  \
  do {                               \
    uint64_t x_ = (x);               \
    if (x_ >= now && x_ < t) t = x_; \
  } while (0)
  EVENT_AT(p->res_next); /* UINT64_MAX when none */
  for (uint64_t m = p->wpend_mask; m; m &= m - 1) EVENT_AT(p->bank_free[__builtin_ctzll(m)] - 1);
  for (uint64_t m = p->bank_req; m; m &= m - 1) EVENT_AT(p->bank_free[__builtin_ctzll(m)]);
  /* A read beside a held write (the share hook) frees its sub-array. */
  if (p->hk.share)
    for (uint64_t m = p->bank_req; m; m &= m - 1) EVENT_AT(p->share_free[__builtin_ctzll(m)]);
  /* A collector's operands arriving, or its unit coming free (for one
   * whose operands are still on their way too: earlier is safe). */
  unsigned units = p->wait_units;
  for (int word = 0; word < 2; word++) {
    /* (Arrivals kept by cycle are at most read_cycles ahead.) */
    uint64_t arriving = p->cu_main[word];
    for (uint64_t at = now; at <= now + (uint64_t)p->prm.read_cycles; at++)
      arriving |= p->arr[at & (PIPE_ARR_RING - 1)][word];
    for (uint64_t m = arriving; m; m &= m - 1) {
      const cu *c = &p->c[word * 64 + __builtin_ctzll(m)];
      EVENT_AT(c->ready);
      units |= 1u << c->unit;
    }
  }
  for (; units; units &= units - 1) {
    int u = __builtin_ctz(units);
    EVENT_AT(p->unit_min[u]);
    if (u == GPURF_PIPELINE_UNIT_GLOBAL && p->global_free >= (double)now) {
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

/* Notes the counters before a quiet cycle. */
void pipe_quiet_get(gpurf_pipeline *p) {
  pipe_quiet *q = &p->quiet;
  memcpy(q->stalls, p->st.stalls, sizeof q->stalls);
  q->inter_read = p->st.conflicts_inter_read;
  q->inter_write = p->st.conflicts_inter_write;
  q->intra = p->st.conflicts_intra;
}

/* Repeats n more times what the quiet cycle since pipe_quiet_get added. */
void pipe_quiet_repeat(gpurf_pipeline *p, uint64_t n) {
  const pipe_quiet *q = &p->quiet;
  gpurf_pipeline_stats *s = &p->st;
  for (int i = 0; i < GPURF_PIPELINE_MAX_STALLS; i++)
    s->stalls[i] += n * (s->stalls[i] - q->stalls[i]);
  s->conflicts_inter_read += n * (s->conflicts_inter_read - q->inter_read);
  s->conflicts_inter_write += n * (s->conflicts_inter_write - q->inter_write);
  s->conflicts_intra += n * (s->conflicts_intra - q->intra);
  p->cycle += n;
}
