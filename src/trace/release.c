/* Release flags (Jeon et al., Sec. 6.2) from a kernel's dataflow: pir
 * meta instructions per basic block, pbr meta instructions at
 * reconvergence points, value lifetimes and the renaming exemptions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "gpurf/release.h"

typedef struct pc_index {
  uint64_t pc;
  uint32_t i;
} pc_index;

struct gpurf_release {
  size_t n;
  gpurf_release_inst *inst;
  pc_index *by_pc; /* sorted by pc */
  gpurf_release_counts counts;
  gpurf_regset used;
  double life_sum[GPURF_TRACE_NUM_REGS];
  unsigned instances[GPURF_TRACE_NUM_REGS];
};

static void rs_add(gpurf_regset *s, unsigned r) {
  if (r < GPURF_TRACE_NUM_REGS) s->w[r >> 6] |= (uint64_t)1 << (r & 63);
}

static unsigned rs_count(const gpurf_regset *s) {
  unsigned n = 0;
  for (int i = 0; i < 4; i++) n += (unsigned)__builtin_popcountll(s->w[i]);
  return n;
}

static void rs_union(gpurf_regset *d, const gpurf_regset *s) {
  for (int i = 0; i < 4; i++) d->w[i] |= s->w[i];
}

static void op_regs(gpurf_regset *s, const gpurf_trace_operand *o) {
  if (o->reg == GPURF_TRACE_REG_ZERO) return;
  for (unsigned j = 0; j < o->width; j++) rs_add(s, o->reg + j);
}

static int cmp_pc(const void *a, const void *b) {
  uint64_t x = ((const pc_index *)a)->pc, y = ((const pc_index *)b)->pc;
  return x < y ? -1 : x > y;
}

/* Per-instruction flags: pir ranges restart at every block start and
 * every GPURF_RELEASE_PIR_INSTS instructions; pbr sets go to the first
 * instruction of each reconvergence block. */
static void build_flags(gpurf_release *rel, const gpurf_dataflow *df) {
  uint32_t pir = 0;
  for (size_t b = 0; b < gpurf_dataflow_block_count(df); b++) {
    const gpurf_dataflow_block *B = gpurf_dataflow_block_at(df, b);
    for (uint32_t k = 0; k < B->count; k++) {
      gpurf_release_inst *r = &rel->inst[B->first + k];
      if (k % GPURF_RELEASE_PIR_INSTS == 0) {
        r->pir_start = 1;
        r->pir = pir++;
      } else {
        r->pir = pir - 1;
      }
      const gpurf_dataflow_inst *d = gpurf_dataflow_inst_at(df, B->first + k);
      for (unsigned s = 0; s < d->n_src; s++)
        if (d->last_use >> s & 1) op_regs(&r->after_read, &d->src[s]);
    }
  }
  rel->counts.static_pir = pir;
  for (size_t b = 0; b < gpurf_dataflow_block_count(df); b++) {
    const gpurf_dataflow_block *B = gpurf_dataflow_block_at(df, b);
    if (B->reconv < 0) continue; /* paths meet only at the exit: the warp's end frees them */
    const gpurf_dataflow_block *R = gpurf_dataflow_block_at(df, (size_t)B->reconv);
    rs_union(&rel->inst[R->first].at_entry, &B->release_at_reconv);
  }
  for (size_t i = 0; i < rel->n; i++) {
    gpurf_release_inst *r = &rel->inst[i];
    unsigned k = rs_count(&r->at_entry);
    r->pbr_count = (uint8_t)((k + GPURF_RELEASE_PBR_REGS - 1) / GPURF_RELEASE_PBR_REGS);
    const gpurf_dataflow_inst *d = gpurf_dataflow_inst_at(df, i);
    rel->counts.static_pbr += r->pbr_count;
    rel->counts.pbr_regs += k;
    rel->counts.dynamic_insts += d->executions;
    rel->counts.dynamic_pir += r->pir_start ? d->executions : 0;
    rel->counts.dynamic_pbr += (uint64_t)r->pbr_count * d->executions;
  }
  rel->counts.static_insts = rel->n;
}

/* Layout-order distance from position `from` to the flag that releases
 * reg (or its next write, or the end of the code). */
static double lifetime_from(const gpurf_release *rel, const gpurf_dataflow *df, size_t from,
                            unsigned reg, int include_from) {
  for (size_t j = include_from ? from : from + 1; j < rel->n; j++) {
    const gpurf_release_inst *r = &rel->inst[j];
    if (gpurf_regset_has(&r->at_entry, reg)) return (double)(j - from);
    if (gpurf_regset_has(&r->after_read, reg)) return (double)(j - from);
    const gpurf_dataflow_inst *d = gpurf_dataflow_inst_at(df, j);
    for (unsigned s = 0; s < d->n_dst; s++) {
      gpurf_regset w = {{0, 0, 0, 0}};
      op_regs(&w, &d->dst[s]);
      if (gpurf_regset_has(&w, reg)) return (double)(j - from);
    }
  }
  return (double)(rel->n - from);
}

