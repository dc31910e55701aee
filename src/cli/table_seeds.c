/* The seed tables, rebuilt from the designs in models/ and the component
 * models. Ours always comes from a model evaluation; published numbers come
 * from table_published.c or from the validation sets in validation/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/table.h"
#include "cli/validate_report.h"

typedef struct loaded {
  gpurf_rf_design d;
  gpurf_rf_table t;
} loaded;

/* Loads a shipped design and builds its primitive table; prints on failure. */
static int load(gpurf_ctx *ctx, const char *name, loaded *l) {
  if (gpurf_rf_design_load(ctx, name, &l->d) != GPURF_OK ||
      gpurf_rf_design_table(ctx, &l->d, &l->t) != GPURF_OK) {
    cli_print_error(ctx);
    return CLI_FAIL;
  }
  return CLI_OK;
}

static const gpurf_rf_component *component(const gpurf_rf_table *t, const char *name) {
  int i = gpurf_rf_table_find(t, name);
  return i < 0 ? NULL : &t->components[i];
}

static double event_j(const gpurf_rf_component *c, const char *event) {
  for (int e = 0; e < c->n_events; e++)
    if (strcmp(c->events[e].name, event) == 0) return c->events[e].energy_j;
  return 0.0;
}

static int missing(const char *design, const char *what) {
  fprintf(stderr, "gpurf table: design '%s' has no component '%s'\n", design, what);
  return CLI_FAIL;
}

/* ---- Bank stealing ---- */

static int jing_t3(gpurf_ctx *ctx, st_table *t) {
  loaded *l = calloc(1, sizeof *l);
  if (!l) return CLI_FAIL;
  int rc = load(ctx, "jing-128k-16bk-straight", l);
  const char *names[] = {GPURF_RF_BANK, GPURF_RF_CROSSBAR, GPURF_RF_ARBITER};
  const char *events[] = {GPURF_EV_READ, GPURF_EV_TRANSFER, GPURF_EV_DECISION};
  const char *metrics[] = {"read_energy", "transfer_energy", "decision_energy"};
  for (int i = 0; rc == CLI_OK && i < 3; i++) {
    const gpurf_rf_component *c = component(&l->t, names[i]);
    if (!c) {
      rc = missing(l->d.design, names[i]);
      break;
    }
    st_add(t, names[i], "instances", "-", c->instances);
    st_add(t, names[i], "area", "mm^2", c->area_m2 * 1e6);
    st_add(t, names[i], "delay", "ns", c->access_time_s * 1e9);
    st_add(t, names[i], metrics[i], "pJ", event_j(c, events[i]) * 1e12);
    if (i == 0) st_add(t, names[i], "write_energy", "pJ", event_j(c, GPURF_EV_WRITE) * 1e12);
    st_add(t, names[i], "leakage", "mW", c->leakage_w * 1e3);
  }
  gpurf_metrics_summary *s = NULL;
  if (rc == CLI_OK && (gpurf_metrics_summary_alloc(ctx, &s) != GPURF_OK ||
                       gpurf_metrics_summarise(ctx, &l->t, s) != GPURF_OK)) {
    cli_print_error(ctx);
    rc = CLI_FAIL;
  }
  if (rc == CLI_OK) {
    st_add(t, "rf", "area", "mm^2", gpurf_metrics_summary_area_total_m2(s) * 1e6);
    st_add(t, "rf", "read_path_delay", "ns", gpurf_metrics_summary_read_path_total_s(s) * 1e9);
    st_add(t, "rf", "read_path_cycles", "cycles", gpurf_metrics_summary_read_path_cycles(s));
    st_add(t, "rf", "leakage", "mW", gpurf_metrics_summary_leakage_total_w(s) * 1e3);
  }
  gpurf_metrics_summary_free(s);
  free(l);
  return rc;
}

/* The numbers of Fig. 3 of one design, in SI: area, delay, leakage by role. */
typedef struct f3_point {
  double area[GPURF_METRICS_AREA_ROLES], area_total;
  double delay[GPURF_METRICS_PATH_PARTS], delay_total;
  double leak_total;
} f3_point;

