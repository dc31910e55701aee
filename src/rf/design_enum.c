/* Names of the enumerations a design file spells as words: the loader and
 * gpurf_rf_design_set resolve them once, the CLI prints them back. */
#include <string.h>

#include "gpurf/rf.h"

static const char *const place_names[GPURF_RF_PORT_PLACE_COUNT] = {"point", "edge"};
static const char *const policy_names[GPURF_RF_POLICY_COUNT] = {"", "lrr", "gto", "two_level"};
static const char *const extra_names[GPURF_RF_EXTRA_KIND_COUNT] = {"rename_table", "write_pool",
                                                                  "compressed_rf", "rfc_tags"};

/* Index of name in names[first..n), or -1; NULL and "" never match. */
static int lookup(const char *const *names, int first, int n, const char *name) {
  if (!name || !name[0]) return -1;
  for (int i = first; i < n; i++)
    if (strcmp(names[i], name) == 0) return i;
  return -1;
}

int gpurf_rf_port_place_parse(const char *name, gpurf_rf_port_place *out) {
  int i = lookup(place_names, 0, GPURF_RF_PORT_PLACE_COUNT, name);
  if (i < 0 || !out) return GPURF_EINVAL;
  *out = (gpurf_rf_port_place)i;
  return GPURF_OK;
}

const char *gpurf_rf_port_place_name(gpurf_rf_port_place place) {
  return (unsigned)place < GPURF_RF_PORT_PLACE_COUNT ? place_names[place] : "?";
}

int gpurf_rf_policy_parse(const char *name, gpurf_rf_policy *out) {
  int i = lookup(policy_names, 1, GPURF_RF_POLICY_COUNT, name);
  if (i < 0 || !out) return GPURF_EINVAL;
  *out = (gpurf_rf_policy)i;
  return GPURF_OK;
}

const char *gpurf_rf_policy_name(gpurf_rf_policy policy) {
  return (unsigned)policy < GPURF_RF_POLICY_COUNT ? policy_names[policy] : "?";
}

int gpurf_rf_extra_kind_parse(const char *name, gpurf_rf_extra_kind *out) {
  int i = lookup(extra_names, 0, GPURF_RF_EXTRA_KIND_COUNT, name);
  if (i < 0 || !out) return GPURF_EINVAL;
  *out = (gpurf_rf_extra_kind)i;
  return GPURF_OK;
}

const char *gpurf_rf_extra_kind_name(gpurf_rf_extra_kind kind) {
  return (unsigned)kind < GPURF_RF_EXTRA_KIND_COUNT ? extra_names[kind] : "?";
}
