/* What the compressed register file needs of each trace record, packed in
 * the instruction's tag as the CTA is buffered: how each destination
 * register compresses (from the record's lane values), whether the warp is
 * converged, whether the operation could run on the scalar pipeline, the
 * main-memory accesses it makes and its PC for the prediction table. */
#include <string.h>

#include "pipeline/tech/compress_internal.h"

#define FULL_MASK 0xffffffffu

static void shadow_reset(cmp_decoder *d) {
  memset(d->val, 0, sizeof d->val); /* a warp's registers start as uniform zero */
  for (int r = 0; r < CMP_REGS; r++) d->val[r].kind = CRFM_UNIFORM;
}

/* Operations SIMTight's scalar pipeline executes: ALU (integer or FP with
 * Zfinx), MUL/DIV, branches and push/pop; not memory, CSRs, barriers or
 * the warp command that terminates a warp. */
static int scalar_op(const gpurf_trace_inst *t) {
  switch (t->op_class) {
    case GPURF_TRACE_CLASS_INT:
    case GPURF_TRACE_CLASS_FP:
    case GPURF_TRACE_CLASS_BRANCH:
      return strncmp(t->opcode, "CSR", 3) != 0 && strcmp(t->opcode, "EXIT") != 0;
    default:
      return 0;
  }
}

/* Adds (RISC-V ADD and ADDI, SASS IADD*): the one affine case. */
static int add_op(const gpurf_trace_inst *t) {
  return strcmp(t->opcode, "ADD") == 0 || strcmp(t->opcode, "ADDI") == 0 ||
         strncmp(t->opcode, "IADD", 4) == 0;
}

/* Main-memory bursts of a global or private access: distinct blocks among
 * the active lanes' addresses. A thread's private stack is interleaved at
 * word granularity across the warp's lanes (SIMTight Sec. III-A), so the
 * lanes' words at one stack offset are neighbours. */
static unsigned mem_blocks(const gpurf_trace_inst *t, int block_bytes) {
  if (t->mem != GPURF_TRACE_MEM_GLOBAL && t->mem != GPURF_TRACE_MEM_LOCAL &&
      t->mem != GPURF_TRACE_MEM_GENERIC)
    return 0;
  unsigned lanes = (unsigned)__builtin_popcount(t->mask);
  if (!(t->flags & GPURF_TRACE_HAS_ADDR)) {
    unsigned bytes = lanes * (t->mem_width ? t->mem_width : 4u);
    return (bytes + (unsigned)block_bytes - 1) / (unsigned)block_bytes;
  }
  uint64_t seen[GPURF_TRACE_WARP_SIZE];
  unsigned n = 0;
  for (int l = 0; l < GPURF_TRACE_WARP_SIZE; l++) {
    if (!(t->mask >> l & 1u)) continue;
    uint64_t a = t->addr[l];
    if (t->mem == GPURF_TRACE_MEM_LOCAL) a = ((a >> 2) & 0x1ffffu) * 4u * GPURF_TRACE_WARP_SIZE + 4u * (unsigned)l;
    uint64_t b = a / (uint64_t)block_bytes;
    unsigned k = 0;
    while (k < n && seen[k] != b) k++;
    if (k == n) seen[n++] = b;
  }
  return n;
}

void cmp_decoder_init(cmp_decoder *d) {
  memset(d, 0, sizeof *d);
  d->have = 0;
}

uint64_t cmp_decode(cmp_decoder *d, const gpurf_trace_inst *t, int block_bytes) {
  if (!d->have || d->kernel != t->kernel || memcmp(d->cta, t->cta, sizeof d->cta) != 0 ||
      d->warp != t->warp) {
    shadow_reset(d);
    d->have = 1;
    d->kernel = t->kernel, d->warp = t->warp;
    memcpy(d->cta, t->cta, sizeof d->cta);
  }
  uint64_t tag = 0;
  if (t->mask == FULL_MASK) tag |= CMP_T_FULL;
  if (scalar_op(t)) tag |= CMP_T_SCALAR_OP;
  if (add_op(t)) tag |= CMP_T_ADD;
  unsigned blocks = mem_blocks(t, block_bytes);
  if (t->op_class == GPURF_TRACE_CLASS_LD_GLOBAL || t->op_class == GPURF_TRACE_CLASS_ST_GLOBAL) {
    if (blocks > 255) blocks = 255;
    tag |= (uint64_t)blocks << CMP_T_BLOCKS_SHIFT;
  }
  tag |= (uint64_t)((t->pc >> 2) & 0xffffu) << CMP_T_PC_SHIFT;
  int k = 0, has = (t->flags & GPURF_TRACE_HAS_VALUES) != 0;
  if (!has && t->n_dst_regs > 0) tag |= CMP_T_NO_VALUES;
  for (int i = 0; i < t->n_dst; i++) {
    const gpurf_trace_operand *o = &t->dst[i];
    if (o->reg >= GPURF_TRACE_NUM_REGS) continue;
    for (int w = 0; w < o->width && o->reg + w < GPURF_TRACE_NUM_REGS; w++, k++) {
      int reg = o->reg + w;
      crfm_value c = {CRFM_VECTOR, 0, 0};
      if (has && k < GPURF_TRACE_MAX_DST_REGS) {
        const uint32_t *v = t->values[k];
        c = crfm_detect(v, t->mask);
        if (t->mask != FULL_MASK) {
          /* Fig. 2, 3b: the inactive lanes keep the old value, expanded
           * when it was compressed. */
          if (d->val[reg].kind != CRFM_VECTOR) crfm_expand(&d->val[reg], d->vec[reg]);
          crfm_merge(d->vec[reg], v, t->mask);
          if (crfm_detect(d->vec[reg], FULL_MASK).kind != CRFM_VECTOR)
            tag |= CMP_T_MERGE_COMPRESSES;
        } else if (c.kind == CRFM_VECTOR) {
          memcpy(d->vec[reg], v, sizeof d->vec[reg]);
        }
      }
      d->val[reg] = c;
      if (k < CMP_TAG_DSTS)
        tag |= (uint64_t)(c.kind | crfm_stride_code(c.stride) << 2) << (4 * k);
    }
  }
  return tag;
}
