/* Native binary trace read in brief (gpurf_trace_next_briefs): a record is
 * its mask and a shape.
 *
 * The warps of a kernel run the same code, so most records repeat, byte for
 * byte, one an earlier warp had at the same pc, but for the mask. A shape
 * slot keeps the bytes of the record it was made from, and the slot of the
 * record that came next. A record whose bytes match those of that slot, or
 * else of its pc's slot (three masked 8-byte compares), is passed over
 * without being decoded, its trailing fields (addresses, values, line, ...)
 * stepped over by their lengths. Any other record is decoded by the
 * decoders of native_binary.c, into the slot, so that a defect is found and
 * worded exactly as when it is read whole. A slot is compared with bytes
 * only under the nb_state.gen it was filled in: a new binary version or
 * register count can make the same bytes mean something else, or fail. */
#include <string.h>

#include "trace/nb_internal.h"

_Static_assert(sizeof(gpurf_trace_where) == 5 * sizeof(uint32_t), "where is kernel, cta, warp");

/* The compare of a record with a slot is the loop's body: a call there
 * would cost more than the compare. */
#if defined(__GNUC__)
#define NB_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define NB_ALWAYS_INLINE inline
#endif

/* What a timing model needs neither of. */
#define NB_OMIT (GPURF_TRACE_HAS_ADDR | GPURF_TRACE_HAS_VALUES)

/* A record's first bytes (tag, opcode number, flags, pc) as one number,
 * zero past them, and its pc: their count, or 0 when they take more than
 * 8 bytes. */
static inline unsigned nb_prefix(const unsigned char *rec, uint64_t *pre, uint64_t *pc) {
  const unsigned char *q = rec + 1;
  uint64_t id;
  if (!(q = fgetv(q, &id)) || !(q = fgetv(q + 1, pc))) return 0;
  size_t len = (size_t)(q - rec);
  if (len > 8) return 0;
  *pre = le64(rec) & (~0ull >> (64 - 8 * len)); /* at least 4 bytes */
  return (unsigned)len;
}

/* The record at p (whole in the buffer) when slot k holds its bytes: the
 * record after it and its mask, else NULL. */
static NB_ALWAYS_INLINE const unsigned char *nb_match(const tr_shape_key *k, uint32_t gen,
                                                      const unsigned char *p, uint32_t *mask) {
  /* Shifted left, the bytes past pre's drop out. */
  if (((le64(p) ^ k->pre) << k->pre_shift) | (uint64_t)(gen ^ k->gen)) return NULL;
  const unsigned char *q = p + k->mask_at;
  uint32_t m = le32(q);
  if (((le64(q + 4) ^ k->win[0]) & k->keep[0]) | ((le64(q + 12) ^ k->win[1]) & k->keep[1]))
    return NULL;
  q = p + k->fixed;
  if (k->flags) {
    /* Inline, the common cases: addresses alone, as base and a stride of
     * one byte; one register's values alone (4 bytes uniform, 8 affine, 4
     * per lane). */
    if (k->flags == GPURF_TRACE_HAS_ADDR && q[0] == 1 && q[9] < 0x80)
      q += 10;
    else if (k->flags == GPURF_TRACE_HAS_VALUES && k->n_dst_regs == 1 && q[0] <= 2)
      q += 1 + (q[0] < 2 ? 4u << q[0] : 4 * (m == 0xffffffffu ? 32 : lanes_of(m)));
    else if (!(q = nb_skip(q, k->flags, m, k->n_dst_regs)))
      return NULL;
  }
  *mask = m;
  return q;
}

/* Makes slot hold the record at rec (as an I record), decoded into t, for
 * later records to match by their bytes when these fit the compare, and
 * repeats of its pc when its head is kept; its brief into *out. */
