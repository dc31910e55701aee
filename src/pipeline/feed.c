/* Feeding the SM: CTAs are read from the trace one at a time into compact
 * buffers and admitted when the SM's warps, threads, registers and shared
 * memory allow; kernels run one after another. */
/* madvise() and MADV_HUGEPAGE, where the system has them. */
#define _DEFAULT_SOURCE
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/ctx_internal.h"
#include "pipeline/pipe_internal.h"

_Static_assert(offsetof(gpurf_trace_inst, cta) == offsetof(gpurf_trace_inst, kernel) + 4,
               "a record's kernel and CTA are adjacent");
_Static_assert(offsetof(gpurf_trace_where, cta) == offsetof(gpurf_trace_where, kernel) + 4,
               "a batch's kernel and CTA are adjacent");

/* What a read's status leaves: a record (or batch) in hand, the trace's
 * end, or the reader's error. */
static int read_status(gpurf_pipeline *p, int rc) {
  if (rc == GPURF_TRACE_END) {
    p->rec_valid = 0;
    p->trace_done = 1;
    return GPURF_OK;
  }
  if (rc != GPURF_OK) return rc;
  p->rec_valid = 1;
  return GPURF_OK;
}

static int read_rec(gpurf_ctx *ctx, gpurf_pipeline *p) {
  return read_status(p, gpurf_trace_next(ctx, p->reader, p->rec));
}

/* The next batch of records in brief. */
static int read_briefs(gpurf_ctx *ctx, gpurf_pipeline *p) {
  size_t n = 0;
  int rc = gpurf_trace_next_briefs(ctx, p->reader, p->bat, PIPE_BATCH, &n, &p->bat_where);
  p->bat_i = 0;
  p->bat_n = (uint32_t)n;
  return read_status(p, rc);
}

int pipe_feed_open(gpurf_ctx *ctx, gpurf_pipeline *p, gpurf_trace_reader *r) {
  p->reader = r;
  /* Timing needs neither addresses nor values: the reader may skip them,
   * unless a technique decodes them. */
  if (!p->hk.decode) gpurf_trace_reader_omit(r, GPURF_TRACE_HAS_ADDR | GPURF_TRACE_HAS_VALUES);
  p->trace_done = 0;
  p->rec_valid = 0;
  p->staged = -1;
  /* A technique that sees records (or their registers' last uses, for its
   * own bank map) gets them whole; the baseline reads them in brief. */
  p->brief = !p->hk.load && !p->hk.decode && p->base_map &&
             gpurf_trace_reader_shapes(r) <= 1u << PIPE_MEMO_BITS;
  if (!p->brief) {
    /* Made at the first run that reads whole records: the baseline never
     * does, and zeroing it would cost every SM made. */
    if (!p->memo && !(p->memo = calloc((size_t)1 << PIPE_MEMO_BITS, sizeof *p->memo)))
      return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
    return read_rec(ctx, p);
  }
  /* Stamps are the reader's: none of an earlier reader's may match. The
   * memo starts zeroed (made at the first run read in brief); it is cleared
   * only after a run has stamped it. */
  if (!p->bmemo_mem) {
    const size_t n = (size_t)1 << PIPE_MEMO_BITS;
    /* Only the hot entries are zeroed: an entry of bmemo is read only once
     * its hot entry's stamp says it was filled (a short trace then zeroes a
     * fifth of the bytes). */
    p->bmemo_mem = malloc((n + 1) * sizeof *p->bmemo + n * sizeof *p->bhot);
    if (!p->bmemo_mem) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
    p->bmemo = (bmemo *)((uintptr_t)((char *)p->bmemo_mem + 63) & ~(uintptr_t)63);
    p->bhot = (bhot *)(p->bmemo + n);
    memset(p->bhot, 0, n * sizeof *p->bhot);
  }
  if (p->memo_stamped) pipe_pool_new_gen(p);
  return read_briefs(ctx, p);
}

/* Appends the registers reg .. reg+width-1 (those below RZ) to list unless
 * already there; the lists hold a few registers, so a look through them
 * costs less than a set. Sets the bit of each register modulo 64 in bits.
 * -1 when the list would pass cap. */
