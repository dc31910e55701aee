/* gpurf component rename|wpool|crf|rfc-tags: the extra storage of published
 * register-file techniques, with the papers' configurations as defaults. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static int load_common(const cli_parsed *p, gpurf_device_kind *dev, double *temp_k) {
  *dev = GPURF_DEVICE_HP;
  *temp_k = GPURF_DEFAULT_TEMP_K;
  return cli_env_opts(p->prog, cli_get(p, "--device"), cli_get(p, "--temp-k"), dev, temp_k);
}

static int load_data(gpurf_ctx *ctx, const cli_parsed *p, gpurf_tech **tech,
                     gpurf_sram_cells *cells) {
  if (!(*tech = cli_tech_load(ctx, cli_get(p, "--tech"))) ||
      gpurf_sram_cells_load(ctx, cells) != GPURF_OK) {
    cli_print_error(ctx);
    gpurf_tech_free(*tech);
    *tech = NULL;
    return CLI_FAIL;
  }
  return CLI_OK;
}

static void env_rows(report *r, const gpurf_tech *t, gpurf_device_kind dev, double temp_k) {
  rep_str(r, "tech", "technology", gpurf_tech_name(t));
  rep_str(r, "device", "device", gpurf_device_kind_name(dev));
  rep_num(r, "temp_k", "temperature", "K", temp_k);
}

/* Energy and time of an event a component documents, from its record. */
static double ev_j(const gpurf_component_cost *c, const char *event) {
  const gpurf_component_event *e = gpurf_component_cost_event(c, event);
  return e ? e->energy_j : 0.0;
}

static double ev_s(const gpurf_component_cost *c, const char *event) {
  const gpurf_component_event *e = gpurf_component_cost_event(c, event);
  return e ? e->time_s : 0.0;
}

static double leak_w(const gpurf_component_cost *c) { return c->leakage_sub_w + c->leakage_gate_w; }

static void array_rows(report *r, const char *key_prefix, const gpurf_array_cost *a,
                       char keys[][48], int *nk) {
  static const char *const what[] = {"area_mm2", "access_time_ns", "leakage_mw"};
  const double v[] = {a->area_m2 * 1e6, a->access_time_s * 1e9,
                      (a->leakage_sub_w + a->leakage_gate_w) * 1e3};
  static const char *const units[] = {"mm^2", "ns", "mW"};
  for (int i = 0; i < 3; i++) {
    snprintf(keys[*nk], 48, "%s_%s", key_prefix, what[i]);
    rep_num(r, keys[*nk], keys[*nk], units[i], v[i]);
    (*nk)++;
  }
}

