/* One SM cycle, stages in reverse order so that an instruction moves one
 * stage per cycle: results onto the result bus and into bank write queues,
 * bank arbitration (writes and operand reads), dispatch from collectors to
 * execution units, issue, fetch. */
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

/* Results whose latency has passed take the result bus, in order, while
 * the banks they write have room in their queues. */
static int writeback(gpurf_ctx *ctx, gpurf_pipeline *p) {
  int bus = p->prm.result_bus_width;
  uint64_t now = p->cycle;
  /* res_next is the first result's ready: the loop stops at the first
   * result not yet due. */
  while (p->res_next <= now) {
    int u = p->res_unit;
    const result *rp = &p->res[u].r[p->res[u].head];
    int ws = rp->warp;
    const cinst *in = rp->in;
    p->acted = 1;
    if (in->n_dst == 0) {
      pipe_res_pop(p, u);
      pipe_retire(p, ws);
      continue;
    }
    if (bus == 0) break;
    if (p->base_bank && in->n_dst == 1) {
      /* The common case of the loops below: one register to its bank, and
       * the instruction retires with that write (no slot to count down). */
      int b = pipe_base_bank(p, ws, in->dst[0]);
      if (p->wq_n[b] == PIPE_WQ_CAP) break;
      pipe_res_pop(p, u);
      bus--;
      *pipe_wq(p, b, p->wq_n[b]++) = (wreq){in->dst[0], (uint8_t)ws, PIPE_SLOT_SOLE, now};
      p->bank_req |= (uint64_t)1 << b;
      continue;
    }
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
    if (!room) break;
    pipe_res_pop(p, u);
    bus--;
    int writes = 0;
    for (int i = 0; i < in->n_dst; i++)
      if (bank[i] >= 0)
        writes++;
      else
        pipe_sb_clear(p, w, in->dst[i]);
    if (writes == 0) {
      pipe_retire(p, ws);
      continue;
    }
    int s = pipe_slot_get(ctx, p, ws, writes);
    if (s < 0) return s;
    for (int i = 0; i < in->n_dst; i++) {
      if (bank[i] < 0) continue;
      *pipe_wq(p, bank[i], p->wq_n[bank[i]]++) = (wreq){in->dst[i], (uint8_t)ws, s, now};
      p->bank_req |= (uint64_t)1 << bank[i];
    }
  }
  return GPURF_OK;
}

/* Collectors of cu_main whose operands have arrived join their unit's
 * wait set; disp_at becomes the first arrival still to come. */
static void admit_ready(gpurf_pipeline *p) {
  uint64_t now = p->cycle, next = UINT64_MAX;
  for (int word = 0; word < 2; word++)
    for (uint64_t m = p->cu_main[word]; m; m &= m - 1) {
      int i = __builtin_ctzll(m);
      const cu *c = &p->c[word * 64 + i];
      if (c->ready > now) {
        if (c->ready < next) next = c->ready;
        continue;
      }
      p->cu_main[word] &= ~((uint64_t)1 << i);
      p->cu_wait[c->unit][word] |= (uint64_t)1 << i;
      p->n_wait[c->unit]++;
      p->wait_units |= 1u << c->unit;
    }
  p->disp_at = next;
}

/* Whether a pipeline of unit u can take an instruction this cycle. */
static inline int unit_open(const gpurf_pipeline *p, int u, uint64_t now) {
  return p->unit_min[u] <= now &&
         (u != GPURF_PIPELINE_UNIT_GLOBAL || !(p->global_free > (double)now));
}

_Static_assert(PIPE_MAX_CU <= 128, "a result's seq has 7 bits for its collector");

/* Collector i (main unit of its instruction) goes to the pipeline of its
 * unit that has been free the longest, and its result into execution.
 * Collectors dispatch in order of index within a unit, and units in turn;
 * a result's seq, its place among results due in the same cycle, is its
 * dispatch cycle and then its collector: the order in which one pass over
 * all collectors by index would have dispatched them. */
static int dispatch_one(gpurf_ctx *ctx, gpurf_pipeline *p, int u, int i) {
  cu *c = &p->c[i];
  const cinst *in = c->in;
  uint64_t now = p->cycle;
  int k = p->unit_min_at[u];
  p->acted = 1;
  p->unit_free[u][k] = now + (uint64_t)p->prm.interval[u];
  uint64_t lo = p->unit_free[u][0];
  int at = 0;
  for (int j = 1; j < p->prm.units[u]; j++)
    if (p->unit_free[u][j] < lo) lo = p->unit_free[u][j], at = j;
  p->unit_min[u] = lo, p->unit_min_at[u] = at;
  if (u == GPURF_PIPELINE_UNIT_GLOBAL) {
    double start = p->global_free > (double)now ? p->global_free : (double)now;
    p->global_free = start + in->bytes / p->prm.global_bytes_per_cycle;
  }
  if (c->n_reads > 0) {
    /* Whole cycle counts: the sums are exact whatever the order of units. */
    double got = (double)(c->ready - c->issue), ideal = 1.0 + p->prm.read_cycles;
    p->st.fetch_instructions++;
    p->fetch_sum += got;
    p->fetch_pen_sum += got - ideal;
  }
  int lat = p->prm.latency[u] + c->lat_adj;
  result r = {now + (uint64_t)(lat < 1 ? 1 : lat), (p->seq + now) << 7 | (uint64_t)i, c->warp,
              in};
  int rc = pipe_res_push(ctx, p, u, &r);
  if (rc != GPURF_OK) return rc;
  for (int j = 0; j < c->n_extra; j++)
    p->cu_idle[c->extra[j] >> 6] |= (uint64_t)1 << (c->extra[j] & 63);
  p->cu_free[in->cu] += c->n_extra + 1;
  p->cu_idle[i >> 6] |= (uint64_t)1 << (i & 63);
  return GPURF_OK;
}

/* Collectors with every operand go to a free pipeline of their unit, by
 * index; those left when their unit has none free stall. Only units with
 * waiting collectors are looked at. */
static int dispatch(gpurf_ctx *ctx, gpurf_pipeline *p) {
  uint64_t now = p->cycle;
  if (p->disp_at <= now) admit_ready(p);
  for (unsigned um = p->wait_units; um; um &= um - 1) {
    int u = __builtin_ctz(um);
    while (unit_open(p, u, now)) {
      uint64_t *wm = p->cu_wait[u];
      int word = wm[0] ? 0 : 1, i = __builtin_ctzll(wm[word]);
      int rc = dispatch_one(ctx, p, u, word * 64 + i);
      if (rc != GPURF_OK) return rc;
      wm[word] &= ~((uint64_t)1 << i);
      if (--p->n_wait[u] == 0) {
        p->wait_units &= ~(1u << u);
        break;
      }
    }
    p->st.dispatch_stalls[u] += (uint64_t)p->n_wait[u];
  }
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
  pipe_arbitrate(p);
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
  /* A collector's operands arriving, or its unit coming free (for one
   * whose operands are still on their way too: earlier is safe). */
  unsigned units = p->wait_units;
  for (int word = 0; word < 2; word++)
    for (uint64_t m = p->cu_main[word]; m; m &= m - 1) {
      const cu *c = &p->c[word * 64 + __builtin_ctzll(m)];
      EVENT_AT(c->ready);
      units |= 1u << c->unit;
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
