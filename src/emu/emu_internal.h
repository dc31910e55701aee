/* Private state of the SIMT emulator: pre-decoded code, paged memory,
 * per-warp register files laid out [register][lane] so that one operation
 * over a warp's active lanes is a short loop over contiguous words. */
#ifndef GPURF_EMU_INTERNAL_H
#define GPURF_EMU_INTERNAL_H

#include <stdint.h>

#include "core/ctx_internal.h"
#include "gpurf/emu.h"

#define EMU_LANES GPURF_EMU_LANES
#define EMU_REGS 33 /* x0..x31 and a sink row that writes to x0 land in */
#define EMU_SINK 32
#define EMU_PAGE_BITS 12
#define EMU_PAGE_BYTES (1u << EMU_PAGE_BITS)
#define EMU_PRIV_BYTES (0u - GPURF_EMU_PRIVATE_BASE) /* 512 KiB per thread */
#define EMU_PRIV_PAGES (EMU_PRIV_BYTES >> EMU_PAGE_BITS)
#define EMU_CODE_BYTES (1u << 20) /* decoded window from GPURF_EMU_CODE_BASE */
#define EMU_HOST_WARP GPURF_EMU_MAX_WARPS /* the host is warp 64, lane 0 */
#define EMU_QUEUE 16

enum emu_op {
  OP_UNDECODED = 0,
  OP_ILLEGAL,
  OP_LUI, OP_AUIPC, OP_JAL, OP_JALR,
  OP_BEQ, OP_BNE, OP_BLT, OP_BGE, OP_BLTU, OP_BGEU,
  OP_LB, OP_LH, OP_LW, OP_LBU, OP_LHU,
  OP_SB, OP_SH, OP_SW,
  OP_ADDI, OP_SLTI, OP_SLTIU, OP_XORI, OP_ORI, OP_ANDI, OP_SLLI, OP_SRLI, OP_SRAI,
  OP_ADD, OP_SUB, OP_SLL, OP_SLT, OP_SLTU, OP_XOR, OP_SRL, OP_SRA, OP_OR, OP_AND,
  OP_MUL, OP_MULH, OP_MULHSU, OP_MULHU, OP_DIV, OP_DIVU, OP_REM, OP_REMU,
  OP_LR, OP_SC, OP_AMOSWAP, OP_AMOADD, OP_AMOXOR, OP_AMOAND, OP_AMOOR,
  OP_AMOMIN, OP_AMOMAX, OP_AMOMINU, OP_AMOMAXU,
  OP_FENCE, OP_ECALL, OP_EBREAK,
  OP_CSRRW, OP_CSRRS, OP_CSRRC, OP_CSRRWI, OP_CSRRSI, OP_CSRRCI,
  OP_PUSH, OP_POP, OP_FLUSH,
  OP_COUNT
};

/* One decoded instruction. rd is EMU_SINK for x0; imm holds the CSR number
 * for CSR instructions and rs1 the zimm of their immediate forms. */
typedef struct dinst {
  uint8_t op, rd, rs1, rs2;
  int32_t imm;
} dinst;

typedef struct emu_warp {
  uint32_t x[EMU_REGS][EMU_LANES];
  uint32_t pc[EMU_LANES];   /* valid for lanes not in active */
  uint32_t nest[EMU_LANES];
  uint32_t live;            /* lanes not terminated */
  uint32_t active;          /* lanes that execute the next step, at cur_pc */
  uint32_t cur_pc, cur_nest;
  uint32_t resv[EMU_LANES]; /* LR reservation address + 1, 0 for none */
  int waiting;              /* at a barrier */
  int cmd;                  /* warp command written by this step, -1 none */
  int failed;               /* terminated with failure */
} emu_warp;