static inline int add_regs(uint8_t *list, uint8_t *n, int cap, int reg, int width,
                           uint32_t *max_reg, uint64_t *bits) {
  if (width == 1) { /* most operands: one register, below RZ (checked by the caller) */
    int k = 0;
    while (k < *n && list[k] != reg) k++;
    if (k == *n) {
      if (*n >= cap) return -1;
      list[(*n)++] = (uint8_t)reg;
    }
    *bits |= (uint64_t)1 << (reg & 63);
    if ((uint32_t)reg > *max_reg) *max_reg = (uint32_t)reg;
    return 0;
  }
  int top = reg + width > GPURF_TRACE_NUM_REGS ? GPURF_TRACE_NUM_REGS : reg + width;
  for (int r = reg; r < top; r++) {
    int k = 0;
    while (k < *n && list[k] != r) k++;
    if (k < *n) continue;
    if (*n >= cap) return -1;
    list[(*n)++] = (uint8_t)r;
    *bits |= (uint64_t)1 << (r & 63);
  }
  if (top > reg && (uint32_t)(top - 1) > *max_reg) *max_reg = (uint32_t)(top - 1);
  return 0;
}

/* Execution unit and collector class of each trace class (global memory
 * is decided by the record's latency). */
static const uint8_t class_unit[GPURF_TRACE_CLASS_COUNT] = {
    [GPURF_TRACE_CLASS_SFU] = GPURF_PIPELINE_UNIT_SFU,
    [GPURF_TRACE_CLASS_LD_SHARED] = GPURF_PIPELINE_UNIT_SHARED,
    [GPURF_TRACE_CLASS_ST_SHARED] = GPURF_PIPELINE_UNIT_SHARED};
static const uint8_t class_cu[GPURF_TRACE_CLASS_COUNT] = {
    [GPURF_TRACE_CLASS_SFU] = GPURF_PIPELINE_CU_SFU,
    [GPURF_TRACE_CLASS_LD_GLOBAL] = GPURF_PIPELINE_CU_MEM,
    [GPURF_TRACE_CLASS_ST_GLOBAL] = GPURF_PIPELINE_CU_MEM,
    [GPURF_TRACE_CLASS_LD_SHARED] = GPURF_PIPELINE_CU_MEM,
    [GPURF_TRACE_CLASS_ST_SHARED] = GPURF_PIPELINE_CU_MEM};

/* Global memory traffic of a record: its lanes times the bytes per lane. */
static inline uint16_t global_bytes(const gpurf_trace_inst *t) {
  uint32_t lanes = pipe_popcount32(t->mask);
  uint32_t bytes = lanes * (t->mem_width ? t->mem_width : 4u);
  return (uint16_t)(bytes > 65535u ? 65535u : bytes);
}

/* The record as the pipeline sees it; registers of pairs and quads expanded,
 * RZ dropped (it costs no access), repeated sources read once. */
int pipe_compact(gpurf_ctx *ctx, const gpurf_pipeline *p, const gpurf_trace_inst *t, cinst *c,
                 uint32_t *max_reg) {
  memset(c, 0, sizeof *c);
  unsigned cls = (unsigned)t->op_class < GPURF_TRACE_CLASS_COUNT ? (unsigned)t->op_class
                                                                  : GPURF_TRACE_CLASS_OTHER;
  c->unit = class_unit[cls], c->cu = class_cu[cls];
  if (cls == GPURF_TRACE_CLASS_LD_GLOBAL || cls == GPURF_TRACE_CLASS_ST_GLOBAL)
    /* Constant-cache hits and the like are not long-latency. */
    c->unit = t->latency == GPURF_TRACE_LAT_LONG ? GPURF_PIPELINE_UNIT_GLOBAL
                                                 : GPURF_PIPELINE_UNIT_SHARED;
  if (cls == GPURF_TRACE_CLASS_BARRIER && strncmp(t->opcode, "BAR", 3) == 0)
    c->flags |= CI_BARRIER;
  int ops = 0;
  uint64_t bits = 0;
  for (int i = 0; i < t->n_src; i++) {
    const gpurf_trace_operand *o = &t->src[i];
    if (o->reg >= GPURF_TRACE_NUM_REGS) continue;
    ops++;
    if (add_regs(c->src, &c->n_src, PIPE_MAX_SRC, o->reg, o->width, max_reg, &bits) != 0)
      return gpurf_fail(ctx, GPURF_EUNSUPPORTED, "%s at pc %llx reads more than %d registers",
                        t->opcode, (unsigned long long)t->pc, PIPE_MAX_SRC);
  }
  /* More source operands than a unit's slots take further units of the
   * class, all of them at most (a table made when the SM was built). */
  c->n_cu = p->cu_units[c->cu][ops];
  for (int i = 0; i < t->n_dst; i++) {
    const gpurf_trace_operand *o = &t->dst[i];
    if (o->reg >= GPURF_TRACE_NUM_REGS) continue;
    if (add_regs(c->dst, &c->n_dst, PIPE_MAX_DST, o->reg, o->width, max_reg, &bits) != 0)
      return gpurf_fail(ctx, GPURF_EUNSUPPORTED, "%s at pc %llx writes more than %d registers",
                        t->opcode, (unsigned long long)t->pc, PIPE_MAX_DST);
  }
  c->regs = bits;
  unsigned high = 0;
  for (int i = 0; i < c->n_src; i++) high |= c->src[i];
  for (int i = 0; i < c->n_dst; i++) high |= c->dst[i];
  if (high < 64) c->flags |= CI_LOW_REGS;
  if (c->unit == GPURF_PIPELINE_UNIT_GLOBAL) {
    if (c->n_dst > 0) c->flags |= CI_LONG;
    c->bytes = global_bytes(t);
  }
  return GPURF_OK;
}

