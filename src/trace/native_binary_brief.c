/* Native binary trace read in brief (gpurf_trace_next_briefs): a record is
 * its mask and a shape.
 *
 * The warps of a kernel run the same code, so most records repeat, byte for
 * byte, one an earlier warp had at the same pc, but for the mask. A shape
 * slot keeps the bytes of the record it was made from; a record whose bytes
 * match those of its pc's slot (three masked 8-byte compares) is passed over
 * without being decoded, its trailing fields (addresses, values, line, ...)
 * stepped over by their lengths. Any other record is decoded by the
 * decoders of native_binary.c, into the slot, so that a defect is found and
 * worded exactly as when it is read whole. A slot is compared with bytes
 * only under the nb_state.gen it was filled in: a new binary version or
 * register count can make the same bytes mean something else, or fail. */
#include <string.h>

#include "trace/nb_internal.h"

_Static_assert(sizeof(gpurf_trace_where) == 5 * sizeof(uint32_t), "where is kernel, cta, warp");

/* What a timing model needs neither of. */
#define NB_OMIT (GPURF_TRACE_HAS_ADDR | GPURF_TRACE_HAS_VALUES)

/* The bytes after a record's tag up to its mask (opcode number, flags,
 * pc) as one number, zero past them, and its pc: their count, or 0 when
 * they take more than 8 bytes. */
static inline unsigned nb_prefix(const unsigned char *rec, uint64_t *pre, uint64_t *pc) {
  const unsigned char *q = rec + 1;
  uint64_t id;
  if (!(q = fgetv(q, &id)) || !(q = fgetv(q + 1, pc))) return 0;
  size_t len = (size_t)(q - rec - 1);
  if (len > 8) return 0;
  *pre = le64(rec + 1) & (~0ull >> (64 - 8 * len)); /* at least 3 bytes */
  return (unsigned)len;
}

/* Steps over the fields after the memory width; NULL for anything the
 * checked decoder must look at. */
static inline const unsigned char *nb_skip(const unsigned char *p, unsigned flags, uint32_t mask,
                                           unsigned dst_regs) {
  uint64_t v;
  size_t lanes = mask == 0xffffffffu ? 32 : lanes_of(mask);
  if (flags & GPURF_TRACE_HAS_ADDR) {
    unsigned mode = *p++;
    if (mode == 0)
      p += lanes * 8;
    else if (mode != 1 || !(p = fgetv(p + 8, &v)))
      return NULL;
  }
  if ((flags & GPURF_TRACE_HAS_LINE) && !(p = fgetv(p, &v))) return NULL;
  if ((flags & GPURF_TRACE_HAS_IMM) && !(p = fgetv(p, &v))) return NULL;
  if (flags & GPURF_TRACE_HAS_VALUES) {
    /* Bytes after an encoding byte: 4 uniform, 8 affine, 4 per lane. */
    for (unsigned k = 0; k < dst_regs; k++) {
      unsigned enc = *p++;
      if (enc > 2) return NULL;
      p += enc == 2 ? lanes * 4 : 4u << enc;
    }
  }
  if (flags & GPURF_TRACE_HAS_HINTS) p += 2;
  if ((flags & GPURF_TRACE_HAS_RECONV) && !(p = fgetv(p, &v))) return NULL;
  return p;
}

/* The instruction record at p (TR_BINARY_MAX_RECORD bytes or more before
 * the end of the data) in brief when its slot holds its bytes: the record
 * after it, else NULL. */
static inline const unsigned char *nb_hit(tr_shape_key *keys, uint32_t gen, uint32_t batch,
                                          unsigned shift, const unsigned char *p,
                                          gpurf_trace_brief *out) {
  uint64_t pre, pc;
  unsigned len = nb_prefix(p, &pre, &pc);
  if (!len) return NULL;
  uint32_t slot = (uint32_t)(pc >> shift) & (TR_SHAPES - 1); /* tr_shape_slot */
  tr_shape_key *k = &keys[slot];
  if ((pre ^ k->pre) | (uint64_t)(gen ^ k->gen)) return NULL;
  const unsigned char *q = p + 1 + len;
  uint32_t mask = le32(q);
  if (((le64(q + 4) ^ k->win[0]) & k->keep[0]) | ((le64(q + 12) ^ k->win[1]) & k->keep[1]))
    return NULL;
  q += k->fixed;
  if (k->flags && !(q = nb_skip(q, k->flags, mask, k->n_dst_regs))) return NULL;
  out->stamp = k->stamp;
  out->mask = mask;
  out->shape = slot;
  k->batch = batch;
  return q;
}

/* Makes slot hold the record at rec, decoded into t, for later records to
 * match by their bytes when these fit the compare; its brief into *out. */
