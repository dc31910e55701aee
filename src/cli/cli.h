/* Shared pieces of the gpurf command: output buffering, option parsing,
 * error printing. The command is a thin shell over the library. */
#ifndef GPURF_CLI_H
#define GPURF_CLI_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

/* The command table: every command of gpurf with its options, from which
 * the dispatch, the option parser, `gpurf help` and every `--help` are made
 * (src/cli/commands.c). An option is `--name value`, `--name=value` or a
 * flag. */
enum {
  CLI_REQUIRED = 1, /* the command refuses to run without it */
  CLI_REPEAT = 2,   /* may be given more than once; see cli_next */
  CLI_INSTEAD = 4   /* given, the required options are not: the command takes
                       them from elsewhere (bank --batch: a table's rows) */
};

typedef struct cli_option {
  const char *name;            /* "--tech" */
  const char *arg;             /* "NODE"; NULL for a flag (unless choices) */
  unsigned flags;              /* CLI_REQUIRED, CLI_REPEAT */
  const char *const *choices;  /* NULL-terminated values allowed, or NULL */
  const char *help;            /* sentences, wrapped when printed */
  const char *alias;           /* a short spelling ("-o"), or NULL */
} cli_option;

#define CLI_MAX_OPTS 24
#define CLI_MAX_POS 256 /* max_pos of a command taking a list (FILES...) */
#define CLI_MAX_REPEATS 256

struct cli_parsed;
typedef struct cli_command {
  const char *name;    /* "bank", "trace stats" */
  const char *args;    /* positional arguments for the synopsis, or NULL */
  int max_pos;         /* positional arguments taken (CLI_MAX_POS: a list) */
  const char *summary; /* one line for `gpurf help` */
  const char *about;   /* paragraphs of --help between usage and options */
  int (*run)(gpurf_ctx *ctx, const struct cli_parsed *p);
  const cli_option *opts; /* ended by an entry with a NULL name */
  void (*help_tail)(FILE *out); /* more --help computed at run time, or NULL */
  const char *need; /* the positional arguments are required: what to say when
                       they are missing; NULL when they are optional */
} cli_command;

/* A group of subcommands ("trace stats", "trace gen", ...): what the
 * subcommand is called in messages. */
typedef struct cli_group {
  const char *name, *noun, *summary;
} cli_group;

extern const cli_command cli_commands[];
extern const cli_group cli_groups[];

/* The command line as the parser understood it. */
typedef struct cli_parsed {
  const cli_command *cmd;
  const char *prog; /* "gpurf trace stats", for messages */
  char prog_buf[64];
  const char *value[CLI_MAX_OPTS]; /* the value given, "1" for a flag */
  const char *pos[CLI_MAX_POS];
  int npos;
  out_format fmt; /* from --format: text, json or csv */
  int nrep;       /* repeated options in command-line order */
  struct {
    int opt;
    const char *value;
  } rep[CLI_MAX_REPEATS];
} cli_parsed;

/* Runs the command named by argv[0] and argv[1] (a subcommand such as
 * "trace stats" or "reproduce merge"), else by argv[0]. */
int cli_dispatch(gpurf_ctx *ctx, int argc, char **argv);
/* Parses argv against the command's options; prints help and returns -1 on
 * --help, prints one line and returns CLI_USAGE on bad usage. */
int cli_parse(const cli_command *c, int argc, char **argv, cli_parsed *p);
/* The value of an option of the command (NULL when not given). */
const char *cli_get(const cli_parsed *p, const char *name);
/* Walks the repeated options in command-line order: *k starts at 0;
 * returns 0 at the end. */
int cli_next(const cli_parsed *p, int *k, const char **name, const char **value);
/* Help: the command's --help, `gpurf help`, and the table as JSON. */
void cli_help_command(FILE *out, const cli_command *c);
void cli_help_group(FILE *out, const cli_group *g);
void cli_help_all(FILE *out);
int cli_help_json(void);

int cli_is_help(const char *arg);
int cli_ends_with(const char *s, const char *suffix);

int cli_parse_double(const char *prog, const char *opt, const char *s, double *out);
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
/* While buf is set, cli_usage_error writes its message (without the
 * program name or hint) there instead of printing it; NULL restores. */
void cli_usage_capture(char *buf, size_t size);
/* Prints one line on stderr, escaped as the library's errors are
 * (gpurf_error_escape): a line break, CR or terminal escape from a file or
 * the command line comes out as \n, \r, \x1b, and a long quoted value is
 * cut, so the message stays one line. */
void cli_errorf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Outputs are written whole under a temporary name beside OUT and renamed
 * into place. An OUT that is a device, a pipe or a socket (/dev/null,
 * /dev/stdout) would be replaced by a regular file wherever its directory
 * is writable (as root, /dev): such an OUT is refused with a message, and
 * CLI_FAIL returned. */
