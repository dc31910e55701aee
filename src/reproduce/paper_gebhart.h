/* Gebhart et al.: what the reproduction's claims share between its files:
 * the hierarchy's energy parameters and a job's register-file energy from
 * its access counts. */
#ifndef GPURF_PAPER_GEBHART_H
#define GPURF_PAPER_GEBHART_H

#include "gpurf/orf.h"
#include "gpurf/rfhier.h"
#include "reproduce/repro_internal.h"

/* Accesses of each level (warp accesses) and RFC tag events. */
typedef struct gebhart_counts {
  double reads[GPURF_RFHIER_LEVELS], writes[GPURF_RFHIER_LEVELS];
  double tag_checks, tag_updates;
} gebhart_counts;

/* Energies with an L1 of l1_entries per thread for the 8 active warps:
 * our models, and Table V over them. */
int gebhart_energies(repro_env *env, int l1_entries, gpurf_rfhier_energy *models,
                     gpurf_rfhier_energy *paper);

/* A finished pipeline job's accesses: its bank reads and writes are the
 * MRF's; the rfc technique's counters (when present) give the cache's,
 * a write-back reading the level it leaves. */
void gebhart_counts_of(const repro_job *j, gebhart_counts *out);

/* Register-file energy of the counts: every access from the private
 * datapath's distances. */
double gebhart_energy_j(const gpurf_rfhier_energy *e, const gebhart_counts *c);

/* Accesses of the software ORF with each of up to GEBHART_ORF_MAX_VARIANTS
 * pass settings on one workload, and of the MRF alone. */
#define GEBHART_ORF_MAX_VARIANTS 24
typedef struct gebhart_orf_result {
  gebhart_counts c[GEBHART_ORF_MAX_VARIANTS];
  gebhart_counts mrf_only;
  double static_insts, strands; /* over the workload's kernels */
  /* Value usage of the trace (gpurf trace stats): shares of the values */
  double once_within3;     /* read once, within 3 instructions of their write */
  double more_than_twice;  /* read more than twice */
  double long_latency;     /* share of instructions with a long latency */
  double warps;            /* warps over the trace */
} gebhart_orf_result;

/* "W: x% of values read once within 3 instructions, ..." */
void gebhart_describe(const char *workload, const gebhart_orf_result *r, char *out, size_t n);

int gebhart_orf_counts(repro_env *env, int workload, const gpurf_orf_params *v, int nv,
                       gebhart_orf_result *out);

#endif
