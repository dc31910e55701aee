/* Gebhart et al., a hierarchical register file with a register-file cache
 * (RFC) and a compiler-managed operand register file (ORF) (seed 001):
 * 32 warps per SM, two-level scheduling with 4-8 active warps. */
#include <math.h>

#include "reproduce/repro_internal.h"

/* One scheduler over the SM's 32 warps, as the paper's SM (Section 2.1). */
#define ALL_ACTIVE "schedulers=1;policy=lrr"
#define ACTIVE8 "schedulers=1;policy=two_level;active_warps=8"
#define ACTIVE6 "schedulers=1;policy=two_level;active_warps=6"
#define MRF "gebhart-mrf"
#define WHY_RFC "the register-file cache, the ORF allocation pass and their energy are not in the pipeline yet"

static const repro_claim_def claims[] = {
    {"rfc6_mrf_reads_filtered_min", "MRF reads avoided, smallest", "fraction", 0.45,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 7.1"},
    {"rfc6_mrf_reads_filtered_max", "MRF reads avoided, largest", "fraction", 0.75,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 7.1"},
    {"rfc6_mrf_writes_filtered_min", "MRF writes avoided, smallest", "fraction", 0.35,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 7.1"},
    {"rfc6_mrf_writes_filtered_max", "MRF writes avoided, largest", "fraction", 0.75,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 7.1"},
    {"rfc_liveness_energy_gain_min", "energy gain of liveness hints, smallest", "fraction", 0.10,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 7"},
    {"rfc_liveness_energy_gain_max", "energy gain of liveness hints, largest", "fraction", 0.20,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 7"},
    {"hw_rfc6_energy_saving", "RF energy saved vs MRF only", "fraction", 0.34,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 7.8"},
    {"sw_orf3_energy_saving", "RF energy saved vs MRF only", "fraction", 0.45,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 7.8"},
    {"hw_3level_energy_saving", "RF energy saved vs MRF only", "fraction", 0.41,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 7.8"},
    {"sw_3level_energy_saving", "RF energy saved vs MRF only", "fraction", 0.54,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 7.8"},
    {"limit_all_l0_saving", "RF energy saved, every access from L0", "fraction", 0.87,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 8"},
    {"limit_l1_5entry_saving", "RF energy saved, 5-entry L1 limit", "fraction", 0.61,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 8"},
    {"orf_partial_read_alloc_mrf_reads", "MRF reads ratio - 1", "fraction", -0.20,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 5.3-5.4: partial-range and read-operand allocation"},
    {"twolevel_8active_perf", "IPC ratio - 1, 8 of 32 warps active vs all", "fraction", 0.0,
     GPURF_REPRODUCE_ABOUT, 0.01,
     "Sec. 7.2: 8 active warps lose no performance against all 32"},
    {"twolevel_6active_perf_compute", "IPC ratio - 1, 6 of 32 warps active vs all", "fraction",
     -0.01, GPURF_REPRODUCE_EQUAL, 0, "Sec. 7.2"},
    {"flush_extra_mrf_accesses", "MRF accesses ratio - 1 from flushes on demotion", "fraction",
     0.10, GPURF_REPRODUCE_EQUAL, 0, "Sec. 7"},
    {NULL, NULL, NULL, 0, 0, 0, NULL}};

static int plan(repro_env *env) {
  int rc = repro_plan_sims(env, MRF, ALL_ACTIVE);
  if (rc == GPURF_OK) rc = repro_plan_sims(env, MRF, ACTIVE8);
  if (rc == GPURF_OK) rc = repro_plan_sims(env, MRF, ACTIVE6);
  return rc;
}

static int compute(repro_env *env) {
  int rc = repro_claim_ratio(env, repro_claim_def_find(claims, "twolevel_8active_perf"), MRF,
                             ACTIVE8, MRF, ALL_ACTIVE, RM_IPC, REPRO_GEOMEAN, NULL);
  if (rc == GPURF_OK)
    rc = repro_claim_ratio(env, repro_claim_def_find(claims, "twolevel_6active_perf_compute"),
                           MRF, ACTIVE6, MRF, ALL_ACTIVE, RM_IPC, REPRO_GEOMEAN,
                           "over the whole workload set, not only compute-bound kernels");
  if (rc == GPURF_OK) rc = repro_claims_rest_not_modelled(env, claims, WHY_RFC);
  return rc;
}

const repro_paper_def repro_paper_gebhart = {
    {"gebhart", "A hierarchical thread scheduler and register file for energy-efficient throughput processors",
     "M. Gebhart et al., ACM TOCS 2012 (seed 001)", "synthetic+shipped"},
    plan,
    compute};
