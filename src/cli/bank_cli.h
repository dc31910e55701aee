/* gpurf bank's pieces shared by the single query (cmd_bank.c) and --batch
 * (bank_batch.c). */
#ifndef GPURF_CLI_BANK_CLI_H
#define GPURF_CLI_BANK_CLI_H

#include "cli/cli.h"

/* Option values as given (NULL: not given). */
typedef struct bank_args {
  const char *tech, *cell, *ports, *bytes, *entries, *width, *banks, *opt, *space, *device;
  const char *temp_k, *clock_ghz, *periphery, *port, *gate_groups;
  int split_write, band;
  out_format fmt;
  int fmt_given;
  const char *batch;
} bank_args;

typedef struct bank_view {
  const gpurf_bank_spec *spec;
  const gpurf_tech *tech;
  const gpurf_cell *cell;
  const gpurf_bank_cost *cost;
  const gpurf_bank_band *band; /* NULL without --band */
  char ports[32];
} bank_view;

/* Checks the options and fills the spec (no tech or cell yet); a usage
 * error is printed (cli_usage_error) and CLI_USAGE returned. */
int bank_build_spec(const char *prog, const bank_args *o, gpurf_bank_spec *s, int *ports_given);
/* Ports a cell implies when --ports is not given. */
void bank_cell_ports(gpurf_bank_spec *spec, const gpurf_cell *cell, int is_sram, int ports_given);
/* line > 0 adds "line" first (batch rows). */
void bank_print_json(sbuf *out, const bank_view *b, long line);
/* band: the --band columns too. */
void bank_print_csv_header(sbuf *out, int band);
void bank_print_csv_row(sbuf *out, const bank_view *b);

/* --batch: every row of o->batch; CLI status. */
int bank_batch(gpurf_ctx *ctx, const char *prog, const bank_args *o);
/* The same into out (no printing), for the benchmark: rows evaluated and
 * rows that failed. */
int bank_batch_run(gpurf_ctx *ctx, const char *prog, const bank_args *o, sbuf *out, long *rows,
                   long *bad);

#endif
