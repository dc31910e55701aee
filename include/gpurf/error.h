/* Status codes and the error record every failing call fills in. */
#ifndef GPURF_ERROR_H
#define GPURF_ERROR_H

#include <stddef.h>
#include "gpurf/export.h"

GPURF_BEGIN_DECLS

/* Every function that can fail returns one of these; GPURF_OK is zero. */
enum gpurf_status {
  GPURF_OK = 0,
  GPURF_EINVAL = -1,      /* an argument is invalid */
  GPURF_ENOMEM = -2,      /* out of memory */
  GPURF_EIO = -3,         /* a file cannot be opened or read */
  GPURF_EPARSE = -4,      /* a file is not valid YAML (or not text at all) */
  GPURF_ESCHEMA = -5,     /* unknown, missing or duplicate key; wrong type */
  GPURF_ERANGE = -6,      /* a value is outside its physical range */
  GPURF_ENOTFOUND = -7,   /* a named node, cell or design does not exist */
  GPURF_EUNSUPPORTED = -8 /* the request lies outside what the model covers */
};

#define GPURF_ERROR_FILE_MAX 512
#define GPURF_ERROR_FIELD_MAX 128
#define GPURF_ERROR_MESSAGE_MAX 512

/* Where and why the last call failed. line/column are 1-based, 0 when unknown;
 * file and field are empty when they do not apply. */
typedef struct gpurf_error {
  int status;
  char file[GPURF_ERROR_FILE_MAX];
  int line;
  int column;
  char field[GPURF_ERROR_FIELD_MAX];
  char message[GPURF_ERROR_MESSAGE_MAX];
} gpurf_error;

/* A short description of a status code. Never NULL. */
GPURF_API const char *gpurf_strerror(int status);

/* Formats the record as one line "FILE:LINE:COL: key 'FIELD': MESSAGE",
 * leaving out the parts that are empty. Returns the length snprintf would. */
GPURF_API int gpurf_error_format(const gpurf_error *err, char *buf, size_t size);

/* Longest quoted value a message repeats; a longer one is cut, ending "...". */
#define GPURF_ERROR_VALUE_MAX 64

/* Copies src into dst (size bytes, always terminated) so that it prints on
 * one line: newline, CR and tab become \n, \r, \t; other control bytes and
 * bytes that are not UTF-8 become \xHH; a quoted value ('...') longer than
 * GPURF_ERROR_VALUE_MAX is cut. Every message the library records has been
 * through it. Returns the length written. */
GPURF_API size_t gpurf_error_escape(char *dst, size_t size, const char *src);

/* Levenshtein distance between two names (insertions, deletions and
 * substitutions), for "did you mean" hints; (size_t)-1 when either name is
 * longer than 63 characters. */
GPURF_API size_t gpurf_edit_distance(const char *a, const char *b);

GPURF_END_DECLS

#endif
