/* gpurf xbar: the operand crossbar evaluated by gpurf_xbar_eval. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

#define XBAR_CLI_MAX_PORTS 1024
#define XBAR_CLI_MAX_WIDTH 65536

static int build(const cli_parsed *args, gpurf_xbar_spec *s) {
  const char *prog = args->prog, *style = cli_get(args, "--style"), *wire = cli_get(args, "--wire");
  gpurf_xbar_spec_init(s);
  if (cli_opt_int(args, "--inputs", 1, XBAR_CLI_MAX_PORTS, &s->inputs) ||
      cli_opt_int(args, "--outputs", 1, XBAR_CLI_MAX_PORTS, &s->outputs) ||
      cli_opt_int(args, "--width", 1, XBAR_CLI_MAX_WIDTH, &s->width_bits))
    return CLI_USAGE;
  if (style && gpurf_xbar_style_parse(style, &s->style) != GPURF_OK) {
    cli_usage_error(prog, "--style must be matrix or mux, not '%s'", style);
    return CLI_USAGE;
  }
  if (wire && gpurf_wire_kind_parse(wire, &s->wire_layer) != GPURF_OK) {
    cli_usage_error(prog, "--wire must be local, semi-global or global, not '%s'", wire);
    return CLI_USAGE;
  }
  if (cli_activity_opt(args, &s->activity)) return CLI_USAGE;
  return cli_env_opts(prog, cli_get(args, "--device"), cli_get(args, "--temp-k"), &s->device,
                      &s->temp_k);
}

int cmd_xbar(gpurf_ctx *ctx, const cli_parsed *args) {
  out_format fmt = args->fmt;
  gpurf_xbar_spec s;
  int rc = build(args, &s);
  if (rc != CLI_OK) return rc;
  gpurf_tech *tech = cli_tech_load(ctx, cli_get(args, "--tech"));
  gpurf_xbar_cost c;
  if (!tech || (s.tech = tech, gpurf_xbar_eval(ctx, &s, &c)) != GPURF_OK) {
    cli_print_error(ctx);
    gpurf_tech_free(tech);
    return CLI_FAIL;
  }
  static const char *const wire_names[GPURF_WIRE_COUNT] = {"local", "semi-global", "global"};
  report r;
  rep_init(&r, "Crossbar");
  rep_str(&r, "tech", "technology", gpurf_tech_name(tech));
  rep_str(&r, "device", "device", gpurf_device_kind_name(s.device));
  rep_str(&r, "style", "style", gpurf_xbar_style_name(s.style));
  rep_str(&r, "wire", "wire layer", wire_names[s.wire_layer]);
  rep_int(&r, "inputs", "inputs", s.inputs);
  rep_int(&r, "outputs", "outputs", s.outputs);
  rep_int(&r, "width_bits", "width (bits)", s.width_bits);
  rep_num(&r, "activity", "activity", "", s.activity);
  rep_num(&r, "temp_k", "temperature", "K", s.temp_k);
  rep_section(&r, "Per transfer of one word");
  rep_num(&r, "transfer_energy_pj", "energy", "pJ", c.base.events[0].energy_j * 1e12);
  rep_num(&r, "delay_ns", "delay", "ns", c.base.access_time_s * 1e9);
  rep_num(&r, "delay_fo4", "delay", "FO4", c.base.access_time_s / c.fo4_delay_s);
  rep_section(&r, "The crossbar as a whole");
  rep_num(&r, "area_mm2", "area", "mm^2", c.base.area_m2 * 1e6);
  rep_num(&r, "width_mm", "width", "mm", c.width_m * 1e3);
  rep_num(&r, "height_mm", "height", "mm", c.height_m * 1e3);
  rep_num(&r, "leakage_mw", "leakage", "mW", (c.base.leakage_sub_w + c.base.leakage_gate_w) * 1e3);
  rep_num(&r, "leakage_sub_mw", "  subthreshold", "mW", c.base.leakage_sub_w * 1e3);
  rep_num(&r, "leakage_gate_mw", "  gate", "mW", c.base.leakage_gate_w * 1e3);
  rep_int(&r, "slices_x", "slices across", c.slices_x);
  rep_int(&r, "slices_y", "slices down", c.slices_y);
  rep_int(&r, "tracks_h", "tracks in a horizontal channel", c.tracks_h);
  rep_int(&r, "tracks_v", "tracks in a vertical channel", c.tracks_v);
  r.breakdown_title = "Breakdown (energy and delay: one transfer)";
  for (int p = 0; p < GPURF_XBAR_PART_COUNT; p++)
    r.parts[r.nparts++] = gpurf_xbar_part_name((gpurf_xbar_part)p);
  rep_table(&r, "area_mm2", "area mm^2", c.base.area_part_m2, 1e6);
  rep_table(&r, "transfer_energy_pj", "transfer pJ", c.transfer_part_j, 1e12);
  rep_table(&r, "delay_ns", "delay ns", c.delay_part_s, 1e9);
  rep_table(&r, "leakage_mw", "leakage mW", c.leakage_part_w, 1e3);
  rc = rep_emit(&r, fmt);
  gpurf_tech_free(tech);
  return rc;
}
