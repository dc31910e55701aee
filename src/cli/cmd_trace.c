/* gpurf trace stats | convert | gen | dataflow */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/emu_cli.h"
#include "gpurf/dataflow.h"
#include "gpurf/trace.h"

static const char *const trace_help =
    "usage: gpurf trace stats PATH [--format text|json]\n"
    "       gpurf trace convert IN OUT [--to text|binary]\n"
    "       gpurf trace gen --workload NAME --seed S -o OUT [--ctas C] [--warps W]\n"
    "                       [--insts N] [--no-values] [--to text|binary]\n"
    "       gpurf trace gen --list [--format text|json]\n"
    "       gpurf trace dataflow PATH [--kernel K] [--format text|json]\n"
    "       gpurf trace record (--kernel NAME | --elf FILE) -o OUT [--warps W]\n"
    "                       [--blocks B] [--size N] [--reconv markers|min-pc]\n"
    "\n"
    "PATH is an Accel-Sim kernel-N.traceg, a kernelslist.g or a directory holding\n"
    "one, or a native trace (text or binary, told apart by content).\n"
    "stats     instruction mix, operands, value usage and lifetimes (Gebhart),\n"
    "          live-register fraction over warp progress (Jeon), uniform and\n"
    "          affine vectors when the trace carries values (Collange, and\n"
    "          SIMTight's compression rule for writes)\n"
    "convert   writes IN as a native trace; OUT ending in .gtraceb, or --to binary,\n"
    "          gives the binary form, anything else the text form. OUT is replaced\n"
    "          only when the whole conversion succeeded.\n"
    "gen       writes a synthetic workload; the same seed gives the same trace.\n"
    "          --list shows the presets and the published figures they match.\n"
    "dataflow  static program of one kernel rebuilt from the trace: basic blocks,\n"
    "          last uses (release flags), reconvergence points, loop-carried\n"
    "          registers and strands.\n"
    "record    runs an RV32 program on the SIMT emulator and records a native\n"
    "          trace with per-lane values and last-use hints ('trace record --help').\n";

static int print_help(int argc) {
  fputs(trace_help, argc < 1 ? stderr : stdout);
  return argc < 1 ? CLI_USAGE : CLI_OK;
}

/* ---- stats ---- */

static double frac(uint64_t n, uint64_t d) { return gpurf_trace_stats_fraction(n, d); }

static const char *const read_labels[GPURF_TRACE_READS_BINS] = {"0", "1", "2", "3",
                                                               "4", "5", "6", "7+"};
static const char *const life_labels[GPURF_TRACE_LIFETIME_BINS] = {"1",     "2",     "3",
                                                                  "4-7",   "8-15",  "16-31",
                                                                  "32-63", "64+"};

