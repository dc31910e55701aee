/* Our bank at an organisation CACTI 7 was forced to (validation/organisations/cacti7-forced.tsv),
 * shared by tools/cacti_shapes.c (--forced) and tests/test_bank_forced.c.
 *
 * CACTI names an organisation by Ndwl x Ndbl sub-arrays of rows x cols, grouped
 * into mats of 2 x 2, with a column mux of Ndcm x Ndsam1 x Ndsam2 per sub-array;
 * a mat opens all four of its sub-arrays, so an access opens
 * width x mux / cols sub-arrays. Ours opens one row of ndwl sub-arrays and muxes
 * ndwl x cols / width words. Both cannot hold at once when CACTI opens both
 * halves of a mat, so there are two stand-ins of the same sub-array shape:
 *   FORCED_SAME_SPLIT: CACTI's ndwl and ndbl; our mux follows (half CACTI's when
 *     its mats open both halves), so we open half the sub-arrays CACTI opens;
 *   FORCED_SAME_MUX: CACTI's mux and as many open sub-arrays, side by side
 *     (ndwl = the sub-arrays CACTI opens, ndbl = the rest of its sub-arrays).
 * Where CACTI opens one row of sub-arrays the two are the same organisation.
 *   FORCED_CACTI_SPACE: CACTI's own organisation in the cacti space (whole
 *     mats, the bank built as CACTI builds it: forced_cacti_org), with a
 *     bank_in from a spec in that space. */
#ifndef GPURF_TOOLS_CACTI_FORCED_H
#define GPURF_TOOLS_CACTI_FORCED_H

#include "component/bank_internal.h"

typedef enum { FORCED_SAME_SPLIT = 0, FORCED_SAME_MUX, FORCED_CACTI_SPACE, FORCED_KINDS } forced_kind;

typedef struct forced_org {
  int ndwl, ndbl, nspd, ndcm, ndsam1, ndsam2; /* CACTI's parameters */
  int rows, cols;                             /* CACTI's sub-array */
} forced_org;

static inline int forced_is_pow2(long long v) { return v > 0 && (v & (v - 1)) == 0; }

/* CACTI's organisation itself, in the cacti space (in from a spec with
 * GPURF_BANK_SPACE_CACTI: whole mats, ndwl and ndbl are CACTI's Ndwl and
 * Ndbl): 1 and *org filled when every mat along the word opens (CACTI's
 * active mats, Ndcm x Ndsam x Ndwl / (4 Nspd), are Ndwl / 2), the only
 * kind of organisation that space holds; 0 otherwise. */
static inline int forced_cacti_org(const bank_in *in, const forced_org *f, gpurf_bank_org *org) {
  const long long entries = in->entries_per_bank;
  const int width = in->spec->width_bits;
  const long long mux = (long long)f->ndcm * f->ndsam1 * f->ndsam2;
  if (!in->whole_mats || f->ndwl < 2 || f->ndbl < 2) return 0;
  if (mux * f->ndwl != 2LL * f->nspd * f->ndwl || mux < 2) return 0;
  long long phys_rows = (entries + mux - 1) / mux;
  long long rows = (phys_rows + f->ndbl / 2 - 1) / (f->ndbl / 2);
  long long cols = (long long)((width + 2 * f->ndwl - 1) / (2 * f->ndwl)) * mux;
  if (rows != f->rows || cols != f->cols) return 0;
  memset(org, 0, sizeof *org);
  org->rows = (int)rows;
  org->cols = (int)cols;
  org->col_mux = (int)mux;
  org->ndwl = f->ndwl;
  org->ndbl = f->ndbl;
  org->entries_per_bank = entries;
  org->padding_bits = rows * f->ndbl * cols * f->ndwl - entries * (long long)width;
  return 1;
}

/* Our organisation standing in for f (kind above): 1 and *org filled when it
 * has CACTI's sub-array shape, 0 when our layout cannot form it. The sizes
 * follow the search's own enumeration (sram_bank.c): rows and columns padded
 * to whole cells. */
static inline int forced_our_org(const bank_in *in, const forced_org *f, forced_kind kind,
                                 gpurf_bank_org *org) {
  const long long entries = in->entries_per_bank;
  const int width = in->spec->width_bits;
  const int mux_c = f->ndcm * f->ndsam1 * f->ndsam2;
  long long mux, ndwl, ndbl;
  if (kind == FORCED_CACTI_SPACE) return forced_cacti_org(in, f, org);
  if (kind == FORCED_SAME_SPLIT) {
    ndwl = f->ndwl;
    ndbl = f->ndbl;
    if ((ndwl * f->cols) % width) return 0;
    mux = ndwl * f->cols / width;
  } else {
    if (((long long)width * mux_c) % f->cols) return 0;
    ndwl = (long long)width * mux_c / f->cols;
    if (ndwl < 1 || ((long long)f->ndwl * f->ndbl) % ndwl) return 0;
    ndbl = (long long)f->ndwl * f->ndbl / ndwl;
    mux = mux_c;
  }
  if (!forced_is_pow2(mux) || !forced_is_pow2(ndwl) || !forced_is_pow2(ndbl)) return 0;
  if (ndbl < in->min_ndbl) return 0;
  long long phys_rows = (entries + mux - 1) / mux;
  long long rows = (phys_rows + ndbl - 1) / ndbl;
  long long cols = (long long)((width + ndwl - 1) / ndwl) * mux;
  if (rows != f->rows || cols != f->cols) return 0;
  memset(org, 0, sizeof *org);
  org->rows = (int)rows;
  org->cols = (int)cols;
  org->col_mux = (int)mux;
  org->ndwl = (int)ndwl;
  org->ndbl = (int)ndbl;
  org->entries_per_bank = entries;
  org->padding_bits = rows * ndbl * cols * ndwl - entries * (long long)width;
  return 1;
}

/* One organisation costed as the search costs a candidate (sram_bank.c
 * eval_org, for a spec with no bank option and no power gating): GPURF_OK
 * with sa->reject empty, or the sub-array model's reason in sa->reject. */
static inline int forced_eval(const bank_in *in, const gpurf_bank_org *org, gpurf_bank_cost *c,
                              subarray_cost *sa) {
  int rc = sram_subarray_eval(in, org, sa);
  if (rc != GPURF_OK || sa->reject[0]) return rc;
  double w, h;
  memset(c, 0, sizeof *c);
  bank_layout_single(in, org, sa, c, &w, &h);
  bank_layout_multi(in, w, h, c);
  return GPURF_OK;
}

/* Leakage as CACTI prints it (validation/cacti7.tsv's convention
 * leakage_per_bank): one bank plus one path of the wiring between banks. */
static inline double forced_leakage_per_bank_w(const gpurf_bank_cost *c, int banks) {
  double all = c->leakage_sub_w + c->leakage_gate_w;
  double tree = c->leakage_part_w[GPURF_BANK_PART_INTERBANK] + c->interbank_leakage_gate_w;
  double path = c->interbank_path_leakage_sub_w + c->interbank_path_leakage_gate_w;
  return (all - tree) / banks + path;
}

#endif
