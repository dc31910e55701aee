/* The emulator handle, the choice of active lanes, and the SIMT launch: the
 * warps of one block (warps per block as the host set it) run round-robin
 * until each has terminated, waiting warps released when every live warp of
 * the block is at the barrier; blocks run one after another, so a trace
 * holds each block's warps contiguously. */
#include <stdlib.h>
#include <string.h>

#include "emu/emu_internal.h"

/* Warp instructions a warp runs before the next warp of its block gets a
 * turn; any fixed value gives the same results. */
#define SLICE 64

int gpurf_emu_alloc(gpurf_ctx *ctx, const gpurf_emu_config *cfg, gpurf_emu **out) {
  *out = NULL;
  if (!cfg || cfg->warps < 1 || cfg->warps > GPURF_EMU_MAX_WARPS)
    return gpurf_fail(ctx, GPURF_EINVAL, "warps must be 1..%d", GPURF_EMU_MAX_WARPS);
  if (cfg->reconv != GPURF_EMU_RECONV_MARKERS && cfg->reconv != GPURF_EMU_RECONV_MINPC)
    return gpurf_fail(ctx, GPURF_EINVAL, "unknown reconvergence rule");
  gpurf_emu *e = calloc(1, sizeof *e);
  if (!e) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  e->cfg = *cfg;
  e->step_limit = cfg->step_limit ? cfg->step_limit : (uint64_t)1 << 32;
  e->code = calloc(EMU_CODE_BYTES / 4, sizeof *e->code);
  e->warps = calloc((size_t)cfg->warps + 1, sizeof *e->warps);
  if (!e->code || !e->warps || emu_mem_alloc(e)) {
    gpurf_emu_free(e);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  }
  e->host = &e->warps[cfg->warps];
  strcpy(e->file, "program");
  *out = e;
  return GPURF_OK;
}

void gpurf_emu_free(gpurf_emu *e) {
  if (!e) return;
  emu_mem_free(e);
  free(e->code);
  free(e->warps);
  free(e->out);
  free(e);
}

void gpurf_emu_set_step_hook(gpurf_emu *e, gpurf_emu_step_fn fn, void *user) {
  e->hook = fn;
  e->hook_user = user;
}

void gpurf_emu_set_launch_hook(gpurf_emu *e, gpurf_emu_launch_fn fn, void *user) {
  e->launch_hook = fn;
  e->launch_user = user;
}

void gpurf_emu_set_recorder(gpurf_emu *e, const gpurf_emu_recorder *rec, void *user) {
  e->rec = rec;
  e->rec_user = user;
}

void emu_warp_reset(emu_warp *w, uint32_t pc, uint32_t sp, uint32_t lanes) {
  memset(w, 0, sizeof *w);
  uint32_t mask = lanes >= 32 ? 0xFFFFFFFFu : (1u << lanes) - 1u;
  for (uint32_t l = 0; l < EMU_LANES; l++) {
    w->pc[l] = pc;
    w->x[2][l] = sp;
  }
  w->live = w->active = mask;
  w->cur_pc = pc;
  w->cmd = -1;
}

/* Active lanes: the live lanes at the deepest nesting level whose PC equals
 * the leader's; the leader is the lowest lane (markers) or the lane at the
 * lowest PC (min-PC). Per-lane pc/nest must be current for all live lanes. */
void emu_select(const gpurf_emu *e, emu_warp *w) {
  uint32_t live = w->live;
  if (!live) {
    w->active = 0;
    return;
  }
  uint32_t deep = 0, first = 1;
  for (uint32_t mm = live; mm; mm &= mm - 1) {
    uint32_t l = (uint32_t)__builtin_ctz(mm);
    if (first || w->nest[l] > deep) deep = w->nest[l], first = 0;
  }
  uint32_t lead_pc = 0;
  first = 1;
  for (uint32_t mm = live; mm; mm &= mm - 1) {
    uint32_t l = (uint32_t)__builtin_ctz(mm);
    if (w->nest[l] != deep) continue;
    if (first) {
      lead_pc = w->pc[l], first = 0;
      if (e->cfg.reconv == GPURF_EMU_RECONV_MARKERS) break;
    } else if (w->pc[l] < lead_pc) {
      lead_pc = w->pc[l];
    }
  }
  uint32_t act = 0;
  for (uint32_t mm = live; mm; mm &= mm - 1) {
    uint32_t l = (uint32_t)__builtin_ctz(mm);
    if (w->nest[l] == deep && w->pc[l] == lead_pc) act |= 1u << l;
  }
  w->active = act;
  w->cur_pc = lead_pc;
  w->cur_nest = deep;
}