int cmd_component_rename(gpurf_ctx *ctx, const cli_parsed *p) {
  out_format fmt = p->fmt;
  int rc;
  gpurf_rename_spec s;
  gpurf_rename_spec_init(&s);
  gpurf_tech *tech = NULL;
  gpurf_sram_cells cells;
  int budget = 0;
  if ((rc = load_common(p, &s.device, &s.temp_k)) != CLI_OK) return rc;
  if (cli_opt_int(p, "--warps", 1, 4096, &s.warps) ||
      cli_opt_int(p, "--regs", 1, 4096, &s.arch_regs) ||
      cli_opt_int(p, "--phys-regs", 2, 1 << 20, &s.phys_regs) ||
      cli_opt_int(p, "--banks", 1, 64, &s.banks) ||
      cli_opt_int(p, "--budget-bytes", 1, 1 << 30, &budget) ||
      cli_opt_int(p, "--flag-entries", 0, 65536, &s.flag_entries) ||
      cli_opt_int(p, "--flag-bits", 1, 4096, &s.flag_bits) ||
      cli_opt_int(p, "--flag-tag-bits", 0, 64, &s.flag_tag_bits))
    return CLI_USAGE;
  if (s.phys_regs % s.banks != 0) {
    cli_usage_error(p->prog, "--phys-regs %d do not split evenly over %d banks", s.phys_regs,
                    s.banks);
    return CLI_USAGE;
  }
  s.budget_bytes = budget;
  if ((rc = load_data(ctx, p, &tech, &cells)) != CLI_OK) return rc;
  s.tech = tech;
  s.cells = &cells;
  gpurf_rename_cost c;
  if (gpurf_rename_eval(ctx, &s, &c) != GPURF_OK) {
    cli_print_error(ctx);
    gpurf_tech_free(tech);
    return CLI_FAIL;
  }
  report r;
  char keys[8][48];
  int nk = 0;
  rep_init(&r, "Register renaming table (Jeon et al.)");
  env_rows(&r, tech, s.device, s.temp_k);
  rep_int(&r, "warps", "warps", s.warps);
  rep_int(&r, "arch_regs", "architected registers per thread", s.arch_regs);
  rep_int(&r, "phys_regs", "physical registers", s.phys_regs);
  rep_int(&r, "banks", "banks", s.banks);
  rep_section(&r, "Storage");
  rep_int(&r, "entry_bits", "entry bits", c.entry_bits);
  rep_int(&r, "renamed_regs", "renamed registers per warp", c.renamed_regs);
  rep_int(&r, "exempt_regs", "exempted registers per warp", c.exempt_regs);
  rep_int(&r, "table_bits", "table bits", c.table_bits);
  rep_num(&r, "table_kb", "table", "kB", c.table_bits / 8.0 / 1000.0);
  rep_int(&r, "availability_bits", "availability vector bits", c.availability_bits);
  rep_int(&r, "flag_cache_bits", "release flag cache bits", c.flag_cache_bits);
  rep_section(&r, "Per event");
  rep_num(&r, "lookup_energy_pj", "lookup", "pJ", ev_j(&c.base, GPURF_EV_LOOKUP) * 1e12);
  rep_num(&r, "update_energy_pj", "update", "pJ", ev_j(&c.base, GPURF_EV_UPDATE) * 1e12);
  rep_num(&r, "alloc_energy_pj", "allocate a register", "pJ", ev_j(&c.base, GPURF_EV_ALLOC) * 1e12);
  rep_num(&r, "release_energy_pj", "release a register", "pJ",
          ev_j(&c.base, GPURF_EV_RELEASE) * 1e12);
  rep_num(&r, "flag_read_energy_pj", "release flag cache read", "pJ",
          ev_j(&c.base, GPURF_EV_FLAG_READ) * 1e12);
  rep_num(&r, "flag_fill_energy_pj", "release flag cache fill", "pJ",
          ev_j(&c.base, GPURF_EV_FLAG_FILL) * 1e12);
  rep_num(&r, "lookup_time_ns", "lookup time", "ns", ev_s(&c.base, GPURF_EV_LOOKUP) * 1e9);
  rep_num(&r, "alloc_time_ns", "find-free time", "ns", ev_s(&c.base, GPURF_EV_ALLOC) * 1e9);
  rep_section(&r, "The component as a whole");
  rep_num(&r, "area_mm2", "area", "mm^2", c.base.area_m2 * 1e6);
  rep_num(&r, "leakage_mw", "leakage", "mW", leak_w(&c.base) * 1e3);
  array_rows(&r, "table", &c.table, keys, &nk);
  rep_num(&r, "availability_area_mm2", "availability_area_mm2", "mm^2",
          gpurf_component_cost_part_m2(&c.base, "availability") * 1e6);
  rc = rep_emit(&r, fmt);
  gpurf_tech_free(tech);
  return rc;
}