static void stats_json(sbuf *out, const gpurf_trace_stats *s, const char *path,
                       gpurf_trace_format fmt, uint64_t mc, uint64_t mb) {
  jw w;
  jw_init(&w, out);
  jw_obj_begin(&w, NULL);
  jw_int(&w, "warp_instructions", (long long)s->warp_instructions);
  jw_int(&w, "thread_instructions", (long long)s->thread_instructions);
  jw_int(&w, "kernels", (long long)s->kernels);
  jw_int(&w, "ctas", (long long)s->ctas);
  jw_int(&w, "warps", (long long)s->warps);
  jw_int(&w, "registers_per_thread", s->registers_per_thread);
  jw_str(&w, "registers_per_thread_source", s->registers_per_thread_inferred ? "inferred" : "header");
  uint64_t n = s->warp_instructions;
  jw_obj_begin(&w, "instruction_mix");
  for (int c = 0; c < GPURF_TRACE_CLASS_COUNT; c++)
    jw_num(&w, gpurf_trace_class_name((gpurf_trace_class)c), frac(s->class_count[c], n));
  jw_obj_end(&w);
  jw_obj_begin(&w, "latency_mix");
  for (int c = 0; c < GPURF_TRACE_LAT_COUNT; c++)
    jw_num(&w, gpurf_trace_latency_name((gpurf_trace_latency)c), frac(s->latency_count[c], n));
  jw_obj_end(&w);
  jw_obj_begin(&w, "memory_mix");
  for (int c = 1; c < GPURF_TRACE_MEM_COUNT; c++)
    jw_num(&w, gpurf_trace_mem_name((gpurf_trace_mem)c), frac(s->mem_count[c], n));
  jw_obj_end(&w);
  jw_int(&w, "unknown_opcodes", (long long)s->unknown_opcodes);
  jw_num(&w, "src_operands_per_instruction", frac(s->src_operands, n));
  jw_num(&w, "src_registers_per_instruction", frac(s->src_regs, n));
  jw_num(&w, "dst_registers_per_instruction", frac(s->dst_regs, n));
  jw_int(&w, "rz_reads", (long long)s->rz_reads);
  jw_num(&w, "partial_mask_fraction", frac(s->partial_mask, n));
  jw_num(&w, "simd_efficiency", frac(s->thread_instructions, 32 * n));
  jw_int(&w, "divergent_branches", (long long)s->divergent_branches);
  jw_obj_begin(&w, "value_usage");
  jw_int(&w, "values", (long long)s->values);
  jw_arr_begin(&w, "reads_per_value");
  for (int i = 0; i < GPURF_TRACE_READS_BINS; i++) {
    jw_obj_begin(&w, NULL);
    jw_str(&w, "reads", read_labels[i]);
    jw_num(&w, "fraction", frac(s->reads_hist[i], s->values));
    jw_obj_end(&w);
  }
  jw_arr_end(&w);
  uint64_t once = s->reads_hist[1], more2 = 0;
  for (int i = 3; i < GPURF_TRACE_READS_BINS; i++) more2 += s->reads_hist[i];
  jw_num(&w, "read_once_fraction", frac(once, s->values));
  jw_num(&w, "read_more_than_twice_fraction", frac(more2, s->values));
  jw_arr_begin(&w, "read_once_lifetime");
  for (int i = 0; i < GPURF_TRACE_LIFETIME_BINS; i++) {
    jw_obj_begin(&w, NULL);
    jw_str(&w, "instructions", life_labels[i]);
    jw_num(&w, "fraction", frac(s->lifetime_once_hist[i], once));
    jw_obj_end(&w);
  }
  jw_arr_end(&w);
  uint64_t within3 = s->lifetime_once_hist[0] + s->lifetime_once_hist[1] + s->lifetime_once_hist[2];
  jw_num(&w, "read_once_within_3_fraction", frac(within3, s->values));
  jw_int(&w, "reads_of_undefined", (long long)s->reads_of_undefined);
  jw_obj_end(&w);
  jw_obj_begin(&w, "live_registers");
  jw_num(&w, "mean_fraction", s->live_fraction_mean);
  jw_int(&w, "bin_width_instructions", (long long)s->live_bin_width);
  jw_arr_begin(&w, "fraction_over_time");
  for (uint32_t i = 0; i < s->live_bins_used; i++) jw_num(&w, NULL, s->live_fraction[i]);
  jw_arr_end(&w);
  jw_obj_end(&w);
  jw_obj_begin(&w, "uniform_affine");
  jw_int(&w, "reads_classified", (long long)s->reads_classified);
  jw_num(&w, "uniform_read_fraction", frac(s->reads_uniform, s->reads_classified));
  jw_num(&w, "affine_read_fraction", frac(s->reads_affine, s->reads_classified));
  jw_int(&w, "writes_classified", (long long)s->writes_classified);
  jw_num(&w, "uniform_write_fraction", frac(s->writes_uniform, s->writes_classified));
  jw_num(&w, "affine_write_fraction", frac(s->writes_affine, s->writes_classified));
  jw_num(&w, "simtight_uniform_write_fraction",
         frac(s->writes_simtight_uniform, s->writes_classified));
  jw_num(&w, "simtight_affine_write_fraction",
         frac(s->writes_simtight_affine, s->writes_classified));
  jw_num(&w, "partial_write_fraction", frac(s->writes_partial, s->writes_classified));
  jw_obj_end(&w);
  /* Last, so the statistics above compare equal across formats. */
  jw_obj_begin(&w, "input");
  jw_str(&w, "path", path);
  jw_str(&w, "format", gpurf_trace_format_name(fmt));
  if (fmt == GPURF_TRACE_FORMAT_ACCELSIM) {
    jw_int(&w, "memcpy_count", (long long)mc);
    jw_int(&w, "memcpy_bytes", (long long)mb);
  }
  jw_obj_end(&w);
  jw_obj_end(&w);
  jw_finish(&w);
}

