/* Register-file designs and their primitive tables. A design (a YAML file in models/)
 * composes banks, a crossbar, an arbiter, collectors and the extra structures
 * of a technique; its primitive table says what each component costs per
 * event, in leakage and in area. The event engine (events.h) and simulators
 * work from the table alone. All SI. */
#ifndef GPURF_RF_H
#define GPURF_RF_H

#include <stddef.h>

#include "gpurf/bank.h"
#include "gpurf/component.h"
#include "gpurf/context.h"
#include "gpurf/export.h"
#include "gpurf/tech.h"

GPURF_BEGIN_DECLS

/* Names of the components a design's table holds besides its bank groups and
 * extras (which are named in the design file). Their events are named by the
 * GPURF_EV_* constants of component.h: a pipeline counts "bank"/read,
 * GPURF_RF_CROSSBAR/GPURF_EV_TRANSFER, GPURF_RF_ARBITER/GPURF_EV_DECISION
 * and GPURF_RF_COLLECTOR/GPURF_EV_WRITE. */
#define GPURF_RF_BANK "bank"           /* the main bank group of the shipped designs */
#define GPURF_RF_CROSSBAR "crossbar"
#define GPURF_RF_ARBITER "arbiter"
#define GPURF_RF_COLLECTOR "collector" /* operand collectors, one per crossbar output */

#define GPURF_RF_NAME_MAX 48
#define GPURF_RF_MAX_EVENTS 16
#define GPURF_RF_MAX_COMPONENTS 32
/* Limits of a table a file may give (and the event engine accepts). */
#define GPURF_RF_MAX_INSTANCES 65536   /* per component */
#define GPURF_RF_MAX_SUBARRAYS 4096    /* per instance */
/* instances x subarrays summed over a table's components: each sub-array
 * carries gating state in the energy engine, and the limits above alone
 * would allow 32 x 65536 x 4096 of them, tens of gigabytes. Shipped designs
 * stay under a thousand. */
#define GPURF_RF_MAX_TOTAL_SUBARRAYS (1L << 20)

/* One kind of event of a component and the dynamic energy it costs. */
typedef struct gpurf_rf_event {
  char name[GPURF_RF_NAME_MAX]; /* e.g. "read", "write", "transfer", "lookup" */
  double energy_j;              /* per event of one instance */
} gpurf_rf_event;

/* A component of a design: `instances` identical copies (16 banks, 1
 * crossbar, 8 collectors ...), each with the same events and costs. */
typedef struct gpurf_rf_component {
  char name[GPURF_RF_NAME_MAX]; /* e.g. "bank", "crossbar", "arbiter", "write_pool" */
  char kind[GPURF_RF_NAME_MAX]; /* the model behind it: "sram", "stt", "dff", "xbar", ... */
  int instances;
  double leakage_w;             /* per instance, all sub-arrays powered */
  double area_m2;               /* per instance */
  double area_cells_m2;         /* of which storage cells (0 for logic and wires) */
  double access_time_s;         /* read (or the component's only) access; 0 if none */
  double write_time_s;          /* write access, when it differs; 0 if none */
  /* Sub-array power gating (Jeon et al.): a gated sub-array leaks
   * gated_leakage_fraction of its share; waking one costs wake_energy_j and
   * wake_latency_s. subarrays = 0: the component cannot be gated. */
  int subarrays;                /* per instance */
  double gated_leakage_fraction;
  double wake_energy_j;
  double wake_latency_s;
  int n_events;
  gpurf_rf_event events[GPURF_RF_MAX_EVENTS];
} gpurf_rf_component;

/* The primitive table of a design.
 *
 * ABI: sizeof(gpurf_rf_table), sizeof(gpurf_rf_component), sizeof(gpurf_rf_design)
 * and the sizes of the structs they hold are not part of the library's ABI.
 * New fields are only ever appended, so a program built against an older
 * rf.h keeps reading the fields it knows, provided it (1) gets tables and
 * designs from gpurf_rf_table_alloc and gpurf_rf_design_alloc, never from
 * its own storage or sizeof, (2) reaches components, events, bank groups
 * and extras through the accessors below rather than by indexing the
 * arrays, whose element size may grow, and (3) copies with
 * gpurf_rf_table_copy and gpurf_rf_design_copy, not by assignment. The
 * fields may be read and written directly. */
typedef struct gpurf_rf_table {
  char design[GPURF_RF_NAME_MAX];
  double clock_hz;              /* the design's clock: cycles -> seconds */
  int n_components;
  gpurf_rf_component components[GPURF_RF_MAX_COMPONENTS];
} gpurf_rf_table;

/* ---- Designs: the YAML description a primitive table is built from ---- */

#define GPURF_RF_MAX_BANK_GROUPS 8
#define GPURF_RF_TEXT_MAX 512
#define GPURF_RF_PATH_MAX 1024

