/* Trace statistics, accumulated one record at a time. State is kept for the
 * open warp only (records of a warp are contiguous), so memory is fixed. */
#include <stdlib.h>
#include <string.h>

#include "trace/trace_internal.h"

typedef struct reg_state {
  uint64_t def;        /* instruction index of the write */
  uint64_t first_read; /* of the current value */
  uint64_t last_read;
  uint32_t reads;
  uint8_t has_value;  /* written in this warp */
  uint8_t read_undef; /* read before any write in this warp */
  uint32_t known;     /* lanes whose value is known */
  uint32_t val[GPURF_TRACE_WARP_SIZE];
} reg_state;

struct gpurf_trace_stats_acc {
  gpurf_trace_stats s;
  int in_warp, have_prev;
  uint32_t kernel, cta[3], warp;
  uint32_t kernel_nregs;   /* of the open warp's kernel; 0 unknown */
  uint32_t warp_max_reg;   /* highest register + 1 touched by the open warp */
  uint32_t inferred_regs;  /* over kernels without -nregs */
  uint64_t t;              /* instruction index within the open warp */
  uint32_t prev_mask;
  /* live-register bins of the open warp and of the whole trace */
  uint64_t w_width;
  double w_live[GPURF_TRACE_LIVE_BINS];
  uint64_t w_inst[GPURF_TRACE_LIVE_BINS];
  uint64_t g_width;
  double g_live[GPURF_TRACE_LIVE_BINS];
  uint64_t g_inst[GPURF_TRACE_LIVE_BINS];
  double live_total;
  uint64_t inst_total;
  reg_state regs[GPURF_TRACE_NUM_REGS];
};

int gpurf_trace_stats_alloc(gpurf_ctx *ctx, gpurf_trace_stats_acc **out) {
  *out = calloc(1, sizeof **out);
  if (!*out) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  (*out)->g_width = 1;
  return GPURF_OK;
}

void gpurf_trace_stats_free(gpurf_trace_stats_acc *acc) { free(acc); }

double gpurf_trace_stats_fraction(uint64_t num, uint64_t den) {
  return den ? (double)num / (double)den : 0.0;
}

static void merge_pairs(double *live, uint64_t *inst) {
  for (int i = 0; i < GPURF_TRACE_LIVE_BINS / 2; i++) {
    live[i] = live[2 * i] + live[2 * i + 1];
    inst[i] = inst[2 * i] + inst[2 * i + 1];
  }
  for (int i = GPURF_TRACE_LIVE_BINS / 2; i < GPURF_TRACE_LIVE_BINS; i++) {
    live[i] = 0;
    inst[i] = 0;
  }
}

/* Adds one register live over instruction indices [a, b] of the open warp. */
static void add_coverage(gpurf_trace_stats_acc *acc, uint64_t a, uint64_t b) {
  while (a <= b) {
    uint64_t bin = a / acc->w_width;
    uint64_t end = (bin + 1) * acc->w_width - 1;
    if (end > b) end = b;
    acc->w_live[bin] += (double)(end - a + 1);
    a = end + 1;
  }
}

static void close_value(gpurf_trace_stats_acc *acc, reg_state *r) {
  gpurf_trace_stats *s = &acc->s;
  if (r->has_value) {
    s->values++;
    s->reads_hist[r->reads < GPURF_TRACE_READS_BINS - 1 ? r->reads : GPURF_TRACE_READS_BINS - 1]++;
    if (r->reads == 1) {
      uint64_t life = r->first_read - r->def;
      int bin = life <= 3 ? (int)life - 1 : 0;
      if (life > 3) {
        bin = 3;
        for (uint64_t lim = 8; life >= lim && bin < GPURF_TRACE_LIFETIME_BINS - 1; lim *= 2) bin++;
      }
      if (bin < 0) bin = 0;
      s->lifetime_once_hist[bin]++;
    }
    if (r->reads > 0) add_coverage(acc, r->def + 1, r->last_read);
  } else if (r->read_undef) {
    add_coverage(acc, 0, r->last_read);
  }
  r->has_value = 0;
  r->read_undef = 0;
  r->reads = 0;
}