static void stats_text(sbuf *o, const gpurf_trace_stats *s, const char *path,
                       gpurf_trace_format fmt, uint64_t mc, uint64_t mb) {
  uint64_t n = s->warp_instructions;
  sb_printf(o, "Trace %s (%s)\n", path, gpurf_trace_format_name(fmt));
  sb_printf(o, "  kernels %llu, CTAs %llu, warps %llu, registers per thread %u\n",
            (unsigned long long)s->kernels, (unsigned long long)s->ctas,
            (unsigned long long)s->warps, s->registers_per_thread);
  sb_printf(o, "  warp instructions %llu, thread instructions %llu (SIMD efficiency %.1f%%)\n",
            (unsigned long long)n, (unsigned long long)s->thread_instructions,
            100 * frac(s->thread_instructions, 32 * n));
  if (fmt == GPURF_TRACE_FORMAT_ACCELSIM && mc)
    sb_printf(o, "  host-to-device copies %llu, %llu bytes\n", (unsigned long long)mc,
              (unsigned long long)mb);
  sb_printf(o, "\nInstruction mix\n");
  for (int c = 0; c < GPURF_TRACE_CLASS_COUNT; c++)
    if (s->class_count[c])
      sb_printf(o, "  %-10s %12llu  %6.2f%%\n", gpurf_trace_class_name((gpurf_trace_class)c),
                (unsigned long long)s->class_count[c], 100 * frac(s->class_count[c], n));
  sb_printf(o, "  latency: short %.1f%%, medium %.1f%%, long %.1f%%\n",
            100 * frac(s->latency_count[0], n), 100 * frac(s->latency_count[1], n),
            100 * frac(s->latency_count[2], n));
  if (s->unknown_opcodes)
    sb_printf(o, "  %llu instructions have opcodes outside the table (classed other)\n",
              (unsigned long long)s->unknown_opcodes);
  sb_printf(o, "\nOperands per instruction\n");
  sb_printf(o, "  source operands %.3f (32-bit register reads %.3f), register writes %.3f\n",
            frac(s->src_operands, n), frac(s->src_regs, n), frac(s->dst_regs, n));
  sb_printf(o, "  RZ operands (no register-file access) %llu\n", (unsigned long long)s->rz_reads);
  sb_printf(o, "  partial active masks %.1f%%, divergent branches %llu\n",
            100 * frac(s->partial_mask, n), (unsigned long long)s->divergent_branches);
  sb_printf(o, "\nValue usage (%llu values)\n  reads per value:", (unsigned long long)s->values);
  for (int i = 0; i < GPURF_TRACE_READS_BINS; i++)
    sb_printf(o, " %s: %.1f%%", read_labels[i], 100 * frac(s->reads_hist[i], s->values));
  uint64_t once = s->reads_hist[1];
  sb_printf(o, "\n  lifetime of values read once (instructions):");
  for (int i = 0; i < GPURF_TRACE_LIFETIME_BINS; i++)
    sb_printf(o, " %s: %.1f%%", life_labels[i], 100 * frac(s->lifetime_once_hist[i], once));
  uint64_t within3 = s->lifetime_once_hist[0] + s->lifetime_once_hist[1] + s->lifetime_once_hist[2];
  sb_printf(o, "\n  values read once within 3 instructions: %.1f%% of all values\n",
            100 * frac(within3, s->values));
  sb_printf(o, "\nLive registers: %.1f%% of the registers per thread on average\n",
            100 * s->live_fraction_mean);
  if (s->live_bins_used) {
    sb_printf(o, "  over warp progress (%llu instructions per step):",
              (unsigned long long)s->live_bin_width);
    for (uint32_t i = 0; i < s->live_bins_used; i++) sb_printf(o, " %.0f", 100 * s->live_fraction[i]);
    sb_printf(o, " (%%)\n");
  }
  if (s->writes_classified || s->reads_classified)
    sb_printf(o,
              "\nUniform/affine vectors\n  reads:  uniform %.1f%%, affine %.1f%% of %llu\n"
              "  writes: uniform %.1f%%, affine %.1f%% of %llu\n",
              100 * frac(s->reads_uniform, s->reads_classified),
              100 * frac(s->reads_affine, s->reads_classified),
              (unsigned long long)s->reads_classified,
              100 * frac(s->writes_uniform, s->writes_classified),
              100 * frac(s->writes_affine, s->writes_classified),
              (unsigned long long)s->writes_classified);
  if (s->writes_classified)
    sb_printf(o,
              "  writes, SIMTight's rule (full warps only): uniform %.1f%%, affine %.1f%%; "
              "partial-mask writes %.1f%%\n",
              100 * frac(s->writes_simtight_uniform, s->writes_classified),
              100 * frac(s->writes_simtight_affine, s->writes_classified),
              100 * frac(s->writes_partial, s->writes_classified));
  else if (!s->reads_classified)
    sb_printf(o, "\nUniform/affine vectors: the trace carries no register values\n");
}

