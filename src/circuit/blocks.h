/* Circuit blocks used by the bank models: device footprints, driver chains
 * sized by logical effort, wires with optional repeaters, and leakage. All
 * pure functions of the technology; results in SI units. */
#ifndef GPURF_CIRCUIT_BLOCKS_H
#define GPURF_CIRCUIT_BLOCKS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "gpurf/circuit.h"
#include "circuit/constants.h"
#include "gpurf/tech.h"
#include "tech/tech_internal.h"

/* Minimum NMOS width, 3 lambda = 1.5 F (MOSIS scalable design rules). */
#define GPURF_MIN_NMOS_WIDTH_F 1.5

/* Layout view of a device flavour at one node and temperature. */
typedef struct gc_chain_memo gc_chain_memo;

/* Repeaters for one wire layer, chosen once per node: the least-energy size
 * and spacing whose delay stays within 30% of the minimum (Bakoglu's
 * optimum), expressed per metre so any length can use it. */
typedef struct gc_repeater_plan {
  double spacing_m;     /* wire length between repeaters */
  double size;          /* repeater size in minimum inverters */
  double delay_s_per_m;
  double cap_f_per_m;   /* wire plus repeater capacitance switched */
  double leak_w_per_m;
  double gate_leak_w_per_m;
  double area_m2_per_m;
} gc_repeater_plan;

typedef struct gc_env {
  const gpurf_tech *tech;
  const gpurf_device *dev;
  double f_m;       /* feature size */
  double vdd_v;
  double i_off_n;   /* A/m at the temperature */
  double i_off_p;
  double i_gate;
  double w_min_m;   /* minimum NMOS width */
  double periph_leak_factor; /* subthreshold leakage of periphery devices relative
                                to minimum-length ones (1, or the long-channel factor) */
  gc_repeater_plan repeaters[GPURF_WIRE_COUNT];
  gc_repeater_plan bus[GPURF_WIRE_COUNT]; /* bus wires between banks: NaN until
                                             gc_env_plan_bus plans the layer */
  double fo4_s;     /* FO4 inverter delay of the device */
  /* Per-metre coefficients of an inverter of NMOS width wn (the PMOS sized
   * for equal drive), precomputed because driver chains are evaluated for
   * every candidate organisation. */
  double inv_c_in_per_m;   /* input capacitance = k x wn */
  double inv_c_d_per_m;    /* drain capacitance = k x wn + inv_c_d_fixed */
  double inv_c_d_fixed;
  double inv_r_ohm_m;      /* on-resistance = k / wn */
  double inv_leak_per_m;   /* subthreshold power = k x wn */
  double inv_gleak_per_m;  /* gate leakage power = k x wn */
  double r0_ohm;           /* the minimum inverter: on-resistance, input and drain */
  double c0_f;             /* capacitance (gc_inv_r, gc_inv_input_c, gc_inv_drain_c */
  double c0d_f;            /* of w_min_m), which every repeated wire takes */
  double log_effort_fast;  /* log(GC_STAGE_EFFORT_FAST), log(GC_STAGE_EFFORT_LEAN) */
  double log_effort_lean;
  gc_chain_memo *memo;     /* optional: remembers driver chains (see gc_chain_memo_alloc) */
} gc_env;

/* ceil() without a library call, exact for every double: below 2^52 the
 * conversion to an integer truncates a positive value to its floor;
 * zero, larger values, negatives and NaN take the library's. Device folds and
 * repeater counts round up for every candidate organisation. */
static inline double gc_ceil(double x) {
  if (!(x > 0.0 && x < 4503599627370496.0)) return ceil(x);
  double t = (double)(long long)x;
  return t < x ? t + 1.0 : t;
}

/* ceil(log2(n)) for n >= 1, in integers: the bits that tell n things apart
 * (0 for n <= 1), from the leading zeros of n - 1. */
static inline int gc_ceil_log2(long long n) {
  if (n <= 1) return 0;
  return 64 - __builtin_clzll((unsigned long long)(n - 1));
}

/* gpurf_circuit_horowitz_s, inline for the driver chains and decoders that
 * take it for every candidate organisation (the public function returns
 * this, so both give the same bits). */