int cli_output_file_ok(const char *path);
/* An input a command must read more than once, given as "-" or a pipe,
 * copied whole into a new temporary file (registered for removal; its
 * path in tmp): 0, or -1 after printing why (a device such as /dev/zero
 * is not copied, nor more than max_bytes when max_bytes > 0). *spooled
 * says whether a copy was made: a regular file or a directory is read in
 * place. */
int cli_spool_input(const char *path, long long max_bytes, char *tmp, size_t size, int *slot,
                    int *spooled);
/* cli_print_error, the file named `from` shown as `to`. */
void cli_print_error_as(const gpurf_ctx *ctx, const char *from, const char *to);
/* Standard input ("-", /dev/stdin) can be read once: with two of paths
 * (n of them, NULL skipped) naming it, prints a usage error and returns
 * CLI_USAGE (two readers would share one stream, on threads in any order). */
int cli_stdin_once(const char *prog, const char *const *paths, int n);
/* Prints "PROG: message (see 'PROG --help')" on stderr, escaped as
 * cli_errorf does. */
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

/* A whole number in lo..hi (lo may be 0) into *out when the option is
 * given. */
int cli_opt_int(const cli_parsed *p, const char *name, long long lo, long long hi, int *out);
/* A whole number in 1..max into *out when the option is given. */
int cli_count_opt(const cli_parsed *p, const char *name, long long max, long long *out);
/* A seed (any whole number from 0, decimal or 0x hex) when given. */
int cli_seed_opt(const cli_parsed *p, const char *name, uint64_t *out);
/* The native trace form for --to (NULL: by the ending of out_path). */
gpurf_trace_format cli_trace_form(const char *to, const char *out_path);
int cli_env_opts(const char *prog, const char *device, const char *temp_k, gpurf_device_kind *dev,
                 double *temp_k_out);
/* --rf-area-mm2 A or --rf-bytes N (at most one). */
int cli_rf_area_opts(const cli_parsed *p, double *area_mm2_out, long long *bytes_out);
/* --activity A, in (0, 1], when given. */
int cli_activity_opt(const cli_parsed *p, double *activity);

/* Command handlers (one per entry of the table). */
#define CLI_HANDLER(fn) int fn(gpurf_ctx *ctx, const cli_parsed *p)
CLI_HANDLER(cmd_tech_list);
CLI_HANDLER(cmd_tech_show);
CLI_HANDLER(cmd_cell_show);
CLI_HANDLER(cmd_bank);
CLI_HANDLER(cmd_validate);
CLI_HANDLER(cmd_bench_bank);
CLI_HANDLER(cmd_bench_events);
CLI_HANDLER(cmd_bench_sim);
CLI_HANDLER(cmd_bench_reproduce);
CLI_HANDLER(cmd_bench_emu);
CLI_HANDLER(cmd_trace_stats);
CLI_HANDLER(cmd_trace_convert);
CLI_HANDLER(cmd_trace_gen);
CLI_HANDLER(cmd_trace_dataflow);
CLI_HANDLER(cmd_trace_record);
CLI_HANDLER(cmd_energy);
CLI_HANDLER(cmd_rf);
CLI_HANDLER(cmd_sweep);
CLI_HANDLER(cmd_sweep_merge);
CLI_HANDLER(cmd_sim);
CLI_HANDLER(cmd_table);
CLI_HANDLER(cmd_xbar);
CLI_HANDLER(cmd_arbiter);
CLI_HANDLER(cmd_component_rename);
CLI_HANDLER(cmd_component_wpool);
CLI_HANDLER(cmd_component_crf);
CLI_HANDLER(cmd_component_rfc_tags);
CLI_HANDLER(cmd_reproduce);
CLI_HANDLER(cmd_reproduce_merge);
void cmd_sim_help_tail(FILE *out);

/* Temporary files removed if SIGINT, SIGTERM or SIGHUP ends the process
 * (cleanup.c). cli_cleanup_install() once at start; cli_cleanup_add()
 * gives a slot (-1 when full or the path is too long: the file is then
 * only not protected), cli_cleanup_remove() after the file is renamed or
 * removed. */
void cli_cleanup_install(void);
int cli_cleanup_add(const char *path);
void cli_cleanup_remove(int slot);
/* The process writing a registered file for us (0: none), ended by the
 * handler before it removes the files. Set while the signals are held. */
void cli_cleanup_child(pid_t pid);
/* Hold the handled signals from just before a temporary file is created
 * until it is registered, so no interrupt falls between the two. */
typedef struct cli_cleanup_mask {
  sigset_t old;
} cli_cleanup_mask;
void cli_cleanup_hold(cli_cleanup_mask *m);
void cli_cleanup_release(const cli_cleanup_mask *m);

/* Writes every record of r to OUT in fmt (a native trace), the temporary
 * file protected by the cleanup registry; *count gets the records copied.
 * Library status; the context holds the error. */
int cli_trace_copy(gpurf_ctx *ctx, gpurf_trace_reader *r, const char *out, gpurf_trace_format fmt,
                   uint64_t *count);

#endif