static int parse_common(cli_args *a, out_format *fmt, const char **pos, int *npos, int maxpos) {
  for (a->pos = 0; a->pos < a->argc; a->pos++) {
    const char *v, *arg = a->argv[a->pos];
    int bad = 0;
    if (cli_is_help(arg)) {
      fputs(trace_help, stdout);
      return -1;
    } else if (cli_opt_value(a, "--format", &v, &bad)) {
      if (bad || cli_parse_format(a->prog, v, 0, fmt)) return CLI_USAGE;
    } else if (arg[0] == '-' && arg[1] != '\0') {
      cli_usage_error(a->prog, "unknown option '%s'", arg);
      return CLI_USAGE;
    } else if (*npos < maxpos) {
      pos[(*npos)++] = arg;
    } else {
      cli_usage_error(a->prog, "unexpected argument '%s'", arg);
      return CLI_USAGE;
    }
  }
  return CLI_OK;
}

static int trace_stats(gpurf_ctx *ctx, cli_args *a) {
  out_format fmt = FMT_TEXT;
  const char *path = NULL;
  int np = 0;
  int rc = parse_common(a, &fmt, &path, &np, 1);
  if (rc) return rc < 0 ? CLI_OK : rc;
  if (!path) {
    cli_usage_error(a->prog, "which trace? e.g. 'gpurf trace stats kernel-1.traceg'");
    return CLI_USAGE;
  }
  gpurf_trace_reader *r = NULL;
  gpurf_trace_stats s;
  if (gpurf_trace_reader_alloc(ctx, path, &r) != GPURF_OK ||
      gpurf_trace_stats_reader(ctx, r, &s) != GPURF_OK) {
    cli_print_error(ctx);
    gpurf_trace_reader_free(r);
    return CLI_FAIL;
  }
  uint64_t mc, mb;
  gpurf_trace_reader_memcpy(r, &mc, &mb);
  gpurf_trace_format tf = gpurf_trace_reader_format(r);
  gpurf_trace_reader_free(r);
  sbuf out;
  sb_init(&out);
  if (fmt == FMT_JSON) stats_json(&out, &s, path, tf, mc, mb);
  else stats_text(&out, &s, path, tf, mc, mb);
  rc = sb_flush_stdout(&out);
  sb_free(&out);
  return rc;
}

/* ---- convert and gen ---- */

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int parse_to(const char *prog, const char *v, gpurf_trace_format *out) {
  if (strcmp(v, "text") == 0) *out = GPURF_TRACE_FORMAT_TEXT;
  else if (strcmp(v, "binary") == 0) *out = GPURF_TRACE_FORMAT_BINARY;
  else {
    cli_usage_error(prog, "--to must be text or binary, not '%s'", v);
    return CLI_USAGE;
  }
  return CLI_OK;
}

