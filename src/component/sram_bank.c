/* Organisation search for sub-array banks (SRAM, STT-RAM: the cell model is
 * a hook in bank_in). Unlike CACTI and NVSim any depth and
 * width is accepted: rows and columns that do not divide evenly are padded
 * with whole cells, never split into fractions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "component/bank_internal.h"
#include "core/ctx_internal.h"

/* Practical sub-array limits: longer wordlines and bitlines are slower and
 * costlier than splitting, and the search never needs them. */
#define MAX_SUBARRAY_ROWS 1024
#define MAX_SUBARRAY_COLS 2048
#define MAX_SPLIT 64
#define MAX_COL_MUX 32

/* The energy of the compound objectives is the mean of a read and a write;
 * ed2-read weighs a read alone, as CACTI's ED^2 choice does (access time and
 * read dynamic energy, cacti_interface.cc find_optimal_uca). */
static double objective(gpurf_bank_opt opt, const gpurf_bank_cost *c) {
  double e = opt == GPURF_BANK_OPT_ED2_READ ? c->read_energy_j
                                            : 0.5 * (c->read_energy_j + c->write_energy_j);
  double t = c->access_time_s;
  switch (opt) {
  case GPURF_BANK_OPT_ED2:
  case GPURF_BANK_OPT_ED2_READ: return e * t * t;
  case GPURF_BANK_OPT_EDP: return e * t;
  case GPURF_BANK_OPT_DELAY: return t;
  case GPURF_BANK_OPT_ENERGY: return e;
  case GPURF_BANK_OPT_AREA: return c->area_m2;
  case GPURF_BANK_OPT_LEAKAGE: return c->leakage_sub_w + c->leakage_gate_w;
  case GPURF_BANK_OPT_COUNT: break;
  }
  return e * t * t;
}

/* Returns GPURF_OK, an error, or ORG_REJECTED with the reason in why. */
#define ORG_REJECTED 1

static int eval_org(const bank_in *in, const gpurf_bank_org *org, gpurf_bank_cost *c, char *why) {
  subarray_cost sa;
  int rc = in->subarray_eval(in, org, &sa);
  if (rc != GPURF_OK) return rc;
  if (sa.reject[0]) {
    memcpy(why, sa.reject, strlen(sa.reject) + 1);
    return ORG_REJECTED;
  }
  double w, h;
  bank_layout_single(in, org, &sa, c, &w, &h);
  if (in->bank_extra) in->bank_extra(in, org, &sa, c, &w, &h);
  if (in->spec->gate_groups > 0) bank_power_gating(in, org, &sa, c, &w, &h);
  bank_layout_multi(in, w, h, c);
  return GPURF_OK;
}

/* One organisation and what the search weighs it by. */
typedef struct candidate {
  gpurf_bank_org org;
  double obj, area, energy, delay, read_energy;
} candidate;

/* enumerate() doubles the column mux from 1 to MAX_COL_MUX and each split
 * from 1 to MAX_SPLIT: 6 x 7 x 7 organisations at most. */
#define MAX_CANDIDATES (6 * 7 * 7)

/* The least power of two not below v (1 for v <= 1; v is at most 2^62). */
static long long next_pow2(long long v) {
  return v <= 1 ? 1 : (long long)1 << (64 - __builtin_clzll((unsigned long long)(v - 1)));
}

/* Every organisation the search may pick, in a fixed order. Splits run up
 * to the next power of two of what they split (beyond it whole sub-arrays
 * or words would be empty, which never pays).
 * With whole mats (the cacti space) the grid is CACTI's: Ndwl and Ndbl at
 * least 2 (one mat of 2 x 2 or more), a word across the 2 x ndwl sub-arrays
 * of one row of mats, each pair of sub-array rows holding the same words,
 * and CACTI's Nspd >= 1 (a word within one row of sub-arrays: rows at most
 * entries / ndbl), which with both rows of a mat open is a mux of at least
 * 2 (cacti_interface.cc and parameter.cc: Nspd_min, num_do_b_mat). */
