/* Setting one key of a loaded design by its dotted path ("banks[0].count",
 * "crossbar.inputs", "tech"), so a sweep or a simulator can vary a design
 * without writing YAML. Keys, types and ranges mirror the design file schema
 * (design_load.c): a value the loader would refuse is refused here too. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "gpurf/bank.h"
#include "gpurf/cell.h"
#include "gpurf/component.h"
#include "gpurf/rf.h"
#include "gpurf/tech.h"
#include "tech/tech_internal.h"

/* KT_WORD: a word resolved into an enumeration (or, for ports, a port mix)
 * by the key's check. */
typedef enum key_type { KT_STRING, KT_WORD, KT_INT, KT_LONG, KT_DOUBLE } key_type;

/* What a string value must name. */
typedef enum key_check {
  KC_NONE,
  KC_DEVICE,
  KC_TECH,
  KC_PORTS,
  KC_OPT,
  KC_CELL,
  KC_STYLE,
  KC_WIRE,
  KC_PORT_PLACE,
  KC_EXTRA_KIND,
  KC_BANK_NAME
} key_check;

typedef struct key_desc {
  const char *name;
  key_type type;
  size_t offset, size; /* size: strings only */
  double lo, hi;       /* numbers: lo < v (lo_open) or lo <= v, v <= hi */
  int lo_open;
  key_check check;
} key_desc;

#define KS(NAME, T, M, CHECK) {NAME, KT_STRING, offsetof(T, M), sizeof(((T *)0)->M), 0, 0, 0, CHECK}
#define KW(NAME, T, M, CHECK) {NAME, KT_WORD, offsetof(T, M), sizeof(((T *)0)->M), 0, 0, 0, CHECK}
#define KN(NAME, TY, T, M, LO, HI, OPEN) {NAME, TY, offsetof(T, M), 0, LO, HI, OPEN, KC_NONE}

static const key_desc top_keys[] = {
    KS("design", gpurf_rf_design, design, KC_NONE),
    KS("source", gpurf_rf_design, source, KC_NONE),
    KS("tech", gpurf_rf_design, tech, KC_TECH),
    KW("device", gpurf_rf_design, device, KC_DEVICE),
    KN("temp_k", KT_DOUBLE, gpurf_rf_design, temp_k, 0, 1000, 1),
    KN("clock_hz", KT_DOUBLE, gpurf_rf_design, clock_hz, 0, 1e11, 1),
    {NULL, KT_INT, 0, 0, 0, 0, 0, KC_NONE}};

static const key_desc sm_keys[] = {
    KN("warps", KT_INT, gpurf_rf_sm, warps, 1, 1024, 0),
    KN("threads_per_warp", KT_INT, gpurf_rf_sm, threads_per_warp, 1, 1024, 0),
    KN("registers", KT_LONG, gpurf_rf_sm, registers, 1, 1e9, 0),
    {NULL, KT_INT, 0, 0, 0, 0, 0, KC_NONE}};

static const key_desc bank_keys[] = {
    KS("name", gpurf_rf_bank_group, name, KC_BANK_NAME),
    KS("cell", gpurf_rf_bank_group, cell, KC_CELL),
    KW("ports", gpurf_rf_bank_group, ports, KC_PORTS),
    KN("count", KT_INT, gpurf_rf_bank_group, count, 1, 1024, 0),
    KN("entries", KT_LONG, gpurf_rf_bank_group, entries, 1, 1e9, 0),
    KN("width_bits", KT_INT, gpurf_rf_bank_group, width_bits, 1, 65536, 0),
    KW("opt", gpurf_rf_bank_group, opt, KC_OPT),
    KN("split_write", KT_INT, gpurf_rf_bank_group, split_write, 0, 1, 0),
    KW("port", gpurf_rf_bank_group, port, KC_PORT_PLACE),
    KN("gate_groups", KT_INT, gpurf_rf_bank_group, gate_groups, 0, 64, 0),
    {NULL, KT_INT, 0, 0, 0, 0, 0, KC_NONE}};

static const key_desc crossbar_keys[] = {
    KN("inputs", KT_INT, gpurf_rf_crossbar, inputs, 1, 1024, 0),
    KN("outputs", KT_INT, gpurf_rf_crossbar, outputs, 1, 1024, 0),
    KN("width_bits", KT_INT, gpurf_rf_crossbar, width_bits, 1, 65536, 0),
    KW("style", gpurf_rf_crossbar, style, KC_STYLE),
    KW("wire", gpurf_rf_crossbar, wire, KC_WIRE),
    /* The crossbar model takes activities in (0, 1]. */
    KN("activity", KT_DOUBLE, gpurf_rf_crossbar, activity, 0, 1, 1),
    {NULL, KT_INT, 0, 0, 0, 0, 0, KC_NONE}};

