/* Jing et al., bank stealing (seed 000): straight and stealing register
 * files of 4-32 banks at 128 KB (and 256/512 KB), GTO scheduling on a
 * Fermi-like SM (Section V-B, Table I). Published values are from the
 * text of Section VI. The stealing designs run the "stealing" technique
 * (src/pipeline/tech/stealing.c); read stealing alone runs on the 8-bank
 * stealing design with its arbiter cut to the three classes it needs
 * (technique option mode=read). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "reproduce/repro_internal.h"

#define SETS "policy=gto"
#define STEAL SETS ";technique=stealing"
#define READ "design.arbiter.classes=3;" SETS ";technique=stealing;t.mode=read"
/* 256 and 512 KB: more TLP as the paper scales it (more schedulers and
 * thread blocks), up to the 64 warps the pipeline holds. */
#define BIG SETS ";schedulers=4;max_warps=64;max_threads=2048;max_ctas=16"
#define BIG_STEAL BIG ";technique=stealing"
#define AREA_NOTE                                                                             \
  "the register file's area: banks, crossbar and arbiter; our bit-sliced crossbar grows faster " \
  "with the bank count than the paper's (8 : 16 : 32 banks 1 : 1.65 : 3.06 against 1 : 1.33 : " \
  "2, docs/models.md, Seed tables)"
#define RF_POWER                                                                            \
  "ours is the register file's power (banks, crossbar, arbiter); the paper's is the whole " \
  "GPU's (GPUWattch for the rest)"

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

#define N_BANKS 4
#define N_SIZES 3
static const int bank_counts[N_BANKS] = {4, 8, 16, 32};
static const int sizes_kb[N_SIZES] = {128, 256, 512};

/* Design name of a size, bank count and kind ("straight" or "stealing"). */
static void design(char *out, size_t n, int kb, int banks, const char *kind) {
  snprintf(out, n, "jing-%dk-%dbk-%s", kb, banks, kind);
}

static const char *sets_of(int kb, int stealing) {
  if (kb == 128) return stealing ? STEAL : SETS;
  return stealing ? BIG_STEAL : BIG;
}

static int plan(repro_env *env) {
  int rc = GPURF_OK;
  char name[REPRO_NAME_MAX];
  for (int s = 0; s < N_SIZES && rc == GPURF_OK; s++)
    for (int b = 0; b < N_BANKS && rc == GPURF_OK; b++)
      for (int k = 0; k < 2 && rc == GPURF_OK; k++) {
        design(name, sizeof name, sizes_kb[s], bank_counts[b], k ? "stealing" : "straight");
        rc = repro_plan_sims(env, name, sets_of(sizes_kb[s], k));
      }
  if (rc == GPURF_OK) rc = repro_plan_sims(env, "jing-128k-8bk-stealing", READ);
  return rc;
}

static const repro_claim_def *def(const char *id) { return repro_claim_def_find(claims, id); }

/* The jobs of one design and settings on every workload of the set; 0 when
 * one has no result (another shard's). */
static int jobs_of(const repro_env *env, const char *d, const char *sets, const repro_job **out) {
  for (int i = 0; i < env->paper->n_workloads; i++)
    if (!(out[i] = repro_find_sim(env, d, sets, env->paper->workloads[i]))) return 0;
  return env->paper->n_workloads > 0;
}

static const char *workload_name(const repro_env *env, int i) {
  return env->r->workloads[env->paper->workloads[i]].name;
}

/* Geometric mean over the set of metric m, or of m / m2 when m2 >= 0. */
static double gmean(const repro_job *const *j, int n, repro_metric m, int m2) {
  double s = 0;
  for (int i = 0; i < n; i++) s += log(m2 >= 0 ? j[i]->m[m] / j[i]->m[m2] : j[i]->m[m]);
  return exp(s / n);
}

static double mean(const repro_job *const *j, int n, repro_metric m) {
  double s = 0;
  for (int i = 0; i < n; i++) s += j[i]->m[m];
  return s / n;
}

/* A counter of the stealing technique (0 when the run has none). */
static double ctr(const repro_job *j, const char *name) {
  double v = repro_job_counter(j, name);
  return isnan(v) ? 0 : v;
}

