/* Native trace writer front end: the temporary file, kernel and warp
 * boundaries, and the final rename. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/nb_internal.h"

int tr_write(gpurf_ctx *ctx, gpurf_trace_writer *w, const void *p, size_t n) {
  if (fwrite(p, 1, n, w->f) != n)
    return gpurf_fail_at(ctx, GPURF_EIO, w->path, 0, 0, NULL, "write failed: %s", strerror(errno));
  return GPURF_OK;
}

int gpurf_trace_writer_alloc(gpurf_ctx *ctx, const char *path, gpurf_trace_format fmt,
                             gpurf_trace_writer **out) {
  *out = NULL;
  if (fmt != GPURF_TRACE_FORMAT_TEXT && fmt != GPURF_TRACE_FORMAT_BINARY)
    return gpurf_fail(ctx, GPURF_EUNSUPPORTED, "traces are written as native text or binary only");
  gpurf_trace_writer *w = calloc(1, sizeof *w);
  if (!w) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  if (gpurf_strlcpy(w->path, path, sizeof w->path) != 0) {
    free(w);
    return gpurf_fail(ctx, GPURF_EINVAL, "output path too long");
  }
  /* Same directory as the output, so the final rename cannot cross devices. */
  snprintf(w->tmp, sizeof w->tmp, "%s.tmpXXXXXX", path);
  int fd = mkstemp(w->tmp);
  if (fd < 0) {
    int e = errno;
    free(w);
    return gpurf_fail_at(ctx, GPURF_EIO, path, 0, 0, NULL, "cannot create: %s", strerror(e));
  }
  fchmod(fd, 0644); /* mkstemp's 0600 would hide the trace from other users */
  w->f = fdopen(fd, "wb");
  if (!w->f) {
    close(fd);
    unlink(w->tmp);
    free(w);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  }
  /* Records are small and many: a large buffer saves most write calls. */
  setvbuf(w->f, NULL, _IOFBF, 1u << 20);
  w->ops = fmt == GPURF_TRACE_FORMAT_TEXT ? &tr_text_wops : &tr_binary_wops;
  int rc = fmt == GPURF_TRACE_FORMAT_TEXT ? tr_write(ctx, w, TR_TEXT_MAGIC "\n", strlen(TR_TEXT_MAGIC) + 1)
                                          : tr_write(ctx, w, TR_BINARY_MAGIC, TR_BINARY_MAGIC_LEN);
  if (rc) {
    gpurf_trace_writer_free(w);
    return rc;
  }
  *out = w;
  return GPURF_OK;
}

int gpurf_trace_write(gpurf_ctx *ctx, gpurf_trace_writer *w, const gpurf_trace_kernel *k,
                      const gpurf_trace_inst *inst) {
  if (!w || !k || !inst) return gpurf_fail(ctx, GPURF_EINVAL, "no writer, kernel or record");
  if (w->committed) return gpurf_fail(ctx, GPURF_EINVAL, "writer already committed");
  int rc;
  int new_cta = 0;
  if (!w->have_kernel || inst->kernel != w->kernel_index) {
    rc = w->ops->kernel(ctx, w, k);
    if (rc) return rc;
    w->have_kernel = 1;
    w->kernel_index = inst->kernel;
    w->have_cta = 0;
  }
  if (!w->have_cta || memcmp(w->cta, inst->cta, sizeof w->cta) != 0) {
    memcpy(w->cta, inst->cta, sizeof w->cta);
    w->have_cta = 1;
    new_cta = 1;
  }
  if (new_cta || !w->have_warp || w->warp != inst->warp) {
    w->warp = inst->warp;
    w->have_warp = 1;
    rc = w->ops->pos(ctx, w, new_cta);
    if (rc) return rc;
  }
  rc = w->ops->inst(ctx, w, inst);
  if (rc) return rc;
  w->count++;
  return GPURF_OK;
}

const char *gpurf_trace_writer_tmp_path(const gpurf_trace_writer *w) {
  return w && !w->committed ? w->tmp : "";
}

int gpurf_trace_writer_commit(gpurf_ctx *ctx, gpurf_trace_writer *w) {
  if (!w || w->committed) return gpurf_fail(ctx, GPURF_EINVAL, "no writer or already committed");
  int rc = w->ops->finish(ctx, w);
  if (rc) return rc;
  FILE *f = w->f;
  w->f = NULL;
  if (fflush(f) != 0 || ferror(f)) {
    fclose(f);
    return gpurf_fail_at(ctx, GPURF_EIO, w->path, 0, 0, NULL, "write failed: %s", strerror(errno));
  }
  if (fclose(f) != 0)
    return gpurf_fail_at(ctx, GPURF_EIO, w->path, 0, 0, NULL, "write failed: %s", strerror(errno));
  if (rename(w->tmp, w->path) != 0)
    return gpurf_fail_at(ctx, GPURF_EIO, w->path, 0, 0, NULL, "cannot rename into place: %s",
                         strerror(errno));
  w->committed = 1;
  return GPURF_OK;
}

void gpurf_trace_writer_free(gpurf_trace_writer *w) {
  if (!w) return;
  if (w->f) fclose(w->f);
  if (!w->committed) unlink(w->tmp);
  free(w->opcodes);
  if (w->heads) nb_heads_free(w->heads);
  free(w->heads);
  free(w);
}