static void build_lifetimes(gpurf_release *rel, const gpurf_dataflow *df) {
  gpurf_regset written = {{0, 0, 0, 0}};
  for (size_t i = 0; i < rel->n; i++) {
    const gpurf_dataflow_inst *d = gpurf_dataflow_inst_at(df, i);
    for (unsigned s = 0; s < d->n_src; s++) op_regs(&rel->used, &d->src[s]);
    for (unsigned s = 0; s < d->n_dst; s++) {
      gpurf_regset w = {{0, 0, 0, 0}};
      op_regs(&w, &d->dst[s]);
      rs_union(&rel->used, &w);
      rs_union(&written, &w);
      for (unsigned r = 0; r < GPURF_TRACE_NUM_REGS; r++)
        if (gpurf_regset_has(&w, r)) {
          rel->instances[r]++;
          rel->life_sum[r] += lifetime_from(rel, df, i, r, 0);
        }
    }
  }
  /* Read before any write: one value from before the kernel. */
  for (unsigned r = 0; r < GPURF_TRACE_NUM_REGS; r++)
    if (gpurf_regset_has(&rel->used, r) && !gpurf_regset_has(&written, r)) {
      rel->instances[r] = 1;
      rel->life_sum[r] = lifetime_from(rel, df, 0, r, 1);
    }
}

int gpurf_release_build(gpurf_ctx *ctx, const gpurf_dataflow *df, gpurf_release **out) {
  *out = NULL;
  if (!df) return gpurf_fail(ctx, GPURF_EINVAL, "no dataflow");
  gpurf_release *rel = calloc(1, sizeof *rel);
  if (!rel) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  rel->n = gpurf_dataflow_inst_count(df);
  rel->inst = calloc(rel->n ? rel->n : 1, sizeof *rel->inst);
  rel->by_pc = calloc(rel->n ? rel->n : 1, sizeof *rel->by_pc);
  if (!rel->inst || !rel->by_pc) {
    gpurf_release_free(rel);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  }
  for (size_t i = 0; i < rel->n; i++) {
    rel->by_pc[i].pc = gpurf_dataflow_inst_at(df, i)->pc;
    rel->by_pc[i].i = (uint32_t)i;
  }
  qsort(rel->by_pc, rel->n, sizeof *rel->by_pc, cmp_pc);
  build_flags(rel, df);
  build_lifetimes(rel, df);
  *out = rel;
  return GPURF_OK;
}

void gpurf_release_free(gpurf_release *rel) {
  if (!rel) return;
  free(rel->inst);
  free(rel->by_pc);
  free(rel);
}

const gpurf_release_inst *gpurf_release_at(const gpurf_release *rel, uint64_t pc) {
  size_t lo = 0, hi = rel->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (rel->by_pc[mid].pc < pc)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < rel->n && rel->by_pc[lo].pc == pc ? &rel->inst[rel->by_pc[lo].i] : NULL;
}

void gpurf_release_counts_get(const gpurf_release *rel, gpurf_release_counts *out) {
  *out = rel->counts;
}

gpurf_regset gpurf_release_used(const gpurf_release *rel) { return rel->used; }

int gpurf_release_lifetime(const gpurf_release *rel, unsigned reg, double *mean_insts,
                           unsigned *instances) {
  if (reg >= GPURF_TRACE_NUM_REGS || !gpurf_regset_has(&rel->used, reg)) return GPURF_ENOTFOUND;
  *instances = rel->instances[reg];
  *mean_insts = rel->instances[reg] ? rel->life_sum[reg] / rel->instances[reg] : 0.0;
  return GPURF_OK;
}

static unsigned entry_bits(unsigned phys_regs) {
  unsigned b = 0;
  while (b < 31 && (1u << b) < phys_regs) b++;
  return b ? b : 1;
}

unsigned gpurf_release_renamable(double budget_bytes, unsigned warps, unsigned phys_regs) {
  if (warps == 0) return GPURF_TRACE_NUM_REGS;
  double n = floor(budget_bytes * 8.0 / ((double)entry_bits(phys_regs) * warps));
  return n < 0 ? 0 : n > GPURF_TRACE_NUM_REGS ? GPURF_TRACE_NUM_REGS : (unsigned)n;
}

double gpurf_release_table_bytes(unsigned warps, unsigned regs, unsigned phys_regs) {
  return (double)warps * regs * entry_bits(phys_regs) / 8.0;
}

gpurf_regset gpurf_release_exempt(const gpurf_release *rel, unsigned renamable) {
  gpurf_regset ex = {{0, 0, 0, 0}};
  unsigned n = rs_count(&rel->used);
  gpurf_regset left = rel->used;
  for (unsigned k = renamable; k < n; k++) {
    int best = -1;
    double bl = 0;
    for (unsigned r = 0; r < GPURF_TRACE_NUM_REGS; r++) {
      if (!gpurf_regset_has(&left, r)) continue;
      double l = rel->instances[r] ? rel->life_sum[r] / rel->instances[r] : 0.0;
      if (best < 0 || l > bl || (l == bl && rel->instances[r] > rel->instances[best]))
        best = (int)r, bl = l;
    }
    rs_add(&ex, (unsigned)best);
    left.w[best >> 6] &= ~((uint64_t)1 << (best & 63));
  }
  return ex;
}

int gpurf_release_cache_init(gpurf_release_cache *c, unsigned entries) {
  if (entries > 64) return GPURF_EINVAL;
  memset(c, 0, sizeof *c);
  c->entries = entries;
  return GPURF_OK;
}

int gpurf_release_cache_access(gpurf_release_cache *c, uint32_t pir) {
  if (c->entries == 0) {
    c->misses++;
    return 0;
  }
  unsigned set = pir % c->entries;
  if (c->valid[set] && c->tag[set] == pir) {
    c->hits++;
    return 1;
  }
  c->valid[set] = 1;
  c->tag[set] = pir;
  c->misses++;
  return 0;
}
