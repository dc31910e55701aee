/* gpurf tech list | show */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

int cmd_tech_list(gpurf_ctx *ctx, const cli_parsed *p) {
  out_format fmt = p->fmt;
  enum { MAX_NODES = 64 };
  gpurf_tech_entry *entries = malloc(MAX_NODES * sizeof *entries);
  size_t n = 0;
  if (!entries) {
    fprintf(stderr, "gpurf tech list: out of memory\n");
    return CLI_FAIL;
  }
  if (gpurf_tech_list(ctx, entries, MAX_NODES, &n) != GPURF_OK) {
    cli_print_error(ctx);
    free(entries);
    return CLI_FAIL;
  }
  if (n > MAX_NODES) n = MAX_NODES;
  sbuf out;
  sb_init(&out);
  if (fmt == FMT_JSON) {
    jw w;
    jw_init(&w, &out);
    jw_obj_begin(&w, NULL);
    jw_arr_begin(&w, "nodes");
    for (size_t i = 0; i < n; i++) {
      jw_obj_begin(&w, NULL);
      jw_str(&w, "name", entries[i].name);
      jw_num(&w, "feature_size_nm", entries[i].feature_size_m * 1e9);
      jw_str(&w, "path", entries[i].path);
      jw_obj_end(&w);
    }
    jw_arr_end(&w);
    jw_obj_end(&w);
    jw_finish(&w);
  } else {
    sb_printf(&out, "%-8s %-18s %s\n", "node", "feature size", "file");
    for (size_t i = 0; i < n; i++)
      sb_printf(&out, "%-8s %8.4g nm        %s\n", entries[i].name,
                entries[i].feature_size_m * 1e9, entries[i].path);
    if (n >= 2)
      sb_printf(&out, "Nodes between %g and %g nm are interpolated.\n",
                entries[0].feature_size_m * 1e9, entries[n - 1].feature_size_m * 1e9);
  }
  free(entries);
  int rc = sb_flush_stdout(&out);
  sb_free(&out);
  return rc;
}

typedef struct row {
  const char *key;  /* JSON/YAML key with its SI unit */
  const char *label;
  double value_si;
  double scale;     /* text output: value_si * scale in `unit` */
  const char *unit;
} row;

static void text_rows(sbuf *o, const row *r, size_t n) {
  for (size_t i = 0; i < n; i++)
    sb_printf(o, "  %-34s %12.5g %s\n", r[i].label, r[i].value_si * r[i].scale, r[i].unit);
}

static void json_rows(jw *w, const row *r, size_t n) {
  for (size_t i = 0; i < n; i++) jw_num(w, r[i].key, r[i].value_si);
}

