/* SIMTight's register compression as pure functions (Naylor et al., Sec.
 * III-B, Fig. 2): uniform/affine detection of a written vector, expansion
 * of a compressed value, the merge of a partial write into the old value,
 * and the stack of free vector-register-file slots. */
#ifndef GPURF_COMPRESS_MODEL_H
#define GPURF_COMPRESS_MODEL_H

#include <stdint.h>

#define CRFM_LANES 32 /* NumLanes of the detection equations */

typedef enum crfm_kind { CRFM_VECTOR = 0, CRFM_UNIFORM = 1, CRFM_AFFINE = 2 } crfm_kind;

/* A register value as the scalar register file holds it: base and stride
 * (0, 1, 2 or 4) when compressed. */
typedef struct crfm_value {
  crfm_kind kind;
  uint32_t base;
  uint32_t stride;
} crfm_value;

/* Classifies the vector v[0..CRFM_LANES) written under `mask`. Only a full
 * write compresses (a partial one is stored as a vector, as the hardware
 * does); uniform when every lane equals the leader (lane 0), else affine
 * when for a stride s in 1, 2, 4 (tried in order) every lane i satisfies
 * v_i mod (32 s) = i s and floor(v_i / (32 s)) = floor(leader / (32 s)). */
crfm_value crfm_detect(const uint32_t *v, uint32_t mask);

/* The 2-bit stride code of a compressed value (0, 1, 2, 4 -> 0..3). */
int crfm_stride_code(uint32_t stride);
uint32_t crfm_stride_of_code(int code);

/* out[i] = base + i * stride over the lanes. */
void crfm_expand(const crfm_value *c, uint32_t *out);

/* A partial write: lanes in mask take newv, the others keep old (the old
 * value expanded when it was compressed). */
void crfm_merge(uint32_t *old, const uint32_t *newv, uint32_t mask);

/* The free-slot stack: slots 0..n-1 free at first, popped lowest first. */
typedef struct crfm_stack {
  int32_t *slot;
  int n, cap;
} crfm_stack;

int crfm_stack_init(crfm_stack *s, int cap); /* 0, or -1 out of memory */
void crfm_stack_fini(crfm_stack *s);
int crfm_stack_pop(crfm_stack *s);              /* the slot, -1 when empty */
int crfm_stack_push(crfm_stack *s, int slot);   /* 0, -1 when full */

#endif
