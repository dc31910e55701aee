/* gpurf trace stats PATH: what a trace holds, in the terms of the papers
 * that measured it (Gebhart, Jeon, Collange). */
#include <stdio.h>

#include "cli/cli.h"
#include "gpurf/trace.h"

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
  jw_str(&w, "registers_per_thread_source",
         s->registers_per_thread_inferred ? "inferred" : "header");
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
    for (uint32_t i = 0; i < s->live_bins_used; i++)
      sb_printf(o, " %.0f", 100 * s->live_fraction[i]);
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

int cmd_trace_stats(gpurf_ctx *ctx, const cli_parsed *p) {
  out_format fmt = p->fmt;
  const char *path = p->pos[0];
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
  int rc = sb_flush_stdout(&out);
  sb_free(&out);
  return rc;
}
