/* A functional SIMT emulator for RV32IMA + Zicsr programs written against
 * SIMTight's interface (a scalar host that launches kernels on a SIMT core
 * of W warps x 32 lanes), with optional recording of native traces that
 * carry every lane's destination values and last-use hints.
 *
 * Recording lives in the trace layer (gpurf_trace_recorder_alloc in
 * gpurf/trace.h), which attaches itself through gpurf_emu_set_recorder.
 *
 * Memory map and CSRs follow SIMTight: code from 0x08000400, data from
 * 0x08008000, the host's stack below 0xBFF6FFF8, 64 KiB shared local memory
 * at 0xBFFF0000, and per-thread SIMT stacks (sp = 0xFFFFFFF8; addresses at or
 * above 0xFFF80000 are private to each thread). docs/emulator.md has the
 * details. */
#ifndef GPURF_EMU_H
#define GPURF_EMU_H

#include <stddef.h>
#include <stdint.h>

#include "gpurf/context.h"
#include "gpurf/export.h"

GPURF_BEGIN_DECLS

#define GPURF_EMU_LANES 32
#define GPURF_EMU_MAX_WARPS 64

#define GPURF_EMU_CODE_BASE 0x08000000u
#define GPURF_EMU_ENTRY 0x08000400u
#define GPURF_EMU_DATA_BASE 0x08008000u
#define GPURF_EMU_HOST_SP 0xBFF6FFF8u
#define GPURF_EMU_DRAM_END 0xBFF70000u
#define GPURF_EMU_SHARED_BASE 0xBFFF0000u
#define GPURF_EMU_SHARED_BYTES 0x10000u
#define GPURF_EMU_PRIVATE_BASE 0xFFF80000u /* per-thread stacks above this */
#define GPURF_EMU_SIMT_SP 0xFFFFFFF8u

/* How the active lanes are chosen among those at the deepest nesting level. */
typedef enum gpurf_emu_reconv {
  /* SIMTight's rule: the lanes at the leader's PC, the leader being the
   * lowest-numbered lane; push/pop markers make divergent code reconverge. */
  GPURF_EMU_RECONV_MARKERS = 0,
  /* The lanes at the lowest PC run first, so that code without markers
   * reconverges at the first common PC after a forward branch. */
  GPURF_EMU_RECONV_MINPC = 1
} gpurf_emu_reconv;

typedef struct gpurf_emu_config {
  uint32_t warps;          /* warps of the SIMT core, 1..64 */
  gpurf_emu_reconv reconv;
  uint64_t step_limit;     /* warp instructions (host and SIMT) before giving up; 0: 2^32 */
  const uint8_t *uart_in;  /* bytes the host reads from the UART (CSR 0x805) */
  size_t uart_in_len;
} gpurf_emu_config;

typedef struct gpurf_emu gpurf_emu;

GPURF_API int gpurf_emu_alloc(gpurf_ctx *ctx, const gpurf_emu_config *cfg, gpurf_emu **out);
GPURF_API void gpurf_emu_free(gpurf_emu *emu);

/* Loads an ELF32 RISC-V executable (PT_LOAD segments; .bss zeroed). Errors
 * name the file. */
GPURF_API int gpurf_emu_load_elf(gpurf_ctx *ctx, gpurf_emu *emu, const char *path);
/* Copies n words to addr (instructions are decoded when executed from there).
 * For tests and hand-assembled programs. */
GPURF_API int gpurf_emu_load_words(gpurf_ctx *ctx, gpurf_emu *emu, uint32_t addr,
                                   const uint32_t *words, size_t n);

/* One SIMT warp instruction as a recorder sees it, after it executed. */
#define GPURF_EMU_OPS 80 /* op is below this */
typedef enum gpurf_emu_space {
  GPURF_EMU_SPACE_NONE = 0,
  GPURF_EMU_SPACE_GLOBAL = 1, /* DRAM */
  GPURF_EMU_SPACE_SHARED = 2, /* shared local memory */
  GPURF_EMU_SPACE_LOCAL = 3   /* a thread's private stack */
} gpurf_emu_space;

typedef enum gpurf_emu_cmd {
  GPURF_EMU_CMD_NONE = 0,
  GPURF_EMU_CMD_BARRIER = 1,  /* the warp-command write waits at the barrier */
  GPURF_EMU_CMD_EXIT = 2      /* the warp-command write terminates the warp */
} gpurf_emu_cmd;

