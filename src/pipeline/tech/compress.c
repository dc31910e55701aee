/* SIMTight's compressed register file, dynamic spilling and parallel scalar
 * pipeline (Naylor et al., "Advanced Dynamic Scalarisation for RISC-V
 * GPGPUs", Sec. III-B/C) on the pipeline's hooks.
 *
 * Every architectural register of a warp is, in the scalar register file
 * (SRF), a compressed value (uniform or affine) or a pointer to a slot of
 * the vector register file (VRF), taken from a free-slot stack. decode()
 * classifies each write from the trace's lane values (compress_decode.c);
 * writeback() applies it: a compressible result goes to the SRF only (no
 * bank write) and frees the old slot, a vector result takes a slot. Reads
 * of compressed registers are served by the SRF (no bank read). The write
 * path's 3 stages and the read path's 2 are added to the pipeline.
 *
 * Spilling (Fig. 3): while fewer slots than warps are free, the issuing
 * warp's instruction is replaced by the spill of a VRF vector (round robin
 * or a clock pseudo-LRU, never a register of that instruction or one with
 * a write in flight) and retried; an instruction with a spilled operand or
 * destination fetches it back instead (a memory read; the warp waits as
 * for a load) and retries. Spills and fills are counted as main-memory
 * accesses beside the accesses of the program's own loads and stores.
 *
 * Scalar pipeline (option scalar=1, with issue_width=2): issue pass 0 is
 * the vector pipe, pass 1 the scalar pipe. A per-PC prediction bit, set by
 * the last execution of the instruction, puts a warp in the scalar queue;
 * there the instruction runs when converged with all operands uniform (or
 * an add of a uniform and an affine), else it is sent back (a replay). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "pipeline/tech/compress_internal.h"
#include "pipeline/tech/technique_internal.h"

#define W GPURF_PIPELINE_MAX_WARPS
enum { R_UNIFORM = CRFM_UNIFORM, R_AFFINE = CRFM_AFFINE, R_VECTOR = 3, R_SPILLED = 4 };
/* pend[][]: a destination's class from issue to writeback. */
#define P_PENDING 0x80u
#define P_APPLIED 0x40u
#define P_BANK 0x20u   /* the applied decision: write the bank */
#define P_PARTIAL 0x10u

enum { EV_SRF_R, EV_SRF_W, EV_VRF_R, EV_VRF_W, EV_PUSH, EV_POP, EV_N };

typedef struct cstate {
  /* options */
  int compress, vrf_regs, plru, scalar, block_bytes, arch_regs;
  char component[32];
  /* bound at attach (the pipeline may be gone when counters are read) */
  double arch_total; /* warps x architectural registers */
  gpurf_energy *en;
  int ev[EV_N];
  int n_slots, threshold, spill_hold, fill_hold, abort_hold;
  /* registers */
  uint8_t kind[W][CMP_REGS];
  int32_t slot[W][CMP_REGS];
  uint8_t pend[W][CMP_REGS];
  uint32_t gwarp[W];
  uint8_t gvalid[W];
  int32_t *owner; /* per VRF slot: warp << 8 | reg, -1 free */
  uint8_t *ref;   /* pseudo-LRU reference bits */
  crfm_stack free;
  int hand, in_spill_mode;
  uint8_t pred[65536 / 8];
  cmp_decoder dec;
  /* counts */
  uint64_t used_max, w_uni, w_aff, w_vec, w_partial, expansions, merge_compressible, no_values;
  uint64_t spills, fills, spill_entries, mem, insts, scalarised, scalarisable, mispredicts;
  uint64_t overflows, n_ev[EV_N];
} cstate;

static void event(cstate *s, int e) {
  s->n_ev[e]++;
  if (s->en && s->ev[e] >= 0) gpurf_energy_add(s->en, s->ev[e], 0, 1);
}

static int used(const cstate *s) { return s->n_slots - s->free.n; }

static void slot_give(cstate *s, int w, int reg) {
  int v = s->slot[w][reg];
  s->owner[v] = -1;
  crfm_stack_push(&s->free, v);
  s->slot[w][reg] = -1;
  event(s, EV_PUSH);
}

/* A VRF slot for (w, reg); -1 when none is free (counted: the spill
 * threshold should make it impossible). */
static int slot_take(cstate *s, int w, int reg) {
  int v = crfm_stack_pop(&s->free);
  if (v < 0) {
    s->overflows++;
    return -1;
  }
  event(s, EV_POP);
  s->owner[v] = w << 8 | reg;
  s->ref[v] = 1;
  s->slot[w][reg] = v;
  if ((uint64_t)used(s) > s->used_max) s->used_max = (uint64_t)used(s);
  return v;
}