static void nb_keep(tr_shapes *sh, const nb_state *st, uint32_t slot, const unsigned char *rec,
                    const gpurf_trace_inst *t, gpurf_trace_brief *out) {
  tr_shape_key *k = &sh->key[slot];
  /* The same fields keep their stamp: what a model made of them stands. An
   * empty slot (the first warp's, at each pc) is told without the call. */
  if (k->stamp && tr_shape_same(sh, slot, t))
    k->gen = 0;
  else
    tr_shape_set(sh, slot, t);
  uint64_t pre = 0, pc;
  unsigned len = nb_prefix(rec, &pre, &pc);
  unsigned wl = 2 + 2 * (unsigned)(t->n_dst + t->n_src); /* counts, operands, memory width */
  unsigned id_len = 1;
  while (rec[id_len] & 0x80) id_len++;
  const unsigned raw_flags = rec[id_len + 1];
  /* Compared with no record's bytes unless set below (a tag is never 0). */
  k->pre = 0;
  k->pre_shift = 0;
  if (len && wl <= 16) {
    const unsigned char *w = rec + len + 4;
    unsigned char keep[16] = {0};
    memset(keep, 0xff, wl);
    unsigned flags = raw_flags, fixed = len + 4 + wl;
    /* Addresses as base and a one-byte stride, when they end inside the
     * window: compared with it (the mode byte whole, the stride's
     * continuation bit), the record then takes a fixed length, and the
     * loop no branch on what follows the operands (a record of that pc
     * with other addresses goes to the decoder, which keeps the shape). */
    if (flags == GPURF_TRACE_HAS_ADDR && wl + 10 <= sizeof keep && w[wl] == 1 &&
        w[wl + 9] < 0x80) {
      keep[wl] = 0xff;
      keep[wl + 9] = 0x80;
      flags = 0;
      fixed += 10;
    }
    k->pre = pre;
    k->pre_shift = (uint8_t)(64 - 8 * len);
    k->mask_at = (uint8_t)len;
    k->keep[0] = le64(keep);
    k->keep[1] = le64(keep + 8);
    k->win[0] = le64(w) & k->keep[0];
    k->win[1] = le64(w + 8) & k->keep[1];
    k->fixed = (uint8_t)fixed;
    k->flags = (uint8_t)flags;
  }
  k->n_dst_regs = t->n_dst_regs;
  k->gen = st->gen;
  k->pc32 = (uint32_t)t->pc;
  k->pc_fits = t->pc <= UINT32_MAX;
  /* Repeats of its pc stand for it while its head is the one kept. */
  tr_shape_rep *rp = &sh->rep[slot];
  rp->sf = k->stamp << 8 | raw_flags;
  rp->pc32 = k->pc32;
  rp->gen = st->kept && k->pc_fits ? st->gen : 0;
  sh->key[sh->prev].next = (uint16_t)slot;
  sh->prev = slot;
  out->stamp = k->stamp;
  out->mask = t->mask;
  out->shape = slot;
}

/* Whether one of the n records read (out) names slot: the slots of those
 * not yet in the read's set are entered first. */
static int nb_named(tr_shapes *sh, const gpurf_trace_brief *out, size_t n, uint32_t slot) {
  for (size_t i = sh->named_n; i < n; i++)
    sh->named[out[i].shape >> 6] |= (uint64_t)1 << (out[i].shape & 63);
  sh->named_n = (uint32_t)n;
  return (int)(sh->named[slot >> 6] >> (slot & 63) & 1);
}

/* The record after the n of a read (in out) that did not hit its slot:
 * decoded when it is a common one and its slot was not named earlier in the
 * read (whose records' shapes must hold until the next), into out[n]. An
 * empty slot was not; for another, the read's set of slots tells (kept for
 * the rare reads that need it: a hit marking its slot would cost every
 * record a store). 1 when taken. */