static int enumerate(const bank_in *in, candidate *cand, int max) {
  const long long entries = in->entries_per_bank;
  const int width = in->spec->width_bits;
  const int whole = in->whole_mats;
  int n = 0;
  /* Whole mats mux at least 2:1, even a bank of one word (padded). */
  const long long mux_max = whole && next_pow2(entries) < 2 ? 2 : next_pow2(entries);
  const long long ndwl_max = next_pow2(width);
  for (int mux = whole ? 2 : 1; mux <= MAX_COL_MUX && mux <= mux_max; mux *= 2) {
    long long phys_rows = (entries + mux - 1) / mux;
    const long long ndbl_max = (whole ? 2 : 1) * next_pow2(phys_rows);
    for (int ndwl = whole ? 2 : 1; ndwl <= MAX_SPLIT && ndwl <= ndwl_max; ndwl *= 2) {
      int open_w = whole ? 2 * ndwl : ndwl; /* sub-arrays a word spans */
      int bits = (width + open_w - 1) / open_w;
      long long cols = (long long)bits * mux;
      if (cols > MAX_SUBARRAY_COLS) continue;
      int ndbl0 = whole ? 2 : in->min_ndbl > 1 ? in->min_ndbl : 1;
      for (int ndbl = ndbl0; ndbl <= MAX_SPLIT && ndbl <= ndbl_max; ndbl *= 2) {
        int word_rows = whole ? ndbl / 2 : ndbl; /* sub-array rows holding other words */
        long long rows = (phys_rows + word_rows - 1) / word_rows;
        if (rows > MAX_SUBARRAY_ROWS) continue;
        gpurf_bank_org org;
        memset(&org, 0, sizeof org);
        org.rows = (int)rows;
        org.cols = (int)cols;
        org.col_mux = mux;
        org.ndwl = ndwl;
        org.ndbl = ndbl;
        org.entries_per_bank = entries;
        org.padding_bits = rows * ndbl * cols * ndwl - entries * (long long)width;
        if (n < max) cand[n++].org = org;
      }
    }
  }
  return n;
}

/* Deviation windows, as CACTI applies before its ED^2 choice: candidates
 * larger than the smallest bank, or costlier per access than the most
 * frugal one, by more than these fractions are not considered for the
 * delay-weighted objectives. A designer would not pay that much area or
 * energy for the last few percent of speed. */
#define AREA_SLACK 0.4
#define ENERGY_SLACK 0.4
/* CACTI's own filter, which the cacti space takes instead of the windows:
 * an organisation both this much slower than the fastest and this much
 * costlier per read than the most frugal is dropped (Ucache.cc
 * filter_data_arr); its ED^2 choice has no other window. */
#define CACTI_FILTER_SLACK 0.5

