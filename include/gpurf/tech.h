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
#define GPURF_TECH_MAX_TEMPS 32

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

/* One row of a device's leakage-versus-temperature table. */
typedef struct gpurf_leakage_point {
  double temp_k;
  double i_off_n_a_per_m; /* NMOS subthreshold current per metre of width */
  double i_off_p_a_per_m; /* PMOS subthreshold current per metre of width */
  double i_gate_a_per_m;  /* gate tunnelling current per metre of width */
} gpurf_leakage_point;

typedef struct gpurf_device {
  char source[GPURF_TECH_SOURCE_MAX];
  double vdd_v;
  double vth_v;
  double vdsat_v;
  double l_phy_m;
  double l_elec_m;
  double t_ox_m;
  double c_ox_f_per_m2;
  double mobility_n_m2_per_v_s;
  double c_gate_f_per_m;
  double c_fringe_f_per_m;
  double c_overlap_f_per_m;
  double c_junction_f_per_m2;
  double c_junction_sidewall_f_per_m;
  double i_on_n_a_per_m;
  double i_on_p_a_per_m;
  double r_eff_n_factor;     /* R_on,n x width = factor x vdd / i_on_n */
  double n_to_p_drive_ratio; /* R_on,p / R_on,n at equal width */
  double gm_p_to_n_ratio;
  double long_channel_leakage_factor;
  size_t n_leakage;
  gpurf_leakage_point leakage[GPURF_TECH_MAX_TEMPS];
} gpurf_device;

typedef struct gpurf_wire_layer {
  double pitch_m;
  double r_ohm_per_m;
  double c_f_per_m;
} gpurf_wire_layer;

typedef struct gpurf_wires {
  char source[GPURF_TECH_SOURCE_MAX];
  gpurf_wire_layer layer[GPURF_WIRE_COUNT];
} gpurf_wires;

/* Layout rules used by pitch-matched periphery and drain capacitance. */
typedef struct gpurf_layout {
  char source[GPURF_TECH_SOURCE_MAX];
  double contact_width_m;
  double poly_to_contact_m;
  double poly_to_poly_m;
} gpurf_layout;

typedef struct gpurf_sense_amp {
  char source[GPURF_TECH_SOURCE_MAX];
  double delay_s;
  double energy_j;
} gpurf_sense_amp;

typedef struct gpurf_tech {
  char name[GPURF_TECH_NAME_MAX];
  char path[GPURF_TECH_PATH_MAX]; /* file it was read from; empty if interpolated */
  int interpolated;               /* 1 when built between two node files */
  char interpolated_from[2][GPURF_TECH_NAME_MAX]; /* the neighbouring nodes */
  double feature_size_m;
  gpurf_device device[GPURF_DEVICE_COUNT];
  gpurf_wires wires;
  gpurf_layout layout;
  gpurf_sense_amp sense_amp;
} gpurf_tech;

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

/* Loads one node file. */
GPURF_API int gpurf_tech_load_file(gpurf_ctx *ctx, const char *path,
                                   gpurf_tech *out);

/* Loads a node by name ("22", "22nm", "28nm") from the data directory, or by
 * path (anything containing '/' or ending in .yaml). A node between two
 * shipped files is interpolated; one outside their range is GPURF_EUNSUPPORTED. */
GPURF_API int gpurf_tech_load(gpurf_ctx *ctx, const char *node_or_path,
                              gpurf_tech *out);

/* Lists the node files in the data directory, smallest feature size first.
 * Writes at most max entries and the total count to *count. */
GPURF_API int gpurf_tech_list(gpurf_ctx *ctx, gpurf_tech_entry *entries,
                              size_t max, size_t *count);

/* Device currents at temp_k, interpolated in log space over the table. */
GPURF_API int gpurf_tech_leakage_at(gpurf_ctx *ctx, const gpurf_tech *tech,
                                    gpurf_device_kind kind, double temp_k,
                                    gpurf_leakage *out);

GPURF_END_DECLS

#endif
