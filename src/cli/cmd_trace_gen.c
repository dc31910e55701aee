/* gpurf trace gen: a synthetic workload written as a native trace; the
 * presets and what they were fitted to with --list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/emu_cli.h"
#include "gpurf/trace.h"

/* A whole number in 1..max into *out when the option is given. */
static int parse_u32(const cli_parsed *p, const char *opt, uint32_t max, uint32_t *out) {
  const char *v = cli_get(p, opt);
  if (!v) return CLI_OK;
  char *end = NULL;
  unsigned long long x = strtoull(v, &end, 10);
  if (end == v || *end || v[0] == '-' || x == 0 || x > max) {
    cli_usage_error(p->prog, "%s needs a whole number from 1 to %u, not '%s'", opt, max, v);
    return CLI_USAGE;
  }
  *out = (uint32_t)x;
  return CLI_OK;
}

static int gen_list(out_format fmt) {
  sbuf out;
  sb_init(&out);
  const gpurf_trace_preset_info *p = gpurf_trace_gen_presets();
  if (fmt == FMT_JSON) {
    jw w;
    jw_init(&w, &out);
    jw_arr_begin(&w, NULL);
    for (; p->name; p++) {
      jw_obj_begin(&w, NULL);
      jw_str(&w, "name", p->name);
      jw_str(&w, "summary", p->summary);
      jw_str(&w, "fitted_to", p->fitted_to);
      jw_obj_end(&w);
    }
    cli_emu_suite_json(&w);
    jw_arr_end(&w);
    jw_finish(&w);
  } else {
    for (; p->name; p++)
      sb_printf(&out, "%s\n  %s\n  fitted to: %s\n", p->name, p->summary, p->fitted_to);
    cli_emu_suite_text(&out);
  }
  int rc = sb_flush_stdout(&out);
  sb_free(&out);
  return rc;
}

int cmd_trace_gen(gpurf_ctx *ctx, const cli_parsed *p) {
  gpurf_trace_gen_params g;
  memset(&g, 0, sizeof g);
  g.values = cli_get(p, "--no-values") ? 0 : -1;
  g.workload = cli_get(p, "--workload");
  const char *outp = cli_get(p, "--output");
  out_format fmt = p->fmt;
  if (cli_seed_opt(p, "--seed", &g.seed) || parse_u32(p, "--ctas", 1u << 20, &g.ctas) ||
      parse_u32(p, "--warps", 64, &g.warps) || parse_u32(p, "--insts", 1u << 30, &g.insts))
    return CLI_USAGE;
  if (cli_get(p, "--list")) return gen_list(fmt);
  if (!g.workload || !cli_get(p, "--seed") || !outp) {
    cli_usage_error(p->prog, "needs --workload NAME, --seed S and -o OUT (presets: --list)");
    return CLI_USAGE;
  }
  gpurf_trace_format to = cli_trace_form(cli_get(p, "--to"), outp);
  gpurf_trace_reader *r = NULL;
  uint64_t count = 0;
  int rc = gpurf_trace_gen_alloc(ctx, &g, &r);
  if (rc == GPURF_OK && cli_output_file_ok(outp) != CLI_OK) {
    gpurf_trace_reader_free(r);
    return CLI_FAIL;
  }
  if (rc == GPURF_OK) rc = cli_trace_copy(ctx, r, outp, to, &count);
  gpurf_trace_reader_free(r);
  if (rc != GPURF_OK) {
    const gpurf_error *e = gpurf_ctx_error(ctx);
    if (e->status == GPURF_ENOTFOUND)
      cli_usage_error(p->prog, "%s", e->message);
    else
      cli_print_error(ctx);
    return e->status == GPURF_ENOTFOUND ? CLI_USAGE : CLI_FAIL;
  }
  sbuf out;
  sb_init(&out);
  sb_printf(&out, "wrote %llu warp instructions to %s\n", (unsigned long long)count, outp);
  rc = sb_flush_stdout(&out);
  sb_free(&out);
  return rc;
}
