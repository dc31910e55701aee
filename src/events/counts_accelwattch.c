/* AccelWattch power reports, as GPGPU-Sim's
 * gpgpu_sim_wrapper::print_power_kernel_stats writes them: per kernel,
 * "kernel_name = ..." then "gpu_tot_REG_RD, = N" style lines (the label
 * keeps the comma of the simulator's CSV label table). Only the register
 * file counters are read; they count thread operands (32 per warp register
 * access). docs/counters-format.md gives the mapping onto our events. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "events/events_internal.h"

#define WARP_LANES 32.0

enum { RD = 0, WR, NONREG, N_COUNTERS };
static const char *const counter_names[N_COUNTERS] = {"REG_RD", "REG_WR", "NON_REG_OPs"};

/* Events each warp access of a counter is charged to: required component
 * first. A warp register read is a bank read whose word then crosses the
 * crossbar into an operand collector; a write goes from the writeback
 * stage to its bank; an operand that is not a register (immediate,
 * constant) is only placed in a collector. */
typedef struct target {
  const char *component, *event;
} target;
static const target targets[N_COUNTERS][GPURF_COUNTS_MAX_TARGETS] = {
    {{GPURF_RF_BANK, GPURF_EV_READ},
     {GPURF_RF_CROSSBAR, GPURF_EV_TRANSFER},
     {GPURF_RF_COLLECTOR, GPURF_EV_WRITE}},
    {{GPURF_RF_BANK, GPURF_EV_WRITE}, {NULL, NULL}, {NULL, NULL}},
    {{GPURF_RF_COLLECTOR, GPURF_EV_WRITE}, {NULL, NULL}, {NULL, NULL}},
};

typedef struct aw_state {
  double value[N_COUNTERS];
  int seen[N_COUNTERS];
  int form; /* 0 none yet, 1 "gpu_tot_X", 2 bare "X" */
  int averages; /* gpu_avg_X lines seen */
} aw_state;

static char *trim(char *s, char **end) {
  while (*s == ' ' || *s == '\t') s++;
  char *e = s + strlen(s);
  while (e > s && (e[-1] == ' ' || e[-1] == '\t')) e--;
  *e = '\0';
  if (end) *end = e;
  return s;
}

static int parse_value(const char *s, double *out) {
  if (!s[0]) return -1;
  for (const char *c = s; *c; c++)
    if (!(isdigit((unsigned char)*c) || *c == '.' || *c == 'e' || *c == 'E' || *c == '+' ||
          *c == '-'))
      return -1;
  errno = 0;
  char *end;
  double v = strtod(s, &end);
  if (*end || errno == ERANGE || !isfinite(v)) return -1;
  *out = v;
  return 0;
}

#define FAIL_AT(COL, ...) \
  gpurf_fail_at(ctx, GPURF_EPARSE, l->path, (int)l->line_no, (COL), NULL, __VA_ARGS__)

static int line(gpurf_ctx *ctx, const ev_lines *l, char *text, aw_state *st,
                gpurf_counts_info *info) {
  char *eq = strchr(text, '=');
  if (!eq) return GPURF_OK; /* headings and blank lines */
  *eq = '\0';
  char *kend;
  char *key = trim(text, &kend);
  if (kend > key && kend[-1] == ',') *--kend = '\0';
  char *val = trim(eq + 1, NULL);
  int vcol = (int)(val - text) + 1;
  if (strcmp(key, "kernel_name") == 0) {
    info->kernels++;
    return GPURF_OK;
  }
  if (strcmp(key, "gpu_sim_cycle") == 0) {
    uint64_t c;
    if (ev_parse_u64(val, strlen(val), &c) != 0)
      return FAIL_AT(vcol, "gpu_sim_cycle '%s' is not a whole number", val);
    if (info->cycles > UINT64_MAX - c) return FAIL_AT(vcol, "cycles overflow 64 bits");
    info->cycles += c;
    info->has_cycles = 1;
    return GPURF_OK;
  }
  int form = 2;
  const char *name = key;
  if (strncmp(key, "gpu_tot_", 8) == 0) {
    form = 1;
    name = key + 8;
  }
  int k = 0;
  while (k < N_COUNTERS && strcmp(name, counter_names[k]) != 0) k++;
  /* gpu_avg_, gpu_max_, gpu_min_ are per-sample statistics, not totals;
   * every other counter is not the register file's. */
  if (k == N_COUNTERS) {
    if (strncmp(key, "gpu_avg_REG_", 12) == 0 || strncmp(key, "gpu_avg_NON_REG", 15) == 0)
      st->averages = 1;
    return GPURF_OK;
  }
  if (st->form && st->form != form)
    return FAIL_AT(1, "'%s' mixes the bare form with gpu_tot_ lines; give one of them", key);
  st->form = form;
  double v;
  if (parse_value(val, &v) != 0 || v < 0.0)
    return FAIL_AT(vcol, "%s value '%s' is not a finite number >= 0", counter_names[k], val);
  st->value[k] += v;
  st->seen[k] = 1;
  return GPURF_OK;
}

