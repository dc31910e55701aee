/* SASS opcode classes and operand widths for sm_61, sm_70, sm_75, sm_80 and
 * sm_86. The table is keyed by the mnemonic before the first '.'; modifiers
 * only matter for operand widths. Classes follow the functional unit that
 * executes the instruction; latency classes follow Gebhart et al. (TOCS 2012,
 * Sec. 3): texture and global/local memory are long, SFU, shared memory, FP64
 * and special registers medium, the rest short. */
#include <stdlib.h>
#include <string.h>

#include "trace/trace_internal.h"

enum {
  A6 = 1, /* sm_5x and sm_6x share the Maxwell/Pascal ISA */
  A70 = 2,
  A75 = 4,
  A80 = 8,
  A86 = 16,
  AV = A70 | A75 | A80 | A86,
  AT = A75 | A80 | A86,
  AA = A80 | A86,
  ALL = A6 | AV
};

typedef struct op_row {
  const char *name;
  unsigned char cls, lat, mem, arch;
} op_row;

#define FP GPURF_TRACE_CLASS_FP
#define IN GPURF_TRACE_CLASS_INT
#define SF GPURF_TRACE_CLASS_SFU
#define LG GPURF_TRACE_CLASS_LD_GLOBAL
#define SG GPURF_TRACE_CLASS_ST_GLOBAL
#define LS GPURF_TRACE_CLASS_LD_SHARED
#define SS GPURF_TRACE_CLASS_ST_SHARED
#define BR GPURF_TRACE_CLASS_BRANCH
#define BA GPURF_TRACE_CLASS_BARRIER
#define OT GPURF_TRACE_CLASS_OTHER
#define S GPURF_TRACE_LAT_SHORT
#define M GPURF_TRACE_LAT_MEDIUM
#define L GPURF_TRACE_LAT_LONG
#define N0 GPURF_TRACE_MEM_NONE
#define GL GPURF_TRACE_MEM_GLOBAL
#define LO GPURF_TRACE_MEM_LOCAL
#define SH GPURF_TRACE_MEM_SHARED
#define CO GPURF_TRACE_MEM_CONSTANT
#define TX GPURF_TRACE_MEM_TEXTURE
#define GE GPURF_TRACE_MEM_GENERIC

