/* Private interface between the bank front end, the organisation search and
 * the cell-specific sub-array models. */
#ifndef GPURF_BANK_INTERNAL_H
#define GPURF_BANK_INTERNAL_H

#include <stddef.h>
#include <string.h>

#include "circuit/blocks.h"
#include "gpurf/bank.h"

typedef struct bank_in bank_in;
typedef struct subarray_cost subarray_cost;

/* The cell-specific sub-array model the search calls for every candidate. */
typedef int (*subarray_eval_fn)(const bank_in *in, const gpurf_bank_org *org,
                                subarray_cost *out);
/* Optional costs a bank option adds once the bank is laid out (one bank;
 * may grow the bank's footprint). */
typedef void (*bank_extra_fn)(const bank_in *in, const gpurf_bank_org *org,
                              const subarray_cost *sa, gpurf_bank_cost *cost, double *bank_w_m,
                              double *bank_h_m);

/* Most decoder inputs a row decoder of up to MAX rows can have: the 2-bit
 * predecode groups of its address (rows up to 2^10 in a sub-array, and
 * room beyond). */
#define DECODER_FANIN_MAX 16

/* Circuit quantities of the sub-array that depend on the node, the cell and
 * the ports but not on the organisation: computed once per search by
 * subarray_prepare instead of once per candidate. */
typedef struct subarray_fixed {
  double c_in_min_f;                       /* input of a minimum inverter */
  double r_nand_ohm;                       /* decoder NAND, drive of a minimum inverter */
  double nand_c_in_f[DECODER_FANIN_MAX + 1];  /* by fan-in */
  double nand_c_out_f[DECODER_FANIN_MAX + 1];
  double nand_area_m2[DECODER_FANIN_MAX + 1];
  double nand_leak_w[DECODER_FANIN_MAX + 1];
  double t_nand_s[DECODER_FANIN_MAX + 1];  /* NAND delay into a wordline driver of c_in_min_f */
  double tau_nand_s[DECODER_FANIN_MAX + 1]; /* its time constant (for a ramp input) */
  /* SRAM only (sram_subarray_prepare). */
  double cell_sub_w, cell_gate_w;          /* leakage of one cell */
  double c_wl_per_col_f;                   /* wordline load of one column */
  double c_bl_access_read_f, c_bl_access_write_f; /* drain of a cell's access device */
  double c_bl_precharge_f, c_bl_mux_f, c_bl_sense_f; /* fixed bitline loads */
  double r_cell_ohm, r_mux_ohm;            /* read path through cell and column mux */
  double sense_margin_v, log_sense, log_restore, v_overdrive_v, swing_v;
  double c_pre_gates_f, r_pre_ohm;
  double sa_width_m, sa_area_m2, pre_area_m2, mux_area_m2, c_mux_sel_f;
  double sa_c_load_f, sa_delay_s; /* bit-line latch sense amplifier (sense_amp_latch) */
  int read_bitlines;                       /* bitlines of the read port's column */
  int bitlines_per_col;                    /* of every port */
} subarray_fixed;

/* Routing quantities of the bank's layout that depend on the node alone:
 * filled by bank_layout_prepare so that the layout of every candidate
 * starts from them. A repeated route's source driver drives the first
 * repeater and the idle taps' drains, which no length changes: its chain is
 * kept for each count of taps a search can meet (2^k, k < LAYOUT_TAPS_LOG2). */
#define LAYOUT_TAPS_LOG2 6
/* The grid of several banks for one shape of bank (bank_layout_multi). */
typedef struct interbank_grid {
  int nx, ny;          /* banks along the width, along the height */
  int lev_h, lev_v;    /* levels of the tree between them */
  int aw, dw;          /* address and data wires of its bus */
  double channel_w_m, channel_h_m; /* widening of the group by the bus */
} interbank_grid;
typedef struct layout_fixed {
  double c_port_f, r_port_ohm, c_in_min_f;
  double rep_c_taps_f[LAYOUT_TAPS_LOG2]; /* idle taps' drains on a repeated route */
  gc_chain rep_chain[LAYOUT_TAPS_LOG2];  /* its source driver */
  int rep_k_max;                         /* of them, those up to 2^rep_k_max taps; -1: none */
  interbank_grid grid[2];                /* several banks: [1] for banks taller than wide */
} layout_fixed;

