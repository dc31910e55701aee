/* gpurf trace dataflow PATH: the static program of one kernel rebuilt from
 * its trace, with the register lifetimes the techniques rely on. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "gpurf/dataflow.h"
#include "gpurf/trace.h"

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

int cmd_trace_dataflow(gpurf_ctx *ctx, const cli_parsed *p) {
  out_format fmt = p->fmt;
  const char *path = p->pos[0], *v = cli_get(p, "--kernel");
  uint32_t want = 0;
  if (v) {
    char *end = NULL;
    unsigned long x = strtoul(v, &end, 10);
    if (end == v || *end || v[0] == '-' || x > UINT32_MAX) {
      cli_usage_error(p->prog, "--kernel needs a kernel index from 0, not '%s'", v);
      return CLI_USAGE;
    }
    want = (uint32_t)x;
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
    cli_errorf("%s: the trace has no kernel %u", p->prog, want);
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
    sb_printf(&out, "Kernel %s: %zu instructions, %zu blocks, %zu loops, %zu strands\n", k->name,
              ni,
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
        sb_printf(&out, "  %c %04llx %-18s ", d->strand_start ? '|' : ' ',
                  (unsigned long long)d->pc,
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
        sb_printf(&out, "  reconverges at %04llx%s; released there: ",
                  (unsigned long long)B->reconv_pc,
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
