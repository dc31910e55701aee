/* Reader for reference sets, the TSV files in validation/ whose format
 * validation/README.md describes. Strict: an unknown column, a malformed number or
 * tolerance, or a row that does not describe a bank is an error naming the
 * file, line and column, so a typo cannot silently drop a comparison. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "validate/validate_internal.h"

/* Reference columns: the metric each gives and the factor to the metric's
 * unit (gpurf_validate_metric_unit), in which references are kept as the
 * set states them. Per-bit energies are multiplied by the row's width when
 * read. */
static const struct {
  const char *column;
  gpurf_validate_metric metric;
  double scale;
  int per_bit;
} metric_columns[] = {
    {"access_ns", GPURF_VALIDATE_ACCESS_TIME, 1, 0},
    {"read_ns", GPURF_VALIDATE_ACCESS_TIME, 1, 0},
    {"cycle_ns", GPURF_VALIDATE_CYCLE_TIME, 1, 0},
    {"write_ns", GPURF_VALIDATE_WRITE_LATENCY, 1, 0},
    {"read_pj", GPURF_VALIDATE_READ_ENERGY, 1, 0},
    {"write_pj", GPURF_VALIDATE_WRITE_ENERGY, 1, 0},
    {"read_pj_per_bit", GPURF_VALIDATE_READ_ENERGY, 1, 1},
    {"write_pj_per_bit", GPURF_VALIDATE_WRITE_ENERGY, 1, 1},
    {"leak_mw", GPURF_VALIDATE_LEAKAGE, 1, 0},
    {"leak_sub_mw", GPURF_VALIDATE_LEAKAGE_SUB, 1, 0},
    {"leak_gate_mw", GPURF_VALIDATE_LEAKAGE_GATE, 1, 0},
    {"area_mm2", GPURF_VALIDATE_AREA, 1, 0},
    {"area_um2", GPURF_VALIDATE_AREA, 1e-6, 0},
};
#define N_METRIC_COLUMNS (sizeof metric_columns / sizeof metric_columns[0])

/* Inputs a row (column) or the whole set ('# spec:') can give. */
enum { IN_CONFIG, IN_NODE, IN_DEVICE, IN_CELL, IN_PORTS, IN_BYTES, IN_ENTRIES, IN_WIDTH,
       IN_BANKS, IN_TEMP, IN_OPT, IN_CLOCK, IN_PERIPHERY, IN_PORT, IN_SPACE, IN_COUNT };
static const char *const input_names[IN_COUNT] = {
    "config", "node_nm", "device", "cell", "ports", "bytes",
    "entries", "width_bits", "banks", "temp_k", "opt", "clock_ghz",
    "periphery", "port", "space"};

#define MAX_COLS 64
#define MAX_MAPS 32
#define MAX_INFO 32

typedef struct reader {
  gpurf_ctx *ctx;
  const char *path;
  int line;
  gpurf_validate_set *set;
  char *spec[IN_COUNT]; /* values from '# spec:' (owned) */
  int spec_line[IN_COUNT];
  struct { int input; char *from, *to; } map[MAX_MAPS];
  size_t n_map;
  char *info[MAX_INFO];
  size_t n_info;
  int saw_tolerance, saw_source, saw_header;
  int ncols;
  int col_input[MAX_COLS];  /* input index, or -1 */
  int col_metric[MAX_COLS]; /* index into metric_columns, or -1 */
  char *col_name[MAX_COLS];
} reader;

/* Fills the error record (file, line, column 0 when not at one place, the
 * set's column name as field) and returns -1. */
static int fail_at(reader *r, int line, int col, const char *column, const char *fmt, ...)
    GPURF_PRINTF(5, 6);
static int fail_at(reader *r, int line, int col, const char *column, const char *fmt, ...) {
  char msg[GPURF_ERROR_MESSAGE_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  gpurf_fail_at(r->ctx, GPURF_ESCHEMA, r->path, line, col, column, "%s", msg);
  return -1;
}

#define fail(r, col, column, ...) fail_at((r), (r)->line, (col), (column), __VA_ARGS__)

static int oom(reader *r) {
  gpurf_fail_at(r->ctx, GPURF_ENOMEM, r->path, r->line, 0, NULL, "out of memory");
  return -1;
}

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = '\0';
  return s;
}

static int input_index(const char *name) {
  for (int i = 0; i < IN_COUNT; i++)
    if (strcmp(input_names[i], name) == 0) return i;
  return -1;
}