static int nb_miss(nb_state *st, tr_shapes *sh, gpurf_trace_brief *out, size_t n) {
  if (st->end - st->pos < TR_BINARY_MAX_RECORD) return 0;
  size_t pos = st->pos;
  uint64_t count = st->count, pc_prev = st->pc_prev;
  if (!nb_inst_common(st, sh->rec, NB_OMIT)) return 0;
  uint32_t slot = tr_shape_slot_new(sh, sh->rec->pc);
  if (sh->key[slot].stamp && nb_named(sh, out, n, slot)) {
    /* (A head it kept stays: read again, the record keeps it again.) */
    st->pos = pos, st->count = count, st->pc_prev = pc_prev;
    return 0;
  }
  nb_keep(sh, st, slot, st->last_rec, sh->rec, out + n);
  return 1;
}

/* The first record of a read that did not hit its slot (st->pos at an
 * instruction record): decoded, with every check. */
static int nb_first(gpurf_ctx *ctx, gpurf_trace_reader *r, nb_state *st, tr_shapes *sh,
                    gpurf_trace_brief *out) {
  int rc;
  if (!(st->end - st->pos >= TR_BINARY_MAX_RECORD && nb_inst_common(st, sh->rec, NB_OMIT)) &&
      (rc = nb_inst(ctx, r, st, sh->rec, NB_OMIT)) != GPURF_OK)
    return rc;
  nb_keep(sh, st, tr_shape_slot_new(sh, sh->rec->pc), st->last_rec, sh->rec, out);
  return GPURF_OK;
}

/* A record that hits a slot takes this many bytes at least: a repeat's
 * tag and pc. */
#define NB_MIN_HIT 2

/* The repeat record at p (tag S or R, version 2) after a record of pc
 * pc_prev, when the shape of its pc stands for it (slot in *slot, pc in
 * *pc, stamp in *stamp): the record after it and its mask, else NULL. */
static NB_ALWAYS_INLINE const unsigned char *nb_repeat(const tr_shapes *sh, uint32_t gen,
                                                       const unsigned char *p, uint64_t pc_prev,
                                                       uint64_t *pc_out, uint32_t *slot,
                                                       uint64_t *stamp, uint32_t *mask) {
  const unsigned d = p[1];
  if (d >= 0x80) return NULL; /* a jump: the decoder */
  const uint64_t pc = pc_prev + ((uint64_t)(d >> 1) ^ (0 - (uint64_t)(d & 1)));
  const uint32_t s = (uint32_t)(pc >> sh->shift) & (sh->n_slots - 1); /* tr_shape_slot */
  const tr_shape_rep *r = &sh->rep[s];
  if ((r->gen ^ gen) | (r->pc32 ^ pc)) return NULL;
  const unsigned char *q = p + 2;
  uint32_t m = 0xffffffffu;
  if (*p == 'R') m = le32(q), q += 4;
  const uint64_t sf = r->sf;
  const unsigned f = (unsigned)sf & 0x3fu;
  if (f) {
    if (f == GPURF_TRACE_HAS_ADDR && q[0] == 1 && q[9] < 0x80)
      q += 10;
    else if (!(q = nb_skip(q, f, m, sh->key[s].n_dst_regs)))
      return NULL;
  }
  *pc_out = pc;
  *slot = s;
  *stamp = sf >> 8;
  *mask = m;
  return q;
}

/* Records at p, up to stop, that hit their slot, into out up to oend (the
 * loop of nb_briefs): the first past them returned, *o, *prev and *pc_prev
 * moved on. With tail (the end of the input read, end), a record is taken
 * only when it ends before end; without, every record starting before stop
 * does. */