static void close_warp(gpurf_trace_stats_acc *acc) {
  if (!acc->in_warp) return;
  for (int i = 0; i < GPURF_TRACE_NUM_REGS; i++) close_value(acc, &acc->regs[i]);
  uint32_t nregs = acc->kernel_nregs ? acc->kernel_nregs : acc->warp_max_reg;
  if (!acc->kernel_nregs && acc->warp_max_reg > acc->inferred_regs)
    acc->inferred_regs = acc->warp_max_reg;
  while (acc->g_width < acc->w_width) {
    merge_pairs(acc->g_live, acc->g_inst);
    acc->g_width *= 2;
  }
  uint64_t fold = acc->g_width / acc->w_width;
  for (int i = 0; i < GPURF_TRACE_LIVE_BINS; i++) {
    if (!acc->w_inst[i]) continue;
    double live = nregs ? acc->w_live[i] / nregs : 0.0;
    acc->g_live[(uint64_t)i / fold] += live;
    acc->g_inst[(uint64_t)i / fold] += acc->w_inst[i];
    acc->live_total += live;
    acc->inst_total += acc->w_inst[i];
  }
  acc->in_warp = 0;
}

static void open_warp(gpurf_trace_stats_acc *acc, const gpurf_trace_kernel *k,
                      const gpurf_trace_inst *inst) {
  acc->in_warp = 1;
  acc->kernel = inst->kernel;
  memcpy(acc->cta, inst->cta, sizeof acc->cta);
  acc->warp = inst->warp;
  acc->kernel_nregs = k ? k->nregs : 0;
  acc->warp_max_reg = 0;
  acc->t = 0;
  acc->prev_mask = 0xffffffffu;
  acc->w_width = 1;
  memset(acc->w_live, 0, sizeof acc->w_live);
  memset(acc->w_inst, 0, sizeof acc->w_inst);
  for (int i = 0; i < GPURF_TRACE_NUM_REGS; i++) {
    acc->regs[i].has_value = 0;
    acc->regs[i].read_undef = 0;
    acc->regs[i].reads = 0;
    acc->regs[i].known = 0;
  }
  acc->s.warps++;
}

/* Uniform: one value on every active lane. Affine: value = base + lane x
 * stride on every active lane, for some stride (uniform included). */
static void classify(const uint32_t *val, uint32_t mask, int *uniform, int *affine) {
  int l0 = -1, l1 = -1;
  *uniform = 1;
  for (int l = 0; l < 32; l++) {
    if (!(mask >> l & 1)) continue;
    if (l0 < 0) l0 = l;
    else {
      if (l1 < 0) l1 = l;
      if (val[l] != val[l0]) *uniform = 0;
    }
  }
  if (*uniform || l1 < 0) {
    *affine = 1;
    return;
  }
  int32_t d = (int32_t)(val[l1] - val[l0]);
  int dl = l1 - l0;
  *affine = 0;
  if (d % dl != 0) return;
  uint32_t stride = (uint32_t)(d / dl);
  for (int l = l1; l < 32; l++)
    if ((mask >> l & 1) && val[l] != val[l0] + (uint32_t)(l - l0) * stride) return;
  *affine = 1;
}

/* SIMTight's rule (see gpurf_trace_stats): stricter than classify(), the
 * base must be aligned so that no carry reaches bit log2(32 s). */
static void classify_simtight(const uint32_t *val, uint32_t mask, int *uniform, int *affine) {
  *uniform = *affine = 0;
  if (mask != 0xFFFFFFFFu) return;
  int uni = 1;
  for (int l = 1; l < 32 && uni; l++) uni = val[l] == val[0];
  if (uni) {
    *uniform = *affine = 1;
    return;
  }
  for (uint32_t s = 1; s <= 4; s *= 2) {
    uint32_t m = 32u * s, ok = 1;
    for (uint32_t l = 0; l < 32 && ok; l++) ok = val[l] % m == l * s && val[l] / m == val[0] / m;
    if (ok) {
      *affine = 1;
      return;
    }
  }
}