static int parse_pos_double(const char *s, double *out) {
  char *end = NULL;
  double v = strtod(s, &end);
  if (end == s || *end != '\0' || !isfinite(v) || !(v > 0)) return -1;
  *out = v;
  return 0;
}

static int parse_pos_int(const char *s, long long max, long long *out) {
  if (!*s) return -1;
  long long v = 0;
  for (const char *p = s; *p; p++) {
    if (!isdigit((unsigned char)*p)) return -1;
    if (v > (max - (*p - '0')) / 10) return -1;
    v = v * 10 + (*p - '0');
  }
  if (v < 1) return -1;
  *out = v;
  return 0;
}

/* Column of pointer p within line, 1-based, for error messages. */
static int col_of(const char *line, const char *p) { return (int)(p - line) + 1; }

/* Splits s at spaces into tokens; returns the count (at most max). */
static int tokens(char *s, char **tok, int max) {
  int n = 0;
  char *save = NULL;
  for (char *t = strtok_r(s, " \t", &save); t && n < max; t = strtok_r(NULL, " \t", &save))
    tok[n++] = t;
  return n;
}

static int tolerance_line(reader *r, const char *line, char *val) {
  gpurf_validate_set *set = r->set;
  if (strncmp(val, "none", 4) == 0 && (val[4] == '\0' || val[4] == ' ' || val[4] == '(')) {
    char *why = trim(val + 4);
    size_t n = strlen(why);
    if (n >= 2 && why[0] == '(' && why[n - 1] == ')') {
      why[n - 1] = '\0';
      why = trim(why + 1);
    }
    if (!*why) return fail(r, col_of(line, val), NULL, "say why: '# tolerance: none (reason)'");
    if (set->gated || set->not_gated_why[0])
      return fail(r, col_of(line, val), NULL, "'none' beside other tolerance lines");
    snprintf(set->not_gated_why, sizeof set->not_gated_why, "%s", why);
    r->saw_tolerance = 1;
    return 0;
  }
  if (set->not_gated_why[0])
    return fail(r, col_of(line, val), NULL, "a tolerance beside '# tolerance: none'");
  char *tok[8];
  int n = tokens(val, tok, 8);
  int m = -1;
  double median = 0, ratio = 0;
  for (int i = 0; i < n; i++) {
    char *eq = strchr(tok[i], '=');
    int c = col_of(line, tok[i]);
    if (!eq) return fail(r, c, NULL, "expected key=value, not '%s'", tok[i]);
    *eq = '\0';
    const char *k = tok[i], *v = eq + 1;
    if (strcmp(k, "metric") == 0) {
      for (int j = 0; j < GPURF_VALIDATE_METRICS; j++)
        if (strcmp(v, gpurf_validate_metric_name((gpurf_validate_metric)j)) == 0) m = j;
      if (m < 0)
        return fail(r, c, NULL, "unknown metric '%s' (access_time, cycle_time, write_latency, "
                    "read_energy, write_energy, leakage, leakage_sub, leakage_gate, area)", v);
    } else if (strcmp(k, "median") == 0) {
      if (parse_pos_double(v, &median))
        return fail(r, c, NULL, "median must be a positive fraction, not '%s'", v);
    } else if (strcmp(k, "max_ratio") == 0) {
      if (parse_pos_double(v, &ratio) || ratio < 1)
        return fail(r, c, NULL, "max_ratio must be a number of at least 1, not '%s'", v);
    } else {
      return fail(r, c, NULL, "unknown tolerance field '%s' (metric, median, max_ratio)", k);
    }
  }
  if (m < 0) return fail(r, col_of(line, val), NULL, "tolerance without metric=NAME");
  if (median == 0 && ratio == 0)
    return fail(r, col_of(line, val), NULL, "tolerance without median= or max_ratio=");
  if (set->tol[m].gated)
    return fail(r, col_of(line, val), NULL, "second tolerance for %s", gpurf_validate_metric_name(m));
  set->tol[m] = (vset_tolerance){1, median, ratio};
  set->gated = 1;
  r->saw_tolerance = 1;
  return 0;
}

static int column_index(const reader *r, int input) {
  for (int i = 0; i < r->ncols; i++)
    if (r->col_input[i] == input) return i;
  return -1;
}

