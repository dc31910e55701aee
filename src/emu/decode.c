/* RV32IMA + Zicsr decoding into dinst, done once per code word (the
 * execution loop never looks at instruction bits). SIMTight's three custom
 * words are matched first: their low bits would otherwise read as
 * compressed instructions, which RV32IMA does not have. */
#include "emu/emu_internal.h"

#define WORD_PUSH 0x00050009u
#define WORD_POP 0x00051009u
#define WORD_FLUSH 0x00050008u

/* Sign-extends the low bits of x (no shifts of negative values). */
static int32_t sext(uint32_t x, unsigned bits) {
  uint32_t m = 1u << (bits - 1);
  x &= (m << 1) - 1u;
  return (int32_t)(x ^ m) - (int32_t)m;
}

static int32_t imm_i(uint32_t w) { return sext(w >> 20, 12); }
static int32_t imm_s(uint32_t w) { return sext((w >> 25) << 5 | (w >> 7 & 31u), 12); }
static int32_t imm_b(uint32_t w) {
  return sext((w >> 31) << 12 | (w >> 7 & 1u) << 11 | (w >> 25 & 63u) << 5 | (w >> 8 & 15u) << 1,
              13);
}
static int32_t imm_j(uint32_t w) {
  return sext((w >> 31) << 20 | (w & 0xFF000u) | (w >> 20 & 1u) << 11 | (w >> 21 & 0x3FFu) << 1,
              21);
}

static int set(dinst *d, int op, uint32_t rd, uint32_t rs1, uint32_t rs2, int32_t imm) {
  d->op = (uint8_t)op;
  d->rd = (uint8_t)(rd == 0 ? EMU_SINK : rd);
  d->rs1 = (uint8_t)rs1;
  d->rs2 = (uint8_t)rs2;
  d->imm = imm;
  return 0;
}

