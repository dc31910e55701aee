/* Gebhart et al., a hierarchical register file with a register-file cache
 * (RFC) and a compiler-managed operand register file (ORF) (seed 001):
 * 32 warps per SM, two-level scheduling with 4-8 active warps.
 *
 * Energies are the register file's alone (array accesses and operand
 * wires, Sec. 6.3), normalised to the MRF-only design on the same
 * schedule: the claims use Table V's parameters; the rows ending in
 * _our_models repeat them with our primitive models for every level. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx_internal.h"
#include "reproduce/paper_gebhart.h"

/* One scheduler over the SM's 32 warps, as the paper's SM (Section 2.1). */
#define ALL_ACTIVE "schedulers=1;policy=lrr"
#define ACTIVE8 "schedulers=1;policy=two_level;active_warps=8"
#define ACTIVE6 "schedulers=1;policy=two_level;active_warps=6"
#define MRF "gebhart-mrf"
#define HW "gebhart-hw-rfc"
/* Sec. 7.1: a single-level RFC of 6 entries, all warps active (no flushes),
 * no liveness hints (Fig. 15(a), (b)). */
#define RFC_ALONE ALL_ACTIVE ";technique=rfc;t.entries=6;t.liveness=0"
/* Sec. 7.3-7.4: with the two-level scheduler of 8 active warps. */
#define RFC6 ACTIVE8 ";technique=rfc;t.entries=6"
#define RFC6_NOLIVE RFC6 ";t.liveness=0"
#define RFC6_NOFLUSH RFC6 ";t.flush=0"
#define RFC6_L0 RFC6 ";t.l0=1"
#define WHY_ORF "the claim's workload is not in the set"
#define PRIVATE_NOTE "every access costed at the private datapath's distances"

#define CLAIM(id, metric, value, src) \
  {id, metric, "fraction", value, GPURF_REPRODUCE_EQUAL, 0, src}
#define ENERGY_CLAIMS(sfx, src)                                                                    \
  CLAIM("rfc_liveness_energy_gain_min" sfx, "energy gain of liveness hints, smallest", 0.10,     \
        "Sec. 7.4, Fig. 21" src),                                                               \
      CLAIM("rfc_liveness_energy_gain_max" sfx, "energy gain of liveness hints, largest", 0.20,  \
            "Sec. 7.4, Fig. 21" src),                                                           \
      CLAIM("hw_rfc6_energy_saving" sfx, "RF energy saved vs MRF only", 0.34,                    \
            "Sec. 7.8, Fig. 24" src),                                                           \
      CLAIM("sw_orf3_energy_saving" sfx, "RF energy saved vs MRF only", 0.45,                    \
            "Sec. 7.8, Fig. 24" src),                                                           \
      CLAIM("hw_3level_energy_saving" sfx, "RF energy saved vs MRF only", 0.41,                  \
            "Sec. 7.8, Fig. 24" src),                                                           \
      CLAIM("sw_3level_energy_saving" sfx, "RF energy saved vs MRF only", 0.54,                  \
            "Sec. 7.8, Fig. 24" src),                                                           \
      CLAIM("limit_all_l0_saving" sfx, "RF energy saved, every access from L0", 0.87,            \
            "Sec. 8" src),                                                                      \
      CLAIM("limit_l1_5entry_saving" sfx, "RF energy saved, 5-entry L1 limit", 0.61, "Sec. 8" src)