/* Sorted by name (strcmp order); rows sharing a name differ by architecture. */
static const op_row rows[] = {
    {"ATOM", LG, L, GE, ALL},     {"ATOMG", LG, L, GL, ALL},     {"ATOMS", LS, M, SH, ALL},
    {"B2R", OT, S, N0, ALL},      {"BAR", BA, S, N0, ALL},       {"BFE", IN, S, N0, A6},
    {"BFI", IN, S, N0, A6},       {"BMMA", FP, M, N0, AT},       {"BMOV", OT, S, N0, AV},
    {"BMSK", IN, S, N0, AV},      {"BPT", OT, S, N0, ALL},       {"BRA", BR, S, N0, ALL},
    {"BREAK", BR, S, N0, AV},     {"BREV", IN, S, N0, ALL},      {"BRK", BR, S, N0, A6},
    {"BRX", BR, S, N0, ALL},      {"BSSY", BR, S, N0, AV},       {"BSYNC", BR, S, N0, AV},
    {"CAL", BR, S, N0, A6},       {"CALL", BR, S, N0, AV},       {"CCTL", OT, M, N0, ALL},
    {"CCTLL", OT, M, N0, ALL},    {"CONT", BR, S, N0, A6},       {"CS2R", IN, S, N0, AV},
    {"CSET", IN, S, N0, A6},      {"CSETP", IN, S, N0, A6},      {"DADD", FP, M, N0, ALL},
    {"DEPBAR", BA, S, N0, ALL},   {"DFMA", FP, M, N0, ALL},      {"DMMA", FP, M, N0, AA},
    {"DMNMX", FP, M, N0, A6},     {"DMUL", FP, M, N0, ALL},      {"DSET", FP, M, N0, A6},
    {"DSETP", FP, M, N0, ALL},    {"ERRBAR", BA, S, N0, AV},     {"EXIT", BR, S, N0, ALL},
    {"F2F", SF, M, N0, ALL},      {"F2FP", FP, S, N0, AT},       {"F2I", SF, M, N0, ALL},
    {"FADD", FP, S, N0, ALL},     {"FADD32I", FP, S, N0, ALL},   {"FCHK", FP, S, N0, ALL},
    {"FCMP", FP, S, N0, ALL},     {"FFMA", FP, S, N0, ALL},      {"FFMA32I", FP, S, N0, ALL},
    {"FLO", IN, S, N0, ALL},      {"FMNMX", FP, S, N0, ALL},     {"FMUL", FP, S, N0, ALL},
    {"FMUL32I", FP, S, N0, ALL},  {"FRND", SF, M, N0, ALL},      {"FSEL", FP, S, N0, ALL},
    {"FSET", FP, S, N0, ALL},     {"FSETP", FP, S, N0, ALL},     {"FSWZADD", FP, S, N0, ALL},
    {"HADD2", FP, S, N0, ALL},    {"HFMA2", FP, S, N0, ALL},     {"HMMA", FP, M, N0, AV},
    {"HMNMX2", FP, S, N0, AA},    {"HMUL2", FP, S, N0, ALL},     {"HSET2", FP, S, N0, ALL},
    {"HSETP2", FP, S, N0, ALL},   {"I2F", SF, M, N0, ALL},       {"I2I", SF, M, N0, ALL},
    {"I2IP", IN, S, N0, AA},      {"IABS", IN, S, N0, AV},       {"IADD", IN, S, N0, A6},
    {"IADD3", IN, S, N0, ALL},    {"IADD32I", IN, S, N0, A6},    {"ICMP", IN, S, N0, ALL},
    {"IDP", IN, S, N0, AT},       {"IMAD", IN, M, N0, A6},       {"IMAD", IN, S, N0, AV},
    {"IMADSP", IN, M, N0, A6},    {"IMMA", FP, M, N0, AT},       {"IMNMX", IN, S, N0, ALL},
    {"IMUL", IN, M, N0, A6},      {"IMUL32I", IN, M, N0, A6},    {"ISCADD", IN, S, N0, A6},
    {"ISCADD32I", IN, S, N0, A6}, {"ISET", IN, S, N0, A6},       {"ISETP", IN, S, N0, ALL},
    {"JCAL", BR, S, N0, A6},      {"JMP", BR, S, N0, ALL},       {"JMX", BR, S, N0, ALL},
    {"KILL", BR, S, N0, ALL},     {"LD", LG, L, GE, ALL},        {"LDC", OT, M, CO, ALL},
    {"LDG", LG, L, GL, ALL},      {"LDGDEPBAR", BA, S, N0, AA},  {"LDGSTS", LG, L, GL, AA},
    {"LDL", LG, L, LO, ALL},      {"LDS", LS, M, SH, ALL},       {"LDSM", LS, M, SH, AT},
    {"LEA", IN, S, N0, ALL},      {"LEPC", IN, S, N0, AV},       {"LOP", IN, S, N0, A6},
    {"LOP3", IN, S, N0, ALL},     {"LOP32I", IN, S, N0, A6},     {"MATCH", OT, M, N0, AV},
    {"MEMBAR", BA, M, N0, ALL},   {"MOV", IN, S, N0, ALL},       {"MOV32I", IN, S, N0, A6},
    {"MUFU", SF, M, N0, ALL},     {"NANOSLEEP", OT, S, N0, AV},  {"NOP", OT, S, N0, ALL},
    {"P2R", IN, S, N0, ALL},      {"PBK", BR, S, N0, A6},        {"PCNT", BR, S, N0, A6},
    {"PEXIT", BR, S, N0, A6},     {"PLOP3", IN, S, N0, ALL},     {"POPC", IN, S, N0, ALL},
    {"PRET", BR, S, N0, A6},      {"PRMT", IN, S, N0, ALL},      {"PSET", IN, S, N0, A6},
    {"PSETP", IN, S, N0, A6},     {"R2B", OT, S, N0, AV},        {"R2P", IN, S, N0, ALL},
    {"R2UR", IN, S, N0, AT},      {"RED", SG, L, GL, ALL},       {"RET", BR, S, N0, ALL},
    {"RPCMOV", OT, S, N0, AV},    {"RRO", SF, M, N0, A6},        {"S2R", IN, M, N0, ALL},
    {"S2UR", IN, M, N0, AT},      {"SEL", IN, S, N0, ALL},       {"SGXT", IN, S, N0, AV},
    {"SHF", IN, S, N0, ALL},      {"SHFL", OT, M, N0, ALL},      {"SHL", IN, S, N0, A6},
    {"SHR", IN, S, N0, A6},       {"SSY", BR, S, N0, A6},        {"ST", SG, L, GE, ALL},
    {"STG", SG, L, GL, ALL},      {"STL", SG, L, LO, ALL},       {"STS", SS, M, SH, ALL},
    {"SUATOM", LG, L, TX, ALL},   {"SULD", LG, L, TX, ALL},      {"SURED", SG, L, TX, ALL},
    {"SUST", SG, L, TX, ALL},     {"SYNC", BR, S, N0, A6},       {"TEX", LG, L, TX, ALL},
    {"TEXS", LG, L, TX, ALL},     {"TLD", LG, L, TX, ALL},       {"TLD4", LG, L, TX, ALL},
    {"TLD4S", LG, L, TX, ALL},    {"TLDS", LG, L, TX, ALL},      {"TMML", LG, L, TX, ALL},
    {"TXD", LG, L, TX, ALL},      {"TXQ", LG, L, TX, ALL},       {"UBMSK", IN, S, N0, AT},
    {"UBREV", IN, S, N0, AT},     {"UFLO", IN, S, N0, AT},       {"UIADD3", IN, S, N0, AT},
    {"UIMAD", IN, S, N0, AT},     {"UISETP", IN, S, N0, AT},     {"ULDC", OT, M, CO, AT},
    {"ULEA", IN, S, N0, AT},      {"ULOP", IN, S, N0, AT},       {"ULOP3", IN, S, N0, AT},
    {"ULOP32I", IN, S, N0, AT},   {"UMOV", IN, S, N0, AT},       {"UP2UR", IN, S, N0, AT},
    {"UPLOP3", IN, S, N0, AT},    {"UPOPC", IN, S, N0, AT},      {"UPRMT", IN, S, N0, AT},
    {"UPSETP", IN, S, N0, AT},    {"UR2UP", IN, S, N0, AT},      {"USEL", IN, S, N0, AT},
    {"USGXT", IN, S, N0, AT},     {"USHF", IN, S, N0, AT},       {"USHL", IN, S, N0, AT},
    {"USHR", IN, S, N0, AT},      {"VABSDIFF", IN, S, N0, ALL},  {"VABSDIFF4", IN, S, N0, ALL},
    {"VADD", IN, S, N0, A6},      {"VMAD", IN, S, N0, A6},       {"VMNMX", IN, S, N0, A6},
    {"VOTE", OT, S, N0, ALL},     {"VOTEU", IN, S, N0, AT},      {"VSET", IN, S, N0, A6},
    {"VSETP", IN, S, N0, A6},     {"VSHL", IN, S, N0, A6},       {"VSHR", IN, S, N0, A6},
    {"WARPSYNC", BA, S, N0, ALL}, {"XMAD", IN, S, N0, A6},       {"YIELD", OT, S, N0, AV},
};