static inline int same_ops(const gpurf_trace_operand *a, const gpurf_trace_operand *b, int n) {
  for (int i = 0; i < n; i++)
    if (a[i].reg != b[i].reg || a[i].width != b[i].width) return 0;
  return 1;
}

/* compact() through the memo: a record with the pc, class, latency and
 * operands of the one last compacted in its slot takes that one's form
 * (only the traffic, from its mask, is its own). Barriers are compacted
 * anew: their form depends on the opcode too. */
static int compact_memo(gpurf_ctx *ctx, gpurf_pipeline *p, const gpurf_trace_inst *t, cinst *c,
                        uint32_t *max_reg) {
  unsigned cls = (unsigned)t->op_class < GPURF_TRACE_CLASS_COUNT ? (unsigned)t->op_class
                                                                  : GPURF_TRACE_CLASS_OTHER;
  if (cls == GPURF_TRACE_CLASS_BARRIER || (unsigned)t->latency > 255u ||
      t->n_src > GPURF_TRACE_MAX_SRC || t->n_dst > GPURF_TRACE_MAX_DST)
    return pipe_compact(ctx, p, t, c, max_reg);
  cmemo *e = &p->memo[(t->pc >> 3) & ((1u << PIPE_MEMO_BITS) - 1)];
  if (e->pc == t->pc && e->valid && e->cls == cls && e->lat == (unsigned)t->latency &&
      e->n_src == t->n_src && e->n_dst == t->n_dst && same_ops(e->src, t->src, t->n_src) &&
      same_ops(e->dst, t->dst, t->n_dst)) {
    *c = e->c;
    if (e->max_reg > *max_reg) *max_reg = e->max_reg;
    if (c->unit == GPURF_PIPELINE_UNIT_GLOBAL) c->bytes = global_bytes(t);
    return GPURF_OK;
  }
  /* compact() only raises max_reg: its own maximum, then the larger. */
  uint32_t mr = 0;
  int rc = pipe_compact(ctx, p, t, c, &mr);
  if (rc != GPURF_OK) return rc;
  if (mr > *max_reg) *max_reg = mr;
  e->pc = t->pc, e->valid = 1, e->cls = (uint8_t)cls, e->lat = (uint8_t)t->latency;
  e->n_src = t->n_src, e->n_dst = t->n_dst, e->max_reg = (uint8_t)mr;
  memcpy(e->src, t->src, sizeof e->src);
  memcpy(e->dst, t->dst, sizeof e->dst);
  e->c = *c;
  return GPURF_OK;
}

/* A CTA's code (its pointers, or its own forms) of this many bytes or more
 * is given huge pages where the system has them: its pages are each touched
 * first as they are written, at a fault apiece (512 times fewer with huge
 * pages), and the cycle loop reads them through fewer TLB entries. */
