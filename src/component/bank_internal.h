/* Private interface between the bank front end, the organisation search and
 * the cell-specific sub-array models. */
#ifndef GPURF_BANK_INTERNAL_H
#define GPURF_BANK_INTERNAL_H

#include "circuit/blocks.h"
#include "gpurf/bank.h"

/* What stays fixed while the search varies the organisation. */
typedef struct bank_in {
  const gpurf_bank_spec *spec;
  gc_env env;
  double cell_w_m, cell_h_m; /* cell footprint with its port growth */
  int read_paths;            /* ports that read: rw + read */
  int write_paths;           /* ports that write: rw + write */
  int wordline_ports;        /* every port has its own wordline and decoder */
  long long entries_per_bank;
  int address_bits;          /* to select a word in one bank */
} bank_in;

/* Costs of one sub-array activation and one sub-array's footprint. */
typedef struct subarray_cost {
  double width_m, height_m;
  double area_part_m2[GPURF_PART_COUNT];     /* one sub-array */
  double leak_part_w[GPURF_PART_COUNT];      /* one sub-array */
  double gate_leak_w;                        /* one sub-array */
  double read_part_j[GPURF_PART_COUNT];      /* one activated sub-array, read */
  double write_part_j[GPURF_PART_COUNT];     /* one activated sub-array, write */
  double t_decode_s, t_wordline_s, t_bitline_s, t_sense_s, t_precharge_s, t_write_s;
  double wordline_ramp_s;                    /* rise time of the wordline at its far end */
} subarray_cost;

int sram_subarray_eval(const bank_in *in, const gpurf_bank_org *org, subarray_cost *out);

/* Fills the geometry and routing of one bank from its sub-array, and the
 * totals, into cost (for one bank: area and leakage of that bank only). */
void bank_layout_single(const bank_in *in, const gpurf_bank_org *org, const subarray_cost *sa,
                        gpurf_cost *cost, double *bank_w_m, double *bank_h_m);

/* Adds the wiring between banks and scales area and leakage to all banks. */
void bank_layout_multi(const bank_in *in, double bank_w_m, double bank_h_m, gpurf_cost *cost);

/* Organisation search for SRAM banks. */
int sram_bank_search(gpurf_ctx *ctx, const bank_in *in, gpurf_cost *best);

#endif
