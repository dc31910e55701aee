/* CTAs read in brief (feed.c): the compact forms of their instructions,
 * kept once for every CTA whose code points at them, and each warp's
 * pointers. A kernel's warps run the same code: a CTA's code is then a
 * pointer per record into a few hundred kilobytes of forms that stay in
 * cache, and its warps mostly share one run of pointers, where a copy per
 * record would write (and the kernel zero) 40 bytes of fresh memory each.
 *
 * Memory: forms are made in generations of at most PIPE_POOL_GEN, each
 * record making at most one; a chunk is given back once no buffered CTA
 * spans its generation. A CTA of r records spans at most 1 + r /
 * PIPE_POOL_GEN generations, so with n buffers at most PIPE_POOL_GEN *
 * (2n + 1) forms plus one per buffered record are kept, and
 * PIPE_POOL_GEN / PIPE_POOL_CHUNK spare chunks: bounded by the buffered
 * CTAs, as their own copies were. */
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "pipeline/pipe_internal.h"

/* Whether some CTA buffered or being read has code in generation g. */
static int gen_held(const gpurf_pipeline *p, uint32_t g) {
  for (int i = 0; i < p->n_buf; i++) {
    const ctabuf *b = &p->buf[i];
    if ((b->used || b->gen_hi == UINT32_MAX) && b->gen_lo <= g && g <= b->gen_hi) return 1;
  }
  return 0;
}

/* The memo forgets every form (none of its pointers is followed again) and
 * a new generation begins; chunks no buffered CTA needs are kept for reuse
 * (a generation's worth) or freed. */
void pipe_pool_new_gen(gpurf_pipeline *p) {
  if (p->bhot)
    for (size_t i = 0; i < (size_t)1 << PIPE_MEMO_BITS; i++) p->bhot[i].stamp = 0;
  p->memo_stamped = 0;
  p->pool_gen++;
  p->pool_gen_n = 0;
  uint32_t spare = 0;
  for (pool_chunk *k = p->pool_spare; k; k = k->next) spare++;
  for (pool_chunk **at = &p->pool; *at;) {
    pool_chunk *k = *at;
    if (gen_held(p, k->gen)) {
      at = &k->next;
      continue;
    }
    *at = k->next;
    if (spare < PIPE_POOL_GEN / PIPE_POOL_CHUNK) {
      k->next = p->pool_spare, p->pool_spare = k, spare++;
    } else {
      free(k);
    }
  }
}

/* Room for one more form in the current generation (a new one when it is
 * full: the memo is then cleared); NULL when out of memory. */
static cinst *pool_take(gpurf_pipeline *p) {
  if (p->pool_gen_n >= PIPE_POOL_GEN) pipe_pool_new_gen(p);
  pool_chunk *k = p->pool;
  if (!k || k->gen != p->pool_gen || k->n == PIPE_POOL_CHUNK) {
    if (p->pool_spare) {
      k = p->pool_spare, p->pool_spare = k->next;
    } else if (!(k = malloc(sizeof *k))) {
      return NULL;
    }
    k->gen = p->pool_gen, k->n = 0;
    k->next = p->pool, p->pool = k;
  }
  p->pool_gen_n++;
  return &k->c[k->n++];
}

_Static_assert(_Alignof(cinst) >= 4, "a form's address has bits 0 and 1 free for bhot's tags");

/* e's hot entry (bhot) from e: its stamp and first form, tagged. */
static void hot_set(gpurf_pipeline *p, const bmemo *e) {
  bhot *h = &p->bhot[e - p->bmemo];
  const uintptr_t global = e->lane_bytes != 0;
  h->form = (uintptr_t)e->c[0] | global | (global & (e->lanes[0] == 32)) << 1;
  h->stamp = e->stamp;
}

/* Compacts a shape the reader named anew into its slot: the record's
 * fixed fields, with the mask of the record that named it for the rest. */
PIPE_NOINLINE int pipe_pool_shape(gpurf_ctx *ctx, gpurf_pipeline *p, const gpurf_trace_brief *br,
                                  bmemo *e) {
  gpurf_trace_inst *t = p->rec;
  if (gpurf_trace_reader_shape(p->reader, br->shape, t) != GPURF_OK)
    return gpurf_fail(ctx, GPURF_EINVAL, "the trace reader named no shape %u", br->shape);
  t->mask = br->mask;
  uint32_t mr = 0;
  cinst c;
  e->stamp = 0;
  p->bhot[e - p->bmemo].stamp = 0;
  int rc = pipe_compact(ctx, p, t, &c, &mr);
  if (rc != GPURF_OK) return rc;
  cinst *f = pool_take(p); /* may begin a generation: the memo's stamps first */
  if (!f) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  *f = c;
  e->c[0] = f, e->lanes[0] = (uint8_t)pipe_popcount32(br->mask), e->n_forms = 1;
  e->max_reg = (uint8_t)mr;
  e->lane_bytes = c.unit == GPURF_PIPELINE_UNIT_GLOBAL ? (t->mem_width ? t->mem_width : 4) : 0;
  e->stamp = br->stamp;
  hot_set(p, e);
  p->memo_stamped = 1;
  return GPURF_OK;
}

/* The form of e's shape for a global memory instruction of this many lanes
 * when it is not e->c[0]: one of the others kept (moved to the front, for
 * the records after it), else a new one, its traffic that of its lanes
 * (at most 32 of 255 bytes: within 16 bits). */