/* sm_5x and sm_6x share a table; a version above the newest table uses it. */
static unsigned arch_bit(uint32_t bv) {
  if (bv == 0) return ALL;
  if (bv < 70) return A6;
  if (bv < 75) return A70;
  if (bv < 80) return A75;
  if (bv < 86) return A80;
  return A86; /* newer parts keep Ampere's opcodes; new ones class as OTHER */
}

static int cmp_key(const void *key, const void *row) {
  return strcmp((const char *)key, ((const op_row *)row)->name);
}

int gpurf_trace_classify(const char *opcode, uint32_t bv, gpurf_trace_class *cls,
                         gpurf_trace_latency *lat, gpurf_trace_mem *mem) {
  if (bv == GPURF_TRACE_ARCH_RV32) return tr_classify_rv(opcode, cls, lat, mem);
  char base[GPURF_TRACE_OPCODE_MAX];
  size_t n = strcspn(opcode, ".");
  if (n >= sizeof base) n = sizeof base - 1;
  memcpy(base, opcode, n);
  base[n] = '\0';
  const op_row *hit = bsearch(base, rows, sizeof rows / sizeof rows[0], sizeof rows[0], cmp_key);
  const op_row *use = NULL;
  int native = 0;
  if (hit) {
    const op_row *first = hit, *end = rows + sizeof rows / sizeof rows[0];
    while (first > rows && strcmp(first[-1].name, base) == 0) first--;
    unsigned bit = arch_bit(bv);
    for (const op_row *r = first; r < end && strcmp(r->name, base) == 0; r++)
      if (r->arch & bit) {
        use = r;
        native = 1;
        break;
      }
    if (!use) use = first;
  }
  *cls = use ? (gpurf_trace_class)use->cls : GPURF_TRACE_CLASS_OTHER;
  *lat = use ? (gpurf_trace_latency)use->lat : GPURF_TRACE_LAT_SHORT;
  *mem = use ? (gpurf_trace_mem)use->mem : GPURF_TRACE_MEM_NONE;
  return native;
}