/* A new warp in a slot: its registers start as uniform zero. */
static void warp_reset(cstate *s, int w, uint32_t gwarp) {
  for (int r = 0; r < CMP_REGS; r++) {
    if (s->kind[w][r] == R_VECTOR && s->slot[w][r] >= 0) slot_give(s, w, r);
    s->kind[w][r] = R_UNIFORM;
    s->slot[w][r] = -1;
    s->pend[w][r] = 0;
  }
  s->gwarp[w] = gwarp;
  s->gvalid[w] = 1;
}

static int in_inst(const gpurf_pipeline_gate_inst *in, int reg) {
  for (int i = 0; i < in->n_src; i++)
    if (in->src[i] == reg) return 1;
  for (int i = 0; i < in->n_dst; i++)
    if (in->dst[i] == reg) return 1;
  return 0;
}

/* The VRF slot to spill: round robin over the slots, or a clock sweep
 * that gives a recently used slot a second chance. */
static int victim(cstate *s, int w, const gpurf_pipeline_gate_inst *in) {
  for (int k = 0; k < 2 * s->n_slots; k++) {
    int v = s->hand;
    s->hand = s->hand + 1 == s->n_slots ? 0 : s->hand + 1;
    int o = s->owner[v];
    if (o < 0) continue;
    int ow = o >> 8, reg = o & 0xff;
    if ((ow == w && in_inst(in, reg)) || (s->pend[ow][reg] & P_PENDING)) continue;
    if (s->plru && s->ref[v]) {
      s->ref[v] = 0;
      continue;
    }
    return v;
  }
  return -1;
}

static int pred_get(const cstate *s, uint32_t pc) { return s->pred[pc >> 3] >> (pc & 7) & 1; }
static void pred_set(cstate *s, uint32_t pc, int v) {
  if (v)
    s->pred[pc >> 3] |= (uint8_t)(1u << (pc & 7));
  else
    s->pred[pc >> 3] &= (uint8_t)~(1u << (pc & 7));
}

/* Converged, an operation the scalar pipe has, and operands in the SRF: all
 * uniform, or an add of a uniform and an affine (an immediate is uniform). */
static int scalarisable(const cstate *s, int w, const gpurf_pipeline_gate_inst *in) {
  if (!(in->tag & CMP_T_FULL) || !(in->tag & CMP_T_SCALAR_OP)) return 0;
  int uni = 0, aff = 0;
  for (int i = 0; i < in->n_src; i++) {
    int k = s->kind[w][in->src[i]];
    uni += k == R_UNIFORM, aff += k == R_AFFINE;
  }
  if (uni == in->n_src) return 1;
  return (in->tag & CMP_T_ADD) && aff == 1 && uni == in->n_src - 1;
}

/* The scalar pipe: a standard five-stage pipeline behind a scheduling
 * stage (Sec. III-C), one cycle each: the bank read and 5 more cycles to
 * its result, instead of the vector pipe's. It learns whether the
 * prediction held once the instruction and its operands are known, after
 * scheduling, fetch and operand read: 3 cycles. */
#define SCALAR_RESULT_CYCLES 5
#define SCALAR_ABORT_CYCLES 3

