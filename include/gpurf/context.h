/* The context handle: every call takes one; it owns the error record and
 * the settings that would otherwise be global (data directory). */
#ifndef GPURF_CONTEXT_H
#define GPURF_CONTEXT_H

#include "gpurf/error.h"
#include "gpurf/export.h"

GPURF_BEGIN_DECLS

typedef struct gpurf_ctx gpurf_ctx;

/* NULL when out of memory. */
GPURF_API gpurf_ctx *gpurf_ctx_alloc(void);
GPURF_API void gpurf_ctx_free(gpurf_ctx *ctx);

/* The record of the last failed call on this context. */
GPURF_API const gpurf_error *gpurf_ctx_error(const gpurf_ctx *ctx);
GPURF_API void gpurf_ctx_clear_error(gpurf_ctx *ctx);

/* Warnings: input the library accepted after repairing it (a trace header's
 * implausible register count, say). The library never prints; it hands each
 * warning, in the error record's form (file, line, message), to the handler
 * set here, once. Without a handler warnings are dropped. */
typedef void (*gpurf_warning_fn)(void *user, const gpurf_error *warning);
GPURF_API void gpurf_ctx_set_warning_handler(gpurf_ctx *ctx, gpurf_warning_fn fn, void *user);

/* Directory holding tech/ and models/. Node names such as "40nm" are looked
 * up in DIR/tech/. A new context starts with the installed data directory
 * (PREFIX/share/gpurf); the gpurf command overrides it from GPURF_DATA_DIR,
 * and a program may do the same. Paths to files work without it. */
GPURF_API int gpurf_ctx_set_data_dir(gpurf_ctx *ctx, const char *dir);
GPURF_API const char *gpurf_ctx_data_dir(const gpurf_ctx *ctx);

/* Version string of the library, "MAJOR.MINOR.PATCH". */
GPURF_API const char *gpurf_version(void);

GPURF_END_DECLS

#endif