PIPE_NOINLINE int pipe_pool_lanes(gpurf_ctx *ctx, gpurf_pipeline *p, bmemo *e, uint32_t lanes,
                                  const cinst **out) {
  int i = 1;
  while (i < e->n_forms && e->lanes[i] != lanes) i++;
  if (i < e->n_forms) {
    const cinst *f = e->c[i];
    uint8_t l = e->lanes[i];
    e->c[i] = e->c[0], e->lanes[i] = e->lanes[0];
    e->c[0] = f, e->lanes[0] = l;
    hot_set(p, e);
    *out = f;
    return GPURF_OK;
  }
  cinst c = *e->c[0];
  c.bytes = (uint16_t)(lanes * e->lane_bytes);
  const bmemo keep = *e;
  uint32_t gen = p->pool_gen;
  cinst *f = pool_take(p);
  if (!f) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  *f = c;
  if (gen != p->pool_gen) { /* the memo was cleared: this form alone */
    *e = keep;
    e->n_forms = 1;
    p->memo_stamped = 1;
  } else if (e->n_forms < PIPE_LANE_FORMS) {
    e->n_forms++;
  }
  /* The new form goes first; the one it displaces takes the last place. */
  int last = e->n_forms - 1;
  e->c[last] = e->c[0], e->lanes[last] = e->lanes[0];
  e->c[0] = f, e->lanes[0] = (uint8_t)lanes;
  hot_set(p, e);
  *out = f;
  return GPURF_OK;
}

/* A record's compact form through the memo; with want_max, the highest
 * register it uses raises *top. */
static inline int brief_form(gpurf_ctx *ctx, gpurf_pipeline *p, bmemo *memo, const bhot *hot,
                             const gpurf_trace_brief *br, const cinst **f, const int want_max,
                             uint32_t *top) {
  const bhot *h = &hot[br->shape];
  if (__builtin_expect(h->stamp != br->stamp, 0)) {
    int rc = pipe_pool_shape(ctx, p, br, &memo[br->shape]);
    if (rc != GPURF_OK) return rc;
  }
  const uintptr_t form = h->form;
  *f = (const cinst *)(form & ~(uintptr_t)3);
  /* Global memory: the form of its lanes; a full warp's is told by bit 1. */
  if ((form & 1) && !((form & 2) && br->mask == 0xffffffffu)) {
    bmemo *e = &memo[br->shape];
    uint32_t lanes = br->mask == 0xffffffffu ? 32 : pipe_popcount32(br->mask);
    if (__builtin_expect(lanes != e->lanes[0], 0)) {
      int rc = pipe_pool_lanes(ctx, p, e, lanes, f);
      if (rc != GPURF_OK) return rc;
    }
  }
  if (want_max) {
    const uint32_t m = memo[br->shape].max_reg;
    *top = m > *top ? m : *top;
  }
  return GPURF_OK;
}

/* The batch's records left, the current warp's, into b: compared with the
 * warp before's while they match, else their pointers stored; with
 * want_max, the highest register they use raises *mr. */
static inline int briefs_code(gpurf_ctx *ctx, gpurf_pipeline *p, ctabuf *b, pipe_brief_run *run,
                              const int want_max, uint32_t *mr) {
  const gpurf_trace_brief *br = p->bat + p->bat_i, *end = p->bat + p->bat_n;
  bmemo *const memo = p->bmemo;
  const bhot *const hot = p->bhot;
  uint32_t top = *mr;
  const cinst *f;
  int rc;
  if (run->match) {
    const cinst *const *same = b->code + run->at;
    uint32_t i = run->done;
    for (; br < end; br++) {
      if ((rc = brief_form(ctx, p, memo, hot, br, &f, want_max, &top)) != GPURF_OK) return rc;
      if (i == run->len || same[i] != f) break;
      i++;
    }
    run->done = i;
    *mr = top;
    if (br == end) return GPURF_OK;
    /* From this record on the warp's code is its own: the matched ones
     * copied (the warp before's lie below n_code: no overlap), then it. */
    if ((rc = pipe_buf_reserve(ctx, p, b, b->n_code + i + (uint32_t)(end - br))) != GPURF_OK)
      return rc;
    memcpy(b->code + b->n_code, b->code + run->at, (size_t)i * sizeof *b->code);
    b->code_at[b->n_warps - 1] = b->n_code;
    b->n_code += i;
    b->code[b->n_code++] = f;
    run->match = 0;
    br++;
  } else if (b->n_code + (uint32_t)(end - br) > b->cap) {
    if ((rc = pipe_buf_reserve(ctx, p, b, b->n_code + (uint32_t)(end - br))) != GPURF_OK)
      return rc;
  }
  const cinst **c = b->code + b->n_code;
  for (; br < end; br++, c++) {
    if ((rc = brief_form(ctx, p, memo, hot, br, &f, want_max, &top)) != GPURF_OK) return rc;
    *c = f;
  }
  b->n_code = (uint32_t)(c - b->code);
  *mr = top;
  return GPURF_OK;
}

int pipe_briefs_code(gpurf_ctx *ctx, gpurf_pipeline *p, ctabuf *b, pipe_brief_run *run,
                     int want_max, uint32_t *mr) {
  return want_max ? briefs_code(ctx, p, b, run, 1, mr) : briefs_code(ctx, p, b, run, 0, mr);
}

void pipe_pool_free(gpurf_pipeline *p) {
  for (pool_chunk *k = p->pool, *next; k; k = next) next = k->next, free(k);
  for (pool_chunk *k = p->pool_spare, *next; k; k = next) next = k->next, free(k);
  p->pool = p->pool_spare = NULL;
}
