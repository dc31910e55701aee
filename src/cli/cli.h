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

/* Parses a whole decimal number in 1..max; on anything else (non-numeric,
 * zero, negative, above max) prints a usage error and returns CLI_USAGE. */
int cli_parse_count(const char *prog, const char *opt, const char *s, long long max,
                    long long *out);

/* The shipped SRAM cell `--cell sram` stands for: 6T for 1rw, 8T for 1r1w,
 * the multi-port cell (grown per extra port by the model) otherwise. */
const char *cli_sram_cell_for(const gpurf_ports *ports);

/* Prints the context's last error as one line on stderr. */
void cli_print_error(const gpurf_ctx *ctx);
/* Prints "PROG: message" on stderr. */
void cli_usage_error(const char *prog, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Commands. */
int cmd_tech(gpurf_ctx *ctx, int argc, char **argv);
int cmd_cell(gpurf_ctx *ctx, int argc, char **argv);
int cmd_bank(gpurf_ctx *ctx, int argc, char **argv);
int cmd_validate(gpurf_ctx *ctx, int argc, char **argv);
int cmd_bench(gpurf_ctx *ctx, int argc, char **argv);
int cmd_trace(gpurf_ctx *ctx, int argc, char **argv);
int cmd_rf(gpurf_ctx *ctx, int argc, char **argv);

#endif
