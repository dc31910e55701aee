/* gpurf cell show NAME|FILE [--tech NODE] */
#include <stdio.h>

#include "cli/cli.h"

typedef struct field {
  const char *key;
  double v;
} field;

static size_t cell_fields(const gpurf_cell *c, field *f) {
  size_t n = 0;
  switch (c->kind) {
  case GPURF_CELL_SRAM: {
    const gpurf_cell_sram *s = &c->u.sram;
    f[n++] = (field){"area_f2", s->area_f2};
    f[n++] = (field){"aspect_ratio", s->aspect_ratio};
    f[n++] = (field){"w_access_f", s->w_access_f};
    f[n++] = (field){"w_pulldown_f", s->w_pulldown_f};
    f[n++] = (field){"w_pullup_f", s->w_pullup_f};
    f[n++] = (field){"rw_ports", s->rw_ports};
    f[n++] = (field){"read_ports", s->read_ports};
    f[n++] = (field){"write_ports", s->write_ports};
    f[n++] = (field){"port_growth_pitches", s->port_growth_pitches};
    f[n++] = (field){"w_read_access_f", s->w_read_access_f};
    f[n++] = (field){"w_read_pulldown_f", s->w_read_pulldown_f};
    break;
  }
  case GPURF_CELL_DFF:
  case GPURF_CELL_LATCH: {
    const gpurf_cell_ff *s = &c->u.ff;
    f[n++] = (field){"area_f2", s->area_f2};
    f[n++] = (field){"aspect_ratio", s->aspect_ratio};
    f[n++] = (field){"clock_gate_width_f", s->clock_gate_width_f};
    f[n++] = (field){"data_gate_width_f", s->data_gate_width_f};
    f[n++] = (field){"internal_switched_width_f", s->internal_switched_width_f};
    f[n++] = (field){"leak_width_f", s->leak_width_f};
    if (s->has_clock_internal)
      f[n++] = (field){"clock_internal_width_f", s->clock_internal_width_f};
    if (s->has_data_internal)
      f[n++] = (field){"data_internal_width_f", s->data_internal_width_f};
    break;
  }
  case GPURF_CELL_STT_MTJ: {
    const gpurf_cell_stt *s = &c->u.stt;
    f[n++] = (field){"area_f2", s->area_f2};
    f[n++] = (field){"aspect_ratio", s->aspect_ratio};
    f[n++] = (field){"r_on_ohm", s->r_on_ohm};
    f[n++] = (field){"r_off_ohm", s->r_off_ohm};
    if (s->read_current_a > 0) f[n++] = (field){"read_current_a", s->read_current_a};
    if (s->read_voltage_v > 0) f[n++] = (field){"read_voltage_v", s->read_voltage_v};
    f[n++] = (field){"min_sense_voltage_v", s->min_sense_voltage_v};
    f[n++] = (field){"read_power_w", s->read_power_w};
    f[n++] = (field){"set_current_a", s->set_current_a};
    f[n++] = (field){"set_pulse_s", s->set_pulse_s};
    f[n++] = (field){"reset_current_a", s->reset_current_a};
    f[n++] = (field){"reset_pulse_s", s->reset_pulse_s};
    if (s->has_set_energy) f[n++] = (field){"set_energy_j", s->set_energy_j};
    if (s->has_reset_energy) f[n++] = (field){"reset_energy_j", s->reset_energy_j};
    f[n++] = (field){"access_width_f", s->access_width_f};
    f[n++] = (field){"access_drop_v", s->access_drop_v};
    break;
  }
  }
  return n;
}

int cmd_cell_show(gpurf_ctx *ctx, const cli_parsed *p) {
  out_format fmt = p->fmt;
  const char *name = p->pos[0], *node = cli_get(p, "--tech");
  gpurf_cell cell;
  if (gpurf_cell_load(ctx, name, &cell) != GPURF_OK) {
    cli_print_error(ctx);
    return CLI_FAIL;
  }
  gpurf_tech *tech = NULL;
  gpurf_cell_dims dims;
  if (node && (!(tech = cli_tech_load(ctx, node)) ||
               gpurf_circuit_cell_dims(ctx, tech, &cell, &dims) != GPURF_OK)) {
    cli_print_error(ctx);
    gpurf_tech_free(tech);
    return CLI_FAIL;
  }
  field f[32];
  size_t n = cell_fields(&cell, f);
  sbuf out;
  sb_init(&out);
  if (fmt == FMT_JSON) {
    jw w;
    jw_init(&w, &out);
    jw_obj_begin(&w, NULL);
    jw_str(&w, "kind", gpurf_cell_kind_name(cell.kind));
    jw_str(&w, "name", cell.name);
    jw_str(&w, "source", cell.source[0] ? cell.source : "not given");
    jw_str(&w, "path", cell.path);
    if (cell.kind == GPURF_CELL_STT_MTJ)
      jw_str(&w, "read_mode",
             cell.u.stt.read_mode == GPURF_STT_READ_VOLTAGE ? "voltage" : "current");
    for (size_t i = 0; i < n; i++) jw_num(&w, f[i].key, f[i].v);
    if (node) {
      jw_obj_begin(&w, "at_node");
      jw_str(&w, "tech", gpurf_tech_name(tech));
      jw_num(&w, "width_um", dims.width_m * 1e6);
      jw_num(&w, "height_um", dims.height_m * 1e6);
      jw_num(&w, "area_um2", dims.area_m2 * 1e12);
      jw_int(&w, "extra_ports", dims.extra_ports);
      jw_obj_end(&w);
    }
    jw_obj_end(&w);
    jw_finish(&w);
  } else {
    sb_printf(&out, "Cell %s (%s)\n  file: %s\n  source: %s\n", cell.name,
              gpurf_cell_kind_name(cell.kind), cell.path, cell.source[0] ? cell.source : "not given");
    if (cell.kind == GPURF_CELL_STT_MTJ)
      sb_printf(&out, "  %-28s %s\n", "read_mode",
                cell.u.stt.read_mode == GPURF_STT_READ_VOLTAGE ? "voltage" : "current");
    for (size_t i = 0; i < n; i++) sb_printf(&out, "  %-28s %g\n", f[i].key, f[i].v);
    if (node)
      sb_printf(&out, "At %s: %.4g um wide x %.4g um high = %.4g um^2 (%d extra port%s)\n",
                gpurf_tech_name(tech), dims.width_m * 1e6, dims.height_m * 1e6, dims.area_m2 * 1e12,
                dims.extra_ports, dims.extra_ports == 1 ? "" : "s");
  }
  gpurf_tech_free(tech);
  int rc = sb_flush_stdout(&out);
  sb_free(&out);
  return rc;
}