#define PIPE_HUGE_BYTES ((size_t)1 << 21)

/* Room for cap elements of size bytes: n of old's kept, old freed; NULL
 * when out of memory (old left). */
static void *code_alloc(void *old, size_t size, uint32_t n, uint32_t cap) {
  size_t bytes = (size_t)cap * size;
#if defined(MADV_HUGEPAGE)
  if (bytes >= PIPE_HUGE_BYTES) {
    bytes = (bytes + PIPE_HUGE_BYTES - 1) & ~(PIPE_HUGE_BYTES - 1); /* a multiple of the alignment */
    void *code = aligned_alloc(PIPE_HUGE_BYTES, bytes);
    if (!code) return NULL;
    madvise(code, bytes, MADV_HUGEPAGE); /* a hint: without it, small pages */
    if (n) memcpy(code, old, (size_t)n * size);
    free(old);
    return code;
  }
#endif
  return realloc(old, bytes);
}

/* Room for need pointers in b (and, read whole, as many records' forms
 * and their decode tags when a technique keeps them), those held kept. */
int pipe_buf_reserve(gpurf_ctx *ctx, const gpurf_pipeline *p, ctabuf *b, uint32_t need) {
  uint32_t cap = b->cap;
  if (need > cap) {
    cap = cap ? 2 * cap : 1024;
    while (cap < need) cap *= 2;
    if (b->n_code == 0) { /* nothing to keep: no copy */
      free(b->code);
      b->code = NULL, b->cap = 0;
    }
    const cinst **code = code_alloc(b->code, sizeof *code, b->n_code, cap);
    if (!code) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
    b->code = code;
    if (p->hk.decode) {
      uint64_t *tag = realloc(b->tag, (size_t)cap * sizeof *tag);
      if (!tag) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
      b->tag = tag;
    }
    b->cap = cap;
  }
  if (!p->brief && b->cap_store < cap) {
    if (b->n == 0) {
      free(b->store);
      b->store = NULL, b->cap_store = 0;
    }
    cinst *store = code_alloc(b->store, sizeof *store, b->n, cap);
    if (!store) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
    /* The forms moved: the pointers follow. */
    if (store != b->store)
      for (uint32_t i = 0; i < b->n; i++) b->code[i] = &store[i];
    b->store = store, b->cap_store = cap;
  }
  return GPURF_OK;
}

/* A CTA's next warp begins in b: within the SM's warps, and not one whose
 * records came earlier (a warp's records are contiguous). warps: those the
 * kernel's block has (0: not known). */
static int warp_begin(gpurf_ctx *ctx, const gpurf_pipeline *p, ctabuf *b, uint32_t wid,
                      const uint32_t *cta, uint64_t *seen, uint32_t warps) {
  if (wid >= GPURF_PIPELINE_MAX_WARPS || b->n_warps >= (uint32_t)p->prm.max_warps)
    return gpurf_fail(ctx, GPURF_EUNSUPPORTED, "CTA (%u,%u,%u) has more warps than the SM (%d)",
                      cta[0], cta[1], cta[2], p->prm.max_warps);
  if (*seen >> wid & 1u)
    return gpurf_fail(ctx, GPURF_EINVAL, "records of warp %u of CTA (%u,%u,%u) are not contiguous",
                      wid, cta[0], cta[1], cta[2]);
  *seen |= (uint64_t)1 << wid;
  /* The first warp read, its CTA's others are likely as long: room for
   * them all at once, where doubling would copy the code several times
   * and leave the first CTA's buffer up to twice as large as needed
   * (later CTAs start with cta_room). */
  if (!p->brief && b->n_warps == 1 && warps > 1 && warps <= (uint32_t)p->prm.max_warps &&
      (uint64_t)b->n * warps <= UINT32_MAX / 2 && b->n * warps > b->cap) {
    int rc = pipe_buf_reserve(ctx, p, b, b->n * warps);
    if (rc != GPURF_OK) return rc;
  }
  b->code_at[b->n_warps] = b->n_code;
  b->warp_start[b->n_warps++] = b->n;
  return GPURF_OK;
}

/* The records of a CTA read in brief, each batch one warp's, into b; as
 * load_cta's loop over whole records, with the same checks and messages.
 * nregs: the kernel's registers per thread (0: not given); warps: as
 * warp_begin. */