static const repro_claim_def claims[] = {
    CLAIM("rfc6_mrf_reads_filtered_min", "MRF reads avoided, smallest", 0.45, "Sec. 7.1"),
    CLAIM("rfc6_mrf_reads_filtered_max", "MRF reads avoided, largest", 0.75, "Sec. 7.1"),
    CLAIM("rfc6_mrf_writes_filtered_min", "MRF writes avoided, smallest", 0.35, "Sec. 7.1"),
    CLAIM("rfc6_mrf_writes_filtered_max", "MRF writes avoided, largest", 0.75, "Sec. 7.1"),
    ENERGY_CLAIMS("", ""),
    CLAIM("orf_partial_read_alloc_mrf_reads", "MRF reads ratio - 1", -0.20,
          "Sec. 5.3-5.4: partial-range and read-operand allocation"),
    {"twolevel_8active_perf", "IPC ratio - 1, 8 of 32 warps active vs all", "fraction", 0.0,
     GPURF_REPRODUCE_ABOUT, 0.01, "Sec. 7.2: 8 active warps lose no performance against all 32"},
    CLAIM("twolevel_6active_perf_compute", "IPC ratio - 1, 6 of 32 warps active vs all", -0.01,
          "Sec. 7.2"),
    CLAIM("flush_extra_mrf_accesses", "MRF accesses ratio - 1 from flushes on demotion", 0.10,
          "Sec. 7.3"),
    ENERGY_CLAIMS("_our_models", "; our primitive models for MRF, L0 and wires"),
    CLAIM("sw3_reduction_closest_saving", "RF energy saved, SW L0+L1 ORF, closest to Reduction",
          0.25, "Sec. 7.8, Fig. 26: Reduction, the smallest saving"),
    CLAIM("sw3_scalarprod_closest_saving", "RF energy saved, SW L0+L1 ORF, closest to ScalarProd",
          0.30, "Sec. 7.8, Fig. 26: ScalarProd"),
    /* Figs. 21 and 24 as sweeps: energy against entries per thread. */
    {"fig21_hw_rfc_energy_by_entries", "RF energy / MRF only, lowest over 1-8 entries", "ratio",
     NAN, GPURF_REPRODUCE_EQUAL, 0, "Sec. 7.4, Fig. 21(b): lowest at 6 entries per thread"},
    {"fig24_sw_orf_energy_by_entries", "RF energy / MRF only, lowest over 1-8 entries", "ratio",
     NAN, GPURF_REPRODUCE_EQUAL, 0, "Sec. 7.8, Fig. 24: lowest at 3 entries per thread"},
    {"fig24_sw_3level_energy_by_entries", "RF energy / MRF only, lowest over 1-8 L1 entries",
     "ratio", NAN, GPURF_REPRODUCE_EQUAL, 0, "Sec. 7.8, Fig. 24: lowest at 3 L1 entries"},
    {NULL, NULL, NULL, 0, 0, 0, NULL}};

#define MAX_ENTRIES 8
#define SWEEP_SETS ACTIVE8 ";technique=rfc;t.entries=%d" /* entries=6 is RFC6 */

static int plan(repro_env *env) {
  static const char *const mrf_sets[] = {ALL_ACTIVE, ACTIVE8, ACTIVE6};
  static const char *const hw_sets[] = {RFC_ALONE, RFC6, RFC6_NOLIVE, RFC6_NOFLUSH, RFC6_L0};
  int rc = GPURF_OK;
  for (size_t i = 0; i < sizeof mrf_sets / sizeof *mrf_sets && rc == GPURF_OK; i++)
    rc = repro_plan_sims(env, MRF, mrf_sets[i]);
  for (size_t i = 0; i < sizeof hw_sets / sizeof *hw_sets && rc == GPURF_OK; i++)
    rc = repro_plan_sims(env, HW, hw_sets[i]);
  for (int e = 1; e <= MAX_ENTRIES && rc == GPURF_OK; e++) {
    char sets[128];
    snprintf(sets, sizeof sets, SWEEP_SETS, e);
    rc = repro_plan_sims(env, HW, sets);
  }
  return rc;
}

typedef enum kind {
  K_READS_FILTERED,
  K_WRITES_FILTERED,
  K_LIVE_GAIN,
  K_HW_RFC6,
  K_HW_3LEVEL,
  K_ALL_L0,
  K_ALL_L1_5,
  K_FLUSH,
  K_IPC8,
  K_IPC6
} kind;

/* The energy parameters: 6-entry L1 (the cache) and 5-entry L1 (Sec. 8). */
typedef struct params {
  gpurf_rfhier_energy l1_6, l1_5;
} params;

