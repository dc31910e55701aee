/* gpurf: GPU register-file power, area and timing. */
#include <limits.h>

#define CLI_PATH_MAX 4096
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#ifndef GPURF_SOURCE_DATA_DIR
#define GPURF_SOURCE_DATA_DIR ""
#endif

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

/* gpurf help [COMMAND] | gpurf help --format text|json. */
static int help(int argc, char **argv) {
  const char *fmt = NULL;
  if (argc == 2 && strcmp(argv[0], "--format") == 0) fmt = argv[1];
  if (argc == 1 && strncmp(argv[0], "--format=", 9) == 0) fmt = argv[0] + 9;
  if (fmt && strcmp(fmt, "json") == 0) return cli_help_json();
  if (fmt && strcmp(fmt, "text") != 0) {
    cli_usage_error("gpurf help", "--format must be text or json, not '%s'", fmt);
    return CLI_USAGE;
  }
  if (argc == 0 || fmt || (argc == 1 && cli_is_help(argv[0]))) {
    cli_help_all(stdout);
    return CLI_OK;
  }
  /* A command: its name may be two words. */
  char name[128];
  snprintf(name, sizeof name, "%s%s%s", argv[0], argc > 1 ? " " : "", argc > 1 ? argv[1] : "");
  for (const cli_command *c = cli_commands; c->name && argc <= 2; c++)
    if (strcmp(c->name, name) == 0) {
      cli_help_command(stdout, c);
      return CLI_OK;
    }
  for (const cli_group *g = cli_groups; g->name && argc == 1; g++)
    if (strcmp(g->name, argv[0]) == 0) {
      cli_help_group(stdout, g);
      return CLI_OK;
    }
  cli_errorf("gpurf help: no command '%s' (see 'gpurf help')", name);
  return CLI_USAGE;
}

/* The command line runs simulations and models one after another (a sweep,
 * a reproduction, several traces, a benchmark's repetitions), each
 * allocating and freeing some megabytes. By default glibc hands freed
 * memory at the top of its heap back to the system and maps large blocks
 * apart, so the next run takes a page fault (and a zeroed page) for every
 * 4 KiB again: a few percent of a simulation. The program keeps what it
 * freed instead (a process setting, so the CLI's and not the library's). */
static void keep_freed_memory(void) {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024); /* glibc's largest: blocks below it come from the heap */
  mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
#endif
}

int main(int argc, char **argv) {
  keep_freed_memory();
  if (argc < 2) {
    cli_help_all(stderr);
    return CLI_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
    printf("gpurf %s\n", gpurf_version());
    return CLI_OK;
  }
  if (strcmp(cmd, "help") == 0 || cli_is_help(cmd)) return help(argc - 2, argv + 2);
  gpurf_ctx *ctx = gpurf_ctx_alloc();
  if (!ctx) {
    fprintf(stderr, "gpurf: out of memory\n");
    return CLI_FAIL;
  }
  resolve_data_dir(ctx);
  cli_install_warnings(ctx);
  cli_cleanup_install();
  int rc = cli_dispatch(ctx, argc - 1, argv + 1);
  gpurf_ctx_free(ctx);
  return rc;
}