static int f3_summarise(gpurf_ctx *ctx, const gpurf_rf_table *t, f3_point *f) {
  gpurf_metrics_summary *s = NULL;
  if (gpurf_metrics_summary_alloc(ctx, &s) != GPURF_OK ||
      gpurf_metrics_summarise(ctx, t, s) != GPURF_OK) {
    cli_print_error(ctx);
    gpurf_metrics_summary_free(s);
    return CLI_FAIL;
  }
  for (int p = 0; p < GPURF_METRICS_AREA_ROLES; p++) f->area[p] = gpurf_metrics_summary_area_m2(s, p);
  for (int p = 0; p < GPURF_METRICS_PATH_PARTS; p++)
    f->delay[p] = gpurf_metrics_summary_read_path_s(s, p);
  f->area_total = gpurf_metrics_summary_area_total_m2(s);
  f->delay_total = gpurf_metrics_summary_read_path_total_s(s);
  f->leak_total = gpurf_metrics_summary_leakage_total_w(s);
  gpurf_metrics_summary_free(s);
  return CLI_OK;
}

/* Fig. 3 of the bank-stealing paper: 4/8/16/32 banks at 128 KB, normalised
 * to 16 banks; breakdown parts are normalised to the 16-bank total so they
 * stack to the point's total. */
static int jing_f3(gpurf_ctx *ctx, st_table *t) {
  static const int banks[] = {4, 8, 16, 32};
  loaded *l = calloc(1, sizeof *l);
  f3_point s[4];
  double cell_e[4], xbar_e[4];
  if (!l) return CLI_FAIL;
  for (int i = 0; i < 4; i++) {
    char name[64];
    snprintf(name, sizeof name, "jing-128k-%dbk-straight", banks[i]);
    if (load(ctx, name, l) != CLI_OK || f3_summarise(ctx, &l->t, &s[i]) != CLI_OK) {
      free(l);
      return CLI_FAIL;
    }
    const gpurf_rf_component *b = component(&l->t, GPURF_RF_BANK);
    const gpurf_rf_component *x = component(&l->t, GPURF_RF_CROSSBAR);
    if (!b || !x) {
      free(l);
      return missing(name, b ? "crossbar" : "bank");
    }
    cell_e[i] = event_j(b, GPURF_EV_READ);
    xbar_e[i] = event_j(x, GPURF_EV_TRANSFER);
  }
  free(l);
  const f3_point *r = &s[2];
  for (int i = 0; i < 4; i++) {
    char cfg[32];
    snprintf(cfg, sizeof cfg, "%d banks", banks[i]);
    st_add(t, cfg, "area", "x16", s[i].area_total / r->area_total);
    for (int p = 0; p < GPURF_METRICS_AREA_ROLES - 1; p++) {
      char m[64];
      snprintf(m, sizeof m, "area_%s", gpurf_metrics_area_role_name(p));
      st_add(t, cfg, m, "x16", s[i].area[p] / r->area_total);
    }
    st_add(t, cfg, "delay", "x16", s[i].delay_total / r->delay_total);
    for (int p = 0; p < GPURF_METRICS_PATH_PARTS; p++) {
      char m[64];
      snprintf(m, sizeof m, "delay_%s", gpurf_metrics_path_part_name(p));
      st_add(t, cfg, m, "x16", s[i].delay[p] / r->delay_total);
    }
    st_add(t, cfg, "crossbar_delay_share", "-",
           s[i].delay[GPURF_METRICS_PATH_CROSSBAR] / s[i].delay_total);
    st_add(t, cfg, "bank_read_energy", "x16", cell_e[i] / cell_e[2]);
    st_add(t, cfg, "crossbar_transfer_energy", "x16", xbar_e[i] / xbar_e[2]);
    /* Fig. 3(c) stacks the two on one scale: a register read's dynamic
     * energy (bank read and crossbar transfer) against the 16-bank total. */
    double dyn16 = cell_e[2] + xbar_e[2];
    st_add(t, cfg, "read_dynamic_energy", "x16", (cell_e[i] + xbar_e[i]) / dyn16);
    st_add(t, cfg, "read_dynamic_bank", "x16", cell_e[i] / dyn16);
    st_add(t, cfg, "read_dynamic_crossbar", "x16", xbar_e[i] / dyn16);
    st_add(t, cfg, "leakage", "x16", s[i].leak_total / r->leak_total);
  }
  return CLI_OK;
}