static int search(gpurf_ctx *ctx, const bank_in *in, candidate *cand, gpurf_bank_cost *best) {
  const long long entries = in->entries_per_bank;
  const int width = in->spec->width_bits;
  int n = enumerate(in, cand, MAX_CANDIDATES);
  /* The windows apply to the compound objectives only; a single-metric
   * objective gets its true optimum. */
  static const int windowed[GPURF_BANK_OPT_COUNT] = {
      [GPURF_BANK_OPT_ED2] = 1, [GPURF_BANK_OPT_EDP] = 1, [GPURF_BANK_OPT_ED2_READ] = 1};
  double min_area = INFINITY, min_energy = INFINITY, min_delay = INFINITY, min_read = INFINITY;
  char why[SUBARRAY_REJECT_MAX] = "";
  long long rejected = 0;
  for (int i = 0; i < n; i++) {
    gpurf_bank_cost c;
    int rc = eval_org(in, &cand[i].org, &c, why);
    if (rc == ORG_REJECTED) {
      cand[i].obj = cand[i].area = cand[i].energy = cand[i].delay = cand[i].read_energy = INFINITY;
      rejected++;
      continue;
    }
    if (rc != GPURF_OK) return rc;
    cand[i].obj = objective(in->spec->opt, &c);
    cand[i].area = c.area_m2;
    cand[i].energy = 0.5 * (c.read_energy_j + c.write_energy_j);
    cand[i].delay = c.access_time_s;
    cand[i].read_energy = c.read_energy_j;
    if (cand[i].area < min_area) min_area = cand[i].area;
    if (cand[i].energy < min_energy) min_energy = cand[i].energy;
    if (cand[i].delay < min_delay) min_delay = cand[i].delay;
    if (cand[i].read_energy < min_read) min_read = cand[i].read_energy;
  }
  int pick = -1;
  /* First with both windows; if no organisation meets both, area alone. */
  for (int pass = 0; pass < 2 && pick < 0; pass++) {
    for (int i = 0; i < n; i++) {
      if (!isfinite(cand[i].obj)) continue;
      if (in->whole_mats) {
        if (cand[i].delay > min_delay * (1.0 + CACTI_FILTER_SLACK) &&
            cand[i].read_energy > min_read * (1.0 + CACTI_FILTER_SLACK))
          continue;
      } else if (windowed[in->spec->opt]) {
        if (cand[i].area > min_area * (1.0 + AREA_SLACK)) continue;
        if (pass == 0 && cand[i].energy > min_energy * (1.0 + ENERGY_SLACK)) continue;
      }
      /* Ties (within a part in a million) go to the smaller bank; when
       * area is the objective, to the faster one (NVSim's area optimum
       * takes the smallest area whatever its delay; we break its ties). */
      int tie = pick >= 0 && cand[i].obj <= cand[pick].obj * (1.0 + 1e-6);
      int better_tie = tie && (in->spec->opt == GPURF_BANK_OPT_AREA
                                   ? cand[i].delay < cand[pick].delay
                                   : cand[i].area < cand[pick].area);
      if (pick < 0 || cand[i].obj < cand[pick].obj * (1.0 - 1e-6) || (tie && better_tie))
        pick = i;
    }
  }
  long long tried = n;
  if (tried > 0 && rejected == tried)
    return gpurf_fail(ctx, GPURF_EUNSUPPORTED,
                      "none of the %lld organisations of %lld entries of %d bits can work; "
                      "the last: %s", tried, entries, width, why);
  if (pick >= 0) {
    int rc = eval_org(in, &cand[pick].org, best, why);
    if (rc != GPURF_OK) return rc;
  }
  if (tried == 0)
    return gpurf_fail(ctx, GPURF_EUNSUPPORTED,
                      "no sub-array organisation fits %lld entries of %d bits "
                      "(limits: %d rows, %d columns per sub-array, %d-way splits)",
                      entries, width, MAX_SUBARRAY_ROWS, MAX_SUBARRAY_COLS, MAX_SPLIT);
  best->candidates = tried;
  best->rejected = rejected;
  return GPURF_OK;
}

/* The candidates live on the heap: a simulator may search banks from a
 * worker thread with a small stack. */
int sram_bank_search(gpurf_ctx *ctx, const bank_in *in, gpurf_bank_cost *best) {
  candidate *cand = malloc(MAX_CANDIDATES * sizeof *cand);
  if (!cand) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  int rc = search(ctx, in, cand, best);
  free(cand);
  return rc;
}

/* The best organisation, by the spec's objective, among those with
 * sub-arrays of exactly rows x cols (no deviation windows): how a bank
 * laid out on another tool's chosen shape compares with our own pick.
 * *found is 0 when no candidate has that shape or all are rejected. */
int sram_bank_best_of_shape(gpurf_ctx *ctx, const bank_in *in, int rows, int cols,
                            gpurf_bank_cost *out, int *found) {
  candidate *cand = malloc(MAX_CANDIDATES * sizeof *cand);
  if (!cand) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  int n = enumerate(in, cand, MAX_CANDIDATES), rc = GPURF_OK;
  double best = INFINITY;
  char why[SUBARRAY_REJECT_MAX] = "";
  *found = 0;
  for (int i = 0; i < n && rc == GPURF_OK; i++) {
    if (cand[i].org.rows != rows || cand[i].org.cols != cols) continue;
    gpurf_bank_cost c;
    int r = eval_org(in, &cand[i].org, &c, why);
    if (r == ORG_REJECTED) continue;
    if (r != GPURF_OK) {
      rc = r;
      break;
    }
    double obj = objective(in->spec->opt, &c);
    if (obj < best) {
      best = obj;
      *out = c;
      *found = 1;
    }
  }
  free(cand);
  return rc;
}
