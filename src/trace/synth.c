/* Synthetic workloads. A warp's stream is built value by value: each
 * register write draws how often the value will be read and when, and each
 * instruction reads the values whose reads fall due, so value usage and
 * lifetimes follow the preset's distributions directly. Every warp runs
 * the same instruction sequence (an SPMD kernel); lane values differ.
 * docs/workloads.md names the published figures each preset is fitted to. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace_internal.h"

/* ---- xoshiro256** seeded by splitmix64 (Blackman and Vigna) ---- */

typedef struct rng {
  uint64_t s[4];
} rng;

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static void rng_seed(rng *r, uint64_t seed, uint64_t stream) {
  uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ULL);
  for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_next(rng *r) {
  uint64_t *s = r->s;
  uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return out;
}

static double rng_unit(rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

/* Geometric count >= 0 with the given mean; log_q is log(mean / (1 + mean)),
 * computed once per preset (geom_log_q) rather than per draw. */
static double geom_log_q(double mean) { return mean > 0 ? log(mean / (1.0 + mean)) : 0.0; }

static uint32_t rng_geom(rng *r, double mean, double log_q) {
  if (mean <= 0) return 0;
  double u = rng_unit(r);
  double k = floor(log1p(-u) / log_q);
  return k > 1e6 ? 1000000u : (uint32_t)k;
}

/* ---- presets ---- */

enum { K_FP, K_INT, K_SETP, K_SFU, K_LDG, K_LDS, K_STG, K_STS, K_BRA, K_BAR, K_NOP, K_COUNT };

typedef struct preset {
  uint32_t ctas, warps, insts, nregs;
  double mix[K_COUNT];     /* instruction templates, summing to 1 */
  double kind[3];          /* written values: uniform, affine (not uniform), other */
  double p1[3], p2[3];     /* per kind: read once, read twice; the rest 3 or more */
  double tail_mean;        /* reads beyond 3 of a 3+ value (geometric mean) */
  double d[3];             /* first read 1, 2, 3 instructions after the write */
  double d_tail_mean;      /* otherwise 4 + geometric(mean) */
  double gap_mean;         /* between later reads: 1 + geometric(mean) */
  double div_rate;         /* divergent regions started per instruction */
  uint32_t div_len;
  uint32_t threads;        /* per CTA when not whole warps (0: warps x 32) */
  uint32_t shmem;          /* shared memory per CTA, bytes: caps the CTAs an SM holds */
} preset;

/* Collange et al. (Euro-Par 2009) as cited by SIMTight (Sec. II): 15% of
 * written vectors uniform and 28% affine; 27% of read vectors uniform and
 * 44% affine. Gebhart et al. (TOCS 2012, Sec. 2.2, Fig. 3): 70% of values
 * read once, 10% more than twice; Sec. 7.3: 1.6 reads and 0.8 writes per
 * instruction, so 2.0 reads per value. The per-kind read distributions
 * below meet all of these at once: mean reads 3.7 (uniform), 2.7 (affine)
 * and 1.60 (other) turn the write fractions into the read fractions;
 * 10.5% rather than 10% of values get 3+ reads because the end of a warp or
 * of a divergent region cuts some reads short. */
#define COLLANGE_KIND {0.15, 0.13, 0.72}
#define GEBHART_P1 {0.495, 0.62, 0.75}
#define GEBHART_P2 {0.20, 0.20, 0.20}

static const gpurf_trace_preset_info infos[] = {
    {"compute",
     "CUDA compute kernel: value reuse and lifetimes of Gebhart's CUDA applications, "
     "uniform/affine vectors of Collange, about half of the registers live (Jeon)",
     "Gebhart et al. TOCS 2012 Sec. 2.2/Fig. 3 (70% of values read once, 10% more than twice, "
     "40% of values read once within 3 instructions) and Sec. 7.3 (1.6 register reads and 0.8 "
     "writes per instruction); Collange et al. via SIMTight Sec. II (reads 27% uniform, 44% "
     "affine; writes 15% and 28%); Jeon et al. MICRO 2015 Fig. 1 (about half of the "
     "allocated registers live)"},
    {"hpc",
     "hand-scheduled HPC kernel (DGEMM, SGEMM, FFT): more reuse, loads hoisted far above "
     "their uses",
     "Gebhart et al. TOCS 2012 Sec. 2.2: HPC traces read 40% of their values more than once"},
    {"matrixmul",
     "tiled single-precision matrix multiply: 1 CTA of 32 warps, 30 registers per thread",
     "instruction mix, CTA shape, warp length and registers per thread of the recorded CUDA "
     "matrixMul trace (tests/data/traces/matrixmul-32-32-trace, sm_61); value usage as "
     "'compute'"},
    {"jeon-matrixmul",
     "MatrixMul of Jeon et al. Table 1: 64 CTAs of 256 threads, 14(7) registers, 6 CTAs per SM",
     "Jeon et al. MICRO 2015 Table 1 (MatrixMul row); value usage as 'compute'"},
    {"jeon-blackscholes",
     "Blackscholes of Jeon et al. Table 1: 480 CTAs of 128 threads, 18(16) registers, "
     "8 CTAs per SM",
     "Jeon et al. MICRO 2015 Table 1 (Blackscholes row); value usage as 'compute'"},
    {"jeon-dct8x8",
     "DCT8x8 of Jeon et al. Table 1: 4096 CTAs of 64 threads, 22(19) registers, 8 CTAs per SM",
     "Jeon et al. MICRO 2015 Table 1 (DCT8x8 row); value usage as 'compute'"},
    {"jeon-reduction",
     "Reduction of Jeon et al. Table 1: 64 CTAs of 256 threads, 14(8) registers, 6 CTAs per SM",
     "Jeon et al. MICRO 2015 Table 1 (Reduction row); value usage as 'compute'"},
    {"jeon-vectoradd",
     "VectorAdd of Jeon et al. Table 1: 196 CTAs of 256 threads, 4(3) registers, 6 CTAs per SM",
     "Jeon et al. MICRO 2015 Table 1 (VectorAdd row); value usage as 'compute'"},
    {"jeon-backprop",
     "BackProp of Jeon et al. Table 1: 4096 CTAs of 256 threads, 17(12) registers, 6 CTAs per SM",
     "Jeon et al. MICRO 2015 Table 1 (BackProp row); value usage as 'compute'"},
    {"jeon-bfs",
     "BFS of Jeon et al. Table 1: 1954 CTAs of 512 threads, 9(6) registers, 3 CTAs per SM",
     "Jeon et al. MICRO 2015 Table 1 (BFS row); value usage as 'compute'"},
    {"jeon-heartwall",
     "Heartwall of Jeon et al. Table 1: 51 CTAs of 512 threads, 29(23) registers, 2 CTAs per SM",
     "Jeon et al. MICRO 2015 Table 1 (Heartwall row); value usage as 'compute'"},
    {"jeon-hotspot",
     "HotSpot of Jeon et al. Table 1: 1849 CTAs of 256 threads, 22(20) registers, 3 CTAs per SM",
     "Jeon et al. MICRO 2015 Table 1 (HotSpot row); value usage as 'compute'"},
    {"jeon-scalarprod",
     "ScalarProd of Jeon et al. Table 1: 128 CTAs of 256 threads, 17(11) registers, 6 CTAs per SM",
     "Jeon et al. MICRO 2015 Table 1 (ScalarProd row); value usage as 'compute'"},
    {"jeon-nn",
     "NN of Jeon et al. Table 1: 168 CTAs of 169 threads, 14(8) registers, 8 CTAs per SM",
     "Jeon et al. MICRO 2015 Table 1 (NN row); value usage as 'compute'"},
    {"jeon-lud",
     "LUD of Jeon et al. Table 1: 15 CTAs of 32 threads, 19(12) registers, 6 CTAs per SM",
     "Jeon et al. MICRO 2015 Table 1 (LUD row); value usage as 'compute'"},
    {"jeon-gaussian",
     "Gaussian of Jeon et al. Table 1: 2 CTAs of 512 threads, 8(6) registers, 3 CTAs per SM",
     "Jeon et al. MICRO 2015 Table 1 (Gaussian row); value usage as 'compute'"},
    {"jeon-lib",
     "LIB of Jeon et al. Table 1: 64 CTAs of 64 threads, 22(17) registers, 8 CTAs per SM",
     "Jeon et al. MICRO 2015 Table 1 (LIB row); value usage as 'compute'"},
    {"jeon-lps",
     "LPS of Jeon et al. Table 1: 100 CTAs of 128 threads, 17(16) registers, 8 CTAs per SM",
     "Jeon et al. MICRO 2015 Table 1 (LPS row); value usage as 'compute'"},
    {"jeon-mum",
     "MUM of Jeon et al. Table 1: 196 CTAs of 256 threads, 19(17) registers, 6 CTAs per SM",
     "Jeon et al. MICRO 2015 Table 1 (MUM row); value usage as 'compute'"},
    {NULL, NULL, NULL}};

static const preset presets[] = {
    {4, 8, 16384, 23,
     {0.24, 0.32, 0.05, 0.04, 0.06, 0.14, 0.04, 0.03, 0.04, 0.02, 0.02},
     COLLANGE_KIND, GEBHART_P1, GEBHART_P2, 6.0,
     {0.46, 0.18, 0.10}, 9.0, 7.0, 0.004, 12, 0, 0},
    {4, 8, 16384, 48,
     {0.34, 0.22, 0.05, 0.02, 0.08, 0.12, 0.04, 0.02, 0.06, 0.03, 0.02},
     COLLANGE_KIND, {0.40, 0.52, 0.65}, {0.25, 0.25, 0.25}, 6.0,
     {0.20, 0.12, 0.08}, 18.0, 9.0, 0.005, 12, 0, 0},
    {1, 32, 138, 30,
     /* per warp of the recorded trace: 32 fp, 49 int, 2 compares, 2 global
      * loads, 40 shared loads, 1 global and 2 shared stores, 3 branches,
      * 4 barriers, 3 others out of 138 */
     {32 / 138.0, 49 / 138.0, 2 / 138.0, 0.0, 2 / 138.0, 40 / 138.0, 1 / 138.0, 2 / 138.0,
      3 / 138.0, 4 / 138.0, 3 / 138.0},
     COLLANGE_KIND, GEBHART_P1, GEBHART_P2, 6.0,
     {0.34, 0.17, 0.10}, 9.0, 7.0, 0.0, 0, 0, 0},
/* Jeon et al. Table 1, one row each, on one SM of the paper's 16: the
 * SM's share of the grid (at most four waves of its concurrent CTAs, at
 * least one wave), warps of the CTA's threads, the kernel's registers (the
 * count with address and condition registers), and shared memory of
 * 48 KB / (concurrent CTAs) so that no more CTAs share an SM than the
 * table's. Warps run about 40k warp instructions in all (VectorAdd's short
 * kernel: 24 per warp); value usage as 'compute'. */
#define JEON(ctas, warps, insts, regs, threads, conc)                                       \
  {ctas, warps, insts, regs,                                                                  \
   {0.24, 0.32, 0.05, 0.04, 0.06, 0.14, 0.04, 0.03, 0.04, 0.02, 0.02},                        \
   COLLANGE_KIND, GEBHART_P1, GEBHART_P2, 6.0, {0.46, 0.18, 0.10}, 9.0, 7.0, 0.004, 12,       \
   threads, 49152 / (conc)}
    JEON(6, 8, 833, 14, 256, 6),    /* MatrixMul: 64 CTAs */
    JEON(30, 4, 333, 18, 128, 8),   /* Blackscholes: 480 */
    JEON(32, 2, 625, 22, 64, 8),    /* DCT8x8: 4096 */
    JEON(6, 8, 833, 14, 256, 6),    /* Reduction: 64 */
    JEON(13, 8, 24, 4, 256, 6),     /* VectorAdd: 196 */
    JEON(24, 8, 208, 17, 256, 6),   /* BackProp: 4096 */
    JEON(12, 16, 208, 9, 512, 3),   /* BFS: 1954 */
    JEON(4, 16, 625, 29, 512, 2),   /* Heartwall: 51 */
    JEON(12, 8, 416, 22, 256, 3),   /* HotSpot: 1849 */
    JEON(8, 8, 625, 17, 256, 6),    /* ScalarProd: 128 */
    JEON(11, 6, 606, 14, 169, 8),   /* NN: 168 */
    JEON(6, 1, 1500, 19, 32, 6),    /* LUD: 15 */
    JEON(2, 16, 1500, 8, 512, 3),   /* Gaussian: 2 */
    JEON(8, 2, 1500, 22, 64, 8),    /* LIB: 64 */
    JEON(8, 4, 1250, 17, 128, 8),   /* LPS: 100 */
    JEON(13, 8, 384, 19, 256, 6),   /* MUM: 196 */
#undef JEON
};

const gpurf_trace_preset_info *gpurf_trace_gen_presets(void) { return infos; }

/* ---- generator ---- */

#define CAL 2048      /* calendar slots; read distances are clipped below this */
#define SLOT_CAP 8
#define DECK_MAX 1024 /* templates are dealt from a shuffled deck of exact proportions */
#define MAX_DIST 1500
#define ARCH 61       /* opcodes below are sm_61's; global addresses are 32-bit */

typedef struct vreg {
  uint32_t remaining; /* reads still to come */
  uint8_t kind;
  uint8_t in_region;  /* written inside a divergent region */
} vreg;

typedef struct decoded {
  int known; /* filled */
  gpurf_trace_class op_class;
  gpurf_trace_latency latency;
  gpurf_trace_mem mem;
  uint8_t mem_width;
} decoded;

typedef struct slot {
  uint8_t n;
  uint8_t reg[SLOT_CAP];
} slot;

typedef struct gen_state {
  preset p;
  int values;
  uint64_t seed;
  uint32_t ctas, warps, insts;
  uint32_t cta, warp, t; /* position */
  int started;
  rng srng;              /* structure: the same for every warp */
  rng vrng;              /* values: per warp */
  vreg regs[GPURF_TRACE_NUM_REGS];
  slot cal[CAL];
  uint32_t region_left, region_mask;
  uint8_t deck[DECK_MAX];
  uint32_t deck_n, deck_pos;
  /* Bit r set while regs[r].remaining > 0: the lowest free register is
   * found with a count of trailing zeros instead of a scan. */
  uint64_t live[(GPURF_TRACE_NUM_REGS + 63) / 64];
  double lq_tail, lq_d_tail, lq_gap; /* geom_log_q of the preset's means */
  /* Decoding depends on the opcode alone (widths are reset to 1 after it),
   * and the generator uses a few dozen opcodes: each is decoded once. */
  decoded dec[K_COUNT * 4 + 1];
} gen_state;

static void schedule(gen_state *g, uint32_t at, uint8_t reg) {
  for (;; at++) {
    slot *s = &g->cal[at % CAL];
    if (s->n < SLOT_CAP) {
      s->reg[s->n++] = reg;
      return;
    }
  }
}

static uint32_t draw_reads(gen_state *g, int kind) {
  double u = rng_unit(&g->srng);
  if (u < g->p.p1[kind]) return 1;
  if (u < g->p.p1[kind] + g->p.p2[kind]) return 2;
  return 3 + rng_geom(&g->srng, g->p.tail_mean, g->lq_tail);
}

static uint32_t draw_first(gen_state *g) {
  double u = rng_unit(&g->srng);
  if (u < g->p.d[0]) return 1;
  if (u < g->p.d[0] + g->p.d[1]) return 2;
  if (u < g->p.d[0] + g->p.d[1] + g->p.d[2]) return 3;
  uint32_t d = 4 + rng_geom(&g->srng, g->p.d_tail_mean, g->lq_d_tail);
  return d > MAX_DIST ? MAX_DIST : d;
}

static uint32_t draw_gap(gen_state *g) {
  uint32_t d = 1 + rng_geom(&g->srng, g->p.gap_mean, g->lq_gap);
  return d > MAX_DIST ? MAX_DIST : d;
}

static void start_warp(gen_state *g) {
  rng_seed(&g->srng, g->seed, 0);
  rng_seed(&g->vrng, g->seed, 1 + (uint64_t)g->cta * g->warps + g->warp);
  memset(g->regs, 0, sizeof g->regs);
  memset(g->live, 0, sizeof g->live);
  memset(g->cal, 0, sizeof g->cal);
  g->t = 0;
  g->region_left = 0;
  g->region_mask = 0xffffffffu;
  g->deck_n = g->deck_pos = 0;
}

/* Deals the next template. A deck holds each template in proportion to the
 * mix (largest remainders), shuffled, so even a short warp has the exact mix. */
static int pick_template(gen_state *g) {
  if (g->deck_pos >= g->deck_n) {
    uint32_t n = g->insts < DECK_MAX ? g->insts : DECK_MAX;
    uint32_t cnt[K_COUNT], total = 0;
    double rem[K_COUNT];
    for (int k = 0; k < K_COUNT; k++) {
      double x = g->p.mix[k] * n;
      cnt[k] = (uint32_t)x;
      rem[k] = x - cnt[k];
      total += cnt[k];
    }
    while (total < n) {
      int best = 0;
      for (int k = 1; k < K_COUNT; k++)
        if (rem[k] > rem[best]) best = k;
      cnt[best]++;
      rem[best] = -1;
      total++;
    }
    uint32_t m = 0;
    for (int k = 0; k < K_COUNT; k++)
      for (uint32_t j = 0; j < cnt[k] && m < n; j++) g->deck[m++] = (uint8_t)k;
    for (uint32_t i = m; i > 1; i--) {
      uint32_t j = (uint32_t)(rng_next(&g->srng) % i);
      uint8_t t = g->deck[i - 1];
      g->deck[i - 1] = g->deck[j];
      g->deck[j] = t;
    }
    g->deck_n = m;
    g->deck_pos = 0;
  }
  return g->deck[g->deck_pos++];
}

static void fill_values(gen_state *g, gpurf_trace_inst *inst, unsigned k, int kind) {
  uint32_t *v = inst->values[k];
  if (kind == 0) {
    uint32_t c = (uint32_t)rng_next(&g->vrng);
    for (int l = 0; l < 32; l++) v[l] = c;
  } else if (kind == 1) {
    uint32_t base = (uint32_t)rng_next(&g->vrng);
    uint32_t stride = 1u << (rng_next(&g->vrng) % 5); /* 1..16: indices, byte offsets */
    for (int l = 0; l < 32; l++) v[l] = base + (uint32_t)l * stride;
  } else {
    for (int l = 0; l < 32; l++) v[l] = (uint32_t)rng_next(&g->vrng);
  }
}

static void set_opcode(gpurf_trace_inst *inst, const char *op) {
  size_t n = strlen(op);
  memcpy(inst->opcode, op, n + 1);
}

static int gen_next(gpurf_ctx *ctx, gpurf_trace_reader *r, gpurf_trace_inst *inst) {
  (void)ctx;
  gen_state *g = r->impl;
  if (!g->started) {
    g->started = 1;
    g->cta = g->warp = 0;
    start_warp(g);
  } else if (g->t >= g->insts) {
    if (++g->warp >= g->warps) {
      g->warp = 0;
      if (++g->cta >= g->ctas) return GPURF_TRACE_END;
    }
    start_warp(g);
  }
  uint32_t t = g->t;
  /* Copying zeros compiles to a few vector stores; a constant-size memset
   * here became a slow `rep stos`. */
  static const unsigned char zero_head[offsetof(gpurf_trace_inst, addr)];
  memcpy(inst, zero_head, sizeof zero_head);
  inst->kernel = 0;
  inst->cta[0] = g->cta;
  inst->warp = g->warp;
  inst->pc = 8 + 8 * (uint64_t)t;
  int last = t + 1 == g->insts;
  /* Reads due now; those an instruction cannot take move to the next one. */
  slot due = g->cal[t % CAL];
  g->cal[t % CAL].n = 0;
  int tmpl;
  uint32_t mask = 0xffffffffu;
  if (last) {
    tmpl = K_NOP;
  } else if (g->region_left == 0 && g->p.div_rate > 0 && rng_unit(&g->srng) < g->p.div_rate &&
             t + g->p.div_len + 2 < g->insts) {
    /* A divergent if-then: lanes outside the region's mask branch over it. */
    uint32_t lanes = 8 + (uint32_t)(rng_next(&g->srng) % 17);
    g->region_mask = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1;
    g->region_left = g->p.div_len;
    tmpl = K_BRA;
    mask = ~g->region_mask;
  } else {
    tmpl = pick_template(g);
    if (g->region_left) {
      mask = g->region_mask;
      /* Values written in the region are read only inside it, and the
       * region's last instruction writes nothing. */
      if (g->region_left == 1 && tmpl != K_STG && tmpl != K_STS && tmpl != K_SETP) tmpl = K_SETP;
      if (tmpl == K_BRA || tmpl == K_BAR) tmpl = K_NOP;
      g->region_left--;
    }
  }
  inst->mask = mask;
  static const unsigned arity[K_COUNT] = {3, 3, 2, 1, 1, 1, 2, 2, 0, 0, 0};
  static const int writes[K_COUNT] = {1, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0};
  unsigned take = due.n < arity[tmpl] ? due.n : arity[tmpl];
  for (unsigned i = take; i < due.n; i++) schedule(g, t + 1, due.reg[i]);
  int w = writes[tmpl];
  /* Consume the reads. */
  inst->n_src = (uint8_t)take;
  for (unsigned i = 0; i < take; i++) {
    uint8_t reg = due.reg[i];
    inst->src[i].reg = reg;
    inst->src[i].width = 1;
    vreg *v = &g->regs[reg];
    if (v->remaining > 0) v->remaining--;
    if (v->remaining > 0) {
      uint32_t at = t + draw_gap(g);
      if (v->in_region && at >= t + g->region_left) v->remaining = 0; /* region ends first */
      else schedule(g, at, reg);
    }
    if (v->remaining == 0) g->live[reg >> 6] &= ~((uint64_t)1 << (reg & 63));
  }
  /* Destination: the lowest free register, as a compiler's allocator would. */
  int dst = -1;
  if (w) {
    for (uint32_t wd = 0; wd * 64 < g->p.nregs; wd++) {
      uint64_t free_regs = ~g->live[wd];
      uint32_t lim = g->p.nregs - wd * 64;
      if (lim < 64) free_regs &= ((uint64_t)1 << lim) - 1;
      if (free_regs) {
        dst = (int)(wd * 64 + (uint32_t)__builtin_ctzll(free_regs));
        break;
      }
    }
    if (dst < 0) w = 0;
  }
  static const char *const op0[K_COUNT] = {"FADD32I", "MOV32I", "ISETP.GE.AND", "MUFU.EX2", "LDG",
                                           "LDS.U.32", "STG", "STS", "BRA", "BAR.SYNC", "NOP"};
  static const char *const op1[K_COUNT] = {"FMUL32I", "SHL", "ISETP.GE.AND", "MUFU.EX2", "LDG",
                                           "LDS.U.32", "STG", "STS", "BRA", "BAR.SYNC", "NOP"};
  static const char *const op2[K_COUNT] = {"FADD", "IADD", "ISETP.GE.AND", "MUFU.EX2", "LDG",
                                           "LDS.U.32", "STG", "STS", "BRA", "BAR.SYNC", "NOP"};
  static const char *const op3[K_COUNT] = {"FFMA", "IADD3", "ISETP.GE.AND", "MUFU.EX2", "LDG",
                                           "LDS.U.32", "STG", "STS", "BRA", "BAR.SYNC", "NOP"};
  const char *op = take == 0 ? op0[tmpl] : take == 1 ? op1[tmpl] : take == 2 ? op2[tmpl] : op3[tmpl];
  unsigned op_id = (unsigned)tmpl * 4 + (take < 3 ? take : 3);
  if (last) op = "EXIT", op_id = K_COUNT * 4;
  if (writes[tmpl] && !w) {
    /* No register free: the result goes to RZ. */
    inst->n_dst = 1;
    inst->dst[0].reg = GPURF_TRACE_REG_ZERO;
    inst->dst[0].width = 1;
  }
  set_opcode(inst, op);
  if (w) {
    vreg *v = &g->regs[dst];
    double u = rng_unit(&g->srng);
    int kind = u < g->p.kind[0] ? 0 : u < g->p.kind[0] + g->p.kind[1] ? 1 : 2;
    v->kind = (uint8_t)kind;
    v->in_region = g->region_left > 0 || (mask != 0xffffffffu);
    uint32_t reads = draw_reads(g, kind);
    uint32_t first = draw_first(g);
    if (v->in_region) {
      reads = 1;
      uint32_t room = g->region_left; /* instructions left in the region after this one */
      if (first > room) first = room ? room : 1;
    }
    if (t + first >= g->insts - 1) first = 0;
    if (first == 0) {
      v->remaining = 0; /* the warp ends before any read: a dead value */
    } else {
      v->remaining = reads;
      g->live[dst >> 6] |= (uint64_t)1 << (dst & 63);
      schedule(g, t + first, (uint8_t)dst);
    }
    inst->n_dst = 1;
    inst->dst[0].reg = (uint8_t)dst;
    inst->dst[0].width = 1;
    if (g->values) {
      fill_values(g, inst, 0, kind);
      inst->flags |= GPURF_TRACE_HAS_VALUES;
    }
  }
  decoded *dc = &g->dec[op_id];
  if (!dc->known) {
    tr_decode_opcode(inst, ARCH);
    dc->op_class = inst->op_class, dc->latency = inst->latency, dc->mem = inst->mem;
    dc->mem_width = inst->mem_width;
    dc->known = 1;
  } else {
    inst->op_class = dc->op_class, inst->latency = dc->latency, inst->mem = dc->mem;
    inst->mem_width = dc->mem_width;
  }
  /* Widths stay 1: the opcodes above are 32-bit on sm_61. */
  for (unsigned i = 0; i < GPURF_TRACE_MAX_DST; i++) inst->dst[i].width = 1;
  for (unsigned i = 0; i < GPURF_TRACE_MAX_SRC; i++) inst->src[i].width = 1;
  inst->n_dst_regs = tr_count_dst_regs(inst);
  if (inst->mem != GPURF_TRACE_MEM_NONE && inst->mem_width) {
    /* Coalesced 4-byte accesses from a per-warp base. */
    uint64_t base = (inst->mem == GPURF_TRACE_MEM_SHARED ? 0 : 0x10000000ULL) +
                    ((uint64_t)(g->cta * g->warps + g->warp) << 12) + ((uint64_t)t % 64) * 128;
    if (mask == 0xffffffffu) /* the common case, as a loop that vectorises */
      for (int l = 0; l < 32; l++) inst->addr[l] = base + 4 * (uint64_t)l;
    else
      for (int l = 0, k = 0; l < 32; l++)
        inst->addr[l] = (mask >> l & 1) ? base + 4 * (uint64_t)k++ : 0;
    inst->flags |= GPURF_TRACE_HAS_ADDR;
  }
  g->t++;
  return GPURF_OK;
}

static void gen_free(gpurf_trace_reader *r) {
  free(r->impl);
  r->impl = NULL;
}

static const tr_ops gen_ops = {gen_next, gen_free, NULL};

int gpurf_trace_gen_alloc(gpurf_ctx *ctx, const gpurf_trace_gen_params *p,
                          gpurf_trace_reader **out) {
  *out = NULL;
  if (!p || !p->workload) return gpurf_fail(ctx, GPURF_EINVAL, "no workload named");
  size_t i = 0;
  while (infos[i].name && strcmp(infos[i].name, p->workload) != 0) i++;
  if (!infos[i].name)
    return gpurf_fail(ctx, GPURF_ENOTFOUND,
                      "unknown workload '%s' (compute, hpc, matrixmul or jeon-*: gpurf trace gen "
                      "--list)",
                      p->workload);
  gpurf_trace_reader *r = calloc(1, sizeof *r);
  gen_state *g = calloc(1, sizeof *g);
  if (!r || !g) {
    free(r);
    free(g);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  }
  g->p = presets[i];
  g->seed = p->seed;
  g->ctas = p->ctas ? p->ctas : g->p.ctas;
  g->warps = p->warps ? p->warps : g->p.warps;
  g->insts = p->insts ? p->insts : g->p.insts;
  if (g->insts < 2) g->insts = 2;
  g->values = p->values < 0 ? 1 : p->values;
  g->lq_tail = geom_log_q(g->p.tail_mean);
  g->lq_d_tail = geom_log_q(g->p.d_tail_mean);
  g->lq_gap = geom_log_q(g->p.gap_mean);
  r->impl = g;
  r->ops = &gen_ops;
  r->format = GPURF_TRACE_FORMAT_SYNTHETIC;
  gpurf_trace_kernel *k = &r->kernel;
  snprintf(k->name, sizeof k->name, "synthetic_%s_seed%llu", infos[i].name,
           (unsigned long long)p->seed);
  k->id = 1;
  k->grid[0] = g->ctas;
  k->grid[1] = k->grid[2] = 1;
  k->block[0] = g->p.threads && !p->warps ? g->p.threads : 32 * g->warps;
  k->block[1] = k->block[2] = 1;
  k->nregs = g->p.nregs;
  k->shmem_bytes = g->p.shmem;
  k->binary_version = ARCH;
  *out = r;
  return GPURF_OK;
}
