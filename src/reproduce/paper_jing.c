/* Jing et al., bank stealing (seed 000): straight and stealing register
 * files of 4-32 banks at 128 KB (and 256/512 KB), GTO scheduling on a
 * Fermi-like SM (Section V-B, Table I). Published values are from the
 * text of Section VI. */
#include <math.h>

#include "reproduce/repro_internal.h"

#define SETS "policy=gto"
#define WHY_STEAL "read and write bank stealing are not in the pipeline yet"

static const repro_claim_def claims[] = {
    {"straight8_vs_straight16_perf", "IPC ratio - 1", "fraction", -0.05, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. VI-B: the straight 8-bank RF degrades performance by nearly 5% against 16 banks"},
    {"readsteal8_vs_straight8_perf", "IPC ratio - 1", "fraction", 0.07, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. VI-B1: read stealing improves the 8-bank RF by around 7%"},
    {"steal8_vs_straight16_perf", "IPC ratio - 1", "fraction", 0.072, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. VI-A: 7.2% over the 16-bank straight RF"},
    {"steal8_vs_straight32_perf", "IPC ratio - 1", "fraction", 0.057, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. VI-A: 5.7% over the 32-bank straight RF"},
    {"steal8_vs_straight16_area", "area ratio - 1", "fraction", -0.25, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. VI-A: nearly 25% area saving over the 16-bank straight RF"},
    {"steal8_vs_straight32_area", "area ratio - 1", "fraction", -0.50, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. VI-A: nearly 50% area saving over the 32-bank straight RF"},
    {"steal_vs_straight_perf_min", "IPC ratio - 1, smallest over 4-32 banks", "fraction", 0.08,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. VI-A: improvement ranges from 8% to 13%"},
    {"steal_vs_straight_perf_max", "IPC ratio - 1, largest over 4-32 banks", "fraction", 0.13,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. VI-A: improvement ranges from 8% to 13%"},
    {"steal8_inter_read_penalty", "inter-read conflict penalty ratio - 1", "fraction", -0.58,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. VI-B3, Fig. 13"},
    {"steal8_inter_write_penalty", "inter-write conflict penalty ratio - 1", "fraction", -0.88,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. VI-B3, Fig. 13"},
    {"steal8_bank_utilisation", "mean bank utilisation", "fraction", 0.54, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. VI-B3"},
    {"straight16_bank_utilisation", "mean bank utilisation", "fraction", 0.23,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. VI-B3"},
    {"writes_without_stealing", "share of writes needing no stealing", "fraction", 0.83,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. VI-B4, Fig. 14"},
    {"writes_stalling", "share of writes stalling", "fraction", 0.025, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. VI-B4, Fig. 14"},
    {"straight8_vs_straight16_power", "power ratio - 1", "fraction", -0.06, GPURF_REPRODUCE_EQUAL,
     0, "Sec. VI-B5, Fig. 15"},
    {"steal8_vs_straight8_power", "power ratio - 1", "fraction", 0.03, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. VI-B5, Fig. 15"},
    {"steal8_vs_straight16_perf_per_energy", "(IPC/energy) ratio - 1", "fraction", 0.15,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. VI-B5, Fig. 15"},
    {"scaling_area_eff_min", "area efficiency ratio - 1, 128-512 KB", "fraction", 0.40,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. VI"},
    {"scaling_area_eff_max", "area efficiency ratio - 1, 128-512 KB", "fraction", 0.80,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. VI"},
    {"scaling_energy_eff_min", "energy efficiency ratio - 1, 128-512 KB", "fraction", 0.15,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. VI"},
    {"scaling_energy_eff_max", "energy efficiency ratio - 1, 128-512 KB", "fraction", 0.28,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. VI"},
    {NULL, NULL, NULL, 0, 0, 0, NULL}};

static const char *const straight[] = {"jing-128k-4bk-straight", "jing-128k-8bk-straight",
                                       "jing-128k-16bk-straight", "jing-128k-32bk-straight"};

static int plan(repro_env *env) {
  int rc = GPURF_OK;
  for (int i = 0; i < 4 && rc == GPURF_OK; i++) rc = repro_plan_sims(env, straight[i], SETS);
  if (rc == GPURF_OK) rc = repro_plan_design(env, "jing-128k-8bk-stealing", NULL);
  return rc;
}

static const repro_claim_def *def(const char *id) { return repro_claim_def_find(claims, id); }

static int compute(repro_env *env) {
  int rc = repro_claim_ratio(env, def("straight8_vs_straight16_perf"), straight[1], SETS,
                             straight[2], SETS, RM_IPC, REPRO_GEOMEAN, NULL);
  if (rc == GPURF_OK)
    rc = repro_claim_design_ratio(env, def("steal8_vs_straight16_area"), "jing-128k-8bk-stealing",
                                  NULL, straight[2], NULL, RM_AREA_M2,
                                  "the register file's area: banks, crossbar and arbiter");
  if (rc == GPURF_OK)
    rc = repro_claim_design_ratio(env, def("steal8_vs_straight32_area"), "jing-128k-8bk-stealing",
                                  NULL, straight[3], NULL, RM_AREA_M2,
                                  "the register file's area: banks, crossbar and arbiter");
  if (rc == GPURF_OK)
    rc = repro_claim_metric(env, def("straight16_bank_utilisation"), straight[2], SETS,
                            RM_UTILISATION, REPRO_MEAN, NULL);
  if (rc == GPURF_OK)
    rc = repro_claim_ratio(env, def("straight8_vs_straight16_power"), straight[1], SETS,
                           straight[2], SETS, RM_POWER_W, REPRO_GEOMEAN,
                           "ours is the register file's power; the paper's is the whole GPU's "
                           "(GPUWattch for the rest)");
  if (rc == GPURF_OK) rc = repro_claims_rest_not_modelled(env, claims, WHY_STEAL);
  return rc;
}

const repro_paper_def repro_paper_jing = {
    {"jing", "Bank stealing for a compact and efficient register file architecture in GPGPU",
     "X. Jing et al., IEEE TVLSI (seed 000)", "synthetic+shipped"},
    plan,
    compute};