static inline double gc_horowitz_s(double input_ramp_s, double tau_s, double v_switch, double b) {
  if (!(tau_s > 0.0)) return 0.0;
  /* A step input switching at half swing, the drivers' first stage and the
   * wordline reset: the root below is then sqrt(ln2^2), which is ln 2 to
   * the last bit (tests/test_blocks.c), so no division and no root. */
  if (input_ramp_s == 0.0 && v_switch == 0.5 && b == 0.5) return tau_s * GC_LN2_EXACT;
  double a = input_ramp_s / tau_s;
  /* Most callers switch at half swing with b = 0.5: then 2 a b (1 - v) is
   * ((2 a) / 2) / 2, which is a / 2 to the last bit while 2 a is finite
   * (doubling and halving are exact), one multiply on the chain of stage
   * delays instead of three; and no logarithm. */
  if (v_switch == 0.5 && b == 0.5 && fabs(a) < 0x1p1023)
    return tau_s * sqrt(GC_LN2_EXACT * GC_LN2_EXACT + a * 0.5);
  double lv = v_switch == 0.5 ? -GC_LN2_EXACT : log(v_switch);
  return tau_s * sqrt(lv * lv + 2.0 * a * b * (1.0 - v_switch));
}

int gc_env_init(gpurf_ctx *ctx, gc_env *env, const gpurf_tech *tech,
                gpurf_device_kind kind, double temp_k, int long_channel_periphery);

/* Footprint of a transistor of width w: the channel plus a shared
 * source/drain contact region on each side, as a layout would draw it. */
double gc_transistor_area_m2(const gc_env *e, double w_m);

/* Layout footprint of a static gate: an NMOS row of total width wn and a
 * PMOS row of total width wp (either may be 0), each folded to at most
 * GC_MAX_FOLD_F tall, `fingers` polysilicon gates side by side, with the
 * N-to-P diffusion gap and two power rails (MOSIS-style rules in F, as in
 * CACTI's gate-area model). */
#define GC_NP_GAP_F 5.0
#define GC_POWER_RAIL_F 2.0
#define GC_MAX_FOLD_F 20.0
double gc_gate_area_m2(const gc_env *e, double wn_m, double wp_m, int fingers);

/* Inverter with NMOS width wn and a PMOS sized for equal drive. */
/* Inline: one multiply or divide each, taken per stage of every chain. */
static inline double gc_inv_wp(const gc_env *e, double wn_m) {
  return wn_m * e->dev->n_to_p_drive_ratio;
}
static inline double gc_inv_input_c(const gc_env *e, double wn_m) {
  return e->inv_c_in_per_m * wn_m;
}
static inline double gc_inv_drain_c(const gc_env *e, double wn_m) {
  return e->inv_c_d_per_m * wn_m + e->inv_c_d_fixed;
}
static inline double gc_inv_r(const gc_env *e, double wn_m) { return e->inv_r_ohm_m / wn_m; }
/* Subthreshold leakage power of an inverter, averaged over its two states. */
static inline double gc_inv_leak_w(const gc_env *e, double wn_m) {
  return e->inv_leak_per_m * wn_m;
}
/* Gate leakage power of an inverter (one device on in either state). */
static inline double gc_inv_gate_leak_w(const gc_env *e, double wn_m) {
  return e->inv_gleak_per_m * wn_m;
}
double gc_inv_area_m2(const gc_env *e, double wn_m);

/* A static latch of minimum devices (two inverters and two transmission
 * gates, both enable polarities): footprint, input capacitance of its data
 * and enable pins, and leakage. */
typedef struct gc_latch {
  double area_m2;
  double c_d_f;   /* data input */
  double c_en_f;  /* enable input, both polarities */
  double c_int_f; /* internal nodes that flip when the stored bit changes */
  double leak_w;
  double gate_leak_w;
} gc_latch;

gc_latch gc_latch_min(const gc_env *e);

/* A 2:1 multiplexer of minimum devices (two transmission gates and the
 * select inverter): footprint, data and select input capacitance, output
 * diffusion, resistance of the selected path, leakage. */
typedef struct gc_mux2 {
  double area_m2;
  double c_in_f;
  double c_sel_f;
  double c_out_f;
  double r_ohm;
  double leak_w;
} gc_mux2;

gc_mux2 gc_mux2_min(const gc_env *e);

/* A chain of inverters driving c_load from an input of c_in (logical effort,
 * stage effort near 4). Delay uses the Horowitz ramp model stage by stage.
 * Eight words, no count: a chain is copied from the memo at every lookup,
 * and at this size the copy is four vector moves (larger, compilers copy
 * by string instructions that stall the next read). A wire's count is a
 * full word for the same reason: a narrower field stored alone stalls the
 * copy of the struct. */