static double energy(const gpurf_rfhier_energy *e, const repro_job *j) {
  gebhart_counts c;
  gebhart_counts_of(j, &c);
  return gebhart_energy_j(e, &c);
}

/* Every access of the MRF-only run served by one level instead. */
static double energy_at(const gpurf_rfhier_energy *e, const repro_job *mrf, gpurf_rfhier_level l) {
  return mrf->m[RM_READS] * gpurf_rfhier_access_j(e, l, 0, 0) +
         mrf->m[RM_WRITES] * gpurf_rfhier_access_j(e, l, 1, 0);
}

/* The claim's value on workload w; 0 when a job is missing (a shard's). */
static int value(repro_env *env, const params *pr, kind k, int w, double *out) {
  const repro_job *all = repro_find_sim(env, MRF, ALL_ACTIVE, w);
  const repro_job *a8 = repro_find_sim(env, MRF, ACTIVE8, w);
  const repro_job *alone = repro_find_sim(env, HW, RFC_ALONE, w);
  const repro_job *rfc = repro_find_sim(env, HW, RFC6, w);
  const repro_job *nolive = repro_find_sim(env, HW, RFC6_NOLIVE, w);
  const repro_job *noflush = repro_find_sim(env, HW, RFC6_NOFLUSH, w);
  const repro_job *l0 = repro_find_sim(env, HW, RFC6_L0, w);
  const repro_job *a6 = repro_find_sim(env, MRF, ACTIVE6, w);
  if (!a6 || !all || !a8 || !alone || !rfc || !nolive || !noflush || !l0) return 0;
  const gpurf_rfhier_energy *e = &pr->l1_6;
  double base = energy(e, a8);
  switch (k) {
    case K_READS_FILTERED:
      *out = 1 - alone->m[RM_READS] / all->m[RM_READS];
      break;
    case K_WRITES_FILTERED:
      *out = 1 - alone->m[RM_WRITES] / all->m[RM_WRITES];
      break;
    case K_LIVE_GAIN: /* points of the MRF-only energy, as Fig. 21 plots */
      *out = (energy(e, nolive) - energy(e, rfc)) / base;
      break;
    case K_HW_RFC6:
      *out = 1 - energy(e, rfc) / base;
      break;
    case K_HW_3LEVEL:
      *out = 1 - energy(e, l0) / base;
      break;
    case K_ALL_L0:
      *out = 1 - energy_at(e, a8, GPURF_RFHIER_L0) / base;
      break;
    case K_ALL_L1_5:
      *out = 1 - energy_at(&pr->l1_5, a8, GPURF_RFHIER_L1) / energy(&pr->l1_5, a8);
      break;
    case K_FLUSH:
      *out = (rfc->m[RM_READS] + rfc->m[RM_WRITES]) /
             (noflush->m[RM_READS] + noflush->m[RM_WRITES]);
      break;
    case K_IPC8:
      *out = a8->m[RM_IPC] / all->m[RM_IPC];
      break;
    case K_IPC6:
      *out = a6->m[RM_IPC] / all->m[RM_IPC];
      break;
  }
  return 1;
}

/* The workload of the smallest or largest value (ratios: the furthest from
 * 1) with its value usage: the property behind a spread. */
typedef enum pick { PICK_MIN, PICK_MAX, PICK_FAR } pick;

static void explain(repro_env *env, const gebhart_orf_result *res, const double *v, int n,
                    pick how, const char *note, char *out, size_t len) {
  int at = 0;
  for (int i = 1; i < n; i++)
    if (how == PICK_MAX   ? v[i] > v[at]
        : how == PICK_MIN ? v[i] < v[at]
                          : fabs(v[i] - 1) > fabs(v[at] - 1))
      at = i;
  static const char *const word[] = {"smallest", "largest", "furthest from no change"};
  char d[320];
  gebhart_describe(env->r->workloads[env->paper->workloads[at]].name, &res[at], d, sizeof d);
  snprintf(out, len, "%s%s%s on %s", note ? note : "", note ? "; " : "", word[how], d);
}

