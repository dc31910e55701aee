#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/ctx_internal.h"

const char *gpurf_strerror(int status) {
  switch (status) {
  case GPURF_OK: return "success";
  case GPURF_EINVAL: return "invalid argument";
  case GPURF_ENOMEM: return "out of memory";
  case GPURF_EIO: return "cannot read file";
  case GPURF_EPARSE: return "not valid YAML";
  case GPURF_ESCHEMA: return "does not match the schema";
  case GPURF_ERANGE: return "value out of range";
  case GPURF_ENOTFOUND: return "not found";
  case GPURF_EUNSUPPORTED: return "outside what the model covers";
  default: return "unknown status";
  }
}

int gpurf_strlcpy(char *dst, const char *src, size_t size) {
  size_t n = strlen(src);
  if (size == 0) return -1;
  if (n >= size) {
    memcpy(dst, src, size - 1);
    dst[size - 1] = '\0';
    return -1;
  }
  memcpy(dst, src, n + 1);
  return 0;
}

static int fill_error(gpurf_error *e, int status, const char *file, int line,
                      int column, const char *field, const char *fmt,
                      va_list ap) {
  if (!e) return status;
  memset(e, 0, sizeof *e);
  e->status = status;
  /* Values from input files reach every part of the record. */
  if (file) gpurf_error_escape(e->file, sizeof e->file, file);
  e->line = line;
  e->column = column;
  if (field) gpurf_error_escape(e->field, sizeof e->field, field);
  char raw[4 * GPURF_ERROR_MESSAGE_MAX];
  vsnprintf(raw, sizeof raw, fmt, ap);
  gpurf_error_escape(e->message, sizeof e->message, raw);
  return status;
}

int gpurf_fail_at(gpurf_ctx *ctx, int status, const char *file, int line,
                  int column, const char *field, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fill_error(ctx ? &ctx->err : NULL, status, file, line, column, field, fmt, ap);
  va_end(ap);
  return status;
}

void gpurf_warn_at(gpurf_ctx *ctx, const char *file, int line, int column, const char *field,
                   const char *fmt, ...) {
  if (!ctx || !ctx->warn) return;
  gpurf_error w; /* filled as an error record is; the context's stays as it was */
  va_list ap;
  va_start(ap, fmt);
  fill_error(&w, GPURF_OK, file, line, column, field, fmt, ap);
  va_end(ap);
  ctx->warn(ctx->warn_user, &w);
}

int gpurf_fail(gpurf_ctx *ctx, int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fill_error(ctx ? &ctx->err : NULL, status, NULL, 0, 0, NULL, fmt, ap);
  va_end(ap);
  return status;
}

int gpurf_error_format(const gpurf_error *err, char *buf, size_t size) {
  char where[GPURF_ERROR_FILE_MAX + 32] = "";
  char key[GPURF_ERROR_FIELD_MAX + 16] = "";
  if (!err) return snprintf(buf, size, "no error");
  if (err->file[0] && err->line > 0)
    snprintf(where, sizeof where, "%s:%d:%d: ", err->file, err->line,
             err->column > 0 ? err->column : 1);
  else if (err->file[0])
    snprintf(where, sizeof where, "%s: ", err->file);
  if (err->field[0]) snprintf(key, sizeof key, "key '%s': ", err->field);
  const char *msg = err->message[0] ? err->message : gpurf_strerror(err->status);
  return snprintf(buf, size, "%s%s%s", where, key, msg);
}
