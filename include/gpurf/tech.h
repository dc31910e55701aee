/* Technology nodes: device and wire parameters loaded from tech/<node>.yaml,
 * interpolated between files, and evaluated at a temperature. All SI. */
#ifndef GPURF_TECH_H
#define GPURF_TECH_H

#include <stddef.h>
#include "gpurf/context.h"
#include "gpurf/export.h"

GPURF_BEGIN_DECLS

#define GPURF_TECH_NAME_MAX 64
#define GPURF_TECH_SOURCE_MAX 512
#define GPURF_TECH_PATH_MAX 1024

/* ITRS device flavours. */
typedef enum gpurf_device_kind {
  GPURF_DEVICE_HP = 0,   /* high performance */
  GPURF_DEVICE_LSTP = 1, /* low standby power */
  GPURF_DEVICE_LOP = 2,  /* low operating power */
  GPURF_DEVICE_COUNT = 3
} gpurf_device_kind;

typedef enum gpurf_wire_kind {
  GPURF_WIRE_LOCAL = 0,
  GPURF_WIRE_SEMI_GLOBAL = 1,
  GPURF_WIRE_GLOBAL = 2,
  GPURF_WIRE_COUNT = 3
} gpurf_wire_kind;

/* A node's parameters. Opaque: allocate with gpurf_tech_alloc, fill with
 * gpurf_tech_load or gpurf_tech_load_file, read with the accessors below,
 * release with gpurf_tech_free. The library may add parameters without
 * breaking programs linked against an earlier version. */
typedef struct gpurf_tech gpurf_tech;
/* One device flavour of a node; belongs to its gpurf_tech. */
typedef struct gpurf_device gpurf_device;

/* Device currents at one temperature. */
typedef struct gpurf_leakage {
  double temp_k;
  double i_off_n_a_per_m;
  double i_off_p_a_per_m;
  double i_gate_a_per_m;
} gpurf_leakage;

typedef struct gpurf_tech_entry {
  char name[GPURF_TECH_NAME_MAX];
  char path[GPURF_TECH_PATH_MAX];
  double feature_size_m;
} gpurf_tech_entry;

/* Default temperature for leakage, as CACTI uses. */
#define GPURF_DEFAULT_TEMP_K 360.0

/* Parses "hp", "lstp", "lop". */
GPURF_API int gpurf_device_kind_parse(const char *name, gpurf_device_kind *out);
GPURF_API const char *gpurf_device_kind_name(gpurf_device_kind kind);
GPURF_API const char *gpurf_wire_kind_name(gpurf_wire_kind kind);
/* "local", "semi-global" (or "semi_global", as in node files) or "global". */
GPURF_API int gpurf_wire_kind_parse(const char *name, gpurf_wire_kind *out);

/* An empty node (every value 0, every string ""), ready to be loaded. */
GPURF_API int gpurf_tech_alloc(gpurf_ctx *ctx, gpurf_tech **out);
GPURF_API void gpurf_tech_free(gpurf_tech *tech);

/* Loads one node file into tech. On failure tech is unchanged. */
GPURF_API int gpurf_tech_load_file(gpurf_ctx *ctx, const char *path,
                                   gpurf_tech *tech);

/* Loads a node by name ("22", "22nm", "28nm") from the data directory, or by
 * path (anything containing '/' or ending in .yaml). A node between two
 * shipped files is interpolated; one outside their range is GPURF_EUNSUPPORTED.
 * On failure tech is unchanged. */
GPURF_API int gpurf_tech_load(gpurf_ctx *ctx, const char *node_or_path,
                              gpurf_tech *tech);

/* Lists the node files in the data directory, smallest feature size first.
 * Writes at most max entries and the total count to *count. */
GPURF_API int gpurf_tech_list(gpurf_ctx *ctx, gpurf_tech_entry *entries,
                              size_t max, size_t *count);

/* Device currents at temp_k, interpolated in log space over the table. */
GPURF_API int gpurf_tech_leakage_at(gpurf_ctx *ctx, const gpurf_tech *tech,
                                    gpurf_device_kind kind, double temp_k,
                                    gpurf_leakage *out);

/* ---- Accessors ----
 * Numeric parameters are read by identifier, so a new one is a new
 * enumerator (appended: existing values keep their numbers) rather than a new
 * struct layout. An identifier, flavour or layer
 * out of range reads as NaN (numbers), "" (strings) or NULL (devices). */

/* The node's name ("40nm") and the file it was read from ("" if interpolated). */
GPURF_API const char *gpurf_tech_name(const gpurf_tech *tech);
GPURF_API const char *gpurf_tech_path(const gpurf_tech *tech);
/* 1 when the node was built between two node files, whose names are stored
 * to *smaller and *larger (either may be NULL); 0 otherwise. */
