/* SIMTight (seed 003): a compressed register file (scalar file, vector file
 * of 1024/512/256 registers, free-slot stack) with dynamic spilling and a
 * parallel scalar pipeline, on a 32-lane, 64-warp RV32I SM. Published
 * values: Section IV, Figs. 7-9.
 *
 * Every run is the simtight core preset (models/simtight-*.yaml) with the
 * compress technique: the baseline with compression off (so that it counts
 * main-memory accesses the same way), each VRF size, an unbounded VRF for
 * the largest share of registers held as vectors (Fig. 7), and the 1024
 * VRF with the scalar pipe (a second issue pass and execution unit). The
 * default workloads are the RV32 kernel suite run on the emulator at run
 * time; RV32E rows pair each kernel with its RV32E build. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "reproduce/repro_internal.h"

#define BASE "simtight-baseline"
#define BASE_SETS "technique=compress;t.compress=0"
#define UNBOUNDED_SETS "technique=compress;t.vrf_regs=0"
#define SCALAR_SETS \
  "technique=compress;t.vrf_regs=1024;t.scalar=1;issue_width=2;units_alu=2;result_bus_width=2"
#define RV32E_DESIGN_SETS "design.extras[0].arch_regs=16"

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

static const int vrf_sizes[3] = {1024, 512, 256};

static void vrf_design(int i, char *out, size_t n) { snprintf(out, n, "simtight-vrf%d", vrf_sizes[i]); }
static void vrf_sets(int i, char *out, size_t n) {
  snprintf(out, n, "technique=compress;t.vrf_regs=%d", vrf_sizes[i]);
}

static const repro_claim_def *def(const char *id) { return repro_claim_def_find(claims, id); }

/* RV32E runs only come with the suite (its kernels have RV32E builds). */
static int wants_rv32e(const repro_env *env) { return strstr(env->paper->set, "suite") != NULL; }

static int plan(repro_env *env) {
  int rc = repro_plan_sims(env, BASE, BASE_SETS);
  for (int i = 0; i < 3 && rc == GPURF_OK; i++) {
    char d[64], s[REPRO_SETS_MAX];
    vrf_design(i, d, sizeof d);
    vrf_sets(i, s, sizeof s);
    rc = repro_plan_sims(env, d, s);
  }
  if (rc == GPURF_OK) rc = repro_plan_sims(env, "simtight-vrf1024", UNBOUNDED_SETS);
  if (rc == GPURF_OK) rc = repro_plan_sims(env, "simtight-vrf1024", SCALAR_SETS);
  if (rc == GPURF_OK) rc = repro_plan_design(env, BASE, RV32E_DESIGN_SETS);
  if (rc != GPURF_OK || !wants_rv32e(env)) return rc;
  /* The RV32E builds are planned outside the paper's workload list, so the
   * other claims stay over the RV32I kernels. */
  repro_paper_plan side;
  memset(&side, 0, sizeof side);
  side.def = env->paper->def;
  snprintf(side.set, sizeof side.set, "suite-rv32e");
  int found = 0;
  rc = repro_suite_add(env->ctx, env->r, &side, "rv32e", &found);
  repro_env e2 = {env->ctx, env->r, &side, 0};
  if (rc == GPURF_OK && found) rc = repro_plan_sims(&e2, BASE, BASE_SETS);
  free(side.workloads);
  return rc;
}

/* A technique counter of a sim job, per workload of the paper. */
static double counter_of(const repro_env *env, const char *design, const char *sets, int w,
                         const char *name) {
  const repro_job *j = repro_find_sim(env, design, sets, w);
  return j ? repro_job_counter(j, name) : NAN;
}

static double safe_ratio(double a, double b) {
  if (isnan(a) || isnan(b)) return NAN;
  if (a == 0 && b == 0) return 1.0;
  return b > 0 ? a / b : NAN;
}