/* Mean over the set of counter a over the results written (normal and
 * stolen). */
static double mean_share(const repro_job *const *j, int n, const char *a) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double den = ctr(j[i], "writes_normal") + ctr(j[i], "writes_stolen");
    s += den > 0 ? ctr(j[i], a) / den : 0;
  }
  return s / n;
}

/* What drives our performance claims: how much operand fetch (the only
 * thing the bank count and stealing change) costs on these workloads, and
 * how little of it reaches IPC. */
static const char *perf_note(repro_env *env) {
  const repro_job *a[64], *b[64];
  int n = env->paper->n_workloads;
  if (n > 64 || !jobs_of(env, "jing-128k-8bk-straight", SETS, a) ||
      !jobs_of(env, "jing-128k-16bk-straight", SETS, b))
    return NULL;
  char note[400];
  double pa = mean(a, n, RM_FETCH_PENALTY), pb = mean(b, n, RM_FETCH_PENALTY);
  snprintf(note, sizeof note,
           "with 8 straight banks operand fetch takes %.2f cycles more per instruction than with "
           "16 (%.2f against %.2f over the conflict-free case), yet IPC changes by %+.1f%%: the "
           "other resident warps hide it, issue being bound by dependences and collectors, and "
           "stealing can win no more than that",
           pa - pb, pa, pb, 100 * (gmean(a, n, RM_IPC, -1) / gmean(b, n, RM_IPC, -1) - 1));
  return repro_strdup(env->r, note);
}

/* Bank accesses per cycle behind a utilisation. */
static const char *util_note(repro_env *env, const char *d, const char *sets) {
  const repro_job *a[64];
  int n = env->paper->n_workloads;
  if (n > 64 || !jobs_of(env, d, sets, a)) return NULL;
  double acc = 0;
  for (int i = 0; i < n; i++)
    acc += (a[i]->m[RM_READS] + a[i]->m[RM_WRITES]) / a[i]->m[RM_INSTRUCTIONS] / n;
  char note[300];
  snprintf(note, sizeof note,
           "busy bank cycles over cycles (the stolen values' extra accesses included): our "
           "workloads issue %.2f warp instructions per cycle with %.2f bank accesses each",
           gmean(a, n, RM_IPC, -1), acc);
  return repro_strdup(env->r, note);
}

/* Ratio of per-instruction conflict cycles, stealing 8 banks over straight
 * 8 banks, of the mean over the set; rows per workload. */
static int penalty(repro_env *env, const char *id, repro_metric m) {
  const repro_claim_def *d = def(id);
  const repro_job *a[64], *b[64];
  int n = env->paper->n_workloads;
  if (n > 64 || !jobs_of(env, "jing-128k-8bk-stealing", STEAL, a) ||
      !jobs_of(env, "jing-128k-8bk-straight", SETS, b))
    return repro_claim_no_data(env, d);
  double pa = 0, pb = 0, v[64];
  const char *labels[64];
  int rows = 0;
  for (int i = 0; i < n; i++) {
    double x = a[i]->m[m] / a[i]->m[RM_INSTRUCTIONS], y = b[i]->m[m] / b[i]->m[RM_INSTRUCTIONS];
    pa += x / n, pb += y / n;
    if (y > 0) labels[rows] = workload_name(env, i), v[rows++] = x / y;
  }
  if (!(pb > 0)) return repro_claim_not_modelled(env, d, "no such conflicts on the straight RF");
  char note[300];
  snprintf(note, sizeof note,
           "conflict cycles per instruction (requests losing their bank), mean over the set: "
           "%.3f with stealing against %.3f straight",
           pa, pb);
  return repro_claim_rows(env, d, pa / pb, labels, v, rows, 1, note);
}