/* Bits of a conversion or arithmetic type modifier; 0 if not a type. */
static int type_bits(const char *t, size_t n, char *cat) {
  if (n < 2 || n > 3) return 0;
  char c = t[0];
  if (c != 'F' && c != 'S' && c != 'U') return 0;
  for (size_t i = 1; i < n; i++)
    if (t[i] < '0' || t[i] > '9') return 0;
  int bits = atoi(t + 1);
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64) return 0;
  *cat = c == 'F' ? 'F' : 'I';
  return bits;
}

static int all_digits(const char *t, size_t n) {
  if (n == 0) return 0;
  for (size_t i = 0; i < n; i++)
    if (t[i] < '0' || t[i] > '9') return 0;
  return 1;
}

void gpurf_trace_infer_widths(gpurf_trace_inst *inst, uint32_t bv) {
  for (unsigned i = 0; i < GPURF_TRACE_MAX_DST; i++) inst->dst[i].width = 1;
  for (unsigned i = 0; i < GPURF_TRACE_MAX_SRC; i++) inst->src[i].width = 1;
  if (bv == GPURF_TRACE_ARCH_RV32) { /* RV32 registers are all 32-bit */
    if (inst->mem != GPURF_TRACE_MEM_NONE && !inst->mem_width)
      inst->mem_width = tr_rv_mem_width(inst->opcode);
    return;
  }
  const char *op = inst->opcode;
  size_t bn = strcspn(op, ".");
  /* Scan the modifiers once. */
  int data_bytes = 0, has_e = 0, wide = 0, ntypes = 0;
  int tbits[2] = {0, 0};
  char tcat[2] = {0, 0};
  for (const char *p = op + bn; *p == '.';) {
    const char *t = p + 1;
    size_t n = strcspn(t, ".");
    if (!data_bytes && all_digits(t, n)) data_bytes = atoi(t) / 8;
    else if (!data_bytes && n > 1 && t[0] == 'U' && all_digits(t + 1, n - 1))
      data_bytes = atoi(t + 1) / 8;
    if (n == 1 && t[0] == 'E') has_e = 1;
    if (n == 4 && memcmp(t, "WIDE", 4) == 0) wide = 1;
    char c;
    int b = type_bits(t, n, &c);
    if (b && ntypes < 2) tbits[ntypes] = b, tcat[ntypes] = c, ntypes++;
    p = t + n;
  }
  int is_mem = inst->mem != GPURF_TRACE_MEM_NONE && inst->mem != GPURF_TRACE_MEM_CONSTANT;
  if (is_mem) {
    int bytes = data_bytes > 0 ? data_bytes : 4;
    if (bytes > 255) bytes = 255;
    inst->mem_width = (uint8_t)bytes;
    uint8_t regs = (uint8_t)(bytes >= 16 ? 4 : bytes == 8 ? 2 : 1);
    uint8_t aw = 1;
    if ((inst->mem == GPURF_TRACE_MEM_GLOBAL || inst->mem == GPURF_TRACE_MEM_GENERIC) &&
        (has_e || bv >= 70))
      aw = 2;
    if (bn == 6 && memcmp(op, "LDGSTS", 6) == 0) return; /* mixed operand kinds */
    int load = inst->op_class == GPURF_TRACE_CLASS_LD_GLOBAL ||
               inst->op_class == GPURF_TRACE_CLASS_LD_SHARED;
    if (inst->mem == GPURF_TRACE_MEM_TEXTURE) return;
    if (inst->n_src > 0) inst->src[0].width = aw;
    if (load)
      for (unsigned i = 0; i < inst->n_dst; i++) inst->dst[i].width = regs;
    /* Stores and atomics: every operand after the address is data. */
    int atomic = op[0] == 'A' || (op[0] == 'R' && op[1] == 'E');
    if (!load || atomic)
      for (unsigned i = 1; i < inst->n_src; i++) inst->src[i].width = regs;
    return;
  }
  if (bn == 4 && op[0] == 'D' &&
      (memcmp(op, "DADD", 4) == 0 || memcmp(op, "DMUL", 4) == 0 || memcmp(op, "DFMA", 4) == 0 ||
       memcmp(op, "DSET", 4) == 0)) {
    for (unsigned i = 0; i < inst->n_src; i++) inst->src[i].width = 2;
    if (memcmp(op, "DSET", 4) != 0)
      for (unsigned i = 0; i < inst->n_dst; i++) inst->dst[i].width = 2;
    return;
  }
  if ((bn == 5 && (memcmp(op, "DMNMX", 5) == 0 || memcmp(op, "DSETP", 5) == 0))) {
    for (unsigned i = 0; i < inst->n_src; i++) inst->src[i].width = 2;
    if (op[1] == 'M')
      for (unsigned i = 0; i < inst->n_dst; i++) inst->dst[i].width = 2;
    return;
  }
  if (wide) {
    /* IMAD.WIDE d, a, b, c: d and c are 64-bit; with a constant or immediate
     * operand the trace lists fewer registers and c cannot be told apart. */
    for (unsigned i = 0; i < inst->n_dst; i++) inst->dst[i].width = 2;
    if (inst->n_src >= 3) inst->src[2].width = 2;
    return;
  }
  if (bn == 3 && op[1] == '2' && (op[0] == 'F' || op[0] == 'I') && (op[2] == 'F' || op[2] == 'I')) {
    char src_cat = op[0], dst_cat = op[2];
    int dbits = 0, sbits = 0;
    if (ntypes == 2) {
      dbits = tbits[0];
      sbits = tbits[1];
    } else if (ntypes == 1) {
      if (tcat[0] == dst_cat) dbits = tbits[0];
      else if (tcat[0] == src_cat) sbits = tbits[0];
    }
    if (dbits == 64)
      for (unsigned i = 0; i < inst->n_dst; i++) inst->dst[i].width = 2;
    if (sbits == 64)
      for (unsigned i = 0; i < inst->n_src; i++) inst->src[i].width = 2;
    return;
  }
  if (bn == 4 && memcmp(op, "FRND", 4) == 0 && ntypes >= 1 && tbits[0] == 64) {
    for (unsigned i = 0; i < inst->n_dst; i++) inst->dst[i].width = 2;
    for (unsigned i = 0; i < inst->n_src; i++) inst->src[i].width = 2;
  }
}