typedef struct gc_chain {
  double delay_s;
  double out_ramp_s;
  double energy_j;      /* one full charge of every internal node and the load */
  double leak_w;
  double gate_leak_w;
  double area_m2;
  double input_c_f;
  double last_wn_m;     /* NMOS width of the final stage */
} gc_chain;

/* The memo's lookup copies a chain field by field (gc_driver_chain_effort):
 * a field added here must be copied there. */
_Static_assert(sizeof(gc_chain) == 8 * sizeof(double),
               "gc_chain changed: update the field copy in gc_driver_chain_effort");

/* Stage effort of chains sized for energy rather than speed: about 9 gives a
 * chain some 30% slower than the delay optimum (effort 4) with well under half
 * the transistor width, the trade CACTI makes for its repeaters (Global_30). */
#define GC_STAGE_EFFORT_FAST 4.0
#define GC_STAGE_EFFORT_LEAN 9.0

/* An organisation search sizes the same driver chains for many candidates
 * (same rows, same columns, same bank width); a memo attached to the env
 * returns a remembered chain for identical inputs, bit for bit. */
gc_chain_memo *gc_chain_memo_alloc(void);
void gc_chain_memo_free(gc_chain_memo *memo);
/* Empties a memo (memory of sizeof(gc_chain_memo) bytes) for another
 * search: the chains it holds were sized in another env. */
void gc_chain_memo_clear(gc_chain_memo *memo);

/* The memo's insides, here so that a lookup that hits is inlined at the
 * call (a call would copy every chain whole). Slots are written before they
 * are read: only the bitmap of used slots starts cleared, so a memo per
 * search costs no pass over the slots.
 *
 * A slot is keyed on what sizes the chain (input, load, wire, effort), not
 * on the input ramp: stage count, widths, energy, area and leakage do not
 * depend on the ramp, only the delays do. The slot keeps each stage's time
 * constant, so a chain met again with another ramp (a wordline driver after
 * a row gate whose ramp changes with every candidate) takes only the delay
 * loop, the same operations in the same order as sizing afresh. Chains of
 * more stages than a slot holds are sized afresh every time. At some 200 kB
 * the memo is above the allocator's threshold for mapping pages of its own,
 * which would fault in anew for every search: the bank search borrows it
 * from the context (gpurf_ctx_scratch_take), which keeps it. */
#define GC_MEMO_SLOTS 1024
#define GC_MEMO_STAGES 10

typedef struct gc_memo_slot {
  uint64_t key[4];  /* bit patterns of input, load, wire and effort */
  uint64_t ramp;    /* bit pattern of the ramp the chain's delays are for */
  gc_chain chain;
  double tau_s[GC_MEMO_STAGES]; /* each stage's time constant */
  int stages;
} gc_memo_slot;

/* A row predecoder and the row gate it drives (gc_predecode). */
typedef struct gc_predecode {
  double t_pre_s;    /* the slower group's chain */
  double ramp_pre_s; /* its output ramp (0 without address bits) */
  double energy_j;   /* one line of each group pulses (gc_predecode_groups) */
  double area_m2;    /* 8, 4 or 2 chains per 3-, 2- or 1-bit group */
  double leak_w;     /* likewise, leakage */
  double t_gate_s;   /* the row gate after the slower line */
} gc_predecode;

/* Predecoders a search meets: one per sub-array height and mat shape. */
#define GC_PREDECODE_SLOTS 64

typedef struct gc_predecode_slot {
  uint64_t key[8];
  gc_predecode p;
} gc_predecode_slot;

struct gc_chain_memo {
  uint64_t used[GC_MEMO_SLOTS / 64];
  uint64_t pre_used; /* slots of pre[] written in this search */
  gc_memo_slot slot[GC_MEMO_SLOTS];
  gc_predecode_slot pre[GC_PREDECODE_SLOTS];
};

/* A key word: the bit pattern of one argument (a register move, where an
 * array of arguments read back as words would stall on its stores). */
static inline uint64_t gc_memo_word(double v) {
  uint64_t k;
  memcpy(&k, &v, sizeof k);
  return k;
}

/* The load and the wire vary from chain to chain; the input and the effort
 * take a few values: three independent products, top bits. */
