/* What a recorder learns about each SIMT warp instruction: operands,
 * memory access and the lanes' results, in terms that need no knowledge of
 * the decoder. */
#include "emu/emu_internal.h"

static int writes_rd(int op) {
  return !(op == OP_ILLEGAL || (op >= OP_BEQ && op <= OP_BGEU) || (op >= OP_SB && op <= OP_SW) ||
           op == OP_FENCE || op == OP_ECALL || op == OP_EBREAK || op == OP_PUSH || op == OP_POP ||
           op == OP_FLUSH);
}

/* Source registers of an instruction. */
static int sources(const dinst *d, uint8_t src[2]) {
  int op = d->op;
  if (op == OP_LUI || op == OP_AUIPC || op == OP_JAL || op == OP_FENCE || op == OP_PUSH ||
      op == OP_POP || op == OP_FLUSH || op == OP_ECALL || op == OP_EBREAK ||
      (op >= OP_CSRRWI && op <= OP_CSRRCI))
    return 0;
  src[0] = d->rs1;
  if (op == OP_JALR || (op >= OP_LB && op <= OP_LHU) || (op >= OP_ADDI && op <= OP_SRAI) ||
      op == OP_LR || (op >= OP_CSRRW && op <= OP_CSRRC))
    return 1;
  src[1] = d->rs2;
  return 2;
}

static uint8_t width_of(int op) {
  if (op == OP_LB || op == OP_LBU || op == OP_SB) return 1;
  if (op == OP_LH || op == OP_LHU || op == OP_SH) return 2;
  return 4;
}

static gpurf_emu_space space_of(uint32_t a) {
  if (a >= GPURF_EMU_PRIVATE_BASE) return GPURF_EMU_SPACE_LOCAL;
  if (a - GPURF_EMU_SHARED_BASE < GPURF_EMU_SHARED_BYTES) return GPURF_EMU_SPACE_SHARED;
  return GPURF_EMU_SPACE_GLOBAL;
}

int emu_record_step(gpurf_emu *e, emu_warp *w, uint32_t warp, const dinst *d, uint32_t pc,
                    uint32_t mask, const uint32_t *addr) {
  _Static_assert(OP_COUNT <= GPURF_EMU_OPS, "GPURF_EMU_OPS too small");
  gpurf_emu_step s;
  s.warp = warp;
  s.pc = pc;
  s.mask = mask;
  s.op = d->op;
  s.mnemonic = emu_op_name(d->op);
  s.writes_rd = (uint8_t)writes_rd(d->op);
  s.rd = s.writes_rd && d->rd != EMU_SINK ? d->rd : 0;
  s.rs[0] = s.rs[1] = 0;
  s.n_src = (uint8_t)sources(d, s.rs);
  /* register-register, atomic and CSR-register forms have no immediate */
  s.has_imm = !(d->op >= OP_ADD && d->op <= OP_AMOMAXU) && d->op < OP_FENCE && d->op != OP_ILLEGAL;
  s.imm = s.has_imm ? d->imm : 0;
  s.mem_width = addr ? width_of(d->op) : 0;
  s.space = GPURF_EMU_SPACE_NONE;
  if (addr && mask) s.space = space_of(addr[__builtin_ctz(mask)]);
  s.cmd = w->cmd < 0       ? GPURF_EMU_CMD_NONE
          : (w->cmd & 1) ? GPURF_EMU_CMD_EXIT
                         : GPURF_EMU_CMD_BARRIER;
  s.values = s.rd ? w->x[d->rd] : NULL;
  s.addr = addr;
  if (e->rec->step && e->rec->step(e->rec_user, &s))
    return emu_set_fault(e, pc, "out of memory recording the trace");
  return 0;
}
