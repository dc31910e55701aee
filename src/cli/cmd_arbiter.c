/* gpurf arbiter: the bank arbiter evaluated by gpurf_arbiter_eval, with the
 * bank-stealing extension's overhead against the 2-class arbiter. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

int cmd_arbiter(gpurf_ctx *ctx, const cli_parsed *args) {
  const char *prog = args->prog, *rf_width_opt = cli_get(args, "--rf-width");
  out_format fmt = args->fmt;
  gpurf_arbiter_spec s;
  gpurf_arbiter_spec_init(&s);
  int rf_width = 1024;
  if (cli_opt_int(args, "--banks", 1, 1024, &s.banks) ||
      cli_opt_int(args, "--requesters", 1, 1024, &s.requesters) ||
      cli_opt_int(args, "--registers", 1, 1 << 20, &s.rf_registers) ||
      cli_opt_int(args, "--rf-width", 1, 65536, &rf_width))
    return CLI_USAGE;
  if (cli_opt_int(args, "--classes", 1, 1000, &s.classes)) return CLI_USAGE;
  if (s.classes < GPURF_ARBITER_MIN_CLASSES || s.classes > GPURF_ARBITER_MAX_CLASSES) {
    cli_usage_error(prog, "--classes must be 2..5, not '%s'", cli_get(args, "--classes"));
    return CLI_USAGE;
  }
  if (s.rf_registers < s.banks) {
    cli_usage_error(prog, "--registers %d cannot fill %d banks", s.rf_registers, s.banks);
    return CLI_USAGE;
  }
  if (cli_activity_opt(args, &s.activity)) return CLI_USAGE;
  double rf_mm2;
  long long rf_bytes;
  if (cli_rf_area_opts(args, &rf_mm2, &rf_bytes)) return CLI_USAGE;
  if (rf_width_opt && !rf_bytes) {
    cli_usage_error(prog, "--rf-width needs --rf-bytes");
    return CLI_USAGE;
  }
  if (rf_bytes && (rf_bytes * 8) % ((long long)rf_width * s.banks) != 0) {
    cli_usage_error(prog, "--rf-bytes %lld is not a whole number of %d-bit words in each of %d "
                    "banks", rf_bytes, rf_width, s.banks);
    return CLI_USAGE;
  }
  if (cli_env_opts(prog, cli_get(args, "--device"), cli_get(args, "--temp-k"), &s.device, &s.temp_k))
    return CLI_USAGE;

  gpurf_tech *tech = cli_tech_load(ctx, cli_get(args, "--tech"));
  gpurf_arbiter_cost c;
  gpurf_arbiter_overhead ov;
  double rf_area_m2 = rf_mm2 * 1e-6;
  if (!tech || (s.tech = tech, gpurf_arbiter_eval(ctx, &s, &c)) != GPURF_OK ||
      (rf_bytes && gpurf_metrics_sram_rf_area(ctx, tech, s.device, s.temp_k, rf_bytes, s.banks,
                                              rf_width, &rf_area_m2) != GPURF_OK) ||
      gpurf_arbiter_overhead_eval(ctx, &s, rf_area_m2, &ov) != GPURF_OK) {
    cli_print_error(ctx);
    gpurf_tech_free(tech);
    return CLI_FAIL;
  }
  char order[160] = "";
  for (int i = 0; i < c.class_count; i++) {
    size_t len = strlen(order);
    snprintf(order + len, sizeof order - len, "%s%s", i ? " > " : "",
             gpurf_arbiter_class_name(c.class_order[i]));
  }
  report r;
  rep_init(&r, "Bank arbiter");
  rep_str(&r, "tech", "technology", gpurf_tech_name(tech));
  rep_str(&r, "device", "device", gpurf_device_kind_name(s.device));
  rep_int(&r, "banks", "banks", s.banks);
  rep_int(&r, "requesters", "requesters per class", s.requesters);
  rep_int(&r, "classes", "request classes", s.classes);
  rep_str(&r, "priority", "priority", order);
  rep_int(&r, "registers", "registers", s.rf_registers);
  rep_num(&r, "temp_k", "temperature", "K", s.temp_k);
  rep_section(&r, "Per decision (one cycle, all banks)");
  rep_num(&r, "decision_energy_pj", "energy", "pJ", c.base.events[0].energy_j * 1e12);
  rep_num(&r, "read_path_ns", "read-enable path", "ns", c.base.access_time_s * 1e9);
  rep_num(&r, "read_path_fo4", "read-enable path", "FO4", c.read_path_fo4);
  rep_num(&r, "write_path_ns", "write-enable path", "ns", c.write_path_s * 1e9);
  rep_num(&r, "write_path_fo4", "write-enable path", "FO4", c.write_path_s / c.fo4_delay_s);
  rep_num(&r, "fo4_ps", "FO4 of the node", "ps", c.fo4_delay_s * 1e12);
  rep_section(&r, "The arbiter as a whole");
  rep_num(&r, "area_mm2", "area (gates)", "mm^2", c.base.area_m2 * 1e6);
  rep_num(&r, "leakage_mw", "leakage", "mW", (c.base.leakage_sub_w + c.base.leakage_gate_w) * 1e3);
  rep_int(&r, "gates", "two-input gates", c.gates);
  rep_int(&r, "flops", "flip-flops", c.flops);
  rep_int(&r, "status_bits", "stealing status table bits", c.status_bits);
  rep_section(&r, "Over the 2-class arbiter");
  rep_num(&r, "extra_area_mm2", "extra area", "mm^2", ov.extra_area_m2 * 1e6);
  if (rf_area_m2 > 0.0) {
    rep_num(&r, "rf_area_mm2", "register-file area", "mm^2", rf_area_m2 * 1e6);
    rep_num(&r, "extra_area_percent_of_rf", "extra area of the register file", "%",
            ov.area_share * 100.0);
  }
  rep_num(&r, "extra_read_path_fo4", "extra on the read-enable path", "FO4",
          ov.extra_read_path_fo4);
  rep_num(&r, "extra_decision_energy_pj", "extra energy per decision", "pJ",
          ov.extra_energy_j * 1e12);
  rep_num(&r, "scheduler_mux_fo4", "scheduler 2:1 mux (read stealing)", "FO4",
          ov.scheduler_mux_fo4);
  r.breakdown_title = "Breakdown (energy: one decision)";
  for (int p = 0; p < GPURF_ARBITER_PART_COUNT; p++)
    r.parts[r.nparts++] = gpurf_arbiter_part_name((gpurf_arbiter_part)p);
  rep_table(&r, "area_mm2", "area mm^2", c.base.area_part_m2, 1e6);
  rep_table(&r, "decision_energy_pj", "decision pJ", c.energy_part_j, 1e12);
  rep_table(&r, "leakage_mw", "leakage mW", c.leakage_part_w, 1e3);
  int rc = rep_emit(&r, fmt);
  gpurf_tech_free(tech);
  return rc;
}