static inline size_t gc_chain_memo_index(uint64_t k0, uint64_t k1, uint64_t k2, uint64_t k4) {
  uint64_t h = k1 * 0x9E3779B97F4A7C15ull + k2 * 0xC2B2AE3D27D4EB4Full +
               (k0 ^ k4) * 0x165667B19E3779F9ull;
  return (size_t)((h ^ (h >> 29)) >> 54) % GC_MEMO_SLOTS;
}

/* Sizes the chain (arguments as gc_driver_chain_effort's) and, with a
 * memo, keeps it in slot i. */
gc_chain gc_chain_memo_fill(const gc_env *e, size_t i, double c_in_f, double c_load_f,
                            double r_wire_ohm, double input_ramp_s, double stage_effort);
/* The chain sized in slot i, its delays taken again for another input ramp
 * (kept in the slot). */
gc_chain gc_chain_memo_reramp(const gc_env *e, size_t i, double input_ramp_s);

/* As gc_driver_chain with a chosen target stage effort. */
static inline gc_chain gc_driver_chain_effort(const gc_env *e, double c_in_f, double c_load_f,
                                              double r_wire_ohm, double input_ramp_s,
                                              double stage_effort) {
  uint64_t k0 = gc_memo_word(c_in_f), k1 = gc_memo_word(c_load_f), k2 = gc_memo_word(r_wire_ohm);
  uint64_t k3 = gc_memo_word(input_ramp_s), k4 = gc_memo_word(stage_effort);
  size_t i = gc_chain_memo_index(k0, k1, k2, k4);
  const gc_chain_memo *m = e->memo;
  if (m && (m->used[i / 64] >> (i % 64) & 1u)) {
    const gc_memo_slot *sl = &m->slot[i];
    const uint64_t *key = sl->key;
    if (key[0] == k0 && key[1] == k1 && key[2] == k2 && key[3] == k4) {
      if (sl->ramp != k3) return gc_chain_memo_reramp(e, i, input_ramp_s);
      /* Field by field: a block copy of the slot compiles to a string move,
       * which the caller's next read waits for. */
      const gc_chain *c = &sl->chain;
      gc_chain r;
      r.delay_s = c->delay_s;
      r.out_ramp_s = c->out_ramp_s;
      r.energy_j = c->energy_j;
      r.leak_w = c->leak_w;
      r.gate_leak_w = c->gate_leak_w;
      r.area_m2 = c->area_m2;
      r.input_c_f = c->input_c_f;
      r.last_wn_m = c->last_wn_m;
      return r;
    }
  }
  return gc_chain_memo_fill(e, i, c_in_f, c_load_f, r_wire_ohm, input_ramp_s, stage_effort);
}

/* At the delay-optimal effort. */
static inline gc_chain gc_driver_chain(const gc_env *e, double c_in_f, double c_load_f,
                                       double r_wire_ohm, double input_ramp_s) {
  return gc_driver_chain_effort(e, c_in_f, c_load_f, r_wire_ohm, input_ramp_s,
                                GC_STAGE_EFFORT_FAST);
}

/* The predecoder's groups for `bits` address bits: 2-bit groups (2-to-4,
 * four lines) and, for an odd count of three or more, one 3-bit group
 * (3-to-8, eight lines), as memory decoders are built (Amrutur and
 * Horowitz, "Fast low-power decoders for RAMs", IEEE JSSC 36(10), 2001;
 * CACTI 7's decoder.cc splits the bits likewise into blocks of 2 or 3 per
 * gate). A lone bit is a 1-bit group (two lines). The row gate has one
 * input per group. */
static inline void gc_predecode_groups(int bits, int *triple, int *pairs, int *single) {
  *triple = bits >= 3 && bits % 2;
  *single = bits == 1;
  *pairs = bits > 0 ? (bits - 3 * *triple - *single) / 2 : 0;
}

/* The predecoder of `bits` address bits in groups (gc_predecode_groups),
 * every line a driver chain from an input of c_in into `gates` row gates
 * of c_gate each (an eighth of them on a 3-bit group's line, a quarter on a
 * 2-bit group's, half on a 1-bit group's) and a wire of c_wire, r_wire;
 * then the row gate of time constant tau_gate after the slowest line
 * (t_gate_step_s: its delay after a step, without predecoder).
 * With a memo, a predecoder met again in one search is taken from it. */
gc_predecode gc_predecode_eval(const gc_env *e, int bits, double gates, double c_gate,
                               double c_in, double c_wire, double r_wire, double tau_gate,
                               double t_gate_step_s);

