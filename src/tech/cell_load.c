/* Memory-cell files. The `kind` key picks one of four schemas; geometry is
 * in units of F so a cell file is independent of the node. */
#include <stdio.h>
#include <string.h>

#include "gpurf/cell.h"
#include "tech/tech_internal.h"

#define REQ YS_REQUIRED
#define POS (YS_REQUIRED | YS_MIN_EXCLUSIVE)

static const char *const kind_names[] = {"sram", "dff", "latch", "stt-mtj", NULL};
static const char *const read_mode_names[] = {"voltage", "current", NULL};

const char *gpurf_cell_kind_name(gpurf_cell_kind kind) {
  return (unsigned)kind <= GPURF_CELL_STT_MTJ ? kind_names[kind] : "?";
}

/* Member M of the union arm A, described relative to gpurf_cell. */
#define CD(A, M, LO, HI, FL) \
  {#M, YS_DOUBLE, (FL), offsetof(gpurf_cell, u.A.M), 0, (LO), (HI), NULL, NULL, 0, 0, 0, YS_NO_FLAG}
#define CD_OPT(A, M, LO, HI, FL, PRESENT) \
  {#M, YS_DOUBLE, (FL), offsetof(gpurf_cell, u.A.M), 0, (LO), (HI), NULL, NULL, 0, 0, 0, \
   offsetof(gpurf_cell, u.A.PRESENT)}
#define CI(A, M, LO, HI, FL) \
  {#M, YS_INT, (FL), offsetof(gpurf_cell, u.A.M), 0, (LO), (HI), NULL, NULL, 0, 0, 0, YS_NO_FLAG}
/* `source` is optional: a user's own cell need not cite anything (shown as
 * "not given"); the shipped cells all cite theirs. */
#define COMMON_FIELDS                                              \
  YS_ENUMF("kind", gpurf_cell, kind, kind_names, REQ),             \
  YS_STR(gpurf_cell, name, REQ), YS_STR(gpurf_cell, source, 0)

static const ys_field sram_fields[] = {
    COMMON_FIELDS,
    CD(sram, area_f2, 1.0, 1.0e5, POS),
    CD(sram, aspect_ratio, 0.01, 100.0, POS),
    CD(sram, w_access_f, 0.0, 100.0, POS),
    CD(sram, w_pulldown_f, 0.0, 100.0, POS),
    CD(sram, w_pullup_f, 0.0, 100.0, POS),
    CI(sram, rw_ports, 0, 16, REQ),
    CI(sram, read_ports, 0, 16, REQ),
    CI(sram, write_ports, 0, 16, REQ),
    CD(sram, port_growth_pitches, 0.0, 100.0, REQ),
    CD(sram, w_read_access_f, 0.0, 100.0, REQ),
    CD(sram, w_read_pulldown_f, 0.0, 100.0, REQ),
    YS_TABLE_END};

static const ys_field dff_fields[] = {
    COMMON_FIELDS,
    CD(ff, area_f2, 1.0, 1.0e6, POS),
    CD(ff, aspect_ratio, 0.01, 100.0, POS),
    CD(ff, clock_gate_width_f, 0.0, 1.0e4, POS),
    CD(ff, data_gate_width_f, 0.0, 1.0e4, POS),
    CD(ff, internal_switched_width_f, 0.0, 1.0e5, POS),
    CD(ff, leak_width_f, 0.0, 1.0e5, POS),
    CD_OPT(ff, clock_internal_width_f, 0.0, 1.0e5, YS_MIN_EXCLUSIVE, has_clock_internal),
    CD_OPT(ff, data_internal_width_f, 0.0, 1.0e5, YS_MIN_EXCLUSIVE, has_data_internal),
    YS_TABLE_END};

static const ys_field stt_fields[] = {
    COMMON_FIELDS,
    CD(stt, area_f2, 1.0, 1.0e5, POS),
    CD(stt, aspect_ratio, 0.01, 100.0, POS),
    CD(stt, r_on_ohm, 0.0, 1.0e9, POS),
    CD(stt, r_off_ohm, 0.0, 1.0e9, POS),
    {"read_mode", YS_ENUM, REQ, offsetof(gpurf_cell, u.stt.read_mode), 0, 0, 0,
     read_mode_names, NULL, 0, 0, 0, YS_NO_FLAG},
    CD(stt, read_current_a, 0.0, 1.0, YS_MIN_EXCLUSIVE),
    CD(stt, read_voltage_v, 0.0, 5.0, YS_MIN_EXCLUSIVE),
    CD(stt, min_sense_voltage_v, 0.0, 5.0, POS),
    CD(stt, read_power_w, 0.0, 1.0, POS),
    CD(stt, set_current_a, 0.0, 1.0, POS),
    CD(stt, set_pulse_s, 0.0, 1.0e-3, POS),
    CD(stt, reset_current_a, 0.0, 1.0, POS),
    CD(stt, reset_pulse_s, 0.0, 1.0e-3, POS),
    CD_OPT(stt, set_energy_j, 0.0, 1.0e-6, YS_MIN_EXCLUSIVE, has_set_energy),
    CD_OPT(stt, reset_energy_j, 0.0, 1.0e-6, YS_MIN_EXCLUSIVE, has_reset_energy),
    CD(stt, access_width_f, 0.0, 1.0e3, POS),
    CD(stt, access_drop_v, 0.0, 5.0, REQ),
    YS_TABLE_END};

static int check_cell(ys_doc *doc, const gpurf_cell *c) {
  switch (c->kind) {
  case GPURF_CELL_SRAM: {
    const gpurf_cell_sram *s = &c->u.sram;
    if (s->rw_ports + s->read_ports + s->write_ports < 1)
      return ys_fail_value(doc, &s->rw_ports, GPURF_ERANGE, "the cell has no port");
    if (s->rw_ports == 0 && (s->read_ports == 0 || s->write_ports == 0))
      return ys_fail_value(doc, &s->read_ports, GPURF_ERANGE,
                           "without a read/write port the cell needs at least one read "
                           "and one write port");
    if ((s->w_read_access_f > 0.0) != (s->w_read_pulldown_f > 0.0))
      return ys_fail_value(doc, &s->w_read_access_f, GPURF_ERANGE,
                           "a decoupled read stack needs both w_read_access_f and "
                           "w_read_pulldown_f");
    if (s->read_ports > 0 && s->rw_ports == 0 && s->w_read_access_f <= 0.0)
      return ys_fail_value(doc, &s->w_read_access_f, GPURF_ERANGE,
                           "read-only ports need a decoupled read stack width");
    return GPURF_OK;
  }
  case GPURF_CELL_STT_MTJ: {
    const gpurf_cell_stt *s = &c->u.stt;
    if (s->r_off_ohm <= s->r_on_ohm)
      return ys_fail_value(doc, &s->r_off_ohm, GPURF_ERANGE,
                           "r_off_ohm %g must exceed r_on_ohm %g", s->r_off_ohm, s->r_on_ohm);
    if (s->read_mode == GPURF_STT_READ_VOLTAGE && !(s->read_current_a > 0.0))
      return ys_fail_value(doc, &s->read_mode, GPURF_ESCHEMA,
                           "voltage sensing needs read_current_a");
    if (s->read_mode == GPURF_STT_READ_CURRENT && !(s->read_voltage_v > 0.0))
      return ys_fail_value(doc, &s->read_mode, GPURF_ESCHEMA,
                           "current sensing needs read_voltage_v");
    return GPURF_OK;
  }
  case GPURF_CELL_DFF:
  case GPURF_CELL_LATCH:
    return GPURF_OK;
  }
  return GPURF_OK;
}

int gpurf_cell_load_file(gpurf_ctx *ctx, const char *path, gpurf_cell *out) {
  if (!ctx || !path || !out) return GPURF_EINVAL;
  ys_doc *doc = NULL;
  int rc = ys_open(ctx, path, &doc);
  if (rc != GPURF_OK) return rc;
  const char *kind = ys_top_scalar(doc, "kind");
  const ys_field *schema = NULL;
  if (!kind) {
    rc = gpurf_fail_at(ctx, GPURF_ESCHEMA, path, 1, 1, "kind",
                       "missing required key (sram, dff, latch or stt-mtj)");
  } else if (strcmp(kind, "sram") == 0) {
    schema = sram_fields;
  } else if (strcmp(kind, "dff") == 0 || strcmp(kind, "latch") == 0) {
    schema = dff_fields;
  } else if (strcmp(kind, "stt-mtj") == 0) {
    schema = stt_fields;
  } else {
    /* Decoding with any schema reports the bad kind at its line. */
    schema = sram_fields;
  }
  gpurf_cell c;
  memset(&c, 0, sizeof c);
  if (rc == GPURF_OK) rc = ys_decode(doc, schema, &c);
  if (rc == GPURF_OK) rc = check_cell(doc, &c);
  ys_close(doc);
  if (rc != GPURF_OK) return rc;
  gpurf_strlcpy(c.path, path, sizeof c.path);
  *out = c;
  return GPURF_OK;
}

int gpurf_cell_load(gpurf_ctx *ctx, const char *name_or_path, gpurf_cell *out) {
  if (!ctx || !name_or_path || !out) return GPURF_EINVAL;
  if (strchr(name_or_path, '/') || strstr(name_or_path, ".yaml") || !strcmp(name_or_path, "-"))
    return gpurf_cell_load_file(ctx, name_or_path, out);
  const char *data = gpurf_ctx_data_dir(ctx);
  if (!data[0])
    return gpurf_fail(ctx, GPURF_ENOTFOUND,
                      "no data directory set: cannot find cell '%s'", name_or_path);
  char path[GPURF_TECH_PATH_MAX];
  if (snprintf(path, sizeof path, "%s/tech/cells/%s.yaml", data, name_or_path) >=
      (int)sizeof path)
    return gpurf_fail(ctx, GPURF_EINVAL, "cell name too long");
  FILE *f = fopen(path, "rb");
  if (!f)
    return gpurf_fail(ctx, GPURF_ENOTFOUND, "no cell named '%s' (looked for %s)",
                      name_or_path, path);
  fclose(f);
  return gpurf_cell_load_file(ctx, path, out);
}
