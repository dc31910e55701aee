#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"

/* The install prefix's data directory, where an installed gpurf keeps
 * tech/ and models/; a program overrides it with gpurf_ctx_set_data_dir. */
#ifndef GPURF_INSTALL_DATA_DIR
#define GPURF_INSTALL_DATA_DIR ""
#endif

gpurf_ctx *gpurf_ctx_alloc(void) {
  gpurf_ctx *ctx = calloc(1, sizeof(gpurf_ctx));
  if (ctx) gpurf_strlcpy(ctx->data_dir, GPURF_INSTALL_DATA_DIR, sizeof ctx->data_dir);
  return ctx;
}

void gpurf_ctx_free(gpurf_ctx *ctx) {
  if (ctx) free(ctx->scratch);
  free(ctx);
}

void *gpurf_ctx_scratch_take(gpurf_ctx *ctx, size_t size) {
  if (ctx->scratch_busy) return NULL;
  if (ctx->scratch_size < size) {
    free(ctx->scratch);
    ctx->scratch_size = 0;
    if (!(ctx->scratch = calloc(1, size))) return NULL;
    ctx->scratch_size = size;
  }
  ctx->scratch_busy = 1;
  return ctx->scratch;
}

void gpurf_ctx_scratch_give(gpurf_ctx *ctx) { ctx->scratch_busy = 0; }

const gpurf_error *gpurf_ctx_error(const gpurf_ctx *ctx) {
  return ctx ? &ctx->err : NULL;
}

void gpurf_ctx_clear_error(gpurf_ctx *ctx) {
  if (ctx) memset(&ctx->err, 0, sizeof ctx->err);
}

int gpurf_ctx_set_data_dir(gpurf_ctx *ctx, const char *dir) {
  if (!ctx || !dir) return GPURF_EINVAL;
  if (gpurf_strlcpy(ctx->data_dir, dir, sizeof ctx->data_dir) != 0)
    return gpurf_fail(ctx, GPURF_EINVAL, "data directory path is longer than %d bytes",
                      GPURF_DATA_DIR_MAX - 1);
  return GPURF_OK;
}

const char *gpurf_ctx_data_dir(const gpurf_ctx *ctx) {
  return ctx ? ctx->data_dir : "";
}

void gpurf_ctx_set_warning_handler(gpurf_ctx *ctx, gpurf_warning_fn fn, void *user) {
  if (!ctx) return;
  ctx->warn = fn;
  ctx->warn_user = user;
}