/* A wire of length len on layer `layer`, driven by a source of r_drive into a
 * load c_load. When repeaters make it faster, it is repeated with the
 * least-energy repeaters whose delay stays within 30% of the optimum
 * (Bakoglu's minimum-delay size and spacing). */
typedef struct gc_wire {
  double delay_s;
  double energy_j;  /* one full charge (C Vdd^2) of wire, repeaters and load */
  double leak_w;
  double area_m2;   /* repeater area; wire tracks are counted by the caller */
  long long repeaters;
} gc_wire;

/* The repeaters of a bus wire between banks on `layer`, drawn and repeated
 * as CACTI 7 draws and repeats its H-tree wires (bus_wire.c); per metre. */
void gc_bus_plan(const gc_env *e, gpurf_wire_kind layer, gc_repeater_plan *out);
/* Fills e->bus[layer] (gc_bus_plan): done by the user that reads it. */
void gc_env_plan_bus(gc_env *e, gpurf_wire_kind layer);

/* Delay per metre of a line of r ohm and c farad per metre cut by
 * repeaters of h minimum inverters every s metres. Inline: a wire shorter
 * than one spacing takes it for every candidate organisation. */
static inline double gc_repeated_delay_per_m(const gc_env *e, double r, double c, double h,
                                             double s) {
  double r0 = e->r0_ohm, c0 = e->c0_f, c0d = e->c0d_f;
  double seg = GC_LN2_RC * (r0 / h) * (h * (c0d + c0) + c * s) +
               GC_SAKURAI_DISTRIBUTED_RC * r * c * s * s + GC_LN2_RC * r * s * h * c0;
  return seg / s;
}

/* The delay of a wire of length len_m > 0 on `layer` with its repeaters,
 * which no driver or load changes: routes of one length take it once
 * (gc_wire_eval_rep) and weigh it for each of their loads. */
static inline double gc_wire_rep_delay(const gc_env *e, gpurf_wire_kind layer, double len_m) {
  const gpurf_wire_layer *l = &e->tech->wires.layer[layer];
  const gc_repeater_plan *p = &e->repeaters[layer];
  /* Shorter than one spacing, a single repeater drives the whole length. */
  return len_m >= p->spacing_m
             ? p->delay_s_per_m * len_m
             : gc_repeated_delay_per_m(e, l->r_ohm_per_m, l->c_f_per_m, p->size, len_m) * len_m;
}

/* gc_wire_eval for len_m > 0 with the repeated delay d_rep of that length
 * (gc_wire_rep_delay) already taken. Inline: each result is returned whole
 * (a compound literal) into the caller's variable, where a struct filled
 * field by field and copied out stalls on the copy. */
static inline gc_wire gc_wire_eval_rep(const gc_env *e, gpurf_wire_kind layer, double len_m,
                                       double r_drive_ohm, double c_load_f, double d_rep) {
  const double v2 = e->vdd_v * e->vdd_v;
  const gpurf_wire_layer *l = &e->tech->wires.layer[layer];
  const gc_repeater_plan *p = &e->repeaters[layer];
  double rw = l->r_ohm_per_m * len_m, cw = l->c_f_per_m * len_m;
  /* Unrepeated: Elmore delay of a distributed line with driver and load. */
  double d_plain = GC_LN2_RC * r_drive_ohm * (cw + c_load_f) + GC_SAKURAI_DISTRIBUTED_RC * rw * cw +
                   GC_LN2_RC * rw * c_load_f;
  if (d_rep < d_plain)
    return (gc_wire){.delay_s = d_rep,
                     .energy_j = (p->cap_f_per_m * len_m + c_load_f) * v2,
                     .leak_w = p->leak_w_per_m * len_m,
                     .area_m2 = p->area_m2_per_m * len_m,
                     .repeaters = (long long)gc_ceil(len_m / p->spacing_m)};
  return (gc_wire){.delay_s = d_plain, .energy_j = (cw + c_load_f) * v2};
}

static inline gc_wire gc_wire_eval(const gc_env *e, gpurf_wire_kind layer, double len_m,
                                   double r_drive_ohm, double c_load_f) {
  if (len_m <= 0.0)
    return (gc_wire){.delay_s = GC_LN2_RC * r_drive_ohm * c_load_f,
                     .energy_j = c_load_f * (e->vdd_v * e->vdd_v)};
  return gc_wire_eval_rep(e, layer, len_m, r_drive_ohm, c_load_f,
                          gc_wire_rep_delay(e, layer, len_m));
}

#endif