static size_t device_rows(const gpurf_device *d, row *r) {
  size_t n = 0;
#define R(p, l, s, u)                                                                      \
  r[n++] = (row){gpurf_tech_device_param_key(GPURF_DEVICE_##p), l,                                \
                 gpurf_tech_device_value(d, GPURF_DEVICE_##p), s, u}
  R(VDD_V, "supply voltage", 1, "V");
  R(VTH_V, "threshold voltage", 1, "V");
  R(VDSAT_V, "saturation voltage", 1, "V");
  R(L_PHY_M, "physical gate length", 1e9, "nm");
  R(L_ELEC_M, "electrical gate length", 1e9, "nm");
  R(T_OX_M, "oxide thickness", 1e9, "nm");
  R(C_OX_F_PER_M2, "oxide capacitance", 1e3, "fF/um^2");
  R(MOBILITY_N_M2_PER_V_S, "electron mobility", 1e4, "cm^2/(V s)");
  R(C_GATE_F_PER_M, "gate capacitance", 1e9, "fF/um");
  R(C_FRINGE_F_PER_M, "fringe capacitance", 1e9, "fF/um");
  R(C_OVERLAP_F_PER_M, "overlap capacitance", 1e9, "fF/um");
  R(C_JUNCTION_F_PER_M2, "junction capacitance", 1e3, "fF/um^2");
  R(C_JUNCTION_SIDEWALL_F_PER_M, "junction sidewall capacitance", 1e9, "fF/um");
  R(I_ON_N_A_PER_M, "NMOS on-current", 1, "uA/um");
  R(I_ON_P_A_PER_M, "PMOS on-current", 1, "uA/um");
  R(R_EFF_N_FACTOR, "NMOS effective resistance factor", 1, "");
  R(N_TO_P_DRIVE_RATIO, "N to P drive ratio", 1, "");
  R(GM_P_TO_N_RATIO, "gm P to N ratio", 1, "");
  R(LONG_CHANNEL_LEAKAGE_FACTOR, "long-channel leakage factor", 1, "");
#undef R
  return n;
}

static size_t derived_rows(const gpurf_tech_derived *x, row *r) {
  size_t n = 0;
  r[n++] = (row){"fo4_delay_s", "FO4 delay", x->fo4_delay_s, 1e12, "ps"};
  r[n++] = (row){"r_on_n_ohm_m", "NMOS on-resistance x width", x->r_on_n_ohm_m, 1e6, "ohm um"};
  r[n++] = (row){"r_on_p_ohm_m", "PMOS on-resistance x width", x->r_on_p_ohm_m, 1e6, "ohm um"};
  r[n++] = (row){"c_input_f_per_m", "gate input capacitance", x->c_input_f_per_m, 1e9, "fF/um"};
  r[n++] = (row){"c_drain_f_per_m", "drain capacitance", x->c_drain_f_per_m, 1e9, "fF/um"};
  r[n++] = (row){"i_off_n_a_per_m", "NMOS off-current", x->leakage.i_off_n_a_per_m, 1e3, "nA/um"};
  r[n++] = (row){"i_off_p_a_per_m", "PMOS off-current", x->leakage.i_off_p_a_per_m, 1e3, "nA/um"};
  r[n++] = (row){"i_gate_a_per_m", "gate leakage", x->leakage.i_gate_a_per_m, 1e3, "nA/um"};
  return n;
}

int cmd_tech_show(gpurf_ctx *ctx, const cli_parsed *p) {
  out_format fmt = p->fmt;
  const char *node = p->pos[0], *device = cli_get(p, "--device");
  gpurf_device_kind dev = GPURF_DEVICE_HP;
  double temp_k = GPURF_DEFAULT_TEMP_K;
  if (cli_env_opts(p->prog, device, cli_get(p, "--temp-k"), &dev, &temp_k)) return CLI_USAGE;
  int only = device ? (int)dev : -1;
  gpurf_tech *tech = NULL;
  if (gpurf_tech_alloc(ctx, &tech) != GPURF_OK || gpurf_tech_load(ctx, node, tech) != GPURF_OK) {
    cli_print_error(ctx);
    gpurf_tech_free(tech);
    return CLI_FAIL;
  }
  gpurf_tech_derived der[GPURF_DEVICE_COUNT];
  for (int k = 0; k < GPURF_DEVICE_COUNT; k++) {
    if (only >= 0 && k != only) continue;
    if (gpurf_circuit_derive(ctx, tech, (gpurf_device_kind)k, temp_k, &der[k]) != GPURF_OK) {
      cli_print_error(ctx);
      gpurf_tech_free(tech);
      return CLI_FAIL;
    }
  }
  const char *from[2];
  int interpolated = gpurf_tech_interpolated(tech, &from[0], &from[1]);
  const char *layout_src = gpurf_tech_source(tech, GPURF_TECH_LAYOUT);
  const char *sense_src = gpurf_tech_source(tech, GPURF_TECH_SENSE_AMP);
  double contact_m = gpurf_tech_value(tech, GPURF_TECH_CONTACT_WIDTH_M);
  double poly_contact_m = gpurf_tech_value(tech, GPURF_TECH_POLY_TO_CONTACT_M);
  double poly_poly_m = gpurf_tech_value(tech, GPURF_TECH_POLY_TO_POLY_M);
  double sa_delay_s = gpurf_tech_value(tech, GPURF_TECH_SENSE_AMP_DELAY_S);
  double sa_energy_j = gpurf_tech_value(tech, GPURF_TECH_SENSE_AMP_ENERGY_J);
  sbuf out;
  sb_init(&out);
  row rows[32];
  if (fmt == FMT_JSON) {
    jw w;
    jw_init(&w, &out);
    jw_obj_begin(&w, NULL);
    jw_str(&w, "name", gpurf_tech_name(tech));
    jw_num(&w, "feature_size_m", gpurf_tech_value(tech, GPURF_TECH_FEATURE_SIZE_M));
    jw_bool(&w, "interpolated", interpolated);
    if (interpolated) {
      jw_arr_begin(&w, "interpolated_between");
      jw_str(&w, NULL, from[0]);
      jw_str(&w, NULL, from[1]);
      jw_arr_end(&w);
    } else {
      jw_str(&w, "path", gpurf_tech_path(tech));
    }
    jw_num(&w, "temp_k", temp_k);
    jw_obj_begin(&w, "devices");
    for (int k = 0; k < GPURF_DEVICE_COUNT; k++) {
      if (only >= 0 && k != only) continue;
      const gpurf_device *d = gpurf_tech_device(tech, (gpurf_device_kind)k);
      jw_obj_begin(&w, gpurf_device_kind_name((gpurf_device_kind)k));
      jw_str(&w, "source", gpurf_tech_device_source(d));
      json_rows(&w, rows, device_rows(d, rows));
      jw_arr_begin(&w, "leakage");
      for (size_t i = 0; i < gpurf_tech_device_leakage_rows(d); i++) {
        gpurf_leakage l;
        gpurf_tech_device_leakage_row(d, i, &l);
        jw_obj_begin(&w, NULL);
        jw_num(&w, "temp_k", l.temp_k);
        jw_num(&w, "i_off_n_a_per_m", l.i_off_n_a_per_m);
        jw_num(&w, "i_off_p_a_per_m", l.i_off_p_a_per_m);
        jw_num(&w, "i_gate_a_per_m", l.i_gate_a_per_m);
        jw_obj_end(&w);
      }
      jw_arr_end(&w);
      jw_obj_begin(&w, "derived");
      json_rows(&w, rows, derived_rows(&der[k], rows));
      jw_obj_end(&w);
      jw_obj_end(&w);
    }
    jw_obj_end(&w);
    jw_obj_begin(&w, "wires");
    jw_str(&w, "source", gpurf_tech_source(tech, GPURF_TECH_WIRES));
    for (int l = 0; l < GPURF_WIRE_COUNT; l++) {
      gpurf_wire_kind wk = (gpurf_wire_kind)l;
      jw_obj_begin(&w, gpurf_wire_kind_name(wk));
      jw_num(&w, "pitch_m", gpurf_tech_wire_value(tech, wk, GPURF_WIRE_PITCH_M));
      jw_num(&w, "r_ohm_per_m", gpurf_tech_wire_value(tech, wk, GPURF_WIRE_R_OHM_PER_M));
      jw_num(&w, "c_f_per_m", gpurf_tech_wire_value(tech, wk, GPURF_WIRE_C_F_PER_M));
      int first = only >= 0 ? only : 0;
      jw_num(&w, "rc_delay_1mm_s", der[first].wire_rc_delay_1mm_s[l]);
      jw_obj_end(&w);
    }
    jw_obj_end(&w);
    jw_obj_begin(&w, "layout");
    jw_str(&w, "source", layout_src);
    jw_num(&w, "contact_width_m", contact_m);
    jw_num(&w, "poly_to_contact_m", poly_contact_m);
    jw_num(&w, "poly_to_poly_m", poly_poly_m);
    jw_obj_end(&w);
    jw_obj_begin(&w, "sense_amp");
    jw_str(&w, "source", sense_src);
    jw_num(&w, "delay_s", sa_delay_s);
    jw_num(&w, "energy_j", sa_energy_j);
    jw_obj_end(&w);
    jw_obj_end(&w);
    jw_finish(&w);
  } else {
    sb_printf(&out, "Technology %s: feature size %g nm\n", gpurf_tech_name(tech),
              gpurf_tech_value(tech, GPURF_TECH_FEATURE_SIZE_M) * 1e9);
    if (interpolated)
      sb_printf(&out, "Interpolated between %s and %s (no file for this node)\n", from[0],
                from[1]);
    else
      sb_printf(&out, "File: %s\n", gpurf_tech_path(tech));
    for (int k = 0; k < GPURF_DEVICE_COUNT; k++) {
      if (only >= 0 && k != only) continue;
      const gpurf_device *d = gpurf_tech_device(tech, (gpurf_device_kind)k);
      sb_printf(&out, "\nDevice %s\n  source: %s\n", gpurf_device_kind_name((gpurf_device_kind)k),
                gpurf_tech_device_source(d));
      text_rows(&out, rows, device_rows(d, rows));
      sb_printf(&out, "  derived at %g K:\n", temp_k);
      text_rows(&out, rows, derived_rows(&der[k], rows));
    }
    sb_printf(&out, "\nWires\n  source: %s\n", gpurf_tech_source(tech, GPURF_TECH_WIRES));
    sb_printf(&out, "  %-12s %10s %14s %14s %16s\n", "layer", "pitch nm", "R ohm/mm",
              "C fF/mm", "RC delay 1mm ps");
    int first = only >= 0 ? only : 0;
    for (int l = 0; l < GPURF_WIRE_COUNT; l++) {
      gpurf_wire_kind wk = (gpurf_wire_kind)l;
      sb_printf(&out, "  %-12s %10.4g %14.5g %14.5g %16.4g\n", gpurf_wire_kind_name(wk),
                gpurf_tech_wire_value(tech, wk, GPURF_WIRE_PITCH_M) * 1e9,
                gpurf_tech_wire_value(tech, wk, GPURF_WIRE_R_OHM_PER_M) * 1e-3,
                gpurf_tech_wire_value(tech, wk, GPURF_WIRE_C_F_PER_M) * 1e12,
                der[first].wire_rc_delay_1mm_s[l] * 1e12);
    }
    sb_printf(&out, "\nLayout rules\n  source: %s\n", layout_src);
    sb_printf(&out, "  %-34s %12.5g nm\n", "contact width", contact_m * 1e9);
    sb_printf(&out, "  %-34s %12.5g nm\n", "poly to contact", poly_contact_m * 1e9);
    sb_printf(&out, "  %-34s %12.5g nm\n", "poly to poly", poly_poly_m * 1e9);
    sb_printf(&out, "\nSense amplifier\n  source: %s\n", sense_src);
    sb_printf(&out, "  %-34s %12.5g ps\n", "delay", sa_delay_s * 1e12);
    sb_printf(&out, "  %-34s %12.5g fJ\n", "energy", sa_energy_j * 1e15);
  }
  gpurf_tech_free(tech);
  int rc = sb_flush_stdout(&out);
  sb_free(&out);
  return rc;
}