static void nb_keep(tr_shapes *sh, const nb_state *st, uint32_t slot, const unsigned char *rec,
                    const gpurf_trace_inst *t, gpurf_trace_brief *out) {
  tr_shape_key *k = &sh->key[slot];
  /* The same fields keep their stamp: what a model made of them stands. */
  if (tr_shape_same(sh, slot, t))
    k->gen = 0;
  else
    tr_shape_set(sh, slot, t);
  uint64_t pre, pc;
  unsigned len = nb_prefix(rec, &pre, &pc);
  unsigned wl = 2 + 2 * (unsigned)(t->n_dst + t->n_src); /* counts, operands, memory width */
  if (len && wl <= 16) {
    unsigned id_len = (unsigned)(__builtin_ctzll(~pre & 0x8080808080808080ull) >> 3) + 1;
    const unsigned char *w = rec + 1 + len + 4;
    k->pre = pre;
    k->keep[0] = wl >= 8 ? ~0ull : (1ull << (8 * wl)) - 1;
    k->keep[1] = wl <= 8 ? 0 : wl >= 16 ? ~0ull : (1ull << (8 * (wl - 8))) - 1;
    k->win[0] = le64(w) & k->keep[0];
    k->win[1] = le64(w + 8) & k->keep[1];
    k->fixed = (uint8_t)(4 + wl);
    k->flags = rec[1 + id_len];
    k->n_dst_regs = t->n_dst_regs;
    k->gen = st->gen;
  }
  k->batch = sh->batch;
  out->stamp = k->stamp;
  out->mask = t->mask;
  out->shape = slot;
}

/* A record after the first of a read that did not hit its slot: decoded
 * when it is a common one and its slot was not named earlier in the read
 * (whose records' shapes must hold until the next). 1 when taken. */
static int nb_miss(nb_state *st, tr_shapes *sh, gpurf_trace_brief *out) {
  if (st->end - st->pos < TR_BINARY_MAX_RECORD || st->buf[st->pos] != 'I') return 0;
  size_t pos = st->pos;
  uint64_t count = st->count;
  const unsigned char *rec = st->buf + pos;
  if (!nb_inst_common(st, sh->rec, NB_OMIT)) return 0;
  uint32_t slot = tr_shape_slot_new(sh, sh->rec->pc);
  if (sh->key[slot].batch == sh->batch) {
    st->pos = pos, st->count = count;
    return 0;
  }
  nb_keep(sh, st, slot, rec, sh->rec, out);
  return 1;
}

/* The first record of a read that did not hit its slot (st->pos at an
 * instruction record): decoded, with every check. */
static int nb_first(gpurf_ctx *ctx, gpurf_trace_reader *r, nb_state *st, tr_shapes *sh,
                    gpurf_trace_brief *out) {
  const unsigned char *rec = st->buf + st->pos;
  int rc;
  if (!(st->end - st->pos >= TR_BINARY_MAX_RECORD && nb_inst_common(st, sh->rec, NB_OMIT)) &&
      (rc = nb_inst(ctx, r, st, sh->rec, NB_OMIT)) != GPURF_OK)
    return rc;
  nb_keep(sh, st, tr_shape_slot_new(sh, sh->rec->pc), rec, sh->rec, out);
  return GPURF_OK;
}

int nb_briefs(gpurf_ctx *ctx, gpurf_trace_reader *r, gpurf_trace_brief *out, size_t cap,
              size_t *n, gpurf_trace_where *where) {
  nb_state *st = r->impl;
  tr_shapes *sh = r->shapes;
  /* Up to the first instruction, through whatever comes before it. */
  int rc = nb_seek_inst(ctx, r, st);
  if (rc) return rc;
  size_t k = 0;
  for (;;) {
    /* A record lies whole in the data read when TR_BINARY_MAX_RECORD bytes
     * follow its start, or it ends before the end of the input (zeros past
     * it: a decoder stays inside the buffer). */
    const unsigned char *p = st->buf + st->pos, *end = st->buf + st->end;
    const unsigned char *stop =
        st->eof ? end
                : st->buf + (st->end >= TR_BINARY_MAX_RECORD ? st->end - TR_BINARY_MAX_RECORD + 1 : 0);
    tr_shape_key *keys = sh->key;
    uint32_t gen = st->gen, batch = sh->batch;
    unsigned shift = sh->shift;
    size_t k0 = k;
    const unsigned char *q;
    while (k < cap && p < stop && *p == 'I' &&
           (q = nb_hit(keys, gen, batch, shift, p, &out[k])) != NULL && q <= end)
      p = q, k++;
    st->count += k - k0;
    st->pos = (size_t)(p - st->buf);
    if (k == cap) break;
    if (k > 0) {
      if (!nb_miss(st, sh, &out[k])) break;
      k++;
      continue;
    }
    if ((rc = nb_first(ctx, r, st, sh, &out[0])) != GPURF_OK) return rc;
    k = 1;
  }
  memcpy(where, st->where, sizeof *where);
  *n = k;
  return GPURF_OK;
}
