/* The baseline register file as a hook table: every simulation, baseline
 * or technique, runs through the same five hook points. */
#include "pipeline/pipe_internal.h"

static int base_select(void *state, gpurf_pipeline *p, const gpurf_pipeline_select *s) {
  (void)state, (void)p;
  return s->candidate;
}

/* Writes first (GPGPU-Sim gives a bank doing a write priority), each class
 * oldest first; queues are kept in arrival order, so ties go to the first. */
static int base_arbitrate(void *state, gpurf_pipeline *p, int bank, const gpurf_pipeline_req *reqs,
                          int n) {
  (void)state, (void)bank;
  int want_write = !p->prm.reads_first, best = -1;
  for (int pass = 0; pass < 2 && best < 0; pass++, want_write = !want_write)
    for (int i = 0; i < n; i++)
      if (reqs[i].is_write == want_write && (best < 0 || reqs[i].age < reqs[best].age)) best = i;
  return best;
}

static int base_map(void *state, gpurf_pipeline *p, int wslot, uint32_t gwarp, int reg,
                    int is_write) {
  (void)state, (void)gwarp, (void)is_write;
  if (p->prm.bank_map == GPURF_PIPELINE_MAP_REG) return reg % p->prm.banks;
  return (reg + wslot) % p->prm.banks;
}

static gpurf_pipeline_wb base_writeback(void *state, gpurf_pipeline *p, int wslot, int reg) {
  (void)state, (void)p, (void)wslot, (void)reg;
  return GPURF_PIPELINE_WB_BANK;
}

/* Two-level (Gebhart et al., ISCA 2011): a warp leaves the active set when
 * it waits on a long-latency result. */
static int base_demote(void *state, gpurf_pipeline *p, int wslot, int reg, int long_latency) {
  (void)state, (void)p, (void)wslot, (void)reg;
  return long_latency;
}

/* Pending warps queue in order of demotion: the head enters (round robin). */
static int base_promote(void *state, gpurf_pipeline *p, int scheduler, const int *pending, int n) {
  (void)state, (void)p, (void)scheduler, (void)pending, (void)n;
  return 0;
}

static const gpurf_pipeline_hooks baseline = {"baseline",     NULL,           NULL,
                                              base_select,    base_arbitrate, base_map,
                                              base_writeback, base_demote,    base_promote,
                                              NULL,           NULL,           NULL,
                                              NULL,           NULL,           NULL};

const gpurf_pipeline_hooks *gpurf_pipeline_baseline_hooks(void) { return &baseline; }
