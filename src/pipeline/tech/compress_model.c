/* Detection, expansion, partial-write merge and the free-slot stack of the
 * compressed register file (see compress_model.h). */
#include "pipeline/tech/compress_model.h"

#include <stdlib.h>

#define FULL_MASK 0xffffffffu

crfm_value crfm_detect(const uint32_t *v, uint32_t mask) {
  crfm_value c = {CRFM_VECTOR, 0, 0};
  if (mask != FULL_MASK) return c;
  uint32_t leader = v[0];
  int uniform = 1;
  for (int i = 1; i < CRFM_LANES && uniform; i++) uniform = v[i] == leader;
  if (uniform) return (crfm_value){CRFM_UNIFORM, leader, 0};
  static const uint32_t strides[3] = {1, 2, 4};
  for (int k = 0; k < 3; k++) {
    uint32_t s = strides[k], span = CRFM_LANES * s;
    int ok = 1;
    for (int i = 0; i < CRFM_LANES && ok; i++)
      ok = v[i] % span == (uint32_t)i * s && v[i] / span == leader / span;
    if (ok) return (crfm_value){CRFM_AFFINE, leader, s};
  }
  return c;
}

int crfm_stride_code(uint32_t stride) { return stride == 4 ? 3 : (int)(stride & 3u); }

uint32_t crfm_stride_of_code(int code) { return code == 3 ? 4u : (uint32_t)(code & 3); }

void crfm_expand(const crfm_value *c, uint32_t *out) {
  for (int i = 0; i < CRFM_LANES; i++) out[i] = c->base + (uint32_t)i * c->stride;
}

void crfm_merge(uint32_t *old, const uint32_t *newv, uint32_t mask) {
  for (int i = 0; i < CRFM_LANES; i++)
    if (mask >> i & 1u) old[i] = newv[i];
}

int crfm_stack_init(crfm_stack *s, int cap) {
  s->slot = malloc((size_t)(cap > 0 ? cap : 1) * sizeof *s->slot);
  s->cap = cap;
  s->n = 0;
  if (!s->slot) return -1;
  /* Pushed highest first so that the lowest slot is popped first. */
  for (int i = cap - 1; i >= 0; i--) s->slot[s->n++] = i;
  return 0;
}

void crfm_stack_fini(crfm_stack *s) {
  free(s->slot);
  s->slot = NULL;
  s->n = s->cap = 0;
}

int crfm_stack_pop(crfm_stack *s) { return s->n > 0 ? s->slot[--s->n] : -1; }

int crfm_stack_push(crfm_stack *s, int slot) {
  if (s->n >= s->cap) return -1;
  s->slot[s->n++] = slot;
  return 0;
}
