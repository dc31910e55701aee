/* Options and the run shared by `gpurf trace record` and `gpurf bench emu`. */
#ifndef GPURF_CLI_EMU_H
#define GPURF_CLI_EMU_H

#include "cli/cli.h"

typedef struct cli_emu_opts {
  const char *kernel; /* a suite kernel, found in the kernel directory */
  const char *elf;    /* or an ELF file */
  const char *out;
  uint32_t warps, blocks, size;
  gpurf_emu_reconv rule;
  uint64_t step_limit;
  out_format fmt;
} cli_emu_opts;

/* Takes the emulator options the command was given into o (with_output:
 * the command also has --elf and -o/--output); CLI_USAGE after printing
 * the error. */
int cli_emu_options(const cli_parsed *p, int with_output, cli_emu_opts *o);

/* Runs the program; records into trace_path (format from its extension:
 * .gtrace text, else binary) when it is not NULL. The program's output is
 * copied to *output (caller frees); *seconds and *cpu_seconds are the wall
 * and CPU time spent in SIMT launches (not the host's part). A self-check
 * failure is an error. */
int cli_emu_run(gpurf_ctx *ctx, const cli_emu_opts *o, const char *trace_path,
                gpurf_emu_result *res, char **output, double *seconds, double *cpu_seconds);

/* The RV32 kernel suite in `trace gen --list`. */
void cli_emu_suite_text(sbuf *out);
void cli_emu_suite_json(jw *w);


#endif
