/* Private view of the context handle and the error-setting helpers that
 * every module uses to fill the caller's error record. */
#ifndef GPURF_CTX_INTERNAL_H
#define GPURF_CTX_INTERNAL_H

#include <stdio.h>

#include "gpurf/context.h"

#define GPURF_DATA_DIR_MAX 1024

struct gpurf_ctx {
  gpurf_error err;
  char data_dir[GPURF_DATA_DIR_MAX];
  gpurf_warning_fn warn;
  void *warn_user;
  /* Working memory one call at a time reuses (the bank search's
   * environments and driver-chain memo, bank_env.c): kept from call to
   * call, so a search neither allocates it nor faults its pages in again;
   * zeroed when made, freed with the context. */
  void *scratch;
  size_t scratch_size;
  int scratch_busy;
};

/* Lends the context's scratch memory of at least `size` bytes (contents
 * left from the last user, zeros when it was made anew), or NULL when it
 * is lent already (a nested call) or cannot be allocated: the caller then
 * allocates its own. */
void *gpurf_ctx_scratch_take(gpurf_ctx *ctx, size_t size);
/* Returns what gpurf_ctx_scratch_take lent. */
void gpurf_ctx_scratch_give(gpurf_ctx *ctx);

#if defined(__GNUC__)
#define GPURF_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define GPURF_PRINTF(fmt, args)
#endif

/* Fills the context's error record and returns status, so callers can write
 * `return gpurf_fail(ctx, GPURF_EINVAL, ...)`. Any of file/field may be NULL. */
int gpurf_fail_at(gpurf_ctx *ctx, int status, const char *file, int line,
                  int column, const char *field, const char *fmt, ...)
    GPURF_PRINTF(7, 8);

/* Hands a warning to the context's handler, if any (the error record is
 * left alone). */
void gpurf_warn_at(gpurf_ctx *ctx, const char *file, int line, int column, const char *field,
                   const char *fmt, ...) GPURF_PRINTF(6, 7);

/* Shorthand without a location. */
int gpurf_fail(gpurf_ctx *ctx, int status, const char *fmt, ...)
    GPURF_PRINTF(3, 4);

/* Copies src into dst (size bytes), always terminated; returns 0 when it fit. */
int gpurf_strlcpy(char *dst, const char *src, size_t size);

/* "-" names standard input wherever a file is read: gpurf_input_open gives
 * stdin for it (else fopen "rb"), gpurf_input_close leaves stdin open, and
 * gpurf_input_name is what messages call it ("<stdin>"). */
int gpurf_input_is_stdin(const char *path);
const char *gpurf_input_name(const char *path);
FILE *gpurf_input_open(const char *path);
void gpurf_input_close(FILE *f);

#endif