static int decode(uint32_t w, dinst *d) {
  set(d, OP_ILLEGAL, 0, 0, 0, (int32_t)w);
  if (w == WORD_PUSH) return set(d, OP_PUSH, 0, 0, 0, 0);
  if (w == WORD_POP) return set(d, OP_POP, 0, 0, 0, 0);
  if (w == WORD_FLUSH) return set(d, OP_FLUSH, 0, 0, 0, 0);
  if ((w & 3u) != 3u) return 0;
  uint32_t rd = w >> 7 & 31u, rs1 = w >> 15 & 31u, rs2 = w >> 20 & 31u;
  uint32_t f3 = w >> 12 & 7u, f7 = w >> 25;
  switch (w & 0x7Fu) {
  case 0x37: return set(d, OP_LUI, rd, 0, 0, (int32_t)(w & 0xFFFFF000u));
  case 0x17: return set(d, OP_AUIPC, rd, 0, 0, (int32_t)(w & 0xFFFFF000u));
  case 0x6F: return set(d, OP_JAL, rd, 0, 0, imm_j(w));
  case 0x67:
    if (f3 == 0) set(d, OP_JALR, rd, rs1, 0, imm_i(w));
    return 0;
  case 0x63: {
    static const int ops[8] = {OP_BEQ, OP_BNE, OP_ILLEGAL, OP_ILLEGAL,
                               OP_BLT, OP_BGE, OP_BLTU,   OP_BGEU};
    if (ops[f3] != OP_ILLEGAL) set(d, ops[f3], 0, rs1, rs2, imm_b(w));
    return 0;
  }
  case 0x03: {
    static const int ops[8] = {OP_LB,  OP_LH,  OP_LW,      OP_ILLEGAL,
                               OP_LBU, OP_LHU, OP_ILLEGAL, OP_ILLEGAL};
    if (ops[f3] != OP_ILLEGAL) set(d, ops[f3], rd, rs1, 0, imm_i(w));
    return 0;
  }
  case 0x23: {
    static const int ops[8] = {OP_SB, OP_SH, OP_SW, OP_ILLEGAL};
    if (f3 < 4 && ops[f3] != OP_ILLEGAL) set(d, ops[f3], 0, rs1, rs2, imm_s(w));
    return 0;
  }
  case 0x13: {
    static const int ops[8] = {OP_ADDI, OP_SLLI, OP_SLTI, OP_SLTIU,
                               OP_XORI, OP_SRLI, OP_ORI,  OP_ANDI};
    int op = ops[f3];
    if (f3 == 1) {
      if (f7 != 0) return 0;
      return set(d, op, rd, rs1, 0, (int32_t)rs2);
    }
    if (f3 == 5) {
      if (f7 == 0x20) op = OP_SRAI;
      else if (f7 != 0) return 0;
      return set(d, op, rd, rs1, 0, (int32_t)rs2);
    }
    return set(d, op, rd, rs1, 0, imm_i(w));
  }
  case 0x33: {
    static const int base[8] = {OP_ADD, OP_SLL, OP_SLT, OP_SLTU, OP_XOR, OP_SRL, OP_OR, OP_AND};
    static const int muldiv[8] = {OP_MUL, OP_MULH, OP_MULHSU, OP_MULHU,
                                  OP_DIV, OP_DIVU, OP_REM,    OP_REMU};
    if (f7 == 0) return set(d, base[f3], rd, rs1, rs2, 0);
    if (f7 == 1) return set(d, muldiv[f3], rd, rs1, rs2, 0);
    if (f7 == 0x20 && f3 == 0) return set(d, OP_SUB, rd, rs1, rs2, 0);
    if (f7 == 0x20 && f3 == 5) return set(d, OP_SRA, rd, rs1, rs2, 0);
    return 0;
  }
  case 0x2F: {
    if (f3 != 2) return 0;
    switch (w >> 27) {
    case 0x02: if (rs2 == 0) set(d, OP_LR, rd, rs1, 0, 0); return 0;
    case 0x03: return set(d, OP_SC, rd, rs1, rs2, 0);
    case 0x01: return set(d, OP_AMOSWAP, rd, rs1, rs2, 0);
    case 0x00: return set(d, OP_AMOADD, rd, rs1, rs2, 0);
    case 0x04: return set(d, OP_AMOXOR, rd, rs1, rs2, 0);
    case 0x0C: return set(d, OP_AMOAND, rd, rs1, rs2, 0);
    case 0x08: return set(d, OP_AMOOR, rd, rs1, rs2, 0);
    case 0x10: return set(d, OP_AMOMIN, rd, rs1, rs2, 0);
    case 0x14: return set(d, OP_AMOMAX, rd, rs1, rs2, 0);
    case 0x18: return set(d, OP_AMOMINU, rd, rs1, rs2, 0);
    case 0x1C: return set(d, OP_AMOMAXU, rd, rs1, rs2, 0);
    default: return 0;
    }
  }
  case 0x0F:
    if (f3 == 0 || f3 == 1) set(d, OP_FENCE, 0, 0, 0, 0); /* fence, fence.i */
    return 0;
  case 0x73: {
    if (f3 == 0) {
      if (w == 0x00000073u) set(d, OP_ECALL, 0, 0, 0, 0);
      else if (w == 0x00100073u) set(d, OP_EBREAK, 0, 0, 0, 0);
      return 0;
    }
    static const int ops[8] = {OP_ILLEGAL, OP_CSRRW,  OP_CSRRS,  OP_CSRRC,
                               OP_ILLEGAL, OP_CSRRWI, OP_CSRRSI, OP_CSRRCI};
    if (ops[f3] != OP_ILLEGAL) set(d, ops[f3], rd, rs1, 0, (int32_t)(w >> 20));
    return 0;
  }
  default: return 0;
  }
}

void emu_decode(uint32_t w, dinst *d) { (void)decode(w, d); }

const char *emu_op_name(int op) {
  static const char *const names[OP_COUNT] = {
      "?",        "ILLEGAL", "LUI",      "AUIPC",     "JAL",      "JALR",    "BEQ",
      "BNE",      "BLT",     "BGE",      "BLTU",      "BGEU",     "LB",      "LH",
      "LW",       "LBU",     "LHU",      "SB",        "SH",       "SW",      "ADDI",
      "SLTI",     "SLTIU",   "XORI",     "ORI",       "ANDI",     "SLLI",    "SRLI",
      "SRAI",     "ADD",     "SUB",      "SLL",       "SLT",      "SLTU",    "XOR",
      "SRL",      "SRA",     "OR",       "AND",       "MUL",      "MULH",    "MULHSU",
      "MULHU",    "DIV",     "DIVU",     "REM",       "REMU",     "LR.W",    "SC.W",
      "AMOSWAP.W", "AMOADD.W", "AMOXOR.W", "AMOAND.W", "AMOOR.W", "AMOMIN.W", "AMOMAX.W",
      "AMOMINU.W", "AMOMAXU.W", "FENCE", "ECALL",    "EBREAK",   "CSRRW",   "CSRRS",
      "CSRRC",    "CSRRWI",  "CSRRSI",   "CSRRCI",    "PUSH",     "POP",     "FLUSH"};
  return (unsigned)op < OP_COUNT ? names[op] : "?";
}