static int spec_line(reader *r, const char *line, char *val) {
  char *tok[IN_COUNT + 4];
  int n = tokens(val, tok, IN_COUNT + 4);
  for (int i = 0; i < n; i++) {
    int c = col_of(line, tok[i]);
    char *eq = strchr(tok[i], '=');
    if (!eq || eq[1] == '\0') return fail(r, c, NULL, "expected key=value, not '%s'", tok[i]);
    *eq = '\0';
    int in = input_index(tok[i]);
    if (in < 0 || in == IN_CONFIG) return fail(r, c, NULL, "unknown spec key '%s'", tok[i]);
    if (r->spec[in] || column_index(r, in) >= 0)
      return fail(r, c, NULL, "'%s' given twice (spec line or column)", tok[i]);
    if (!(r->spec[in] = dup_str(eq + 1))) return oom(r);
    r->spec_line[in] = r->line;
  }
  return 0;
}

static int map_line(reader *r, const char *line, char *val) {
  char *tok[MAX_MAPS + 1];
  int n = tokens(val, tok, MAX_MAPS + 1);
  int in = n > 0 ? input_index(tok[0]) : -1;
  if (in < 0 || in == IN_CONFIG)
    return fail(r, col_of(line, val), NULL, "expected '# map: INPUT-COLUMN FROM=TO ...'");
  for (int i = 1; i < n; i++) {
    char *eq = strchr(tok[i], '=');
    int c = col_of(line, tok[i]);
    if (!eq || eq == tok[i] || eq[1] == '\0')
      return fail(r, c, NULL, "expected FROM=TO, not '%s'", tok[i]);
    if (r->n_map == MAX_MAPS) return fail(r, c, NULL, "more than %d mappings", MAX_MAPS);
    *eq = '\0';
    r->map[r->n_map].input = in;
    r->map[r->n_map].from = dup_str(tok[i]);
    r->map[r->n_map].to = dup_str(eq + 1);
    r->n_map++; /* counted before the check so reader_free releases both */
    if (!r->map[r->n_map - 1].from || !r->map[r->n_map - 1].to)
      return oom(r);
  }
  return 0;
}

/* '# key: value' lines. Keys other than these make ordinary comments, so a
 * set's prose can use any words. */
static int directive(reader *r, char *line) {
  char *p = line + 1;
  while (*p == ' ') p++;
  char *end = p;
  while (*end == '_' || islower((unsigned char)*end)) end++;
  if (end == p || *end != ':') return 0;
  *end = '\0';
  char *val = trim(end + 1);
  int c = col_of(line, val);
  if (strcmp(p, "source") == 0) {
    if (!*val) return fail(r, c, NULL, "empty source");
    if (!r->saw_source) snprintf(r->set->source, sizeof r->set->source, "%s", val);
    r->saw_source = 1;
  } else if (strcmp(p, "tolerance") == 0) {
    return tolerance_line(r, line, val);
  } else if (strcmp(p, "spec") == 0) {
    return spec_line(r, line, val);
  } else if (strcmp(p, "map") == 0) {
    return map_line(r, line, val);
  } else if (strcmp(p, "info") == 0) {
    char *tok[MAX_INFO];
    int n = tokens(val, tok, MAX_INFO);
    for (int i = 0; i < n; i++) {
      if (r->n_info == MAX_INFO) return fail(r, c, NULL, "more than %d info columns", MAX_INFO);
      if (!(r->info[r->n_info++] = dup_str(tok[i]))) return oom(r);
    }
  } else if (strcmp(p, "convention") == 0) {
    if (strcmp(val, "leakage_per_bank") != 0)
      return fail(r, c, NULL, "unknown convention '%s' (leakage_per_bank)", val);
    r->set->leakage_per_bank = 1;
  }
  return 0;
}

/* Splits a row at tabs; returns the number of fields or -1 when too many. */
static int split_tabs(char *s, char **field, int max) {
  int n = 0;
  for (;;) {
    if (n == max) return -1;
    field[n++] = s;
    char *tab = strchr(s, '\t');
    if (!tab) return n;
    *tab = '\0';
    s = tab + 1;
  }
}

