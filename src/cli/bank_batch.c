/* gpurf bank --batch: many bank configurations in one process, one per row
 * of a tab-separated file whose header names the options. Technologies and
 * cells are loaded once per name and kept for later rows; a bad row gives
 * an error row naming its line and the others go on. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/bank_cli.h"

#define BATCH_LINE_MAX 4096
#define BATCH_COLS 16
#define CACHE_MAX 16

enum { C_TECH, C_CELL, C_PORTS, C_BYTES, C_ENTRIES, C_WIDTH, C_BANKS, C_OPT, C_DEVICE, C_TEMP,
       C_CLOCK, C_PERIPHERY, C_PORT, C_GATE, C_SPACE, C_SPLIT, C_COUNT };
static const char *const col_names[C_COUNT] = {
    "tech", "cell", "ports", "bytes", "entries", "width", "banks", "opt", "device", "temp-k",
    "clock-ghz", "periphery", "port", "gate-groups", "space", "split-write"};

typedef struct batch_cache {
  int n_tech, n_cell;
  char tech_name[CACHE_MAX][64];
  gpurf_tech *tech[CACHE_MAX];
  char cell_name[CACHE_MAX][256];
  gpurf_cell cell[CACHE_MAX];
} batch_cache;

static const gpurf_tech *cached_tech(gpurf_ctx *ctx, batch_cache *c, const char *name) {
  for (int i = 0; i < c->n_tech; i++)
    if (!strcmp(c->tech_name[i], name)) return c->tech[i];
  gpurf_tech *t = cli_tech_load(ctx, name);
  if (t && c->n_tech < CACHE_MAX && strlen(name) < sizeof c->tech_name[0]) {
    strcpy(c->tech_name[c->n_tech], name);
    c->tech[c->n_tech++] = t;
  } else if (t) {
    gpurf_tech_free(t); /* the cache is full: load per row */
    return NULL;
  }
  return t;
}

/* A cell by name, from the cache; scratch holds it when the cache is full. */
static const gpurf_cell *cached_cell(gpurf_ctx *ctx, batch_cache *c, const char *name,
                                     gpurf_cell *scratch) {
  for (int i = 0; i < c->n_cell; i++)
    if (!strcmp(c->cell_name[i], name)) return &c->cell[i];
  if (c->n_cell == CACHE_MAX || strlen(name) >= sizeof c->cell_name[0])
    return gpurf_cell_load(ctx, name, scratch) == GPURF_OK ? scratch : NULL;
  if (gpurf_cell_load(ctx, name, &c->cell[c->n_cell]) != GPURF_OK) return NULL;
  strcpy(c->cell_name[c->n_cell], name);
  return &c->cell[c->n_cell++];
}

static int split_tabs(char *s, char **f, int max) {
  int n = 0;
  f[n++] = s;
  for (char *p = s; *p; p++)
    if (*p == '\t') {
      *p = '\0';
      if (n == max) return -1;
      f[n++] = p + 1;
    }
  return n;
}

/* JSON lines: the writer's indented object on one line. Its strings
 * escape newlines, so every raw newline (and the indent after it) is
 * layout. */
static void sb_append_compact(sbuf *out, const sbuf *in) {
  if (in->oom) {
    out->oom = 1;
    return;
  }
  size_t i = 0, start = 0;
  while (i < in->len) {
    if (in->data[i] != '\n') {
      i++;
      continue;
    }
    if (i > start) sb_printf(out, "%.*s", (int)(i - start), in->data + start);
    while (++i < in->len && in->data[i] == ' ') {}
    start = i;
  }
  if (i > start) sb_printf(out, "%.*s", (int)(i - start), in->data + start);
  sb_printf(out, "\n");
}

static void csv_error(sbuf *out, long line, const char *msg) {
  sb_printf(out, "%ld,\"", line);
  for (const char *p = msg; *p; p++) {
    if (*p == '"') sb_printf(out, "\"\"");
    else if ((unsigned char)*p >= 0x20) sb_printf(out, "%c", *p);
  }
  sb_printf(out, "\"\n");
}

static void json_error(sbuf *out, long line, const char *msg) {
  jw w;
  sbuf tmp;
  sb_init(&tmp);
  jw_init(&w, &tmp);
  jw_obj_begin(&w, NULL);
  jw_int(&w, "line", line);
  jw_str(&w, "error", msg);
  jw_obj_end(&w);
  jw_finish(&w);
  sb_append_compact(out, &tmp);
  sb_free(&tmp);
}