static int load_briefs(gpurf_ctx *ctx, gpurf_pipeline *p, ctabuf *b, uint32_t nregs,
                       uint32_t warps, uint32_t *max_reg) {
  uint32_t key[4];
  memcpy(key, &p->bat_where, sizeof key);
  const uint32_t *cta = key + 1;
  uint64_t seen = 0;
  uint32_t last = UINT32_MAX, mr = *max_reg;
  pipe_brief_run run = {0, 0, 0, 0};
  while (p->rec_valid && memcmp(&p->bat_where, key, sizeof key) == 0) {
    uint32_t wid = p->bat_where.warp;
    int rc;
    if (wid != last) {
      if ((rc = warp_begin(ctx, p, b, wid, cta, &seen, warps)) != GPURF_OK) return rc;
      last = wid;
      uint32_t k = b->n_warps - 1;
      if (k > 0) { /* the warp before's code, until a form differs */
        run.match = 1, run.done = 0;
        run.at = b->code_at[k] = b->code_at[k - 1];
        run.len = b->warp_start[k] - b->warp_start[k - 1];
      }
    }
    /* The highest register is wanted only when the kernel gives no count. */
    if ((rc = pipe_briefs_code(ctx, p, b, &run, nregs == 0, &mr)) != GPURF_OK) return rc;
    b->n += p->bat_n - p->bat_i;
    p->bat_i = p->bat_n;
    if ((rc = read_briefs(ctx, p)) != GPURF_OK) return rc;
  }
  *max_reg = mr;
  return GPURF_OK;
}

/* The trace's last-use hint of the record just compacted into b->store[b->n]
 * (a register is last used when an operand covering it is), kept beside the
 * code for techniques. */
static int hint_record(gpurf_ctx *ctx, ctabuf *b, const gpurf_trace_inst *t) {
  if (!b->last_use || b->cap_hint < b->cap) {
    uint32_t *h = realloc(b->last_use, (size_t)b->cap * sizeof *h);
    if (!h) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
    b->last_use = h, b->cap_hint = b->cap;
  }
  const cinst *c = &b->store[b->n];
  uint32_t bits = 0;
  if (t->flags & GPURF_TRACE_HAS_HINTS) {
    bits = 1u << 31;
    for (int j = 0; j < t->n_src; j++) {
      const gpurf_trace_operand *o = &t->src[j];
      if (!(t->last_use >> j & 1) || o->reg >= GPURF_TRACE_NUM_REGS) continue;
      for (int i = 0; i < c->n_src; i++)
        if (c->src[i] >= o->reg && c->src[i] < o->reg + o->width) bits |= 1u << i;
    }
  }
  b->last_use[b->n] = bits;
  return GPURF_OK;
}

/* Records without a hint: a read is the last when the warp writes the
 * register, or never touches it, before reading it again. Backwards over
 * each warp's instructions; an instruction's writes follow its reads. */
static void hint_liveness(ctabuf *b) {
  for (uint32_t wi = 0; wi < b->n_warps; wi++) {
    uint8_t read_next[GPURF_TRACE_NUM_REGS] = {0};
    for (uint32_t k = b->warp_start[wi + 1]; k-- > b->warp_start[wi];) {
      const cinst *c = b->code[k];
      for (int i = 0; i < c->n_dst; i++) read_next[c->dst[i]] = 0;
      uint32_t bits = 0;
      for (int i = 0; i < c->n_src; i++) {
        if (!read_next[c->src[i]]) bits |= 1u << i;
        read_next[c->src[i]] = 1;
      }
      if (!(b->last_use[k] >> 31)) b->last_use[k] = bits;
    }
  }
}

/* Reads the next CTA into a free buffer (p->staged), or leaves staged at -1
 * when the trace is over. */
