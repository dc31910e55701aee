/* Physical registers of the rename technique: allocation within the bank
 * the architected register maps to, lowest powered sub-array first so
 * that live registers gather in few sub-arrays (Jeon et al. Sec. 8.2),
 * and sub-array gating mirrored into the energy engine. */
#include <stdlib.h>
#include <string.h>

#include "gpurf/events.h"
#include "pipeline/tech/rename_internal.h"

int rn_pool_init(rn_pool *pl, int banks, int per_bank, int subarrays, int gating) {
  memset(pl, 0, sizeof *pl);
  if (banks < 1 || banks > GPURF_PIPELINE_MAX_BANKS || per_bank < 1 || subarrays < 1 ||
      subarrays > per_bank)
    return GPURF_EINVAL;
  pl->banks = banks, pl->per_bank = per_bank, pl->subarrays = subarrays;
  pl->sub_size = (per_bank + subarrays - 1) / subarrays;
  pl->gating = gating;
  pl->bank_comp = -1;
  size_t ns = (size_t)banks * (size_t)subarrays;
  pl->used = calloc((size_t)banks * (size_t)per_bank, 1);
  pl->occ = calloc(ns, sizeof *pl->occ);
  pl->gated = calloc(ns, 1);
  pl->ready_at = calloc(ns, sizeof *pl->ready_at);
  if (!pl->used || !pl->occ || !pl->gated || !pl->ready_at) {
    rn_pool_free(pl);
    return GPURF_ENOMEM;
  }
  for (int b = 0; b < banks; b++) pl->free_in_bank[b] = per_bank;
  if (gating) memset(pl->gated, 1, ns);
  return GPURF_OK;
}

void rn_pool_free(rn_pool *pl) {
  free(pl->used);
  free(pl->occ);
  free(pl->gated);
  free(pl->ready_at);
  memset(pl, 0, sizeof *pl);
}

/* Mirrors a change of our sub-array s of bank b into the engine, in every
 * engine instance of the bank (the sub-banks that hold its lanes). With n
 * engine sub-arrays per instance and S of ours (one divides the other),
 * ours covers n / S of the engine's, or shares one with S / n - 1 others,
 * which is gated only when all of them are. */
static void engine_gate(rn_pool *pl, gpurf_pipeline *p, int b, int s, int gated) {
  int n = pl->energy_subarrays, S = pl->subarrays;
  if (!pl->energy || pl->bank_comp < 0 || n < 1) return;
  gpurf_pipeline_energy_sync(p);
  for (int inst = b; inst < pl->instances; inst += pl->banks) {
    if (n >= S) {
      for (int k = s * (n / S); k < (s + 1) * (n / S); k++)
        gpurf_energy_gate(pl->energy, pl->bank_comp, inst, k, gated);
      continue;
    }
    int per = S / n, k = s / per, all = 1;
    if (gated)
      for (int j = k * per; j < (k + 1) * per; j++) all &= pl->gated[b * S + j];
    if (all) gpurf_energy_gate(pl->energy, pl->bank_comp, inst, k, gated);
  }
}

void rn_pool_bind(rn_pool *pl, gpurf_pipeline *p, gpurf_energy *e, int bank_comp, int instances) {
  pl->energy = e;
  pl->instances = instances;
  pl->bank_comp = bank_comp;
  pl->energy_subarrays = 0;
  if (!e || bank_comp < 0) return;
  /* Sub-arrays per instance, read off the engine by probing: gating an
   * index past the last is refused. */
  int n = 0;
  while (n < 4096 && gpurf_energy_gate(e, bank_comp, 0, n, 0) == GPURF_OK) n++;
  /* Mirrored only when one count divides the other. */
  pl->energy_subarrays = n && (n % pl->subarrays == 0 || pl->subarrays % n == 0) ? n : 0;
  if (pl->gating)
    for (int b = 0; b < pl->banks; b++)
      for (int s = 0; s < pl->subarrays; s++) engine_gate(pl, p, b, s, 1);
}

int rn_pool_can(rn_pool *pl, gpurf_pipeline *p, int b, int need, uint64_t now, int wake_cycles,
                int *full) {
  *full = 0;
  if (need <= 0) return 1;
  if (pl->free_in_bank[b] < need) {
    *full = 1;
    return 0;
  }
  if (!pl->gating) return 1;
  /* Free registers in powered sub-arrays first; wake gated ones, lowest
   * first, for the rest. */
  int ok = 1;
  for (int s = 0; s < pl->subarrays && need > 0; s++) {
    int i = b * pl->subarrays + s;
    int lo = s * pl->sub_size,
        hi = lo + pl->sub_size > pl->per_bank ? pl->per_bank : lo + pl->sub_size;
    int freeh = (hi - lo) - pl->occ[i];
    if (freeh <= 0) continue;
    if (pl->gated[i]) {
      pl->gated[i] = 0;
      pl->ready_at[i] = now + (uint64_t)wake_cycles;
      pl->wakeups++;
      engine_gate(pl, p, b, s, 0);
    }
    if (pl->ready_at[i] > now) ok = 0;
    need -= freeh;
  }
  return ok;
}

int rn_pool_alloc(rn_pool *pl, int b, uint64_t now) {
  for (int s = 0; s < pl->subarrays; s++) {
    int i = b * pl->subarrays + s;
    if (pl->gating && (pl->gated[i] || pl->ready_at[i] > now)) continue;
    int lo = s * pl->sub_size,
        hi = lo + pl->sub_size > pl->per_bank ? pl->per_bank : lo + pl->sub_size;
    for (int r = lo; r < hi; r++)
      if (!pl->used[(size_t)b * (size_t)pl->per_bank + (size_t)r]) {
        pl->used[(size_t)b * (size_t)pl->per_bank + (size_t)r] = 1;
        pl->occ[i]++;
        pl->free_in_bank[b]--;
        if (++pl->allocated > pl->peak) pl->peak = pl->allocated;
        return r;
      }
  }
  return -1;
}

void rn_pool_release(rn_pool *pl, gpurf_pipeline *p, int b, int r) {
  size_t k = (size_t)b * (size_t)pl->per_bank + (size_t)r;
  if (!pl->used[k]) return;
  pl->used[k] = 0;
  pl->free_in_bank[b]++;
  pl->allocated--;
  int s = r / pl->sub_size, i = b * pl->subarrays + s;
  if (--pl->occ[i] == 0 && pl->gating && !pl->gated[i] && !pl->defer) {
    pl->gated[i] = 1;
    engine_gate(pl, p, b, s, 1);
  }
}

void rn_pool_settle(rn_pool *pl, gpurf_pipeline *p, uint64_t now) {
  if (!pl->gating) return;
  for (int b = 0; b < pl->banks; b++)
    for (int s = 0; s < pl->subarrays; s++) {
      int i = b * pl->subarrays + s;
      if (pl->occ[i] == 0 && !pl->gated[i] && pl->ready_at[i] <= now) {
        pl->gated[i] = 1;
        engine_gate(pl, p, b, s, 1);
      }
    }
}
