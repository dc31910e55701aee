/* Repeat records of native binary traces (version 2, docs/trace-format.md):
 * the heads of a kernel's instruction records by pc, and a repeat spelled
 * out as the instruction record it stands for.
 *
 * The writer and the reader keep the same map of heads by the same rules,
 * so that a repeat always names the head the writer meant.
 *
 * Open addressing on the pc, linear probing, at most half full. The map
 * holds at most NB_HEADS_CAP pcs: past that, records of new pcs are written
 * whole, and a repeat of one of them is a defect. That bounds the memory a
 * hostile file can make the reader take (NB_HEADS_CAP x 2 entries of 32
 * bytes and a bit: 4 MiB). */
#include <stdlib.h>
#include <string.h>

#include "trace/nb_internal.h"

_Static_assert(sizeof(nb_head) == 32, "two entries to a cache line");

/* Entries at first: a small kernel zeroes little memory. */
#define NB_HEADS_FIRST 1024u

static uint32_t nb_heads_hash(uint64_t pc, uint32_t n_slots) {
  /* Code runs in sequence: sequential pcs take sequential entries, which
   * the processor fetches ahead (instructions take 4 bytes or more; the
   * high bits fold in for code far apart). */
  return (uint32_t)((pc >> 2) ^ (pc >> 34)) & (n_slots - 1);
}

/* Whether slot i is taken: a bit apiece, so that a table is made, grown or
 * emptied by zeroing its bits rather than its entries. */
static inline int nb_heads_taken(const nb_heads *h, uint32_t i) {
  return (int)(h->used[i >> 6] >> (i & 63) & 1);
}

void nb_heads_reset(nb_heads *h) {
  if (h->n) memset(h->used, 0, (size_t)h->n_slots / 8);
  h->n = 0;
}

void nb_heads_free(nb_heads *h) {
  free(h->slot);
  h->slot = NULL;
  h->used = NULL;
  h->n = h->n_slots = 0;
}

const nb_head *nb_heads_find(const nb_heads *h, uint64_t pc) {
  if (!h->n) return NULL;
  for (uint32_t i = nb_heads_hash(pc, h->n_slots);; i = (i + 1) & (h->n_slots - 1)) {
    if (!nb_heads_taken(h, i)) return NULL;
    const nb_head *e = &h->slot[i];
    if (e->pc == pc) return e->len == NB_HEAD_NONE ? NULL : e;
  }
}

/* Twice the entries (n_slots 0: the first table), each moved to its place. */
static int nb_heads_grow(nb_heads *h) {
  _Static_assert(NB_HEADS_FIRST % 64 == 0, "whole words of bits");
  const uint32_t n = h->n_slots ? h->n_slots * 2 : NB_HEADS_FIRST;
  nb_head *s = malloc((size_t)n * sizeof *s + n / 8);
  if (!s) return GPURF_ENOMEM;
  uint64_t *used = (uint64_t *)(s + n);
  memset(used, 0, n / 8);
  for (uint32_t i = 0; i < h->n_slots; i++) {
    if (!nb_heads_taken(h, i)) continue;
    const nb_head *e = &h->slot[i];
    uint32_t j = nb_heads_hash(e->pc, n);
    while (used[j >> 6] >> (j & 63) & 1) j = (j + 1) & (n - 1);
    s[j] = *e;
    used[j >> 6] |= (uint64_t)1 << (j & 63);
  }
  free(h->slot);
  h->slot = s;
  h->used = used;
  h->n_slots = n;
  return GPURF_OK;
}

int nb_heads_put(nb_heads *h, uint64_t pc, const unsigned char *a, unsigned a_len,
                 const unsigned char *b, unsigned b_len) {
  const unsigned len = a_len + b_len;
  const int keep = a_len > 0 && len <= NB_HEAD_MAX;
  /* Half full at most; at the cap, only the pcs held are looked for. */
  if (!h->n_slots || (h->n < NB_HEADS_CAP && (h->n + 1) * 2 > h->n_slots)) {
    if (nb_heads_grow(h) != GPURF_OK) return GPURF_ENOMEM;
  }
  uint32_t i = nb_heads_hash(pc, h->n_slots);
  nb_head *e;
  int taken;
  for (;; i = (i + 1) & (h->n_slots - 1)) {
    e = &h->slot[i];
    if (!(taken = nb_heads_taken(h, i)) || e->pc == pc) break;
  }
  if (taken) {
    if (!keep) {
      if (e->len == NB_HEAD_NONE) return NB_HEAD_NOT_KEPT;
      e->len = NB_HEAD_NONE;
      return NB_HEAD_DROPPED;
    }
    if (e->len == len && e->a_len == a_len && !memcmp(e->bytes, a, a_len) &&
        !memcmp(e->bytes + a_len, b, b_len))
      return NB_HEAD_SAME;
    e->len = (uint8_t)len, e->a_len = (uint8_t)a_len;
    memcpy(e->bytes, a, a_len);
    memcpy(e->bytes + a_len, b, b_len);
    return NB_HEAD_REPLACED;
  }
  if (!keep || h->n >= NB_HEADS_CAP) return NB_HEAD_NOT_KEPT;
  h->used[i >> 6] |= (uint64_t)1 << (i & 63);
  e->pc = pc;
  e->len = (uint8_t)len, e->a_len = (uint8_t)a_len;
  memcpy(e->bytes, a, a_len);
  memcpy(e->bytes + a_len, b, b_len);
  h->n++;
  return NB_HEAD_NEW;
}