GPURF_API int gpurf_tech_interpolated(const gpurf_tech *tech, const char **smaller,
                                      const char **larger);

/* Node-wide parameters. */
typedef enum gpurf_tech_param {
  GPURF_TECH_FEATURE_SIZE_M = 0,
  GPURF_TECH_CONTACT_WIDTH_M = 1,   /* layout rules */
  GPURF_TECH_POLY_TO_CONTACT_M = 2,
  GPURF_TECH_POLY_TO_POLY_M = 3,
  GPURF_TECH_SENSE_AMP_DELAY_S = 4, /* sense amplifier */
  GPURF_TECH_SENSE_AMP_ENERGY_J = 5,
  GPURF_TECH_PARAM_COUNT
} gpurf_tech_param;
GPURF_API double gpurf_tech_value(const gpurf_tech *tech, gpurf_tech_param param);

/* Where the wire, layout and sense-amplifier sections of a node come from. */
typedef enum gpurf_tech_section {
  GPURF_TECH_WIRES = 0,
  GPURF_TECH_LAYOUT = 1,
  GPURF_TECH_SENSE_AMP = 2
} gpurf_tech_section;
GPURF_API const char *gpurf_tech_source(const gpurf_tech *tech, gpurf_tech_section section);

/* Per-metre parameters of one wire layer. */
typedef enum gpurf_wire_param {
  GPURF_WIRE_PITCH_M = 0,
  GPURF_WIRE_R_OHM_PER_M = 1,
  GPURF_WIRE_C_F_PER_M = 2,
  /* The layer drawn as CACTI's repeated-wire model draws it (width and
   * spacing a quarter of the pitch): the bus between banks. */
  GPURF_WIRE_BUS_R_OHM_PER_M = 3,
  GPURF_WIRE_BUS_C_F_PER_M = 4,
  GPURF_WIRE_PARAM_COUNT
} gpurf_wire_param;
GPURF_API double gpurf_tech_wire_value(const gpurf_tech *tech, gpurf_wire_kind layer,
                                       gpurf_wire_param param);

/* A device flavour of the node, valid as long as tech is. */
GPURF_API const gpurf_device *gpurf_tech_device(const gpurf_tech *tech, gpurf_device_kind kind);

/* Device parameters, named as the node files' keys (gpurf_tech_device_param_key). */
typedef enum gpurf_device_param {
  GPURF_DEVICE_VDD_V = 0,
  GPURF_DEVICE_VTH_V,
  GPURF_DEVICE_VDSAT_V,
  GPURF_DEVICE_L_PHY_M,
  GPURF_DEVICE_L_ELEC_M,
  GPURF_DEVICE_T_OX_M,
  GPURF_DEVICE_C_OX_F_PER_M2,
  GPURF_DEVICE_MOBILITY_N_M2_PER_V_S,
  GPURF_DEVICE_C_GATE_F_PER_M,
  GPURF_DEVICE_C_FRINGE_F_PER_M,
  GPURF_DEVICE_C_OVERLAP_F_PER_M,
  GPURF_DEVICE_C_JUNCTION_F_PER_M2,
  GPURF_DEVICE_C_JUNCTION_SIDEWALL_F_PER_M,
  GPURF_DEVICE_I_ON_N_A_PER_M,
  GPURF_DEVICE_I_ON_P_A_PER_M,
  GPURF_DEVICE_R_EFF_N_FACTOR,     /* R_on,n x width = factor x vdd / i_on_n */
  GPURF_DEVICE_N_TO_P_DRIVE_RATIO, /* R_on,p / R_on,n at equal width */
  GPURF_DEVICE_GM_P_TO_N_RATIO,
  GPURF_DEVICE_LONG_CHANNEL_LEAKAGE_FACTOR,
  GPURF_DEVICE_PARAM_COUNT
} gpurf_device_param;
GPURF_API double gpurf_tech_device_value(const gpurf_device *dev, gpurf_device_param param);
/* "vdd_v", "vth_v", ...; "" out of range. */
GPURF_API const char *gpurf_tech_device_param_key(gpurf_device_param param);
GPURF_API const char *gpurf_tech_device_source(const gpurf_device *dev);

/* The device's leakage-versus-temperature table, coolest row first. */
GPURF_API size_t gpurf_tech_device_leakage_rows(const gpurf_device *dev);
/* Row i of the table; GPURF_EINVAL when i is out of range. */
GPURF_API int gpurf_tech_device_leakage_row(const gpurf_device *dev, size_t i,
                                            gpurf_leakage *out);

GPURF_END_DECLS

#endif