/* One row: the command-line options, then the row's cells over them. */
static int row(gpurf_ctx *ctx, const char *prog, const bank_args *base, const int *col_of,
               int ncols, char **f, long line, batch_cache *cache, sbuf *out) {
  bank_args o = *base;
  const char **slot[C_COUNT] = {&o.tech, &o.cell, &o.ports, &o.bytes, &o.entries, &o.width,
                                &o.banks, &o.opt, &o.device, &o.temp_k, &o.clock_ghz,
                                &o.periphery, &o.port, &o.gate_groups, &o.space, NULL};
  char msg[GPURF_ERROR_MESSAGE_MAX + 64] = "";
  for (int k = 0; k < ncols; k++) {
    if (!f[k][0]) continue;
    int c = col_of[k];
    if (c == C_SPLIT) {
      if (!strcmp(f[k], "1") || !strcmp(f[k], "yes")) o.split_write = 1;
      else if (!strcmp(f[k], "0") || !strcmp(f[k], "no")) o.split_write = 0;
      else snprintf(msg, sizeof msg, "split-write must be 0 or 1, not '%.40s'", f[k]);
    } else {
      *slot[c] = f[k];
    }
  }
  gpurf_bank_spec spec;
  int ports_given = 0;
  if (!msg[0]) {
    cli_usage_capture(msg, sizeof msg);
    bank_build_spec(prog, &o, &spec, &ports_given);
    cli_usage_capture(NULL, 0);
  }
  const gpurf_tech *tech = NULL;
  gpurf_tech *own_tech = NULL;
  const gpurf_cell *cell = NULL;
  gpurf_cell scratch_cell;
  gpurf_bank_cost cost;
  gpurf_bank_band band;
  if (!msg[0]) {
    int is_sram = strcmp(o.cell, "sram") == 0;
    tech = cached_tech(ctx, cache, o.tech);
    if (!tech && cache->n_tech == CACHE_MAX) tech = own_tech = cli_tech_load(ctx, o.tech);
    if (tech) cell = cached_cell(ctx, cache, is_sram ? cli_sram_cell_for(&spec.ports) : o.cell,
                                  &scratch_cell);
    if (cell) {
      bank_cell_ports(&spec, cell, is_sram, ports_given);
      spec.tech = tech;
      spec.cell = cell;
    }
    if (!cell || gpurf_bank_eval(ctx, &spec, &cost) != GPURF_OK ||
        (o.band && gpurf_bank_band_eval(ctx, &spec, &cost, &band) != GPURF_OK))
      gpurf_error_format(gpurf_ctx_error(ctx), msg, sizeof msg);
  }
  if (msg[0]) {
    if (o.fmt == FMT_JSON) json_error(out, line, msg);
    else csv_error(out, line, msg);
    gpurf_tech_free(own_tech);
    return 1;
  }
  bank_view view = {&spec, tech, cell, &cost, o.band ? &band : NULL, {0}};
  gpurf_ports_format(&spec.ports, view.ports, sizeof view.ports);
  if (o.fmt == FMT_JSON) {
    sbuf tmp;
    sb_init(&tmp);
    bank_print_json(&tmp, &view, line);
    sb_append_compact(out, &tmp);
    sb_free(&tmp);
  } else {
    sb_printf(out, "%ld,,", line);
    bank_print_csv_row(out, &view);
  }
  gpurf_tech_free(own_tech);
  return 0;
}