/* What stays fixed while the search varies the organisation. */
struct bank_in {
  const gpurf_bank_spec *spec;
  gc_env env;
  double cell_w_m, cell_h_m; /* cell footprint with its port growth */
  int read_paths;            /* ports that read: rw + read */
  int write_paths;           /* ports that write: rw + write */
  int wordline_ports;        /* every port has its own wordline and decoder */
  long long entries_per_bank;
  int address_bits;          /* to select a word in one bank */
  subarray_eval_fn subarray_eval;
  bank_extra_fn bank_extra;  /* NULL when the bank has no extra option */
  int min_ndbl;              /* fewest sub-arrays along the bitline (2 for split halves) */
  int whole_mats;            /* 1: an access opens all four sub-arrays of each mat along
                                the word (CACTI's mat, the cacti space); 0: one row */
  subarray_fixed fixed;      /* filled by subarray_prepare (and sram_subarray_prepare) */
  layout_fixed layout;       /* filled by bank_layout_prepare */
};

/* What stays fixed for a spec already checked: the device environment, the
 * cell grown for its ports, the paths and address bits, the sub-array's and
 * the layout's fixed quantities (no sub-array model set, no memo). Tests
 * also use it to evaluate one chosen organisation. */
int bank_in_init(gpurf_ctx *ctx, const gpurf_bank_spec *s, bank_in *in);
/* The same from the spec's environment, made already (no memo in it). */
int bank_in_init_env(gpurf_ctx *ctx, const gpurf_bank_spec *s, const gc_env *env, bank_in *in);

/* The environments a context keeps, with the search's chain memo
 * (bank_env.c): held in the context's scratch, of bank_envs_size() bytes,
 * zeroed when the scratch was made. bank_envs_get gives the spec's
 * environment, its bus plan made, and the memo for the search, cleared
 * unless the last search used the same environment. */
typedef struct bank_envs bank_envs;
size_t bank_envs_size(void);
int bank_envs_get(gpurf_ctx *ctx, bank_envs *c, const gpurf_bank_spec *s, gc_env *env,
                  gc_chain_memo **memo);

#define SUBARRAY_REJECT_MAX 256

/* Costs of one sub-array activation and one sub-array's footprint. */
struct subarray_cost {
  double width_m, height_m;
  double area_part_m2[GPURF_BANK_PART_COUNT];     /* one sub-array */
  double leak_part_w[GPURF_BANK_PART_COUNT];      /* one sub-array */
  double gate_leak_w;                        /* one sub-array */
  double read_part_j[GPURF_BANK_PART_COUNT];      /* one activated sub-array, read */
  double write_part_j[GPURF_BANK_PART_COUNT];     /* one activated sub-array, write */
  double t_decode_s, t_wordline_s, t_bitline_s, t_sense_s, t_precharge_s, t_write_s;
  double t_row_gate_s;      /* the row decoder's last gate, the part of t_decode_s that
                               fires inside the sub-array after predecoding */
  double t_wl_reset_s;      /* the selected wordline falling back (its driver's last stage) */
  double t_precharge_drv_s; /* the precharge/equalise enable across the sub-array */
  double wordline_ramp_s;                    /* rise time of the wordline at its far end */
  /* Why this organisation cannot work; "" if it can. Last: subarray_cost_clear. */
  char reject[SUBARRAY_REJECT_MAX];
};

/* Zeroes n bytes (n known when compiled) in pieces of at most 64, which
 * the compiler writes as vector stores: a clear of a whole record is a
 * string store, which the reads that follow soon after wait for. */
static inline void bank_clear_bytes(void *p, size_t n) {
  unsigned char *b = (unsigned char *)p;
  size_t whole = n - n % 64;
  for (size_t i = 0; i < whole; i += 64) memset(b + i, 0, 64);
  memset(b + whole, 0, n % 64);
}

/* Clears a sub-array's costs for a model to fill: every number, and an
 * empty reason (the rest of the reason's buffer is left as it is). */
static inline void subarray_cost_clear(subarray_cost *o) {
  bank_clear_bytes(o, offsetof(subarray_cost, reject));
  o->reject[0] = '\0';
}

/* The mats of an organisation, as CACTI builds its mat (mat.cc): up to two
 * sub-arrays side by side, mirrored about a decoder column they share, and
 * up to two above each other, mirrored about a periphery strip they share,
 * where the mat's data and address enter and leave. One predecoder per mat
 * drives the row decoders of all its sub-arrays; the bank's trees branch
 * down to mats, not to sub-arrays. An access opens one row of ndwl
 * sub-arrays: the lower or the upper half of each mat along it. */
