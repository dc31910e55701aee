/* Classes of the RISC-V mnemonics in traces recorded by the emulator. A
 * memory instruction names its space by a suffix: none for global memory,
 * ".SHARED" for shared local memory, ".LOCAL" for a thread's private stack.
 * BAR and EXIT are the warp-command CSR writes that wait at the barrier and
 * terminate the warp. Latencies as for SASS (Gebhart et al., TOCS 2012,
 * Sec. 3): global and local memory long; shared memory, special registers
 * (CSRs) and the iterative divider medium; the rest short. */
#include <string.h>

#include "trace/trace_internal.h"

typedef struct rv_row {
  const char *name;
  unsigned char cls, lat, mem; /* mem: 1 memory access, 0 none */
  unsigned char width;
} rv_row;

#define IN GPURF_TRACE_CLASS_INT
#define BR GPURF_TRACE_CLASS_BRANCH
#define BA GPURF_TRACE_CLASS_BARRIER
#define OT GPURF_TRACE_CLASS_OTHER
#define LD GPURF_TRACE_CLASS_LD_GLOBAL
#define ST GPURF_TRACE_CLASS_ST_GLOBAL
#define S GPURF_TRACE_LAT_SHORT
#define M GPURF_TRACE_LAT_MEDIUM

static const rv_row rows[] = {
    {"ADD", IN, S, 0, 0},    {"ADDI", IN, S, 0, 0},  {"AMOADD.W", LD, S, 1, 4},
    {"AMOAND.W", LD, S, 1, 4}, {"AMOMAX.W", LD, S, 1, 4}, {"AMOMAXU.W", LD, S, 1, 4},
    {"AMOMIN.W", LD, S, 1, 4}, {"AMOMINU.W", LD, S, 1, 4}, {"AMOOR.W", LD, S, 1, 4},
    {"AMOSWAP.W", LD, S, 1, 4}, {"AMOXOR.W", LD, S, 1, 4}, {"AND", IN, S, 0, 0},
    {"ANDI", IN, S, 0, 0},   {"AUIPC", IN, S, 0, 0}, {"BAR", BA, S, 0, 0},
    {"BEQ", BR, S, 0, 0},    {"BGE", BR, S, 0, 0},   {"BGEU", BR, S, 0, 0},
    {"BLT", BR, S, 0, 0},    {"BLTU", BR, S, 0, 0},  {"BNE", BR, S, 0, 0},
    {"CSRRC", IN, M, 0, 0},  {"CSRRCI", IN, M, 0, 0}, {"CSRRS", IN, M, 0, 0},
    {"CSRRSI", IN, M, 0, 0}, {"CSRRW", IN, M, 0, 0}, {"CSRRWI", IN, M, 0, 0},
    {"DIV", IN, M, 0, 0},    {"DIVU", IN, M, 0, 0},  {"EXIT", BR, S, 0, 0},
    {"FENCE", BA, S, 0, 0},  {"FLUSH", OT, S, 0, 0}, {"JAL", BR, S, 0, 0},
    {"JALR", BR, S, 0, 0},   {"LB", LD, S, 1, 1},    {"LBU", LD, S, 1, 1},
    {"LH", LD, S, 1, 2},     {"LHU", LD, S, 1, 2},   {"LR.W", LD, S, 1, 4},
    {"LUI", IN, S, 0, 0},    {"LW", LD, S, 1, 4},    {"MUL", IN, S, 0, 0},
    {"MULH", IN, S, 0, 0},   {"MULHSU", IN, S, 0, 0}, {"MULHU", IN, S, 0, 0},
    {"OR", IN, S, 0, 0},     {"ORI", IN, S, 0, 0},   {"POP", BR, S, 0, 0},
    {"PUSH", BR, S, 0, 0},   {"REM", IN, M, 0, 0},   {"REMU", IN, M, 0, 0},
    {"SB", ST, S, 1, 1},     {"SC.W", LD, S, 1, 4},  {"SH", ST, S, 1, 2},
    {"SLL", IN, S, 0, 0},    {"SLLI", IN, S, 0, 0},  {"SLT", IN, S, 0, 0},
    {"SLTI", IN, S, 0, 0},   {"SLTIU", IN, S, 0, 0}, {"SLTU", IN, S, 0, 0},
    {"SRA", IN, S, 0, 0},    {"SRAI", IN, S, 0, 0},  {"SRL", IN, S, 0, 0},
    {"SRLI", IN, S, 0, 0},   {"SUB", IN, S, 0, 0},   {"SW", ST, S, 1, 4},
    {"XOR", IN, S, 0, 0},    {"XORI", IN, S, 0, 0},
};

static const rv_row *find(const char *opcode, gpurf_trace_mem *space) {
  char base[GPURF_TRACE_OPCODE_MAX];
  size_t n = strlen(opcode);
  *space = GPURF_TRACE_MEM_GLOBAL;
  if (n > 7 && strcmp(opcode + n - 7, ".SHARED") == 0) n -= 7, *space = GPURF_TRACE_MEM_SHARED;
  else if (n > 6 && strcmp(opcode + n - 6, ".LOCAL") == 0) n -= 6, *space = GPURF_TRACE_MEM_LOCAL;
  if (n >= sizeof base) return NULL;
  memcpy(base, opcode, n);
  base[n] = '\0';
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    if (strcmp(rows[i].name, base) == 0)
      return rows[i].mem || *space == GPURF_TRACE_MEM_GLOBAL ? &rows[i] : NULL;
  return NULL;
}

int tr_classify_rv(const char *opcode, gpurf_trace_class *cls, gpurf_trace_latency *lat,
                   gpurf_trace_mem *mem) {
  gpurf_trace_mem space;
  const rv_row *r = find(opcode, &space);
  if (!r) {
    *cls = GPURF_TRACE_CLASS_OTHER, *lat = GPURF_TRACE_LAT_SHORT, *mem = GPURF_TRACE_MEM_NONE;
    return 0;
  }
  *cls = (gpurf_trace_class)r->cls;
  *lat = (gpurf_trace_latency)r->lat;
  *mem = GPURF_TRACE_MEM_NONE;
  if (r->mem) {
    *mem = space;
    int shared = space == GPURF_TRACE_MEM_SHARED;
    if (shared) *cls = r->cls == ST ? GPURF_TRACE_CLASS_ST_SHARED : GPURF_TRACE_CLASS_LD_SHARED;
    *lat = shared ? GPURF_TRACE_LAT_MEDIUM : GPURF_TRACE_LAT_LONG;
  }
  return 1;
}

uint8_t tr_rv_mem_width(const char *opcode) {
  gpurf_trace_mem space;
  const rv_row *r = find(opcode, &space);
  return r ? r->width : 0;
}
