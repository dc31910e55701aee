/* Schema-driven YAML decoding: a table of field descriptors says which keys a
 * mapping may hold, their types, units-in-name and physical ranges; the
 * decoder fills a C struct and reports the first problem as
 * FILE:LINE:COL: key 'path': what is wrong. */
#ifndef GPURF_YAML_SCHEMA_H
#define GPURF_YAML_SCHEMA_H

#include <stddef.h>

#include "core/ctx_internal.h"

typedef enum ys_kind {
  YS_END = 0, /* terminates a descriptor table */
  YS_DOUBLE,  /* finite double in [min, max] */
  YS_INT,     /* integer in [min, max], stored as int */
  YS_STRING,  /* char[size] */
  YS_ENUM,    /* one of names[], stored as int index */
  YS_MAP,     /* nested mapping described by sub */
  YS_LIST     /* sequence of mappings described by sub, elements of size bytes */
} ys_kind;

enum {
  YS_REQUIRED = 1u << 0,
  YS_MIN_EXCLUSIVE = 1u << 1, /* value must be > min rather than >= min */
};

#define YS_NO_FLAG ((size_t)-1)

typedef struct ys_field {
  const char *key;
  ys_kind kind;
  unsigned flags;
  size_t offset;
  size_t size;                /* YS_STRING: buffer size; YS_LIST: element size */
  double min, max;            /* YS_DOUBLE, YS_INT */
  const char *const *names;   /* YS_ENUM: NULL-terminated */
  const struct ys_field *sub; /* YS_MAP, YS_LIST */
  size_t count_offset;        /* YS_LIST: size_t element count in the parent */
  size_t min_count, max_count;/* YS_LIST */
  size_t present_offset;      /* int set to 1 when the key is given, or YS_NO_FLAG */
} ys_field;

/* Descriptor shorthands. T is the struct type, M the member (also the key). */
#define YS_DBL(T, M, LO, HI, FLAGS) \
  {#M, YS_DOUBLE, (FLAGS), offsetof(T, M), 0, (LO), (HI), NULL, NULL, 0, 0, 0, YS_NO_FLAG}
#define YS_DBL_OPT(T, M, LO, HI, FLAGS, PRESENT) \
  {#M, YS_DOUBLE, (FLAGS), offsetof(T, M), 0, (LO), (HI), NULL, NULL, 0, 0, 0, offsetof(T, PRESENT)}
#define YS_INTF(T, M, LO, HI, FLAGS) \
  {#M, YS_INT, (FLAGS), offsetof(T, M), 0, (LO), (HI), NULL, NULL, 0, 0, 0, YS_NO_FLAG}
#define YS_STR(T, M, FLAGS) \
  {#M, YS_STRING, (FLAGS), offsetof(T, M), sizeof(((T *)0)->M), 0, 0, NULL, NULL, 0, 0, 0, YS_NO_FLAG}
#define YS_STR_KEY(KEY, T, M, FLAGS) \
  {KEY, YS_STRING, (FLAGS), offsetof(T, M), sizeof(((T *)0)->M), 0, 0, NULL, NULL, 0, 0, 0, YS_NO_FLAG}
#define YS_ENUMF(KEY, T, M, NAMES, FLAGS) \
  {KEY, YS_ENUM, (FLAGS), offsetof(T, M), 0, 0, 0, (NAMES), NULL, 0, 0, 0, YS_NO_FLAG}
#define YS_MAPF(KEY, T, M, SUB, FLAGS) \
  {KEY, YS_MAP, (FLAGS), offsetof(T, M), 0, 0, 0, NULL, (SUB), 0, 0, 0, YS_NO_FLAG}
#define YS_LISTF(KEY, T, M, ELEM_T, COUNT_M, MINN, MAXN, SUB, FLAGS) \
  {KEY, YS_LIST, (FLAGS), offsetof(T, M), sizeof(ELEM_T), 0, 0, NULL, (SUB), \
   offsetof(T, COUNT_M), (MINN), (MAXN), YS_NO_FLAG}
#define YS_TABLE_END {NULL, YS_END, 0, 0, 0, 0, 0, NULL, NULL, 0, 0, 0, YS_NO_FLAG}

typedef struct ys_doc ys_doc;

/* Reads and parses PATH. Rejects unreadable, oversized, binary or compressed
 * files, syntax errors, empty files and multi-document streams. */
int ys_open(gpurf_ctx *ctx, const char *path, ys_doc **out);
void ys_close(ys_doc *doc);

/* The scalar value of a top-level key, or NULL when absent or not a scalar. */
const char *ys_top_scalar(const ys_doc *doc, const char *key);

/* Whether the root mapping has the key (of any type). */
int ys_top_has(const ys_doc *doc, const char *key);

/* Decodes the root mapping into out according to fields. */
int ys_decode(ys_doc *doc, const ys_field *fields, void *out);

/* Reports a problem with the value decoded into dst (a member of the struct
 * given to ys_decode), at that value's position in the file. */
int ys_fail_value(ys_doc *doc, const void *dst, int status, const char *fmt, ...)
    GPURF_PRINTF(4, 5);

/* The file position of the value decoded into dst: 1 and line, column
 * (from 1) when known, else 0. For checks made after the document is gone
 * (a component that refuses a value) to still point into the file. */
int ys_value_pos(const ys_doc *doc, const void *dst, int *line, int *column);

/* Path of the file the document came from. */
const char *ys_path(const ys_doc *doc);

#endif
