/* Issue: a warp's verdict on its next instruction (the scoreboard, the
 * instruction buffer, barriers), and the issue's rare parts and its out of
 * line form; the issue itself, which takes collector units and queues the
 * operand reads at their banks, is pipe_issue_inl and, on the baseline's
 * path, pipe_issue_base (sched_internal.h). */
#include "pipeline/sched_internal.h"

int pipe_sb_hit(const uint64_t *sb, int reg) { return (int)(sb[reg >> 6] >> (reg & 63) & 1u); }

/* pipe_blocked() for a warp whose verdict is not known. */
int pipe_blocked_eval(gpurf_pipeline *p, warp *w, int *reg) {
  pipe_judge(p, w);
  *reg = w->why_reg;
  if (w->why != WHY_SB_PASSED) return w->why;
  return p->cu_free[w->next_cu] < w->next_ncu ? GPURF_PIPELINE_STALL_COLLECTOR : -1;
}

/* The collector units of an instruction that needs k > 1 of them, the
 * class's idle ones, lowest index first; returns the main one. */
PIPE_NOINLINE int pipe_cu_take_wide(gpurf_pipeline *p, int cls, int k) {
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
      k--;
      p->cu_free[cls]--;
    }
  return main_cu;
}

/* pipe_why(p, w, -1) apart, for the rare callers in the issue path. */
PIPE_NOINLINE void pipe_why_reset(gpurf_pipeline *p, warp *w) { pipe_why(p, w, -1); }

/* The operand reads of collector main_cu through the map hook; a read the
 * technique serves (no bank) arrives as a conflict-free bank read would,
 * read_cycles after the next arbitration. */
PIPE_NOINLINE void pipe_reads_hooked(gpurf_pipeline *p, const warp *w, const cinst *in,
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
    c->pending++;
    c->n_reads++;
  }
}

/* A barrier instruction: the warp waits until every live warp of its CTA
 * has arrived; the last to arrive releases them all. */
PIPE_NOINLINE void pipe_barrier_arrive(gpurf_pipeline *p, warp *w) {
  cta_state *cs = &p->cta[w->cta];
  w->at_barrier = 1;
  if (++cs->arrived >= cs->live_warps) {
    for (int s = 0; s < GPURF_PIPELINE_MAX_WARPS; s++)
      if (p->w[s].live && p->w[s].cta == w->cta) p->w[s].at_barrier = 0, pipe_why(p, &p->w[s], -1);
    cs->arrived = 0;
  }
}

void pipe_issue_warp(gpurf_pipeline *p, int slot, int lat_adj) { pipe_issue_inl(p, slot, lat_adj); }

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