struct gpurf_emu {
  gpurf_emu_config cfg;
  char file[512];           /* for error messages */
  dinst *code;              /* EMU_CODE_BYTES / 4 entries */
  uint8_t **pages;          /* 2^20 global pages, allocated when touched */
  uint8_t **priv;           /* per thread EMU_PRIV_PAGES pages */
  emu_warp *warps;          /* cfg.warps SIMT warps and the host */
  emu_warp *host;
  /* host-side CSR state */
  size_t uart_pos;
  char *out;
  size_t out_len, out_cap;
  uint32_t closure, wpb_csr, queue[EMU_QUEUE], q_head, q_len;
  int finished;
  int launch_pending;       /* the host wrote 0x823 this step */
  uint32_t launch_pc;
  uint32_t exit_code;
  /* the launch running */
  uint32_t launch_closure;
  uint32_t launch_wpb;
  uint64_t steps;           /* all warp instructions, host included */
  uint64_t step_limit;
  gpurf_emu_result res;
  /* fault raised inside execution */
  int fault;
  uint32_t fault_pc;
  char fault_msg[160];
  /* recording */
  const gpurf_emu_recorder *rec;
  void *rec_user;
  gpurf_emu_step_fn hook;
  void *hook_user;
  gpurf_emu_launch_fn launch_hook;
  void *launch_user;
};

/* decode.c */
void emu_decode(uint32_t word, dinst *d);
const char *emu_op_name(int op);

/* mem.c */
int emu_mem_alloc(gpurf_emu *e);
void emu_mem_free(gpurf_emu *e);
uint8_t *emu_page_slow(gpurf_emu *e, uint32_t addr);
uint8_t *emu_priv_page(gpurf_emu *e, uint32_t thread, uint32_t addr);
/* A pointer to size bytes at addr for thread (warp * 32 + lane), or NULL
 * with the fault set. */
static inline uint8_t *emu_mem(gpurf_emu *e, uint32_t thread, uint32_t addr, uint32_t size,
                               int is_host) {
  if (addr & (size - 1)) return NULL;
  if (addr >= GPURF_EMU_PRIVATE_BASE && !is_host) {
    uint8_t *p = emu_priv_page(e, thread, addr);
    return p ? p + (addr & (EMU_PAGE_BYTES - 1)) : NULL;
  }
  uint8_t *p = e->pages[addr >> EMU_PAGE_BITS];
  if (!p) p = emu_page_slow(e, addr);
  return p ? p + (addr & (EMU_PAGE_BYTES - 1)) : NULL;
}
int emu_mem_fault(gpurf_emu *e, uint32_t pc, uint32_t addr, uint32_t size, int is_host);
int emu_set_fault(gpurf_emu *e, uint32_t pc, const char *fmt, ...) GPURF_PRINTF(3, 4);

/* csr.c: one lane's CSR access; returns 0 or sets the fault. */
int emu_csr(gpurf_emu *e, emu_warp *w, uint32_t warp, uint32_t lane, uint32_t csr, int do_read,
            int do_write, uint32_t wval, uint32_t *rval, uint32_t pc);

/* exec.c: one warp instruction of w over its active lanes. */
enum { EXEC_OK = 0, EXEC_FAULT = 1, EXEC_BARRIER = 2, EXEC_TERMINATE = 3 };
int emu_exec(gpurf_emu *e, emu_warp *w, uint32_t warp, int is_host);
/* simt.c */
void emu_warp_reset(emu_warp *w, uint32_t pc, uint32_t sp, uint32_t lanes);
void emu_select(const gpurf_emu *e, emu_warp *w);
int emu_run_launch(gpurf_ctx *ctx, gpurf_emu *e, uint32_t pc, uint32_t wpb, int *failed);
int emu_fail_fault(gpurf_ctx *ctx, gpurf_emu *e);

/* step.c: describes a step to the recorder. */
int emu_record_step(gpurf_emu *e, emu_warp *w, uint32_t warp, const dinst *d, uint32_t pc,
                    uint32_t mask, const uint32_t *addr);

#endif
