/* Circuit-level building blocks: pure functions of a technology. */
#ifndef GPURF_CIRCUIT_H
#define GPURF_CIRCUIT_H

#include "gpurf/export.h"
#include "gpurf/cell.h"
#include "gpurf/tech.h"

GPURF_BEGIN_DECLS

/* Horowitz's delay of a gate stage driven by a ramp of input_ramp_s, whose
 * output would switch with time constant tau_s under a step input.
 * v_switch is the switching threshold as a fraction of the swing, and b the
 * fraction of the input swing at which the output starts to move.
 * M. Horowitz, "Timing models for MOS circuits", Stanford PhD thesis, 1983. */
GPURF_API double gpurf_circuit_horowitz_s(double input_ramp_s, double tau_s,
                                         double v_switch, double b);

/* Fan-out-of-4 inverter delay of a device flavour: a chain of identical
 * inverters, each loading four copies of itself, driven by the previous
 * stage's output ramp until the ramp settles. */
GPURF_API double gpurf_circuit_fo4_delay_s(const gpurf_tech *tech,
                                          gpurf_device_kind kind);

/* Gate input capacitance (gate + overlap + fringe) of width_m. */
GPURF_API double gpurf_circuit_gate_c_f(const gpurf_device *dev, double width_m);

/* Drain capacitance of an unstacked single-finger device of width_m. */
GPURF_API double gpurf_circuit_drain_c_f(const gpurf_tech *tech,
                                        const gpurf_device *dev, double width_m);

/* On-resistance of an NMOS (is_pmos = 0) or PMOS device of width_m. */
GPURF_API double gpurf_circuit_r_on_ohm(const gpurf_device *dev, double width_m,
                                       int is_pmos);

/* Physical footprint of one storage cell at a node. */
typedef struct gpurf_cell_dims {
  double width_m;
  double height_m;
  double area_m2;
  int extra_ports; /* ports beyond the first, each growing the cell */
} gpurf_cell_dims;

/* Cell footprint. F-unit geometry is scaled by the feature size: height =
 * sqrt(area x aspect) F, width = sqrt(area / aspect) F. Each SRAM port beyond
 * the first adds port_growth_pitches local wire pitches to both the height
 * and the width (a wordline and a bitline track per port), the rule CACTI
 * uses for multi-ported cells. */
GPURF_API int gpurf_circuit_cell_dims(gpurf_ctx *ctx, const gpurf_tech *tech,
                                      const gpurf_cell *cell, gpurf_cell_dims *out);

/* Quantities derived from one device flavour and the wires, printed by
 * `gpurf tech show` as sanity checks of a node file. */
typedef struct gpurf_tech_derived {
  double r_on_n_ohm_m;    /* NMOS on-resistance x width */
  double r_on_p_ohm_m;    /* PMOS on-resistance x width */
  double c_input_f_per_m; /* gate + overlap + fringe, per metre of width */
  double c_drain_f_per_m; /* junction + sidewall + fringe of a single-finger drain */
  double fo4_delay_s;     /* see gpurf_circuit_fo4_delay_s */
  gpurf_leakage leakage;  /* at the requested temperature */
  double wire_rc_delay_1mm_s[GPURF_WIRE_COUNT]; /* 50% delay of 1 mm unrepeated wire */
} gpurf_tech_derived;

/* Fills the derived checks for one device flavour at temp_k. */
GPURF_API int gpurf_circuit_derive(gpurf_ctx *ctx, const gpurf_tech *tech,
                                   gpurf_device_kind kind, double temp_k,
                                   gpurf_tech_derived *out);

GPURF_END_DECLS

#endif
