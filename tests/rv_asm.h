/* Instruction encoders for hand-assembled RV32 test programs, so that the
 * emulator's tests run without a cross compiler. Field layouts from the
 * RISC-V unprivileged specification, chapter 2 (base formats). */
#ifndef GPURF_TEST_RV_ASM_H
#define GPURF_TEST_RV_ASM_H

#include <stdint.h>

static inline uint32_t rv_r(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd,
                            uint32_t opc) {
  return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}
static inline uint32_t rv_i(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t opc) {
  return ((uint32_t)imm & 0xFFFu) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}
static inline uint32_t rv_s(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3) {
  uint32_t u = (uint32_t)imm;
  return (u >> 5 & 0x7Fu) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 31u) << 7 | 0x23u;
}
static inline uint32_t rv_b(int32_t off, uint32_t rs2, uint32_t rs1, uint32_t f3) {
  uint32_t u = (uint32_t)off;
  return (u >> 12 & 1u) << 31 | (u >> 5 & 0x3Fu) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
         (u >> 1 & 15u) << 8 | (u >> 11 & 1u) << 7 | 0x63u;
}
static inline uint32_t rv_u(uint32_t imm20, uint32_t rd, uint32_t opc) {
  return imm20 << 12 | rd << 7 | opc;
}
static inline uint32_t rv_jal(int32_t off, uint32_t rd) {
  uint32_t u = (uint32_t)off;
  return (u >> 20 & 1u) << 31 | (u >> 1 & 0x3FFu) << 21 | (u >> 11 & 1u) << 20 |
         (u >> 12 & 0xFFu) << 12 | rd << 7 | 0x6Fu;
}

#define ADDI(rd, rs1, imm) rv_i(imm, rs1, 0, rd, 0x13)
#define SLTI(rd, rs1, imm) rv_i(imm, rs1, 2, rd, 0x13)
#define SLTIU(rd, rs1, imm) rv_i(imm, rs1, 3, rd, 0x13)
#define XORI(rd, rs1, imm) rv_i(imm, rs1, 4, rd, 0x13)
#define ORI(rd, rs1, imm) rv_i(imm, rs1, 6, rd, 0x13)
#define ANDI(rd, rs1, imm) rv_i(imm, rs1, 7, rd, 0x13)
#define SLLI(rd, rs1, sh) rv_i(sh, rs1, 1, rd, 0x13)
#define SRLI(rd, rs1, sh) rv_i(sh, rs1, 5, rd, 0x13)
#define SRAI(rd, rs1, sh) rv_i(0x400 | (sh), rs1, 5, rd, 0x13)
#define LUI(rd, imm20) rv_u(imm20, rd, 0x37)
#define AUIPC(rd, imm20) rv_u(imm20, rd, 0x17)
#define RR(f7, f3, rd, rs1, rs2) rv_r(f7, rs2, rs1, f3, rd, 0x33)
#define ADD(rd, a, b) RR(0, 0, rd, a, b)
#define SUB(rd, a, b) RR(0x20, 0, rd, a, b)
#define SLL(rd, a, b) RR(0, 1, rd, a, b)
#define SLT(rd, a, b) RR(0, 2, rd, a, b)
#define SLTU(rd, a, b) RR(0, 3, rd, a, b)
#define XOR(rd, a, b) RR(0, 4, rd, a, b)
#define SRL(rd, a, b) RR(0, 5, rd, a, b)
#define SRA(rd, a, b) RR(0x20, 5, rd, a, b)
#define OR(rd, a, b) RR(0, 6, rd, a, b)
#define AND(rd, a, b) RR(0, 7, rd, a, b)
#define MUL(rd, a, b) RR(1, 0, rd, a, b)
#define MULH(rd, a, b) RR(1, 1, rd, a, b)
#define MULHSU(rd, a, b) RR(1, 2, rd, a, b)
#define MULHU(rd, a, b) RR(1, 3, rd, a, b)
#define DIV(rd, a, b) RR(1, 4, rd, a, b)
#define DIVU(rd, a, b) RR(1, 5, rd, a, b)
#define REM(rd, a, b) RR(1, 6, rd, a, b)
#define REMU(rd, a, b) RR(1, 7, rd, a, b)
#define LB(rd, rs1, off) rv_i(off, rs1, 0, rd, 0x03)
#define LH(rd, rs1, off) rv_i(off, rs1, 1, rd, 0x03)
#define LW(rd, rs1, off) rv_i(off, rs1, 2, rd, 0x03)
#define LBU(rd, rs1, off) rv_i(off, rs1, 4, rd, 0x03)
#define LHU(rd, rs1, off) rv_i(off, rs1, 5, rd, 0x03)
#define SB(rs2, rs1, off) rv_s(off, rs2, rs1, 0)
#define SH(rs2, rs1, off) rv_s(off, rs2, rs1, 1)
#define SW(rs2, rs1, off) rv_s(off, rs2, rs1, 2)
#define BEQ(a, b, off) rv_b(off, b, a, 0)
#define BNE(a, b, off) rv_b(off, b, a, 1)
#define BLT(a, b, off) rv_b(off, b, a, 4)
#define BGE(a, b, off) rv_b(off, b, a, 5)
#define BLTU(a, b, off) rv_b(off, b, a, 6)
#define BGEU(a, b, off) rv_b(off, b, a, 7)
#define JAL(rd, off) rv_jal(off, rd)
#define JALR(rd, rs1, off) rv_i(off, rs1, 0, rd, 0x67)
#define AMO(f5, rd, rs1, rs2) rv_r((f5) << 2, rs2, rs1, 2, rd, 0x2F)
#define LR_W(rd, rs1) AMO(0x02, rd, rs1, 0)
#define SC_W(rd, rs1, rs2) AMO(0x03, rd, rs1, rs2)
#define AMOSWAP(rd, rs1, rs2) AMO(0x01, rd, rs1, rs2)
#define AMOADD(rd, rs1, rs2) AMO(0x00, rd, rs1, rs2)
#define AMOXOR(rd, rs1, rs2) AMO(0x04, rd, rs1, rs2)
#define AMOAND(rd, rs1, rs2) AMO(0x0C, rd, rs1, rs2)
#define AMOOR(rd, rs1, rs2) AMO(0x08, rd, rs1, rs2)
#define AMOMIN(rd, rs1, rs2) AMO(0x10, rd, rs1, rs2)
#define AMOMAX(rd, rs1, rs2) AMO(0x14, rd, rs1, rs2)
#define AMOMINU(rd, rs1, rs2) AMO(0x18, rd, rs1, rs2)
#define AMOMAXU(rd, rs1, rs2) AMO(0x1C, rd, rs1, rs2)
#define CSRRW(rd, csr, rs1) rv_i((int32_t)(csr), rs1, 1, rd, 0x73)
#define CSRRS(rd, csr, rs1) rv_i((int32_t)(csr), rs1, 2, rd, 0x73)
#define CSRRC(rd, csr, rs1) rv_i((int32_t)(csr), rs1, 3, rd, 0x73)
#define CSRRWI(rd, csr, z) rv_i((int32_t)(csr), z, 5, rd, 0x73)
#define CSRRSI(rd, csr, z) rv_i((int32_t)(csr), z, 6, rd, 0x73)
#define PUSH 0x00050009u
#define POP 0x00051009u
#define NOP ADDI(0, 0, 0)
#define TERMINATE CSRRWI(0, 0x830, 3)
#define BARRIER CSRRWI(0, 0x830, 0)

#endif
