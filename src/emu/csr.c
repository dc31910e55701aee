/* SIMTight's CSR interface. The host side talks to the UART and to the
 * SIMT core's host port (launch, warps per block, closure, result queue);
 * the SIMT side has the hart id, the kernel closure and the warp command.
 * Both see the cycle counters and the simulation emit/finish CSRs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_internal.h"

static int out_append(gpurf_emu *e, const char *s, size_t n) {
  if (e->out_len + n + 1 > e->out_cap) {
    size_t cap = e->out_cap ? e->out_cap : 256;
    while (cap < e->out_len + n + 1) cap *= 2;
    char *p = realloc(e->out, cap);
    if (!p) return -1;
    e->out = p, e->out_cap = cap;
  }
  memcpy(e->out + e->out_len, s, n);
  e->out_len += n;
  e->out[e->out_len] = '\0';
  return 0;
}

static int queue_push(gpurf_emu *e, uint32_t v, uint32_t pc) {
  if (e->q_len == EMU_QUEUE)
    return emu_set_fault(e, pc, "SIMT result queue full (%d entries unread)", EMU_QUEUE);
  e->queue[(e->q_head + e->q_len++) % EMU_QUEUE] = v;
  return 0;
}

/* Stat ids the host may ask for through 0x828 (our numbering). */
enum { STAT_WARP_INSTRUCTIONS = 0, STAT_THREAD_INSTRUCTIONS = 1, STAT_DIVERGENT_STEPS = 2 };

static int host_csr(gpurf_emu *e, uint32_t csr, int rd, int wr, uint32_t v, uint32_t *r,
                    uint32_t pc) {
  uint32_t val = 0;
  switch (csr) {
  case 0x802: val = 1; break; /* UART can put: the output buffer never fills */
  case 0x803:
    if (wr) {
      char c = (char)(v & 0xFFu);
      if (out_append(e, &c, 1)) return emu_set_fault(e, pc, "out of memory");
    }
    break;
  case 0x804: val = e->uart_pos < e->cfg.uart_in_len; break;
  case 0x805:
    if (rd) val = e->uart_pos < e->cfg.uart_in_len ? e->cfg.uart_in[e->uart_pos++] : 0;
    break;
  case 0x820: val = 1; break; /* the SIMT core takes requests at once */
  case 0x821: case 0x822:
    /* Instruction-memory writes: the SIMT core runs the very image the host
     * loaded, so the copy the boot code makes is already in place. */
    break;
  case 0x823:
    if (wr) {
      e->launch_pending = 1;
      e->launch_pc = v;
    }
    break;
  case 0x824: val = e->q_len > 0; break;
  case 0x825:
    if (rd) {
      if (!e->q_len) return emu_set_fault(e, pc, "read of the empty SIMT result queue");
      val = e->queue[e->q_head];
      e->q_head = (e->q_head + 1) % EMU_QUEUE;
      e->q_len--;
    }
    break;
  case 0x826: if (wr) e->closure = v; val = e->closure; break;
  case 0x827: if (wr) e->wpb_csr = v & 63u; val = e->wpb_csr; break;
  case 0x828:
    if (wr) {
      uint64_t s = v == STAT_WARP_INSTRUCTIONS     ? e->res.warp_instructions
                   : v == STAT_THREAD_INSTRUCTIONS ? e->res.thread_instructions
                   : v == STAT_DIVERGENT_STEPS     ? e->res.divergent_steps
                                                   : 0;
      if (v > STAT_DIVERGENT_STEPS) return emu_set_fault(e, pc, "unknown SIMT stat id %u", v);
      if (queue_push(e, (uint32_t)s, pc)) return EXEC_FAULT;
    }
    break;
  case 0x801:
    if (wr) {
      e->finished = 1;
      e->exit_code = v;
    }
    break;
  default: return emu_set_fault(e, pc, "unknown host CSR 0x%03x", csr);
  }
  if (r) *r = val;
  return 0;
}

int emu_csr(gpurf_emu *e, emu_warp *w, uint32_t warp, uint32_t lane, uint32_t csr, int rd,
            int wr, uint32_t v, uint32_t *r, uint32_t pc) {
  int is_host = w == e->host;
  uint32_t val = 0;
  switch (csr) {
  case 0xC00: case 0xB00: val = (uint32_t)e->steps; break;        /* cycle, mcycle */
  case 0xC80: case 0xB80: val = (uint32_t)(e->steps >> 32); break; /* cycleh, mcycleh */
  case 0xC02: case 0xB02: val = (uint32_t)e->steps; break;        /* instret */
  case 0xC82: case 0xB82: val = (uint32_t)(e->steps >> 32); break;
  case 0x800:
    if (wr) {
      char buf[16];
      int n = snprintf(buf, sizeof buf, "%08x\n", v);
      if (out_append(e, buf, (size_t)n)) return emu_set_fault(e, pc, "out of memory");
    }
    break;
  default:
    if (is_host) return host_csr(e, csr, rd, wr, v, r, pc);
    switch (csr) {
    case 0xF14: val = warp << 5 | lane; break;
    case 0x831: val = e->launch_closure; break;
    case 0x830:
      if (wr && lane == 0) w->cmd = (int)(v & 3u);
      break;
    default: return emu_set_fault(e, pc, "unknown SIMT CSR 0x%03x", csr);
    }
  }
  if (r) *r = val;
  return 0;
}
