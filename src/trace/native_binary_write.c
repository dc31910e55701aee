/* Native binary trace: the writer. Layout in docs/trace-format.md; the
 * reader is native_binary.c. */
#include <stdlib.h>
#include <string.h>

#include "trace/nb_internal.h"

typedef struct wbuf {
  unsigned char b[TR_BINARY_MAX_INST];
  size_t n;
} wbuf;

static void w8(wbuf *w, uint8_t v) { w->b[w->n++] = v; }
static void w32(wbuf *w, uint32_t v) {
  for (int i = 0; i < 4; i++) w->b[w->n++] = (unsigned char)(v >> (8 * i));
}
static void w64(wbuf *w, uint64_t v) {
  w32(w, (uint32_t)v);
  w32(w, (uint32_t)(v >> 32));
}
static void wv(wbuf *w, uint64_t v) {
  while (v >= 0x80) {
    w->b[w->n++] = (unsigned char)(v | 0x80);
    v >>= 7;
  }
  w->b[w->n++] = (unsigned char)v;
}
static void wz(wbuf *w, int64_t v) { wv(w, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63)); }

static int nb_wkernel(gpurf_ctx *ctx, gpurf_trace_writer *w, const gpurf_trace_kernel *k) {
  /* A kernel's repeats name only its own records. */
  if (!w->heads && !(w->heads = calloc(1, sizeof *w->heads)))
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  nb_heads_reset(w->heads);
  w->pc_prev = 0;
  size_t nl = strlen(k->name), vl = strlen(k->nvbit_version);
  unsigned char *b = malloc(128 + nl + vl);
  if (!b) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  wbuf *hdr = malloc(sizeof *hdr);
  if (!hdr) {
    free(b);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  }
  hdr->n = 0;
  w8(hdr, 'K');
  w32(hdr, k->id);
  for (int i = 0; i < 3; i++) w32(hdr, k->grid[i]);
  for (int i = 0; i < 3; i++) w32(hdr, k->block[i]);
  w32(hdr, k->shmem_bytes);
  w32(hdr, k->nregs);
  w32(hdr, k->binary_version);
  w32(hdr, k->tracer_version);
  w32(hdr, k->lineinfo);
  w64(hdr, k->shmem_base);
  w64(hdr, k->local_base);
  w64(hdr, k->stream_id);
  w8(hdr, (uint8_t)nl);
  w8(hdr, (uint8_t)(nl >> 8));
  memcpy(b, hdr->b, hdr->n);
  size_t n = hdr->n;
  memcpy(b + n, k->name, nl);
  n += nl;
  b[n++] = (unsigned char)vl;
  memcpy(b + n, k->nvbit_version, vl);
  n += vl;
  int rc = tr_write(ctx, w, b, n);
  free(hdr);
  free(b);
  return rc;
}

static int nb_wpos(gpurf_ctx *ctx, gpurf_trace_writer *w, int new_cta) {
  wbuf b;
  b.n = 0;
  w->pc_prev = 0;
  if (new_cta) {
    w8(&b, 'C');
    for (int i = 0; i < 3; i++) w32(&b, w->cta[i]);
  }
  w8(&b, 'W');
  w32(&b, w->warp);
  return tr_write(ctx, w, b.b, b.n);
}

static uint32_t name_hash(const char *s) {
  uint32_t h = 2166136261u; /* FNV-1a */
  while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
  return (h ^ h >> 8 ^ h >> 16) & 255u;
}

static int opcode_id(gpurf_ctx *ctx, gpurf_trace_writer *w, const char *name, uint32_t *id) {
  /* Traces hold a few dozen distinct opcodes: a hash slot answers most
   * look-ups, the list the rest. */
  uint32_t h = name_hash(name), slot = w->op_hash[h];
  if (slot && strcmp(w->opcodes[slot - 1], name) == 0) {
    *id = slot - 1;
    return GPURF_OK;
  }
  for (uint32_t i = w->n_opcodes; i-- > 0;)
    if (strcmp(w->opcodes[i], name) == 0) {
      *id = i;
      w->op_hash[h] = i + 1;
      return GPURF_OK;
    }
  if (w->n_opcodes >= TR_BINARY_MAX_OPCODES)
    return gpurf_fail(ctx, GPURF_EUNSUPPORTED, "more than 65536 distinct opcodes");
  if ((w->n_opcodes & (w->n_opcodes - 1)) == 0) {
    uint32_t cap = w->n_opcodes ? w->n_opcodes * 2 : 1;
    char(*p)[GPURF_TRACE_OPCODE_MAX] = realloc(w->opcodes, cap * sizeof *p);
    if (!p) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
    w->opcodes = p;
  }
  size_t n = strlen(name);
  if (n == 0 || n >= GPURF_TRACE_OPCODE_MAX) return gpurf_fail(ctx, GPURF_EINVAL, "bad opcode");
  memcpy(w->opcodes[w->n_opcodes], name, n + 1);
  unsigned char rec[2 + GPURF_TRACE_OPCODE_MAX];
  rec[0] = 'O';
  rec[1] = (unsigned char)n;
  memcpy(rec + 2, name, n);
  int rc = tr_write(ctx, w, rec, n + 2);
  if (rc) return rc;
  *id = w->n_opcodes++;
  w->op_hash[h] = *id + 1;
  return GPURF_OK;
}

