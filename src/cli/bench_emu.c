/* gpurf bench emu: the emulator's speed on a suite kernel, without a trace
 * and while writing a binary one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/emu_cli.h"

int cmd_bench_emu(gpurf_ctx *ctx, const cli_parsed *p) {
  cli_emu_opts o = {.kernel = "matmul", .warps = 8, .blocks = 1, .fmt = FMT_TEXT};
  long long n_runs = 3;
  if (cli_count_opt(p, "--n", 1000, &n_runs) || cli_emu_options(p, 0, &o) != CLI_OK)
    return CLI_USAGE;
  uint32_t runs = (uint32_t)n_runs;
  /* The trace goes beside the temporary files of the system and is removed. */
  const char *tmpdir = getenv("TMPDIR");
  char trace[4096];
  snprintf(trace, sizeof trace, "%s/gpurf-bench-emu-%ld.gtraceb",
           tmpdir && tmpdir[0] ? tmpdir : "/tmp", (long)getpid());
  gpurf_emu_result res = {0}, rest = {0};
  double best = 0, best_t = 0, cpu = 0, cpu_t = 0;
  for (uint32_t i = 0; i < runs; i++) {
    double s, c;
    int rc = cli_emu_run(ctx, &o, NULL, &res, NULL, &s, &c);
    if (rc != CLI_OK) return rc;
    if (i == 0 || s < best) best = s;
    if (i == 0 || c < cpu) cpu = c;
    rc = cli_emu_run(ctx, &o, trace, &rest, NULL, &s, &c);
    unlink(trace);
    if (rc != CLI_OK) return rc;
    if (i == 0 || s < best_t) best_t = s;
    if (i == 0 || c < cpu_t) cpu_t = c;
  }
  double thr = best > 0 ? (double)res.thread_instructions / best : 0;
  double wtr = best_t > 0 ? (double)rest.warp_instructions / best_t : 0;
  double wr = best > 0 ? (double)res.warp_instructions / best : 0;
  double thr_c = cpu > 0 ? (double)res.thread_instructions / cpu : 0;
  double wtr_c = cpu_t > 0 ? (double)rest.warp_instructions / cpu_t : 0;
  sbuf out;
  sb_init(&out);
  if (o.fmt == FMT_JSON) {
    jw w;
    jw_init(&w, &out);
    jw_obj_begin(&w, NULL);
    jw_str(&w, "kernel", o.kernel);
    jw_int(&w, "warps", o.warps);
    jw_int(&w, "warp_instructions", (long long)res.warp_instructions);
    jw_int(&w, "thread_instructions", (long long)res.thread_instructions);
    jw_num(&w, "simt_seconds", best);
    jw_num(&w, "thread_instructions_per_s", thr);
    jw_num(&w, "warp_instructions_per_s", wr);
    jw_num(&w, "simt_seconds_with_trace", best_t);
    jw_num(&w, "warp_instructions_per_s_with_trace", wtr);
    jw_num(&w, "simt_cpu_seconds", cpu);
    jw_num(&w, "thread_instructions_per_cpu_s", thr_c);
    jw_num(&w, "simt_cpu_seconds_with_trace", cpu_t);
    jw_num(&w, "warp_instructions_per_cpu_s_with_trace", wtr_c);
    jw_obj_end(&w);
    jw_finish(&w);
  } else {
    sb_printf(&out,
              "emu: %s on %u warps, %llu warp / %llu thread instructions (+%llu host), "
              "best of %u\n",
              o.kernel, o.warps, (unsigned long long)res.warp_instructions,
              (unsigned long long)res.thread_instructions,
              (unsigned long long)res.host_instructions, runs);
    sb_printf(&out,
              "  SIMT launches, no trace:     %.3f s, %.1f M thread instructions/s, "
              "%.2f M warp instructions/s\n",
              best, thr * 1e-6, wr * 1e-6);
    sb_printf(&out, "  SIMT launches, binary trace: %.3f s, %.2f M warp instructions/s\n", best_t,
              wtr * 1e-6);
    sb_printf(&out, "  per CPU second: %.1f M thread instructions/s without a trace, %.2f M warp "
              "instructions/s with one\n", thr_c * 1e-6, wtr_c * 1e-6);
  }
  int rc = sb_flush_stdout(&out);
  sb_free(&out);
  return rc;
}