static const key_desc arbiter_keys[] = {
    KN("banks", KT_INT, gpurf_rf_arbiter, banks, 1, 1024, 0),
    KN("requesters", KT_INT, gpurf_rf_arbiter, requesters, 1, 1024, 0),
    KN("classes", KT_INT, gpurf_rf_arbiter, classes, 2, 5, 0),
    {NULL, KT_INT, 0, 0, 0, 0, 0, KC_NONE}};

static const key_desc extra_keys[] = {
    KW("kind", gpurf_rf_extra, kind, KC_EXTRA_KIND),
    KS("name", gpurf_rf_extra, name, KC_NONE),
    KN("entries", KT_INT, gpurf_rf_extra, entries, 1, 1 << 20, 0),
    KN("budget_bytes", KT_LONG, gpurf_rf_extra, budget_bytes, 1, 1e12, 0),
    KN("vrf_regs", KT_INT, gpurf_rf_extra, vrf_regs, 1, 1 << 20, 0),
    KN("arch_regs", KT_INT, gpurf_rf_extra, arch_regs, 1, 1024, 0),
    KN("active_warps", KT_INT, gpurf_rf_extra, active_warps, 1, 1024, 0),
    {NULL, KT_INT, 0, 0, 0, 0, 0, KC_NONE}};

static int bad(gpurf_ctx *ctx, int status, const char *key, const char *fmt, const char *value) {
  return gpurf_fail_at(ctx, status, NULL, 0, 0, key, fmt, value);
}

/* Whole decimal numbers only: "16" but not "16.5", "0x10" or "1e3". */
static int parse_long(const char *s, long long *out) {
  const char *p = s;
  if (*p == '-' || *p == '+') p++;
  if (!isdigit((unsigned char)*p)) return -1;
  for (; *p; p++)
    if (!isdigit((unsigned char)*p)) return -1;
  errno = 0;
  *out = strtoll(s, NULL, 10);
  return errno == ERANGE ? -1 : 0;
}

static int parse_double(const char *s, double *out) {
  char *end = NULL;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v)) return -1;
  *out = v;
  return 0;
}

/* Resolves a word into the field's type: an enumeration (stored as an int)
 * or a port mix. Writes nothing when the word is refused. */
static int parse_word(gpurf_ctx *ctx, const char *key, key_check check, const char *value,
                      void *dst, size_t size) {
  int e = 0, ok = 0;
  gpurf_ports ports;
  switch (check) {
  case KC_DEVICE: {
    gpurf_device_kind v;
    if ((ok = gpurf_device_kind_parse(value, &v) == GPURF_OK)) e = (int)v;
    if (!ok) return bad(ctx, GPURF_ESCHEMA, key, "'%s' is not hp, lstp or lop", value);
    break;
  }
  case KC_OPT: {
    gpurf_bank_opt v;
    if ((ok = gpurf_bank_opt_parse(value, &v) == GPURF_OK)) e = (int)v;
    if (!ok)
      return bad(ctx, GPURF_ESCHEMA, key, "'%s' is not ed2, edp, delay, energy, area, leakage or ed2-read",
                 value);
    break;
  }
  case KC_PORT_PLACE: {
    gpurf_rf_port_place v;
    if ((ok = gpurf_rf_port_place_parse(value, &v) == GPURF_OK)) e = (int)v;
    if (!ok) return bad(ctx, GPURF_ESCHEMA, key, "'%s' is not edge or point", value);
    break;
  }
  case KC_STYLE: {
    gpurf_xbar_style v;
    if ((ok = gpurf_xbar_style_parse(value, &v) == GPURF_OK)) e = (int)v;
    if (!ok) return bad(ctx, GPURF_ESCHEMA, key, "'%s' is not matrix or mux", value);
    break;
  }
  case KC_WIRE: {
    gpurf_wire_kind v;
    if ((ok = gpurf_wire_kind_parse(value, &v) == GPURF_OK)) e = (int)v;
    if (!ok) return bad(ctx, GPURF_ESCHEMA, key, "'%s' is not local, semi-global or global", value);
    break;
  }
  case KC_EXTRA_KIND: {
    gpurf_rf_extra_kind v;
    if ((ok = gpurf_rf_extra_kind_parse(value, &v) == GPURF_OK)) e = (int)v;
    if (!ok)
      return bad(ctx, GPURF_ESCHEMA, key,
                 "'%s' is not rename_table, write_pool, compressed_rf or rfc_tags", value);
    break;
  }
  case KC_PORTS:
    if (gpurf_ports_parse(value, &ports) != GPURF_OK)
      return bad(ctx, GPURF_ESCHEMA, key, "'%s' is not a port mix such as 1rw, 1r1w or 3r1w",
                 value);
    memcpy(dst, &ports, sizeof ports);
    return GPURF_OK;
  default:
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, key, "no word check for this key");
  }
  /* Enumerations are int-sized (C11 6.7.2.2 leaves the choice to the
   * compiler, but every one here fits an int and the compilers we build
   * with make them int). */
  if (size != sizeof e) return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, key, "bad field size");
  memcpy(dst, &e, sizeof e);
  return GPURF_OK;
}

