/* gpurf: GPU register-file power, area and timing. */
#include <limits.h>

#define CLI_PATH_MAX 4096
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

#ifndef GPURF_SOURCE_DATA_DIR
#define GPURF_SOURCE_DATA_DIR ""
#endif

static const char *const usage_text =
    "usage: gpurf <command> [options]\n"
    "\n"
    "Commands:\n"
    "  tech list                 list the technology node files\n"
    "  tech show NODE            print a node's device and wire parameters with\n"
    "                            derived checks (FO4 delay, wire RC); NODE is 22,\n"
    "                            22nm, a node between two files, or a .yaml path\n"
    "  cell show NAME|FILE       print a memory-cell file\n"
    "  bank --tech NODE --cell sram|FILE (--bytes N | --entries E) --width BITS\n"
    "                            SRAM banks: area, timing, energy, leakage and the\n"
    "                            organisation chosen (see 'gpurf bank --help')\n"
    "  validate [--set NAME]     compare the bank model with the reference tables\n"
    "                            in validation/ (--check: fail outside tolerance)\n"
    "  bench bank [--n N]        time the bank model on N varied configurations\n"
    "  bench events [--n N]      time the event energy engine (adds per second)\n"
    "  trace stats|convert|gen|dataflow|record\n"
    "                            read Accel-Sim and native traces, write native\n"
    "                            ones, generate synthetic workloads, analyse\n"
    "                            register dataflow, record RV32 kernels on the\n"
    "                            SIMT emulator (see 'gpurf trace --help')\n"
    "  xbar --inputs N --outputs M --width BITS --tech NODE\n"
    "                            operand crossbar, bit-sliced matrix or mux trees\n"
    "  arbiter --banks N --requesters R --classes K --tech NODE\n"
    "                            bank arbiter with the bank-stealing classes\n"
    "  component rename|wpool|crf --tech NODE\n"
    "                            renaming table, write pool, compressed RF\n"
    "  rf MODEL                  primitive table of a register-file design:\n"
    "                            energy per event, leakage, area, timing\n"
    "  sweep MODEL --set KEY=V1,V2,...\n"
    "                            a design over the product of key values: area,\n"
    "                            leakage, read-path delay and energy per point\n"
    "                            (--plot FILE.png|svg draws them with gnuplot)\n"
    "  reproduce PAPER|all       each seed paper's claims, published beside ours,\n"
    "                            with a report (--out DIR); shards and merge\n"
    "  sim [MODEL] --trace PATH | --workload NAME\n"
    "                            a trace through the register-file pipeline of\n"
    "                            an SM: cycles, IPC, bank conflicts, energy\n"
    "  table NAME                a seed paper's table, ours beside the published\n"
    "                            numbers (gpurf table --list)\n"
    "  energy TABLE COUNTS       cost counted register-file events (a counters\n"
    "                            file or an AccelWattch report) with a table\n"
    "  help                      this text\n"
    "\n"
    "Options for every command: --help, --format text|json.\n"
    "gpurf --version prints the version.\n"
    "\n"
    "Data files (tech/) are found in $GPURF_DATA_DIR, next to an installed\n"
    "executable (../share/gpurf), or in the source tree it was built from.\n";

static int has_tech_dir(const char *dir) {
  char path[CLI_PATH_MAX];
  struct stat st;
  if (snprintf(path, sizeof path, "%s/tech", dir) >= (int)sizeof path) return 0;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The data directory is resolved here, not in the library: the library takes
 * what it is given and reads no environment. */
static void resolve_data_dir(gpurf_ctx *ctx) {
  const char *env = getenv("GPURF_DATA_DIR");
  if (env && env[0]) {
    gpurf_ctx_set_data_dir(ctx, env);
    return;
  }
  char exe[CLI_PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) {
      *slash = '\0';
      char installed[CLI_PATH_MAX];
      if (snprintf(installed, sizeof installed, "%s/../share/gpurf", exe) <
              (int)sizeof installed &&
          has_tech_dir(installed)) {
        gpurf_ctx_set_data_dir(ctx, installed);
        return;
      }
    }
  }
  if (has_tech_dir(GPURF_SOURCE_DATA_DIR)) gpurf_ctx_set_data_dir(ctx, GPURF_SOURCE_DATA_DIR);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage_text, stderr);
    return CLI_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
    printf("gpurf %s\n", gpurf_version());
    return CLI_OK;
  }
  if (strcmp(cmd, "help") == 0 || cli_is_help(cmd)) {
    fputs(usage_text, stdout);
    return CLI_OK;
  }
  gpurf_ctx *ctx = gpurf_ctx_alloc();
  if (!ctx) {
    fprintf(stderr, "gpurf: out of memory\n");
    return CLI_FAIL;
  }
  resolve_data_dir(ctx);
  cli_install_warnings(ctx);
  cli_cleanup_install();
  int rc;
  if (strcmp(cmd, "tech") == 0) {
    rc = cmd_tech(ctx, argc - 2, argv + 2);
  } else if (strcmp(cmd, "cell") == 0) {
    rc = cmd_cell(ctx, argc - 2, argv + 2);
  } else if (strcmp(cmd, "bank") == 0) {
    rc = cmd_bank(ctx, argc - 2, argv + 2);
  } else if (strcmp(cmd, "validate") == 0) {
    rc = cmd_validate(ctx, argc - 2, argv + 2);
  } else if (strcmp(cmd, "bench") == 0) {
    rc = cmd_bench(ctx, argc - 2, argv + 2);
  } else if (strcmp(cmd, "rf") == 0) {
    rc = cmd_rf(ctx, argc - 2, argv + 2);
  } else if (strcmp(cmd, "sweep") == 0) {
    rc = cmd_sweep(ctx, argc - 2, argv + 2);
  } else if (strcmp(cmd, "sim") == 0) {
    rc = cmd_sim(ctx, argc - 2, argv + 2);
  } else if (strcmp(cmd, "table") == 0) {
    rc = cmd_table(ctx, argc - 2, argv + 2);
  } else if (strcmp(cmd, "trace") == 0) {
    rc = cmd_trace(ctx, argc - 2, argv + 2);
  } else if (strcmp(cmd, "energy") == 0) {
    rc = cmd_energy(ctx, argc - 2, argv + 2);
  } else if (strcmp(cmd, "xbar") == 0) {
    rc = cmd_xbar(ctx, argc - 2, argv + 2);
  } else if (strcmp(cmd, "arbiter") == 0) {
    rc = cmd_arbiter(ctx, argc - 2, argv + 2);
  } else if (strcmp(cmd, "component") == 0) {
    rc = cmd_component(ctx, argc - 2, argv + 2);
  } else if (strcmp(cmd, "reproduce") == 0) {
    rc = cmd_reproduce(ctx, argc - 2, argv + 2);
  } else {
    fprintf(stderr, "gpurf: unknown command '%s' (see 'gpurf help')\n", cmd);
    rc = CLI_USAGE;
  }
  gpurf_ctx_free(ctx);
  return rc;
}