static int header(reader *r, char *line) {
  char *field[MAX_COLS];
  int n = split_tabs(line, field, MAX_COLS);
  if (n < 0) return fail(r, 0, NULL, "more than %d columns", MAX_COLS);
  int metric_seen[GPURF_VALIDATE_METRICS] = {0};
  for (int i = 0; i < n; i++) {
    char *name = trim(field[i]);
    int c = col_of(line, field[i]);
    r->col_input[i] = input_index(name);
    r->col_metric[i] = -1;
    for (size_t j = 0; j < N_METRIC_COLUMNS; j++)
      if (strcmp(metric_columns[j].column, name) == 0) r->col_metric[i] = (int)j;
    if (!(r->col_name[i] = dup_str(name))) return oom(r);
    r->ncols = i + 1;
    if (!*name) return fail(r, c, NULL, "empty column name");
    for (int k = 0; k < i; k++)
      if (strcmp(r->col_name[k], name) == 0) return fail(r, c, name, "duplicate column");
    if (r->col_input[i] >= 0) {
      if (r->spec[r->col_input[i]]) return fail(r, c, name, "also given in '# spec:'");
    } else if (r->col_metric[i] >= 0) {
      gpurf_validate_metric m = metric_columns[r->col_metric[i]].metric;
      if (metric_seen[m]++) return fail(r, c, name, "a second column for %s", gpurf_validate_metric_name(m));
    } else {
      int info = 0;
      for (size_t k = 0; k < r->n_info; k++) info |= strcmp(r->info[k], name) == 0;
      if (!info)
        return fail(r, c, name, "unknown column: not an input, not a reference metric, and not "
                    "declared with '# info:'");
    }
  }
  if (column_index(r, IN_CONFIG) < 0) return fail(r, 1, NULL, "no 'config' column");
  r->saw_header = 1;
  return 0;
}

/* One input value of a row and where it was written. */
typedef struct in_value {
  const char *v;
  int line, col;
} in_value;

static int bad_input(reader *r, const in_value *x, int input, const char *what) {
  return fail_at(r, x->line, x->col, input_names[input], "%s, not '%s'", what, x->v);
}

static int row_inputs(reader *r, vset_row *row, const in_value *in) {
  gpurf_bank_spec *s = &row->spec;
  gpurf_bank_spec_init(s);
  const in_value *x;
  double d;
  long long n;
  if (!in[IN_NODE].v) return fail(r, 0, NULL, "no node_nm (column or '# spec:')");
  x = &in[IN_NODE];
  if (parse_pos_double(x->v, &d)) return bad_input(r, x, IN_NODE, "a node size in nm");
  snprintf(row->node, sizeof row->node, "%snm", x->v);
  if ((x = &in[IN_DEVICE])->v && gpurf_device_kind_parse(x->v, &s->device) != GPURF_OK)
    return bad_input(r, x, IN_DEVICE, "hp, lstp or lop (or add a '# map: device' line)");
  snprintf(row->cell, sizeof row->cell, "%s", in[IN_CELL].v ? in[IN_CELL].v : "sram");
  row->ports_given = in[IN_PORTS].v != NULL;
  if ((x = &in[IN_PORTS])->v && gpurf_ports_parse(x->v, &s->ports) != GPURF_OK)
    return bad_input(r, x, IN_PORTS, "port counts such as 1rw, 1r1w or 3r1w");
  if ((x = &in[IN_OPT])->v && gpurf_bank_opt_parse(x->v, &s->opt) != GPURF_OK)
    return bad_input(r, x, IN_OPT, "ed2, edp, delay, energy, area, leakage or ed2-read");
  if ((x = &in[IN_SPACE])->v && gpurf_bank_space_parse(x->v, &s->space) != GPURF_OK)
    return bad_input(r, x, IN_SPACE, "own or cacti");
  if ((x = &in[IN_PERIPHERY])->v) {
    if (strcmp(x->v, "long-channel") == 0) s->long_channel_periphery = 1;
    else if (strcmp(x->v, "nominal") == 0) s->long_channel_periphery = 0;
    else return bad_input(r, x, IN_PERIPHERY, "long-channel or nominal");
  }
  if ((x = &in[IN_PORT])->v) {
    if (strcmp(x->v, "point") == 0) s->port_along_edge = 0;
    else if (strcmp(x->v, "edge") == 0) s->port_along_edge = 1;
    else return bad_input(r, x, IN_PORT, "point or edge");
  }
  if ((x = &in[IN_TEMP])->v) {
    if (parse_pos_double(x->v, &s->temp_k)) return bad_input(r, x, IN_TEMP, "kelvin above 0");
  }
  if ((x = &in[IN_CLOCK])->v) {
    if (parse_pos_double(x->v, &d)) return bad_input(r, x, IN_CLOCK, "GHz above 0");
    s->clock_hz = d * 1e9;
  }
  if ((x = &in[IN_BANKS])->v) {
    if (parse_pos_int(x->v, 4096, &n)) return bad_input(r, x, IN_BANKS, "a bank count 1..4096");
    s->banks = (int)n;
  }
  if (!(x = &in[IN_WIDTH])->v) return fail(r, 0, NULL, "no width_bits (column or '# spec:')");
  if (parse_pos_int(x->v, 65536, &n)) return bad_input(r, x, IN_WIDTH, "a width 1..65536 bits");
  s->width_bits = (int)n;
  if (!in[IN_BYTES].v == !in[IN_ENTRIES].v)
    return fail(r, 0, NULL, "give exactly one of bytes and entries");
  if ((x = &in[IN_BYTES])->v) {
    if (parse_pos_int(x->v, 1LL << 30, &n)) return bad_input(r, x, IN_BYTES, "bytes 1..2^30");
    if ((n * 8) % s->width_bits != 0)
      return fail_at(r, x->line, x->col, "bytes", "%lld bytes are not a whole number of %d-bit "
                     "words", n, s->width_bits);
    s->entries = n * 8 / s->width_bits;
  } else {
    x = &in[IN_ENTRIES];
    if (parse_pos_int(x->v, 1LL << 33, &n)) return bad_input(r, x, IN_ENTRIES, "entries 1..2^33");
    s->entries = n;
  }
  return 0;
}