static int check_string(gpurf_ctx *ctx, const gpurf_rf_design *d, const char *key, key_check check,
                        const char *value, size_t bank_index) {
  switch (check) {
  case KC_BANK_NAME:
    for (size_t j = 0; j < d->n_bank_groups; j++)
      if (j != bank_index && strcmp(d->bank_groups[j].name, value) == 0)
        return bad(ctx, GPURF_ESCHEMA, key, "bank group name '%s' is already used", value);
    return GPURF_OK;
  case KC_TECH:
  case KC_CELL: {
    /* Load now, so a typo fails at the key rather than at evaluation. The
     * structs are large: keep them off the caller's stack. */
    int rc;
    char why[GPURF_ERROR_MESSAGE_MAX];
    if (check == KC_CELL && strcmp(value, "sram") == 0) return GPURF_OK;
    void *scratch = malloc(check == KC_TECH ? sizeof(gpurf_tech) : sizeof(gpurf_cell));
    if (!scratch) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
    rc = check == KC_TECH ? gpurf_tech_load(ctx, value, scratch)
                          : gpurf_cell_load(ctx, value, scratch);
    free(scratch);
    if (rc == GPURF_OK) return GPURF_OK;
    gpurf_error_format(gpurf_ctx_error(ctx), why, sizeof why);
    return gpurf_fail_at(ctx, rc, NULL, 0, 0, key, "%s", why);
  }
  default:
    return GPURF_OK;
  }
}

static int set_field(gpurf_ctx *ctx, gpurf_rf_design *d, void *base, const key_desc *k,
                     const char *key, const char *value, size_t index) {
  char *p = (char *)base + k->offset;
  if (k->type == KT_WORD) {
    if (value[0] == '\0') return bad(ctx, GPURF_ESCHEMA, key, "an empty value%s", "");
    return parse_word(ctx, key, k->check, value, p, k->size);
  }
  if (k->type == KT_STRING) {
    if (value[0] == '\0') return bad(ctx, GPURF_ESCHEMA, key, "an empty value%s", "");
    if (strlen(value) >= k->size)
      return bad(ctx, GPURF_ERANGE, key, "'%s' is too long", value);
    int rc = check_string(ctx, d, key, k->check, value, index);
    if (rc != GPURF_OK) return rc;
    memcpy(p, value, strlen(value) + 1);
    return GPURF_OK;
  }
  double v;
  long long whole = 0;
  if (k->type == KT_DOUBLE) {
    if (parse_double(value, &v) != 0) return bad(ctx, GPURF_ESCHEMA, key, "'%s' is not a number", value);
  } else {
    if (parse_long(value, &whole) != 0)
      return bad(ctx, GPURF_ESCHEMA, key, "'%s' is not a whole number", value);
    v = (double)whole;
  }
  if ((k->lo_open ? !(v > k->lo) : !(v >= k->lo)) || !(v <= k->hi))
    return gpurf_fail_at(ctx, GPURF_ERANGE, NULL, 0, 0, key, "'%s' is outside %s%g, %g]", value,
                         k->lo_open ? "(" : "[", k->lo, k->hi);
  if (k->type == KT_DOUBLE)
    memcpy(p, &v, sizeof v);
  else if (k->type == KT_LONG)
    memcpy(p, &whole, sizeof whole);
  else {
    int i = (int)whole;
    memcpy(p, &i, sizeof i);
  }
  return GPURF_OK;
}

