/* Shapes of records read in brief: the fields a record shares with every
 * warp's record at the same pc, kept per slot so that a reader hands a
 * timing model a number it can look up instead of fields to compare. */
/* madvise() and MADV_HUGEPAGE, where the system has them. */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "trace/trace_internal.h"

/* A table (keys and values) of this many bytes or more is given huge pages
 * where the system has them: the first warp of a kernel touches each of its
 * pages first, at a fault apiece, for every reader made (512 times fewer
 * with huge pages). */
#define TR_SHAPES_HUGE ((size_t)1 << 21)

/* bytes for a table: its keys, the first key_bytes, zeroed, and its values
 * after them; NULL when out of memory. */
static void *shapes_mem(size_t key_bytes, size_t bytes) {
#if defined(MADV_HUGEPAGE)
  if (bytes >= TR_SHAPES_HUGE / 2) {
    bytes = (bytes + TR_SHAPES_HUGE - 1) & ~(TR_SHAPES_HUGE - 1); /* a multiple of the alignment */
    void *mem = aligned_alloc(TR_SHAPES_HUGE, bytes);
    if (!mem) return NULL;
    madvise(mem, bytes, MADV_HUGEPAGE); /* a hint: without it, small pages */
    memset(mem, 0, key_bytes);
    return mem;
  }
#endif
  (void)key_bytes;
  return calloc(1, bytes);
}

/* Slots with zeroed keys, on cache lines (a record that hits its slot reads
 * one); a value is read only under a key's stamp, so is not zeroed. The
 * shapes of a smaller table move to the slots of their pcs, stamps and all:
 * the records already read there are then not decoded again (the first
 * warp of a kernel of many instructions fills the first table before it
 * grows). Two that land on one slot keep the first. */
static int shapes_size(tr_shapes *s, uint32_t n) {
  /* Alignment, n keys and the one past the last, then the values. */
  _Static_assert(sizeof(tr_shape_rep) == 16, "four reps to a cache line");
  size_t key_bytes = (size_t)(n + 2) * sizeof *s->key + (size_t)n * sizeof *s->rep;
  void *mem = shapes_mem(key_bytes, key_bytes + (size_t)n * sizeof *s->val);
  if (!mem) return GPURF_ENOMEM;
  tr_shape_key *key = (tr_shape_key *)((char *)mem + (64 - (uintptr_t)mem % 64) % 64);
  tr_shape_rep *rep = (tr_shape_rep *)(key + n + 1);
  tr_shape_val *val = (tr_shape_val *)(rep + n);
  for (uint32_t i = 0; i < s->n_slots; i++) {
    if (!s->key[i].stamp) continue;
    uint32_t j = (uint32_t)(s->val[i].pc >> s->shift) & (n - 1); /* tr_shape_slot */
    if (key[j].stamp) continue;
    key[j] = s->key[i];
    key[j].next = 0; /* it named a slot of the old table */
    rep[j] = s->rep[i];
    val[j] = s->val[i];
  }
  free(s->key_mem);
  s->key_mem = mem;
  s->key = key;
  s->rep = rep;
  s->val = val;
  s->n_slots = n;
  s->evicted = 0;
  s->prev = 0;
  return GPURF_OK;
}

int tr_shapes_alloc(gpurf_ctx *ctx, tr_shapes **out) {
  tr_shapes *s = calloc(1, sizeof *s);
  if (s) s->rec = malloc(sizeof *s->rec);
  if (s) s->shift = 4;
  if (!s || !s->rec || shapes_size(s, TR_SHAPES_FIRST) != GPURF_OK) {
    tr_shapes_free(s);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  }
  *out = s;
  return GPURF_OK;
}

int tr_shapes_grow(gpurf_ctx *ctx, tr_shapes *s) {
  if (s->n_slots >= TR_SHAPES || s->evicted < s->n_slots / 8) return GPURF_OK;
  if (shapes_size(s, TR_SHAPES) != GPURF_OK) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  return GPURF_OK;
}

void tr_shapes_free(tr_shapes *s) {
  if (!s) return;
  free(s->key_mem);
  free(s->rec);
  free(s);
}

void tr_shape_set(tr_shapes *s, uint32_t slot, const gpurf_trace_inst *inst) {
  tr_shape_val *v = &s->val[slot];
  if (s->key[slot].stamp && v->pc != inst->pc) s->evicted++;
  v->pc = inst->pc;
  memcpy(v->opcode, inst->opcode, sizeof v->opcode);
  v->opcode[sizeof v->opcode - 1] = '\0';
  v->op_class = inst->op_class;
  v->latency = inst->latency;
  v->mem = inst->mem;
  v->mem_width = inst->mem_width;
  v->n_dst = inst->n_dst < GPURF_TRACE_MAX_DST ? inst->n_dst : GPURF_TRACE_MAX_DST;
  v->n_src = inst->n_src < GPURF_TRACE_MAX_SRC ? inst->n_src : GPURF_TRACE_MAX_SRC;
  v->n_dst_regs = inst->n_dst_regs;
  /* Whole arrays, fixed sizes; the entries past the counts are never read. */
  memcpy(v->dst, inst->dst, sizeof v->dst);
  memcpy(v->src, inst->src, sizeof v->src);
  tr_shape_key *k = &s->key[slot];
  uint16_t next = k->next;
  memset(k, 0, sizeof *k);
  k->next = next;
  s->rep[slot].gen = 0;
  k->stamp = ++s->stamps;
}

int tr_shape_same(const tr_shapes *s, uint32_t slot, const gpurf_trace_inst *t) {
  const tr_shape_val *v = &s->val[slot];
  return s->key[slot].stamp && t->n_dst <= GPURF_TRACE_MAX_DST &&
         t->n_src <= GPURF_TRACE_MAX_SRC && v->pc == t->pc && v->op_class == t->op_class &&
         v->latency == t->latency && v->mem == t->mem && v->mem_width == t->mem_width &&
         v->n_dst == t->n_dst && v->n_src == t->n_src && v->n_dst_regs == t->n_dst_regs &&
         memcmp(v->dst, t->dst, t->n_dst * sizeof *v->dst) == 0 &&
         memcmp(v->src, t->src, t->n_src * sizeof *v->src) == 0 &&
         strncmp(v->opcode, t->opcode, sizeof v->opcode) == 0;
}

uint32_t tr_shape_find(tr_shapes *s, const gpurf_trace_inst *inst) {
  uint32_t slot = tr_shape_slot_new(s, inst->pc);
  if (!tr_shape_same(s, slot, inst)) tr_shape_set(s, slot, inst);
  return slot;
}