static int load_cta(gpurf_ctx *ctx, gpurf_pipeline *p) {
  if (!p->rec_valid) return GPURF_OK;
  int bi = -1;
  for (int i = 0; i < p->n_buf && bi < 0; i++)
    if (!p->buf[i].used) bi = i;
  if (bi < 0) return gpurf_fail(ctx, GPURF_EINVAL, "no free CTA buffer");
  ctabuf *b = &p->buf[bi];
  const gpurf_trace_kernel *k = gpurf_trace_reader_kernel(p->reader);
  /* The kernel and CTA of the first record: the CTA goes on while its
   * records have the same (one compare of 16 bytes). */
  uint32_t key[4];
  if (p->brief)
    memcpy(key, &p->bat_where, sizeof key);
  else
    memcpy(key, &p->rec->kernel, sizeof key);
  uint32_t kernel = key[0], *cta = key + 1;
  b->kernel = kernel;
  b->n = b->n_code = 0;
  b->n_warps = 0;
  b->shmem = k ? k->shmem_bytes : 0;
  uint32_t nregs = k ? k->nregs : 0, block = k ? k->block[0] * k->block[1] * k->block[2] : 0;
  uint32_t max_reg = 0;
  uint64_t seen = 0;
  uint32_t last = UINT32_MAX;
  int per_record = p->hk.load || p->hk.decode || !p->base_map;
  /* Read in brief, the code points into the pool's generations from this
   * one on (UINT32_MAX: still being read); read whole, into none. */
  b->gen_lo = p->brief ? p->pool_gen : 1;
  b->gen_hi = p->brief ? UINT32_MAX : 0;
  /* A kernel's CTAs are much alike: room for as many pointers as the last
   * one took (not the most any had: one large CTA would make every buffer
   * as large). */
  int rc = pipe_buf_reserve(ctx, p, b, p->cta_room);
  uint32_t ws = (uint32_t)p->prm.warp_size, warps = (uint32_t)(((uint64_t)block + ws - 1) / ws);
  if (rc == GPURF_OK && p->brief) rc = load_briefs(ctx, p, b, nregs, warps, &max_reg);
  if (rc != GPURF_OK) return rc;
  while (!p->brief && p->rec_valid && memcmp(&p->rec->kernel, key, sizeof key) == 0) {
    uint32_t wid = p->rec->warp;
    if (wid != last) {
      if ((rc = warp_begin(ctx, p, b, wid, cta, &seen, warps)) != GPURF_OK) return rc;
      last = wid;
    }
    if (b->n == b->cap && (rc = pipe_buf_reserve(ctx, p, b, b->n + 1)) != GPURF_OK) return rc;
    rc = compact_memo(ctx, p, p->rec, &b->store[b->n], &max_reg);
    if (rc != GPURF_OK) return rc;
    b->code[b->n_code++] = &b->store[b->n];
    if (per_record) { /* a technique sees the record */
      if (p->hk.load) p->hk.load(p->hk.state, p, bi, b->n, p->rec);
      if (p->hk.decode) {
        b->tag[b->n] = 0;
        if ((rc = p->hk.decode(p->hk.state, p, p->rec, &b->tag[b->n])) != GPURF_OK) return rc;
      }
      if (!p->base_map && (rc = hint_record(ctx, b, p->rec)) != GPURF_OK) return rc;
    }
    b->n++;
    if ((rc = read_rec(ctx, p)) != GPURF_OK) return rc;
  }
  b->warp_start[b->n_warps] = b->n;
  if (p->brief) b->gen_hi = p->pool_gen;
  p->cta_room = b->n_code;
  if (!p->base_map) hint_liveness(b);
  b->regs_per_thread = nregs ? nregs : max_reg + 1;
  uint32_t by_warps = b->n_warps * (uint32_t)p->prm.warp_size;
  b->threads = block > by_warps || block == 0 ? by_warps : block;
  b->used = 1;
  p->staged = bi;
  uint64_t held = 0;
  for (int i = 0; i < p->n_buf; i++)
    if (p->buf[i].used) held += p->buf[i].n;
  if (held > p->st.max_buffered) p->st.max_buffered = held;
  return GPURF_OK;
}

static long long cta_regs(const gpurf_pipeline *p, const ctabuf *b) {
  /* Registers are allocated per warp, for all its lanes. */
  return (long long)b->regs_per_thread * b->n_warps * p->prm.warp_size;
}

static int fits(const gpurf_pipeline *p, const ctabuf *b) {
  if (p->have_kernel && b->kernel != p->kernel_now && p->n_ctas > 0) return 0;
  return p->n_ctas < p->prm.max_ctas && p->n_warps + (int)b->n_warps <= p->prm.max_warps &&
         p->threads + (int)b->threads <= p->prm.max_threads &&
         p->regs + cta_regs(p, b) <= p->prm.registers && p->shmem + b->shmem <= p->prm.shared_bytes;
}

