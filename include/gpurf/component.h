/* Register-file components beyond the storage banks: the operand crossbar,
 * the bank arbiter, and the extra storage of published techniques (Jeon's
 * renaming table, WarRF's write pool, SIMTight's compressed register file).
 * Every quantity is SI with its unit in the name; energies are per event. */
#ifndef GPURF_COMPONENT_H
#define GPURF_COMPONENT_H

#include "gpurf/bank.h"
#include "gpurf/cell.h"
#include "gpurf/context.h"
#include "gpurf/export.h"
#include "gpurf/tech.h"

GPURF_BEGIN_DECLS

/* ---- The cost record every component fills ---- */

/* Names of the events components report; a primitive table (rf.h) keys its
 * per-event energies by them. */
#define GPURF_EV_READ "read"
#define GPURF_EV_WRITE "write"
#define GPURF_EV_TRANSFER "transfer"     /* crossbar: one word from an input to an output */
#define GPURF_EV_DECISION "decision"     /* arbiter: one arbitration cycle of all banks */
#define GPURF_EV_LOOKUP "lookup"         /* renaming table: read one mapping */
#define GPURF_EV_UPDATE "update"         /* renaming table, RFC tags: write one entry or row */
#define GPURF_EV_ALLOC "alloc"
#define GPURF_EV_RELEASE "release"
#define GPURF_EV_FLAG_READ "flag_read"
#define GPURF_EV_FLAG_FILL "flag_fill"
#define GPURF_EV_CHECK "check"           /* RFC tags: one instruction's operands checked */
#define GPURF_EV_CAM_SEARCH "cam_search"
#define GPURF_EV_CAM_UPDATE "cam_update"
#define GPURF_EV_SRF_READ "srf_read"
#define GPURF_EV_SRF_WRITE "srf_write"
#define GPURF_EV_VRF_READ "vrf_read"
#define GPURF_EV_VRF_WRITE "vrf_write"
#define GPURF_EV_STACK_PUSH "stack_push"
#define GPURF_EV_STACK_POP "stack_pop"

#define GPURF_COMPONENT_MAX_EVENTS 8
#define GPURF_COMPONENT_MAX_PARTS 12

/* One kind of event of a component: its dynamic energy and how long it takes
 * (0 when the model gives it no time of its own). */
typedef struct gpurf_component_event {
  const char *name; /* a GPURF_EV_* constant: static storage */
  double energy_j;  /* one event of one instance */
  double time_s;
} gpurf_component_event;

/* What one instance of a component costs, in the same shape for every
 * component (storage banks, crossbar, arbiter, renaming table, write pool,
 * compressed RF, RFC tags, flip-flop arrays). The component's own record
 * carries this as its member `base`, beside the details only it has. */
typedef struct gpurf_component_cost {
  const char *kind;        /* the model: "sram", "stt", "dff", "latch", "xbar", "arbiter",
                              "rename_table", ... (static storage) */
  double area_m2;
  double leakage_sub_w;    /* subthreshold, all sub-arrays powered */
  double leakage_gate_w;   /* gate oxide (0 where the model has none) */
  double access_time_s;    /* the read, or the component's only, access: what an operand
                              read waits for */
  int n_events;
  gpurf_component_event events[GPURF_COMPONENT_MAX_EVENTS];
  /* Area by part; the parts add up to area_m2. A part named "cells" is the
   * storage cells of an array built from them. */
  int n_parts;
  const char *part_name[GPURF_COMPONENT_MAX_PARTS];
  double area_part_m2[GPURF_COMPONENT_MAX_PARTS];
  /* Sub-array power gating (Jeon et al.): subarrays = 0 when the component
   * cannot be gated; else a gated sub-array leaks gated_leakage_fraction of
   * its share, and waking one costs wake_energy_j and wake_latency_s. */
  int subarrays;
  double gated_leakage_fraction;
  double wake_energy_j;
  double wake_latency_s;
} gpurf_component_cost;

/* The event of that name, or NULL. */
GPURF_API const gpurf_component_event *gpurf_component_cost_event(const gpurf_component_cost *cost,
                                                                  const char *event);
/* Area of the part of that name, 0 when there is none. */
GPURF_API double gpurf_component_cost_part_m2(const gpurf_component_cost *cost, const char *part);