static int claim(repro_env *env, const params *pr, const gebhart_orf_result *res, const char *id,
                 kind k, int ratio, repro_aggregate agg, const char *note) {
  const repro_claim_def *d = repro_claim_def_find(claims, id);
  int n = env->paper->n_workloads;
  double *v = calloc(n > 0 ? (size_t)n : 1, sizeof *v);
  if (!v) return gpurf_fail(env->ctx, GPURF_ENOMEM, "out of memory");
  int have = n > 0;
  for (int i = 0; i < n && have; i++) have = value(env, pr, k, env->paper->workloads[i], &v[i]);
  char full[768];
  if (have && (agg == REPRO_MIN || agg == REPRO_MAX || ratio)) {
    explain(env, res, v, n, ratio ? PICK_FAR : agg == REPRO_MIN ? PICK_MIN : PICK_MAX, note, full,
            sizeof full);
    note = full;
  }
  int rc = have ? repro_claim_series(env, d, v, ratio, agg, note) : repro_claim_no_data(env, d);
  free(v);
  return rc;
}

/* The energy claims with one parameter set; sfx names the row set. */
static int energy_claims(repro_env *env, const params *pr, const gebhart_orf_result *res,
                         const char *sfx) {
  static const struct {
    const char *id;
    kind k;
    repro_aggregate agg;
    const char *note;
  } rows[] = {
      {"rfc_liveness_energy_gain_min", K_LIVE_GAIN, REPRO_MIN,
       "6 entries, 8 active warps; in points of the MRF-only energy; " PRIVATE_NOTE},
      {"rfc_liveness_energy_gain_max", K_LIVE_GAIN, REPRO_MAX,
       "6 entries, 8 active warps; in points of the MRF-only energy; " PRIVATE_NOTE},
      {"hw_rfc6_energy_saving", K_HW_RFC6, REPRO_MEAN,
       "6 entries, liveness hints, 8 active warps with flushes; " PRIVATE_NOTE},
      {"hw_3level_energy_saving", K_HW_3LEVEL, REPRO_MEAN,
       "L0 of 1 and L1 of 6 entries; shared units reach the L0 (no compiler bit); " PRIVATE_NOTE},
      {"limit_all_l0_saving", K_ALL_L0, REPRO_MEAN, "the MRF-only run's accesses at L0 cost"},
      {"limit_l1_5entry_saving", K_ALL_L1_5, REPRO_MEAN,
       "the MRF-only run's accesses at the cost of an L1 of 5 entries per thread"},
  };
  int rc = GPURF_OK;
  for (size_t i = 0; i < sizeof rows / sizeof *rows && rc == GPURF_OK; i++) {
    char id[96];
    snprintf(id, sizeof id, "%s%s", rows[i].id, sfx);
    const repro_claim_def *d = repro_claim_def_find(claims, id);
    rc = claim(env, pr, res, d->id, rows[i].k, 0, rows[i].agg, rows[i].note);
  }
  return rc;
}

/* The software ORF's claims: the pass on each workload's kernels (Sec. 5),
 * accesses counted over the trace as the paper's functional simulator
 * does, energies with an L1 of 3 entries per thread. */
enum {
  V_ORF3,
  V_ORF3_BASIC,
  V_SW3,
  V_ORF3_MODELS,
  V_SW3_MODELS,
  V_SWEEP_ORF,                            /* + entries - 1 */
  V_SWEEP_SW3 = V_SWEEP_ORF + MAX_ENTRIES, /* + entries - 1 */
  N_VARIANTS = V_SWEEP_SW3 + MAX_ENTRIES
};