/* Spreads n warp accesses evenly over the instances (GPGPU-Sim interleaves
 * registers over banks by register and warp number), the remainder going
 * to the lowest instances. */
static void spread(gpurf_energy *e, int c, int v, uint64_t n) {
  const gpurf_rf_component *k = &e->table.components[c];
  ev_slot s = e->slot[e->first_id[c] + (uint32_t)v];
  uint64_t each = n / (uint64_t)k->instances, rest = n % (uint64_t)k->instances;
  for (uint32_t i = 0; i < s.instances; i++) e->counts[s.base + i] += each + (i < rest ? 1 : 0);
}

static int find(const gpurf_energy *e, const target *t, int *c, int *v) {
  *c = gpurf_rf_table_find(&e->table, t->component);
  *v = *c < 0 ? -1 : gpurf_rf_table_find_event(&e->table, *c, t->event);
  return *v >= 0;
}

static int apply(gpurf_ctx *ctx, const ev_lines *l, gpurf_energy *e, const aw_state *st,
                 gpurf_counts_info *info) {
  for (int k = 0; k < N_COUNTERS; k++) {
    gpurf_counter_mapping *m = &info->mappings[info->n_mappings++];
    gpurf_strlcpy(m->counter, counter_names[k], sizeof m->counter);
    m->thread_operands = st->value[k];
    double warps = floor(st->value[k] / WARP_LANES + 0.5); /* halves up */
    if (!(warps < 1.8e19))
      return gpurf_fail_at(ctx, GPURF_ERANGE, l->path, 0, 0, NULL,
                           "%s = %g is beyond 64-bit counts", counter_names[k], st->value[k]);
    m->warp_accesses = (uint64_t)warps;
    for (int t = 0; t < GPURF_COUNTS_MAX_TARGETS && targets[k][t].component; t++) {
      int c, v;
      if (!find(e, &targets[k][t], &c, &v)) continue;
      spread(e, c, v, m->warp_accesses);
      snprintf(m->targets[m->n_targets++], GPURF_COUNTS_TARGET_MAX, "%s.%s",
               targets[k][t].component, targets[k][t].event);
    }
  }
  return GPURF_OK;
}

int ev_read_accelwattch(gpurf_ctx *ctx, ev_lines *l, gpurf_energy *e, gpurf_counts_info *info) {
  int c, v;
  if (!find(e, &targets[RD][0], &c, &v) || !find(e, &targets[WR][0], &c, &v))
    return gpurf_fail(ctx, GPURF_EINVAL,
                      "AccelWattch counters are charged to a component named 'bank' with events "
                      "'read' and 'write'; table '%s' has none",
                      e->table.design);
  aw_state st;
  memset(&st, 0, sizeof st);
  char *text;
  int rc;
  while ((rc = ev_lines_next(ctx, l, &text)) == 1)
    if ((rc = line(ctx, l, text, &st, info)) != GPURF_OK) return rc;
  if (rc < 0) return rc;
  if (!st.seen[RD] && !st.seen[WR] && !st.seen[NONREG] && st.averages)
    return gpurf_fail_at(ctx, GPURF_EPARSE, l->path, 0, 0, NULL,
                         "only gpu_avg_ register-file counters (per-sample averages, as GPUWattch "
                         "prints); the totals are AccelWattch's gpu_tot_ lines");
  if (!st.seen[RD] && !st.seen[WR] && !st.seen[NONREG])
    return gpurf_fail_at(ctx, GPURF_EPARSE, l->path, 0, 0, NULL,
                         "no 'gpurf-counters' header and no REG_RD, REG_WR or NON_REG_OPs "
                         "counter: neither a gpurf counters file nor an AccelWattch report");
  return apply(ctx, l, e, &st, info);
}
