/* Private helpers shared by the crossbar, arbiter and storage components:
 * gate-level logic built from two-input gates, flip-flops, and SRAM arrays
 * evaluated through the bank model. */
#ifndef GPURF_COMP_INTERNAL_H
#define GPURF_COMP_INTERNAL_H

#include "circuit/blocks.h"
#include "gpurf/component.h"

/* A two-input static gate of minimum drive (the series pair twice the
 * minimum width), the unit control logic is counted in: AND/OR networks are
 * bubble-pushed into NAND2 form. */
typedef struct logic_gate {
  double area_m2;
  double c_in_f;   /* one input */
  double c_par_f;  /* its own output diffusion */
  double c_wire_f; /* local wire to the next gate, about one footprint long */
  double r_ohm;    /* worst pull */
  double leak_w;
  double gate_leak_w;
} logic_gate;

logic_gate logic_nand2(const gc_env *e);

/* Switching of control logic fed by random data, in the bank model's
 * convention E = activity x C Vdd^2: half the nodes toggle and a toggle
 * costs half of C Vdd^2 on average. */
#define LOGIC_ACTIVITY 0.25

/* Running totals of a block of logic: footprint, capacitance switched when
 * every node toggles once, leakage. */
typedef struct logic_sum {
  double area_m2;
  double cap_f;       /* data nodes */
  double clock_cap_f; /* flip-flop clock pins, charged every cycle */
  double leak_w;
  double gate_leak_w;
  long long gates;
  long long flops;
} logic_sum;

/* Adds `count` gates, each driving `fanout` gate inputs. */
void logic_add_gates(logic_sum *s, const logic_gate *g, double count, double fanout);
/* Adds `count` edge-triggered flip-flops (two latches each). */
void logic_add_flops(logic_sum *s, const gc_env *e, double count);
void logic_sum_add(logic_sum *dst, const logic_sum *src, double times);

/* Delay of `levels` gates in series, each driving `fanout` copies of itself,
 * the last one driving c_last_f instead; ramps carried stage to stage. */
double logic_path_s(const gc_env *e, const logic_gate *g, int levels, double fanout,
                    double c_last_f);

/* Two-input gates and levels of a tree combining n signals. */
long long logic_tree_gates(long long n);
int logic_tree_levels(long long n);

/* A decoder of n outputs: two predecoders of half the address bits each and
 * one two-input gate per output. */
long long logic_decoder_gates(long long n);
int logic_decoder_levels(long long n);

/* Bits to number n things: ceil(log2(n)), 0 for n <= 1. */
int comp_bits_for(long long n);

/* Appends an event or an area part to a cost record (names: static strings). */
void comp_cost_event(gpurf_component_cost *c, const char *name, double energy_j, double time_s);
void comp_cost_part(gpurf_component_cost *c, const char *name, double area_m2);

/* Common argument check: tech set, device known, temperature positive. */
int comp_check_env(gpurf_ctx *ctx, const char *what, const gpurf_tech *tech,
                   gpurf_device_kind device, double temp_k);

/* One SRAM array of `entries` words of `width` bits in `banks` banks, with
 * the cell the port mix calls for; entries are rounded up to fill the banks
 * evenly. */
int comp_array_eval(gpurf_ctx *ctx, const gpurf_tech *tech, gpurf_device_kind device,
                    double temp_k, const gpurf_sram_cells *cells, long long entries, int width,
                    gpurf_ports ports, int banks, gpurf_array_cost *out);

#endif