int tr_decode_opcode(gpurf_trace_inst *inst, uint32_t bv) {
  int known = gpurf_trace_classify(inst->opcode, bv, &inst->op_class, &inst->latency, &inst->mem);
  gpurf_trace_infer_widths(inst, bv);
  if (inst->mem == GPURF_TRACE_MEM_NONE || inst->mem == GPURF_TRACE_MEM_CONSTANT)
    inst->mem_width = 0;
  return known;
}

const char *gpurf_trace_class_name(gpurf_trace_class c) {
  static const char *const names[] = {"fp",        "int",       "sfu",       "ld_global",
                                      "st_global", "ld_shared", "st_shared", "branch",
                                      "barrier",   "other"};
  return (unsigned)c < GPURF_TRACE_CLASS_COUNT ? names[c] : "?";
}

const char *gpurf_trace_latency_name(gpurf_trace_latency l) {
  static const char *const names[] = {"short", "medium", "long"};
  return (unsigned)l < GPURF_TRACE_LAT_COUNT ? names[l] : "?";
}

const char *gpurf_trace_mem_name(gpurf_trace_mem m) {
  static const char *const names[] = {"none",     "global",  "local",  "shared",
                                      "constant", "texture", "generic"};
  return (unsigned)m < GPURF_TRACE_MEM_COUNT ? names[m] : "?";
}

const char *gpurf_trace_format_name(gpurf_trace_format f) {
  switch (f) {
  case GPURF_TRACE_FORMAT_ACCELSIM: return "accelsim";
  case GPURF_TRACE_FORMAT_TEXT: return "text";
  case GPURF_TRACE_FORMAT_BINARY: return "binary";
  case GPURF_TRACE_FORMAT_SYNTHETIC: return "synthetic";
  }
  return "?";
}
