/* Shared pieces of the gpurf command: output buffering, option parsing,
 * error printing. The command is a thin shell over the library. */
#ifndef GPURF_CLI_H
#define GPURF_CLI_H

#include <stddef.h>

#include "gpurf/gpurf.h"

/* Exit statuses: 0 success, 1 bad input or model error, 2 bad usage. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* A growable text buffer. Output is assembled here and written only when the
 * command succeeded, so a failing command never leaves partial output. */
typedef struct sbuf {
  char *data;
  size_t len, cap;
  int oom;
} sbuf;

void sb_init(sbuf *b);
void sb_free(sbuf *b);
void sb_printf(sbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Writes the buffer to stdout; returns CLI_FAIL if memory ran out or the
 * write failed. */
int sb_flush_stdout(sbuf *b);

typedef enum out_format { FMT_TEXT, FMT_JSON, FMT_CSV } out_format;

/* Minimal streaming JSON writer with stable key order and 2-space indent. */
typedef struct jw {
  sbuf *out;
  int depth;
  int count[32]; /* items written at each depth */
} jw;

void jw_init(jw *w, sbuf *out);
void jw_obj_begin(jw *w, const char *key);
void jw_obj_end(jw *w);
void jw_arr_begin(jw *w, const char *key);
void jw_arr_end(jw *w);
void jw_num(jw *w, const char *key, double v);
void jw_int(jw *w, const char *key, long long v);
void jw_str(jw *w, const char *key, const char *s);
void jw_bool(jw *w, const char *key, int v);
void jw_finish(jw *w); /* trailing newline */

/* Option parsing: `--name value` or `--name=value`. */
typedef struct cli_args {
  int argc;
  char **argv;
  int pos;
  const char *prog; /* e.g. "gpurf tech show", for messages */
} cli_args;

/* Returns 1 and sets *value when argv[pos] is option `name` (taking a value);
 * on a missing value prints an error and sets *bad. */
int cli_opt_value(cli_args *a, const char *name, const char **value, int *bad);
int cli_is_flag(cli_args *a, const char *name);
int cli_is_help(const char *arg);

int cli_parse_format(const char *prog, const char *s, int allow_csv, out_format *out);
int cli_parse_double(const char *prog, const char *opt, const char *s, double *out);
/* Sets *out to the index of s in the two names of a two-way option; on
 * anything else prints "OPT must be A or B, not 'S'" and returns CLI_USAGE. */
int cli_parse_either(const char *prog, const char *opt, const char *s, const char *a,
                     const char *b, int *out);

/* Parses a whole decimal number in 1..max; on anything else (non-numeric,
 * zero, negative, above max) prints a usage error and returns CLI_USAGE. */
int cli_parse_count(const char *prog, const char *opt, const char *s, long long max,
                    long long *out);

/* Parses --shard's I/N (0 <= I < N <= 100000); on anything else prints a
 * usage error and returns CLI_USAGE. */
int cli_parse_shard(const char *prog, const char *s, int *i, int *n);

/* The shipped SRAM cell `--cell sram` stands for: 6T for 1rw, 8T for 1r1w,
 * the multi-port cell (grown per extra port by the model) otherwise. */
const char *cli_sram_cell_for(const gpurf_ports *ports);

/* Prints the context's last error as one line on stderr. */
void cli_print_error(const gpurf_ctx *ctx);
/* Allocates and loads a node (gpurf_tech_free releases it); NULL with the
 * error in ctx on failure. */
gpurf_tech *cli_tech_load(gpurf_ctx *ctx, const char *node);
/* Prints the library's warnings on stderr, one line each: FILE:LINE: MESSAGE. */
void cli_install_warnings(gpurf_ctx *ctx);
/* Prints "PROG: message" on stderr. */
void cli_usage_error(const char *prog, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A flat report for the component commands: named values (JSON keys carry
 * their units; the value is already scaled to that unit), section headings
 * for text, then breakdown tables over named parts. */
#define REP_MAX_ROWS 96
#define REP_MAX_TABLES 6
#define REP_MAX_PARTS 8

typedef struct rep_row {
  const char *key, *label, *unit, *s; /* key NULL: a text heading */
  double v;
  long long i;
  int is_int;
} rep_row;

typedef struct rep_tab {
  const char *key, *head;
  const double *v; /* one value per part, SI */
  double scale;    /* to the unit in key */
} rep_tab;

typedef struct report {
  const char *title;
  rep_row rows[REP_MAX_ROWS];
  int n;
  const char *breakdown_title;
  const char *parts[REP_MAX_PARTS];
  int nparts;
  rep_tab tables[REP_MAX_TABLES];
  int ntables;
  int overflow;
} report;

void rep_init(report *r, const char *title);
void rep_section(report *r, const char *heading);
void rep_str(report *r, const char *key, const char *label, const char *s);
void rep_num(report *r, const char *key, const char *label, const char *unit, double v);
void rep_int(report *r, const char *key, const char *label, long long v);
void rep_table(report *r, const char *key, const char *head, const double *v, double scale);
/* Prints the report in the format; nothing is written unless all of it is. */
int rep_emit(const report *r, out_format fmt);

/* An option of a component command: `--name value`, or a flag. */
typedef struct cli_opt {
  const char *name;
  const char *value; /* NULL until given; "1" for a given flag */
  int is_flag;
} cli_opt;

/* Parses argv into opts and --format; returns -1 after printing help. */
int cli_opts_parse(cli_args *a, const char *help, cli_opt *opts, size_t n, out_format *fmt);
/* A whole number in lo..hi (lo may be 0) into *out when given. */
int cli_opt_int(const char *prog, const cli_opt *o, long long lo, long long hi, int *out);
int cli_env_opts(const char *prog, const char *device, const char *temp_k, gpurf_device_kind *dev,
                 double *temp_k_out);
/* --rf-area-mm2 A or --rf-bytes N (at most one). */
int cli_rf_area_opts(const char *prog, const char *area_mm2, const char *bytes,
                     double *area_mm2_out, long long *bytes_out);

/* Commands. */
int cmd_tech(gpurf_ctx *ctx, int argc, char **argv);
int cmd_cell(gpurf_ctx *ctx, int argc, char **argv);
int cmd_bank(gpurf_ctx *ctx, int argc, char **argv);
int cmd_validate(gpurf_ctx *ctx, int argc, char **argv);
int cmd_bench(gpurf_ctx *ctx, int argc, char **argv);
int cmd_trace(gpurf_ctx *ctx, int argc, char **argv);
int cmd_energy(gpurf_ctx *ctx, int argc, char **argv);
int cmd_rf(gpurf_ctx *ctx, int argc, char **argv);
int cmd_sweep(gpurf_ctx *ctx, int argc, char **argv);
int cmd_sim(gpurf_ctx *ctx, int argc, char **argv);
/* gpurf bench sim (bench_sim.c). */
int bench_sim(gpurf_ctx *ctx, cli_args *a);
int bench_reproduce(gpurf_ctx *ctx, cli_args *a);
int cmd_table(gpurf_ctx *ctx, int argc, char **argv);
int cmd_xbar(gpurf_ctx *ctx, int argc, char **argv);
int cmd_arbiter(gpurf_ctx *ctx, int argc, char **argv);
int cmd_component(gpurf_ctx *ctx, int argc, char **argv);
int cmd_reproduce(gpurf_ctx *ctx, int argc, char **argv);

#endif
