/* The SIMT emulator on hand-assembled programs: one test per RV32IMA
 * instruction class with hand-computed results, nested divergence under
 * both reconvergence rules with hand-computed active masks, barriers, a
 * host program using SIMTight's CSR interface, recording, and the errors. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rv_asm.h"
#include "test_util.h"

#define BASE GPURF_EMU_ENTRY
#define HART 0xF14

static gpurf_emu *make(gpurf_ctx *ctx, uint32_t warps, gpurf_emu_reconv rule,
                       const uint32_t *code, size_t n) {
  gpurf_emu_config cfg = {.warps = warps, .reconv = rule, .step_limit = 100000};
  gpurf_emu *e = NULL;
  assert_ok(ctx, gpurf_emu_alloc(ctx, &cfg, &e));
  assert_ok(ctx, gpurf_emu_load_words(ctx, e, BASE, code, n));
  return e;
}

/* Runs code on one warp from BASE and returns the emulator. */
static gpurf_emu *simt(gpurf_ctx *ctx, const uint32_t *code, size_t n) {
  gpurf_emu *e = make(ctx, 1, GPURF_EMU_RECONV_MARKERS, code, n);
  gpurf_emu_result res;
  assert_ok(ctx, gpurf_emu_launch(ctx, e, BASE, 0, 0, &res));
  assert_int_equal(res.exit_code, 0);
  return e;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define REG(e, lane, r) gpurf_emu_reg(e, 0, lane, r)

static void test_alu_imm(void **state) {
  (void)state;
  const uint32_t p[] = {CSRRS(1, HART, 0), ADDI(2, 1, -16), LUI(3, 0x12345), ADDI(4, 3, -1),
                        SLTI(5, 2, 0),     SLTIU(6, 2, 5),  XORI(7, 1, -1),  ORI(8, 1, 0x100),
                        ANDI(9, 4, 0xF0),  SLLI(10, 1, 28), SRLI(11, 2, 28), SRAI(12, 2, 2),
                        AUIPC(13, 1),      TERMINATE};
  gpurf_ctx *ctx = test_ctx();
  gpurf_emu *e = simt(ctx, p, N(p));
  assert_int_equal(REG(e, 0, 2), 0xFFFFFFF0u);
  assert_int_equal(REG(e, 0, 3), 0x12345000u);
  assert_int_equal(REG(e, 0, 4), 0x12344FFFu);
  assert_int_equal(REG(e, 0, 5), 1);
  assert_int_equal(REG(e, 31, 5), 0);
  assert_int_equal(REG(e, 0, 6), 0);
  assert_int_equal(REG(e, 18, 6), 1);
  assert_int_equal(REG(e, 21, 6), 0);
  assert_int_equal(REG(e, 5, 7), 0xFFFFFFFAu);
  assert_int_equal(REG(e, 5, 8), 0x105u);
  assert_int_equal(REG(e, 0, 9), 0xF0u);
  assert_int_equal(REG(e, 31, 10), 0xF0000000u);
  assert_int_equal(REG(e, 0, 11), 0xFu);
  assert_int_equal(REG(e, 31, 11), 0);
  assert_int_equal(REG(e, 0, 12), 0xFFFFFFFCu);
  assert_int_equal(REG(e, 31, 12), 3);
  assert_int_equal(REG(e, 7, 13), 0x08001430u);
  assert_int_equal(REG(e, 7, 0), 0);
  gpurf_emu_free(e);
  gpurf_ctx_free(ctx);
}

static void test_alu_reg(void **state) {
  (void)state;
  const uint32_t p[] = {CSRRS(1, HART, 0), ADDI(2, 1, -16), ADDI(3, 0, 3),  ADD(4, 2, 3),
                        SUB(5, 3, 2),      SLL(6, 2, 3),    SLT(7, 2, 3),   SLTU(8, 3, 2),
                        XOR(9, 2, 3),      SRL(10, 2, 3),   SRA(11, 2, 3),  OR(12, 2, 3),
                        AND(13, 2, 3),     ADD(0, 3, 3),    TERMINATE};
  gpurf_ctx *ctx = test_ctx();
  gpurf_emu *e = simt(ctx, p, N(p));
  assert_int_equal(REG(e, 0, 4), 0xFFFFFFF3u);
  assert_int_equal(REG(e, 31, 4), 18);
  assert_int_equal(REG(e, 0, 5), 19);
  assert_int_equal(REG(e, 31, 5), 0xFFFFFFF4u);
  assert_int_equal(REG(e, 0, 6), 0xFFFFFF80u);
  assert_int_equal(REG(e, 31, 6), 120);
  assert_int_equal(REG(e, 0, 7), 1);
  assert_int_equal(REG(e, 31, 7), 0);
  assert_int_equal(REG(e, 0, 8), 1);
  assert_int_equal(REG(e, 17, 8), 0);
  assert_int_equal(REG(e, 0, 9), 0xFFFFFFF3u);
  assert_int_equal(REG(e, 31, 9), 12);
  assert_int_equal(REG(e, 0, 10), 0x1FFFFFFEu);
  assert_int_equal(REG(e, 0, 11), 0xFFFFFFFEu);
  assert_int_equal(REG(e, 31, 11), 1);
  assert_int_equal(REG(e, 0, 12), 0xFFFFFFF3u);
  assert_int_equal(REG(e, 31, 13), 3);
  assert_int_equal(REG(e, 31, 0), 0); /* writes to x0 vanish */
  gpurf_emu_free(e);
  gpurf_ctx_free(ctx);
}

static void test_muldiv(void **state) {
  (void)state;
  const uint32_t p[] = {CSRRS(1, HART, 0), ADDI(2, 1, -16), ADDI(3, 0, -7),   MUL(4, 2, 3),
                        MULH(5, 2, 3),     MULHSU(6, 2, 3), MULHU(7, 2, 3),   DIV(8, 2, 3),
                        DIVU(9, 2, 3),     REM(10, 2, 3),   REMU(11, 3, 2),   DIV(12, 2, 0),
                        REM(13, 2, 0),     DIVU(14, 2, 0),  LUI(15, 0x80000), ADDI(16, 0, -1),
                        DIV(17, 15, 16),   REM(18, 15, 16), REMU(19, 2, 0),   TERMINATE};
  gpurf_ctx *ctx = test_ctx();
  gpurf_emu *e = simt(ctx, p, N(p));
  assert_int_equal(REG(e, 0, 4), 112);
  assert_int_equal(REG(e, 31, 4), 0xFFFFFF97u);
  assert_int_equal(REG(e, 0, 5), 0);
  assert_int_equal(REG(e, 31, 5), 0xFFFFFFFFu);
  assert_int_equal(REG(e, 0, 6), 0xFFFFFFF0u);
  assert_int_equal(REG(e, 31, 6), 14);
  assert_int_equal(REG(e, 0, 7), 0xFFFFFFE9u);
  assert_int_equal(REG(e, 31, 7), 14);
  assert_int_equal(REG(e, 0, 8), 2);
  assert_int_equal(REG(e, 31, 8), 0xFFFFFFFEu);
  assert_int_equal(REG(e, 0, 9), 0);
  assert_int_equal(REG(e, 0, 10), 0xFFFFFFFEu);
  assert_int_equal(REG(e, 31, 10), 1);
  assert_int_equal(REG(e, 0, 11), 9);
  assert_int_equal(REG(e, 31, 11), 9);
  assert_int_equal(REG(e, 0, 12), 0xFFFFFFFFu);
  assert_int_equal(REG(e, 0, 13), 0xFFFFFFF0u);
  assert_int_equal(REG(e, 0, 14), 0xFFFFFFFFu);
  assert_int_equal(REG(e, 0, 17), 0x80000000u);
  assert_int_equal(REG(e, 0, 18), 0);
  assert_int_equal(REG(e, 3, 19), 0xFFFFFFF3u);
  gpurf_emu_free(e);
  gpurf_ctx_free(ctx);
}

static void test_load_store(void **state) {
  (void)state;
  const uint32_t p[] = {CSRRS(1, HART, 0),  LUI(2, 0x08008),  SLLI(3, 1, 2),
                        ADD(4, 2, 3),       LUI(5, 0x89ABD),  ADDI(5, 5, -0x211),
                        ADD(5, 5, 1),       SW(5, 4, 0),      LB(6, 4, 0),
                        LBU(7, 4, 3),       LB(8, 4, 3),      LH(9, 4, 2),
                        LHU(10, 4, 0),      SB(1, 4, 1),      SH(1, 4, 2),
                        LW(11, 4, 0),       SW(1, 2, -4),     TERMINATE};
  gpurf_ctx *ctx = test_ctx();
  gpurf_emu *e = simt(ctx, p, N(p));
  assert_int_equal(REG(e, 0, 5), 0x89ABCDEFu);
  assert_int_equal(REG(e, 0, 6), 0xFFFFFFEFu);
  assert_int_equal(REG(e, 31, 6), 0x0Eu);
  assert_int_equal(REG(e, 0, 7), 0x89u);
  assert_int_equal(REG(e, 0, 8), 0xFFFFFF89u);
  assert_int_equal(REG(e, 0, 9), 0xFFFF89ABu);
  assert_int_equal(REG(e, 0, 10), 0xCDEFu);
  assert_int_equal(REG(e, 31, 10), 0xCE0Eu);
  assert_int_equal(REG(e, 0, 11), 0x000000EFu);
  assert_int_equal(REG(e, 31, 11), 0x001F1F0Eu);
  uint32_t v = 0;
  assert_ok(ctx, gpurf_emu_read32(ctx, e, 0x08008000u + 31 * 4, &v));
  assert_int_equal(v, 0x001F1F0Eu);
  /* every lane stored its id to the same word; the last lane wins */
  assert_ok(ctx, gpurf_emu_read32(ctx, e, 0x08007FFCu, &v));
  assert_int_equal(v, 31);
  gpurf_emu_free(e);
  gpurf_ctx_free(ctx);
}

static void test_branch_jump(void **state) {
  (void)state;
  const uint32_t p[] = {CSRRS(1, HART, 0), ADDI(2, 0, 0),   ADDI(3, 0, -1),  ADDI(4, 0, 1),
                        BEQ(4, 4, 8),      ORI(2, 2, 1),    BNE(4, 4, 8),    ORI(2, 2, 2),
                        BLT(3, 4, 8),      ORI(2, 2, 4),    BLTU(3, 4, 8),   ORI(2, 2, 8),
                        BGE(4, 3, 8),      ORI(2, 2, 16),   BGEU(4, 3, 8),   ORI(2, 2, 32),
                        JAL(5, 8),         ORI(2, 2, 64),   AUIPC(6, 0),     JALR(7, 6, 16),
                        ORI(2, 2, 128),    ORI(2, 2, 256),  TERMINATE};
  gpurf_ctx *ctx = test_ctx();
  gpurf_emu *e = simt(ctx, p, N(p));
  assert_int_equal(REG(e, 9, 2), 2 | 8 | 32);
  assert_int_equal(REG(e, 9, 5), 0x08000444u);
  assert_int_equal(REG(e, 9, 6), 0x08000448u);
  assert_int_equal(REG(e, 9, 7), 0x08000450u);
  gpurf_emu_free(e);
  gpurf_ctx_free(ctx);
}

static void test_atomics(void **state) {
  (void)state;
  const uint32_t p[] = {CSRRS(1, HART, 0), LUI(2, 0xBFFF0),   ADDI(3, 0, 1),     AMOADD(4, 2, 3),
                        ADDI(5, 2, 4),     AMOMAX(6, 5, 1),   ADDI(7, 2, 8),     AMOSWAP(8, 7, 1),
                        ADDI(9, 2, 12),    ADDI(10, 1, -16),  AMOMIN(11, 9, 10), AMOMINU(12, 9, 1),
                        AMOMAXU(13, 9, 10), ADDI(14, 2, 16),  AMOXOR(15, 14, 1), ADDI(16, 2, 20),
                        AMOOR(17, 16, 1),  AMOAND(18, 16, 10), ADDI(19, 2, 24),  LR_W(20, 19),
                        ADDI(21, 20, 1),   SC_W(22, 19, 21),  SC_W(23, 19, 1),   TERMINATE};
  gpurf_ctx *ctx = test_ctx();
  gpurf_emu *e = simt(ctx, p, N(p));
  uint32_t v = 0;
  assert_int_equal(REG(e, 0, 4), 0);
  assert_int_equal(REG(e, 17, 4), 17); /* lanes update in lane order */
  assert_ok(ctx, gpurf_emu_read32(ctx, e, 0xBFFF0000u, &v));
  assert_int_equal(v, 32);
  assert_int_equal(REG(e, 0, 6), 0);
  assert_int_equal(REG(e, 9, 6), 8);
  assert_int_equal(REG(e, 9, 8), 8);
  assert_ok(ctx, gpurf_emu_read32(ctx, e, 0xBFFF0008u, &v));
  assert_int_equal(v, 31);
  assert_int_equal(REG(e, 1, 11), 0xFFFFFFF0u);
  assert_int_equal(REG(e, 0, 12), 0xFFFFFFF0u);
  assert_int_equal(REG(e, 1, 12), 0);
  assert_int_equal(REG(e, 16, 13), 0xFFFFFFFFu);
  assert_ok(ctx, gpurf_emu_read32(ctx, e, 0xBFFF000Cu, &v));
  assert_int_equal(v, 0xFFFFFFFFu);
  assert_int_equal(REG(e, 3, 15), 3);
  assert_int_equal(REG(e, 4, 15), 0);
  assert_ok(ctx, gpurf_emu_read32(ctx, e, 0xBFFF0010u, &v));
  assert_int_equal(v, 0);
  assert_int_equal(REG(e, 0, 18), 31);
  assert_int_equal(REG(e, 1, 18), 16);
  assert_ok(ctx, gpurf_emu_read32(ctx, e, 0xBFFF0014u, &v));
  assert_int_equal(v, 0);
  assert_int_equal(REG(e, 5, 20), 0);
  assert_int_equal(REG(e, 5, 22), 0); /* reservation held */
  assert_int_equal(REG(e, 5, 23), 1); /* no reservation */
  assert_ok(ctx, gpurf_emu_read32(ctx, e, 0xBFFF0018u, &v));
  assert_int_equal(v, 1);
  gpurf_emu_free(e);
  gpurf_ctx_free(ctx);
}

static void test_csr_stack(void **state) {
  (void)state;
  const uint32_t p[] = {CSRRS(1, HART, 0), CSRRS(6, 0x831, 0), CSRRS(3, 0xC00, 0), NOP,
                        CSRRS(4, 0xC00, 0), SW(1, 2, -8),      LW(5, 2, -8),       TERMINATE};
  gpurf_ctx *ctx = test_ctx();
  gpurf_emu *e = make(ctx, 2, GPURF_EMU_RECONV_MARKERS, p, N(p));
  gpurf_emu_result res;
  assert_ok(ctx, gpurf_emu_launch(ctx, e, BASE, 1, 0x12345678u, &res));
  assert_int_equal(gpurf_emu_reg(e, 1, 5, 1), 37);
  assert_int_equal(gpurf_emu_reg(e, 1, 5, 6), 0x12345678u);
  assert_int_equal(gpurf_emu_reg(e, 1, 5, 4) - gpurf_emu_reg(e, 1, 5, 3), 2);
  /* sp = 0xFFFFFFF8 in every thread, each with its own stack */
  assert_int_equal(gpurf_emu_reg(e, 0, 3, 5), 3);
  assert_int_equal(gpurf_emu_reg(e, 1, 30, 5), 62);
  assert_int_equal(res.warp_instructions, 16);
  assert_int_equal(res.thread_instructions, 16 * 32);
  gpurf_emu_free(e);
  gpurf_ctx_free(ctx);
}

/* ---- divergence ---- */

typedef struct steps {
  uint32_t pc[64], mask[64];
  int n;
} steps;

static void hook(void *user, uint32_t warp, uint32_t pc, uint32_t mask) {
  steps *s = user;
  (void)warp;
  if (s->n < 64) s->pc[s->n] = pc - BASE, s->mask[s->n] = mask;
  s->n++;
}

/* Odd lanes against even lanes, and inside the odd ones lanes with bit 1
 * set against the others; push/pop around each divergent region. */
static void nested(uint32_t *p, int markers) {
  const uint32_t words[] = {
      CSRRS(1, HART, 0),                /* 00 */
      ANDI(2, 1, 1),                    /* 04 */
      markers ? PUSH : NOP,             /* 08 */
      BEQ(2, 0, 0x20),                  /* 0C -> 2C even lanes */
      ANDI(3, 1, 2),                    /* 10 */
      markers ? PUSH : NOP,             /* 14 */
      BEQ(3, 0, 8),                     /* 18 -> 20 */
      ADDI(4, 0, 7),                    /* 1C lanes 3, 7, 11, ... */
      markers ? POP : NOP,              /* 20 */
      ADDI(5, 0, 9),                    /* 24 odd lanes */
      JAL(0, 0x0C),                     /* 28 -> 34 */
      ADDI(6, 0, 5),                    /* 2C even lanes */
      JAL(0, 4),                        /* 30 -> 34 */
      markers ? POP : NOP,              /* 34 */
      ADDI(7, 0, 1),                    /* 38 */
      TERMINATE};                       /* 3C */
  memcpy(p, words, sizeof words);
}

static void run_nested(int markers, gpurf_emu_reconv rule, const uint32_t *pcs,
                       const uint32_t *masks, int n) {
  uint32_t p[16];
  nested(p, markers);
  gpurf_ctx *ctx = test_ctx();
  gpurf_emu *e = make(ctx, 1, rule, p, 16);
  steps s = {.n = 0};
  gpurf_emu_set_step_hook(e, hook, &s);
  assert_ok(ctx, gpurf_emu_launch(ctx, e, BASE, 0, 0, NULL));
  assert_int_equal(s.n, n);
  for (int i = 0; i < n; i++) {
    if (s.pc[i] != pcs[i] || s.mask[i] != masks[i])
      fail_msg("step %d: pc +%02x mask %08x, expected +%02x %08x", i, s.pc[i], s.mask[i], pcs[i],
               masks[i]);
  }
  assert_int_equal(REG(e, 3, 4), 7);
  assert_int_equal(REG(e, 5, 4), 0);
  assert_int_equal(REG(e, 5, 5), 9);
  assert_int_equal(REG(e, 4, 6), 5);
  assert_int_equal(REG(e, 4, 7), 1);
  gpurf_emu_free(e);
  gpurf_ctx_free(ctx);
}

#define F 0xFFFFFFFFu
#define A 0xAAAAAAAAu
#define S5 0x55555555u
#define T2 0x22222222u
#define E8 0x88888888u

static void test_nested_markers(void **state) {
  (void)state;
  /* the leader is lane 0: even lanes first, then the odd ones, whose inner
   * split runs lane 1's side first; each pop lets the other side run */
  const uint32_t pcs[] = {0x00, 0x04, 0x08, 0x0C, 0x2C, 0x30, 0x34, 0x10, 0x14,
                          0x18, 0x20, 0x1C, 0x20, 0x24, 0x28, 0x34, 0x38, 0x3C};
  const uint32_t masks[] = {F, F, F, F, S5, S5, S5, A, A, A, T2, E8, E8, A, A, A, F, F};
  run_nested(1, GPURF_EMU_RECONV_MARKERS, pcs, masks, (int)N(pcs));
}

static void test_nested_minpc(void **state) {
  (void)state;
  /* the lowest PC first: the odd side (0x10) before the even one (0x2C);
   * lanes waiting at 0x20 join those arriving from 0x1C */
  const uint32_t pcs[] = {0x00, 0x04, 0x08, 0x0C, 0x10, 0x14, 0x18, 0x1C,
                          0x20, 0x24, 0x28, 0x2C, 0x30, 0x34, 0x38, 0x3C};
  const uint32_t masks[] = {F, F, F, F, A, A, A, E8, A, A, A, S5, S5, F, F, F};
  run_nested(1, GPURF_EMU_RECONV_MINPC, pcs, masks, (int)N(pcs));
  /* the same masks without markers: min-PC alone reconverges */
  run_nested(0, GPURF_EMU_RECONV_MINPC, pcs, masks, (int)N(pcs));
}

static void test_unmarked_needs_minpc(void **state) {
  (void)state;
  uint32_t p[16];
  nested(p, 0);
  gpurf_ctx *ctx = test_ctx();
  gpurf_emu *e = make(ctx, 1, GPURF_EMU_RECONV_MARKERS, p, 16);
  assert_int_equal(gpurf_emu_launch(ctx, e, BASE, 0, 0, NULL), GPURF_EINVAL);
  char line[512];
  gpurf_error_format(gpurf_ctx_error(ctx), line, sizeof line);
  assert_string_equal(line, "program: PC 0x0800043c: warp command from a diverged warp "
                            "(mask 0x55555555)");
  gpurf_emu_free(e);
  gpurf_ctx_free(ctx);
}

static void test_barrier(void **state) {
  (void)state;
  /* every thread of two warps adds 1, waits, then reads the sum; without
   * the barrier warp 0 would finish first and read 32 */
  const uint32_t p[] = {LUI(2, 0xBFFF0), ADDI(3, 0, 1), AMOADD(0, 2, 3), BARRIER, LW(4, 2, 0),
                        TERMINATE};
  gpurf_ctx *ctx = test_ctx();
  gpurf_emu *e = make(ctx, 4, GPURF_EMU_RECONV_MARKERS, p, N(p));
  assert_ok(ctx, gpurf_emu_launch(ctx, e, BASE, 2, 0, NULL));
  assert_int_equal(gpurf_emu_reg(e, 0, 0, 4), 64);
  assert_int_equal(gpurf_emu_reg(e, 1, 31, 4), 64);
  /* blocks run one after another: the second block sees the first's sum */
  assert_int_equal(gpurf_emu_reg(e, 2, 0, 4), 128);
  gpurf_emu_free(e);
  gpurf_ctx_free(ctx);
}

/* ---- SIMTight's host interface ---- */

static void test_simtight_host(void **state) {
  (void)state;
  /* host at 0x400: closure, warps per block, launch the kernel at 0x500,
   * poll the result queue, echo a UART byte, emit, finish with the result */
  uint32_t p[80];
  for (int i = 0; i < 80; i++) p[i] = NOP;
  const uint32_t host[] = {
      LUI(10, 0x08008),     CSRRW(0, 0x826, 10), ADDI(11, 0, 1),     CSRRW(0, 0x827, 11),
      CSRRS(16, 0x820, 0),  LUI(12, 0x08000),    ADDI(12, 12, 0x500), CSRRW(0, 0x823, 12),
      CSRRS(13, 0x824, 0),  BEQ(13, 0, -4),      CSRRW(14, 0x825, 0), CSRRS(15, 0x804, 0),
      CSRRW(15, 0x805, 0),  CSRRW(0, 0x803, 15), CSRRW(0, 0x800, 12), CSRRW(0, 0x801, 14)};
  const uint32_t kernel[] = {CSRRS(1, HART, 0), CSRRS(2, 0x831, 0), SLLI(3, 1, 2), ADD(3, 3, 2),
                             SLLI(4, 1, 1),     SW(4, 3, 0),        TERMINATE};
  memcpy(p, host, sizeof host);
  memcpy(p + 64, kernel, sizeof kernel);
  const uint8_t in[] = {'P'};
  gpurf_emu_config cfg = {.warps = 2, .uart_in = in, .uart_in_len = 1};
  gpurf_ctx *ctx = test_ctx();
  gpurf_emu *e = NULL;
  assert_ok(ctx, gpurf_emu_alloc(ctx, &cfg, &e));
  assert_ok(ctx, gpurf_emu_load_words(ctx, e, BASE, p, 80));
  gpurf_emu_result res;
  assert_ok(ctx, gpurf_emu_run(ctx, e, &res));
  assert_int_equal(res.exit_code, 0);
  assert_int_equal(res.kernels, 1);
  assert_int_equal(res.warp_instructions, 14);
  assert_int_equal(gpurf_emu_reg(e, 0, 0, 16), 0); /* the host's registers are its own */
  for (uint32_t t = 0; t < 64; t += 21) {
    uint32_t v = 0;
    assert_ok(ctx, gpurf_emu_read32(ctx, e, 0x08008000u + 4 * t, &v));
    assert_int_equal(v, 2 * t);
  }
  size_t len = 0;
  assert_string_equal(gpurf_emu_output(e, &len), "P08000500\n");
  gpurf_emu_free(e);
  gpurf_ctx_free(ctx);
}

/* ---- errors ---- */

static void expect_error(const uint32_t *p, size_t n, uint64_t limit, const char *want) {
  gpurf_emu_config cfg = {.warps = 1, .step_limit = limit};
  gpurf_ctx *ctx = test_ctx();
  gpurf_emu *e = NULL;
  assert_ok(ctx, gpurf_emu_alloc(ctx, &cfg, &e));
  assert_ok(ctx, gpurf_emu_load_words(ctx, e, BASE, p, n));
  assert_true(gpurf_emu_launch(ctx, e, BASE, 0, 0, NULL) < 0);
  char line[512];
  gpurf_error_format(gpurf_ctx_error(ctx), line, sizeof line);
  assert_string_equal(line, want);
  gpurf_emu_free(e);
  gpurf_ctx_free(ctx);
}

static void test_errors(void **state) {
  (void)state;
  const uint32_t ill[] = {NOP, 0xFFFFFFFFu};
  expect_error(ill, 2, 0, "program: PC 0x08000404: illegal instruction 0xffffffff");
  const uint32_t mis[] = {LUI(2, 0x08008), LW(3, 2, 2), TERMINATE};
  expect_error(mis, 3, 0, "program: PC 0x08000404: misaligned 4-byte access at 0x08008002");
  const uint32_t oor[] = {LW(3, 0, 16), TERMINATE};
  expect_error(oor, 2, 0, "program: PC 0x08000400: access outside the memory map at 0x00000010");
  const uint32_t loop[] = {JAL(0, 0)};
  expect_error(loop, 1, 1000,
               "program: PC 0x08000400: ran past the step limit of 1000 warp instructions");
  const uint32_t pop[] = {POP};
  expect_error(pop, 1, 0, "program: PC 0x08000400: pop below nesting level 0");
  const uint32_t csr[] = {CSRRS(1, 0x7C0, 0)};
  expect_error(csr, 1, 0, "program: PC 0x08000400: unknown SIMT CSR 0x7c0");
  const uint32_t fetch[] = {JALR(0, 0, 0)};
  expect_error(fetch, 1, 0, "program: PC 0x00000000: instruction fetch outside code memory");

  char path[512];
  snprintf(path, sizeof path, "%s/emu_bad.elf", GPURF_TEST_TMP_DIR);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fputs("#!/bin/sh\necho not an elf\n", f);
  fclose(f);
  gpurf_emu_config cfg = {.warps = 1};
  gpurf_ctx *ctx = test_ctx();
  gpurf_emu *e = NULL;
  assert_ok(ctx, gpurf_emu_alloc(ctx, &cfg, &e));
  assert_int_equal(gpurf_emu_load_elf(ctx, e, path), GPURF_EPARSE);
  char want[600], line[600];
  snprintf(want, sizeof want, "%s: not an ELF file", path);
  gpurf_error_format(gpurf_ctx_error(ctx), line, sizeof line);
  assert_string_equal(line, want);
  unlink(path);
  gpurf_emu_free(e);
  gpurf_ctx_free(ctx);
}

/* ---- recording ---- */

static void test_record(void **state) {
  (void)state;
  uint32_t p[16];
  nested(p, 1);
  char path[512];
  snprintf(path, sizeof path, "%s/emu_nested.gtrace", GPURF_TEST_TMP_DIR);
  gpurf_ctx *ctx = test_ctx();
  gpurf_emu *e = make(ctx, 2, GPURF_EMU_RECONV_MARKERS, p, 16);
  gpurf_trace_writer *w = NULL;
  assert_ok(ctx, gpurf_trace_writer_alloc(ctx, path, GPURF_TRACE_FORMAT_TEXT, &w));
  gpurf_trace_recorder *rec = NULL;
  assert_ok(ctx, gpurf_trace_recorder_alloc(ctx, e, w, "nested", &rec));
  assert_ok(ctx, gpurf_emu_launch(ctx, e, BASE, 0, 0, NULL));
  assert_ok(ctx, gpurf_trace_writer_commit(ctx, w));
  gpurf_trace_recorder_free(rec);
  gpurf_trace_writer_free(w);

  gpurf_trace_reader *r = NULL;
  assert_ok(ctx, gpurf_trace_reader_alloc(ctx, path, &r));
  gpurf_trace_inst *t = malloc(sizeof *t);
  int n = 0;
  while (gpurf_trace_next(ctx, r, t) == GPURF_OK) {
    if (n == 0 || n == 18) { /* csrrs x1, mhartid: values are the hart ids */
      assert_string_equal(t->opcode, "CSRRS");
      assert_int_equal(t->warp, n == 0 ? 0 : 1);
      assert_true(t->flags & GPURF_TRACE_HAS_VALUES);
      assert_int_equal(t->values[0][7], (n == 0 ? 0 : 32) + 7);
    }
    if (n == 1) { /* andi x2, x1, 1: the odd lanes read x1 again at 0x10 */
      assert_string_equal(t->opcode, "ANDI");
      assert_int_equal(t->last_use, 0);
    }
    if (n == 7) { /* andi x3, x1, 2 at 0x10 is x1's last read in the warp */
      assert_int_equal(t->pc, BASE + 0x10);
      assert_int_equal(t->last_use, 1);
    }
    if (n == 3) assert_int_equal(t->last_use, 1); /* beq x2, x0: x2 dies; x0 is RZ */
    if (n == 4) assert_int_equal(t->mask, S5);
    if (n == 17) assert_string_equal(t->opcode, "EXIT");
    n++;
  }
  assert_int_equal(n, 36);
  gpurf_trace_stats s;
  assert_ok(ctx, gpurf_trace_stats_file(ctx, path, &s));
  assert_int_equal(s.warp_instructions, 36);
  assert_int_equal(s.warps, 2);
  assert_int_equal(s.ctas, 1);
  assert_true(s.writes_classified > 0);
  free(t);
  gpurf_trace_reader_free(r);
  unlink(path);
  gpurf_emu_free(e);
  gpurf_ctx_free(ctx);
}

/* SIMTight's compression rule beside Collange's, on hand-made writes. */
static void test_stats_simtight_rule(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_trace_stats_acc *acc = NULL;
  assert_ok(ctx, gpurf_trace_stats_alloc(ctx, &acc));
  gpurf_trace_kernel *k = calloc(1, sizeof *k);
  gpurf_trace_inst *t = calloc(1, sizeof *t);
  k->nregs = 8;
  k->binary_version = GPURF_TRACE_ARCH_RV32;
  strcpy(t->opcode, "ADDI");
  t->n_dst = t->n_dst_regs = 1;
  t->dst[0].reg = 1;
  t->dst[0].width = 1;
  t->flags = GPURF_TRACE_HAS_VALUES;
  for (int w = 0; w < 5; w++) {
    t->mask = w == 4 ? 0x0000FFFFu : 0xFFFFFFFFu;
    for (uint32_t l = 0; l < 32; l++) {
      static const uint32_t base[5] = {5, 0x100, 0x101, 0x1000, 7};
      static const uint32_t stride[5] = {0, 1, 1, 4, 0};
      t->values[0][l] = base[w] + l * stride[w];
    }
    t->pc = 4u * (uint32_t)w;
    assert_ok(ctx, gpurf_trace_stats_add(ctx, acc, k, t));
  }
  gpurf_trace_stats s;
  assert_ok(ctx, gpurf_trace_stats_finish(ctx, acc, &s));
  assert_int_equal(s.writes_classified, 5);
  assert_int_equal(s.writes_uniform, 2);  /* 5 everywhere; 7 on the active half */
  assert_int_equal(s.writes_affine, 5);   /* every one has a stride */
  assert_int_equal(s.writes_simtight_uniform, 1);
  assert_int_equal(s.writes_simtight_affine, 3); /* 0x101 + l carries into bit 5 */
  assert_int_equal(s.writes_partial, 1);
  free(k);
  free(t);
  gpurf_trace_stats_free(acc);
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_alu_imm),       cmocka_unit_test(test_alu_reg),
      cmocka_unit_test(test_muldiv),        cmocka_unit_test(test_load_store),
      cmocka_unit_test(test_branch_jump),   cmocka_unit_test(test_atomics),
      cmocka_unit_test(test_csr_stack),     cmocka_unit_test(test_nested_markers),
      cmocka_unit_test(test_nested_minpc),  cmocka_unit_test(test_unmarked_needs_minpc),
      cmocka_unit_test(test_barrier),       cmocka_unit_test(test_simtight_host),
      cmocka_unit_test(test_errors),        cmocka_unit_test(test_record),
      cmocka_unit_test(test_stats_simtight_rule),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
