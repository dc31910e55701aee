/* gpurf trace record: runs an RV32 program (a kernel of the suite or an
 * ELF) on the SIMT emulator and writes a native trace with per-lane
 * destination values and last-use hints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/emu_cli.h"

#ifndef GPURF_RISCV_KERNEL_DIR
#define GPURF_RISCV_KERNEL_DIR ""
#endif

/* A whole number in 1..max into *out when the option is given. */
static int emu_count(const cli_parsed *p, const char *name, long long max, uint32_t *out) {
  long long n = 0;
  if (cli_count_opt(p, name, max, &n) != CLI_OK) return CLI_USAGE;
  if (n) *out = (uint32_t)n;
  return CLI_OK;
}

int cli_emu_options(const cli_parsed *p, int with_output, cli_emu_opts *o) {
  long long steps = 0;
  o->kernel = cli_get(p, "--kernel") ? cli_get(p, "--kernel") : o->kernel;
  if (with_output) {
    o->elf = cli_get(p, "--elf");
    o->out = cli_get(p, "--output");
  }
  if (emu_count(p, "--warps", GPURF_EMU_MAX_WARPS, &o->warps) ||
      emu_count(p, "--blocks", GPURF_EMU_MAX_WARPS, &o->blocks) ||
      emu_count(p, "--size", 1LL << 24, &o->size) ||
      cli_count_opt(p, "--step-limit", 1LL << 50, &steps))
    return CLI_USAGE;
  if (steps) o->step_limit = (uint64_t)steps;
  /* The parser has checked the rule's name. */
  const char *rule = cli_get(p, "--reconv");
  if (rule)
    o->rule = strcmp(rule, "min-pc") == 0 ? GPURF_EMU_RECONV_MINPC : GPURF_EMU_RECONV_MARKERS;
  o->fmt = p->fmt;
  if (o->warps % o->blocks) {
    cli_usage_error(p->prog, "--blocks %u does not divide --warps %u", o->blocks, o->warps);
    return CLI_USAGE;
  }
  return CLI_OK;
}

typedef struct launch_clock {
  struct timespec t0, c0;
  double simt_s, cpu_s;
} launch_clock;