/* ---- Gebhart et al. ---- */

/* Table IV: the L1 RFC/ORF bank of gebhart-l0-l1 (3r1w flip-flops, 128-bit
 * entries, one bank per 4-lane cluster) with entries per thread x active
 * warps entries. */
static int gebhart_t4(gpurf_ctx *ctx, st_table *t) {
  static const int per_thread[] = {4, 6, 8}, warps[] = {4, 6, 8};
  loaded *l = calloc(1, sizeof *l);
  if (!l) return CLI_FAIL;
  int rc = CLI_OK;
  if (gpurf_rf_design_load(ctx, "gebhart-l0-l1", &l->d) != GPURF_OK) {
    cli_print_error(ctx);
    rc = CLI_FAIL;
  }
  /* Only the L1 group is evaluated: the array Table IV characterises. */
  int g = -1;
  for (size_t i = 0; rc == CLI_OK && i < l->d.n_bank_groups; i++)
    if (strcmp(l->d.bank_groups[i].name, "l1") == 0) g = (int)i;
  if (rc == CLI_OK && g < 0) rc = missing(l->d.design, "l1");
  if (rc == CLI_OK) {
    l->d.bank_groups[0] = l->d.bank_groups[g];
    l->d.n_bank_groups = 1;
    l->d.has_crossbar = l->d.has_arbiter = 0;
    l->d.n_extras = 0;
  }
  for (int i = 0; rc == CLI_OK && i < 3; i++)
    for (int j = 0; rc == CLI_OK && j < 3; j++) {
      char v[32], cfg[64];
      snprintf(v, sizeof v, "%d", per_thread[i] * warps[j]);
      snprintf(cfg, sizeof cfg, "%d/thread x %d warps", per_thread[i], warps[j]);
      if (gpurf_rf_design_set(ctx, &l->d, "banks[0].entries", v) != GPURF_OK ||
          gpurf_rf_design_table(ctx, &l->d, &l->t) != GPURF_OK) {
        cli_print_error(ctx);
        rc = CLI_FAIL;
        break;
      }
      const gpurf_rf_component *c = &l->t.components[0];
      st_add(t, cfg, "read_energy", "pJ", event_j(c, GPURF_EV_READ) * 1e12);
      st_add(t, cfg, "write_energy", "pJ", event_j(c, GPURF_EV_WRITE) * 1e12);
      st_add(t, cfg, "area_per_bank", "mm^2", c->area_m2 * 1e6);
    }
  free(l);
  return rc;
}

/* Reads a validation set; prints its error on failure. */
static int read_set(gpurf_ctx *ctx, const char *name, gpurf_validate_set **set) {
  char path[2048];
  snprintf(path, sizeof path, "%s/validation/%s.tsv", gpurf_ctx_data_dir(ctx), name);
  if (gpurf_validate_set_load(ctx, path, set) != GPURF_OK) {
    cli_print_validate_error(ctx);
    return CLI_FAIL;
  }
  return CLI_OK;
}

/* A row with the set's number for metric m of its first row as published,
 * ref_scale taking it from SI to the row's unit. */
static void add_vs(st_table *t, const char *cfg, const char *metric, const char *unit, double ours,
                   const gpurf_validate_set *set, gpurf_validate_metric m, double ref_scale) {
  double ref;
  if (gpurf_validate_row_reference(set, 0, m, &ref))
    st_add_pub(t, cfg, metric, unit, ours, ref * ref_scale);
  else
    st_add(t, cfg, metric, unit, ours);
}

static void append_source(st_table *t, const char *src) {
  size_t n = strlen(t->source);
  snprintf(t->source + n, sizeof t->source - n, "%s%s", n ? "; " : "", src);
}