static int t_gate(void *state, gpurf_pipeline *p, int w, uint32_t gwarp, gpurf_pipeline_gate_inst *in,
                   int pass) {
  cstate *s = state;
  if (!s->gvalid[w] || s->gwarp[w] != gwarp) warp_reset(s, w, gwarp);
  uint32_t pc = cmp_tag_pc(in->tag);
  int scalar_q = s->scalar && pred_get(s, pc);
  if (pass != (scalar_q ? 1 : 0)) return GPURF_PIPELINE_ISSUE_SKIP;
  if (s->compress && !scalar_q) {
    if (s->free.n < s->threshold) {
      s->spill_entries += !s->in_spill_mode;
      s->in_spill_mode = 1;
      int v = victim(s, w, in);
      if (v >= 0) {
        int ow = s->owner[v] >> 8, reg = s->owner[v] & 0xff;
        event(s, EV_VRF_R);
        slot_give(s, ow, reg);
        s->kind[ow][reg] = R_SPILLED;
        event(s, EV_SRF_W);
        s->spills++;
        return s->spill_hold;
      }
    } else {
      s->in_spill_mode = 0;
    }
    for (int i = 0; i < in->n_src + in->n_dst; i++) {
      int reg = i < in->n_src ? in->src[i] : in->dst[i - in->n_src];
      if (s->kind[w][reg] != R_SPILLED || slot_take(s, w, reg) < 0) continue;
      s->kind[w][reg] = R_VECTOR;
      event(s, EV_VRF_W);
      event(s, EV_SRF_W);
      s->fills++;
      return s->fill_hold;
    }
  }
  int sc = s->compress ? scalarisable(s, w, in) : 0;
  if (scalar_q && !sc) {
    pred_set(s, pc, 0);
    s->mispredicts++;
    return s->abort_hold;
  }
  if (s->scalar) pred_set(s, pc, sc);
  s->scalarisable += (uint64_t)sc;
  s->scalarised += (uint64_t)scalar_q;
  if (scalar_q)
    in->latency_adjust = SCALAR_RESULT_CYCLES - gpurf_pipeline_get_params(p)->latency[in->unit];
  s->insts++;
  s->mem += (uint64_t)cmp_tag_blocks(in->tag);
  for (int i = 0; i < in->n_dst; i++) {
    int k = i < CMP_TAG_DSTS ? cmp_tag_kind(in->tag, i) : CRFM_VECTOR;
    /* The scalar pipe writes its result to the SRF: an add of a uniform
     * and an affine is affine whether or not detection would say so. */
    if (scalar_q && k == CRFM_VECTOR) k = CRFM_AFFINE;
    if (!s->compress) k = CRFM_VECTOR;
    s->pend[w][in->dst[i]] =
        (uint8_t)(P_PENDING | k | ((in->tag & CMP_T_FULL) ? 0u : P_PARTIAL));
    if (in->tag & CMP_T_NO_VALUES) s->no_values++;
    if (!(in->tag & CMP_T_FULL) && (in->tag & CMP_T_MERGE_COMPRESSES)) s->merge_compressible++;
  }
  return GPURF_PIPELINE_ISSUE_GO;
}

static int base_bank(const gpurf_pipeline *p, int w, int reg) {
  const gpurf_pipeline_params *prm = gpurf_pipeline_get_params(p);
  return (prm->bank_map == GPURF_PIPELINE_MAP_REG ? reg : reg + w) % prm->banks;
}

static int t_map(void *state, gpurf_pipeline *p, int w, uint32_t gwarp, int reg, int is_write) {
  cstate *s = state;
  (void)gwarp;
  if (!s->compress) {
    event(s, is_write ? EV_VRF_W : EV_VRF_R);
    return base_bank(p, w, reg);
  }
  int v = s->slot[w][reg];
  if (!is_write) {
    event(s, EV_SRF_R);
    if (s->kind[w][reg] != R_VECTOR) return GPURF_PIPELINE_NO_BANK;
    event(s, EV_VRF_R);
  } else {
    event(s, EV_VRF_W);
  }
  if (v >= 0) s->ref[v] = 1;
  return base_bank(p, w, reg);
}

/* The write pipeline (Fig. 2a), once per result even if the core asks
 * again while a bank queue is full. */
static gpurf_pipeline_wb t_writeback(void *state, gpurf_pipeline *p, int w, int reg) {
  cstate *s = state;
  (void)p;
  uint8_t pd = s->pend[w][reg];
  if (pd & P_APPLIED) return (pd & P_BANK) ? GPURF_PIPELINE_WB_BANK : GPURF_PIPELINE_WB_DEFER;
  int k = pd & 3, bank = 1;
  if (!s->compress) {
    s->w_vec++;
  } else if (k != CRFM_VECTOR) {
    event(s, EV_SRF_W);
    if (s->kind[w][reg] == R_VECTOR && s->slot[w][reg] >= 0) slot_give(s, w, reg);
    s->kind[w][reg] = (uint8_t)k;
    k == CRFM_UNIFORM ? s->w_uni++ : s->w_aff++;
    bank = 0;
  } else {
    event(s, EV_SRF_W);
    if (pd & P_PARTIAL) {
      s->w_partial++;
      s->expansions += s->kind[w][reg] == R_UNIFORM || s->kind[w][reg] == R_AFFINE;
    }
    if (s->kind[w][reg] != R_VECTOR || s->slot[w][reg] < 0) slot_take(s, w, reg);
    s->kind[w][reg] = R_VECTOR;
    s->w_vec++;
  }
  s->pend[w][reg] = (uint8_t)(P_APPLIED | (bank ? P_BANK : 0));
  return bank ? GPURF_PIPELINE_WB_BANK : GPURF_PIPELINE_WB_DEFER;
}

