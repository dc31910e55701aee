/* Validation sets: published reference numbers as tab-separated files with
 * their source, conditions and tolerances in '#' header lines
 * (validation/README.md describes the format). This reader turns one file
 * into bank specifications and reference values in fixed units, and reports
 * anything malformed as FILE:LINE:COL. */
#ifndef GPURF_CLI_VALIDATE_TSV_H
#define GPURF_CLI_VALIDATE_TSV_H

#include <stddef.h>

#include "gpurf/gpurf.h"

/* Quantities a reference can give. Every value is held in the unit of
 * vt_metric_unit(); columns in other units are converted when read. */
typedef enum vt_metric {
  VT_ACCESS_TIME = 0,
  VT_CYCLE_TIME,
  VT_WRITE_LATENCY,
  VT_READ_ENERGY,
  VT_WRITE_ENERGY,
  VT_LEAKAGE,
  VT_LEAKAGE_SUB,
  VT_LEAKAGE_GATE,
  VT_AREA,
  VT_METRIC_COUNT
} vt_metric;

const char *vt_metric_name(vt_metric m); /* "read_energy" */
const char *vt_metric_key(vt_metric m);  /* "read_energy_pj" */
const char *vt_metric_unit(vt_metric m); /* "pJ" */
/* Value of metric m in its unit, from a model result. */
double vt_metric_of(vt_metric m, const gpurf_cost *c);

typedef struct vt_tolerance {
  int gated;        /* 1 when a tolerance line names this metric */
  double median;    /* largest allowed median |relative error|, 0 = not checked */
  double max_ratio; /* largest allowed max(ours/ref, ref/ours), 0 = not checked */
} vt_tolerance;

#define VT_NAME_MAX 128
#define VT_TEXT_MAX 1024

typedef struct vt_row {
  char config[VT_NAME_MAX];
  int line;
  char node[VT_NAME_MAX];
  char cell[VT_TEXT_MAX];     /* "sram" or a cell name or path */
  int ports_given;            /* else a cell file's own ports (or 1rw) */
  gpurf_bank_spec spec;       /* everything but tech and cell */
  int has[VT_METRIC_COUNT];
  double ref[VT_METRIC_COUNT];
} vt_row;

typedef struct vt_set {
  char name[VT_NAME_MAX];     /* file name without .tsv */
  char path[VT_TEXT_MAX];
  char source[VT_TEXT_MAX];   /* first '# source:' line */
  int leakage_per_bank;       /* reference leakage is one bank plus inter-bank wiring */
  int gated;                  /* some metric has a tolerance */
  char not_gated_why[VT_TEXT_MAX];
  vt_tolerance tol[VT_METRIC_COUNT];
  size_t n_rows;
  vt_row *rows;
} vt_set;

/* Reads one set. On failure returns nonzero and writes one line
 * "FILE:LINE:COL: what is wrong" into err. */
int vt_set_read(const char *path, vt_set *set, char *err, size_t err_size);
void vt_set_free(vt_set *set);

#endif
