/* The layout of a node, private to the library, and the pieces shared by
 * the tech module's files. The layers above (circuit, component) include it
 * to read parameters directly in their inner loops; programs linking the
 * library use the accessors of gpurf/tech.h, so fields may change here. */
#ifndef GPURF_TECH_INTERNAL_H
#define GPURF_TECH_INTERNAL_H

#include "gpurf/tech.h"
#include "yaml/yaml_schema.h"

#define GPURF_TECH_MAX_TEMPS 32

/* One row of a device's leakage-versus-temperature table. */
typedef struct gpurf_leakage_point {
  double temp_k;
  double i_off_n_a_per_m; /* NMOS subthreshold current per metre of width */
  double i_off_p_a_per_m; /* PMOS subthreshold current per metre of width */
  double i_gate_a_per_m;  /* gate tunnelling current per metre of width */
} gpurf_leakage_point;

/* tech_access.c maps gpurf_device_param to these fields. */
struct gpurf_device {
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
};

typedef struct gpurf_wire_layer {
  double pitch_m;
  double r_ohm_per_m;
  double c_f_per_m;
  /* The layer drawn as CACTI's repeated-wire model draws its H-tree wires
   * (width and spacing a quarter of the pitch): the bus between banks. */
  double bus_r_ohm_per_m;
  double bus_c_f_per_m;
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

/* Sense amplifier: the node's published per-amplifier delay and energy
 * (CACTI charges them to its low-swing wires' receivers), and the device
 * widths of the bit-line latch sense amplifier in multiples of the feature
 * size, from which the sub-arrays compute its load, delay and energy. */
typedef struct gpurf_sense_amp {
  char source[GPURF_TECH_SOURCE_MAX];
  double delay_s;
  double energy_j;
  double w_sense_n_f;  /* cross-coupled NMOS */
  double w_sense_p_f;  /* cross-coupled PMOS */
  double w_sense_en_f; /* tail (enable) NMOS */
  double w_iso_f;      /* PMOS isolating the latch from the bitline */
  double w_mux_f;      /* NMOS pass device of the mux after the latch */
} gpurf_sense_amp;

struct gpurf_tech {
  char name[GPURF_TECH_NAME_MAX];
  char path[GPURF_TECH_PATH_MAX]; /* file it was read from; empty if interpolated */
  int interpolated;               /* 1 when built between two node files */
  char interpolated_from[2][GPURF_TECH_NAME_MAX]; /* the neighbouring nodes */
  double feature_size_m;
  gpurf_device device[GPURF_DEVICE_COUNT];
  gpurf_wires wires;
  gpurf_layout layout;
  gpurf_sense_amp sense_amp;
};

/* Field table for a whole node file. */
extern const ys_field gpurf_tech_schema[];

/* Checks that need several fields at once (vth < vdd, increasing table). */
int gpurf_tech_check(ys_doc *doc, const gpurf_tech *tech);

/* One scalar parameter of a node, for interpolation across nodes. */
typedef struct tech_interp_param {
  const char *name;
  size_t offset; /* from the start of gpurf_tech */
  int log_scale; /* interpolate log(value): quantities that scale exponentially */
} tech_interp_param;

/* Every interpolable parameter except the leakage tables; *count set. */
const tech_interp_param *tech_interp_params(size_t *count);

/* Builds a node at feature_size_m from nodes sorted by feature size. */
int gpurf_tech_interpolate(gpurf_ctx *ctx, const gpurf_tech *nodes, size_t n,
                           double feature_size_m, gpurf_tech *out);

/* Parses "22", "22nm", "22.5 nm" into metres; returns 0 when it is not a size. */
int gpurf_tech_parse_node_name(const char *name, double *feature_size_m);

/* 1-D monotone interpolation used across nodes and temperatures: Steffen with
 * three or more points, linear with two; in log space when log_scale. */
int gpurf_tech_interp1(const double *x, const double *y, size_t n, double at,
                       int log_scale, double *out);

#endif
