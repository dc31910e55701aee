/* Energy of a register-file hierarchy: a main register file (MRF), an L1
 * register-file cache or operand register file, and an L0 of one entry
 * per thread (Gebhart et al., ACM TOCS 2012, Sec. 6.3). One access of a
 * level costs its array access per 128-bit entry (four 32-bit lanes) plus
 * the wire energy of moving each lane's 32-bit word over the level's
 * distance to the execution units.
 *
 * Two parameter sets: the paper's Table V (MRF 8/11 pJ, L0 0.7/2 pJ per
 * 128-bit access, wire 1.9 pJ/mm per 32-bit word, MRF 1 mm, L1 0.2 mm
 * private / 0.4 mm shared, L0 0.05 mm), whose L1 and tag energies (Table
 * IV, withheld) come from our models; and our own primitive models for
 * every array and the node's wires. */
#ifndef GPURF_RFHIER_H
#define GPURF_RFHIER_H

#include "gpurf/context.h"
#include "gpurf/export.h"
#include "gpurf/rf.h"
#include "gpurf/tech.h"

GPURF_BEGIN_DECLS

typedef enum gpurf_rfhier_level {
  GPURF_RFHIER_MRF = 0,
  GPURF_RFHIER_L1 = 1,
  GPURF_RFHIER_L0 = 2,
  GPURF_RFHIER_LEVELS = 3
} gpurf_rfhier_level;

typedef struct gpurf_rfhier_energy {
  double read_j[GPURF_RFHIER_LEVELS];  /* one 128-bit entry */
  double write_j[GPURF_RFHIER_LEVELS];
  double wire_j_per_m;                 /* one 32-bit word over one metre */
  double private_m[GPURF_RFHIER_LEVELS]; /* to the ALUs (private datapath) */
  double shared_m[GPURF_RFHIER_LEVELS];  /* to the SFU, MEM and TEX units */
  double tag_check_j, tag_update_j;    /* RFC tags, per warp access */
  int lanes;                           /* threads of a warp access (32) */
} gpurf_rfhier_energy;

/* Our models: array energies from the tables' components (read/write
 * events; NULL leaves a level at zero), tags from an rfc_tags component
 * (check/update), wire energy a quarter of C Vdd^2 per bit (half the bits
 * toggle, each costing half of C Vdd^2) with the node's semi-global wire
 * capacitance and the device's Vdd; the paper's distances. */
GPURF_API int gpurf_rfhier_energy_models(gpurf_ctx *ctx, const gpurf_rf_component *mrf,
                                         const gpurf_rf_component *l1,
                                         const gpurf_rf_component *l0,
                                         const gpurf_rf_component *tags, const gpurf_tech *tech,
                                         gpurf_device_kind device, gpurf_rfhier_energy *out);

/* The paper's Table V over `models`: MRF, L0, wire and distances replaced,
 * L1 and tags kept. */
GPURF_API void gpurf_rfhier_energy_paper(const gpurf_rfhier_energy *models,
                                         gpurf_rfhier_energy *out);

/* Energy of one warp access of a level: lanes/4 array accesses plus lanes
 * words over the level's distance (shared: to the shared units). */
GPURF_API double gpurf_rfhier_access_j(const gpurf_rfhier_energy *e, gpurf_rfhier_level level,
                                       int is_write, int shared);

GPURF_END_DECLS

#endif