/* A storage bank's record (bank.h) in the common shape: events read and
 * write, kind from the cell, parts as gpurf_bank_part_name names them, gating
 * with gate_groups. The bank keeps its own wider record because its
 * organisation search evaluates thousands of them. */
GPURF_API int gpurf_bank_cost_common(const gpurf_bank_spec *spec, const gpurf_bank_cost *bank,
                                     gpurf_component_cost *out);

/* ---- SRAM cells the storage components build their arrays from ---- */

/* The shipped cells, picked by port mix as `gpurf bank --cell sram` does:
 * 6T for 1rw, 8T for 1r1w, the multi-port cell (grown per port) otherwise. */
typedef struct gpurf_sram_cells {
  gpurf_cell single_port;
  gpurf_cell dual_port;
  gpurf_cell multi_port;
} gpurf_sram_cells;

/* Loads sram-6t, sram-8t-1r1w and sram-multiport from the data directory. */
GPURF_API int gpurf_sram_cells_load(gpurf_ctx *ctx, gpurf_sram_cells *out);
GPURF_API const gpurf_cell *gpurf_sram_cells_pick(const gpurf_sram_cells *cells,
                                                  const gpurf_ports *ports);

/* ---- Crossbar ---- */

typedef enum gpurf_xbar_style {
  GPURF_XBAR_MATRIX = 0, /* bit-sliced matrix: one N x M slice per bit position,
                            slices in a square array, wires to the four edges */
  GPURF_XBAR_MUX,        /* per output, one N:1 tree of 2:1 multiplexers per bit,
                            input buses running past every output */
  GPURF_XBAR_STYLE_COUNT
} gpurf_xbar_style;

GPURF_API int gpurf_xbar_style_parse(const char *name, gpurf_xbar_style *out);
GPURF_API const char *gpurf_xbar_style_name(gpurf_xbar_style style);

typedef enum gpurf_xbar_part {
  GPURF_XBAR_PART_WIRES = 0, /* data wires and the area their tracks claim */
  GPURF_XBAR_PART_SWITCHES,  /* crosspoints or multiplexer trees */
  GPURF_XBAR_PART_DRIVERS,   /* port drivers, slice output drivers, repeaters */
  GPURF_XBAR_PART_CONTROL,   /* select lines and their decoders */
  GPURF_XBAR_PART_COUNT
} gpurf_xbar_part;

GPURF_API const char *gpurf_xbar_part_name(gpurf_xbar_part part);

typedef struct gpurf_xbar_spec {
  const gpurf_tech *tech;
  gpurf_device_kind device;
  int inputs;       /* N ports in (banks) */
  int outputs;      /* M ports out (operand collectors) */
  int width_bits;   /* bits per port */
  gpurf_xbar_style style;
  double activity;  /* E = activity x C Vdd^2 per data wire per transfer */
  double temp_k;
  gpurf_wire_kind wire_layer; /* metal of the data wires (both directions) */
} gpurf_xbar_spec;

/* Defaults: matrix, hp, activity 0.25 (a static bus carrying random data:
 * half the wires toggle, a toggle costs half of C Vdd^2), 360 K, semi-global
 * wires. tech, inputs, outputs and width must be set. */
GPURF_API void gpurf_xbar_spec_init(gpurf_xbar_spec *spec);

/* base: kind "xbar"; one event, transfer (one width-bit word from one
 * input to one output; its time, and access_time_s, from input port to
 * output port for the farthest bit); area parts in gpurf_xbar_part order. */
typedef struct gpurf_xbar_cost {
  gpurf_component_cost base;
  double width_m, height_m;
  double fo4_delay_s;       /* of the node, for expressing the delay in FO4 */
  int slices_x, slices_y;   /* matrix: slice array; mux: 0 */
  int tracks_h, tracks_v;   /* wire tracks of the widest horizontal/vertical channel */
  double transfer_part_j[GPURF_XBAR_PART_COUNT];
  double delay_part_s[GPURF_XBAR_PART_COUNT];
  double leakage_part_w[GPURF_XBAR_PART_COUNT];
} gpurf_xbar_cost;