int cmd_component_wpool(gpurf_ctx *ctx, const cli_parsed *p) {
  out_format fmt = p->fmt;
  int rc;
  gpurf_wpool_spec s;
  gpurf_wpool_spec_init(&s);
  gpurf_tech *tech = NULL;
  gpurf_sram_cells cells;
  int rf_banks = 16;
  if ((rc = load_common(p, &s.device, &s.temp_k)) != CLI_OK) return rc;
  if (cli_opt_int(p, "--entries", 1, 65536, &s.entries) ||
      cli_opt_int(p, "--warps", 1, 4096, &s.warps) ||
      cli_opt_int(p, "--regs", 1, 4096, &s.arch_regs) ||
      cli_opt_int(p, "--lanes", 1, 1024, &s.lanes) ||
      cli_opt_int(p, "--word-bits", 1, 1024, &s.word_bits) ||
      cli_opt_int(p, "--rf-banks", 1, 1024, &rf_banks))
    return CLI_USAGE;
  const char *ports_opt = cli_get(p, "--ports");
  if (ports_opt && gpurf_ports_parse(ports_opt, &s.ports) != GPURF_OK) {
    cli_usage_error(p->prog, "--ports must be counts of rw, r and w ports such as 1rw or 1r1w, "
                    "not '%s'", ports_opt);
    return CLI_USAGE;
  }
  double rf_mm2;
  long long rf_bytes;
  if (cli_rf_area_opts(p, &rf_mm2, &rf_bytes)) return CLI_USAGE;
  int width = s.lanes * s.word_bits;
  if (cli_get(p, "--rf-banks") && !rf_bytes) {
    cli_usage_error(p->prog, "--rf-banks needs --rf-bytes");
    return CLI_USAGE;
  }
  if (rf_bytes && (rf_bytes * 8) % ((long long)width * rf_banks) != 0) {
    cli_usage_error(p->prog, "--rf-bytes %lld is not a whole number of %d-bit registers in each "
                    "of %d banks", rf_bytes, width, rf_banks);
    return CLI_USAGE;
  }
  if ((rc = load_data(ctx, p, &tech, &cells)) != CLI_OK) return rc;
  s.tech = tech;
  s.cells = &cells;
  gpurf_wpool_cost c;
  double rf_area = rf_mm2 * 1e-6;
  if (gpurf_wpool_eval(ctx, &s, &c) != GPURF_OK ||
      (rf_bytes && gpurf_metrics_sram_rf_area(ctx, tech, s.device, s.temp_k, rf_bytes, rf_banks,
                                              width, &rf_area) != GPURF_OK)) {
    cli_print_error(ctx);
    gpurf_tech_free(tech);
    return CLI_FAIL;
  }
  report r;
  char ports[32];
  gpurf_ports_format(&s.ports, ports, sizeof ports);
  rep_init(&r, "Write pool (WarRF)");
  env_rows(&r, tech, s.device, s.temp_k);
  rep_int(&r, "entries", "entries", s.entries);
  rep_int(&r, "warps", "warps", s.warps);
  rep_int(&r, "arch_regs", "registers per thread", s.arch_regs);
  rep_int(&r, "entry_bits", "pool entry bits", (long long)s.lanes * s.word_bits);
  rep_str(&r, "ports", "pool array ports", ports);
  rep_section(&r, "Storage");
  rep_int(&r, "key_bits", "searched bits (warp id, register id)", c.key_bits);
  rep_int(&r, "payload_bits", "payload bits (dirty, pool id)", c.payload_bits);
  rep_int(&r, "cam_bits", "indicator bits", c.cam_bits);
  rep_int(&r, "array_bits", "pool array bits", c.array_bits);
  rep_section(&r, "Per event");
  rep_num(&r, "cam_search_energy_pj", "indicator search", "pJ",
          ev_j(&c.base, GPURF_EV_CAM_SEARCH) * 1e12);
  rep_num(&r, "cam_update_energy_pj", "indicator update", "pJ",
          ev_j(&c.base, GPURF_EV_CAM_UPDATE) * 1e12);
  rep_num(&r, "pool_read_energy_pj", "pool read", "pJ", ev_j(&c.base, GPURF_EV_READ) * 1e12);
  rep_num(&r, "pool_write_energy_pj", "pool write", "pJ", ev_j(&c.base, GPURF_EV_WRITE) * 1e12);
  rep_num(&r, "cam_search_time_ns", "search time", "ns", ev_s(&c.base, GPURF_EV_CAM_SEARCH) * 1e9);
  rep_num(&r, "pool_access_time_ns", "pool access time", "ns", c.base.access_time_s * 1e9);
  rep_section(&r, "The component as a whole");
  rep_num(&r, "area_mm2", "area", "mm^2", c.base.area_m2 * 1e6);
  rep_num(&r, "cam_area_mm2", "  indicator", "mm^2",
          gpurf_component_cost_part_m2(&c.base, "cam") * 1e6);
  rep_num(&r, "array_area_mm2", "  pool array", "mm^2", c.array.area_m2 * 1e6);
  rep_num(&r, "leakage_mw", "leakage", "mW", leak_w(&c.base) * 1e3);
  if (rf_area > 0.0) {
    rep_num(&r, "rf_area_mm2", "register-file area", "mm^2", rf_area * 1e6);
    rep_num(&r, "area_percent_of_rf", "share of the register file", "%",
            100.0 * c.base.area_m2 / rf_area);
  }
  rc = rep_emit(&r, fmt);
  gpurf_tech_free(tech);
  return rc;
}

