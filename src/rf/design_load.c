/* Design files (models/NAME.yaml): schema, cross-checks and name lookup. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpurf/bank.h"
#include "gpurf/cell.h"
#include "gpurf/rf.h"
#include "gpurf/tech.h"
#include "yaml/yaml_schema.h"

#define REQ YS_REQUIRED
#define POS (YS_REQUIRED | YS_MIN_EXCLUSIVE)

/* entries and registers are whole numbers larger than an int: they are read
 * as doubles into a scratch struct and checked, then copied. Words that name
 * an enumeration are read as text beside the design and resolved once they
 * are checked, so an error can still point at the word in the file. */
typedef struct scratch_bank {
  gpurf_rf_bank_group g;
  double entries;
  char ports[16];
  char opt[16];
  char port[8];
} scratch_bank;

typedef struct scratch_extra {
  gpurf_rf_extra x;
  double budget_bytes;
  char kind[32];
} scratch_extra;

typedef struct scratch {
  gpurf_rf_design d;
  char device[8];
  char policy[16];
  char style[16];
  char wire[16];
  size_t n_extras;
  scratch_extra extras[GPURF_RF_MAX_EXTRAS];
  double registers;
  size_t n_banks;
  scratch_bank banks[GPURF_RF_MAX_BANK_GROUPS];
} scratch;