GPURF_API int gpurf_xbar_eval(gpurf_ctx *ctx, const gpurf_xbar_spec *spec,
                              gpurf_xbar_cost *cost);

/* ---- Bank arbiter ---- */

/* Request classes of the bank-stealing arbiter (Jing et al.). */
typedef enum gpurf_arbiter_class {
  GPURF_ARBITER_FORCED_WRITE = 0,
  GPURF_ARBITER_NORMAL_READ,
  GPURF_ARBITER_STEALING_READ,
  GPURF_ARBITER_NORMAL_WRITE,
  GPURF_ARBITER_STEALING_WRITE,
  GPURF_ARBITER_CLASS_COUNT
} gpurf_arbiter_class;

GPURF_API const char *gpurf_arbiter_class_name(gpurf_arbiter_class cls);

#define GPURF_ARBITER_MIN_CLASSES 2
#define GPURF_ARBITER_MAX_CLASSES 5

/* Classes present for K = 2..5, highest priority first:
 *   2: normal write > normal read                    (conventional)
 *   3: normal write > normal read > stealing read    (read stealing)
 *   4: forced write > normal read > normal write > stealing write (write stealing)
 *   5: forced write > normal read > stealing read > normal write > stealing write
 * Writes `k` classes into out; fails for K outside 2..5. */
GPURF_API int gpurf_arbiter_classes(int k, gpurf_arbiter_class out[GPURF_ARBITER_MAX_CLASSES]);

typedef enum gpurf_arbiter_part {
  GPURF_ARBITER_PART_DECODE = 0, /* bank-request decoding (1) */
  GPURF_ARBITER_PART_SELECT,     /* round-robin selection inside each class (2) */
  GPURF_ARBITER_PART_STEAL_CHECK,/* vacant-bank search for stealing writes (3) */
  GPURF_ARBITER_PART_PRIORITY,   /* class priority and grant return (4) */
  GPURF_ARBITER_PART_STATE,      /* round-robin pointers and the stealing status table */
  GPURF_ARBITER_PART_COUNT
} gpurf_arbiter_part;

GPURF_API const char *gpurf_arbiter_part_name(gpurf_arbiter_part part);

typedef struct gpurf_arbiter_spec {
  const gpurf_tech *tech;
  gpurf_device_kind device;
  int banks;         /* B */
  int requesters;    /* R request sources per class (collectors, writeback ports) */
  int classes;       /* K, 2..5 */
  int rf_registers;  /* warp registers in the RF: sizes the stealing status table */
  double activity;   /* fraction of C Vdd^2 per logic node per decision */
  double temp_k;
} gpurf_arbiter_spec;

/* Defaults: hp, 5 classes, 1024 registers, activity 0.25, 360 K.
 * tech, banks and requesters must be set. */
GPURF_API void gpurf_arbiter_spec_init(gpurf_arbiter_spec *spec);

/* base: kind "arbiter"; area of the gate footprints (no routing); one
 * event, decision (one arbitration cycle of all banks), whose time and
 * access_time_s are the read path: request in to read enable out, the
 * critical path; area parts in gpurf_arbiter_part order. */
typedef struct gpurf_arbiter_cost {
  gpurf_component_cost base;
  double write_path_s;     /* request in to write enable out */
  double read_path_fo4;
  double fo4_delay_s;
  long long gates;         /* two-input gate equivalents */
  long long flops;
  long long status_bits;   /* stealing status table (0 without write stealing) */
  int class_count;
  gpurf_arbiter_class class_order[GPURF_ARBITER_MAX_CLASSES];
  double energy_part_j[GPURF_ARBITER_PART_COUNT];
  double leakage_part_w[GPURF_ARBITER_PART_COUNT];
} gpurf_arbiter_cost;

GPURF_API int gpurf_arbiter_eval(gpurf_ctx *ctx, const gpurf_arbiter_spec *spec,
                                 gpurf_arbiter_cost *cost);

/* The bank-stealing extension against the conventional 2-class arbiter of
 * the same banks and requesters. */
typedef struct gpurf_arbiter_overhead {
  double extra_area_m2;
  double area_share;          /* of rf_area_m2; 0 when no RF area was given */
  double extra_read_path_fo4; /* added to the read-enable path */
  double extra_energy_j;      /* per decision */
  double scheduler_mux_fo4;   /* the 2:1 multiplexer added to the warp scheduler */
} gpurf_arbiter_overhead;