static int data_row(reader *r, char *line) {
  char *field[MAX_COLS];
  int n = split_tabs(line, field, MAX_COLS);
  if (n != r->ncols)
    return fail(r, 1, NULL, "%d fields, but the header has %d columns", n < 0 ? MAX_COLS : n,
                r->ncols);
  gpurf_validate_set *set = r->set;
  vset_row *rows = realloc(set->rows, (set->n_rows + 1) * sizeof *rows);
  if (!rows) return oom(r);
  set->rows = rows;
  vset_row *row = &rows[set->n_rows];
  memset(row, 0, sizeof *row);
  row->line = r->line;
  in_value in[IN_COUNT];
  for (int i = 0; i < IN_COUNT; i++) in[i] = (in_value){r->spec[i], r->spec_line[i], 0};
  for (int i = 0; i < n; i++) {
    char *v = trim(field[i]);
    int input = r->col_input[i];
    if (input < 0) continue;
    for (size_t k = 0; k < r->n_map; k++)
      if (r->map[k].input == input && strcmp(r->map[k].from, v) == 0) v = r->map[k].to;
    in[input] = (in_value){v, r->line, col_of(line, field[i])};
    if (!*v) return fail(r, col_of(line, field[i]), r->col_name[i], "empty value");
  }
  snprintf(row->config, sizeof row->config, "%s", in[IN_CONFIG].v);
  for (size_t k = 0; k < set->n_rows; k++)
    if (strcmp(set->rows[k].config, row->config) == 0)
      return fail(r, in[IN_CONFIG].col, "config", "'%s' also on line %d", row->config,
                  set->rows[k].line);
  if (row_inputs(r, row, in)) return -1;
  int any = 0;
  for (int i = 0; i < n; i++) {
    if (r->col_metric[i] < 0) continue;
    char *v = trim(field[i]);
    if (strcmp(v, "-") == 0) continue; /* the reference does not give this one */
    double d;
    if (parse_pos_double(v, &d))
      return fail(r, col_of(line, field[i]), r->col_name[i],
                  "reference value must be a positive number (or '-'), not '%s'", v);
    const int j = r->col_metric[i];
    d *= metric_columns[j].scale;
    if (metric_columns[j].per_bit) d *= row->spec.width_bits;
    row->ref[metric_columns[j].metric] = d;
    row->has[metric_columns[j].metric] = 1;
    any = 1;
  }
  if (!any) return fail(r, 1, NULL, "row '%s' has no reference values", row->config);
  if (!row->has[GPURF_VALIDATE_LEAKAGE] && row->has[GPURF_VALIDATE_LEAKAGE_SUB] && row->has[GPURF_VALIDATE_LEAKAGE_GATE]) {
    row->ref[GPURF_VALIDATE_LEAKAGE] = row->ref[GPURF_VALIDATE_LEAKAGE_SUB] + row->ref[GPURF_VALIDATE_LEAKAGE_GATE];
    row->has[GPURF_VALIDATE_LEAKAGE] = 1;
  }
  set->n_rows++;
  return 0;
}

