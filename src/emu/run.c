/* Running a program: the host thread from the ELF entry, SIMT launches on
 * its request, and the accessors tests and the CLI use afterwards. */
#include <string.h>

#include "emu/emu_internal.h"

static void reset_run(gpurf_emu *e) {
  memset(&e->res, 0, sizeof e->res);
  e->uart_pos = 0;
  e->out_len = 0;
  if (e->out) e->out[0] = '\0';
  e->q_head = e->q_len = 0;
  e->finished = 0;
  e->exit_code = 0;
  e->steps = 0;
  e->fault = 0;
}

int gpurf_emu_run(gpurf_ctx *ctx, gpurf_emu *e, gpurf_emu_result *out) {
  reset_run(e);
  emu_warp *h = e->host;
  emu_warp_reset(h, GPURF_EMU_ENTRY, GPURF_EMU_HOST_SP, 1);
  while (!e->finished) {
    if (e->steps >= e->step_limit) {
      emu_set_fault(e, h->cur_pc, "ran past the step limit of %llu warp instructions",
                    (unsigned long long)e->step_limit);
      return emu_fail_fault(ctx, e);
    }
    e->launch_pending = 0;
    uint32_t pc = h->cur_pc;
    if (emu_exec(e, h, EMU_HOST_WARP, 1) != EXEC_OK) return emu_fail_fault(ctx, e);
    e->steps++;
    e->res.host_instructions++;
    if (e->launch_pending) {
      int failed = 0;
      e->launch_closure = e->closure;
      int rc = emu_run_launch(ctx, e, e->launch_pc, e->wpb_csr, &failed);
      if (rc) return rc;
      if (e->q_len == EMU_QUEUE) {
        emu_set_fault(e, pc, "SIMT result queue full (%d entries unread)", EMU_QUEUE);
        return emu_fail_fault(ctx, e);
      }
      e->queue[(e->q_head + e->q_len++) % EMU_QUEUE] = failed ? 1u : 0u;
    }
  }
  e->res.exit_code = e->exit_code;
  if (out) *out = e->res;
  return GPURF_OK;
}

int gpurf_emu_launch(gpurf_ctx *ctx, gpurf_emu *e, uint32_t pc, uint32_t wpb, uint32_t closure,
                     gpurf_emu_result *out) {
  reset_run(e);
  e->launch_closure = closure;
  int failed = 0;
  int rc = emu_run_launch(ctx, e, pc, wpb, &failed);
  if (rc) return rc;
  e->res.exit_code = failed ? 1u : 0u;
  if (out) *out = e->res;
  return GPURF_OK;
}

uint32_t gpurf_emu_reg(const gpurf_emu *e, uint32_t warp, uint32_t lane, uint32_t reg) {
  if (warp >= e->cfg.warps || lane >= EMU_LANES || reg >= 32) return 0;
  return e->warps[warp].x[reg][lane];
}

int gpurf_emu_read32(gpurf_ctx *ctx, gpurf_emu *e, uint32_t addr, uint32_t *value) {
  uint8_t *p = emu_mem(e, 0, addr, 4, 1);
  if (!p) return gpurf_fail(ctx, GPURF_ERANGE, "no memory at 0x%08x", addr);
  memcpy(value, p, 4);
  return GPURF_OK;
}

int gpurf_emu_write32(gpurf_ctx *ctx, gpurf_emu *e, uint32_t addr, uint32_t value) {
  uint8_t *p = emu_mem(e, 0, addr, 4, 1);
  if (!p) return gpurf_fail(ctx, GPURF_ERANGE, "no memory at 0x%08x", addr);
  memcpy(p, &value, 4);
  uint32_t off = addr - GPURF_EMU_CODE_BASE;
  if (off < EMU_CODE_BYTES) e->code[off >> 2].op = OP_UNDECODED;
  return GPURF_OK;
}

int gpurf_emu_load_words(gpurf_ctx *ctx, gpurf_emu *e, uint32_t addr, const uint32_t *words,
                         size_t n) {
  for (size_t i = 0; i < n; i++) {
    int rc = gpurf_emu_write32(ctx, e, addr + 4u * (uint32_t)i, words[i]);
    if (rc) return rc;
  }
  return GPURF_OK;
}

const char *gpurf_emu_output(const gpurf_emu *e, size_t *len) {
  if (len) *len = e->out_len;
  return e->out ? e->out : "";
}