int cmd_component_crf(gpurf_ctx *ctx, const cli_parsed *p) {
  out_format fmt = p->fmt;
  int rc;
  gpurf_crf_spec s;
  gpurf_crf_spec_init(&s);
  gpurf_tech *tech = NULL;
  gpurf_sram_cells cells;
  if ((rc = load_common(p, &s.device, &s.temp_k)) != CLI_OK) return rc;
  if (cli_opt_int(p, "--warps", 1, 4096, &s.warps) ||
      cli_opt_int(p, "--lanes", 1, 1024, &s.lanes) ||
      cli_opt_int(p, "--regs", 1, 1024, &s.arch_regs) ||
      cli_opt_int(p, "--word-bits", 1, 1024, &s.word_bits) ||
      cli_opt_int(p, "--vrf-regs", 1, 1 << 22, &s.vrf_regs) ||
      cli_opt_int(p, "--base-bits", 1, 64, &s.base_bits) ||
      cli_opt_int(p, "--stride-bits", 0, 8, &s.stride_bits) ||
      cli_opt_int(p, "--srf-copies", 1, 16, &s.srf_copies))
    return CLI_USAGE;
  if (cli_get(p, "--separate-pointer")) s.pointer_in_base = 0;
  if ((rc = load_data(ctx, p, &tech, &cells)) != CLI_OK) return rc;
  s.tech = tech;
  s.cells = &cells;
  gpurf_crf_cost c;
  if (gpurf_crf_eval(ctx, &s, &c) != GPURF_OK) {
    cli_print_error(ctx);
    gpurf_tech_free(tech);
    return CLI_FAIL;
  }
  report r;
  char keys[12][48];
  int nk = 0;
  rep_init(&r, s.vrf_regs ? "Compressed register file (SIMTight)"
                          : "Uncompressed register file (SIMTight baseline)");
  env_rows(&r, tech, s.device, s.temp_k);
  rep_int(&r, "warps", "warps", s.warps);
  rep_int(&r, "lanes", "lanes", s.lanes);
  rep_int(&r, "arch_regs", "architectural registers per thread", s.arch_regs);
  rep_int(&r, "vrf_regs", "VRF slots (0: uncompressed)", s.vrf_regs);
  rep_section(&r, "Storage");
  rep_int(&r, "srf_entry_bits", "SRF entry bits", c.srf_entry_bits);
  rep_int(&r, "srf_bits", "SRF bits (all copies)", c.srf_bits);
  rep_int(&r, "vrf_bits", "VRF bits", c.vrf_bits);
  rep_int(&r, "stack_bits", "free-slot stack bits", c.stack_bits);
  rep_int(&r, "total_bits", "total bits", c.total_bits);
  rep_num(&r, "total_kbit", "total", "kbit", c.total_bits / 1000.0);
  rep_section(&r, "Per event");
  if (s.vrf_regs) {
    rep_num(&r, "srf_read_energy_pj", "SRF read", "pJ", ev_j(&c.base, GPURF_EV_SRF_READ) * 1e12);
    rep_num(&r, "srf_write_energy_pj", "SRF write (all copies)", "pJ",
            ev_j(&c.base, GPURF_EV_SRF_WRITE) * 1e12);
  }
  rep_num(&r, "vrf_read_energy_pj", "VRF read", "pJ",
          ev_j(&c.base, s.vrf_regs ? GPURF_EV_VRF_READ : GPURF_EV_READ) * 1e12);
  rep_num(&r, "vrf_write_energy_pj", "VRF write", "pJ",
          ev_j(&c.base, s.vrf_regs ? GPURF_EV_VRF_WRITE : GPURF_EV_WRITE) * 1e12);
  if (s.vrf_regs) {
    rep_num(&r, "stack_push_energy_pj", "free-slot push", "pJ",
            ev_j(&c.base, GPURF_EV_STACK_PUSH) * 1e12);
    rep_num(&r, "stack_pop_energy_pj", "free-slot pop", "pJ",
            ev_j(&c.base, GPURF_EV_STACK_POP) * 1e12);
  }
  rep_num(&r, "read_path_ns", "read path", "ns", c.base.access_time_s * 1e9);
  rep_section(&r, "The component as a whole");
  rep_num(&r, "area_mm2", "area", "mm^2", c.base.area_m2 * 1e6);
  rep_num(&r, "leakage_mw", "leakage", "mW", leak_w(&c.base) * 1e3);
  array_rows(&r, "vrf", &c.vrf, keys, &nk);
  if (s.vrf_regs) {
    array_rows(&r, "srf", &c.srf, keys, &nk);
    array_rows(&r, "stack", &c.stack, keys, &nk);
  }
  rc = rep_emit(&r, fmt);
  gpurf_tech_free(tech);
  return rc;
}