static void variant(gpurf_orf_params *p, const gpurf_rfhier_energy *e, int l0, int opt,
                    int entries) {
  gpurf_orf_params_init(p);
  p->l1_entries = entries;
  p->l0 = l0;
  p->split_l0 = l0; /* Fig. 26's configuration: a split L0 */
  p->partial = p->read_operands = opt;
  for (int l = 0; l < GPURF_ORF_LEVELS; l++) {
    p->read_j[l] = gpurf_rfhier_access_j(e, (gpurf_rfhier_level)l, 0, 0);
    p->write_j[l] = gpurf_rfhier_access_j(e, (gpurf_rfhier_level)l, 1, 0);
  }
}

static double saving(const gpurf_rfhier_energy *e, const gebhart_orf_result *r, int v) {
  return 1 - gebhart_energy_j(e, &r->c[v]) / gebhart_energy_j(e, &r->mrf_only);
}

static double per_strand(const gebhart_orf_result *r) {
  return r->strands > 0 ? r->static_insts / r->strands : 0;
}

/* Reduction and ScalarProd save least because global loads swap their
 * warps out of the active set often, invalidating the ORF (Sec. 7.8): the
 * closest workloads of the set are those with the fewest instructions per
 * strand, the rank-th fewest (0, 1) here. */
static int closest(repro_env *env, const char *id, int rank, const double *sw3,
                   const gebhart_orf_result *res) {
  const repro_claim_def *d = repro_claim_def_find(claims, id);
  int n = env->paper->n_workloads, at = -1, skip = -1;
  for (int r = 0; r <= rank && r < n; r++) {
    at = -1;
    for (int i = 0; i < n; i++)
      if (i != skip && (at < 0 || per_strand(&res[i]) < per_strand(&res[at]))) at = i;
    skip = at;
  }
  if (n <= rank || at < 0) return repro_claim_not_modelled(env, d, WHY_ORF);
  char desc[320], note[512];
  gebhart_describe(env->r->workloads[env->paper->workloads[at]].name, &res[at], desc,
                   sizeof desc);
  const gebhart_counts *c = &res[at].c[V_SW3];
  double all = c->reads[0] + c->reads[1] + c->reads[2];
  snprintf(note, sizeof note,
           "the set's workload with the %sfewest instructions per strand; %s; %.0f%% of its "
           "reads come from the ORF (values made and used within a strand)",
           rank ? "second " : "", desc, all > 0 ? 100 * (1 - c->reads[0] / all) : 0);
  return repro_claim_value(env, d, sw3[at], note);
}

/* The pass's variants on every workload of the paper. */
static int orf_run(repro_env *env, const gpurf_rfhier_energy *paper,
                   const gpurf_rfhier_energy *models, const gpurf_rfhier_energy *by_entries,
                   gebhart_orf_result *res) {
  gpurf_orf_params v[N_VARIANTS];
  variant(&v[V_ORF3], paper, 0, 1, 3);
  variant(&v[V_ORF3_BASIC], paper, 0, 0, 3);
  variant(&v[V_SW3], paper, 1, 1, 3);
  variant(&v[V_ORF3_MODELS], models, 0, 1, 3);
  variant(&v[V_SW3_MODELS], models, 1, 1, 3);
  for (int e = 1; e <= MAX_ENTRIES; e++) {
    variant(&v[V_SWEEP_ORF + e - 1], &by_entries[e], 0, 1, e);
    variant(&v[V_SWEEP_SW3 + e - 1], &by_entries[e], 1, 1, e);
  }
  int rc = GPURF_OK;
  for (int i = 0; i < env->paper->n_workloads && rc == GPURF_OK; i++)
    rc = gebhart_orf_counts(env, env->paper->workloads[i], v, N_VARIANTS, &res[i]);
  return rc;
}

