/* WarRF (seed 002): an STT-RAM register file with split-bank write (SBW)
 * and a write pool, against SRAM, on a GTX480-like SM with 16 banks at
 * 22 nm and the two-level scheduler the write pool's policy assumes. */
#include <math.h>

#include "reproduce/repro_internal.h"

#define SETS "policy=two_level"
#define SRAM "warrf-sram"
#define STT "warrf-stt"
#define WPOOL "warrf-stt-sbw-wpool"
#define WHY "split-bank write and the write pool are not in the pipeline yet"

static const repro_claim_def claims[] = {
    {"stt_vs_sram_ipc", "IPC ratio - 1", "fraction", -0.14, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. 6.2, Fig. 6: the STT-RAM baseline is 14% slower than SRAM"},
    {"sbw_vs_stt_ipc", "IPC ratio - 1", "fraction", 0.07, GPURF_REPRODUCE_EQUAL, 0, "Sec. 6.2, Fig. 6"},
    {"sbw_vs_stt_ipc_max", "IPC ratio - 1, largest", "fraction", 0.11, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. 6.2, Fig. 6"},
    {"wpool_vs_sbw_ipc", "IPC ratio - 1", "fraction", 0.06, GPURF_REPRODUCE_EQUAL, 0, "Sec. 6.2, Fig. 6"},
    {"wpool_vs_sbw_ipc_max", "IPC ratio - 1, largest", "fraction", 0.14, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. 6.2, Fig. 6"},
    {"warrf_vs_stt_ipc", "IPC ratio - 1", "fraction", 0.13, GPURF_REPRODUCE_EQUAL, 0, "Sec. 6.2, Fig. 6"},
    {"warrf_vs_stt_ipc_max", "IPC ratio - 1, largest", "fraction", 0.23, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. 6.2, Fig. 6"},
    {"warrf_vs_sram_ipc", "IPC ratio - 1", "fraction", -0.025, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. 6.2, Fig. 6"},
    {"wpool_write_traffic", "RF write ratio - 1", "fraction", -0.31, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. 6.3, Fig. 7"},
    {"wpool_write_traffic_max", "RF write ratio - 1, largest reduction", "fraction", -0.83,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 6.3, Fig. 7"},
    {"stt_vs_sram_energy", "RF energy ratio - 1", "fraction", -0.32, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. 6.3, Fig. 8"},
    {"stt_vs_sram_dynamic_energy", "RF dynamic energy ratio - 1", "fraction", 0.49,
     GPURF_REPRODUCE_EQUAL, 0, "Sec. 6.3, Fig. 8"},
    {"stt_leakage_share_of_sram", "STT-RAM leakage energy / SRAM's", "ratio", 0.01,
     GPURF_REPRODUCE_ABOUT, 0.01, "Sec. 6.3: STT-RAM leakage energy is about 1% of SRAM's"},
    {"warrf_vs_stt_energy", "RF energy ratio - 1", "fraction", -0.074, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. 6.3, Fig. 8"},
    {"warrf_vs_sram_energy", "RF energy ratio - 1", "fraction", -0.38, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. 6.3, Fig. 8"},
    {"warrf_vs_sram_edp", "EDP ratio", "ratio", 0.64, GPURF_REPRODUCE_EQUAL, 0, "Sec. 6.3, Fig. 8"},
    {"stt_vs_sram_area_2mb", "area ratio - 1", "fraction", -0.68, GPURF_REPRODUCE_EQUAL, 0,
     "Sec. 6.4, Table II: a 2 MB STT-RAM RF saves about 68% area"},
    {"wpool_area_share", "write pool area / RF area", "fraction", 0.06, GPURF_REPRODUCE_BELOW, 0,
     "Sec. 5: under 6% of the RF's size"},
    {NULL, NULL, NULL, 0, 0, 0, NULL}};

static int plan(repro_env *env) {
  int rc = repro_plan_sims(env, SRAM, SETS);
  if (rc == GPURF_OK) rc = repro_plan_sims(env, STT, SETS);
  if (rc == GPURF_OK) rc = repro_plan_design(env, WPOOL, NULL);
  return rc;
}

static const repro_claim_def *def(const char *id) { return repro_claim_def_find(claims, id); }

static int wpool_share(repro_env *env) {
  const repro_claim_def *d = def("wpool_area_share");
  const repro_job *j = repro_find_design(env, WPOOL, NULL);
  if (!j) return repro_claim_no_data(env, d);
  double rest = j->m[RM_AREA_M2] - j->m[RM_EXTRAS_AREA_M2];
  return repro_claim_value(env, d, j->m[RM_EXTRAS_AREA_M2] / rest,
                           "the pool's area over the rest of the register file");
}

static int compute(repro_env *env) {
  int rc = repro_claim_ratio(env, def("stt_vs_sram_ipc"), STT, SETS, SRAM, SETS, RM_IPC,
                             REPRO_GEOMEAN, "STT-RAM writes hold their bank for the bank model's write cycles");
  if (rc == GPURF_OK)
    rc = repro_claim_ratio(env, def("stt_vs_sram_energy"), STT, SETS, SRAM, SETS, RM_ENERGY_J,
                           REPRO_GEOMEAN, NULL);
  if (rc == GPURF_OK)
    rc = repro_claim_ratio(env, def("stt_vs_sram_dynamic_energy"), STT, SETS, SRAM, SETS,
                           RM_DYNAMIC_J, REPRO_GEOMEAN, NULL);
  if (rc == GPURF_OK)
    rc = repro_claim_ratio(env, def("stt_leakage_share_of_sram"), STT, SETS, SRAM, SETS,
                           RM_LEAKAGE_J, REPRO_GEOMEAN, NULL);
  if (rc == GPURF_OK)
    rc = repro_claim_design_ratio(env, def("stt_vs_sram_area_2mb"), STT, NULL, SRAM, NULL,
                                  RM_AREA_M2,
                                  "the 128 KB register files of one SM with their periphery, "
                                  "not the paper's 2 MB arrays (gpurf table warrf-t2 has those)");
  if (rc == GPURF_OK) rc = wpool_share(env);
  if (rc == GPURF_OK) rc = repro_claims_rest_not_modelled(env, claims, WHY);
  return rc;
}

const repro_paper_def repro_paper_warrf = {
    {"warrf", "WarRF: a write-aware STT-RAM register file for GPGPUs",
     "WarRF: write-aware STT-RAM register file, ACM JETC (seed 002)", "synthetic+shipped"},
    plan,
    compute};