/* A per-workload share of the stealing 8-bank runs, mean over the set. */
static int write_share(repro_env *env, const char *id, const char *num, int complement,
                       const char *note) {
  const repro_claim_def *d = def(id);
  const repro_job *a[64];
  int n = env->paper->n_workloads;
  if (n > 64 || !jobs_of(env, "jing-128k-8bk-stealing", STEAL, a))
    return repro_claim_no_data(env, d);
  double v[64];
  const char *labels[64];
  for (int i = 0; i < n; i++) {
    const repro_job *one[1] = {a[i]};
    double s = mean_share(one, 1, num);
    v[i] = complement ? 1 - s : s;
    labels[i] = workload_name(env, i);
  }
  double s = mean_share(a, n, num);
  return repro_claim_rows(env, d, complement ? 1 - s : s, labels, v, n, 0, note);
}

/* How soon stolen values are needed. */
static const char *stall_note(repro_env *env) {
  const repro_job *a[64];
  int n = env->paper->n_workloads;
  if (n > 64 || !jobs_of(env, "jing-128k-8bk-stealing", STEAL, a)) return NULL;
  double forced = 0, stolen = 0;
  for (int i = 0; i < n; i++)
    forced += ctr(a[i], "forced_writebacks"), stolen += ctr(a[i], "writes_stolen");
  char note[300];
  snprintf(note, sizeof note,
           "results read or rewritten before they were home (forced write-backs): %.0f%% of the "
           "stolen values on our workloads, whose GTO warps read most results within a few "
           "instructions (the paper: 60%% of first reads come more than three cycles later)",
           stolen > 0 ? 100 * forced / stolen : 0.0);
  return repro_strdup(env->r, note);
}

/* Performance over energy, stealing 8 banks against straight 16. */
static int perf_per_energy(repro_env *env) {
  const repro_claim_def *d = def("steal8_vs_straight16_perf_per_energy");
  const repro_job *a[64], *b[64];
  int n = env->paper->n_workloads;
  if (n > 64 || !jobs_of(env, "jing-128k-8bk-stealing", STEAL, a) ||
      !jobs_of(env, "jing-128k-16bk-straight", SETS, b))
    return repro_claim_no_data(env, d);
  double v[64];
  const char *labels[64];
  for (int i = 0; i < n; i++) {
    v[i] = (a[i]->m[RM_IPC] / a[i]->m[RM_ENERGY_J]) / (b[i]->m[RM_IPC] / b[i]->m[RM_ENERGY_J]);
    labels[i] = workload_name(env, i);
  }
  double g = gmean(a, n, RM_IPC, RM_ENERGY_J) / gmean(b, n, RM_IPC, RM_ENERGY_J);
  return repro_claim_rows(env, d, g, labels, v, n, 1,
                          "IPC over the register file's energy per run (" RF_POWER ")");
}

/* Stealing against straight at each bank count (Fig. 11a). */
static int perf_range(repro_env *env) {
  const repro_claim_def *dmin = def("steal_vs_straight_perf_min");
  const repro_claim_def *dmax = def("steal_vs_straight_perf_max");
  const repro_job *a[64], *b[64];
  int n = env->paper->n_workloads;
  double v[N_BANKS];
  const char *labels[N_BANKS] = {"4 banks", "8 banks", "16 banks", "32 banks"};
  for (int k = 0; k < N_BANKS; k++) {
    char sa[REPRO_NAME_MAX], sb[REPRO_NAME_MAX];
    design(sa, sizeof sa, 128, bank_counts[k], "stealing");
    design(sb, sizeof sb, 128, bank_counts[k], "straight");
    if (n > 64 || !jobs_of(env, sa, STEAL, a) || !jobs_of(env, sb, SETS, b)) {
      int rc = repro_claim_no_data(env, dmin);
      return rc == GPURF_OK ? repro_claim_no_data(env, dmax) : rc;
    }
    v[k] = gmean(a, n, RM_IPC, -1) / gmean(b, n, RM_IPC, -1);
  }
  double lo = v[0], hi = v[0];
  for (int k = 1; k < N_BANKS; k++) lo = v[k] < lo ? v[k] : lo, hi = v[k] > hi ? v[k] : hi;
  const char *note = perf_note(env);
  int rc = repro_claim_rows(env, dmin, lo, labels, v, N_BANKS, 1, note);
  if (rc == GPURF_OK) rc = repro_claim_rows(env, dmax, hi, labels, v, N_BANKS, 1, note);
  return rc;
}