/* One error line about the input file, at a line when line > 0. */
static void batch_error(const char *path, long line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void batch_error(const char *path, long line, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (line > 0) cli_errorf("%s:%ld: %s", path, line, msg);
  else cli_errorf("%s: %s", path, msg);
}

/* Reads one line without its line break into buf (at most BATCH_LINE_MAX
 * bytes). Returns 1 for a line, 0 at the end, -1 for a line too long and
 * -2 for a NUL byte: a table of configurations is text, and fgets would
 * read /dev/zero as endless empty lines. */
static int read_line(FILE *f, char *buf, size_t *len) {
  size_t n = 0;
  int ch, any = 0;
  while ((ch = getc(f)) != EOF) {
    any = 1;
    if (ch == '\n') break;
    if (ch == '\0') return -2;
    if (n == BATCH_LINE_MAX) return -1;
    buf[n++] = (char)ch;
  }
  buf[n] = '\0';
  *len = n;
  return any;
}

static int header(const char *path, long line, char *text, int *col_of, int *ncols) {
  char *f[BATCH_COLS];
  int n = split_tabs(text, f, BATCH_COLS);
  if (n < 0) {
    batch_error(path, line, "more than %d columns", BATCH_COLS);
    return -1;
  }
  for (int k = 0; k < n; k++) {
    const char *name = f[k];
    while (*name == '-') name++;
    int c = 0;
    while (c < C_COUNT && strcmp(name, col_names[c]) != 0) c++;
    if (c == C_COUNT) {
      batch_error(path, line,
                  "column '%.40s' is not a bank option (tech, cell, ports, bytes, entries, "
                  "width, banks, opt, device, temp-k, clock-ghz, periphery, port, gate-groups, "
                  "space, split-write)", f[k]);
      return -1;
    }
    for (int j = 0; j < k; j++)
      if (col_of[j] == c) {
        batch_error(path, line, "column '%s' given twice", col_names[c]);
        return -1;
      }
    col_of[k] = c;
  }
  *ncols = n;
  return 0;
}

int bank_batch_run(gpurf_ctx *ctx, const char *prog, const bank_args *o, sbuf *out, long *rows,
                   long *bad) {
  *rows = *bad = 0;
  const char *name = strcmp(o->batch, "-") == 0 ? "<stdin>" : o->batch;
  FILE *f = strcmp(o->batch, "-") == 0 ? stdin : fopen(o->batch, "rb");
  if (!f) {
    batch_error(name, 0, "cannot open: %s", strerror(errno));
    return CLI_FAIL;
  }
  batch_cache *cache = calloc(1, sizeof *cache);
  char *buf = malloc(BATCH_LINE_MAX + 1);
  int col_of[BATCH_COLS], ncols = 0, have_header = 0, rc = cache && buf ? CLI_OK : CLI_FAIL;
  long line = 0;
  size_t n = 0;
  int got;
  while (rc == CLI_OK && (got = read_line(f, buf, &n)) != 0) {
    line++;
    if (got < 0) {
      if (got == -1) batch_error(name, line, "line longer than %d bytes", BATCH_LINE_MAX);
      else batch_error(name, line, "NUL byte: not a text file");
      rc = CLI_FAIL;
      break;
    }
    while (n && buf[n - 1] == '\r') buf[--n] = '\0';
    if (buf[0] == '#' || buf[0] == '\0') continue;
    if (!have_header) {
      if (header(name, line, buf, col_of, &ncols) != 0) rc = CLI_FAIL;
      have_header = 1;
      if (rc == CLI_OK && o->fmt != FMT_JSON) {
        sb_printf(out, "line,error,");
        bank_print_csv_header(out, o->band);
      }
      continue;
    }
    char *fields[BATCH_COLS];
    int k = split_tabs(buf, fields, BATCH_COLS);
    if (k != ncols) {
      char msg[128];
      snprintf(msg, sizeof msg, "%d cells for the header's %d columns", k < 0 ? BATCH_COLS + 1 : k,
               ncols);
      if (o->fmt == FMT_JSON) json_error(out, line, msg);
      else csv_error(out, line, msg);
      (*rows)++, (*bad)++;
      continue;
    }
    *bad += row(ctx, prog, o, col_of, ncols, fields, line, cache, out);
    (*rows)++;
  }
  if (rc == CLI_OK && ferror(f)) {
    batch_error(name, 0, "read error: %s", strerror(errno));
    rc = CLI_FAIL;
  }
  if (rc == CLI_OK && !have_header) {
    batch_error(name, 0, "no header line naming the columns");
    rc = CLI_FAIL;
  }
  if (f != stdin) fclose(f);
  for (int i = 0; cache && i < cache->n_tech; i++) gpurf_tech_free(cache->tech[i]);
  free(cache);
  free(buf);
  return rc;
}

int bank_batch(gpurf_ctx *ctx, const char *prog, const bank_args *o) {
  if (o->fmt_given && o->fmt == FMT_TEXT) {
    cli_usage_error(prog, "--batch prints csv or json lines, not text");
    return CLI_USAGE;
  }
  bank_args b = *o;
  if (!b.fmt_given) b.fmt = FMT_CSV;
  sbuf out;
  sb_init(&out);
  long rows, bad;
  int rc = bank_batch_run(ctx, prog, &b, &out, &rows, &bad);
  if (rc == CLI_OK) rc = sb_flush_stdout(&out);
  sb_free(&out);
  if (rc == CLI_OK && bad > 0) {
    fprintf(stderr, "%s: %ld of %ld rows failed (see their error rows)\n", prog, bad, rows);
    rc = CLI_FAIL;
  }
  return rc;
}