static int orf_claims(repro_env *env, const gpurf_rfhier_energy *paper,
                      const gpurf_rfhier_energy *models, const gebhart_orf_result *res) {
  int n = env->paper->n_workloads;
  double *val = calloc(6 * (size_t)(n > 0 ? n : 1), sizeof *val);
  int rc = val ? GPURF_OK : gpurf_fail(env->ctx, GPURF_ENOMEM, "out of memory");
  double *orf3 = val, *part = val + n, *sw3 = val + 2 * n, *orf3m = val + 3 * n,
         *sw3m = val + 4 * n;
  for (int i = 0; i < n && rc == GPURF_OK; i++) {
    orf3[i] = saving(paper, &res[i], V_ORF3);
    sw3[i] = saving(paper, &res[i], V_SW3);
    orf3m[i] = saving(models, &res[i], V_ORF3_MODELS);
    sw3m[i] = saving(models, &res[i], V_SW3_MODELS);
    double basic = res[i].c[V_ORF3_BASIC].reads[GPURF_RFHIER_MRF];
    part[i] = basic > 0 ? res[i].c[V_ORF3].reads[GPURF_RFHIER_MRF] / basic : 1;
  }
  static const char *const two = "3 ORF entries, partial ranges and read operands; accesses "
                                 "counted over the trace; " PRIVATE_NOTE;
  static const char *const three = "split L0 and 3 L1 entries, partial ranges and read operands; "
                                   PRIVATE_NOTE;
  struct {
    const char *id;
    const double *v;
    int ratio;
    const char *note;
  } rows[] = {
      {"sw_orf3_energy_saving", orf3, 0, two},
      {"sw_3level_energy_saving", sw3, 0, three},
      {"sw_orf3_energy_saving_our_models", orf3m, 0, two},
      {"sw_3level_energy_saving_our_models", sw3m, 0, three},
      {"orf_partial_read_alloc_mrf_reads", part, 1,
       "3 ORF entries: MRF reads with both optimisations against without"},
  };
  for (size_t k = 0; k < sizeof rows / sizeof *rows && rc == GPURF_OK; k++)
    rc = repro_claim_series(env, repro_claim_def_find(claims, rows[k].id), rows[k].v,
                            rows[k].ratio, rows[k].ratio ? REPRO_GEOMEAN : REPRO_MEAN,
                            rows[k].note);
  if (rc == GPURF_OK) rc = closest(env, "sw3_reduction_closest_saving", 0, sw3, res);
  if (rc == GPURF_OK) rc = closest(env, "sw3_scalarprod_closest_saving", 1, sw3, res);
  free(val);
  return rc;
}

/* Energy over 1-8 entries per thread, normalised to the MRF alone and
 * averaged over the workloads: a row per size, ours the lowest. */
static int sweep(repro_env *env, const char *id, const gpurf_rfhier_energy *by_entries,
                 const gebhart_orf_result *res, int first_variant) {
  const repro_claim_def *d = repro_claim_def_find(claims, id);
  int n = env->paper->n_workloads;
  double v[MAX_ENTRIES];
  char text[MAX_ENTRIES][16];
  const char *labels[MAX_ENTRIES];
  for (int e = 1; e <= MAX_ENTRIES; e++) {
    double sum = 0;
    for (int i = 0; i < n; i++) {
      const gpurf_rfhier_energy *en = &by_entries[e];
      if (first_variant < 0) {
        char sets[128];
        snprintf(sets, sizeof sets, SWEEP_SETS, e);
        const repro_job *j = repro_find_sim(env, HW, sets, env->paper->workloads[i]);
        const repro_job *b = repro_find_sim(env, MRF, ACTIVE8, env->paper->workloads[i]);
        if (!j || !b) return repro_claim_no_data(env, d);
        sum += energy(en, j) / energy(en, b);
      } else {
        sum += gebhart_energy_j(en, &res[i].c[first_variant + e - 1]) /
               gebhart_energy_j(en, &res[i].mrf_only);
      }
    }
    v[e - 1] = n > 0 ? sum / n : NAN;
    snprintf(text[e - 1], sizeof text[e - 1], "%d entr%s", e, e == 1 ? "y" : "ies");
    labels[e - 1] = text[e - 1];
  }
  if (n == 0) return repro_claim_no_data(env, d);
  int best = 0;
  for (int e = 1; e < MAX_ENTRIES; e++)
    if (v[e] < v[best]) best = e;
  char note[160];
  snprintf(note, sizeof note,
           "lowest at %d entries per thread; mean over the workloads; Table V with our L1 "
           "energies at each size",
           best + 1);
  return repro_claim_rows(env, d, v[best], labels, v, MAX_ENTRIES, 0, note);
}