static double diff_s(struct timespec a, struct timespec b) {
  return (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
}

/* Wall time spent in SIMT launches (recording included), for bench emu. */
static void on_launch(void *user, int begin) {
  launch_clock *c = user;
  struct timespec t, cpu;
  clock_gettime(CLOCK_MONOTONIC, &t);
  /* CPU time too: on a shared machine the wall clock also counts waiting */
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
  if (begin) {
    c->t0 = t, c->c0 = cpu;
  } else {
    c->simt_s += diff_s(c->t0, t);
    c->cpu_s += diff_s(c->c0, cpu);
  }
}

static void put_u32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

int cli_emu_run(gpurf_ctx *ctx, const cli_emu_opts *o, const char *trace_path,
                gpurf_emu_result *res, char **output, double *seconds, double *cpu_seconds) {
  char path[4096];
  /* "-" is standard input; the ELF loader takes paths, and /dev/stdin is the
   * one that names it (the file is read once). */
  const char *elf = o->elf && !strcmp(o->elf, "-") ? "/dev/stdin" : o->elf;
  if (o->kernel) {
    /* $GPURF_KERNEL_DIR, then an installation's data directory, then the
     * build tree the command comes from. */
    char dirs[3][1024];
    const char *env = getenv("GPURF_KERNEL_DIR");
    const char *data = gpurf_ctx_data_dir(ctx);
    int nd = 0, found = 0;
    if (env && env[0]) snprintf(dirs[nd++], sizeof dirs[0], "%s", env);
    if (data && data[0]) snprintf(dirs[nd++], sizeof dirs[0], "%s/riscv", data);
    if (GPURF_RISCV_KERNEL_DIR[0])
      snprintf(dirs[nd++], sizeof dirs[0], "%s", GPURF_RISCV_KERNEL_DIR);
    for (int i = 0; i < nd && !found; i++) {
      if (snprintf(path, sizeof path, "%s/%.64s.elf", dirs[i], o->kernel) >= (int)sizeof path)
        continue;
      FILE *f = fopen(path, "rb");
      if (f) fclose(f), found = 1;
    }
    if (!found) {
      cli_errorf("gpurf: kernel '%s' not found (looked in $GPURF_KERNEL_DIR, DATADIR/riscv and "
                 "the build tree; the suite is built when riscv64-unknown-elf-gcc is installed, "
                 "see docs/workloads.md)",
                 o->kernel);
      return CLI_FAIL;
    }
    elf = path;
  }
  uint8_t in[12];
  put_u32(in, o->size);
  put_u32(in + 4, o->warps);
  put_u32(in + 8, o->blocks);
  gpurf_emu_config cfg = {.warps = o->warps, .reconv = o->rule, .step_limit = o->step_limit,
                          .uart_in = in, .uart_in_len = sizeof in};
  gpurf_emu *e = NULL;
  gpurf_trace_writer *w = NULL;
  gpurf_trace_recorder *rec = NULL;
  int status = CLI_FAIL, slot = -1;
  if (trace_path && cli_output_file_ok(trace_path) != CLI_OK) return CLI_FAIL;
  int rc = gpurf_emu_alloc(ctx, &cfg, &e);
  if (rc == GPURF_OK) rc = gpurf_emu_load_elf(ctx, e, elf);
  if (rc == GPURF_OK && trace_path) {
    gpurf_trace_format f = cli_ends_with(trace_path, ".gtrace") ? GPURF_TRACE_FORMAT_TEXT
                                                            : GPURF_TRACE_FORMAT_BINARY;
    cli_cleanup_mask mask;
    cli_cleanup_hold(&mask);
    rc = gpurf_trace_writer_alloc(ctx, trace_path, f, &w);
    if (rc == GPURF_OK) slot = cli_cleanup_add(gpurf_trace_writer_tmp_path(w));
    cli_cleanup_release(&mask);
    const char *name = o->kernel ? o->kernel : elf;
    const char *slash = strrchr(name, '/');
    if (rc == GPURF_OK) rc = gpurf_trace_recorder_alloc(ctx, e, w, slash ? slash + 1 : name, &rec);
  }
  launch_clock clk = {.simt_s = 0, .cpu_s = 0};
  if (e) gpurf_emu_set_launch_hook(e, on_launch, &clk);
  if (rc == GPURF_OK) rc = gpurf_emu_run(ctx, e, res);
  if (seconds) *seconds = clk.simt_s;
  if (cpu_seconds) *cpu_seconds = clk.cpu_s;
  if (rc != GPURF_OK) {
    cli_print_error(ctx);
    goto done;
  }
  if (res->exit_code != 0 || res->kernel_failures) {
    size_t len;
    const char *text = gpurf_emu_output(e, &len);
    fprintf(stderr, "%s: the program's self-check failed (exit code %u)%s%.*s", elf,
            res->exit_code, len ? "; its output:\n" : "\n", (int)len, text);
    goto done;
  }
  /* Only a complete, self-checked run leaves a trace behind. */
  if (w && gpurf_trace_writer_commit(ctx, w) != GPURF_OK) {
    cli_print_error(ctx);
    goto done;
  }
  if (output) {
    size_t len;
    const char *text = gpurf_emu_output(e, &len);
    *output = malloc(len + 1);
    if (*output) memcpy(*output, text, len + 1);
  }
  status = CLI_OK;
done:
  gpurf_trace_recorder_free(rec);
  gpurf_trace_writer_free(w);
  cli_cleanup_remove(slot);
  gpurf_emu_free(e);
  return status;
}

int cmd_trace_record(gpurf_ctx *ctx, const cli_parsed *p) {
  cli_emu_opts o = {.warps = 4, .blocks = 1, .fmt = FMT_TEXT};
  if (cli_emu_options(p, 1, &o) != CLI_OK) return CLI_USAGE;
  if (!o.kernel == !o.elf || !o.out) {
    cli_usage_error(p->prog, "needs --kernel NAME or --elf FILE, and -o OUT");
    return CLI_USAGE;
  }
  gpurf_emu_result res;
  char *text = NULL;
  int rc = cli_emu_run(ctx, &o, o.out, &res, &text, NULL, NULL);
  if (rc != CLI_OK) return rc;
  sbuf out;
  sb_init(&out);
  const char *name = o.kernel ? o.kernel : o.elf;
  double lanes = res.warp_instructions
                     ? (double)res.thread_instructions / (double)res.warp_instructions
                     : 0.0;
  if (o.fmt == FMT_JSON) {
    jw w;
    jw_init(&w, &out);
    jw_obj_begin(&w, NULL);
    jw_str(&w, "program", name);
    jw_str(&w, "trace", o.out);
    jw_int(&w, "warps", o.warps);
    jw_int(&w, "blocks", o.blocks);
    jw_int(&w, "launches", res.kernels);
    jw_int(&w, "warp_instructions", (long long)res.warp_instructions);
    jw_int(&w, "thread_instructions", (long long)res.thread_instructions);
    jw_int(&w, "divergent_warp_instructions", (long long)res.divergent_steps);
    jw_num(&w, "mean_active_lanes", lanes);
    jw_int(&w, "host_instructions", (long long)res.host_instructions);
    jw_str(&w, "output", text ? text : "");
    jw_obj_end(&w);
    jw_finish(&w);
  } else {
    sb_printf(&out, "%s: %u launch(es) on %u warps x 32 lanes, %u resident block(s)\n", name,
              res.kernels, o.warps, o.blocks);
    sb_printf(&out, "  SIMT warp instructions   %llu (%llu with a partial mask)\n",
              (unsigned long long)res.warp_instructions, (unsigned long long)res.divergent_steps);
    sb_printf(&out, "  SIMT thread instructions %llu (%.2f active lanes on average)\n",
              (unsigned long long)res.thread_instructions, lanes);
    sb_printf(&out, "  host instructions        %llu\n", (unsigned long long)res.host_instructions);
    if (text && text[0]) sb_printf(&out, "  program output: %s%s", text,
                                   text[strlen(text) - 1] == '\n' ? "" : "\n");
    sb_printf(&out, "trace written to %s\n", o.out);
  }
  free(text);
  rc = sb_flush_stdout(&out);
  sb_free(&out);
  return rc;
}

void cli_emu_suite_text(sbuf *out) {
  sb_printf(out, "\nRV32 kernel suite (real programs on the SIMT emulator; record with\n"
                 "'gpurf trace record --kernel NAME -o OUT'):\n");
  for (const gpurf_emu_kernel_info *k = gpurf_emu_suite(); k->name; k++)
    sb_printf(out, "riscv/%s\n  %s\n  stresses: %s\n", k->name, k->summary, k->stresses);
}

void cli_emu_suite_json(jw *w) {
  for (const gpurf_emu_kernel_info *k = gpurf_emu_suite(); k->name; k++) {
    char name[64], cmd[128];
    snprintf(name, sizeof name, "riscv/%s", k->name);
    snprintf(cmd, sizeof cmd, "gpurf trace record --kernel %s", k->name);
    jw_obj_begin(w, NULL);
    jw_str(w, "name", name);
    jw_str(w, "summary", k->summary);
    jw_str(w, "stresses", k->stresses);
    jw_str(w, "recorded_with", cmd);
    jw_obj_end(w);
  }
}
