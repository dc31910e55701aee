/* Issue: a warp's verdict on its next instruction (the scoreboard, the
 * instruction buffer, barriers), and the issue itself, which takes
 * collector units and queues the operand reads at their banks. */
#include "pipeline/sched_internal.h"

int pipe_sb_hit(const uint64_t *sb, int reg) { return (int)(sb[reg >> 6] >> (reg & 63) & 1u); }

int pipe_sb_first(const warp *w, const cinst *in) {
  for (int i = 0; i < in->n_src; i++)
    if (pipe_sb_hit(w->sb, in->src[i])) return in->src[i];
  for (int i = 0; i < in->n_dst; i++)
    if (pipe_sb_hit(w->sb, in->dst[i])) return in->dst[i];
  return -1;
}

/* pipe_blocked() for a warp whose verdict is not known. */
int pipe_blocked_eval(gpurf_pipeline *p, warp *w, int *reg) {
  pipe_judge(p, &p->s[w->si], w);
  *reg = w->why_reg;
  if (w->why != WHY_SB_PASSED) return w->why;
  return p->cu_free[w->next_cu] < w->next_ncu ? GPURF_PIPELINE_STALL_COLLECTOR : -1;
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
static inline void reads_hooked(gpurf_pipeline *p, const warp *w, const cinst *in,
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

/* The issue: the warp's pc and buffer move on, the instruction takes its
 * collector units and queues its operand reads, its destinations go on the
 * scoreboard, and the warp's next instruction is judged at once. */
void pipe_issue_warp(gpurf_pipeline *p, int slot, int lat_adj) {
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
    uint64_t breq = p->bank_req;
    rreq t = {(int16_t)main_cu, 0, (uint8_t)slot, now};
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
  if (w->why < 0) pipe_judge(p, s, w);
}

int gpurf_pipeline_can_issue(gpurf_pipeline *p, int wslot) {
  int reg;
  if (!p || wslot < 0 || wslot >= GPURF_PIPELINE_MAX_WARPS || !p->w[wslot].live) return 0;
  return pipe_blocked(p, &p->w[wslot], &reg) < 0;
}

int gpurf_pipeline_issue_extra(gpurf_pipeline *p, int slot) {
  if (!p || slot < 0 || slot >= GPURF_PIPELINE_MAX_WARPS || !p->w[slot].live)
    return GPURF_EINVAL;
  int reg;
  if (pipe_blocked(p, &p->w[slot], &reg) >= 0) return GPURF_ERANGE;
  pipe_issue_warp(p, slot, 0);
  return GPURF_OK;
}