/* Writes the instruction record in b, as a repeat record when the last
 * record at its pc had the same head: the tag (S with all 32 lanes active,
 * else R and the mask), the pc as a zigzag difference from the last
 * record's, and the fields after the memory width as they are. */
static int nb_wrecord(gpurf_ctx *ctx, gpurf_trace_writer *w, const wbuf *b, uint64_t pc,
                      uint32_t mask) {
  const uint64_t prev = w->pc_prev;
  w->pc_prev = pc;
  nb_head_parts hp;
  if (!nb_head_split(b->b, b->b + b->n, &hp)) return tr_write(ctx, w, b->b, b->n);
  /* The map learns the record's head as the reader will; a head it held
   * already makes the record a repeat. */
  int rc = nb_heads_put(w->heads, pc, hp.a, hp.a_len, hp.b, hp.b_len);
  if (rc < 0) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  if (rc != NB_HEAD_SAME) return tr_write(ctx, w, b->b, b->n);
  wbuf r;
  r.n = 0;
  w8(&r, mask == 0xffffffffu ? 'S' : 'R');
  wz(&r, (int64_t)(pc - prev));
  if (mask != 0xffffffffu) w32(&r, mask);
  const unsigned char *tail = hp.b + hp.b_len;
  size_t n = (size_t)(b->b + b->n - tail);
  memcpy(r.b + r.n, tail, n);
  return tr_write(ctx, w, r.b, r.n + n);
}

static int nb_winst(gpurf_ctx *ctx, gpurf_trace_writer *w, const gpurf_trace_inst *inst) {
  uint32_t id = 0;
  int rc = opcode_id(ctx, w, inst->opcode, &id);
  if (rc) return rc;
  if (inst->n_dst > GPURF_TRACE_MAX_DST || inst->n_src > GPURF_TRACE_MAX_SRC)
    return gpurf_fail(ctx, GPURF_EINVAL, "too many register operands");
  wbuf b;
  b.n = 0;
  w8(&b, 'I');
  wv(&b, id);
  uint8_t flags = (uint8_t)(inst->flags & 0x3fu);
  if (!inst->mem_width) flags &= (uint8_t)~GPURF_TRACE_HAS_ADDR;
  if (!inst->n_dst_regs || !inst->mask) flags &= (uint8_t)~GPURF_TRACE_HAS_VALUES;
  w8(&b, flags);
  wv(&b, inst->pc);
  w32(&b, inst->mask);
  w8(&b, (uint8_t)(inst->n_dst | inst->n_src << 3));
  for (unsigned i = 0; i < inst->n_dst; i++) {
    w8(&b, inst->dst[i].reg);
    w8(&b, inst->dst[i].width);
  }
  for (unsigned i = 0; i < inst->n_src; i++) {
    w8(&b, inst->src[i].reg);
    w8(&b, inst->src[i].width);
  }
  w8(&b, inst->mem_width);
  if (flags & GPURF_TRACE_HAS_ADDR) {
    uint64_t base, stride;
    if (tr_addr_strided(inst, &base, &stride)) {
      w8(&b, 1);
      w64(&b, base);
      wz(&b, (int64_t)stride);
    } else {
      w8(&b, 0);
      for (int l = 0; l < 32; l++)
        if (inst->mask >> l & 1) w64(&b, inst->addr[l]);
    }
  }
  if (flags & GPURF_TRACE_HAS_LINE) wv(&b, inst->line);
  if (flags & GPURF_TRACE_HAS_IMM) wz(&b, inst->imm);
  if (flags & GPURF_TRACE_HAS_VALUES) {
    for (unsigned k = 0; k < inst->n_dst_regs && k < GPURF_TRACE_MAX_DST_REGS; k++) {
      const uint32_t *val = inst->values[k];
      uint32_t base, stride;
      int ok = tr_values_affine(inst->mask, val, &base, &stride);
      if (ok && stride == 0) {
        w8(&b, 0);
        w32(&b, base);
      } else if (ok) {
        w8(&b, 1);
        w32(&b, base);
        w32(&b, stride);
      } else {
        w8(&b, 2);
        for (int l = 0; l < 32; l++)
          if (inst->mask >> l & 1) w32(&b, val[l]);
      }
    }
  }
  if (flags & GPURF_TRACE_HAS_HINTS) {
    w8(&b, inst->last_use);
    w8(&b, inst->strand_end);
  }
  if (flags & GPURF_TRACE_HAS_RECONV) wv(&b, inst->reconv_pc);
  return nb_wrecord(ctx, w, &b, inst->pc, inst->mask);
}

static int nb_wfinish(gpurf_ctx *ctx, gpurf_trace_writer *w) {
  wbuf b;
  b.n = 0;
  w8(&b, 'E');
  wv(&b, w->count);
  return tr_write(ctx, w, b.b, b.n);
}

const tr_wops tr_binary_wops = {nb_wkernel, nb_wpos, nb_winst, nb_wfinish};
