/* One warp instruction over the warp's active lanes: the hot loop of the
 * emulator. The active lanes share one PC (cur_pc), so a non-branching step
 * only advances that; per-lane PCs are written only when lanes part. */
#include <string.h>

#include "emu/emu_internal.h"

/* body runs once per active lane l; full warps take a plain loop the
 * compiler can vectorise. */
#define FOR_LANES(...)                                                  \
  do {                                                                   \
    if (m == 0xFFFFFFFFu) {                                              \
      for (uint32_t l = 0; l < EMU_LANES; l++) { __VA_ARGS__; }                 \
    } else {                                                             \
      for (uint32_t mm_ = m; mm_; mm_ &= mm_ - 1) {                      \
        uint32_t l = (uint32_t)__builtin_ctz(mm_);                       \
        __VA_ARGS__;                                                     \
      }                                                                  \
    }                                                                    \
  } while (0)

static inline uint32_t rd32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
static inline void wr32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

static const dinst *fetch(gpurf_emu *e, uint32_t pc) {
  uint32_t off = pc - GPURF_EMU_CODE_BASE;
  if (off >= EMU_CODE_BYTES || (pc & 3u)) {
    emu_set_fault(e, pc, "instruction fetch outside code memory");
    return NULL;
  }
  dinst *d = &e->code[off >> 2];
  if (d->op == OP_UNDECODED) {
    uint8_t *p = emu_mem(e, 0, pc, 4, 1);
    if (!p) {
      emu_set_fault(e, pc, "instruction fetch outside the memory map");
      return NULL;
    }
    emu_decode(rd32(p), d);
  }
  return d;
}

/* A store into the decoded window drops the decoded copy of that word. */
static inline void code_store(gpurf_emu *e, uint32_t addr) {
  uint32_t off = addr - GPURF_EMU_CODE_BASE;
  if (off < EMU_CODE_BYTES) e->code[off >> 2].op = OP_UNDECODED;
}

static uint32_t amo(int op, uint32_t old, uint32_t v) {
  switch (op) {
  case OP_AMOSWAP: return v;
  case OP_AMOADD: return old + v;
  case OP_AMOXOR: return old ^ v;
  case OP_AMOAND: return old & v;
  case OP_AMOOR: return old | v;
  case OP_AMOMIN: return (int32_t)old < (int32_t)v ? old : v;
  case OP_AMOMAX: return (int32_t)old > (int32_t)v ? old : v;
  case OP_AMOMINU: return old < v ? old : v;
  default: return old > v ? old : v; /* OP_AMOMAXU */
  }
}

static uint32_t div_s(uint32_t a, uint32_t b) {
  if (b == 0) return 0xFFFFFFFFu;
  if (a == 0x80000000u && b == 0xFFFFFFFFu) return a;
  return (uint32_t)((int32_t)a / (int32_t)b);
}
static uint32_t rem_s(uint32_t a, uint32_t b) {
  if (b == 0) return a;
  if (a == 0x80000000u && b == 0xFFFFFFFFu) return 0;
  return (uint32_t)((int32_t)a % (int32_t)b);
}

/* Writes the active lanes' shared PC and level back into the per-lane
 * arrays before the next active set is chosen. */
static void writeback(emu_warp *w, uint32_t pc) {
  for (uint32_t mm = w->active; mm; mm &= mm - 1) {
    uint32_t l = (uint32_t)__builtin_ctz(mm);
    w->pc[l] = pc;
    w->nest[l] = w->cur_nest;
  }
}

/* Branch outcome: lanes in taken go to target, the others fall through. */
static void branch(emu_warp *w, uint32_t m, uint32_t taken, uint32_t pc, uint32_t target,
                   uint32_t *next, int *parted) {
  if (taken == m) {
    *next = target;
  } else if (taken) {
    for (uint32_t mm = m; mm; mm &= mm - 1) {
      uint32_t l = (uint32_t)__builtin_ctz(mm);
      w->pc[l] = taken >> l & 1u ? target : pc + 4;
      w->nest[l] = w->cur_nest;
    }
    *parted = 1;
  }
}

