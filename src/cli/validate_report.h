/* Printing the results of `gpurf validate`: our number beside every
 * reference number, with per-set, per-metric statistics (all computed by
 * the library, gpurf/validate.h). */
#ifndef GPURF_CLI_VALIDATE_REPORT_H
#define GPURF_CLI_VALIDATE_REPORT_H

#include "cli/cli.h"

typedef struct vr_set {
  gpurf_validate_set *set;
  gpurf_validate_result *res;
  char shown_path[1024]; /* relative to the data directory when inside it */
} vr_set;

/* A peer reference for the pipeline (validation/NAME-pipeline.tsv),
 * compared by the library above the pipeline (gpurf/reproduce.h). */
typedef struct vr_peer {
  gpurf_reproduce_peer *peer;
  char name[256];        /* the file name without .tsv */
  char shown_path[1024]; /* relative to the data directory when inside it */
} vr_peer;

/* Bank sets (n of them, possibly none) and then peer references. */
void vr_print_text(sbuf *out, const vr_set *sets, size_t n, int all_pass);
void vr_print_json(sbuf *out, const vr_set *sets, size_t n, int all_pass, const vr_peer *peers,
                   size_t n_peers);
void vr_print_csv(sbuf *out, const vr_set *sets, size_t n);

void vp_print_text(sbuf *out, const vr_peer *peers, size_t n);
void vp_json(jw *w, const vr_peer *peers, size_t n);
void vp_print_csv(sbuf *out, const vr_peer *peers, size_t n);

/* Prints the context's error about a set as one line on stderr:
 * "FILE:LINE[:COL]: [column 'NAME': ]message" (FILE: alone when no line). */
void cli_print_validate_error(const gpurf_ctx *ctx);

#endif
