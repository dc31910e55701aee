/* Opening a trace: the format is told by content, not by file name. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace/trace_internal.h"

/* True when the first non-blank line looks like a kernelslist.g entry. */
static int looks_like_list(const unsigned char *h, size_t n) {
  size_t i = 0;
  while (i < n && (h[i] == ' ' || h[i] == '\t' || h[i] == '\n' || h[i] == '\r')) i++;
  const char *s = (const char *)h + i;
  size_t m = n - i;
  return (m >= 6 && memcmp(s, "Memcpy", 6) == 0) || (m >= 6 && memcmp(s, "kernel", 6) == 0);
}

int gpurf_trace_reader_alloc(gpurf_ctx *ctx, const char *path, gpurf_trace_reader **out) {
  *out = NULL;
  if (!path || !path[0]) return gpurf_fail(ctx, GPURF_EINVAL, "no trace path given");
  char list[TR_PATH_MAX];
  const char *file = path;
  int is_dir = 0;
  if (!gpurf_input_is_stdin(path)) {
    struct stat sb;
    if (stat(path, &sb) != 0)
      return gpurf_fail_at(ctx, GPURF_EIO, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
    is_dir = S_ISDIR(sb.st_mode);
  }
  if (is_dir) {
    struct stat sb;
    if (snprintf(list, sizeof list, "%s/kernelslist.g", path) >= (int)sizeof list)
      return gpurf_fail(ctx, GPURF_EINVAL, "path too long");
    if (stat(list, &sb) != 0)
      return gpurf_fail_at(ctx, GPURF_ENOTFOUND, path, 0, 0, NULL,
                           "directory holds no kernelslist.g");
    file = list;
  }
  /* Opened once: the format is told from the first bytes, which the format's
   * reader then takes over with the stream. */
  FILE *f = gpurf_input_open(file);
  if (!f) return gpurf_fail_at(ctx, GPURF_EIO, file, 0, 0, NULL, "cannot open: %s", strerror(errno));
  const char *name = gpurf_input_name(file);
  unsigned char head[64];
  size_t n = fread(head, 1, sizeof head, f);
  int rc = tr_refuse_compressed(ctx, name, head, n);
  if (!rc && n == 0) rc = gpurf_fail_at(ctx, GPURF_EPARSE, name, 1, 1, NULL, "empty file");
  gpurf_trace_reader *r = rc ? NULL : calloc(1, sizeof *r);
  if (!rc && !r) rc = gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  if (rc) {
    gpurf_input_close(f);
    return rc;
  }
  tr_input in = {f, name, head, n};
  if (n >= TR_BINARY_MAGIC_LEN && (memcmp(head, TR_BINARY_MAGIC, TR_BINARY_MAGIC_LEN) == 0 ||
                                   memcmp(head, TR_BINARY_MAGIC_V1, TR_BINARY_MAGIC_LEN) == 0))
    rc = tr_binary_open(ctx, r, &in);
  else if (n >= strlen(TR_TEXT_MAGIC) && memcmp(head, TR_TEXT_MAGIC, strlen(TR_TEXT_MAGIC)) == 0)
    rc = tr_text_open(ctx, r, &in);
  else
    rc = tr_accelsim_open(ctx, r, &in, is_dir || looks_like_list(head, n));
  if (rc != GPURF_OK) {
    gpurf_trace_reader_free(r);
    return rc;
  }
  *out = r;
  return GPURF_OK;
}

void gpurf_trace_reader_free(gpurf_trace_reader *r) {
  if (!r) return;
  if (r->ops && r->ops->free) r->ops->free(r);
  tr_shapes_free(r->shapes);
  free(r);
}

int gpurf_trace_next(gpurf_ctx *ctx, gpurf_trace_reader *r, gpurf_trace_inst *inst) {
  if (!r || !inst) return gpurf_fail(ctx, GPURF_EINVAL, "no reader or record");
  return r->ops->next(ctx, r, inst);
}

int gpurf_trace_next_briefs(gpurf_ctx *ctx, gpurf_trace_reader *r, gpurf_trace_brief *out,
                            size_t cap, size_t *n, gpurf_trace_where *where) {
  if (n) *n = 0;
  if (!r || !out || !n || !where || cap == 0)
    return gpurf_fail(ctx, GPURF_EINVAL, "no reader, records or room for them");
  if (!r->shapes) {
    int rc = tr_shapes_alloc(ctx, &r->shapes);
    if (rc) return rc;
  }
  tr_shapes *s = r->shapes;
  int rc = tr_shapes_grow(ctx, s);
  if (rc) return rc;
  if (r->ops->briefs) return r->ops->briefs(ctx, r, out, cap, n, where);
  /* One record a call: reading a second would read past a change of warp
   * or kernel, and the kernel's header is the last record's. */
  gpurf_trace_inst *t = s->rec;
  rc = r->ops->next(ctx, r, t);
  if (rc) return rc;
  where->kernel = t->kernel;
  memcpy(where->cta, t->cta, sizeof where->cta);
  where->warp = t->warp;
  out[0].shape = tr_shape_find(s, t);
  out[0].stamp = s->key[out[0].shape].stamp;
  out[0].mask = t->mask;
  *n = 1;
  return GPURF_OK;
}

uint32_t gpurf_trace_reader_shapes(const gpurf_trace_reader *r) { return r ? TR_SHAPES : 0; }

int gpurf_trace_reader_shape(const gpurf_trace_reader *r, uint32_t shape, gpurf_trace_inst *out) {
  if (!r || !out || !r->shapes || shape >= r->shapes->n_slots || !r->shapes->key[shape].stamp)
    return GPURF_EINVAL;
  const tr_shape_val *v = &r->shapes->val[shape];
  out->pc = v->pc;
  memcpy(out->opcode, v->opcode, sizeof out->opcode);
  out->op_class = v->op_class;
  out->latency = v->latency;
  out->mem = v->mem;
  out->mem_width = v->mem_width;
  out->n_dst = v->n_dst;
  out->n_src = v->n_src;
  out->n_dst_regs = v->n_dst_regs;
  memcpy(out->dst, v->dst, sizeof out->dst);
  memcpy(out->src, v->src, sizeof out->src);
  return GPURF_OK;
}

const gpurf_trace_kernel *gpurf_trace_reader_kernel(const gpurf_trace_reader *r) {
  return r ? &r->kernel : NULL;
}

void gpurf_trace_reader_omit(gpurf_trace_reader *r, uint32_t fields) {
  if (r) r->omit = fields & (GPURF_TRACE_HAS_ADDR | GPURF_TRACE_HAS_VALUES);
}

gpurf_trace_format gpurf_trace_reader_format(const gpurf_trace_reader *r) { return r->format; }

void gpurf_trace_reader_memcpy(const gpurf_trace_reader *r, uint64_t *count, uint64_t *bytes) {
  if (count) *count = r ? r->memcpy_count : 0;
  if (bytes) *bytes = r ? r->memcpy_bytes : 0;
}

int gpurf_trace_convert(gpurf_ctx *ctx, const char *in, const char *out, gpurf_trace_format fmt) {
  gpurf_trace_reader *r = NULL;
  gpurf_trace_writer *w = NULL;
  gpurf_trace_inst *inst = malloc(sizeof *inst);
  if (!inst) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  int rc = gpurf_trace_reader_alloc(ctx, in, &r);
  if (rc == GPURF_OK) rc = gpurf_trace_writer_alloc(ctx, out, fmt, &w);
  while (rc == GPURF_OK) {
    rc = gpurf_trace_next(ctx, r, inst);
    if (rc == GPURF_TRACE_END) {
      rc = gpurf_trace_writer_commit(ctx, w);
      break;
    }
    if (rc == GPURF_OK) rc = gpurf_trace_write(ctx, w, gpurf_trace_reader_kernel(r), inst);
  }
  gpurf_trace_writer_free(w);
  gpurf_trace_reader_free(r);
  free(inst);
  return rc;
}
