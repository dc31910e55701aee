/* The native counters file: a header line, then tab-separated lines of
 * event counts, gating tallies, cycles and instructions
 * (docs/counters-format.md). */
#include <stdlib.h>
#include <string.h>

#include "events/events_internal.h"

#define MAX_FIELDS 7

typedef struct field {
  const char *s;
  size_t n;
  int col; /* 1-based */
} field;

static int split(char *line, field *f) {
  int n = 0;
  const char *p = line;
  for (;;) {
    const char *tab = strchr(p, '\t');
    size_t len = tab ? (size_t)(tab - p) : strlen(p);
    if (n < MAX_FIELDS) f[n] = (field){p, len, (int)(p - line) + 1};
    n++;
    if (!tab) break;
    p = tab + 1;
  }
  return n;
}

static int is(const field *f, const char *word) {
  return f->n == strlen(word) && memcmp(f->s, word, f->n) == 0;
}

#define FAIL(L, F, ...) \
  gpurf_fail_at(ctx, GPURF_EPARSE, (L)->path, (int)(L)->line_no, (F)->col, NULL, __VA_ARGS__)

static int number(gpurf_ctx *ctx, const ev_lines *l, const field *f, const char *what,
                  uint64_t *out) {
  if (ev_parse_u64(f->s, f->n, out) != 0)
    return FAIL(l, f, "%s '%.*s' is not a whole number from 0 to 2^64-1", what, (int)f->n, f->s);
  return GPURF_OK;
}

static int component(gpurf_ctx *ctx, const ev_lines *l, const gpurf_energy *e, const field *f,
                     int *c) {
  char name[GPURF_RF_NAME_MAX];
  if (f->n >= sizeof name) return FAIL(l, f, "no component '%.*s' in the table", (int)f->n, f->s);
  memcpy(name, f->s, f->n);
  name[f->n] = '\0';
  *c = gpurf_rf_table_find(&e->table, name);
  if (*c < 0) return FAIL(l, f, "no component '%s' in the table", name);
  return GPURF_OK;
}

static int instance(gpurf_ctx *ctx, const ev_lines *l, const gpurf_rf_component *k,
                    const field *f, int *out) {
  uint64_t v;
  int rc = number(ctx, l, f, "instance", &v);
  if (rc != GPURF_OK) return rc;
  if (v >= (uint64_t)k->instances)
    return FAIL(l, f, "instance %llu of '%s', which has %d (0 to %d)", (unsigned long long)v,
                k->name, k->instances, k->instances - 1);
  *out = (int)v;
  return GPURF_OK;
}

static int add_u64(uint64_t *dst, uint64_t v) {
  if (*dst > UINT64_MAX - v) return -1;
  *dst += v;
  return 0;
}

static int event_line(gpurf_ctx *ctx, const ev_lines *l, gpurf_energy *e, const field *f) {
  int c, inst;
  uint64_t n;
  int rc = component(ctx, l, e, &f[0], &c);
  if (rc != GPURF_OK) return rc;
  const gpurf_rf_component *k = &e->table.components[c];
  char ev[GPURF_RF_NAME_MAX];
  int v = -1;
  if (f[1].n < sizeof ev) {
    memcpy(ev, f[1].s, f[1].n);
    ev[f[1].n] = '\0';
    v = gpurf_rf_table_find_event(&e->table, c, ev);
  }
  if (v < 0) return FAIL(l, &f[1], "'%s' has no event '%.*s'", k->name, (int)f[1].n, f[1].s);
  if ((rc = instance(ctx, l, k, &f[2], &inst)) != GPURF_OK) return rc;
  if ((rc = number(ctx, l, &f[3], "count", &n)) != GPURF_OK) return rc;
  ev_slot s = e->slot[e->first_id[c] + (uint32_t)v];
  if (add_u64(&e->counts[s.base + (uint32_t)inst], n) != 0)
    return FAIL(l, &f[3], "count of %s %s %d overflows 64 bits", k->name, ev, inst);
  return GPURF_OK;
}

