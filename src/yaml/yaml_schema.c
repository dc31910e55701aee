#include "yaml/yaml_schema.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* Input files describe technologies and designs: a few kilobytes. The cap
 * keeps a mistaken argument (a trace, a disk image) from being slurped. */
#define YS_MAX_FILE_BYTES (16u * 1024u * 1024u)
#define YS_PATH_MAX 192

/* Where each decoded value came from, so cross-field checks can point at it. */
typedef struct ys_mark {
  const void *dst;
  int line, column;
  char path[YS_PATH_MAX];
} ys_mark;

struct ys_doc {
  gpurf_ctx *ctx;
  char *file;
  unsigned char *text;
  size_t text_len;
  yaml_document_t doc;
  int doc_loaded;
  ys_mark *marks;
  size_t n_marks, cap_marks;
};

const char *ys_path(const ys_doc *doc) { return doc->file; }

static int fail_node(ys_doc *d, const yaml_node_t *node, const char *path,
                     int status, const char *fmt, ...) GPURF_PRINTF(5, 6);

static int fail_node(ys_doc *d, const yaml_node_t *node, const char *path,
                     int status, const char *fmt, ...) {
  char msg[GPURF_ERROR_MESSAGE_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  int line = node ? (int)node->start_mark.line + 1 : 1;
  int col = node ? (int)node->start_mark.column + 1 : 1;
  return gpurf_fail_at(d->ctx, status, d->file, line, col,
                       path && path[0] ? path : NULL, "%s", msg);
}

/* Converts a byte offset into a 1-based line and column. */
static void offset_to_line_col(const unsigned char *text, size_t len,
                               size_t offset, int *line, int *col) {
  *line = 1;
  *col = 1;
  for (size_t i = 0; i < offset && i < len; i++) {
    if (text[i] == '\n') {
      (*line)++;
      *col = 1;
    } else {
      (*col)++;
    }
  }
}

static int read_whole_file(ys_doc *d, const char *path) {
  FILE *f = gpurf_input_open(path);
  if (!f)
    return gpurf_fail_at(d->ctx, GPURF_EIO, d->file, 0, 0, NULL,
                         "cannot open: %s", strerror(errno));
  size_t cap = 4096, len = 0;
  unsigned char *buf = malloc(cap + 1);
  if (!buf) {
    gpurf_input_close(f);
    return gpurf_fail(d->ctx, GPURF_ENOMEM, "out of memory reading %s", d->file);
  }
  for (;;) {
    if (len == cap) {
      if (cap >= YS_MAX_FILE_BYTES) {
        free(buf);
        gpurf_input_close(f);
        return gpurf_fail_at(d->ctx, GPURF_EIO, d->file, 0, 0, NULL,
                             "file is larger than %u bytes; not an input file",
                             YS_MAX_FILE_BYTES);
      }
      cap *= 2;
      unsigned char *nb = realloc(buf, cap + 1);
      if (!nb) {
        free(buf);
        gpurf_input_close(f);
        return gpurf_fail(d->ctx, GPURF_ENOMEM, "out of memory reading %s", d->file);
      }
      buf = nb;
    }
    size_t got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0) break;
  }
  int read_error = ferror(f);
  gpurf_input_close(f);
  if (read_error) {
    free(buf);
    return gpurf_fail_at(d->ctx, GPURF_EIO, d->file, 0, 0, NULL, "read error");
  }
  buf[len] = '\0';
  d->text = buf;
  d->text_len = len;
  return GPURF_OK;
}

/* Compressed or binary files given by mistake get a message that says so
 * rather than a confusing YAML syntax error. */
