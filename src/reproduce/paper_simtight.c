/* SIMTight (seed 003): a compressed register file (scalar file, vector file
 * of 1024/512/256 registers, free-slot stack) with dynamic spilling and a
 * parallel scalar pipeline, on a 32-lane, 64-warp RV32I SM. Published
 * values: Section IV, Figs. 7-9. */
#include <math.h>

#include "reproduce/repro_internal.h"

#define WHY "compression, spilling and the scalar pipeline are not in the pipeline yet"

static const repro_claim_def claims[] = {
    {"storage_kbit_vrf1024", "register-file storage", "kbit", 1202, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. IV, Fig. 8 (baseline 2097 kbit)"},
    {"storage_kbit_vrf512", "register-file storage", "kbit", 672, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. IV, Fig. 8"},
    {"storage_kbit_vrf256", "register-file storage", "kbit", 407, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. IV, Fig. 8"},
    {"vrf_resident_max_geomean", "geomean of the largest share of registers in the VRF",
     "fraction", 0.12, GPURF_REPRODUCE_EQUAL, 0, "Sec. IV, Fig. 7"},
    {"cycle_overhead_vrf1024", "cycles ratio - 1", "fraction", 0.008, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. IV, Fig. 8"},
    {"cycle_overhead_vrf512", "cycles ratio - 1", "fraction", 0.010, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. IV, Fig. 8"},
    {"cycle_overhead_vrf256", "cycles ratio - 1", "fraction", 0.095, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. IV, Fig. 8"},
    {"memory_overhead_vrf1024", "main-memory accesses ratio - 1", "fraction", 0.0,
     GPURF_REPRODUCE_ABOUT, 0.001, "Sec. IV, Fig. 8"},
    {"memory_overhead_vrf512", "main-memory accesses ratio - 1", "fraction", 0.013,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. IV, Fig. 8"},
    {"memory_overhead_vrf256", "main-memory accesses ratio - 1", "fraction", 0.479,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. IV, Fig. 8"},
    {"scalarised_instructions", "share of instructions scalarised", "fraction", 0.31,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. IV, Fig. 9"},
    {"scalar_pipe_cycles", "cycles ratio - 1", "fraction", -0.24, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. IV, Fig. 9"},
    {"rv32e_storage", "storage ratio - 1", "fraction", -0.50, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. IV (RV32E)"},
    {"rv32e_cycles", "cycles ratio - 1", "fraction", 0.07, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. IV (RV32E)"},
    {"rv32e_memory", "main-memory accesses ratio - 1", "fraction", 0.61, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. IV (RV32E)"},
    {NULL, NULL, NULL, 0, 0, 0, NULL}};

static const char *const vrf[][2] = {{"simtight-vrf1024", "storage_kbit_vrf1024"},
                                     {"simtight-vrf512", "storage_kbit_vrf512"},
                                     {"simtight-vrf256", "storage_kbit_vrf256"}};

static int plan(repro_env *env) {
  int rc = GPURF_OK;
  for (int i = 0; i < 3 && rc == GPURF_OK; i++) rc = repro_plan_design(env, vrf[i][0], NULL);
  return rc;
}

static int compute(repro_env *env) {
  int rc = GPURF_OK;
  for (int i = 0; i < 3 && rc == GPURF_OK; i++) {
    const repro_claim_def *d = repro_claim_def_find(claims, vrf[i][1]);
    const repro_job *j = repro_find_design(env, vrf[i][0], NULL);
    rc = j ? repro_claim_value(env, d, j->m[RM_STORAGE_BITS] / 1000.0,
                               "from the compressed-RF model's field widths")
           : repro_claim_no_data(env, d);
  }
  if (rc == GPURF_OK) rc = repro_claims_rest_not_modelled(env, claims, WHY);
  return rc;
}

const repro_paper_def repro_paper_simtight = {
    {"simtight", "SIMTight: advanced dynamic scalarisation for RISC-V GPGPUs",
     "M. Naylor et al., University of Cambridge (seed 003)", "synthetic+shipped"},
    plan,
    compute};
