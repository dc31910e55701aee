/* The band of reference classes beside a bank's figures (gpurf/bank.h):
 * gpurf's own CACTI-class model, an NVSim-class variant of the same bank,
 * and (SRAM only) a memory-compiler class scaled from one published compiled
 * bank. */
#include <math.h>
#include <string.h>

#include "circuit/constants.h"
#include "core/ctx_internal.h"
#include "gpurf/bank.h"
#include "gpurf/cell.h"
#include "gpurf/tech.h"

static const char *const metric_names[GPURF_BANK_METRIC_COUNT] = {
    "access_time", "cycle_time", "write_latency", "read_energy",
    "write_energy", "area",      "leakage"};
static const char *const class_names[GPURF_BANK_REF_COUNT] = {"cacti", "nvsim", "compiler"};

const char *gpurf_bank_metric_name(gpurf_bank_metric m) {
  return (unsigned)m < GPURF_BANK_METRIC_COUNT ? metric_names[m] : "?";
}

const char *gpurf_bank_ref_class_name(gpurf_bank_ref_class c) {
  return (unsigned)c < GPURF_BANK_REF_COUNT ? class_names[c] : "?";
}

static void metrics_of(const gpurf_bank_cost *c, double v[GPURF_BANK_METRIC_COUNT]) {
  v[GPURF_BANK_METRIC_ACCESS_TIME] = c->access_time_s;
  v[GPURF_BANK_METRIC_CYCLE_TIME] = c->cycle_time_s;
  v[GPURF_BANK_METRIC_WRITE_LATENCY] = c->write_latency_s;
  v[GPURF_BANK_METRIC_READ_ENERGY] = c->read_energy_j;
  v[GPURF_BANK_METRIC_WRITE_ENERGY] = c->write_energy_j;
  v[GPURF_BANK_METRIC_AREA] = c->area_m2;
  v[GPURF_BANK_METRIC_LEAKAGE] = c->leakage_sub_w + c->leakage_gate_w;
}

/* NVSim leaves out the write drivers and the output drivers, and within one
 * mat (at most 2 x 2 sub-arrays) it charges nothing for the data path; its
 * periphery uses minimum-length devices. The bank's routing part is its data
 * path: a read pays its delay (address in, data out), a write about half
 * (the slower of address and data in). */
static int nvsim_class(gpurf_ctx *ctx, const gpurf_bank_spec *spec, double v[GPURF_BANK_METRIC_COUNT],
                       double *interbank_leak_w, double *interbank_path_leak_w) {
  gpurf_bank_spec s = *spec;
  s.long_channel_periphery = 0;
  gpurf_bank_cost c;
  int rc = gpurf_bank_eval(ctx, &s, &c);
  if (rc != GPURF_OK) return rc;
  int omit[GPURF_BANK_PART_COUNT] = {0};
  omit[GPURF_BANK_PART_WRITE_DRIVER] = 1;
  omit[GPURF_BANK_PART_OUTPUT_DRIVER] = 1;
  int one_mat = c.org.ndwl * c.org.ndbl <= 4;
  omit[GPURF_BANK_PART_ROUTING] = one_mat;
  for (int p = 0; p < GPURF_BANK_PART_COUNT; p++) {
    if (!omit[p]) continue;
    c.read_energy_j -= c.read_part_j[p];
    c.write_energy_j -= c.write_part_j[p];
    c.area_m2 -= c.area_part_m2[p];
    c.leakage_sub_w -= c.leakage_part_w[p];
    c.access_time_s -= c.delay_part_s[p];
  }
  if (one_mat) c.write_latency_s -= 0.5 * c.delay_part_s[GPURF_BANK_PART_ROUTING];
  metrics_of(&c, v);
  *interbank_leak_w = c.leakage_part_w[GPURF_BANK_PART_INTERBANK] + c.interbank_leakage_gate_w;
  *interbank_path_leak_w = c.interbank_path_leakage_sub_w + c.interbank_path_leakage_gate_w;
  return GPURF_OK;
}

/* The compiler class: ours times published / ours on the seed bank, for the
 * figures the compiler publishes; the seed is evaluated at the spec's
 * temperature and device with the 1R1W cell, as the compiled bank is. The
 * compiled bank is SRAM: an STT-RAM bank has no compiler class. */