static int reject_binary(ys_doc *d) {
  const unsigned char *t = d->text;
  if (d->text_len >= 2 && t[0] == 0x1f && t[1] == 0x8b)
    return gpurf_fail_at(d->ctx, GPURF_EPARSE, d->file, 1, 1, NULL,
                         "gzip-compressed file; decompress it first");
  if (d->text_len >= 6 && memcmp(t, "\xfd" "7zXZ", 5) == 0)
    return gpurf_fail_at(d->ctx, GPURF_EPARSE, d->file, 1, 1, NULL,
                         "xz-compressed file; decompress it first");
  const unsigned char *nul = memchr(t, '\0', d->text_len);
  if (nul) {
    int line, col;
    offset_to_line_col(t, d->text_len, (size_t)(nul - t), &line, &col);
    return gpurf_fail_at(d->ctx, GPURF_EPARSE, d->file, line, col, NULL,
                         "binary data (NUL byte); not a YAML text file");
  }
  return GPURF_OK;
}

static int parser_failure(ys_doc *d, const yaml_parser_t *p) {
  int line, col;
  if (p->error == YAML_MEMORY_ERROR)
    return gpurf_fail_at(d->ctx, GPURF_ENOMEM, d->file, 0, 0, NULL,
                         "out of memory parsing the YAML");
  if (p->error == YAML_READER_ERROR) {
    offset_to_line_col(d->text, d->text_len, p->problem_offset, &line, &col);
  } else {
    line = (int)p->problem_mark.line + 1;
    col = (int)p->problem_mark.column + 1;
  }
  const char *problem = p->problem ? p->problem : "syntax error";
  if (p->context)
    return gpurf_fail_at(d->ctx, GPURF_EPARSE, d->file, line, col, NULL,
                         "invalid YAML: %s %s", problem, p->context);
  return gpurf_fail_at(d->ctx, GPURF_EPARSE, d->file, line, col, NULL,
                       "invalid YAML: %s", problem);
}

/* libyaml's scanner keeps a possible simple key per open flow collection
 * and walks all of them at every token, so 40,000 '[' cost seconds and a
 * megabyte of them minutes. No input file nests anywhere near this deep. */
#define YS_MAX_DEPTH 32
/* libyaml's document keeps about a hundred bytes per node: a 16 MB flow
 * list of numbers took 1.3 GB and seconds to load. The shipped files have
 * at most a few hundred nodes and a table of every component and event
 * some thousands. */
#define YS_MAX_NODES 65536

/* A first pass over the events, which stops at the first collection nested
 * deeper than YS_MAX_DEPTH or at the node past YS_MAX_NODES, before the
 * scanner has gone far past it or the document is built. */
static int check_depth(ys_doc *d) {
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser))
    return gpurf_fail(d->ctx, GPURF_ENOMEM, "cannot create YAML parser");
  yaml_parser_set_input_string(&parser, d->text, d->text_len);
  int depth = 0, rc = GPURF_OK;
  long nodes = 0;
  for (;;) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&parser, &ev)) {
      rc = parser_failure(d, &parser);
      break;
    }
    yaml_event_type_t type = ev.type;
    int line = (int)ev.start_mark.line + 1, col = (int)ev.start_mark.column + 1;
    yaml_event_delete(&ev);
    int is_node = type == YAML_SCALAR_EVENT || type == YAML_ALIAS_EVENT ||
                  type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT;
    if (is_node && ++nodes > YS_MAX_NODES) {
      rc = gpurf_fail_at(d->ctx, GPURF_EPARSE, d->file, line, col, NULL,
                         "more than %d YAML nodes: not an input file gpurf reads", YS_MAX_NODES);
      break;
    }
    if (type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT) {
      if (++depth > YS_MAX_DEPTH) {
        rc = gpurf_fail_at(d->ctx, GPURF_EPARSE, d->file, line, col, NULL,
                           "collections nested deeper than %d levels", YS_MAX_DEPTH);
        break;
      }
    } else if (type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT) {
      depth--;
    } else if (type == YAML_STREAM_END_EVENT) {
      break;
    }
  }
  yaml_parser_delete(&parser);
  return rc;
}