typedef struct gpurf_emu_step {
  uint32_t warp;        /* warp of the core */
  uint32_t pc, mask;
  uint8_t op;           /* operation, < GPURF_EMU_OPS; same op, same mnemonic */
  const char *mnemonic; /* RISC-V mnemonic in capitals, e.g. "ADDI", "AMOADD.W" */
  uint8_t rd;           /* destination register; 0 when none or x0 */
  uint8_t writes_rd;    /* the instruction has a destination (possibly x0) */
  uint8_t n_src;        /* source registers rs[0..n_src) (x0 included) */
  uint8_t rs[2];
  uint8_t has_imm;
  int32_t imm;
  uint8_t mem_width;    /* bytes per lane of a memory access, 0 none */
  gpurf_emu_space space; /* of the first active lane's address */
  gpurf_emu_cmd cmd;
  const uint32_t *values; /* x[rd] of all 32 lanes (active ones valid); NULL when rd is 0 */
  const uint32_t *addr;   /* per-lane addresses of a memory access; NULL otherwise */
} gpurf_emu_step;

/* A recorder: step is called after every SIMT warp instruction; a launch
 * runs its blocks (groups of warps) one after another and calls block_end
 * after each, so a recorder that buffers per warp can write each block's
 * warps contiguously. A non-zero return from step stops the run with an
 * out-of-memory fault; block_end and launch_end return a status and fill
 * ctx's error themselves. */
typedef struct gpurf_emu_recorder {
  int (*launch_begin)(void *user, uint32_t warps, uint32_t warps_per_block);
  int (*step)(void *user, const gpurf_emu_step *s);
  int (*block_end)(gpurf_ctx *ctx, void *user, uint32_t first_warp, uint32_t block);
  int (*launch_end)(gpurf_ctx *ctx, void *user);
} gpurf_emu_recorder;

/* Attaches (or with NULL detaches) a recorder; rec must outlive the runs. */
GPURF_API void gpurf_emu_set_recorder(gpurf_emu *emu, const gpurf_emu_recorder *rec, void *user);

/* How a run ended. */
typedef struct gpurf_emu_result {
  uint32_t exit_code;        /* value the host wrote to CSR 0x801 (0 pass) */
  uint32_t kernels;          /* SIMT launches */
  uint32_t kernel_failures;  /* launches in which a warp terminated with failure */
  uint64_t host_instructions;
  uint64_t warp_instructions;   /* SIMT */
  uint64_t thread_instructions; /* SIMT, sum of active lanes */
  uint64_t divergent_steps;     /* SIMT warp instructions with a partial mask */
} gpurf_emu_result;

/* Runs the host from the ELF entry (sp = 0xBFF6FFF8) until it writes the
 * finish CSR 0x801. SIMT launches (CSR 0x823) run to completion in between.
 * Illegal instructions, bad accesses and the step limit are errors of the
 * form "FILE: PC 0x...: what". */
GPURF_API int gpurf_emu_run(gpurf_ctx *ctx, gpurf_emu *emu, gpurf_emu_result *out);

/* Runs the SIMT core alone from pc with the given warps per block (0: all)
 * and closure address (CSR 0x831), as the host's launch would. */
GPURF_API int gpurf_emu_launch(gpurf_ctx *ctx, gpurf_emu *emu, uint32_t pc,
                               uint32_t warps_per_block, uint32_t closure,
                               gpurf_emu_result *out);

/* Register x[reg] of a SIMT thread (warp, lane) after a run. */
GPURF_API uint32_t gpurf_emu_reg(const gpurf_emu *emu, uint32_t warp, uint32_t lane,
                                 uint32_t reg);
/* Reads/writes 32-bit words of memory as the host sees it. */
GPURF_API int gpurf_emu_read32(gpurf_ctx *ctx, gpurf_emu *emu, uint32_t addr, uint32_t *value);
GPURF_API int gpurf_emu_write32(gpurf_ctx *ctx, gpurf_emu *emu, uint32_t addr, uint32_t value);

/* Bytes the program wrote to the UART (CSR 0x803) and to the emit CSR 0x800
 * (as 8 hexadecimal digits and a newline each). Valid until the next run. */
GPURF_API const char *gpurf_emu_output(const gpurf_emu *emu, size_t *len);

/* Called after each SIMT warp instruction when set (tests use it to check
 * active masks). Not called for the host. */
typedef void (*gpurf_emu_step_fn)(void *user, uint32_t warp, uint32_t pc, uint32_t mask);
GPURF_API void gpurf_emu_set_step_hook(gpurf_emu *emu, gpurf_emu_step_fn fn, void *user);

/* The kernel suite (workloads/riscv/), terminated by an entry with name
 * NULL. The ELFs are built when the cross compiler is installed. */
typedef struct gpurf_emu_kernel_info {
  const char *name;
  const char *summary;
  const char *stresses; /* what it exercises in a register file */
} gpurf_emu_kernel_info;
GPURF_API const gpurf_emu_kernel_info *gpurf_emu_suite(void);

/* Called when a SIMT launch starts (begin = 1) and ends (begin = 0); lets a
 * caller time the SIMT part of a run. */
typedef void (*gpurf_emu_launch_fn)(void *user, int begin);
GPURF_API void gpurf_emu_set_launch_hook(gpurf_emu *emu, gpurf_emu_launch_fn fn, void *user);

GPURF_END_DECLS

#endif