/* spec gives the stealing arbiter (its classes); rf_area_m2 may be 0. */
GPURF_API int gpurf_arbiter_overhead_eval(gpurf_ctx *ctx, const gpurf_arbiter_spec *spec,
                                          double rf_area_m2, gpurf_arbiter_overhead *out);

/* ---- Storage components built on SRAM banks ---- */

/* What a storage array of a component costs (one gpurf_bank_eval). */
typedef struct gpurf_array_cost {
  long long entries;
  int width_bits;
  int banks;
  double area_m2;
  double read_energy_j;
  double write_energy_j;
  double access_time_s;
  double leakage_sub_w;
  double leakage_gate_w;
} gpurf_array_cost;

/* Jeon et al.'s register renaming table: warps x renamed registers entries of
 * ceil(log2(physical registers)) bits in `banks` banks, one availability bit
 * vector per bank with a find-first-free encoder, and the release flag cache. */
typedef struct gpurf_rename_spec {
  const gpurf_tech *tech;
  gpurf_device_kind device;
  double temp_k;
  const gpurf_sram_cells *cells;
  int warps;              /* 48 */
  int arch_regs;          /* architected registers per thread: 63 */
  int phys_regs;          /* physical warp registers: 1024 */
  int banks;              /* 4 */
  long long budget_bytes; /* 0: every register renamed; else the table keeps at
                             most this many bytes and the longest-lived registers
                             are exempted (mapped directly) */
  int flag_entries;       /* release flag cache entries: 10 */
  int flag_bits;          /* release flags per entry: 54 */
  int flag_tag_bits;      /* tag bits per entry: 0, as the paper counts 68 B */
} gpurf_rename_spec;

/* Defaults: Jeon's baseline (48, 63, 1024, 4 banks, no budget, 10 x 54 flags),
 * hp, 360 K. tech and cells must be set. */
GPURF_API void gpurf_rename_spec_init(gpurf_rename_spec *spec);

/* base: kind "rename_table"; events lookup (read one mapping; time: the
 * table's access, also access_time_s), update (write one mapping), alloc
 * (find a free register in a bank and mark it taken; time: the find-free
 * path), release (mark a register free), flag_read, flag_fill; parts table,
 * flag_cache, availability. */
typedef struct gpurf_rename_cost {
  gpurf_component_cost base;
  int entry_bits;          /* ceil(log2(phys_regs)) */
  int renamed_regs;        /* per warp */
  int exempt_regs;         /* per warp, mapped directly */
  long long table_bits;
  long long availability_bits;
  long long flag_cache_bits;
  gpurf_array_cost table;
  gpurf_array_cost flag_cache;
} gpurf_rename_cost;

GPURF_API int gpurf_rename_eval(gpurf_ctx *ctx, const gpurf_rename_spec *spec,
                                gpurf_rename_cost *cost);

/* WarRF's write pool: an N-entry indicator CAM (warp id and register id
 * searched; dirty bit and pool id read on a match) and an N-entry array of
 * warp registers (lanes x word bits). */
typedef struct gpurf_wpool_spec {
  const gpurf_tech *tech;
  gpurf_device_kind device;
  double temp_k;
  const gpurf_sram_cells *cells;
  int entries;    /* 60 */
  int warps;      /* 48 */
  int arch_regs;  /* 63 */
  int lanes;      /* 32 */
  int word_bits;  /* 32 */
  gpurf_ports ports; /* of the pool array: 1rw like the RF banks */
} gpurf_wpool_spec;

GPURF_API void gpurf_wpool_spec_init(gpurf_wpool_spec *spec);

/* base: kind "write_pool"; events cam_search (time: the search), cam_update,
 * read and write of the pool array (time: its access, also access_time_s);
 * parts cam and array. The CAM model counts subthreshold leakage only. */
typedef struct gpurf_wpool_cost {
  gpurf_component_cost base;
  int key_bits;       /* warp id + register id, searched */
  int payload_bits;   /* dirty + pool id, read on a match */
  long long cam_bits;
  long long array_bits;
  double cam_leakage_w;
  gpurf_array_cost array;
} gpurf_wpool_cost;