/* Fig. 16: at each RF size the 8-bank stealing RF against the straight RF
 * of the best area efficiency (IPC per area) or energy efficiency (IPC
 * over energy, geometric means over the set). */
static int scaling(repro_env *env) {
  const char *ids[4] = {"scaling_area_eff_min", "scaling_area_eff_max", "scaling_energy_eff_min",
                        "scaling_energy_eff_max"};
  const repro_job *a[64];
  int n = env->paper->n_workloads;
  /* The largest spread of IPC and of area among the straight RFs of a size. */
  double v[2][N_SIZES], spread = 0, area_spread = 0;
  int best[2][N_SIZES];
  for (int s = 0; s < N_SIZES; s++) {
    double eff[2][N_BANKS + 1], ipc_lo = INFINITY, ipc_hi = 0, area_lo = INFINITY, area_hi = 0;
    for (int k = 0; k <= N_BANKS; k++) {
      char name[REPRO_NAME_MAX];
      design(name, sizeof name, sizes_kb[s], k < N_BANKS ? bank_counts[k] : 8,
             k < N_BANKS ? "straight" : "stealing");
      if (n > 64 || !jobs_of(env, name, sets_of(sizes_kb[s], k == N_BANKS), a)) {
        int rc = GPURF_OK;
        for (int i = 0; i < 4 && rc == GPURF_OK; i++) rc = repro_claim_no_data(env, def(ids[i]));
        return rc;
      }
      double ipc = gmean(a, n, RM_IPC, -1);
      eff[0][k] = ipc / a[0]->m[RM_AREA_M2];
      eff[1][k] = gmean(a, n, RM_IPC, RM_ENERGY_J);
      double area = a[0]->m[RM_AREA_M2];
      if (k < N_BANKS) {
        ipc_lo = fmin(ipc_lo, ipc), ipc_hi = fmax(ipc_hi, ipc);
        area_lo = fmin(area_lo, area), area_hi = fmax(area_hi, area);
      }
    }
    spread = fmax(spread, ipc_hi / ipc_lo - 1);
    area_spread = fmax(area_spread, area_hi / area_lo);
    for (int e = 0; e < 2; e++) {
      best[e][s] = 0;
      for (int k = 1; k < N_BANKS; k++)
        if (eff[e][k] > eff[e][best[e][s]]) best[e][s] = k;
      v[e][s] = eff[e][N_BANKS] / eff[e][best[e][s]];
    }
  }
  int rc = GPURF_OK;
  for (int e = 0; e < 2 && rc == GPURF_OK; e++) {
    char lab[N_SIZES][48], note[600];
    const char *labels[N_SIZES];
    double lo = v[e][0], hi = v[e][0];
    for (int s = 0; s < N_SIZES; s++) {
      snprintf(lab[s], sizeof lab[s], "%d KB (vs %d banks)", sizes_kb[s], bank_counts[best[e][s]]);
      labels[s] = lab[s];
      lo = v[e][s] < lo ? v[e][s] : lo;
      hi = v[e][s] > hi ? v[e][s] : hi;
    }
    snprintf(note, sizeof note,
             "8-bank stealing RF against the straight RF of the best %s at each size; over 4-32 "
             "banks the straight RFs' IPC differs by at most %.1f%% on our workloads and their "
             "area by up to %.1fx, so the best straight RF has few banks and stealing, which "
             "gains little IPC here, does not beat it by much; 256 and 512 KB run 4 schedulers "
             "and 64 warps (the pipeline's most), not the paper's 2x and 4x TLP%s",
             e ? "IPC over RF energy" : "IPC per RF area", 100 * spread, area_spread,
             e ? "; " RF_POWER : "");
    rc = repro_claim_rows(env, def(ids[2 * e]), lo, labels, v[e], N_SIZES, 1, note);
    if (rc == GPURF_OK)
      rc = repro_claim_rows(env, def(ids[2 * e + 1]), hi, labels, v[e], N_SIZES, 1, note);
  }
  return rc;
}