/* Table V: the MRF bank (gebhart-mrf) and the L0 ORF/RFC bank (gebhart-l0-l1). */
static int gebhart_t5(gpurf_ctx *ctx, st_table *t) {
  gpurf_validate_set *mrf_set, *l0_set;
  if (read_set(ctx, "gebhart-table5", &mrf_set) != CLI_OK) return CLI_FAIL;
  if (read_set(ctx, "gebhart-table5-l0", &l0_set) != CLI_OK) {
    gpurf_validate_set_free(mrf_set);
    return CLI_FAIL;
  }
  append_source(t, gpurf_validate_set_source(mrf_set));
  loaded *l = calloc(1, sizeof *l);
  int rc = l ? load(ctx, "gebhart-mrf", l) : CLI_FAIL;
  const gpurf_rf_component *c = rc == CLI_OK ? component(&l->t, "mrf") : NULL;
  if (rc == CLI_OK && !c) rc = missing("gebhart-mrf", "mrf");
  if (rc == CLI_OK) {
    add_vs(t, "MRF bank", "read_energy", "pJ", event_j(c, GPURF_EV_READ) * 1e12, mrf_set,
           GPURF_VALIDATE_READ_ENERGY, 1e12);
    add_vs(t, "MRF bank", "write_energy", "pJ", event_j(c, GPURF_EV_WRITE) * 1e12, mrf_set,
           GPURF_VALIDATE_WRITE_ENERGY, 1e12);
    add_vs(t, "MRF bank", "area", "um^2", c->area_m2 * 1e12, mrf_set, GPURF_VALIDATE_AREA, 1e12);
    rc = load(ctx, "gebhart-l0-l1", l);
  }
  c = rc == CLI_OK ? component(&l->t, "l0") : NULL;
  if (rc == CLI_OK && !c) rc = missing("gebhart-l0-l1", "l0");
  if (rc == CLI_OK) {
    add_vs(t, "L0 ORF/RFC bank", "read_energy", "pJ", event_j(c, GPURF_EV_READ) * 1e12, l0_set,
           GPURF_VALIDATE_READ_ENERGY, 1e12);
    add_vs(t, "L0 ORF/RFC bank", "write_energy", "pJ", event_j(c, GPURF_EV_WRITE) * 1e12, l0_set,
           GPURF_VALIDATE_WRITE_ENERGY, 1e12);
  }
  free(l);
  gpurf_validate_set_free(mrf_set);
  gpurf_validate_set_free(l0_set);
  return rc;
}

/* ---- WarRF Table II: the validation rows' arrays, evaluated as validate does ---- */

static int warrf_column(gpurf_ctx *ctx, st_table *t, const char *set_name, const char *cfg) {
  gpurf_validate_set *set;
  gpurf_validate_result *res = NULL;
  if (read_set(ctx, set_name, &set) != CLI_OK) return CLI_FAIL;
  append_source(t, gpurf_validate_set_source(set));
  gpurf_bank_spec spec;
  int rc = CLI_OK;
  if (gpurf_validate_row_spec(set, 0, &spec) != GPURF_OK ||
      gpurf_validate_compare(ctx, set, &res) != GPURF_OK) {
    cli_print_validate_error(ctx);
    rc = CLI_FAIL;
  }
  if (rc == CLI_OK) {
    double bits = spec.width_bits;
    add_vs(t, cfg, "read_latency", "ns",
           gpurf_validate_result_ours(res, 0, GPURF_VALIDATE_ACCESS_TIME) * 1e9, set,
           GPURF_VALIDATE_ACCESS_TIME, 1e9);
    add_vs(t, cfg, "write_latency", "ns",
           gpurf_validate_result_ours(res, 0, GPURF_VALIDATE_WRITE_LATENCY) * 1e9, set,
           GPURF_VALIDATE_WRITE_LATENCY, 1e9);
    add_vs(t, cfg, "read_energy", "pJ/bit",
           gpurf_validate_result_ours(res, 0, GPURF_VALIDATE_READ_ENERGY) * 1e12 / bits, set,
           GPURF_VALIDATE_READ_ENERGY, 1e12 / bits);
    add_vs(t, cfg, "write_energy", "pJ/bit",
           gpurf_validate_result_ours(res, 0, GPURF_VALIDATE_WRITE_ENERGY) * 1e12 / bits, set,
           GPURF_VALIDATE_WRITE_ENERGY, 1e12 / bits);
    add_vs(t, cfg, "area", "mm^2", gpurf_validate_result_ours(res, 0, GPURF_VALIDATE_AREA) * 1e6,
           set, GPURF_VALIDATE_AREA, 1e6);
  }
  gpurf_validate_result_free(res);
  gpurf_validate_set_free(set);
  return rc;
}