static int t_decode(void *state, gpurf_pipeline *p, const gpurf_trace_inst *rec, uint64_t *tag) {
  cstate *s = state;
  (void)p;
  *tag = cmp_decode(&s->dec, rec, s->block_bytes);
  return GPURF_OK;
}

static int t_attach(gpurf_ctx *ctx, gpurf_pipeline *p, void *state) {
  cstate *s = state;
  const gpurf_pipeline_params *prm = gpurf_pipeline_get_params(p);
  if (s->compress && s->vrf_regs > 0 && s->vrf_regs < 4 * prm->max_warps)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "vrf_regs",
                         "%d VRF slots is below the %d the spill mechanism needs (4 per warp)",
                         s->vrf_regs, 4 * prm->max_warps);
  s->arch_total = (double)prm->max_warps * s->arch_regs;
  s->n_slots = (int)(s->compress && s->vrf_regs > 0 ? s->vrf_regs : (long long)W * CMP_REGS);
  s->threshold = s->compress && s->vrf_regs > 0 ? prm->max_warps : 0;
  s->owner = malloc((size_t)s->n_slots * sizeof *s->owner);
  s->ref = calloc((size_t)s->n_slots, 1);
  if (!s->owner || !s->ref || crfm_stack_init(&s->free, s->n_slots) != 0)
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  for (int i = 0; i < s->n_slots; i++) s->owner[i] = -1;
  for (int w = 0; w < W; w++)
    for (int r = 0; r < CMP_REGS; r++) s->kind[w][r] = R_UNIFORM, s->slot[w][r] = -1;
  /* Fig. 2: a 2-stage read path and a 3-stage write path, passed by every
   * instruction (an operand from the SRF too): both go on the result path. */
  if (s->compress && gpurf_pipeline_extend(p, 0, 2 + 3) != GPURF_OK)
    return gpurf_fail(ctx, GPURF_EINVAL, "cannot add the compressed register file's stages");
  s->spill_hold = prm->read_cycles + prm->latency[GPURF_PIPELINE_UNIT_ALU];
  s->fill_hold = prm->read_cycles + prm->latency[GPURF_PIPELINE_UNIT_GLOBAL];
  s->abort_hold = SCALAR_ABORT_CYCLES;
  s->en = gpurf_pipeline_energy(p);
  static const char *const names[2][EV_N] = {
      {"read", "write", "read", "write", "", ""},
      {"srf_read", "srf_write", "vrf_read", "vrf_write", "stack_push", "stack_pop"}};
  for (int e = 0; e < EV_N; e++) {
    s->ev[e] = -1;
    /* Uncompressed, the one memory is read and written directly. */
    if (!s->compress && (e == EV_SRF_R || e == EV_SRF_W)) continue;
    if (s->en && names[s->compress][e][0])
      gpurf_energy_event_id(s->en, s->component, names[s->compress][e], &s->ev[e]);
  }
  return GPURF_OK;
}

static int t_create(gpurf_ctx *ctx, void **state) {
  cstate *s = calloc(1, sizeof *s);
  if (!s) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  s->compress = 1;
  s->block_bytes = 64;
  s->arch_regs = 32;
  snprintf(s->component, sizeof s->component, "%s", "register_file");
  cmp_decoder_init(&s->dec);
  *state = s;
  return GPURF_OK;
}

static int int_opt(gpurf_ctx *ctx, const char *key, const char *value, long lo, long hi, int *out) {
  char *end = NULL;
  long v = strtol(value, &end, 10);
  if (end == value || *end || v < lo || v > hi)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, key, "'%s' is not a whole number in %ld..%ld",
                         value, lo, hi);
  *out = (int)v;
  return GPURF_OK;
}