static int parse_text(ys_doc *d) {
  int depth_rc = check_depth(d);
  if (depth_rc != GPURF_OK) return depth_rc;
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser))
    return gpurf_fail(d->ctx, GPURF_ENOMEM, "cannot create YAML parser");
  yaml_parser_set_input_string(&parser, d->text, d->text_len);
  if (!yaml_parser_load(&parser, &d->doc)) {
    int rc = parser_failure(d, &parser);
    yaml_parser_delete(&parser);
    return rc;
  }
  d->doc_loaded = 1;
  if (!yaml_document_get_root_node(&d->doc)) {
    yaml_parser_delete(&parser);
    return gpurf_fail_at(d->ctx, GPURF_EPARSE, d->file, 1, 1, NULL,
                         "empty file: no YAML document");
  }
  yaml_document_t extra;
  if (!yaml_parser_load(&parser, &extra)) {
    int rc = parser_failure(d, &parser);
    yaml_parser_delete(&parser);
    return rc;
  }
  int more = yaml_document_get_root_node(&extra) != NULL;
  int line = (int)extra.start_mark.line + 1;
  yaml_document_delete(&extra);
  yaml_parser_delete(&parser);
  if (more)
    return gpurf_fail_at(d->ctx, GPURF_EPARSE, d->file, line, 1, NULL,
                         "more than one YAML document in the file");
  yaml_node_t *root = yaml_document_get_root_node(&d->doc);
  if (root->type != YAML_MAPPING_NODE)
    return fail_node(d, root, NULL, GPURF_ESCHEMA,
                     "the top level must be a mapping of keys to values");
  return GPURF_OK;
}

int ys_open(gpurf_ctx *ctx, const char *path, ys_doc **out) {
  *out = NULL;
  if (!path || !path[0]) return gpurf_fail(ctx, GPURF_EINVAL, "empty file path");
  ys_doc *d = calloc(1, sizeof *d);
  if (!d) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  d->ctx = ctx;
  const char *name = gpurf_input_name(path);
  d->file = malloc(strlen(name) + 1);
  if (!d->file) {
    free(d);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  }
  strcpy(d->file, name);
  int rc = read_whole_file(d, path);
  if (rc == GPURF_OK) rc = reject_binary(d);
  if (rc == GPURF_OK) rc = parse_text(d);
  if (rc != GPURF_OK) {
    ys_close(d);
    return rc;
  }
  *out = d;
  return GPURF_OK;
}

void ys_close(ys_doc *d) {
  if (!d) return;
  if (d->doc_loaded) yaml_document_delete(&d->doc);
  free(d->text);
  free(d->file);
  free(d->marks);
  free(d);
}

static const char *scalar_text(const yaml_node_t *n) {
  return (const char *)n->data.scalar.value;
}

const char *ys_top_scalar(const ys_doc *d, const char *key) {
  yaml_document_t *doc = (yaml_document_t *)&d->doc;
  yaml_node_t *root = yaml_document_get_root_node(doc);
  if (!root || root->type != YAML_MAPPING_NODE) return NULL;
  for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
       p < root->data.mapping.pairs.top; p++) {
    yaml_node_t *k = yaml_document_get_node(doc, p->key);
    yaml_node_t *v = yaml_document_get_node(doc, p->value);
    if (k && v && k->type == YAML_SCALAR_NODE && v->type == YAML_SCALAR_NODE &&
        strcmp(scalar_text(k), key) == 0)
      return scalar_text(v);
  }
  return NULL;
}

int ys_top_has(const ys_doc *d, const char *key) {
  yaml_document_t *doc = (yaml_document_t *)&d->doc;
  yaml_node_t *root = yaml_document_get_root_node(doc);
  if (!root || root->type != YAML_MAPPING_NODE) return 0;
  for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
       p++) {
    yaml_node_t *k = yaml_document_get_node(doc, p->key);
    if (k && k->type == YAML_SCALAR_NODE && strcmp(scalar_text(k), key) == 0) return 1;
  }
  return 0;
}

