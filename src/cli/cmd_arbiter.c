/* gpurf arbiter: the bank arbiter evaluated by gpurf_arbiter_eval, with the
 * bank-stealing extension's overhead against the 2-class arbiter. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const char *const arbiter_help =
    "usage: gpurf arbiter --banks N --requesters R --classes K --tech NODE\n"
    "                     [--device hp|lstp|lop] [--registers N] [--activity A]\n"
    "                     [--rf-area-mm2 A | --rf-bytes N [--rf-width BITS]]\n"
    "                     [--temp-k T] [--format text|json|csv]\n"
    "\n"
    "Evaluates the arbiter granting N banks to R requesters in each of K request\n"
    "classes (2..5), highest priority first:\n"
    "  2  normal write > normal read (conventional)\n"
    "  3  normal write > normal read > stealing read\n"
    "  4  forced write > normal read > normal write > stealing write\n"
    "  5  forced write > normal read > stealing read > normal write > stealing write\n"
    "with round-robin selection inside a class. Area counts gates (no routing);\n"
    "energy is one arbitration cycle of all banks; delays also in FO4.\n"
    "The overhead of K classes over the 2-class arbiter is reported; with\n"
    "--rf-area-mm2, or --rf-bytes (an SRAM register file of N banks of --rf-width\n"
    "bits, default 1024, on the same node), also as a share of the register file.\n"
    "--registers   warp registers in the register file (default 1024): sizes the\n"
    "              write-stealing status table\n"
    "--activity A  energy per logic node per decision is A x C Vdd^2 (default 0.25)\n";

enum { O_BANKS, O_REQ, O_CLASSES, O_TECH, O_DEVICE, O_REGS, O_ACT, O_RF_AREA, O_RF_BYTES,
       O_RF_WIDTH, O_TEMP, O_N };

int cmd_arbiter(gpurf_ctx *ctx, int argc, char **argv) {
  cli_args a = {argc, argv, 0, "gpurf arbiter"};
  cli_opt o[O_N] = {{"--banks", NULL, 0},       {"--requesters", NULL, 0}, {"--classes", NULL, 0},
                    {"--tech", NULL, 0},        {"--device", NULL, 0},     {"--registers", NULL, 0},
                    {"--activity", NULL, 0},    {"--rf-area-mm2", NULL, 0}, {"--rf-bytes", NULL, 0},
                    {"--rf-width", NULL, 0},    {"--temp-k", NULL, 0}};
  out_format fmt;
  int rc = cli_opts_parse(&a, arbiter_help, o, O_N, &fmt);
  if (rc < 0) return CLI_OK;
  if (rc) return rc;
  const char *prog = a.prog;
  const char *missing = !o[O_BANKS].value     ? "--banks N"
                        : !o[O_REQ].value     ? "--requesters R"
                        : !o[O_CLASSES].value ? "--classes K"
                        : !o[O_TECH].value    ? "--tech NODE"
                                              : NULL;
  if (missing) {
    cli_usage_error(prog, "%s is required", missing);
    return CLI_USAGE;
  }
  gpurf_arbiter_spec s;
  gpurf_arbiter_spec_init(&s);
  int rf_width = 1024;
  if (cli_opt_int(prog, &o[O_BANKS], 1, 1024, &s.banks) ||
      cli_opt_int(prog, &o[O_REQ], 1, 1024, &s.requesters) ||
      cli_opt_int(prog, &o[O_REGS], 1, 1 << 20, &s.rf_registers) ||
      cli_opt_int(prog, &o[O_RF_WIDTH], 1, 65536, &rf_width))
    return CLI_USAGE;
  if (cli_opt_int(prog, &o[O_CLASSES], 1, 1000, &s.classes)) return CLI_USAGE;
  if (s.classes < GPURF_ARBITER_MIN_CLASSES || s.classes > GPURF_ARBITER_MAX_CLASSES) {
    cli_usage_error(prog, "--classes must be 2..5, not '%s'", o[O_CLASSES].value);
    return CLI_USAGE;
  }
  if (s.rf_registers < s.banks) {
    cli_usage_error(prog, "--registers %d cannot fill %d banks", s.rf_registers, s.banks);
    return CLI_USAGE;
  }
  if (o[O_ACT].value) {
    if (cli_parse_double(prog, "--activity", o[O_ACT].value, &s.activity)) return CLI_USAGE;
    if (!(s.activity > 0.0 && s.activity <= 1.0)) {
      cli_usage_error(prog, "--activity must be above 0 and at most 1, not '%s'", o[O_ACT].value);
      return CLI_USAGE;
    }
  }
  double rf_mm2;
  long long rf_bytes;
  if (cli_rf_area_opts(prog, o[O_RF_AREA].value, o[O_RF_BYTES].value, &rf_mm2, &rf_bytes))
    return CLI_USAGE;
  if (o[O_RF_WIDTH].value && !rf_bytes) {
    cli_usage_error(prog, "--rf-width needs --rf-bytes");
    return CLI_USAGE;
  }
  if (rf_bytes && (rf_bytes * 8) % ((long long)rf_width * s.banks) != 0) {
    cli_usage_error(prog, "--rf-bytes %lld is not a whole number of %d-bit words in each of %d "
                    "banks", rf_bytes, rf_width, s.banks);
    return CLI_USAGE;
  }
  if (cli_env_opts(prog, o[O_DEVICE].value, o[O_TEMP].value, &s.device, &s.temp_k))
    return CLI_USAGE;

  gpurf_tech *tech = cli_tech_load(ctx, o[O_TECH].value);
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
  rc = rep_emit(&r, fmt);
  gpurf_tech_free(tech);
  return rc;
}