static int compute(repro_env *env) {
  const char *pn = perf_note(env);
  int rc = repro_claim_ratio(env, def("straight8_vs_straight16_perf"), "jing-128k-8bk-straight",
                             SETS, "jing-128k-16bk-straight", SETS, RM_IPC, REPRO_GEOMEAN, pn);
  if (rc == GPURF_OK)
    rc = repro_claim_ratio(env, def("readsteal8_vs_straight8_perf"), "jing-128k-8bk-stealing", READ,
                           "jing-128k-8bk-straight", SETS, RM_IPC, REPRO_GEOMEAN, pn);
  if (rc == GPURF_OK)
    rc = repro_claim_ratio(env, def("steal8_vs_straight16_perf"), "jing-128k-8bk-stealing", STEAL,
                           "jing-128k-16bk-straight", SETS, RM_IPC, REPRO_GEOMEAN, pn);
  if (rc == GPURF_OK)
    rc = repro_claim_ratio(env, def("steal8_vs_straight32_perf"), "jing-128k-8bk-stealing", STEAL,
                           "jing-128k-32bk-straight", SETS, RM_IPC, REPRO_GEOMEAN, pn);
  if (rc == GPURF_OK)
    rc = repro_claim_design_ratio(env, def("steal8_vs_straight16_area"), "jing-128k-8bk-stealing",
                                  NULL, "jing-128k-16bk-straight", NULL, RM_AREA_M2,
                                  AREA_NOTE);
  if (rc == GPURF_OK)
    rc = repro_claim_design_ratio(env, def("steal8_vs_straight32_area"), "jing-128k-8bk-stealing",
                                  NULL, "jing-128k-32bk-straight", NULL, RM_AREA_M2,
                                  AREA_NOTE);
  if (rc == GPURF_OK) rc = perf_range(env);
  if (rc == GPURF_OK) rc = penalty(env, "steal8_inter_read_penalty", RM_CONFLICTS_READ);
  if (rc == GPURF_OK) rc = penalty(env, "steal8_inter_write_penalty", RM_CONFLICTS_WRITE);
  if (rc == GPURF_OK)
    rc = repro_claim_metric(env, def("steal8_bank_utilisation"), "jing-128k-8bk-stealing", STEAL,
                            RM_UTILISATION, REPRO_MEAN,
                            util_note(env, "jing-128k-8bk-stealing", STEAL));
  if (rc == GPURF_OK)
    rc = repro_claim_metric(env, def("straight16_bank_utilisation"), "jing-128k-16bk-straight",
                            SETS, RM_UTILISATION, REPRO_MEAN,
                            util_note(env, "jing-128k-16bk-straight", SETS));
  if (rc == GPURF_OK)
    rc = write_share(env, "writes_without_stealing", "writes_stolen", 1,
                     "results written to their own bank; a result is stolen when reads wait at "
                     "its bank and another bank is idle with its free register unused");
  if (rc == GPURF_OK)
    rc = write_share(env, "writes_stalling", "forced_writebacks", 0, stall_note(env));
  if (rc == GPURF_OK)
    rc =
        repro_claim_ratio(env, def("straight8_vs_straight16_power"), "jing-128k-8bk-straight", SETS,
                          "jing-128k-16bk-straight", SETS, RM_POWER_W, REPRO_GEOMEAN, RF_POWER);
  if (rc == GPURF_OK)
    rc = repro_claim_ratio(env, def("steal8_vs_straight8_power"), "jing-128k-8bk-stealing", STEAL,
                           "jing-128k-8bk-straight", SETS, RM_POWER_W, REPRO_GEOMEAN,
                           RF_POWER
                           "; the stolen values' extra read and write, the 5-class "
                           "arbiter and its status tables included");
  if (rc == GPURF_OK) rc = perf_per_energy(env);
  if (rc == GPURF_OK) rc = scaling(env);
  if (rc == GPURF_OK) rc = repro_claims_rest_not_modelled(env, claims, "not computed");
  return rc;
}

const repro_paper_def repro_paper_jing = {
    {"jing", "Bank stealing for a compact and efficient register file architecture in GPGPU",
     "X. Jing et al., IEEE TVLSI (seed 000)", "synthetic+shipped"},
    plan,
    compute};