/* The write pool of warrf-stt-sbw-wpool (Section 4.2): energy per bit of a
 * pool-array access and the pool's area against the register file's. */
static int warrf_wpool(gpurf_ctx *ctx, st_table *t) {
  loaded *l = calloc(1, sizeof *l);
  int rc = l ? load(ctx, "warrf-stt-sbw-wpool", l) : CLI_FAIL;
  const gpurf_rf_component *p = rc == CLI_OK ? component(&l->t, "write_pool") : NULL;
  const gpurf_rf_component *b = rc == CLI_OK ? component(&l->t, GPURF_RF_BANK) : NULL;
  if (rc == CLI_OK && (!p || !b)) rc = missing("warrf-stt-sbw-wpool", p ? "bank" : "write_pool");
  if (rc == CLI_OK) {
    const char *cfg = "write pool 60 entries";
    double bits = l->d.bank_groups[0].width_bits;
    st_add(t, cfg, "access_energy", "pJ/bit",
           0.5 * (event_j(p, GPURF_EV_READ) + event_j(p, GPURF_EV_WRITE)) * 1e12 / bits);
    st_add(t, cfg, "area_share_of_rf", "-", p->area_m2 / (b->instances * b->area_m2));
  }
  free(l);
  return rc;
}

static int warrf_t2(gpurf_ctx *ctx, st_table *t) {
  if (warrf_column(ctx, t, "warrf-table2-sram", "SRAM 2 MB") != CLI_OK) return CLI_FAIL;
  if (warrf_column(ctx, t, "warrf-table2-stt", "STT-RAM 2 MB") != CLI_OK) return CLI_FAIL;
  return warrf_wpool(ctx, t);
}

/* ---- Jeon et al. Table 2: the 4 KB register bank and the 1 KB renaming table ---- */

static int jeon_t2(gpurf_ctx *ctx, st_table *t) {
  loaded *l = calloc(1, sizeof *l);
  int rc = l ? load(ctx, "jeon-baseline", l) : CLI_FAIL;
  const gpurf_rf_component *c = rc == CLI_OK ? component(&l->t, GPURF_RF_BANK) : NULL;
  if (rc == CLI_OK && !c) rc = missing("jeon-baseline", "bank");
  if (rc == CLI_OK) {
    st_add(t, "register bank 4 KB", "read_energy", "pJ", event_j(c, GPURF_EV_READ) * 1e12);
    st_add(t, "register bank 4 KB", "write_energy", "pJ", event_j(c, GPURF_EV_WRITE) * 1e12);
    st_add(t, "register bank 4 KB", "leakage_per_bank", "mW", c->leakage_w * 1e3);
    st_add(t, "register bank 4 KB", "access_time", "ns", c->access_time_s * 1e9);
    rc = load(ctx, "jeon-shrink", l);
  }
  c = rc == CLI_OK ? component(&l->t, "rename_table") : NULL;
  if (rc == CLI_OK && !c) rc = missing("jeon-shrink", "rename_table");
  if (rc == CLI_OK) {
    /* The table is split over the renaming model's banks (4, Table 2). */
    gpurf_rename_spec rs;
    gpurf_rename_spec_init(&rs);
    const char *cfg = "renaming table 1 KB";
    st_add(t, cfg, "lookup_energy", "pJ", event_j(c, "lookup") * 1e12);
    st_add(t, cfg, "update_energy", "pJ", event_j(c, "update") * 1e12);
    st_add(t, cfg, "leakage_per_bank", "mW", c->leakage_w * 1e3 / rs.banks);
    st_add(t, cfg, "access_time", "ns", c->access_time_s * 1e9);
  }
  /* GPU-shrink's sub-array power gating (Section 8.2); the paper's text says
   * CACTI-P put the wake-up under one cycle (Section 9). */
  c = rc == CLI_OK ? component(&l->t, GPURF_RF_BANK) : NULL;
  if (rc == CLI_OK && (!c || c->subarrays <= 0)) rc = missing("jeon-shrink", "gated bank");
  if (rc == CLI_OK) {
    const char *cfg = "sub-array power gating";
    st_add(t, cfg, "gated_leakage_fraction", "-", c->gated_leakage_fraction);
    st_add(t, cfg, "wake_energy", "pJ", c->wake_energy_j * 1e12);
    st_add(t, cfg, "wake_latency", "ns", c->wake_latency_s * 1e9);
    st_add(t, cfg, "wake_latency_cycles", "cycles", c->wake_latency_s * l->t.clock_hz);
  }
  free(l);
  return rc;
}