/* Emits a claim from per-workload values, or no data when a job is missing. */
static int emit(repro_env *env, const repro_claim_def *d, double *v, int ratio,
                repro_aggregate agg, const char *note) {
  if (env->paper->n_workloads == 0) return repro_claim_no_data(env, d);
  for (int i = 0; i < env->paper->n_workloads; i++)
    if (isnan(v[i])) return repro_claim_no_data(env, d);
  return repro_claim_series(env, d, v, ratio, agg, note);
}

static double geomean_ratio(const repro_env *env, const char *da, const char *sa, const char *db,
                            const char *sb, repro_metric m) {
  double lsum = 0;
  int n = env->paper->n_workloads;
  for (int i = 0; i < n; i++) {
    const repro_job *a = repro_find_sim(env, da, sa, env->paper->workloads[i]);
    const repro_job *b = repro_find_sim(env, db, sb, env->paper->workloads[i]);
    if (!a || !b || !(a->m[m] > 0) || !(b->m[m] > 0)) return NAN;
    lsum += log(a->m[m] / b->m[m]);
  }
  return n ? exp(lsum / n) - 1 : NAN;
}

static int storage(repro_env *env) {
  int rc = GPURF_OK;
  for (int i = 0; i < 3 && rc == GPURF_OK; i++) {
    char id[32], d[64], s[REPRO_SETS_MAX], note[256];
    snprintf(id, sizeof id, "storage_kbit_vrf%d", vrf_sizes[i]);
    vrf_design(i, d, sizeof d);
    vrf_sets(i, s, sizeof s);
    const repro_job *j = repro_find_design(env, d, NULL);
    if (!j) {
      rc = repro_claim_no_data(env, def(id));
      continue;
    }
    double e = geomean_ratio(env, d, s, BASE, BASE_SETS, RM_ENERGY_J);
    double a = 0;
    const repro_job *b = repro_find_design(env, BASE, NULL);
    if (b && b->m[RM_AREA_M2] > 0) a = j->m[RM_AREA_M2] / b->m[RM_AREA_M2] - 1;
    snprintf(note, sizeof note,
             "from the compressed-RF model's field widths; ours beside it: register-file "
             "energy %+.0f%% (geomean over the workloads), area %+.0f%% (40 nm SRAM models)",
             100 * e, 100 * a);
    rc = repro_claim_value(env, def(id), j->m[RM_STORAGE_BITS] / 1000.0, isnan(e) ? NULL : note);
  }
  return rc;
}

/* Baseline IPC of each workload (warp instructions per cycle), NAN when
 * missing. */
static double base_ipc(const repro_env *env, int i) {
  const repro_job *j = repro_find_sim(env, BASE, BASE_SETS, env->paper->workloads[i]);
  return j ? j->m[RM_IPC] : NAN;
}

/* The measured workload property behind a cycle ratio: the geomean of the
 * third of the workloads with the highest baseline IPC against the third
 * with the lowest (latency-bound kernels, with few warps ready, expose
 * added stages and leave a second issue port idle). */
static void ipc_split(const repro_env *env, const double *ratio, const char *lead, char *out,
                      size_t n) {
  int nw = env->paper->n_workloads, k = nw / 3, idx[256];
  snprintf(out, n, "%s", lead);
  if (k < 1 || nw > 256) return;
  for (int i = 0; i < nw; i++) idx[i] = i;
  for (int i = 1; i < nw; i++) /* by baseline IPC, highest first */
    for (int j = i; j > 0 && base_ipc(env, idx[j]) > base_ipc(env, idx[j - 1]); j--) {
      int t = idx[j];
      idx[j] = idx[j - 1], idx[j - 1] = t;
    }
  double hi = 0, lo = 0;
  for (int i = 0; i < k; i++) hi += log(ratio[idx[i]]), lo += log(ratio[idx[nw - 1 - i]]);
  size_t l = strlen(out);
  snprintf(out + l, n - l,
           "; the %d workloads of highest baseline IPC (%.2f..%.2f) %+.1f%%, the %d lowest "
           "(%.2f..%.2f) %+.1f%%",
           k, base_ipc(env, idx[k - 1]), base_ipc(env, idx[0]), 100 * (exp(hi / k) - 1), k,
           base_ipc(env, idx[nw - 1]), base_ipc(env, idx[nw - k]), 100 * (exp(lo / k) - 1));
}