static void launch(gpurf_pipeline *p, int bi) {
  ctabuf *b = &p->buf[bi];
  cta_state *cs = &p->cta[bi];
  p->acted = 1;
  p->n_ctas++;
  p->n_warps += (int)b->n_warps;
  p->threads += (int)b->threads;
  p->regs += cta_regs(p, b);
  p->shmem += b->shmem;
  p->kernel_now = b->kernel;
  p->have_kernel = 1;
  cs->live_warps = (int)b->n_warps;
  cs->arrived = 0;
  int slot = 0;
  for (uint32_t i = 0; i < b->n_warps; i++) {
    while (p->w[slot].live) slot++;
    warp *w = &p->w[slot];
    memset(w, 0, sizeof *w);
    w->slot = (uint8_t)slot, w->si = p->slot_sched[slot];
    w->live = 1;
    w->cta = bi;
    w->code = b->code + b->code_at[i];
    w->start = b->warp_start[i];
    w->tag = b->tag ? b->tag + b->warp_start[i] : NULL;
    w->n = b->warp_start[i + 1] - b->warp_start[i];
    /* The decoder fills the buffer as the warp launches. */
    w->ib = w->n < (uint32_t)p->prm.ibuffer_depth ? w->n : (uint32_t)p->prm.ibuffer_depth;
    w->why = -1;
    w->gid = p->next_gwarp++;
    w->age = p->next_age++;
    cs->first_warp_slot[i] = slot;
    pipe_sched_add(p, slot);
  }
  p->st.ctas++;
  p->st.warps += b->n_warps;
}

int pipe_feed_admit(gpurf_ctx *ctx, gpurf_pipeline *p) {
  for (;;) {
    if (p->staged < 0) {
      int rc = load_cta(ctx, p);
      if (rc != GPURF_OK) return rc;
      if (p->staged < 0) return GPURF_OK;
      p->freed = 1; /* a new CTA to try */
    }
    ctabuf *b = &p->buf[p->staged];
    if (!p->freed && p->n_ctas > 0) return GPURF_OK; /* nothing changed since it did not fit */
    p->freed = 0;
    if (!fits(p, b)) {
      if (p->n_ctas == 0)
        return gpurf_fail(ctx, GPURF_EUNSUPPORTED,
                          "a CTA of kernel %u (%u warps, %u registers per thread, %u B shared) "
                          "does not fit the SM",
                          b->kernel, b->n_warps, b->regs_per_thread, b->shmem);
      return GPURF_OK;
    }
    launch(p, p->staged);
    p->staged = -1;
  }
}

/* A warp has retired its last instruction. */
void pipe_cta_warp_done(gpurf_pipeline *p, int slot) {
  warp *w = &p->w[slot];
  int bi = w->cta;
  cta_state *cs = &p->cta[bi];
  ctabuf *b = &p->buf[bi];
  pipe_why(p, w, -1);
  w->live = 0;
  p->want_fetch &= ~((uint64_t)1 << slot);
  pipe_sched_remove(p, slot);
  if (p->hk.warp_end) p->hk.warp_end(p->hk.state, p, slot, bi);
  cs->live_warps--;
  if (cs->live_warps > 0 && cs->arrived >= cs->live_warps) {
    /* The warps still running were all waiting for this one: they leave
     * the barrier, and their recorded stall reason with it. */
    for (int s = 0; s < GPURF_PIPELINE_MAX_WARPS; s++)
      if (p->w[s].live && p->w[s].cta == bi) p->w[s].at_barrier = 0, pipe_why(p, &p->w[s], -1);
    cs->arrived = 0;
  }
  if (cs->live_warps == 0) {
    p->freed = 1;
    p->n_ctas--;
    p->n_warps -= (int)b->n_warps;
    p->threads -= (int)b->threads;
    p->regs -= cta_regs(p, b);
    p->shmem -= b->shmem;
    b->used = 0;
    /* pipe_admit_idle() no longer holds when a CTA waits to be tried. */
    p->feed_due = p->staged >= 0 || p->n_ctas == 0;
  }
}