/* Where data enter and leave a bank of a design. */
typedef enum gpurf_rf_port_place {
  GPURF_RF_PORT_POINT = 0, /* "point" (default): one port in the middle of the bank's
                              edge, as the validated bank model */
  GPURF_RF_PORT_EDGE,      /* "edge": each bit leaves below its column, where a
                              bit-sliced crossbar can take it (no data bus inside) */
  GPURF_RF_PORT_PLACE_COUNT
} gpurf_rf_port_place;

GPURF_API int gpurf_rf_port_place_parse(const char *name, gpurf_rf_port_place *out);
GPURF_API const char *gpurf_rf_port_place_name(gpurf_rf_port_place place);

/* Warp scheduling policy a design asks the pipeline for. */
typedef enum gpurf_rf_policy {
  GPURF_RF_POLICY_DEFAULT = 0, /* not given: the pipeline's default */
  GPURF_RF_POLICY_LRR,         /* "lrr" */
  GPURF_RF_POLICY_GTO,         /* "gto" */
  GPURF_RF_POLICY_TWO_LEVEL,   /* "two_level" */
  GPURF_RF_POLICY_COUNT
} gpurf_rf_policy;

/* Parses "lrr", "gto" or "two_level" (not "default": that is the absence). */
GPURF_API int gpurf_rf_policy_parse(const char *name, gpurf_rf_policy *out);
/* "lrr", "gto", "two_level"; "" for GPURF_RF_POLICY_DEFAULT. */
GPURF_API const char *gpurf_rf_policy_name(gpurf_rf_policy policy);

/* A group of identical, independent storage banks (each has its own port). */
typedef struct gpurf_rf_bank_group {
  char name[GPURF_RF_NAME_MAX];  /* component name in the table, e.g. "bank" */
  char cell[GPURF_RF_PATH_MAX];  /* "sram", a cell name or a cell file path */
  gpurf_ports ports;             /* 1rw, 1r1w, 3r1w ... */
  int count;                     /* banks in the group */
  long long entries;             /* words per bank */
  int width_bits;                /* bits per word */
  gpurf_bank_opt opt;                 /* organisation objective, as gpurf bank --opt */
  int split_write;               /* STT-RAM split sub-array write */
  gpurf_rf_port_place port;
  int gate_groups;               /* SRAM sub-array power gating: groups per bank (a power
                                    of two up to 64), 0 (default) for none */
} gpurf_rf_bank_group;

/* SM parameters a design needs for its sizing (warps, lanes, registers). */
typedef struct gpurf_rf_sm {
  int warps;
  int threads_per_warp;
  long long registers;           /* 32-bit registers per SM */
  /* Optional pipeline parameters (pipeline.h); 0 or "" keeps its default. */
  int schedulers;
  gpurf_rf_policy policy;
  int collectors_sp, collectors_sfu, collectors_mem;
  char core[16];                 /* a named core (gpurf_pipeline_params_core), "" none */
} gpurf_rf_sm;

/* The operand crossbar from the banks to the collectors (optional). */
typedef struct gpurf_rf_crossbar {
  int inputs;
  int outputs;
  int width_bits;
  gpurf_xbar_style style;    /* matrix (the loader's default) or mux */
  gpurf_wire_kind wire;      /* metal of the data wires; the loader's default is
                                semi-global */
  double activity;  /* 0: the crossbar model's default */
} gpurf_rf_crossbar;

/* The bank arbiter (optional). */
typedef struct gpurf_rf_arbiter {
  int banks;
  int requesters;
  int classes;      /* 2 conventional ... 5 with read and write stealing */
} gpurf_rf_arbiter;

#define GPURF_RF_MAX_EXTRAS 8

/* The kinds of extra structure a design may hold. */
typedef enum gpurf_rf_extra_kind {
  GPURF_RF_EXTRA_RENAME_TABLE = 0, /* "rename_table": Jeon et al.'s renaming table */
  GPURF_RF_EXTRA_WRITE_POOL,       /* "write_pool": WarRF's write pool */
  GPURF_RF_EXTRA_COMPRESSED_RF,    /* "compressed_rf": SIMTight's compressed RF */
  GPURF_RF_EXTRA_RFC_TAGS,         /* "rfc_tags": the tag store of Gebhart's RFC */
  GPURF_RF_EXTRA_KIND_COUNT
} gpurf_rf_extra_kind;

GPURF_API int gpurf_rf_extra_kind_parse(const char *name, gpurf_rf_extra_kind *out);
GPURF_API const char *gpurf_rf_extra_kind_name(gpurf_rf_extra_kind kind);

/* An extra structure of a technique. Zero fields take the component
 * model's defaults (the papers' configurations). */
typedef struct gpurf_rf_extra {
  gpurf_rf_extra_kind kind;
  char name[GPURF_RF_NAME_MAX];
  int entries;            /* write_pool: pool entries; rfc_tags: entries per thread */
  long long budget_bytes; /* rename_table: table budget; 0 renames every register */
  int vrf_regs;           /* compressed_rf: vector registers; 0 = uncompressed */
  int arch_regs;          /* architected registers per thread */
  int active_warps;       /* rfc_tags: warps holding RFC entries (two-level scheduler) */
  /* Where the extra's kind stands in the design file (0 when not read from
   * one), so a value the component model refuses is reported there. */
  int line, column;
} gpurf_rf_extra;