static const ys_field scratch_bank_fields[] = {
    {"name", YS_STRING, REQ, offsetof(scratch_bank, g.name), sizeof(((gpurf_rf_bank_group *)0)->name), 0, 0, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"cell", YS_STRING, REQ, offsetof(scratch_bank, g.cell), sizeof(((gpurf_rf_bank_group *)0)->cell), 0, 0, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"ports", YS_STRING, REQ, offsetof(scratch_bank, ports), sizeof(((scratch_bank *)0)->ports), 0, 0, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"count", YS_INT, REQ, offsetof(scratch_bank, g.count), 0, 1, 1024, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"entries", YS_DOUBLE, REQ, offsetof(scratch_bank, entries), 0, 1, 1e9, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"width_bits", YS_INT, REQ, offsetof(scratch_bank, g.width_bits), 0, 1, 65536, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"opt", YS_STRING, 0, offsetof(scratch_bank, opt), sizeof(((scratch_bank *)0)->opt), 0, 0, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"split_write", YS_INT, 0, offsetof(scratch_bank, g.split_write), 0, 0, 1, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"port", YS_STRING, 0, offsetof(scratch_bank, port), sizeof(((scratch_bank *)0)->port), 0, 0, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"gate_groups", YS_INT, 0, offsetof(scratch_bank, g.gate_groups), 0, 0, 64, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    YS_TABLE_END};

static const ys_field scratch_sm_fields[] = {
    {"warps", YS_INT, REQ, offsetof(scratch, d.sm.warps), 0, 1, 1024, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"threads_per_warp", YS_INT, REQ, offsetof(scratch, d.sm.threads_per_warp), 0, 1, 1024, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"registers", YS_DOUBLE, REQ, offsetof(scratch, registers), 0, 1, 1e9, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"schedulers", YS_INT, 0, offsetof(scratch, d.sm.schedulers), 0, 1, 8, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"policy", YS_STRING, 0, offsetof(scratch, policy), 16, 0, 0, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"collectors_sp", YS_INT, 0, offsetof(scratch, d.sm.collectors_sp), 0, 1, 32, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"collectors_sfu", YS_INT, 0, offsetof(scratch, d.sm.collectors_sfu), 0, 1, 32, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"collectors_mem", YS_INT, 0, offsetof(scratch, d.sm.collectors_mem), 0, 1, 32, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"core", YS_STRING, 0, offsetof(scratch, d.sm.core), 16, 0, 0, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    YS_TABLE_END};

#define DF(KEY, KIND, FLAGS, MEMBER, LO, HI) \
  {KEY, KIND, FLAGS, offsetof(scratch, MEMBER), 0, LO, HI, NULL, NULL, 0, 0, 0, YS_NO_FLAG}

static const ys_field crossbar_fields[] = {
    DF("inputs", YS_INT, REQ, d.crossbar.inputs, 1, 1024),
    DF("outputs", YS_INT, REQ, d.crossbar.outputs, 1, 1024),
    DF("width_bits", YS_INT, REQ, d.crossbar.width_bits, 1, 65536),
    {"style", YS_STRING, 0, offsetof(scratch, style), 16, 0, 0, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    DF("activity", YS_DOUBLE, YS_MIN_EXCLUSIVE, d.crossbar.activity, 0, 2),
    {"wire", YS_STRING, 0, offsetof(scratch, wire), 16, 0, 0, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    YS_TABLE_END};

static const ys_field arbiter_fields[] = {
    DF("banks", YS_INT, REQ, d.arbiter.banks, 1, 1024),
    DF("requesters", YS_INT, REQ, d.arbiter.requesters, 1, 1024),
    DF("classes", YS_INT, REQ, d.arbiter.classes, 2, 5),
    YS_TABLE_END};

#define XF(KEY, KIND, FLAGS, MEMBER, LO, HI) \
  {KEY, KIND, FLAGS, offsetof(scratch_extra, MEMBER), 0, LO, HI, NULL, NULL, 0, 0, 0, YS_NO_FLAG}

static const ys_field extra_fields[] = {
    {"kind", YS_STRING, REQ, offsetof(scratch_extra, kind), 32, 0, 0, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"name", YS_STRING, REQ, offsetof(scratch_extra, x.name), GPURF_RF_NAME_MAX, 0, 0, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    XF("entries", YS_INT, 0, x.entries, 1, 1 << 20),
    XF("budget_bytes", YS_DOUBLE, 0, budget_bytes, 1, 1e12),
    XF("vrf_regs", YS_INT, 0, x.vrf_regs, 1, 1 << 20),
    XF("arch_regs", YS_INT, 0, x.arch_regs, 1, 1024),
    XF("active_warps", YS_INT, 0, x.active_warps, 1, 1024),
    YS_TABLE_END};

static const ys_field design_fields[] = {
    {"design", YS_STRING, REQ, offsetof(scratch, d.design), GPURF_RF_NAME_MAX, 0, 0, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"source", YS_STRING, REQ, offsetof(scratch, d.source), GPURF_RF_TEXT_MAX, 0, 0, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"tech", YS_STRING, REQ, offsetof(scratch, d.tech), GPURF_RF_PATH_MAX, 0, 0, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"device", YS_STRING, REQ, offsetof(scratch, device), 8, 0, 0, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"temp_k", YS_DOUBLE, REQ | YS_MIN_EXCLUSIVE, offsetof(scratch, d.temp_k), 0, 0, 1000, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"clock_hz", YS_DOUBLE, REQ | YS_MIN_EXCLUSIVE, offsetof(scratch, d.clock_hz), 0, 0, 1e11, NULL, NULL, 0, 0, 0, YS_NO_FLAG},
    {"sm", YS_MAP, REQ, 0, 0, 0, 0, NULL, scratch_sm_fields, 0, 0, 0, YS_NO_FLAG},
    {"banks", YS_LIST, 0, offsetof(scratch, banks), sizeof(scratch_bank), 0, 0, NULL, scratch_bank_fields,
     offsetof(scratch, n_banks), 1, GPURF_RF_MAX_BANK_GROUPS, YS_NO_FLAG},
    {"crossbar", YS_MAP, 0, 0, 0, 0, 0, NULL, crossbar_fields, 0, 0, 0, offsetof(scratch, d.has_crossbar)},
    {"arbiter", YS_MAP, 0, 0, 0, 0, 0, NULL, arbiter_fields, 0, 0, 0, offsetof(scratch, d.has_arbiter)},
    {"extras", YS_LIST, 0, offsetof(scratch, extras), sizeof(scratch_extra), 0, 0, NULL, extra_fields,
     offsetof(scratch, n_extras), 1, GPURF_RF_MAX_EXTRAS, YS_NO_FLAG},
    YS_TABLE_END};

static int whole(ys_doc *doc, const double *v, const char *what) {
  if (*v != (double)(long long)*v)
    return ys_fail_value(doc, v, GPURF_ESCHEMA, "%s must be a whole number, not %g", what, *v);
  return GPURF_OK;
}

/* Checks that need the whole file (names that parse, unique bank names),
 * resolving every word into its enumeration on the way. */
static int check_design(gpurf_ctx *ctx, ys_doc *doc, scratch *s) {
  if (gpurf_device_kind_parse(s->device, &s->d.device) != GPURF_OK)
    return ys_fail_value(doc, s->device, GPURF_ESCHEMA, "device '%s' is not hp, lstp or lop",
                         s->device);
  const char *pol = s->policy;
  if (pol[0] && gpurf_rf_policy_parse(pol, &s->d.sm.policy) != GPURF_OK)
    return ys_fail_value(doc, pol, GPURF_ESCHEMA, "policy '%s' is not lrr, gto or two_level", pol);
  const char *core = s->d.sm.core;
  if (core[0] && strcmp(core, "gtx480") != 0 && strcmp(core, "simtight") != 0)
    return ys_fail_value(doc, core, GPURF_ESCHEMA, "core '%s' is not gtx480 or simtight", core);
  int rc = whole(doc, &s->registers, "registers");
  if (rc != GPURF_OK) return rc;
  if (s->n_banks == 0 && s->n_extras == 0)
    return ys_fail_value(doc, s->d.design, GPURF_ESCHEMA,
                         "a design needs storage: a 'banks' list or a compressed_rf extra");
  /* Absent, the crossbar takes its model's defaults. */
  s->d.crossbar.style = GPURF_XBAR_MATRIX;
  s->d.crossbar.wire = GPURF_WIRE_SEMI_GLOBAL;
  if (s->d.has_crossbar && s->style[0] &&
      gpurf_xbar_style_parse(s->style, &s->d.crossbar.style) != GPURF_OK)
    return ys_fail_value(doc, s->style, GPURF_ESCHEMA, "crossbar style '%s' is not matrix or mux",
                         s->style);
  if (s->d.has_crossbar && s->wire[0] &&
      gpurf_wire_kind_parse(s->wire, &s->d.crossbar.wire) != GPURF_OK)
    return ys_fail_value(doc, s->wire, GPURF_ESCHEMA,
                         "crossbar wire '%s' is not local, semi-global or global", s->wire);
  for (size_t i = 0; i < s->n_extras; i++) {
    scratch_extra *x = &s->extras[i];
    if (gpurf_rf_extra_kind_parse(x->kind, &x->x.kind) != GPURF_OK)
      return ys_fail_value(doc, x->kind, GPURF_ESCHEMA,
                           "extra kind '%s' is not rename_table, write_pool, compressed_rf or rfc_tags",
                           x->kind);
    if ((rc = whole(doc, &x->budget_bytes, "budget_bytes")) != GPURF_OK) return rc;
    ys_value_pos(doc, x->kind, &x->x.line, &x->x.column);
  }
  for (size_t i = 0; i < s->n_banks; i++) {
    scratch_bank *b = &s->banks[i];
    if ((rc = whole(doc, &b->entries, "entries")) != GPURF_OK) return rc;
    if (gpurf_ports_parse(b->ports, &b->g.ports) != GPURF_OK)
      return ys_fail_value(doc, b->ports, GPURF_ESCHEMA,
                           "ports '%s' is not a port mix such as 1rw, 1r1w or 3r1w", b->ports);
    b->g.opt = GPURF_BANK_OPT_ED2;
    if (b->opt[0] && gpurf_bank_opt_parse(b->opt, &b->g.opt) != GPURF_OK)
      return ys_fail_value(doc, b->opt, GPURF_ESCHEMA,
                           "opt '%s' is not ed2, edp, delay, energy, area, leakage or ed2-read", b->opt);
    /* A named cell must exist now, so the error can point at this line. */
    if (strcmp(b->g.cell, "sram") != 0) {
      gpurf_cell cell;
      if (gpurf_cell_load(ctx, b->g.cell, &cell) != GPURF_OK) {
        char why[GPURF_ERROR_MESSAGE_MAX];
        gpurf_error_format(gpurf_ctx_error(ctx), why, sizeof why);
        return ys_fail_value(doc, b->g.cell, GPURF_ENOTFOUND, "cell '%s': %s", b->g.cell, why);
      }
    }
    int g = b->g.gate_groups;
    if (g & (g - 1))
      return ys_fail_value(doc, &b->g.gate_groups, GPURF_ESCHEMA,
                           "gate_groups %d is not a power of two (1, 2, 4 ... 64)", g);
    b->g.port = GPURF_RF_PORT_POINT;
    if (b->port[0] && gpurf_rf_port_place_parse(b->port, &b->g.port) != GPURF_OK)
      return ys_fail_value(doc, b->port, GPURF_ESCHEMA, "port '%s' is not edge or point",
                           b->port);
    for (size_t j = 0; j < i; j++)
      if (strcmp(s->banks[j].g.name, b->g.name) == 0)
        return ys_fail_value(doc, b->g.name, GPURF_ESCHEMA,
                             "bank group name '%s' is used twice", b->g.name);
  }
  return GPURF_OK;
}

static int load_file(gpurf_ctx *ctx, const char *path, gpurf_rf_design *out) {
  ys_doc *doc = NULL;
  int rc = ys_open(ctx, path, &doc);
  if (rc != GPURF_OK) return rc;
  scratch *sp = calloc(1, sizeof *sp);
  if (!sp) {
    ys_close(doc);
    return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  }
  rc = ys_decode(doc, design_fields, sp);
  if (rc == GPURF_OK) rc = check_design(ctx, doc, sp);
  ys_close(doc);
  if (rc != GPURF_OK) {
    free(sp);
    return rc;
  }
  gpurf_rf_design d = sp->d;
  d.sm.registers = (long long)sp->registers;
  d.n_bank_groups = sp->n_banks;
  for (size_t i = 0; i < sp->n_banks; i++) {
    d.bank_groups[i] = sp->banks[i].g;
    d.bank_groups[i].entries = (long long)sp->banks[i].entries;
  }
  d.n_extras = sp->n_extras;
  for (size_t i = 0; i < sp->n_extras; i++) {
    d.extras[i] = sp->extras[i].x;
    d.extras[i].budget_bytes = (long long)sp->extras[i].budget_bytes;
  }
  snprintf(d.path, sizeof d.path, "%s", path);
  free(sp);
  *out = d;
  return GPURF_OK;
}

int gpurf_rf_design_load(gpurf_ctx *ctx, const char *name_or_path, gpurf_rf_design *out) {
  if (!ctx || !name_or_path || !out) return GPURF_EINVAL;
  if (strchr(name_or_path, '/') || strstr(name_or_path, ".yaml") || !strcmp(name_or_path, "-"))
    return load_file(ctx, name_or_path, out);
  const char *data = gpurf_ctx_data_dir(ctx);
  char path[GPURF_RF_PATH_MAX];
  if (snprintf(path, sizeof path, "%s/models/%s.yaml", data, name_or_path) >= (int)sizeof path)
    return gpurf_fail(ctx, GPURF_EINVAL, "design name too long");
  FILE *f = fopen(path, "rb");
  if (!f)
    return gpurf_fail(ctx, GPURF_ENOTFOUND, "no design named '%s' (looked for %s)", name_or_path,
                      path);
  fclose(f);
  return load_file(ctx, path, out);
}