int nb_head_split(const unsigned char *rec, const unsigned char *end, nb_head_parts *out) {
  /* tag, opcode number, flags, pc, mask, counts, operands, memory width */
  const unsigned char *p = rec + 1;
  while (p < end && (*p & 0x80) && p - rec < 11) p++;
  if (p >= end || (*p & 0x80)) return 0;
  p += 2; /* the opcode's last byte, the flags */
  out->a = rec + 1;
  out->a_len = (unsigned)(p - out->a);
  const unsigned char *pc_at = p;
  while (p < end && (*p & 0x80) && p - pc_at < 10) p++;
  if (p >= end || (*p & 0x80)) return 0;
  p += 1 + 4;
  if (p >= end) return 0;
  unsigned n = (unsigned)(p[0] & 7) + (unsigned)(p[0] >> 3);
  out->b = p;
  out->b_len = 2 + 2 * n;
  out->pc_at = pc_at;
  out->pc_len = (unsigned)(p - 4 - pc_at);
  return p + out->b_len <= end;
}

/* ---- repeat records as read ---- */

/* The repeat record at rec (tag R or S; the data ends at end) as the
 * instruction record it stands for, in st->syn: the kept head of its pc
 * around its pc and mask, then its own tail. 0, or an NB_REP_ defect. A
 * tail that does not end by end, or has a defect, is copied as far as a
 * record may go, zeros after it, for the checked decoder to word. */
int nb_expand(nb_state *st, const unsigned char *rec, const unsigned char *end,
                     nb_rep *x) {
  uint64_t d;
  const unsigned char *p = fgetv(rec + 1, &d);
  if (!p) return NB_REP_BAD;
  uint32_t mask = 0xffffffffu;
  if (*rec == 'R') {
    mask = le32(p);
    p += 4;
  }
  if (p > end) return NB_REP_CUT;
  const uint64_t pc = st->pc_prev + ((d >> 1) ^ (0 - (d & 1)));
  const nb_head *h = nb_heads_find(&st->heads, pc);
  x->pc = pc;
  if (!h) return NB_REP_UNKNOWN;
  unsigned char *o = st->syn;
  *o++ = 'I';
  memcpy(o, h->bytes, h->a_len);
  o += h->a_len;
  for (uint64_t v = pc;; v >>= 7) {
    *o++ = (unsigned char)(v < 0x80 ? v : (v & 0x7f) | 0x80);
    if (v < 0x80) break;
  }
  for (int i = 0; i < 4; i++) *o++ = (unsigned char)(mask >> (8 * i));
  const unsigned char *b = h->bytes + h->a_len;
  memcpy(o, b, (size_t)(h->len - h->a_len));
  o += h->len - h->a_len;
  x->in_head = (size_t)(p - rec);
  x->syn_head = (size_t)(o - st->syn);
  /* The head was decoded once: its widths are 1, 2 or 4. */
  unsigned dst_regs = 0;
  for (unsigned i = 0; i < (b[0] & 7u); i++)
    dst_regs += b[1 + 2 * i] != GPURF_TRACE_REG_ZERO ? b[2 + 2 * i] : 0;
  const unsigned char *t = nb_skip(p, h->bytes[h->a_len - 1], mask, dst_regs);
  size_t n = t && t <= end ? (size_t)(t - p) : 0, room = NB_SYN_BYTES - x->syn_head;
  if (!t || t > end) {
    n = (size_t)(end - p) < TR_BINARY_MAX_INST ? (size_t)(end - p) : TR_BINARY_MAX_INST;
    memset(o + n, 0, room - n);
  } else {
    memset(o + n, 0, 32); /* the operand arrays' fixed-size reads */
  }
  memcpy(o, p, n);
  x->syn_end = o + n;
  return 0;
}

/* After the instruction record at rec (tag 'I') that ends at past was
 * decoded: its pc's head kept for repeats (version 2), and in st->kept
 * whether it is; a new head for a pc makes the shapes kept in brief
 * compared with no bytes (gen). */
int nb_learn(nb_state *st, const unsigned char *rec, const unsigned char *past,
                    uint64_t pc) {
  nb_head_parts hp;
  st->kept = 0;
  if (st->version < 2 || !nb_head_split(rec, past, &hp)) return GPURF_OK;
  int rc = nb_heads_put(&st->heads, pc, hp.a, hp.a_len, hp.b, hp.b_len);
  if (rc < 0) return rc;
  if ((rc == NB_HEAD_REPLACED || rc == NB_HEAD_DROPPED) && ++st->gen == 0) st->gen = 1;
  st->kept = rc == NB_HEAD_SAME || rc == NB_HEAD_NEW || rc == NB_HEAD_REPLACED;
  return GPURF_OK;
}