int gpurf_trace_stats_add(gpurf_ctx *ctx, gpurf_trace_stats_acc *acc,
                          const gpurf_trace_kernel *k, const gpurf_trace_inst *inst) {
  if (!acc || !inst) return gpurf_fail(ctx, GPURF_EINVAL, "no accumulator or record");
  gpurf_trace_stats *s = &acc->s;
  int new_kernel = !acc->have_prev || inst->kernel != acc->kernel;
  int new_cta = new_kernel || memcmp(inst->cta, acc->cta, sizeof acc->cta) != 0;
  int new_warp = new_cta || inst->warp != acc->warp || !acc->in_warp;
  if (new_warp) {
    close_warp(acc);
    if (new_kernel) {
      s->kernels++;
      if (k && k->nregs > s->registers_per_thread) {
        s->registers_per_thread = k->nregs;
        s->registers_per_thread_inferred = 0;
      }
    }
    if (new_cta) s->ctas++;
    open_warp(acc, k, inst);
    acc->have_prev = 1;
  } else if (k && !k->nregs) {
    acc->kernel_nregs = 0; /* the reader found the kernel's count implausible */
  }
  uint64_t t = acc->t;
  if (t >= (uint64_t)GPURF_TRACE_LIVE_BINS * acc->w_width) {
    merge_pairs(acc->w_live, acc->w_inst);
    acc->w_width *= 2;
  }
  acc->w_inst[t / acc->w_width]++;

  s->warp_instructions++;
  int active = tr_popcount(inst->mask);
  s->thread_instructions += (uint64_t)active;
  if (active < 32) s->partial_mask++;
  if ((unsigned)inst->op_class < GPURF_TRACE_CLASS_COUNT) s->class_count[inst->op_class]++;
  if ((unsigned)inst->latency < GPURF_TRACE_LAT_COUNT) s->latency_count[inst->latency]++;
  if ((unsigned)inst->mem < GPURF_TRACE_MEM_COUNT) s->mem_count[inst->mem]++;
  gpurf_trace_class c;
  gpurf_trace_latency lat;
  gpurf_trace_mem mem;
  if (!gpurf_trace_classify(inst->opcode, k ? k->binary_version : 0, &c, &lat, &mem))
    s->unknown_opcodes++;
  if (inst->op_class == GPURF_TRACE_CLASS_BRANCH && strncmp(inst->opcode, "BRA", 3) == 0 &&
      inst->mask != 0 && (inst->mask & acc->prev_mask) != acc->prev_mask)
    s->divergent_branches++;
  acc->prev_mask = inst->mask;

  for (unsigned i = 0; i < inst->n_src && i < GPURF_TRACE_MAX_SRC; i++) {
    const gpurf_trace_operand *o = &inst->src[i];
    if (o->reg == GPURF_TRACE_REG_ZERO) {
      s->rz_reads++;
      continue;
    }
    s->src_operands++;
    for (unsigned j = 0; j < o->width; j++) {
      unsigned reg = o->reg + j;
      if (reg >= GPURF_TRACE_NUM_REGS) break;
      reg_state *r = &acc->regs[reg];
      s->src_regs++;
      if (reg + 1 > acc->warp_max_reg) acc->warp_max_reg = reg + 1;
      if (r->has_value) {
        if (r->reads == 0) r->first_read = t;
        r->reads++;
      } else {
        r->read_undef = 1;
        s->reads_of_undefined++;
      }
      r->last_read = t;
      if (inst->mask && (r->known & inst->mask) == inst->mask) {
        int u, a;
        classify(r->val, inst->mask, &u, &a);
        s->reads_classified++;
        s->reads_uniform += (uint64_t)u;
        s->reads_affine += (uint64_t)a;
      }
    }
  }
  unsigned vk = 0;
  for (unsigned i = 0; i < inst->n_dst && i < GPURF_TRACE_MAX_DST; i++) {
    const gpurf_trace_operand *o = &inst->dst[i];
    if (o->reg == GPURF_TRACE_REG_ZERO) continue;
    s->dst_operands++;
    for (unsigned j = 0; j < o->width; j++, vk++) {
      unsigned reg = o->reg + j;
      if (reg >= GPURF_TRACE_NUM_REGS) break;
      reg_state *r = &acc->regs[reg];
      s->dst_regs++;
      if (reg + 1 > acc->warp_max_reg) acc->warp_max_reg = reg + 1;
      close_value(acc, r);
      r->has_value = 1;
      r->def = t;
      r->reads = 0;
      if ((inst->flags & GPURF_TRACE_HAS_VALUES) && vk < GPURF_TRACE_MAX_DST_REGS) {
        for (int l = 0; l < 32; l++)
          if (inst->mask >> l & 1) r->val[l] = inst->values[vk][l];
        r->known |= inst->mask;
        if (inst->mask) {
          int u, a;
          classify(r->val, inst->mask, &u, &a);
          s->writes_classified++;
          s->writes_uniform += (uint64_t)u;
          s->writes_affine += (uint64_t)a;
          classify_simtight(r->val, inst->mask, &u, &a);
          s->writes_simtight_uniform += (uint64_t)u;
          s->writes_simtight_affine += (uint64_t)a;
          s->writes_partial += inst->mask != 0xFFFFFFFFu;
        }
      } else {
        r->known &= ~inst->mask;
      }
    }
  }
  acc->t++;
  return GPURF_OK;
}

