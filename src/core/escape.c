/* Making text from input files safe for a one-line message: a newline, CR or
 * terminal escape inside a value would break the line or drive the terminal,
 * and a value pasted whole from a binary file would drown the message. */
#include <string.h>

#include "core/ctx_internal.h"

/* Bytes of a valid UTF-8 sequence starting at s (at most n bytes left), or 0
 * when s does not start one. Overlong forms and surrogates count as invalid. */
static size_t utf8_len(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  size_t len;
  unsigned min;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) len = 2, min = 0x80;
  else if (c >= 0xe0 && c <= 0xef) len = 3, min = 0x800;
  else if (c >= 0xf0 && c <= 0xf4) len = 4, min = 0x10000;
  else return 0;
  if (n < len) return 0;
  unsigned cp = c & (0x7fu >> len);
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xc0) != 0x80) return 0;
    cp = cp << 6 | (s[i] & 0x3fu);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return len;
}

static int is_word(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

/* A quote opens a value when nothing word-like stands before it (so the
 * apostrophe of "kernel's" does not), and closes it when nothing word-like
 * follows. Returns the closing quote, or NULL. */
static const char *closing_quote(const char *open) {
  for (const char *q = strchr(open + 1, '\''); q; q = strchr(q + 1, '\''))
    if (!is_word((unsigned char)q[1])) return q;
  return NULL;
}

typedef struct out_buf {
  char *p;
  size_t size, len;
  int full;
} out_buf;

static void put(out_buf *o, const char *s, size_t n) {
  if (o->full) return;
  if (o->len + n + 1 > o->size) {
    o->full = 1;
    return;
  }
  memcpy(o->p + o->len, s, n);
  o->len += n;
  o->p[o->len] = '\0';
}

/* Copies one character (or escapes one byte) from s; returns bytes consumed. */
static size_t put_char(out_buf *o, const unsigned char *s, size_t left) {
  static const char hex[] = "0123456789abcdef";
  char e[4] = {'\\', 'x', 0, 0};
  if (s[0] == '\n') put(o, "\\n", 2);
  else if (s[0] == '\r') put(o, "\\r", 2);
  else if (s[0] == '\t') put(o, "\\t", 2);
  else if (s[0] < 0x20 || s[0] == 0x7f) {
    e[2] = hex[s[0] >> 4], e[3] = hex[s[0] & 15];
    put(o, e, 4);
  } else {
    size_t n = utf8_len(s, left);
    if (n > 0) {
      put(o, (const char *)s, n);
      return n;
    }
    e[2] = hex[s[0] >> 4], e[3] = hex[s[0] & 15];
    put(o, e, 4);
  }
  return 1;
}

size_t gpurf_error_escape(char *dst, size_t size, const char *src) {
  if (!dst || size == 0) return 0;
  out_buf o = {dst, size, 0, 0};
  dst[0] = '\0';
  if (!src) return 0;
  size_t n = strlen(src);
  const unsigned char *s = (const unsigned char *)src, *end = s + n;
  while (s < end && !o.full) {
    if (*s == '\'' && (s == (const unsigned char *)src || !is_word(s[-1]))) {
      const char *close = closing_quote((const char *)s);
      const unsigned char *stop = close ? (const unsigned char *)close : end;
      put(&o, "'", 1);
      s++;
      const unsigned char *keep = stop;
      if ((size_t)(stop - s) > GPURF_ERROR_VALUE_MAX) keep = s + GPURF_ERROR_VALUE_MAX - 3;
      while (s < keep && !o.full) s += put_char(&o, s, (size_t)(keep - s));
      if (keep < stop) put(&o, "...", 3);
      s = stop;
      if (close) {
        put(&o, "'", 1);
        s++;
      }
      continue;
    }
    s += put_char(&o, s, (size_t)(end - s));
  }
  return o.len;
}
