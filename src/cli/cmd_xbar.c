/* gpurf xbar: the operand crossbar evaluated by gpurf_xbar_eval. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const char *const xbar_help =
    "usage: gpurf xbar --inputs N --outputs M --width BITS --tech NODE\n"
    "                  [--device hp|lstp|lop] [--style matrix|mux] [--activity A]\n"
    "                  [--wire local|semi-global|global] [--temp-k T]\n"
    "                  [--format text|json|csv]\n"
    "\n"
    "Evaluates a crossbar of N input and M output ports of BITS bits.\n"
    "--style matrix  bit-sliced: one N x M slice of tri-state crosspoints per bit,\n"
    "                slices in a square array, wires to the four edges (default)\n"
    "--style mux     per output, a tree of 2:1 multiplexers per bit\n"
    "--activity A    energy per data wire per transfer is A x C Vdd^2 (default\n"
    "                0.25: a static bus with random data)\n"
    "--wire          metal of the data wires (default semi-global)\n"
    "Energy is one transfer of one BITS-bit word from one input to one output;\n"
    "delay is the farthest bit's path from input port to output port.\n";

#define XBAR_CLI_MAX_PORTS 1024
#define XBAR_CLI_MAX_WIDTH 65536

enum { O_INPUTS, O_OUTPUTS, O_WIDTH, O_TECH, O_DEVICE, O_STYLE, O_ACTIVITY, O_WIRE, O_TEMP, O_N };

static int build(const char *prog, const cli_opt *o, gpurf_xbar_spec *s) {
  const char *missing = !o[O_INPUTS].value    ? "--inputs N"
                        : !o[O_OUTPUTS].value ? "--outputs M"
                        : !o[O_WIDTH].value   ? "--width BITS"
                        : !o[O_TECH].value    ? "--tech NODE"
                                              : NULL;
  if (missing) {
    cli_usage_error(prog, "%s is required", missing);
    return CLI_USAGE;
  }
  gpurf_xbar_spec_init(s);
  if (cli_opt_int(prog, &o[O_INPUTS], 1, XBAR_CLI_MAX_PORTS, &s->inputs) ||
      cli_opt_int(prog, &o[O_OUTPUTS], 1, XBAR_CLI_MAX_PORTS, &s->outputs) ||
      cli_opt_int(prog, &o[O_WIDTH], 1, XBAR_CLI_MAX_WIDTH, &s->width_bits))
    return CLI_USAGE;
  if (o[O_STYLE].value && gpurf_xbar_style_parse(o[O_STYLE].value, &s->style) != GPURF_OK) {
    cli_usage_error(prog, "--style must be matrix or mux, not '%s'", o[O_STYLE].value);
    return CLI_USAGE;
  }
  if (o[O_WIRE].value && gpurf_wire_kind_parse(o[O_WIRE].value, &s->wire_layer) != GPURF_OK) {
    cli_usage_error(prog, "--wire must be local, semi-global or global, not '%s'",
                    o[O_WIRE].value);
    return CLI_USAGE;
  }
  if (o[O_ACTIVITY].value) {
    if (cli_parse_double(prog, "--activity", o[O_ACTIVITY].value, &s->activity)) return CLI_USAGE;
    if (!(s->activity > 0.0 && s->activity <= 1.0)) {
      cli_usage_error(prog, "--activity must be above 0 and at most 1, not '%s'",
                      o[O_ACTIVITY].value);
      return CLI_USAGE;
    }
  }
  return cli_env_opts(prog, o[O_DEVICE].value, o[O_TEMP].value, &s->device, &s->temp_k);
}

int cmd_xbar(gpurf_ctx *ctx, int argc, char **argv) {
  cli_args a = {argc, argv, 0, "gpurf xbar"};
  cli_opt o[O_N] = {{"--inputs", NULL, 0},   {"--outputs", NULL, 0}, {"--width", NULL, 0},
                    {"--tech", NULL, 0},     {"--device", NULL, 0},  {"--style", NULL, 0},
                    {"--activity", NULL, 0}, {"--wire", NULL, 0},    {"--temp-k", NULL, 0}};
  out_format fmt;
  int rc = cli_opts_parse(&a, xbar_help, o, O_N, &fmt);
  if (rc < 0) return CLI_OK;
  if (rc) return rc;
  gpurf_xbar_spec s;
  if ((rc = build(a.prog, o, &s)) != CLI_OK) return rc;
  gpurf_tech *tech = cli_tech_load(ctx, o[O_TECH].value);
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