int gpurf_trace_stats_finish(gpurf_ctx *ctx, gpurf_trace_stats_acc *acc, gpurf_trace_stats *out) {
  if (!acc || !out) return gpurf_fail(ctx, GPURF_EINVAL, "no accumulator or output");
  close_warp(acc);
  gpurf_trace_stats *s = &acc->s;
  if (acc->inferred_regs > s->registers_per_thread) {
    s->registers_per_thread = acc->inferred_regs;
    s->registers_per_thread_inferred = 1;
  }
  s->live_bin_width = acc->g_width;
  s->live_bins_used = 0;
  for (int i = 0; i < GPURF_TRACE_LIVE_BINS; i++) {
    s->live_fraction[i] = acc->g_inst[i] ? acc->g_live[i] / (double)acc->g_inst[i] : 0.0;
    if (acc->g_inst[i]) s->live_bins_used = (uint32_t)i + 1;
  }
  s->live_fraction_mean = acc->inst_total ? acc->live_total / (double)acc->inst_total : 0.0;
  *out = *s;
  return GPURF_OK;
}

int gpurf_trace_stats_reader(gpurf_ctx *ctx, gpurf_trace_reader *r, gpurf_trace_stats *out) {
  gpurf_trace_stats_acc *acc = NULL;
  gpurf_trace_inst *inst = malloc(sizeof *inst);
  if (!inst) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  int rc = gpurf_trace_stats_alloc(ctx, &acc);
  while (rc == GPURF_OK) {
    rc = gpurf_trace_next(ctx, r, inst);
    if (rc == GPURF_TRACE_END) {
      rc = gpurf_trace_stats_finish(ctx, acc, out);
      break;
    }
    if (rc == GPURF_OK) rc = gpurf_trace_stats_add(ctx, acc, gpurf_trace_reader_kernel(r), inst);
  }
  gpurf_trace_stats_free(acc);
  free(inst);
  return rc;
}

int gpurf_trace_stats_file(gpurf_ctx *ctx, const char *path, gpurf_trace_stats *out) {
  gpurf_trace_reader *r = NULL;
  int rc = gpurf_trace_reader_alloc(ctx, path, &r);
  if (rc == GPURF_OK) rc = gpurf_trace_stats_reader(ctx, r, out);
  gpurf_trace_reader_free(r);
  return rc;
}