/* Cycles of (da, sa) over (db, sb) per workload. */
static void cycle_ratios(const repro_env *env, const char *da, const char *sa, const char *db,
                         const char *sb, double *v) {
  for (int i = 0; i < env->paper->n_workloads; i++) {
    int w = env->paper->workloads[i];
    const repro_job *a = repro_find_sim(env, da, sa, w), *b = repro_find_sim(env, db, sb, w);
    v[i] = a && b ? safe_ratio(a->m[RM_CYCLES], b->m[RM_CYCLES]) : NAN;
  }
}

static int per_workload_claims(repro_env *env) {
  int n = env->paper->n_workloads;
  double *v = calloc((size_t)(n > 0 ? n : 1), sizeof *v);
  if (!v) return gpurf_fail(env->ctx, GPURF_ENOMEM, "out of memory");
  int rc = GPURF_OK;
  for (int i = 0; i < n; i++)
    v[i] = counter_of(env, "simtight-vrf1024", UNBOUNDED_SETS, env->paper->workloads[i],
                      "vrf_resident_max");
  rc = emit(env, def("vrf_resident_max_geomean"), v, 0, REPRO_GEOMEAN,
            "largest VRF occupancy over 64 warps x 32 registers, VRF unbounded");
  for (int k = 0; k < 3 && rc == GPURF_OK; k++) {
    char d[64], s[REPRO_SETS_MAX], id[40];
    vrf_design(k, d, sizeof d);
    vrf_sets(k, s, sizeof s);
    snprintf(id, sizeof id, "cycle_overhead_vrf%d", vrf_sizes[k]);
    char note[512];
    cycle_ratios(env, d, s, BASE, BASE_SETS, v);
    ipc_split(env, v,
              "the 5 stages of the compressed read and write paths lengthen every warp's "
              "loop, plus spills and fills",
              note, sizeof note);
    rc = emit(env, def(id), v, 1, REPRO_GEOMEAN, note);
    for (int i = 0; i < n; i++) {
      int w = env->paper->workloads[i];
      v[i] = safe_ratio(counter_of(env, d, s, w, "mem_accesses"),
                        counter_of(env, BASE, BASE_SETS, w, "mem_accesses"));
    }
    snprintf(id, sizeof id, "memory_overhead_vrf%d", vrf_sizes[k]);
    /* Spilling starts when fewer slots than warps are free: the workloads
     * whose unbounded VRF occupancy passes that point. */
    int over = 0;
    for (int i = 0; i < n; i++)
      over += counter_of(env, "simtight-vrf1024", UNBOUNDED_SETS, env->paper->workloads[i],
                         "vrf_used_max") > vrf_sizes[k] - REPRO_SUITE_WARPS;
    snprintf(note, sizeof note,
             "64-byte blocks of the program's loads and stores, plus 2 per spilled or fetched "
             "register; %d of %d workloads hold more than %d vectors at once (unbounded VRF)",
             over, n, vrf_sizes[k] - REPRO_SUITE_WARPS);
    if (rc == GPURF_OK) rc = emit(env, def(id), v, 1, REPRO_GEOMEAN, note);
  }
  for (int i = 0; i < n && rc == GPURF_OK; i++) {
    int w = env->paper->workloads[i];
    v[i] = safe_ratio(counter_of(env, "simtight-vrf1024", SCALAR_SETS, w, "scalarised"),
                      counter_of(env, "simtight-vrf1024", SCALAR_SETS, w, "instructions"));
  }
  if (rc == GPURF_OK)
    rc = emit(env, def("scalarised_instructions"), v, 0, REPRO_MEAN,
              "instructions run on the scalar pipe over all, mean over the workloads");
  if (rc == GPURF_OK) {
    char note[512];
    cycle_ratios(env, "simtight-vrf1024", SCALAR_SETS, "simtight-vrf1024",
                 "technique=compress;t.vrf_regs=1024", v);
    ipc_split(env, v, "against the same compressed core without the scalar pipe", note,
              sizeof note);
    rc = emit(env, def("scalar_pipe_cycles"), v, 1, REPRO_GEOMEAN, note);
  }
  free(v);
  return rc;
}