typedef struct bank_mat {
  int w, h;        /* sub-arrays of one mat along the wordline, along the bitline */
  int subarrays;   /* w x h */
  int count;       /* mats in the bank */
} bank_mat;

static inline void bank_mat_of(const gpurf_bank_org *o, bank_mat *m) {
  m->w = o->ndwl >= 2 ? 2 : 1;
  m->h = o->ndbl >= 2 ? 2 : 1;
  m->subarrays = m->w * m->h;
  m->count = ((o->ndwl + m->w - 1) / m->w) * ((o->ndbl + m->h - 1) / m->h);
}

/* Sub-arrays one access opens: a row of ndwl, or with whole mats both rows
 * of each mat along the word. */
static inline int bank_open_subarrays(const bank_in *in, const gpurf_bank_org *o) {
  return in->whole_mats && o->ndbl >= 2 ? 2 * o->ndwl : o->ndwl;
}

int sram_subarray_eval(const bank_in *in, const gpurf_bank_org *org, subarray_cost *out);
/* Fill in->fixed before a search (bank_in_init does): the decoder's part
 * for any sub-array model, the rest for SRAM. */
void subarray_prepare(bank_in *in);
void sram_subarray_prepare(bank_in *in);
/* Load and regeneration delay of the bit-line latch sense amplifier for an
 * input difference v_sense (sram_subarray.c). */
void sense_amp_latch(const gc_env *e, double v_sense, double *c_load_f, double *delay_s);
int stt_subarray_eval(const bank_in *in, const gpurf_bank_org *org, subarray_cost *out);
/* Fails for a node where the cell's read circuit has no data (current
 * sensing outside 22-45 nm). */
int stt_check_node(gpurf_ctx *ctx, const bank_in *in);

/* The row decoder of `rows` wordlines (2-bit predecode, a NAND per row, a
 * wordline driver chain into c_wl through r_wl) for `ports` ports, added
 * into o: the SRAM sub-array's decoder, shared with the STT-RAM one. */
void subarray_row_decoder(const bank_in *in, const gpurf_bank_org *org, double c_wl, double r_wl,
                          double strip_h_m, subarray_cost *o, int ports);

/* STT-RAM split sub-array write: the second address path, the address latches
 * and multiplexers of the two halves (a bank_extra_fn). */
void stt_split_extra(const bank_in *in, const gpurf_bank_org *org, const subarray_cost *sa,
                     gpurf_bank_cost *cost, double *bank_w_m, double *bank_h_m);

/* SRAM sub-array power gating (spec gate_groups > 0): sleep transistors per
 * group of sub-arrays, the gated leakage and the wake-up cost, for one bank
 * (after its layout, before the banks are combined). */
void bank_power_gating(const bank_in *in, const gpurf_bank_org *org, const subarray_cost *sa,
                       gpurf_bank_cost *cost, double *bank_w_m, double *bank_h_m);

/* Flip-flop and latch arrays: one array per bank, no sub-array search. */
int ff_array_eval(gpurf_ctx *ctx, const bank_in *in, gpurf_bank_cost *cost);

/* Fills the geometry and routing of one bank from its sub-array, and the
 * totals, into cost (for one bank: area and leakage of that bank only). */
void bank_layout_single(const bank_in *in, const gpurf_bank_org *org, const subarray_cost *sa,
                        gpurf_bank_cost *cost, double *bank_w_m, double *bank_h_m);

/* The layout's fixed quantities, and the bus plan between banks where
 * the bank needs one and the env has none yet (bank_in_init does). */
void bank_layout_prepare(bank_in *in);
/* Plans the buses between banks (and, in the cacti space, between mats). */
void bank_layout_plan_buses(gc_env *e);

/* Adds the wiring between banks and scales area and leakage to all banks. */
void bank_layout_multi(const bank_in *in, double bank_w_m, double bank_h_m, gpurf_bank_cost *cost);

/* Organisation search for sub-array banks (SRAM and STT-RAM): every
 * candidate goes through in->subarray_eval, the shared layout and
 * in->bank_extra; candidates the sub-array model rejects are skipped. */
int sram_bank_search(gpurf_ctx *ctx, const bank_in *in, gpurf_bank_cost *best);

/* The best organisation with sub-arrays of exactly rows x cols (*found 0:
 * none); used to compare our layout at another tool's chosen shape. */
int sram_bank_best_of_shape(gpurf_ctx *ctx, const bank_in *in, int rows, int cols,
                            gpurf_bank_cost *out, int *found);

#endif