static int compiler_class(gpurf_ctx *ctx, const gpurf_bank_spec *spec,
                          const double ours[GPURF_BANK_METRIC_COUNT],
                          double v[GPURF_BANK_METRIC_COUNT]) {
  for (int m = 0; m < GPURF_BANK_METRIC_COUNT; m++) v[m] = NAN;
  if (spec->cell->kind != GPURF_CELL_SRAM) return GPURF_OK;
  gpurf_tech *tech = NULL;
  int rc = gpurf_tech_alloc(ctx, &tech);
  if (rc != GPURF_OK) return rc;
  if ((rc = gpurf_tech_load(ctx, GC_COMPILER_SEED_NODE, tech)) != GPURF_OK) {
    gpurf_tech_free(tech);
    return rc;
  }
  gpurf_cell cell;
  if ((rc = gpurf_cell_load(ctx, "sram-8t-1r1w", &cell)) != GPURF_OK) {
    gpurf_tech_free(tech);
    return rc;
  }
  gpurf_bank_spec s;
  gpurf_bank_spec_init(&s);
  s.tech = tech;
  s.cell = &cell;
  s.device = spec->device;
  s.temp_k = spec->temp_k;
  s.ports = (gpurf_ports){0, 1, 1};
  s.width_bits = GC_COMPILER_SEED_WIDTH_BITS;
  s.entries = GC_COMPILER_SEED_BYTES * 8 / GC_COMPILER_SEED_WIDTH_BITS;
  gpurf_bank_cost seed;
  rc = gpurf_bank_eval(ctx, &s, &seed);
  gpurf_tech_free(tech);
  if (rc != GPURF_OK) return rc;
  v[GPURF_BANK_METRIC_READ_ENERGY] =
      ours[GPURF_BANK_METRIC_READ_ENERGY] * GC_COMPILER_SEED_READ_J / seed.read_energy_j;
  v[GPURF_BANK_METRIC_WRITE_ENERGY] =
      ours[GPURF_BANK_METRIC_WRITE_ENERGY] * GC_COMPILER_SEED_WRITE_J / seed.write_energy_j;
  v[GPURF_BANK_METRIC_AREA] = ours[GPURF_BANK_METRIC_AREA] * GC_COMPILER_SEED_AREA_M2 / seed.area_m2;
  return GPURF_OK;
}

int gpurf_bank_band_eval(gpurf_ctx *ctx, const gpurf_bank_spec *spec, const gpurf_bank_cost *ours,
                         gpurf_bank_band *band) {
  if (!spec || !ours || !band || !spec->cell)
    return gpurf_fail(ctx, GPURF_EINVAL, "gpurf_bank_band_eval: a spec, its cost and a band are required");
  if (spec->cell->kind != GPURF_CELL_SRAM && spec->cell->kind != GPURF_CELL_STT_MTJ)
    return gpurf_fail(ctx, GPURF_EUNSUPPORTED,
                      "the reference band covers SRAM and STT-RAM banks only (cell '%s' is a "
                      "flip-flop or latch, which neither CACTI nor NVSim models)",
                      spec->cell->name);
  gpurf_bank_band b;
  metrics_of(ours, b.value[GPURF_BANK_REF_CACTI]);
  b.interbank_leakage_w[GPURF_BANK_REF_CACTI] =
      ours->leakage_part_w[GPURF_BANK_PART_INTERBANK] + ours->interbank_leakage_gate_w;
  b.interbank_path_leakage_w[GPURF_BANK_REF_CACTI] =
      ours->interbank_path_leakage_sub_w + ours->interbank_path_leakage_gate_w;
  b.interbank_leakage_w[GPURF_BANK_REF_COMPILER] = NAN;
  b.interbank_path_leakage_w[GPURF_BANK_REF_COMPILER] = NAN;
  int rc = nvsim_class(ctx, spec, b.value[GPURF_BANK_REF_NVSIM],
                       &b.interbank_leakage_w[GPURF_BANK_REF_NVSIM],
                       &b.interbank_path_leakage_w[GPURF_BANK_REF_NVSIM]);
  if (rc == GPURF_OK)
    rc = compiler_class(ctx, spec, b.value[GPURF_BANK_REF_CACTI], b.value[GPURF_BANK_REF_COMPILER]);
  if (rc != GPURF_OK) return rc;
  for (int m = 0; m < GPURF_BANK_METRIC_COUNT; m++) {
    b.low[m] = INFINITY;
    b.high[m] = -INFINITY;
    for (int k = 0; k < GPURF_BANK_REF_COUNT; k++) {
      double x = b.value[k][m];
      if (isnan(x)) continue;
      if (x < b.low[m]) b.low[m] = x;
      if (x > b.high[m]) b.high[m] = x;
    }
  }
  *band = b;
  return GPURF_OK;
}