static int t_set(gpurf_ctx *ctx, void *state, const char *key, const char *value) {
  cstate *s = state;
  if (!strcmp(key, "compress")) return int_opt(ctx, key, value, 0, 1, &s->compress);
  if (!strcmp(key, "scalar")) return int_opt(ctx, key, value, 0, 1, &s->scalar);
  if (!strcmp(key, "vrf_regs")) return int_opt(ctx, key, value, 0, W * CMP_REGS, &s->vrf_regs);
  if (!strcmp(key, "block_bytes")) return int_opt(ctx, key, value, 4, 4096, &s->block_bytes);
  if (!strcmp(key, "arch_regs")) return int_opt(ctx, key, value, 1, CMP_REGS, &s->arch_regs);
  if (!strcmp(key, "component")) {
    if (!*value || strlen(value) >= sizeof s->component)
      return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, key, "bad component name '%s'", value);
    snprintf(s->component, sizeof s->component, "%s", value);
    return GPURF_OK;
  }
  if (!strcmp(key, "policy")) {
    if (strcmp(value, "rr") && strcmp(value, "plru"))
      return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, key, "'%s' is not rr or plru", value);
    s->plru = !strcmp(value, "plru");
    return GPURF_OK;
  }
  return gpurf_fail_at(ctx, GPURF_ENOTFOUND, NULL, 0, 0, key,
                       "compress has no option '%s' (compress, vrf_regs, policy, scalar, "
                       "block_bytes, arch_regs, component)",
                       key);
}

static void t_hooks(void *state, gpurf_pipeline_hooks *out) {
  (void)state;
  memset(out, 0, sizeof *out);
  out->attach = t_attach;
  out->map = t_map;
  out->writeback = t_writeback;
  out->decode = t_decode;
  out->gate = t_gate;
}

static void t_counters(const void *state, gpurf_technique_counters *c) {
  const cstate *s = state;
  double arch = s->arch_total;
  gpurf_technique_counter_add(c, "vrf_slots", s->compress && s->vrf_regs ? s->vrf_regs : 0);
  gpurf_technique_counter_add(c, "vrf_used_max", (double)s->used_max);
  gpurf_technique_counter_add(c, "vrf_resident_max", arch > 0 ? s->used_max / arch : 0);
  gpurf_technique_counter_add(c, "writes_uniform", (double)s->w_uni);
  gpurf_technique_counter_add(c, "writes_affine", (double)s->w_aff);
  gpurf_technique_counter_add(c, "writes_vector", (double)s->w_vec);
  gpurf_technique_counter_add(c, "writes_partial", (double)s->w_partial);
  gpurf_technique_counter_add(c, "partial_expansions", (double)s->expansions);
  gpurf_technique_counter_add(c, "partial_merged_compressible", (double)s->merge_compressible);
  gpurf_technique_counter_add(c, "writes_without_values", (double)s->no_values);
  gpurf_technique_counter_add(c, "spills", (double)s->spills);
  gpurf_technique_counter_add(c, "fills", (double)s->fills);
  gpurf_technique_counter_add(c, "spill_mode_entries", (double)s->spill_entries);
  gpurf_technique_counter_add(c, "vrf_overflows", (double)s->overflows);
  /* A spilled or filled register is 32 lanes x 4 B. */
  double per = (CRFM_LANES * 4 + s->block_bytes - 1) / s->block_bytes;
  gpurf_technique_counter_add(c, "mem_accesses_program", (double)s->mem);
  gpurf_technique_counter_add(c, "mem_accesses_spill", per * (double)(s->spills + s->fills));
  gpurf_technique_counter_add(c, "mem_accesses", (double)s->mem + per * (double)(s->spills + s->fills));
  gpurf_technique_counter_add(c, "instructions", (double)s->insts);
  gpurf_technique_counter_add(c, "scalarisable", (double)s->scalarisable);
  gpurf_technique_counter_add(c, "scalarised", (double)s->scalarised);
  gpurf_technique_counter_add(c, "scalar_mispredicts", (double)s->mispredicts);
  gpurf_technique_counter_add(c, "srf_reads", (double)s->n_ev[EV_SRF_R]);
  gpurf_technique_counter_add(c, "srf_writes", (double)s->n_ev[EV_SRF_W]);
  gpurf_technique_counter_add(c, "vrf_reads", (double)s->n_ev[EV_VRF_R]);
  gpurf_technique_counter_add(c, "vrf_writes", (double)s->n_ev[EV_VRF_W]);
  gpurf_technique_counter_add(c, "stack_pushes", (double)s->n_ev[EV_PUSH]);
  gpurf_technique_counter_add(c, "stack_pops", (double)s->n_ev[EV_POP]);
}

static void t_destroy(void *state) {
  cstate *s = state;
  if (!s) return;
  free(s->owner);
  free(s->ref);
  crfm_stack_fini(&s->free);
  free(s);
}

const gpurf_technique_def gpurf_technique_compress = {
    "compress",
    "SIMTight's compressed register file (uniform/affine values in a scalar file, vectors in a "
    "VRF of vrf_regs slots with dynamic spilling) and, with scalar=1, the parallel scalar pipe",
    t_create,
    t_set,
    t_hooks,
    t_counters,
    t_destroy};