GPURF_API int gpurf_wpool_eval(gpurf_ctx *ctx, const gpurf_wpool_spec *spec,
                               gpurf_wpool_cost *cost);

/* The tag store of Gebhart et al.'s hardware register file cache (RFC): per
 * active warp a row of flip-flops holding, for each of its RFC entries, the
 * architected register it caches with a valid and a dirty bit, kept near the
 * scheduler. A check reads the warp's row and compares every operand of the
 * instruction with every tag (an XOR per bit and an AND tree per tag, then an
 * encoder of the hit entry); an update rewrites the warp's row. */
typedef struct gpurf_rfc_tags_spec {
  const gpurf_tech *tech;
  gpurf_device_kind device;
  double temp_k;
  const gpurf_cell *cell;  /* flip-flop or latch cell of the tag store */
  int warps;               /* active warps with RFC entries: 8 */
  int entries_per_thread;  /* RFC entries per thread: 6 */
  int arch_regs;           /* architected registers per thread: 63 */
  int lookups;             /* operands checked per instruction: 4 (3 sources, 1 result) */
} gpurf_rfc_tags_spec;

GPURF_API void gpurf_rfc_tags_spec_init(gpurf_rfc_tags_spec *spec);

/* base: kind "rfc_tags"; events check (one instruction: a row read and
 * every comparison; time: row read and compare, also access_time_s) and
 * update (one row written); parts store and compare. */
typedef struct gpurf_rfc_tags_cost {
  gpurf_component_cost base;
  int tag_bits;            /* register id + valid + dirty */
  long long store_bits;
  gpurf_array_cost store;
} gpurf_rfc_tags_cost;

GPURF_API int gpurf_rfc_tags_eval(gpurf_ctx *ctx, const gpurf_rfc_tags_spec *spec,
                                  gpurf_rfc_tags_cost *cost);

/* SIMTight's compressed register file: an SRF entry per architectural vector
 * register (compressed flag, base, stride code, VRF pointer), kept in
 * srf_copies identical memories for read ports, a VRF of vrf_regs vector
 * registers, and a free-slot stack of VRF addresses. vrf_regs = 0 is the
 * uncompressed baseline (one vector register per architectural register). */
typedef struct gpurf_crf_spec {
  const gpurf_tech *tech;
  gpurf_device_kind device;
  double temp_k;
  const gpurf_sram_cells *cells;
  int warps;          /* 64 */
  int lanes;          /* 32 */
  int arch_regs;      /* 32 (RV32I) */
  int word_bits;      /* 32 */
  int vrf_regs;       /* 0: uncompressed baseline */
  int base_bits;      /* 32 */
  int stride_bits;    /* 2: strides 0, 1, 2, 4 */
  int srf_copies;     /* 2 (two memories of two read ports give four) */
  int pointer_in_base;/* 1: an uncompressed register's VRF pointer is kept in its
                         base field (the flag tells which) */
  gpurf_ports srf_ports; /* per copy: 2r1w */
  gpurf_ports vrf_ports; /* 2r1w */
} gpurf_crf_spec;

GPURF_API void gpurf_crf_spec_init(gpurf_crf_spec *spec);

/* base: kind "compressed_rf". Compressed (vrf_regs > 0): events srf_read,
 * srf_write (every copy), vrf_read, vrf_write, stack_push, stack_pop; parts
 * srf, vrf, stack, stack_pointer. Uncompressed: only the vector array
 * exists and is read and written directly: events read and write, part
 * vrf. access_time_s: the read path, the SRF lookup then, for a vector,
 * the VRF. */
typedef struct gpurf_crf_cost {
  gpurf_component_cost base;
  int srf_entry_bits;
  int pointer_bits;
  long long srf_bits;   /* all copies */
  long long vrf_bits;
  long long stack_bits;
  long long total_bits;
  gpurf_array_cost srf;      /* one copy */
  gpurf_array_cost vrf;
  gpurf_array_cost stack;
} gpurf_crf_cost;

GPURF_API int gpurf_crf_eval(gpurf_ctx *ctx, const gpurf_crf_spec *spec, gpurf_crf_cost *cost);

GPURF_END_DECLS

#endif