#define BRANCH(cond)                                                     \
  do {                                                                   \
    uint32_t t_ = 0;                                                     \
    FOR_LANES(t_ |= (uint32_t)(cond) << l);                              \
    branch(w, m, t_, pc, pc + (uint32_t)imm, &next, &parted);            \
  } while (0)

#define LOAD(size, ...)                                                   \
  do {                                                                     \
    FOR_LANES({                                                            \
      uint32_t ad_ = a[l] + (uint32_t)imm;                                 \
      addr[l] = ad_;                                                       \
      uint8_t *p_ = emu_mem(e, tbase + l, ad_, size, is_host);             \
      if (!p_) return emu_mem_fault(e, pc, ad_, size, is_host);            \
      rd[l] = __VA_ARGS__;                                                      \
    });                                                                    \
  } while (0)

#define STORE(size, ...)                                                   \
  do {                                                                     \
    FOR_LANES({                                                            \
      uint32_t ad_ = a[l] + (uint32_t)imm;                                 \
      addr[l] = ad_;                                                       \
      uint8_t *p_ = emu_mem(e, tbase + l, ad_, size, is_host);             \
      if (!p_) return emu_mem_fault(e, pc, ad_, size, is_host);            \
      __VA_ARGS__;                                                           \
      code_store(e, ad_);                                                  \
    });                                                                    \
  } while (0)

