/* A design reaches gpurf_rf_design_table from the loader, from
 * gpurf_rf_design_set or straight from a caller who filled the struct in.
 * The first two check as they go; this check is for the third, so a value
 * out of range is refused by name instead of indexing a table with it. */
#include <stdarg.h>
#include <stdio.h>

#include "core/ctx_internal.h"
#include "rf/rf_internal.h"

/* Fails with the key "prefix[index].name" (or "prefix.name", "name"). */
static int refuse(gpurf_ctx *ctx, const char *prefix, long index, const char *name,
                  const char *fmt, ...) {
  char key[GPURF_ERROR_FIELD_MAX], msg[GPURF_ERROR_MESSAGE_MAX];
  if (!prefix)
    snprintf(key, sizeof key, "%s", name);
  else if (index < 0)
    snprintf(key, sizeof key, "%s.%s", prefix, name);
  else
    snprintf(key, sizeof key, "%s[%ld].%s", prefix, index, name);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, key, "%s", msg);
}

/* An enumeration value as the int it is stored as, checked against its count. */
#define OUT_OF(V, COUNT) ((unsigned)(V) >= (unsigned)(COUNT))

static int check_bank(gpurf_ctx *ctx, const gpurf_rf_design *d, size_t i) {
  const gpurf_rf_bank_group *g = &d->bank_groups[i];
  long n = (long)i;
  if (!g->name[0]) return refuse(ctx, "banks", n, "name", "is empty");
  if (!g->cell[0]) return refuse(ctx, "banks", n, "cell", "is empty");
  const gpurf_ports *p = &g->ports;
  if (p->rw < 0 || p->read < 0 || p->write < 0 || p->rw + p->read + p->write < 1)
    return refuse(ctx, "banks", n, "ports", "%drw %dr %dw is not a port mix (1rw, 1r1w, 3r1w ...)",
                  p->rw, p->read, p->write);
  if (g->count < 1 || g->count > 1024)
    return refuse(ctx, "banks", n, "count", "%d is outside [1, 1024]", g->count);
  if (g->entries < 1 || g->entries > 1000000000LL)
    return refuse(ctx, "banks", n, "entries", "%lld is outside [1, 1e9]", g->entries);
  if (g->width_bits < 1 || g->width_bits > 65536)
    return refuse(ctx, "banks", n, "width_bits", "%d is outside [1, 65536]", g->width_bits);
  if (OUT_OF(g->opt, GPURF_BANK_OPT_COUNT))
    return refuse(ctx, "banks", n, "opt", "%d is not an objective (ed2, edp, delay, energy, "
                  "area, leakage or ed2-read)", (int)g->opt);
  if (g->split_write != 0 && g->split_write != 1)
    return refuse(ctx, "banks", n, "split_write", "%d is not 0 or 1", g->split_write);
  if (OUT_OF(g->port, GPURF_RF_PORT_PLACE_COUNT))
    return refuse(ctx, "banks", n, "port", "%d is not a port place (point or edge)", (int)g->port);
  int gg = g->gate_groups;
  if (gg < 0 || gg > 64 || (gg & (gg - 1)))
    return refuse(ctx, "banks", n, "gate_groups", "%d is not 0 or a power of two up to 64", gg);
  return GPURF_OK;
}

static int check_extra(gpurf_ctx *ctx, const gpurf_rf_design *d, size_t i) {
  const gpurf_rf_extra *x = &d->extras[i];
  long n = (long)i;
  if (OUT_OF(x->kind, GPURF_RF_EXTRA_KIND_COUNT))
    return refuse(ctx, "extras", n, "kind", "%d is not an extra kind (rename_table, write_pool, "
                  "compressed_rf or rfc_tags)", (int)x->kind);
  if (!x->name[0]) return refuse(ctx, "extras", n, "name", "is empty");
  if (x->entries < 0 || x->vrf_regs < 0 || x->arch_regs < 0 || x->active_warps < 0 ||
      x->budget_bytes < 0)
    return refuse(ctx, "extras", n, "entries", "sizes must not be negative");
  return GPURF_OK;
}

int rf_design_check(gpurf_ctx *ctx, const gpurf_rf_design *d) {
  if (!d->tech[0]) return refuse(ctx, NULL, -1, "tech", "is empty");
  if (OUT_OF(d->device, GPURF_DEVICE_COUNT))
    return refuse(ctx, NULL, -1, "device", "%d is not a device kind (hp, lstp or lop)",
                  (int)d->device);
  if (!(d->temp_k > 0.0 && d->temp_k <= 1000.0))
    return refuse(ctx, NULL, -1, "temp_k", "%g is outside (0, 1000]", d->temp_k);
  if (!(d->clock_hz > 0.0 && d->clock_hz <= 1e11))
    return refuse(ctx, NULL, -1, "clock_hz", "%g is outside (0, 1e11]", d->clock_hz);
  if (d->sm.warps < 1 || d->sm.threads_per_warp < 1 || d->sm.registers < 1)
    return refuse(ctx, "sm", -1, "warps", "warps, threads_per_warp and registers must be positive");
  if (OUT_OF(d->sm.policy, GPURF_RF_POLICY_COUNT))
    return refuse(ctx, "sm", -1, "policy", "%d is not a policy (lrr, gto, two_level or the "
                  "default)", (int)d->sm.policy);
  if (d->n_bank_groups > GPURF_RF_MAX_BANK_GROUPS)
    return refuse(ctx, NULL, -1, "banks", "%zu bank groups, more than %d", d->n_bank_groups,
                  GPURF_RF_MAX_BANK_GROUPS);
  if (d->n_extras > GPURF_RF_MAX_EXTRAS)
    return refuse(ctx, NULL, -1, "extras", "%zu extra structures, more than %d", d->n_extras,
                  GPURF_RF_MAX_EXTRAS);
  if (d->n_bank_groups == 0 && d->n_extras == 0)
    return refuse(ctx, NULL, -1, "banks", "a design needs storage: bank groups or a "
                  "compressed_rf extra");
  int rc;
  for (size_t i = 0; i < d->n_bank_groups; i++)
    if ((rc = check_bank(ctx, d, i)) != GPURF_OK) return rc;
  for (size_t i = 0; i < d->n_extras; i++)
    if ((rc = check_extra(ctx, d, i)) != GPURF_OK) return rc;
  if (d->has_crossbar) {
    if (OUT_OF(d->crossbar.style, GPURF_XBAR_STYLE_COUNT))
      return refuse(ctx, "crossbar", -1, "style", "%d is not a crossbar style (matrix or mux)",
                    (int)d->crossbar.style);
    if (OUT_OF(d->crossbar.wire, GPURF_WIRE_COUNT))
      return refuse(ctx, "crossbar", -1, "wire", "%d is not a wire kind (local, semi-global or "
                    "global)", (int)d->crossbar.wire);
    /* The crossbar model checks the upper bound. */
    if (!(d->crossbar.activity >= 0.0))
      return refuse(ctx, "crossbar", -1, "activity", "%g is negative (0: the model's default)",
                    d->crossbar.activity);
  }
  return GPURF_OK;
}