static void reader_free(reader *r) {
  for (int i = 0; i < IN_COUNT; i++) free(r->spec[i]);
  for (size_t i = 0; i < r->n_map; i++) {
    free(r->map[i].from);
    free(r->map[i].to);
  }
  for (size_t i = 0; i < r->n_info; i++) free(r->info[i]);
  for (int i = 0; i < r->ncols; i++) free(r->col_name[i]);
}

static void set_name_from_path(gpurf_validate_set *set, const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  snprintf(set->name, sizeof set->name, "%s", base);
  size_t n = strlen(set->name);
  if (n > 4 && strcmp(set->name + n - 4, ".tsv") == 0) set->name[n - 4] = '\0';
  snprintf(set->path, sizeof set->path, "%s", path);
}

/* Reference-set lines are short; a longer one (or a stream without line
 * ends, such as /dev/zero) is not a set, and reading it whole would grow
 * memory without bound. */
#define SET_LINE_MAX (64u * 1024u)

/* Reads one line into *buf (without its newline) within SET_LINE_MAX.
 * Returns its length, -1 at the end of the file, -2 for a line too long,
 * -3 for a NUL byte. */
static long read_line(FILE *f, char **buf, size_t *cap) {
  size_t n = 0;
  int ch;
  while ((ch = getc(f)) != EOF && ch != '\n') {
    if (ch == '\0') return -3;
    if (n + 2 > *cap) {
      if (*cap >= SET_LINE_MAX) return -2;
      size_t nc = *cap ? *cap * 2 : 256;
      char *nb = realloc(*buf, nc);
      if (!nb) return -4;
      *buf = nb;
      *cap = nc;
    }
    (*buf)[n++] = (char)ch;
  }
  if (ch == EOF && n == 0) return -1;
  if (!*buf) { /* an empty last line before EOF with nothing allocated yet */
    *buf = malloc(1);
    if (!*buf) return -4;
    *cap = 1;
  }
  (*buf)[n] = '\0';
  return (long)n;
}

int gpurf_validate_set_load(gpurf_ctx *ctx, const char *path, gpurf_validate_set **out) {
  if (!ctx || !path || !out) return GPURF_EINVAL;
  *out = NULL;
  gpurf_validate_set *set = calloc(1, sizeof *set);
  if (!set) return gpurf_fail_at(ctx, GPURF_ENOMEM, path, 0, 0, NULL, "out of memory");
  set_name_from_path(set, path);
  reader r;
  memset(&r, 0, sizeof r);
  r.ctx = ctx;
  r.path = path;
  r.set = set;
  FILE *f = fopen(path, "rb");
  if (!f) {
    free(set);
    return gpurf_fail_at(ctx, GPURF_EIO, path, 0, 0, NULL, "cannot open validation set");
  }
  char *buf = NULL;
  size_t cap = 0;
  long len;
  int rc = 0, status = GPURF_OK;
  while (rc == 0 && (len = read_line(f, &buf, &cap)) != -1) {
    r.line++;
    if (len == -2) {
      rc = fail(&r, 0, NULL, "line longer than %u bytes: not a validation set", SET_LINE_MAX);
      break;
    }
    if (len == -3) {
      rc = fail(&r, 0, NULL, "NUL byte: not a text file");
      break;
    }
    if (len == -4) {
      rc = oom(&r);
      break;
    }
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r')) buf[--len] = '\0';
    if (buf[0] == '#')
      rc = directive(&r, buf);
    else if (trim(buf)[0] == '\0')
      continue;
    else if (!r.saw_header)
      rc = header(&r, buf);
    else
      rc = data_row(&r, buf);
  }
  if (rc == 0 && ferror(f)) {
    status = gpurf_fail_at(ctx, GPURF_EIO, path, 0, 0, NULL, "read error");
    rc = -1;
  }
  fclose(f);
  free(buf);
  if (rc == 0) {
    r.line = 1;
    if (!r.saw_source)
      rc = fail(&r, 0, NULL, "no '# source:' line: every set names where its numbers come from");
    else if (!r.saw_tolerance)
      rc = fail(&r, 0, NULL, "no '# tolerance:' line: give one per gated metric, or "
                             "'# tolerance: none (reason)'");
    else if (set->n_rows == 0)
      rc = fail(&r, 0, NULL, "no data rows");
  }
  reader_free(&r);
  if (rc) {
    gpurf_validate_set_free(set);
    return status != GPURF_OK ? status : gpurf_ctx_error(ctx)->status;
  }
  *out = set;
  return GPURF_OK;
}