/* "name[3]" -> name length and index; returns 0 when the form has no index. */
static int split_index(const char *s, size_t len, size_t *name_len, long long *index) {
  const char *open = memchr(s, '[', len);
  if (!open) return 0;
  if (s[len - 1] != ']') return -1;
  char digits[24];
  size_t n = (size_t)(s + len - 1 - (open + 1));
  if (n == 0 || n >= sizeof digits) return -1;
  memcpy(digits, open + 1, n);
  digits[n] = '\0';
  if (parse_long(digits, index) != 0 || *index < 0) return -1;
  *name_len = (size_t)(open - s);
  return 1;
}

static void known_keys(char *buf, size_t size, const char *prefix, const key_desc *keys) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; keys[i].name && used < size; i++) {
    int n = snprintf(buf + used, size - used, "%s%s%s", i ? ", " : "", prefix, keys[i].name);
    if (n < 0) break;
    used += (size_t)n;
  }
}

static const key_desc *find_key(const key_desc *keys, const char *name) {
  for (int i = 0; keys[i].name; i++)
    if (strcmp(keys[i].name, name) == 0) return &keys[i];
  return NULL;
}

int gpurf_rf_design_set(gpurf_ctx *ctx, gpurf_rf_design *d, const char *key, const char *value) {
  if (!ctx || !d || !key || !value) return GPURF_EINVAL;
  const char *dot = strchr(key, '.');
  size_t head_len = dot ? (size_t)(dot - key) : strlen(key);
  const char *field = dot ? dot + 1 : NULL;
  const key_desc *keys = top_keys;
  void *base = d;
  size_t index = 0;
  char list[512];
  if (!dot) {
    const key_desc *k = find_key(top_keys, key);
    if (!k) {
      known_keys(list, sizeof list, "", top_keys);
      return gpurf_fail_at(ctx, GPURF_ESCHEMA, NULL, 0, 0, key,
                           "unknown key (top-level keys: %s; sections: sm., banks[i]., crossbar., "
                           "arbiter., extras[i].)",
                           list);
    }
    return set_field(ctx, d, d, k, key, value, 0);
  }
  size_t name_len = head_len;
  long long idx = -1;
  int indexed = split_index(key, head_len, &name_len, &idx);
  if (indexed < 0)
    return gpurf_fail_at(ctx, GPURF_ESCHEMA, NULL, 0, 0, key,
                         "bad index: write banks[0] or extras[1]");
  const char *prefix;
  if (indexed && name_len == 5 && strncmp(key, "banks", 5) == 0) {
    if ((size_t)idx >= d->n_bank_groups)
      return gpurf_fail_at(ctx, GPURF_ERANGE, NULL, 0, 0, key, "the design has %zu bank group%s",
                           d->n_bank_groups, d->n_bank_groups == 1 ? "" : "s");
    keys = bank_keys, base = &d->bank_groups[idx], index = (size_t)idx, prefix = "banks[i].";
  } else if (indexed && name_len == 6 && strncmp(key, "extras", 6) == 0) {
    if ((size_t)idx >= d->n_extras)
      return gpurf_fail_at(ctx, GPURF_ERANGE, NULL, 0, 0, key, "the design has %zu extra structure%s",
                           d->n_extras, d->n_extras == 1 ? "" : "s");
    keys = extra_keys, base = &d->extras[idx], index = (size_t)idx, prefix = "extras[i].";
  } else if (!indexed && head_len == 2 && strncmp(key, "sm", 2) == 0) {
    keys = sm_keys, base = &d->sm, prefix = "sm.";
  } else if (!indexed && head_len == 8 && strncmp(key, "crossbar", 8) == 0) {
    if (!d->has_crossbar)
      return gpurf_fail_at(ctx, GPURF_ESCHEMA, NULL, 0, 0, key, "the design has no crossbar");
    keys = crossbar_keys, base = &d->crossbar, prefix = "crossbar.";
  } else if (!indexed && head_len == 7 && strncmp(key, "arbiter", 7) == 0) {
    if (!d->has_arbiter)
      return gpurf_fail_at(ctx, GPURF_ESCHEMA, NULL, 0, 0, key, "the design has no arbiter");
    keys = arbiter_keys, base = &d->arbiter, prefix = "arbiter.";
  } else {
    return gpurf_fail_at(ctx, GPURF_ESCHEMA, NULL, 0, 0, key,
                         "unknown key (sections: sm., banks[i]., crossbar., arbiter., extras[i].)");
  }
  const key_desc *k = find_key(keys, field);
  if (!k) {
    known_keys(list, sizeof list, prefix, keys);
    return gpurf_fail_at(ctx, GPURF_ESCHEMA, NULL, 0, 0, key, "unknown key (known: %s)", list);
  }
  return set_field(ctx, d, base, k, key, value, index);
}