int cmd_component_rfc_tags(gpurf_ctx *ctx, const cli_parsed *p) {
  out_format fmt = p->fmt;
  int rc;
  gpurf_rfc_tags_spec s;
  gpurf_rfc_tags_spec_init(&s);
  if ((rc = load_common(p, &s.device, &s.temp_k)) != CLI_OK) return rc;
  if (cli_opt_int(p, "--warps", 1, 1024, &s.warps) ||
      cli_opt_int(p, "--entries", 1, 64, &s.entries_per_thread) ||
      cli_opt_int(p, "--regs", 2, 4096, &s.arch_regs) ||
      cli_opt_int(p, "--lookups", 1, 8, &s.lookups))
    return CLI_USAGE;
  gpurf_tech *tech = NULL;
  gpurf_cell flop;
  gpurf_rfc_tags_cost c;
  if (!(tech = cli_tech_load(ctx, cli_get(p, "--tech"))) ||
      gpurf_cell_load(ctx, "dff", &flop) != GPURF_OK) {
    cli_print_error(ctx);
    gpurf_tech_free(tech);
    return CLI_FAIL;
  }
  s.tech = tech;
  s.cell = &flop;
  if (gpurf_rfc_tags_eval(ctx, &s, &c) != GPURF_OK) {
    cli_print_error(ctx);
    gpurf_tech_free(tech);
    return CLI_FAIL;
  }
  report r;
  rep_init(&r, "Register file cache tags (Gebhart et al.)");
  env_rows(&r, tech, s.device, s.temp_k);
  rep_int(&r, "warps", "active warps", s.warps);
  rep_int(&r, "entries_per_thread", "RFC entries per thread", s.entries_per_thread);
  rep_int(&r, "arch_regs", "registers per thread", s.arch_regs);
  rep_int(&r, "lookups", "operands checked per instruction", s.lookups);
  rep_section(&r, "Storage");
  rep_int(&r, "tag_bits", "tag bits (register id, valid, dirty)", c.tag_bits);
  rep_int(&r, "store_bits", "tag store bits", c.store_bits);
  rep_section(&r, "Per event");
  rep_num(&r, "check_energy_pj", "tag check", "pJ", ev_j(&c.base, GPURF_EV_CHECK) * 1e12);
  rep_num(&r, "update_energy_pj", "tag row update", "pJ", ev_j(&c.base, GPURF_EV_UPDATE) * 1e12);
  rep_num(&r, "check_time_ns", "check time", "ns", c.base.access_time_s * 1e9);
  rep_section(&r, "The component as a whole");
  rep_num(&r, "area_mm2", "area", "mm^2", c.base.area_m2 * 1e6);
  rep_num(&r, "store_area_mm2", "  tag store", "mm^2",
          gpurf_component_cost_part_m2(&c.base, "store") * 1e6);
  rep_num(&r, "compare_area_mm2", "  comparators", "mm^2",
          gpurf_component_cost_part_m2(&c.base, "compare") * 1e6);
  rep_num(&r, "leakage_mw", "leakage", "mW", leak_w(&c.base) * 1e3);
  rc = rep_emit(&r, fmt);
  gpurf_tech_free(tech);
  return rc;
}