static int trace_convert(gpurf_ctx *ctx, cli_args *a) {
  const char *pos[2] = {NULL, NULL};
  int np = 0, have_to = 0;
  gpurf_trace_format to = GPURF_TRACE_FORMAT_TEXT;
  for (a->pos = 0; a->pos < a->argc; a->pos++) {
    const char *v, *arg = a->argv[a->pos];
    int bad = 0;
    if (cli_is_help(arg)) {
      fputs(trace_help, stdout);
      return CLI_OK;
    } else if (cli_opt_value(a, "--to", &v, &bad)) {
      if (bad || parse_to(a->prog, v, &to)) return CLI_USAGE;
      have_to = 1;
    } else if (arg[0] == '-' && arg[1] != '\0') {
      cli_usage_error(a->prog, "unknown option '%s'", arg);
      return CLI_USAGE;
    } else if (np < 2) {
      pos[np++] = arg;
    } else {
      cli_usage_error(a->prog, "unexpected argument '%s'", arg);
      return CLI_USAGE;
    }
  }
  if (np < 2) {
    cli_usage_error(a->prog, "needs IN and OUT, e.g. 'gpurf trace convert DIR out.gtraceb'");
    return CLI_USAGE;
  }
  if (!have_to) to = ends_with(pos[1], ".gtraceb") ? GPURF_TRACE_FORMAT_BINARY : GPURF_TRACE_FORMAT_TEXT;
  gpurf_trace_reader *r = NULL;
  int rc = gpurf_trace_reader_alloc(ctx, pos[0], &r);
  if (rc == GPURF_OK) rc = cli_trace_copy(ctx, r, pos[1], to, NULL);
  gpurf_trace_reader_free(r);
  if (rc != GPURF_OK) {
    cli_print_error(ctx);
    return CLI_FAIL;
  }
  return CLI_OK;
}