static int gated_line(gpurf_ctx *ctx, const ev_lines *l, gpurf_energy *e, const field *f,
                      long *gate_line) {
  int c, inst;
  uint64_t sub, cycles, wakeups;
  int rc = component(ctx, l, e, &f[1], &c);
  if (rc != GPURF_OK) return rc;
  const gpurf_rf_component *k = &e->table.components[c];
  if (k->subarrays <= 0) return FAIL(l, &f[1], "'%s' has no sub-arrays to gate", k->name);
  if ((rc = instance(ctx, l, k, &f[2], &inst)) != GPURF_OK) return rc;
  if ((rc = number(ctx, l, &f[3], "sub-array", &sub)) != GPURF_OK) return rc;
  if (sub >= (uint64_t)k->subarrays)
    return FAIL(l, &f[3], "sub-array %llu of '%s', which has %d per instance",
                (unsigned long long)sub, k->name, k->subarrays);
  if ((rc = number(ctx, l, &f[4], "gated cycles", &cycles)) != GPURF_OK) return rc;
  if ((rc = number(ctx, l, &f[5], "wake-ups", &wakeups)) != GPURF_OK) return rc;
  long i = ev_sub_index(e, c, inst, (int)sub);
  gate_line[i] = l->line_no;
  if (add_u64(&e->gated_cycles[i], cycles) != 0 || add_u64(&e->wakeups[i], wakeups) != 0)
    return FAIL(l, &f[4], "gated cycles or wake-ups overflow 64 bits");
  return GPURF_OK;
}

static int header(gpurf_ctx *ctx, const ev_lines *l, char *line) {
  field f[MAX_FIELDS];
  int n = split(line, f);
  if (!is(&f[0], "gpurf-counters") || n != 2)
    return FAIL(l, &f[0], "the first line must be 'gpurf-counters<TAB>1'");
  if (!is(&f[1], "1"))
    return FAIL(l, &f[1], "format version '%.*s'; this gpurf reads version 1", (int)f[1].n,
                f[1].s);
  return GPURF_OK;
}

/* A sub-array cannot have been gated longer than the file's cycles; the
 * error points at the sub-array's last gated line. */
static int check_gating(gpurf_ctx *ctx, const ev_lines *l, const gpurf_energy *e,
                        const gpurf_counts_info *info, const long *gate_line) {
  for (size_t i = 0; i < e->n_sub; i++)
    if (e->gated_cycles[i] > info->cycles)
      return gpurf_fail_at(ctx, GPURF_ERANGE, l->path, (int)gate_line[i], 1, NULL,
                           "sub-array gated for %llu cycles in all, more than the file's %llu",
                           (unsigned long long)e->gated_cycles[i],
                           (unsigned long long)info->cycles);
  return GPURF_OK;
}

static int read_lines(gpurf_ctx *ctx, ev_lines *l, gpurf_energy *e, gpurf_counts_info *info,
                      long *gate_line) {
  char *line;
  int rc = ev_lines_next(ctx, l, &line);
  if (rc < 0) return rc;
  if ((rc = header(ctx, l, line)) != GPURF_OK) return rc;
  while ((rc = ev_lines_next(ctx, l, &line)) == 1) {
    if (line[0] == '\0' || line[0] == '#') continue;
    field f[MAX_FIELDS];
    int n = split(line, f);
    if (n == 2 && (is(&f[0], "cycles") || is(&f[0], "instructions"))) {
      int cyc = is(&f[0], "cycles");
      int *has = cyc ? &info->has_cycles : &info->has_instructions;
      if (*has) return FAIL(l, &f[0], "'%s' given twice", cyc ? "cycles" : "instructions");
      rc = number(ctx, l, &f[1], cyc ? "cycles" : "instructions",
                  cyc ? &info->cycles : &info->instructions);
      *has = 1;
    } else if (n == 6 && is(&f[0], "gated")) {
      rc = gated_line(ctx, l, e, f, gate_line);
    } else if (n == 4) {
      rc = event_line(ctx, l, e, f);
    } else {
      rc = FAIL(l, &f[0],
                "expected COMPONENT<TAB>EVENT<TAB>INSTANCE<TAB>COUNT, "
                "gated<TAB>COMPONENT<TAB>INSTANCE<TAB>SUBARRAY<TAB>CYCLES<TAB>WAKEUPS, "
                "cycles<TAB>N or instructions<TAB>N (found %d field%s)",
                n, n == 1 ? "" : "s");
    }
    if (rc != GPURF_OK) return rc;
  }
  if (rc < 0) return rc;
  if (!info->has_cycles)
    return gpurf_fail_at(ctx, GPURF_EPARSE, l->path, (int)l->line_no, 1, NULL,
                         "no 'cycles' line: the file must say how many cycles its counts cover");
  return check_gating(ctx, l, e, info, gate_line);
}

int ev_read_native(gpurf_ctx *ctx, ev_lines *l, gpurf_energy *e, gpurf_counts_info *info) {
  long *gate_line = calloc(e->n_sub ? e->n_sub : 1, sizeof *gate_line);
  if (!gate_line) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  int rc = read_lines(ctx, l, e, info, gate_line);
  free(gate_line);
  return rc;
}
