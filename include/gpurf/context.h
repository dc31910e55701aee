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