static int parse_u32(const char *prog, const char *opt, const char *v, uint32_t max, uint32_t *out) {
  char *end = NULL;
  unsigned long long x = strtoull(v, &end, 10);
  if (end == v || *end || v[0] == '-' || x == 0 || x > max) {
    cli_usage_error(prog, "%s needs a whole number from 1 to %u, not '%s'", opt, max, v);
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

static int trace_gen(gpurf_ctx *ctx, cli_args *a) {
  gpurf_trace_gen_params p;
  memset(&p, 0, sizeof p);
  p.values = -1;
  const char *outp = NULL;
  int have_seed = 0, have_to = 0, list = 0;
  out_format fmt = FMT_TEXT;
  gpurf_trace_format to = GPURF_TRACE_FORMAT_TEXT;
  for (a->pos = 0; a->pos < a->argc; a->pos++) {
    const char *v, *arg = a->argv[a->pos];
    int bad = 0;
    if (cli_is_help(arg)) {
      fputs(trace_help, stdout);
      return CLI_OK;
    } else if (cli_opt_value(a, "--workload", &v, &bad)) {
      if (bad) return CLI_USAGE;
      p.workload = v;
    } else if (cli_opt_value(a, "--seed", &v, &bad)) {
      char *end = NULL;
      if (bad) return CLI_USAGE;
      p.seed = strtoull(v, &end, 0);
      if (end == v || *end || v[0] == '-') {
        cli_usage_error(a->prog, "--seed needs a whole number, not '%s'", v);
        return CLI_USAGE;
      }
      have_seed = 1;
    } else if (cli_opt_value(a, "--ctas", &v, &bad)) {
      if (bad || parse_u32(a->prog, "--ctas", v, 1u << 20, &p.ctas)) return CLI_USAGE;
    } else if (cli_opt_value(a, "--warps", &v, &bad)) {
      if (bad || parse_u32(a->prog, "--warps", v, 64, &p.warps)) return CLI_USAGE;
    } else if (cli_opt_value(a, "--insts", &v, &bad)) {
      if (bad || parse_u32(a->prog, "--insts", v, 1u << 30, &p.insts)) return CLI_USAGE;
    } else if (cli_opt_value(a, "--to", &v, &bad)) {
      if (bad || parse_to(a->prog, v, &to)) return CLI_USAGE;
      have_to = 1;
    } else if (cli_opt_value(a, "--output", &v, &bad) || cli_opt_value(a, "-o", &v, &bad)) {
      if (bad) return CLI_USAGE;
      outp = v;
    } else if (cli_opt_value(a, "--format", &v, &bad)) {
      if (bad || cli_parse_format(a->prog, v, 0, &fmt)) return CLI_USAGE;
    } else if (cli_is_flag(a, "--no-values")) {
      p.values = 0;
    } else if (cli_is_flag(a, "--list")) {
      list = 1;
    } else {
      cli_usage_error(a->prog, "unexpected argument '%s'", arg);
      return CLI_USAGE;
    }
  }
  if (list) return gen_list(fmt);
  if (!p.workload || !have_seed || !outp) {
    cli_usage_error(a->prog, "needs --workload NAME, --seed S and -o OUT (presets: --list)");
    return CLI_USAGE;
  }
  if (!have_to) to = ends_with(outp, ".gtraceb") ? GPURF_TRACE_FORMAT_BINARY : GPURF_TRACE_FORMAT_TEXT;
  gpurf_trace_reader *r = NULL;
  uint64_t count = 0;
  int rc = gpurf_trace_gen_alloc(ctx, &p, &r);
  if (rc == GPURF_OK) rc = cli_trace_copy(ctx, r, outp, to, &count);
  gpurf_trace_reader_free(r);
  if (rc != GPURF_OK) {
    const gpurf_error *e = gpurf_ctx_error(ctx);
    if (e->status == GPURF_ENOTFOUND)
      cli_usage_error(a->prog, "%s", e->message);
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

/* ---- dataflow ---- */

static void regset_text(sbuf *o, const gpurf_regset *s) {
  int any = 0;
  for (unsigned r = 0; r < GPURF_TRACE_NUM_REGS; r++) {
    if (!gpurf_regset_has(s, r)) continue;
    unsigned e = r;
    while (e + 1 < GPURF_TRACE_NUM_REGS && gpurf_regset_has(s, e + 1)) e++;
    if (e == r) sb_printf(o, "%sR%u", any ? " " : "", r);
    else sb_printf(o, "%sR%u-R%u", any ? " " : "", r, e);
    any = 1;
    r = e;
  }
  if (!any) sb_printf(o, "-");
}

static void regset_json(jw *w, const char *key, const gpurf_regset *s) {
  jw_arr_begin(w, key);
  for (unsigned r = 0; r < GPURF_TRACE_NUM_REGS; r++)
    if (gpurf_regset_has(s, r)) jw_int(w, NULL, r);
  jw_arr_end(w);
}

static void operand_text(sbuf *o, const gpurf_trace_operand *op) {
  if (op->reg == GPURF_TRACE_REG_ZERO) sb_printf(o, "RZ");
  else if (op->width > 1) sb_printf(o, "R%u:%u", op->reg, op->width);
  else sb_printf(o, "R%u", op->reg);
}

static const char *const strand_reason[] = {"entry", "long_latency", "backward_target",
                                            "after_backward_branch", "join"};

static int trace_dataflow(gpurf_ctx *ctx, cli_args *a) {
  out_format fmt = FMT_TEXT;
  const char *path = NULL;
  uint32_t want = 0;
  for (a->pos = 0; a->pos < a->argc; a->pos++) {
    const char *v, *arg = a->argv[a->pos];
    int bad = 0;
    if (cli_is_help(arg)) {
      fputs(trace_help, stdout);
      return CLI_OK;
    } else if (cli_opt_value(a, "--format", &v, &bad)) {
      if (bad || cli_parse_format(a->prog, v, 0, &fmt)) return CLI_USAGE;
    } else if (cli_opt_value(a, "--kernel", &v, &bad)) {
      char *end = NULL;
      if (bad) return CLI_USAGE;
      unsigned long x = strtoul(v, &end, 10);
      if (end == v || *end || v[0] == '-' || x > UINT32_MAX) {
        cli_usage_error(a->prog, "--kernel needs a kernel index from 0, not '%s'", v);
        return CLI_USAGE;
      }
      want = (uint32_t)x;
    } else if (arg[0] == '-' && arg[1] != '\0') {
      cli_usage_error(a->prog, "unknown option '%s'", arg);
      return CLI_USAGE;
    } else if (!path) {
      path = arg;
    } else {
      cli_usage_error(a->prog, "unexpected argument '%s'", arg);
      return CLI_USAGE;
    }
  }
  if (!path) {
    cli_usage_error(a->prog, "which trace?");
    return CLI_USAGE;
  }
  gpurf_trace_reader *r = NULL;
  gpurf_dataflow *df = NULL;
  gpurf_trace_inst *inst = malloc(sizeof *inst);
  gpurf_trace_kernel *k = malloc(sizeof *k);
  int seen = 0;
  int rc = inst && k ? gpurf_trace_reader_alloc(ctx, path, &r) : GPURF_ENOMEM;
  if (rc == GPURF_OK) rc = gpurf_dataflow_alloc(ctx, &df);
  while (rc == GPURF_OK) {
    rc = gpurf_trace_next(ctx, r, inst);
    if (rc == GPURF_TRACE_END || (rc == GPURF_OK && inst->kernel > want)) {
      rc = GPURF_OK;
      break;
    }
    if (rc == GPURF_OK && inst->kernel == want) {
      if (!seen) *k = *gpurf_trace_reader_kernel(r);
      seen = 1;
      rc = gpurf_dataflow_add(ctx, df, inst);
    }
  }
  if (rc == GPURF_OK && !seen) {
    fprintf(stderr, "%s: the trace has no kernel %u\n", a->prog, want);
    gpurf_trace_reader_free(r);
    gpurf_dataflow_free(df);
    free(inst);
    free(k);
    return CLI_FAIL;
  }
  if (rc == GPURF_OK) rc = gpurf_dataflow_analyze(ctx, df);
  gpurf_trace_reader_free(r);
  free(inst);
  if (rc != GPURF_OK) {
    if (rc == GPURF_ENOMEM && !k) fprintf(stderr, "gpurf: out of memory\n");
    else cli_print_error(ctx);
    gpurf_dataflow_free(df);
    free(k);
    return CLI_FAIL;
  }
  size_t ni = gpurf_dataflow_inst_count(df), nb = gpurf_dataflow_block_count(df);
  size_t nl = gpurf_dataflow_loop_count(df);
  sbuf out;
  sb_init(&out);
  if (fmt == FMT_JSON) {
    jw w;
    jw_init(&w, &out);
    jw_obj_begin(&w, NULL);
    jw_str(&w, "kernel", k->name);
    jw_int(&w, "kernel_index", want);
    jw_int(&w, "registers_per_thread", k->nregs);
    jw_int(&w, "strands", (long long)gpurf_dataflow_strand_count(df));
    jw_arr_begin(&w, "instructions");
    for (size_t i = 0; i < ni; i++) {
      const gpurf_dataflow_inst *d = gpurf_dataflow_inst_at(df, i);
      jw_obj_begin(&w, NULL);
      jw_int(&w, "pc", (long long)d->pc);
      jw_str(&w, "opcode", d->opcode);
      jw_int(&w, "block", d->block);
      jw_int(&w, "executions", (long long)d->executions);
      jw_arr_begin(&w, "last_use_operands");
      for (unsigned s = 0; s < d->n_src; s++)
        if (d->last_use >> s & 1) jw_int(&w, NULL, s);
      jw_arr_end(&w);
      jw_int(&w, "strand", d->strand);
      jw_arr_begin(&w, "strand_start");
      for (unsigned b = 0; b < 5; b++)
        if (d->strand_start >> b & 1) jw_str(&w, NULL, strand_reason[b]);
      jw_arr_end(&w);
      jw_bool(&w, "strand_end", d->strand_end);
      regset_json(&w, "live_out", &d->live_out);
      jw_obj_end(&w);
    }
    jw_arr_end(&w);
    jw_arr_begin(&w, "blocks");
    for (size_t b = 0; b < nb; b++) {
      const gpurf_dataflow_block *B = gpurf_dataflow_block_at(df, b);
      const uint32_t *succ;
      size_t ns = gpurf_dataflow_succ(df, b, &succ);
      jw_obj_begin(&w, NULL);
      jw_int(&w, "start_pc", (long long)B->start_pc);
      jw_int(&w, "instructions", B->count);
      jw_arr_begin(&w, "successors");
      for (size_t s = 0; s < ns; s++) jw_int(&w, NULL, succ[s]);
      jw_arr_end(&w);
      jw_bool(&w, "loop_header", B->loop_header);
      if (B->reconv >= 0) {
        jw_int(&w, "reconvergence_pc", (long long)B->reconv_pc);
        jw_bool(&w, "divergent", B->divergent);
        regset_json(&w, "release_at_reconvergence", &B->release_at_reconv);
      }
      regset_json(&w, "live_in", &B->live_in);
      jw_obj_end(&w);
    }
    jw_arr_end(&w);
    jw_arr_begin(&w, "loops");
    for (size_t l = 0; l < nl; l++) {
      const gpurf_dataflow_loop *L = gpurf_dataflow_loop_at(df, l);
      jw_obj_begin(&w, NULL);
      jw_int(&w, "header_pc", (long long)gpurf_dataflow_block_at(df, L->header)->start_pc);
      jw_int(&w, "latch_block", L->latch);
      regset_json(&w, "carried", &L->carried);
      jw_obj_end(&w);
    }
    jw_arr_end(&w);
    jw_obj_end(&w);
    jw_finish(&w);
  } else {
    sb_printf(&out, "Kernel %s: %zu instructions, %zu blocks, %zu loops, %zu strands\n", k->name, ni,
              nb, nl, gpurf_dataflow_strand_count(df));
    sb_printf(&out, "('*' marks a last use: the register may be released after the read)\n");
    for (size_t b = 0; b < nb; b++) {
      const gpurf_dataflow_block *B = gpurf_dataflow_block_at(df, b);
      const uint32_t *succ;
      size_t ns = gpurf_dataflow_succ(df, b, &succ);
      sb_printf(&out, "\nblock %zu%s -> ", b, B->loop_header ? " (loop header)" : "");
      for (size_t s = 0; s < ns; s++) sb_printf(&out, "%s%u", s ? "," : "", succ[s]);
      if (!ns) sb_printf(&out, "exit");
      sb_printf(&out, "; live in: ");
      regset_text(&out, &B->live_in);
      sb_printf(&out, "\n");
      for (uint32_t i = B->first; i < B->first + B->count; i++) {
        const gpurf_dataflow_inst *d = gpurf_dataflow_inst_at(df, i);
        sb_printf(&out, "  %c %04llx %-18s ", d->strand_start ? '|' : ' ', (unsigned long long)d->pc,
                  d->opcode);
        for (unsigned s = 0; s < d->n_dst; s++) {
          if (s) sb_printf(&out, ",");
          operand_text(&out, &d->dst[s]);
        }
        sb_printf(&out, "%s", d->n_dst ? " <- " : "<- ");
        for (unsigned s = 0; s < d->n_src; s++) {
          if (s) sb_printf(&out, ", ");
          operand_text(&out, &d->src[s]);
          if (d->last_use >> s & 1) sb_printf(&out, "*");
        }
        sb_printf(&out, "   [strand %u", d->strand);
        for (unsigned rb = 0; rb < 5; rb++)
          if (d->strand_start >> rb & 1) sb_printf(&out, ", starts: %s", strand_reason[rb]);
        sb_printf(&out, "]\n");
      }
      if (B->reconv >= 0) {
        sb_printf(&out, "  reconverges at %04llx%s; released there: ", (unsigned long long)B->reconv_pc,
                  B->divergent ? " (seen diverging)" : "");
        regset_text(&out, &B->release_at_reconv);
        sb_printf(&out, "\n");
      }
    }
    for (size_t l = 0; l < nl; l++) {
      const gpurf_dataflow_loop *L = gpurf_dataflow_loop_at(df, l);
      sb_printf(&out, "\nloop at %04llx (back edge from block %u), loop-carried: ",
                (unsigned long long)gpurf_dataflow_block_at(df, L->header)->start_pc, L->latch);
      regset_text(&out, &L->carried);
      sb_printf(&out, "\n");
    }
  }
  gpurf_dataflow_free(df);
  free(k);
  rc = sb_flush_stdout(&out);
  sb_free(&out);
  return rc;
}

int cmd_trace(gpurf_ctx *ctx, int argc, char **argv) {
  if (argc < 1 || cli_is_help(argv[0])) return print_help(argc);
  cli_args a = {argc - 1, argv + 1, 0, NULL};
  if (strcmp(argv[0], "stats") == 0) {
    a.prog = "gpurf trace stats";
    return trace_stats(ctx, &a);
  }
  if (strcmp(argv[0], "convert") == 0) {
    a.prog = "gpurf trace convert";
    return trace_convert(ctx, &a);
  }
  if (strcmp(argv[0], "gen") == 0) {
    a.prog = "gpurf trace gen";
    return trace_gen(ctx, &a);
  }
  if (strcmp(argv[0], "dataflow") == 0) {
    a.prog = "gpurf trace dataflow";
    return trace_dataflow(ctx, &a);
  }
  if (strcmp(argv[0], "record") == 0) {
    a.prog = "gpurf trace record";
    return cli_trace_record(ctx, &a);
  }
  fprintf(stderr, "gpurf trace: unknown subcommand '%s' (stats, convert, gen, dataflow or record)\n",
          argv[0]);
  return CLI_USAGE;
}
