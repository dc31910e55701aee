/* Private view of reference sets and comparison results. */
#ifndef GPURF_VALIDATE_INTERNAL_H
#define GPURF_VALIDATE_INTERNAL_H

#include "gpurf/validate.h"

#define VSET_NAME_MAX 128
#define VSET_TEXT_MAX 1024

typedef struct vset_tolerance {
  int gated;        /* 1 when a tolerance line names this metric */
  double median;    /* largest allowed median |relative error|, 0 = not checked */
  double max_ratio; /* largest allowed max(ours/ref, ref/ours), 0 = not checked */
} vset_tolerance;

typedef struct vset_row {
  char config[VSET_NAME_MAX];
  int line;
  char node[VSET_NAME_MAX];   /* "40nm" */
  char cell[VSET_TEXT_MAX];   /* "sram" or a cell name or path */
  int ports_given;            /* else a cell file's own ports (or 1rw) */
  gpurf_bank_spec spec;       /* everything but tech and cell */
  int has[GPURF_VALIDATE_METRICS];
  /* In the metric's unit, as the set states it: a report then shows the
   * reference's own digits, which a round trip through SI may change. */
  double ref[GPURF_VALIDATE_METRICS];
} vset_row;

struct gpurf_validate_set {
  char name[VSET_NAME_MAX]; /* file name without .tsv */
  char path[VSET_TEXT_MAX];
  char source[VSET_TEXT_MAX]; /* first '# source:' line */
  int leakage_per_bank;
  int gated;
  char not_gated_why[VSET_TEXT_MAX];
  vset_tolerance tol[GPURF_VALIDATE_METRICS];
  size_t n_rows;
  vset_row *rows;
};

/* The row at index row, or NULL. */
const vset_row *vset_row_at(const gpurf_validate_set *set, size_t row);

#endif