static NB_ALWAYS_INLINE const unsigned char *
nb_hits(tr_shapes *sh, uint32_t gen, const unsigned char *p, const unsigned char *stop,
        const unsigned char *end, const int tail, gpurf_trace_brief **o,
        gpurf_trace_brief *oend, tr_shape_key **prevp, uint64_t *pc_prevp) {
  tr_shape_key *keys = sh->key, *prev = *prevp;
  gpurf_trace_brief *out = *o;
  uint64_t pc_prev = *pc_prevp;
  while (out < oend && p < stop) {
    /* No more records than there is room for start before lim: the inner
     * loop then has one bound to test, not two. */
    size_t room = (size_t)(oend - out);
    const unsigned char *lim = (size_t)(stop - p) / NB_MIN_HIT >= room ? p + room * NB_MIN_HIT
                                                                        : stop;
    while (p < lim) {
      uint32_t slot, mask;
      uint64_t pc, stamp;
      tr_shape_key *e;
      const unsigned char *q;
      if (*p != 'I') {
        /* A repeat: its pc names its key. (A record of another kind, or a
         * repeat in a version 1 file, whose keys never stand for one, goes
         * to the decoder.) */
        _Static_assert(('R' | 1) == 'S', "R and S differ in the last bit");
        if ((*p | 1) != 'S' ||
            !(q = nb_repeat(sh, gen, p, pc_prev, &pc, &slot, &stamp, &mask)))
          goto done;
        e = &keys[slot];
      } else {
        /* Most often the record that followed the last one before, and
         * that most often the next instruction, in the next slot: that key
         * is compared first, its address known without waiting for the
         * load of prev->next (a branch checks it), so that several
         * records' keys load at once. */
        slot = prev->next;
        e = prev + 1;
        if (__builtin_expect((uint32_t)(e - keys) != slot, 0)) e = &keys[slot];
        q = nb_match(e, gen, p, &mask);
        uint64_t pre = 0;
        pc = 0;
        if (!q) {
          if (!nb_prefix(p, &pre, &pc)) goto done;
          slot = (uint32_t)(pc >> sh->shift) & (sh->n_slots - 1); /* tr_shape_slot */
          e = &keys[slot];
          if (!(q = nb_match(e, gen, p, &mask))) goto done;
          prev->next = (uint16_t)slot;
        }
        /* Its pc, for a repeat after it: the key's when below 2^32, else
         * the record's. */
        if (__builtin_expect(e->pc_fits, 1))
          pc = e->pc32;
        else
          (void)nb_prefix(p, &pre, &pc);
        stamp = e->stamp;
      }
      if (tail && q > end) goto done;
      pc_prev = pc;
      out->stamp = stamp;
      out->mask = mask;
      out->shape = slot;
      out++;
      prev = e;
      p = q;
    }
  }
done:
  *o = out;
  *prevp = prev;
  *pc_prevp = pc_prev;
  return p;
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
     * follow its start (no record matching a slot is that long), or it
     * ends before the end of the input (zeros past it: a decoder stays
     * inside the buffer): up to safe the first, past it the second. */
    const unsigned char *p = st->buf + st->pos, *end = st->buf + st->end;
    const unsigned char *safe =
        st->buf + (st->end >= TR_BINARY_MAX_RECORD ? st->end - TR_BINARY_MAX_RECORD + 1 : 0);
    tr_shape_key *prev = &sh->key[sh->prev];
    gpurf_trace_brief *o = out + k, *oend = out + cap;
    uint64_t pc_prev = st->pc_prev;
    p = nb_hits(sh, st->gen, p, safe, end, 0, &o, oend, &prev, &pc_prev);
    if (st->eof && p >= safe) p = nb_hits(sh, st->gen, p, end, end, 1, &o, oend, &prev, &pc_prev);
    sh->prev = (uint32_t)(prev - sh->key);
    st->pc_prev = pc_prev;
    st->count += (size_t)(o - out) - k;
    k = (size_t)(o - out);
    st->pos = (size_t)(p - st->buf);
    if (k == cap) break;
    if (k > 0) {
      if (!nb_miss(st, sh, out, k)) break;
      k++;
      continue;
    }
    if ((rc = nb_first(ctx, r, st, sh, &out[0])) != GPURF_OK) return rc;
    k = 1;
  }
  for (size_t i = 0; i < sh->named_n; i++) sh->named[out[i].shape >> 6] = 0;
  sh->named_n = 0;
  memcpy(where, st->where, sizeof *where);
  *n = k;
  return GPURF_OK;
}