/* The workload index of a planned workload by name, -1 if none. */
static int workload_named(const repro_env *env, const char *name) {
  for (int i = 0; i < env->r->n_workloads; i++)
    if (!strcmp(env->r->workloads[i].name, name)) return i;
  return -1;
}

static int rv32e(repro_env *env) {
  const repro_job *e = repro_find_design(env, BASE, RV32E_DESIGN_SETS);
  const repro_job *b = repro_find_design(env, BASE, NULL);
  int rc = e && b && b->m[RM_STORAGE_BITS] > 0
               ? repro_claim_value(env, def("rv32e_storage"),
                                   e->m[RM_STORAGE_BITS] / b->m[RM_STORAGE_BITS] - 1,
                                   "16 architectural registers instead of 32, uncompressed")
               : repro_claim_no_data(env, def("rv32e_storage"));
  int n = env->paper->n_workloads, ok = wants_rv32e(env) && n > 0;
  double *cyc = calloc((size_t)(n > 0 ? n : 1), sizeof *cyc);
  double *mem = calloc((size_t)(n > 0 ? n : 1), sizeof *mem);
  if (!cyc || !mem) rc = gpurf_fail(env->ctx, GPURF_ENOMEM, "out of memory");
  for (int i = 0; i < n && ok && rc == GPURF_OK; i++) {
    int w = env->paper->workloads[i];
    char name[REPRO_NAME_MAX + 8];
    snprintf(name, sizeof name, "%s-rv32e", env->r->workloads[w].name);
    int we = workload_named(env, name);
    if (env->r->workloads[w].kind != REPRO_W_KERNEL || we < 0) {
      ok = 0;
      break;
    }
    const repro_job *je = repro_find_sim(env, BASE, BASE_SETS, we);
    const repro_job *ji = repro_find_sim(env, BASE, BASE_SETS, w);
    cyc[i] = je && ji ? safe_ratio(je->m[RM_CYCLES], ji->m[RM_CYCLES]) : NAN;
    mem[i] = je && ji ? safe_ratio(repro_job_counter(je, "mem_accesses"),
                                   repro_job_counter(ji, "mem_accesses"))
                      : NAN;
  }
  if (rc == GPURF_OK && ok) {
    rc = emit(env, def("rv32e_cycles"), cyc, 1, REPRO_GEOMEAN,
              "each kernel's RV32E build against its RV32I build on the baseline");
    int more = 0;
    for (int i = 0; i < n; i++) more += mem[i] > 1;
    char note[256];
    snprintf(note, sizeof note,
             "the 16-register builds' own spills to the stack; %d of %d kernels make more "
             "main-memory accesses, the others fit in 16 registers",
             more, n);
    if (rc == GPURF_OK) rc = emit(env, def("rv32e_memory"), mem, 1, REPRO_GEOMEAN, note);
  } else if (rc == GPURF_OK) {
    const char *why = "needs the kernel suite and its RV32E builds (--workloads suite)";
    rc = repro_claim_not_modelled(env, def("rv32e_cycles"), why);
    if (rc == GPURF_OK) rc = repro_claim_not_modelled(env, def("rv32e_memory"), why);
  }
  free(cyc);
  free(mem);
  return rc;
}

static int compute(repro_env *env) {
  int rc = storage(env);
  if (rc == GPURF_OK) rc = per_workload_claims(env);
  if (rc == GPURF_OK) rc = rv32e(env);
  if (rc == GPURF_OK) rc = repro_claims_rest_not_modelled(env, claims, "not modelled");
  return rc;
}

const repro_paper_def repro_paper_simtight = {
    {"simtight", "SIMTight: advanced dynamic scalarisation for RISC-V GPGPUs",
     "M. Naylor et al., University of Cambridge (seed 003)", "suite"},
    plan,
    compute};