static int remember(ys_doc *d, const void *dst, const yaml_node_t *node,
                    const char *path) {
  if (d->n_marks == d->cap_marks) {
    size_t cap = d->cap_marks ? d->cap_marks * 2 : 64;
    ys_mark *m = realloc(d->marks, cap * sizeof *m);
    if (!m) return gpurf_fail(d->ctx, GPURF_ENOMEM, "out of memory");
    d->marks = m;
    d->cap_marks = cap;
  }
  ys_mark *m = &d->marks[d->n_marks++];
  m->dst = dst;
  m->line = (int)node->start_mark.line + 1;
  m->column = (int)node->start_mark.column + 1;
  gpurf_strlcpy(m->path, path, sizeof m->path);
  return GPURF_OK;
}

int ys_fail_value(ys_doc *d, const void *dst, int status, const char *fmt, ...) {
  char msg[GPURF_ERROR_MESSAGE_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  for (size_t i = d->n_marks; i-- > 0;) {
    if (d->marks[i].dst == dst)
      return gpurf_fail_at(d->ctx, status, d->file, d->marks[i].line,
                           d->marks[i].column, d->marks[i].path, "%s", msg);
  }
  return gpurf_fail_at(d->ctx, status, d->file, 0, 0, NULL, "%s", msg);
}

int ys_value_pos(const ys_doc *d, const void *dst, int *line, int *column) {
  for (size_t i = d->n_marks; i-- > 0;) {
    if (d->marks[i].dst == dst) {
      *line = d->marks[i].line;
      *column = d->marks[i].column;
      return 1;
    }
  }
  *line = *column = 0;
  return 0;
}

/* The nearest key, for "did you mean" hints on misspelt keys. */
static const ys_field *closest_key(const ys_field *fields, const char *key) {
  const ys_field *best = NULL;
  size_t best_d = 4;
  for (const ys_field *f = fields; f->kind != YS_END; f++) {
    size_t dist = gpurf_edit_distance(key, f->key);
    if (dist < best_d) {
      best_d = dist;
      best = f;
    }
  }
  return best;
}

/* Long paths are cut, which only shortens the key named in a message. */
static void join_path(char *out, size_t size, const char *prefix, const char *key) {
  int n = prefix && prefix[0] ? snprintf(out, size, "%s.%s", prefix, key)
                              : snprintf(out, size, "%s", key);
  if (n < 0 || (size_t)n >= size) out[size - 1] = '\0';
}

/* Numbers must be plain decimal scalars: quoted values are strings, and
 * strtod's extras (hex floats, "inf", "nan") are not accepted. */
static int parse_number(ys_doc *d, const yaml_node_t *n, const char *path,
                        double *out) {
  if (n->type != YAML_SCALAR_NODE)
    return fail_node(d, n, path, GPURF_ESCHEMA, "expected a number, found a %s",
                     n->type == YAML_MAPPING_NODE ? "mapping" : "list");
  const char *s = scalar_text(n);
  if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
    return fail_node(d, n, path, GPURF_ESCHEMA,
                     "expected a number, found the quoted string \"%s\"", s);
  if (s[0] == '\0')
    return fail_node(d, n, path, GPURF_ESCHEMA, "expected a number, found nothing");
  for (const char *c = s; *c; c++) {
    if (!(isdigit((unsigned char)*c) || *c == '.' || *c == '-' || *c == '+' ||
          *c == 'e' || *c == 'E')) {
      char low[16] = "";
      for (size_t i = 0; i + 1 < sizeof low && s[i]; i++)
        low[i] = (char)tolower((unsigned char)s[i]);
      if (strstr(low, "inf") || strstr(low, "nan"))
        return fail_node(d, n, path, GPURF_ERANGE, "value '%s' is not finite", s);
      return fail_node(d, n, path, GPURF_ESCHEMA, "expected a number, found '%s'", s);
    }
  }
  errno = 0;
  char *end = NULL;
  double v = strtod(s, &end);
  if (end == s || *end != '\0')
    return fail_node(d, n, path, GPURF_ESCHEMA, "expected a number, found '%s'", s);
  if (errno == ERANGE && fabs(v) > 1.0)
    return fail_node(d, n, path, GPURF_ERANGE, "value '%s' is not finite", s);
  if (!isfinite(v))
    return fail_node(d, n, path, GPURF_ERANGE, "value '%s' is not finite", s);
  *out = v;
  return GPURF_OK;
}

static int check_range(ys_doc *d, const yaml_node_t *n, const char *path,
                       const ys_field *f, double v) {
  int low_bad = (f->flags & YS_MIN_EXCLUSIVE) ? !(v > f->min) : !(v >= f->min);
  if (low_bad)
    return fail_node(d, n, path, GPURF_ERANGE, "value %g must be %s %g", v,
                     (f->flags & YS_MIN_EXCLUSIVE) ? ">" : ">=", f->min);
  if (!(v <= f->max))
    return fail_node(d, n, path, GPURF_ERANGE, "value %g must be <= %g", v, f->max);
  return GPURF_OK;
}

static int decode_map(ys_doc *d, const yaml_node_t *map, const ys_field *fields,
                      void *out, const char *prefix);

static int decode_value(ys_doc *d, const yaml_node_t *v, const ys_field *f,
                        void *out, const char *path) {
  char *base = (char *)out;
  void *dst = base + f->offset;
  int rc;
  switch (f->kind) {
  case YS_DOUBLE: {
    double x;
    if ((rc = parse_number(d, v, path, &x)) != GPURF_OK) return rc;
    if ((rc = check_range(d, v, path, f, x)) != GPURF_OK) return rc;
    *(double *)dst = x;
    break;
  }
  case YS_INT: {
    double x;
    if ((rc = parse_number(d, v, path, &x)) != GPURF_OK) return rc;
    if (x != floor(x))
      return fail_node(d, v, path, GPURF_ESCHEMA, "expected a whole number, found %g", x);
    if ((rc = check_range(d, v, path, f, x)) != GPURF_OK) return rc;
    *(int *)dst = (int)x;
    break;
  }
  case YS_STRING:
    if (v->type != YAML_SCALAR_NODE)
      return fail_node(d, v, path, GPURF_ESCHEMA, "expected a string");
    if (gpurf_strlcpy(dst, scalar_text(v), f->size) != 0)
      return fail_node(d, v, path, GPURF_ERANGE, "string is longer than %zu characters",
                       f->size - 1);
    break;
  case YS_ENUM: {
    if (v->type != YAML_SCALAR_NODE)
      return fail_node(d, v, path, GPURF_ESCHEMA, "expected one of the names listed");
    const char *s = scalar_text(v);
    int found = -1;
    for (int i = 0; f->names[i]; i++)
      if (strcmp(f->names[i], s) == 0) found = i;
    if (found < 0) {
      char choices[256] = "";
      for (int i = 0; f->names[i]; i++) {
        strncat(choices, i ? ", " : "", sizeof choices - strlen(choices) - 1);
        strncat(choices, f->names[i], sizeof choices - strlen(choices) - 1);
      }
      return fail_node(d, v, path, GPURF_ESCHEMA, "'%s' is not one of: %s", s, choices);
    }
    *(int *)dst = found;
    break;
  }
  case YS_MAP:
    if (v->type != YAML_MAPPING_NODE)
      return fail_node(d, v, path, GPURF_ESCHEMA, "expected a mapping of keys to values");
    return decode_map(d, v, f->sub, dst, path);
  case YS_LIST: {
    if (v->type != YAML_SEQUENCE_NODE)
      return fail_node(d, v, path, GPURF_ESCHEMA, "expected a list");
    size_t n = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
    if (n < f->min_count || n > f->max_count)
      return fail_node(d, v, path, GPURF_ERANGE,
                       "list has %zu entries; between %zu and %zu are allowed", n,
                       f->min_count, f->max_count);
    for (size_t i = 0; i < n; i++) {
      yaml_node_t *item = yaml_document_get_node(&d->doc, v->data.sequence.items.start[i]);
      char ipath[YS_PATH_MAX];
      if (snprintf(ipath, sizeof ipath, "%s[%zu]", path, i) >= (int)sizeof ipath)
        return fail_node(d, v, path, GPURF_ESCHEMA, "nesting too deep");
      if (!item || item->type != YAML_MAPPING_NODE)
        return fail_node(d, item ? item : v, ipath, GPURF_ESCHEMA,
                         "expected a mapping of keys to values");
      rc = decode_map(d, item, f->sub, (char *)dst + i * f->size, ipath);
      if (rc != GPURF_OK) return rc;
    }
    *(size_t *)(base + f->count_offset) = n;
    break;
  }
  case YS_END:
    break;
  }
  return remember(d, dst, v, path);
}

static int decode_map(ys_doc *d, const yaml_node_t *map, const ys_field *fields,
                      void *out, const char *prefix) {
  const yaml_node_pair_t *start = map->data.mapping.pairs.start;
  const yaml_node_pair_t *top = map->data.mapping.pairs.top;
  for (const yaml_node_pair_t *p = start; p < top; p++) {
    yaml_node_t *k = yaml_document_get_node(&d->doc, p->key);
    yaml_node_t *v = yaml_document_get_node(&d->doc, p->value);
    if (!k || !v || k->type != YAML_SCALAR_NODE)
      return fail_node(d, k ? k : map, prefix, GPURF_ESCHEMA, "keys must be plain names");
    const char *key = scalar_text(k);
    char path[YS_PATH_MAX];
    join_path(path, sizeof path, prefix, key);
    for (const yaml_node_pair_t *q = start; q < p; q++) {
      yaml_node_t *k2 = yaml_document_get_node(&d->doc, q->key);
      if (k2 && k2->type == YAML_SCALAR_NODE && strcmp(scalar_text(k2), key) == 0)
        return fail_node(d, k, path, GPURF_ESCHEMA, "duplicate key (first given on line %d)",
                         (int)k2->start_mark.line + 1);
    }
    const ys_field *f = fields;
    while (f->kind != YS_END && strcmp(f->key, key) != 0) f++;
    if (f->kind == YS_END) {
      const ys_field *hint = closest_key(fields, key);
      if (hint)
        return fail_node(d, k, path, GPURF_ESCHEMA, "unknown key (did you mean '%s'?)",
                         hint->key);
      return fail_node(d, k, path, GPURF_ESCHEMA, "unknown key");
    }
    int rc = decode_value(d, v, f, out, path);
    if (rc != GPURF_OK) return rc;
    if (f->present_offset != YS_NO_FLAG) *(int *)((char *)out + f->present_offset) = 1;
  }
  for (const ys_field *f = fields; f->kind != YS_END; f++) {
    if (!(f->flags & YS_REQUIRED)) continue;
    int given = 0;
    for (const yaml_node_pair_t *p = start; p < top && !given; p++) {
      yaml_node_t *k = yaml_document_get_node(&d->doc, p->key);
      given = strcmp(scalar_text(k), f->key) == 0;
    }
    if (!given) {
      char path[YS_PATH_MAX];
      join_path(path, sizeof path, prefix, f->key);
      return fail_node(d, map, path, GPURF_ESCHEMA, "missing required key");
    }
  }
  return GPURF_OK;
}

int ys_decode(ys_doc *d, const ys_field *fields, void *out) {
  yaml_node_t *root = yaml_document_get_root_node(&d->doc);
  return decode_map(d, root, fields, out, "");
}