static int compute(repro_env *env) {
  params paper, models;
  gpurf_rfhier_energy by_entries[MAX_ENTRIES + 1], unused;
  gpurf_rfhier_energy paper3, models3;
  int n = env->paper->n_workloads;
  gebhart_orf_result *res = calloc(n > 0 ? (size_t)n : 1, sizeof *res);
  int rc = res ? GPURF_OK : gpurf_fail(env->ctx, GPURF_ENOMEM, "out of memory");
  if (rc == GPURF_OK) rc = gebhart_energies(env, 6, &models.l1_6, &paper.l1_6);
  if (rc == GPURF_OK) rc = gebhart_energies(env, 5, &models.l1_5, &paper.l1_5);
  if (rc == GPURF_OK) rc = gebhart_energies(env, 3, &models3, &paper3);
  for (int e = 1; e <= MAX_ENTRIES && rc == GPURF_OK; e++)
    rc = gebhart_energies(env, e, &unused, &by_entries[e]);
  if (rc == GPURF_OK) rc = orf_run(env, &paper3, &models3, by_entries, res);
  if (rc == GPURF_OK) rc = orf_claims(env, &paper3, &models3, res);
  static const struct {
    const char *id;
    kind k;
    repro_aggregate agg;
  } filtered[] = {{"rfc6_mrf_reads_filtered_min", K_READS_FILTERED, REPRO_MIN},
                  {"rfc6_mrf_reads_filtered_max", K_READS_FILTERED, REPRO_MAX},
                  {"rfc6_mrf_writes_filtered_min", K_WRITES_FILTERED, REPRO_MIN},
                  {"rfc6_mrf_writes_filtered_max", K_WRITES_FILTERED, REPRO_MAX}};
  for (size_t i = 0; i < sizeof filtered / sizeof *filtered && rc == GPURF_OK; i++)
    rc = claim(env, &paper, res, filtered[i].id, filtered[i].k, 0, filtered[i].agg,
               "6 entries, all 32 warps active, no liveness hints");
  if (rc == GPURF_OK) rc = energy_claims(env, &paper, res, "");
  if (rc == GPURF_OK) rc = energy_claims(env, &models, res, "_our_models");
  if (rc == GPURF_OK)
    rc = claim(env, &paper, res, "flush_extra_mrf_accesses", K_FLUSH, 1, REPRO_GEOMEAN,
               "6 entries, 8 active warps: flushing against keeping a demoted warp's entries");
  if (rc == GPURF_OK)
    rc = claim(env, &paper, res, "twolevel_8active_perf", K_IPC8, 1, REPRO_GEOMEAN,
               "round robin within the active set, and over all 32 warps for the baseline");
  if (rc == GPURF_OK)
    rc = claim(env, &paper, res, "twolevel_6active_perf_compute", K_IPC6, 1, REPRO_GEOMEAN,
               "over the whole workload set, not only compute-bound kernels");
  if (rc == GPURF_OK) rc = sweep(env, "fig21_hw_rfc_energy_by_entries", by_entries, res, -1);
  if (rc == GPURF_OK)
    rc = sweep(env, "fig24_sw_orf_energy_by_entries", by_entries, res, V_SWEEP_ORF);
  if (rc == GPURF_OK)
    rc = sweep(env, "fig24_sw_3level_energy_by_entries", by_entries, res, V_SWEEP_SW3);
  if (rc == GPURF_OK) rc = repro_claims_rest_not_modelled(env, claims, WHY_ORF);
  free(res);
  return rc;
}

const repro_paper_def repro_paper_gebhart = {
    {"gebhart", "A hierarchical thread scheduler and register file for energy-efficient throughput processors",
     "M. Gebhart et al., ACM TOCS 2012 (seed 001)", "synthetic+shipped"},
    plan,
    compute};