/* ---- SIMTight Fig. 8: storage from the compressed-RF model's field widths ---- */

static int simtight_f8(gpurf_ctx *ctx, st_table *t) {
  static const char *const designs[] = {"simtight-baseline", "simtight-vrf1024", "simtight-vrf512",
                                        "simtight-vrf256"};
  static const char *const configs[] = {"baseline", "vrf1024", "vrf512", "vrf256"};
  gpurf_rf_design *d = calloc(1, sizeof *d);
  gpurf_tech *tech = NULL;
  gpurf_sram_cells *cells = calloc(1, sizeof *cells);
  int rc = d && cells && gpurf_tech_alloc(ctx, &tech) == GPURF_OK ? CLI_OK : CLI_FAIL;
  double base_bits = 0.0;
  for (int i = 0; rc == CLI_OK && i < 4; i++) {
    gpurf_crf_spec spec;
    gpurf_crf_cost cost;
    gpurf_crf_spec_init(&spec);
    if (gpurf_rf_design_load(ctx, designs[i], d) != GPURF_OK ||
        gpurf_tech_load(ctx, d->tech, tech) != GPURF_OK ||
        gpurf_sram_cells_load(ctx, cells) != GPURF_OK) {
      cli_print_error(ctx);
      rc = CLI_FAIL;
      break;
    }
    if (d->n_extras < 1 || d->extras[0].kind != GPURF_RF_EXTRA_COMPRESSED_RF) {
      rc = missing(designs[i], "compressed_rf");
      break;
    }
    /* The design's sizes, as the primitive table builds them. */
    spec.device = d->device;
    spec.tech = tech, spec.temp_k = d->temp_k, spec.cells = cells;
    spec.warps = d->sm.warps;
    spec.lanes = d->sm.threads_per_warp;
    if (d->extras[0].arch_regs) spec.arch_regs = d->extras[0].arch_regs;
    spec.vrf_regs = d->extras[0].vrf_regs;
    if (gpurf_crf_eval(ctx, &spec, &cost) != GPURF_OK) {
      cli_print_error(ctx);
      rc = CLI_FAIL;
      break;
    }
    double bits = (double)cost.total_bits;
    if (i == 0) base_bits = bits;
    st_add(t, configs[i], "total_storage", "kbit", bits / 1000.0);
    if (i > 0) st_add(t, configs[i], "compression_ratio", "-", bits / base_bits);
  }
  free(d);
  gpurf_tech_free(tech);
  free(cells);
  return rc;
}

const st_builder st_builders[] = {
    {"jing-t3", "Bank stealing Table III: primitives of the 128 KB, 16-bank RF (32 nm)", jing_t3},
    {"jing-f3", "Bank stealing Fig. 3: 4/8/16/32 banks at 128 KB, normalised to 16 banks", jing_f3},
    {"gebhart-t4", "Gebhart et al. Table IV: 3R1W flip-flop RFC/ORF banks, 128-bit entries (40 nm)",
     gebhart_t4},
    {"gebhart-t5", "Gebhart et al. Table V: MRF and L0 ORF/RFC banks (40 nm)", gebhart_t5},
    {"warrf-t2", "WarRF Table II: SRAM and STT-RAM arrays (22 nm)", warrf_t2},
    {"jeon-t2", "Jeon et al. Table 2: register bank and renaming table (40 nm, 0.96 V)", jeon_t2},
    {"simtight-f8", "SIMTight Fig. 8: register-file storage with a compressed RF", simtight_f8},
};
const int st_builder_count = (int)(sizeof st_builders / sizeof st_builders[0]);