int emu_exec(gpurf_emu *e, emu_warp *w, uint32_t warp, int is_host) {
  uint32_t pc = w->cur_pc;
  const dinst *d = fetch(e, pc);
  if (!d) return EXEC_FAULT;
  uint32_t m = w->active;
  uint32_t *rd = w->x[d->rd];
  const uint32_t *a = w->x[d->rs1], *b = w->x[d->rs2];
  const int32_t imm = d->imm;
  const uint32_t tbase = warp * EMU_LANES;
  uint32_t next = pc + 4, addr[EMU_LANES];
  int parted = 0, mem = 0;
  w->cmd = -1;

  switch (d->op) {
  case OP_LUI: FOR_LANES(rd[l] = (uint32_t)imm); break;
  case OP_AUIPC: FOR_LANES(rd[l] = pc + (uint32_t)imm); break;
  case OP_JAL:
    FOR_LANES(rd[l] = pc + 4);
    next = pc + (uint32_t)imm;
    break;
  case OP_JALR: {
    uint32_t tgt[EMU_LANES], t0 = 0, same = 1, first = 1;
    FOR_LANES({
      tgt[l] = (a[l] + (uint32_t)imm) & ~1u;
      if (first) t0 = tgt[l], first = 0;
      else if (tgt[l] != t0) same = 0;
    });
    FOR_LANES(rd[l] = pc + 4);
    if (same) {
      next = t0;
    } else {
      FOR_LANES({
        w->pc[l] = tgt[l];
        w->nest[l] = w->cur_nest;
      });
      parted = 1;
    }
    break;
  }
  case OP_BEQ: BRANCH(a[l] == b[l]); break;
  case OP_BNE: BRANCH(a[l] != b[l]); break;
  case OP_BLT: BRANCH((int32_t)a[l] < (int32_t)b[l]); break;
  case OP_BGE: BRANCH((int32_t)a[l] >= (int32_t)b[l]); break;
  case OP_BLTU: BRANCH(a[l] < b[l]); break;
  case OP_BGEU: BRANCH(a[l] >= b[l]); break;
  case OP_LB: mem = 1; LOAD(1, (uint32_t)(int32_t)(int8_t)p_[0]); break;
  case OP_LH: {
    mem = 1;
    LOAD(2, (uint32_t)(int32_t)(int16_t)(uint16_t)(p_[0] | p_[1] << 8));
    break;
  }
  case OP_LW: mem = 1; LOAD(4, rd32(p_)); break;
  case OP_LBU: mem = 1; LOAD(1, p_[0]); break;
  case OP_LHU: mem = 1; LOAD(2, (uint32_t)(p_[0] | p_[1] << 8)); break;
  case OP_SB: mem = 1; STORE(1, p_[0] = (uint8_t)b[l]); break;
  case OP_SH: {
    mem = 1;
    STORE(2, {
      p_[0] = (uint8_t)b[l];
      p_[1] = (uint8_t)(b[l] >> 8);
    });
    break;
  }
  case OP_SW: mem = 1; STORE(4, wr32(p_, b[l])); break;
  case OP_ADDI: FOR_LANES(rd[l] = a[l] + (uint32_t)imm); break;
  case OP_SLTI: FOR_LANES(rd[l] = (int32_t)a[l] < imm); break;
  case OP_SLTIU: FOR_LANES(rd[l] = a[l] < (uint32_t)imm); break;
  case OP_XORI: FOR_LANES(rd[l] = a[l] ^ (uint32_t)imm); break;
  case OP_ORI: FOR_LANES(rd[l] = a[l] | (uint32_t)imm); break;
  case OP_ANDI: FOR_LANES(rd[l] = a[l] & (uint32_t)imm); break;
  case OP_SLLI: FOR_LANES(rd[l] = a[l] << imm); break;
  case OP_SRLI: FOR_LANES(rd[l] = a[l] >> imm); break;
  case OP_SRAI: FOR_LANES(rd[l] = (uint32_t)((int32_t)a[l] >> imm)); break;
  case OP_ADD: FOR_LANES(rd[l] = a[l] + b[l]); break;
  case OP_SUB: FOR_LANES(rd[l] = a[l] - b[l]); break;
  case OP_SLL: FOR_LANES(rd[l] = a[l] << (b[l] & 31u)); break;
  case OP_SLT: FOR_LANES(rd[l] = (int32_t)a[l] < (int32_t)b[l]); break;
  case OP_SLTU: FOR_LANES(rd[l] = a[l] < b[l]); break;
  case OP_XOR: FOR_LANES(rd[l] = a[l] ^ b[l]); break;
  case OP_SRL: FOR_LANES(rd[l] = a[l] >> (b[l] & 31u)); break;
  case OP_SRA: FOR_LANES(rd[l] = (uint32_t)((int32_t)a[l] >> (b[l] & 31u))); break;
  case OP_OR: FOR_LANES(rd[l] = a[l] | b[l]); break;
  case OP_AND: FOR_LANES(rd[l] = a[l] & b[l]); break;
  case OP_MUL: FOR_LANES(rd[l] = a[l] * b[l]); break;
  case OP_MULH:
    FOR_LANES(rd[l] = (uint32_t)((uint64_t)((int64_t)(int32_t)a[l] * (int32_t)b[l]) >> 32));
    break;
  case OP_MULHSU:
    FOR_LANES(rd[l] = (uint32_t)((uint64_t)((int64_t)(int32_t)a[l] * (int64_t)b[l]) >> 32));
    break;
  case OP_MULHU: FOR_LANES(rd[l] = (uint32_t)((uint64_t)a[l] * b[l] >> 32)); break;
  case OP_DIV: FOR_LANES(rd[l] = div_s(a[l], b[l])); break;
  case OP_DIVU: FOR_LANES(rd[l] = b[l] ? a[l] / b[l] : 0xFFFFFFFFu); break;
  case OP_REM: FOR_LANES(rd[l] = rem_s(a[l], b[l])); break;
  case OP_REMU: FOR_LANES(rd[l] = b[l] ? a[l] % b[l] : a[l]); break;
  case OP_LR:
    mem = 1;
    FOR_LANES({
      uint32_t ad_ = a[l];
      addr[l] = ad_;
      uint8_t *p_ = emu_mem(e, tbase + l, ad_, 4, is_host);
      if (!p_) return emu_mem_fault(e, pc, ad_, 4, is_host);
      rd[l] = rd32(p_);
      w->resv[l] = ad_ + 1;
    });
    break;
  case OP_SC:
    /* Lanes run one after another, so a reservation holds unless the
     * thread's own reservation was for another address. */
    mem = 1;
    FOR_LANES({
      uint32_t ad_ = a[l], v_ = b[l];
      addr[l] = ad_;
      uint8_t *p_ = emu_mem(e, tbase + l, ad_, 4, is_host);
      if (!p_) return emu_mem_fault(e, pc, ad_, 4, is_host);
      int ok_ = w->resv[l] == ad_ + 1;
      if (ok_) wr32(p_, v_), code_store(e, ad_);
      rd[l] = !ok_;
      w->resv[l] = 0;
    });
    break;
  case OP_AMOSWAP: case OP_AMOADD: case OP_AMOXOR: case OP_AMOAND: case OP_AMOOR:
  case OP_AMOMIN: case OP_AMOMAX: case OP_AMOMINU: case OP_AMOMAXU: {
    /* Lanes update memory in lane order: atomic across lanes and warps. */
    mem = 1;
    int op = d->op;
    FOR_LANES({
      uint32_t ad_ = a[l], v_ = b[l];
      addr[l] = ad_;
      uint8_t *p_ = emu_mem(e, tbase + l, ad_, 4, is_host);
      if (!p_) return emu_mem_fault(e, pc, ad_, 4, is_host);
      uint32_t old_ = rd32(p_);
      wr32(p_, amo(op, old_, v_));
      code_store(e, ad_);
      rd[l] = old_;
    });
    break;
  }
  case OP_FENCE: case OP_FLUSH: break;
  case OP_ECALL: return emu_set_fault(e, pc, "ecall: no environment to call");
  case OP_EBREAK: return emu_set_fault(e, pc, "ebreak");
  case OP_CSRRW: case OP_CSRRS: case OP_CSRRC: case OP_CSRRWI: case OP_CSRRSI: case OP_CSRRCI: {
    int op = d->op, is_imm = op >= OP_CSRRWI;
    int base = is_imm ? op - OP_CSRRWI : op - OP_CSRRW; /* 0 write, 1 set, 2 clear */
    /* csrrw reads only when rd is not x0; csrrs/c write only when the
     * source is not x0 (or the immediate not zero). */
    int do_read = base != 0 || d->rd != EMU_SINK;
    int do_write = base == 0 || d->rs1 != 0;
    uint32_t csr = (uint32_t)imm & 0xFFFu;
    FOR_LANES({
      uint32_t src_ = is_imm ? d->rs1 : a[l], old_ = 0;
      if (base != 0 || do_read) {
        if (emu_csr(e, w, warp, l, csr, 1, 0, 0, &old_, pc)) return EXEC_FAULT;
      }
      uint32_t new_ = base == 0 ? src_ : base == 1 ? old_ | src_ : old_ & ~src_;
      if (do_write && emu_csr(e, w, warp, l, csr, 0, 1, new_, NULL, pc)) return EXEC_FAULT;
      rd[l] = old_;
    });
    break;
  }
  case OP_PUSH:
    if (w->cur_nest == 0xFFFFFFFFu) return emu_set_fault(e, pc, "push: nesting level overflow");
    w->cur_nest++;
    break;
  case OP_POP:
    if (w->cur_nest == 0) return emu_set_fault(e, pc, "pop below nesting level 0");
    w->cur_nest--;
    break;
  default:
    return emu_set_fault(e, pc, "illegal instruction 0x%08x", (uint32_t)d->imm);
  }

  if (e->rec && !is_host && emu_record_step(e, w, warp, d, pc, m, mem ? addr : NULL))
    return EXEC_FAULT;

  if (w->cmd >= 0) {
    /* Only lane 0's write counts, and the warp must be converged. */
    if (m != w->live)
      return emu_set_fault(e, pc, "warp command from a diverged warp (mask 0x%08x)", m);
    w->cur_pc = next;
    return (w->cmd & 1) ? EXEC_TERMINATE : EXEC_BARRIER;
  }
  if (parted) {
    emu_select(e, w);
  } else {
    w->cur_pc = next;
    if (m != w->live) {
      writeback(w, next);
      emu_select(e, w);
    }
  }
  return EXEC_OK;
}