typedef struct gpurf_rf_design {
  char design[GPURF_RF_NAME_MAX];
  char source[GPURF_RF_TEXT_MAX];   /* which paper, table or figure it reproduces */
  char tech[GPURF_RF_PATH_MAX];     /* node name or path */
  gpurf_device_kind device;
  double temp_k;
  double clock_hz;
  gpurf_rf_sm sm;
  size_t n_bank_groups;
  gpurf_rf_bank_group bank_groups[GPURF_RF_MAX_BANK_GROUPS];
  int has_crossbar;
  gpurf_rf_crossbar crossbar;
  int has_arbiter;
  gpurf_rf_arbiter arbiter;
  size_t n_extras;
  gpurf_rf_extra extras[GPURF_RF_MAX_EXTRAS];
  char path[GPURF_RF_PATH_MAX];
} gpurf_rf_design;

/* ---- Allocation and access (see the ABI note at gpurf_rf_table) ---- */

/* A zeroed table or design, or NULL when out of memory; _free takes NULL. */
GPURF_API gpurf_rf_table *gpurf_rf_table_alloc(void);
GPURF_API void gpurf_rf_table_free(gpurf_rf_table *table);
GPURF_API gpurf_rf_design *gpurf_rf_design_alloc(void);
GPURF_API void gpurf_rf_design_free(gpurf_rf_design *design);
/* Copies the whole struct, fields of later versions included. */
GPURF_API void gpurf_rf_table_copy(gpurf_rf_table *dst, const gpurf_rf_table *src);
GPURF_API void gpurf_rf_design_copy(gpurf_rf_design *dst, const gpurf_rf_design *src);

/* Element i, or NULL when i is outside the table's, component's or design's
 * count. Non-const variants for filling a design or table in by hand. */
GPURF_API const gpurf_rf_component *gpurf_rf_table_component(const gpurf_rf_table *table, int i);
GPURF_API const gpurf_rf_event *gpurf_rf_component_event(const gpurf_rf_component *component,
                                                         int i);
GPURF_API gpurf_rf_bank_group *gpurf_rf_design_bank_group(gpurf_rf_design *design, size_t i);
/* For a table written by hand: the next component of the table, or the
 * next event of a component, zeroed and counted; NULL when full. */
GPURF_API gpurf_rf_component *gpurf_rf_table_add_component(gpurf_rf_table *table);
GPURF_API gpurf_rf_event *gpurf_rf_component_add_event(gpurf_rf_component *component);
GPURF_API gpurf_rf_extra *gpurf_rf_design_extra(gpurf_rf_design *design, size_t i);

/* Loads a design file: by path, or by name from DATA_DIR/models/NAME.yaml. */
GPURF_API int gpurf_rf_design_load(gpurf_ctx *ctx, const char *name_or_path,
                                   gpurf_rf_design *out);

/* Sets one key of a loaded design by its dotted path, as the design file
 * spells it: "tech", "clock_hz", "sm.warps", "banks[0].count",
 * "banks[1].entries", "crossbar.inputs", "arbiter.classes",
 * "extras[0].vrf_regs" ... The value is text ("16", "22nm", "1r1w") checked
 * against the key's type and range as the loader checks it; names of nodes
 * and cells are loaded to check them. Unknown keys, indices beyond the
 * design's lists, sections the design lacks and bad values fail with the key
 * in the error's field and leave the design unchanged. */
GPURF_API int gpurf_rf_design_set(gpurf_ctx *ctx, gpurf_rf_design *design, const char *key,
                                  const char *value);

/* Builds the primitive table of a design from the component models. A
 * design filled in by the caller is checked first: an enumeration out of
 * its range, a port mix without ports or a count out of range fails with
 * GPURF_EINVAL and the key ("device", "banks[0].opt", "extras[1].kind") in
 * the error's field. */
GPURF_API int gpurf_rf_design_table(gpurf_ctx *ctx, const gpurf_rf_design *design,
                                    gpurf_rf_table *out);

/* The costs of a register file from a design (name or path: the table is
 * built from the models) or from a primitive-table file (root key `table`,
 * docs/table-format.md). */
GPURF_API int gpurf_rf_costs_load(gpurf_ctx *ctx, const char *name_or_path,
                                  gpurf_rf_table *out);

/* Loads a YAML primitive table (root key `table:`, docs/table-format.md)
 * with the schema loader: every problem is reported as FILE:LINE:COL with
 * the key. */
GPURF_API int gpurf_rf_table_load(gpurf_ctx *ctx, const char *path, gpurf_rf_table *out);

/* Index of a component by name, or -1. */
GPURF_API int gpurf_rf_table_find(const gpurf_rf_table *table, const char *component);
/* Index of an event of component c by name, or -1. */
GPURF_API int gpurf_rf_table_find_event(const gpurf_rf_table *table, int c, const char *event);

GPURF_END_DECLS

#endif