int emu_fail_fault(gpurf_ctx *ctx, gpurf_emu *e) {
  int rc = gpurf_fail_at(ctx, GPURF_EINVAL, e->file, 0, 0, NULL, "PC 0x%08x: %s", e->fault_pc,
                         e->fault_msg);
  e->fault = 0;
  return rc;
}

static int step_limit(gpurf_ctx *ctx, gpurf_emu *e, uint32_t pc) {
  emu_set_fault(e, pc, "ran past the step limit of %llu warp instructions",
                (unsigned long long)e->step_limit);
  return emu_fail_fault(ctx, e);
}

/* Runs warp wi until it terminates, waits at a barrier or used its slice. */
static int run_warp(gpurf_ctx *ctx, gpurf_emu *e, uint32_t wi, int *failed) {
  emu_warp *w = &e->warps[wi];
  for (int s = 0; s < SLICE; s++) {
    if (e->steps >= e->step_limit) return step_limit(ctx, e, w->cur_pc);
    uint32_t pc = w->cur_pc, m = w->active;
    int r = emu_exec(e, w, wi, 0);
    if (r == EXEC_FAULT) return emu_fail_fault(ctx, e);
    e->steps++;
    e->res.warp_instructions++;
    e->res.thread_instructions += (uint64_t)__builtin_popcount(m);
    if (m != 0xFFFFFFFFu) e->res.divergent_steps++;
    if (e->hook) e->hook(e->hook_user, wi, pc, m);
    if (r == EXEC_TERMINATE) {
      if (w->cmd == 1) *failed = 1;
      w->live = w->active = 0;
      return GPURF_OK;
    }
    if (r == EXEC_BARRIER) {
      w->waiting = 1;
      return GPURF_OK;
    }
  }
  return GPURF_OK;
}

int emu_run_launch(gpurf_ctx *ctx, gpurf_emu *e, uint32_t pc, uint32_t wpb, int *failed_out) {
  uint32_t nw = e->cfg.warps;
  if (wpb == 0 || wpb > nw) wpb = nw;
  if (nw % wpb)
    return gpurf_fail_at(ctx, GPURF_EINVAL, e->file, 0, 0, NULL,
                         "%u warps per block do not divide the %u warps of the core", wpb, nw);
  e->launch_wpb = wpb;
  e->res.kernels++;
  if (e->launch_hook) e->launch_hook(e->launch_user, 1);
  if (e->rec && e->rec->launch_begin && e->rec->launch_begin(e->rec_user, nw, wpb))
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory recording the trace");
  int failed = 0;
  uint32_t groups = nw / wpb;
  for (uint32_t g = 0; g < groups; g++) {
    uint32_t w0 = g * wpb;
    for (uint32_t i = 0; i < wpb; i++) emu_warp_reset(&e->warps[w0 + i], pc, GPURF_EMU_SIMT_SP, 32);
    for (;;) {
      int live = 0, ran = 0;
      for (uint32_t i = 0; i < wpb; i++) {
        emu_warp *w = &e->warps[w0 + i];
        if (!w->live) continue;
        live = 1;
        if (w->waiting) continue;
        int rc = run_warp(ctx, e, w0 + i, &failed);
        if (rc) return rc;
        ran = 1;
      }
      if (!live) break;
      if (!ran)
        for (uint32_t i = 0; i < wpb; i++) e->warps[w0 + i].waiting = 0;
    }
    if (e->rec && e->rec->block_end) {
      int rc = e->rec->block_end(ctx, e->rec_user, w0, g);
      if (rc) return rc;
    }
  }
  if (e->rec && e->rec->launch_end) {
    int rc = e->rec->launch_end(ctx, e->rec_user);
    if (rc) return rc;
  }
  if (e->launch_hook) e->launch_hook(e->launch_user, 0);
  if (failed) e->res.kernel_failures++;
  *failed_out = failed;
  return GPURF_OK;
}
