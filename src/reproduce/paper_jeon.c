/* Jeon et al., GPU register file virtualization (seed 004): release flags
 * from lifetime analysis, renaming, GPU-shrink (a 64 KB RF with CTA
 * throttling) and sub-array power gating, against a 128 KB baseline. */
#include <math.h>

#include "reproduce/repro_internal.h"

#define BASE "jeon-baseline"
/* Only the register file halves: the same runs, with 64 KB banks (2 KB
 * sub-banks) costing each access and leaking (Section 8.1, Fig. 7). */
#define HALF "design.banks[0].entries=128"
#define WHY "release flags, renaming, CTA throttling and sub-array gating are not in the pipeline yet"

static const repro_claim_def claims[] = {
    {"register_allocation_reduction", "allocated registers ratio - 1", "fraction", -0.16,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 9"},
    {"register_allocation_reduction_max", "allocated registers ratio - 1, largest", "fraction",
     -0.44, GPURF_REPRODUCE_EQUAL, 0, "Sec. 9"},
    {"shrink50_cycles_vs_128kb", "cycles ratio - 1", "fraction", 0.0058, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. 9"},
    {"compiler_spill_cycles_vs_128kb", "cycles ratio - 1", "fraction", 0.73,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 9"},
    {"shrink_workloads_without_throttling", "workloads never throttled", "of 16 workloads", 4,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 9"},
    {"wakeup10_cycles_overhead", "cycles ratio - 1 with a 10-cycle wake-up", "fraction", 0.02,
     GPURF_REPRODUCE_BELOW, 0, "Sec. 9"},
    {"shrink_pg_energy_saving", "RF energy ratio - 1", "fraction", -0.42, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. 9"},
    {"dynamic_code_no_flag_cache", "dynamic instructions ratio - 1", "fraction", 0.11,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 9"},
    {"dynamic_code_flag_cache10", "dynamic instructions ratio - 1", "fraction", 0.002,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 9"},
    {"rename_table_bytes_full", "renaming table for every register", "B", NAN,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 7"},
    {"rename_table_bytes_budget", "renaming table under the budget", "B", 1024,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 7, Table 2"},
    {"halved_rf_dynamic_power", "RF dynamic power ratio - 1", "fraction", -0.20,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 8.1, Fig. 7: halving the RF cuts dynamic power by 20%"},
    {"halved_rf_total_power", "RF power ratio - 1", "fraction", -0.30, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. 8.1, Fig. 7: and overall power by 30%"},
    {NULL, NULL, NULL, 0, 0, 0, NULL}};

static int plan(repro_env *env) {
  int rc = repro_plan_sims(env, BASE, NULL);
  if (rc == GPURF_OK) rc = repro_plan_sims(env, BASE, HALF);
  return rc;
}

static int compute(repro_env *env) {
  const char *note = "ours is the register file's power; the paper's is GPUWattch's, whose "
                     "total includes the RF's share only";
  int rc = repro_claim_ratio(env, repro_claim_def_find(claims, "halved_rf_dynamic_power"), BASE,
                             HALF, BASE, NULL, RM_DYNAMIC_POWER_W, REPRO_GEOMEAN, note);
  if (rc == GPURF_OK)
    rc = repro_claim_ratio(env, repro_claim_def_find(claims, "halved_rf_total_power"), BASE, HALF,
                           BASE, NULL, RM_POWER_W, REPRO_GEOMEAN, note);
  if (rc == GPURF_OK) rc = repro_claims_rest_not_modelled(env, claims, WHY);
  return rc;
}

const repro_paper_def repro_paper_jeon = {
    {"jeon", "GPU register file virtualization", "H. Jeon et al., MICRO 2015 (seed 004)",
     "synthetic+shipped"},
    plan,
    compute};
