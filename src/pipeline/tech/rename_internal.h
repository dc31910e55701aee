/* The physical register pool behind the rename technique (rename.c):
 * per bank a fixed number of warp-wide physical registers in sub-arrays,
 * a free set, and per sub-array occupancy, gating and wake-up time. */
#ifndef GPURF_RENAME_INTERNAL_H
#define GPURF_RENAME_INTERNAL_H

#include <stdint.h>

#include "gpurf/pipeline.h"

typedef struct rn_pool {
  int banks, per_bank, subarrays, sub_size;
  int instances;      /* engine bank instances; instance i belongs to bank i % banks */
  uint8_t *used;      /* [banks * per_bank] */
  int *occ;           /* [banks * subarrays] registers allocated */
  uint8_t *gated;     /* [banks * subarrays] */
  uint64_t *ready_at; /* [banks * subarrays] cycle a waking sub-array can be used */
  int free_in_bank[GPURF_PIPELINE_MAX_BANKS];
  int allocated, peak;
  int gating;
  int defer; /* releases leave emptied sub-arrays powered until rn_pool_settle */
  /* Energy engine and its bank component for gating (-1: not counted). */
  gpurf_energy *energy;
  int bank_comp, energy_subarrays;
  uint64_t wakeups;
} rn_pool;

/* per_bank registers in each of banks banks, in subarrays sub-arrays;
 * with gating every sub-array starts gated. */
int rn_pool_init(rn_pool *pl, int banks, int per_bank, int subarrays, int gating);
void rn_pool_free(rn_pool *pl);
/* Binds the energy engine's bank component to mirror gating (may be NULL). */
void rn_pool_bind(rn_pool *pl, gpurf_pipeline *p, gpurf_energy *e, int bank_comp, int instances);
/* 1 when `need` registers of bank b can be allocated at cycle now; 0 when
 * the bank is short (*full = 1) or sub-arrays must wake first (they are
 * woken here and ready after wake_cycles). */
int rn_pool_can(rn_pool *pl, gpurf_pipeline *p, int b, int need, uint64_t now, int wake_cycles,
                int *full);
/* Allocates one register of bank b (rn_pool_can said yes): its index. */
int rn_pool_alloc(rn_pool *pl, int b, uint64_t now);
/* Frees register r of bank b; gates its sub-array when it empties. */
void rn_pool_release(rn_pool *pl, gpurf_pipeline *p, int b, int r);
/* Gates the powered, empty sub-arrays (after an instruction's releases and
 * allocations, so that a register it frees can serve its own write). */
void rn_pool_settle(rn_pool *pl, gpurf_pipeline *p, uint64_t now);

#endif
