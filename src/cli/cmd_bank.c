/* gpurf bank: one storage bank (or N identical banks) evaluated by
 * gpurf_bank_eval, printed as text, JSON or CSV. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/bank_cli.h"

/* Beyond these a request is a typo, not an on-chip register file or cache:
 * 64 Kib words, 1 GiB of storage, 4096 banks. */
#define BANK_MAX_WIDTH_BITS 65536LL
#define BANK_MAX_BITS (8LL << 30)
#define BANK_MAX_BANKS 4096LL

static void get_args(const cli_parsed *p, bank_args *o) {
  memset(o, 0, sizeof *o);
  o->fmt = p->fmt;
  o->tech = cli_get(p, "--tech");
  o->cell = cli_get(p, "--cell");
  o->ports = cli_get(p, "--ports");
  o->bytes = cli_get(p, "--bytes");
  o->entries = cli_get(p, "--entries");
  o->width = cli_get(p, "--width");
  o->banks = cli_get(p, "--banks");
  o->opt = cli_get(p, "--opt");
  o->space = cli_get(p, "--space");
  o->device = cli_get(p, "--device");
  o->temp_k = cli_get(p, "--temp-k");
  o->clock_ghz = cli_get(p, "--clock-ghz");
  o->periphery = cli_get(p, "--periphery");
  o->port = cli_get(p, "--port");
  o->gate_groups = cli_get(p, "--gate-groups");
  o->split_write = cli_get(p, "--split-write") != NULL;
  o->band = cli_get(p, "--band") != NULL;
  o->fmt_given = cli_get(p, "--format") != NULL;
  o->batch = cli_get(p, "--batch");
}

/* Checks everything that can be checked without the model, so usage errors
 * (exit 2) are told apart from model errors (exit 1). */
int bank_build_spec(const char *prog, const bank_args *o, gpurf_bank_spec *s, int *ports_given) {
  const char *missing = !o->tech ? "--tech NODE" : !o->cell ? "--cell sram|FILE"
                        : !o->width ? "--width BITS" : NULL;
  if (missing) {
    cli_usage_error(prog, "%s is required", missing);
    return CLI_USAGE;
  }
  if (!o->bytes == !o->entries) {
    cli_usage_error(prog, "give exactly one of --bytes and --entries");
    return CLI_USAGE;
  }
  long long width, banks = 1, entries;
  if (cli_parse_count(prog, "--width", o->width, BANK_MAX_WIDTH_BITS, &width)) return CLI_USAGE;
  if (o->banks && cli_parse_count(prog, "--banks", o->banks, BANK_MAX_BANKS, &banks))
    return CLI_USAGE;
  if (o->bytes) {
    long long bytes;
    if (cli_parse_count(prog, "--bytes", o->bytes, BANK_MAX_BITS / 8, &bytes)) return CLI_USAGE;
    if (bytes * 8 < width) {
      cli_usage_error(prog, "--width %lld is above the capacity of --bytes %lld (%lld bits)", width,
                      bytes, bytes * 8);
      return CLI_USAGE;
    }
    if ((bytes * 8) % width != 0) {
      cli_usage_error(prog, "--bytes %lld is not a whole number of %lld-bit words; use --entries",
                      bytes, width);
      return CLI_USAGE;
    }
    entries = bytes * 8 / width;
  } else {
    if (cli_parse_count(prog, "--entries", o->entries, BANK_MAX_BITS, &entries)) return CLI_USAGE;
    if (entries > BANK_MAX_BITS / width) {
      cli_usage_error(prog, "--entries %lld of %lld bits is more than 1 GiB", entries, width);
      return CLI_USAGE;
    }
  }
  if (entries < banks) {
    cli_usage_error(prog, "%lld words cannot fill %lld banks: each bank needs at least one word",
                    entries, banks);
    return CLI_USAGE;
  }
  gpurf_bank_spec_init(s);
  s->entries = entries;
  s->width_bits = (int)width;
  s->banks = (int)banks;
  s->split_write = o->split_write;
  *ports_given = o->ports != NULL;
  if (o->ports && gpurf_ports_parse(o->ports, &s->ports) != GPURF_OK) {
    cli_usage_error(prog, "--ports must be counts of rw, r and w ports such as 1rw, 1r1w or 3r1w, "
                    "not '%s'", o->ports);
    return CLI_USAGE;
  }
  if (o->opt && gpurf_bank_opt_parse(o->opt, &s->opt) != GPURF_OK) {
    cli_usage_error(prog, "--opt must be ed2, edp, delay, energy, area, leakage or ed2-read, not '%s'",
                    o->opt);
    return CLI_USAGE;
  }
  if (o->device && gpurf_device_kind_parse(o->device, &s->device) != GPURF_OK) {
    cli_usage_error(prog, "--device must be hp, lstp or lop, not '%s'", o->device);
    return CLI_USAGE;
  }
  if (o->gate_groups) {
    long long g;
    if (cli_parse_count(prog, "--gate-groups", o->gate_groups, 64, &g)) return CLI_USAGE;
    if (g & (g - 1)) {
      cli_usage_error(prog, "--gate-groups must be a power of two (1, 2, 4 ... 64), not '%s'",
                      o->gate_groups);
      return CLI_USAGE;
    }
    s->gate_groups = (int)g;
  }
  /* The parser has checked both against their two names on the command
   * line; a --batch row's cells come here unchecked. */
  if (o->periphery && strcmp(o->periphery, "long-channel") && strcmp(o->periphery, "nominal")) {
    cli_usage_error(prog, "--periphery must be long-channel or nominal, not '%s'", o->periphery);
    return CLI_USAGE;
  }
  if (o->space && gpurf_bank_space_parse(o->space, &s->space) != GPURF_OK) {
    cli_usage_error(prog, "--space must be own or cacti, not '%s'", o->space);
    return CLI_USAGE;
  }
  if (o->port && strcmp(o->port, "point") && strcmp(o->port, "edge")) {
    cli_usage_error(prog, "--port must be point or edge, not '%s'", o->port);
    return CLI_USAGE;
  }
  s->long_channel_periphery = !(o->periphery && strcmp(o->periphery, "nominal") == 0);
  s->port_along_edge = o->port && strcmp(o->port, "edge") == 0;
  if (o->temp_k) {
    if (cli_parse_double(prog, "--temp-k", o->temp_k, &s->temp_k)) return CLI_USAGE;
    if (!(s->temp_k > 0.0)) {
      cli_usage_error(prog, "--temp-k must be above 0 K, not '%s'", o->temp_k);
      return CLI_USAGE;
    }
  }
  if (o->clock_ghz) {
    double ghz;
    if (cli_parse_double(prog, "--clock-ghz", o->clock_ghz, &ghz)) return CLI_USAGE;
    if (!(ghz > 0.0 && ghz <= 1000.0)) {
      cli_usage_error(prog, "--clock-ghz must be above 0 and at most 1000, not '%s'",
                      o->clock_ghz);
      return CLI_USAGE;
    }
    s->clock_hz = ghz * 1e9;
  }
  return CLI_OK;
}

/* Headline quantities: JSON key (SI value scaled to the unit in the key),
 * text label and unit. */
typedef struct metric {
  const char *key, *label, *unit;
  double v;
} metric;

static void headline(const gpurf_bank_cost *c, metric per_access[5], metric all_banks[4]) {
  per_access[0] = (metric){"access_time_ns", "access time (read)", "ns", c->access_time_s * 1e9};
  per_access[1] = (metric){"cycle_time_ns", "cycle time", "ns", c->cycle_time_s * 1e9};
  per_access[2] = (metric){"write_latency_ns", "write latency", "ns", c->write_latency_s * 1e9};
  per_access[3] = (metric){"read_energy_pj", "read energy", "pJ", c->read_energy_j * 1e12};
  per_access[4] = (metric){"write_energy_pj", "write energy", "pJ", c->write_energy_j * 1e12};
  all_banks[0] = (metric){"area_mm2", "area", "mm^2", c->area_m2 * 1e6};
  all_banks[1] = (metric){"leakage_mw", "leakage", "mW",
                          (c->leakage_sub_w + c->leakage_gate_w) * 1e3};
  all_banks[2] = (metric){"leakage_sub_mw", "  subthreshold", "mW", c->leakage_sub_w * 1e3};
  all_banks[3] = (metric){"leakage_gate_mw", "  gate", "mW", c->leakage_gate_w * 1e3};
}

/* Breakdown tables: JSON key, per-part array, scale to the key's unit. */
typedef struct part_table {
  const char *key, *head;
  const double *v;
  double scale;
} part_table;

static void part_tables(const gpurf_bank_cost *c, part_table t[5]) {
  t[0] = (part_table){"area_mm2", "area mm^2", c->area_part_m2, 1e6};
  t[1] = (part_table){"read_energy_pj", "read pJ", c->read_part_j, 1e12};
  t[2] = (part_table){"write_energy_pj", "write pJ", c->write_part_j, 1e12};
  t[3] = (part_table){"delay_ns", "delay ns", c->delay_part_s, 1e9};
  t[4] = (part_table){"leakage_mw", "leakage mW", c->leakage_part_w, 1e3};
}

/* The band's metrics as printed: JSON key, label, unit and scale from SI,
 * in gpurf_bank_metric order. */
static const struct {
  const char *key, *label, *unit;
  double scale;
} band_metric[GPURF_BANK_METRIC_COUNT] = {
    {"access_time_ns", "access time (read)", "ns", 1e9},
    {"cycle_time_ns", "cycle time", "ns", 1e9},
    {"write_latency_ns", "write latency", "ns", 1e9},
    {"read_energy_pj", "read energy", "pJ", 1e12},
    {"write_energy_pj", "write energy", "pJ", 1e12},
    {"area_mm2", "area", "mm^2", 1e6},
    {"leakage_mw", "leakage", "mW", 1e3}};

static void band_json(jw *w, const gpurf_bank_band *b) {
  char key[64];
  for (int m = 0; m < GPURF_BANK_METRIC_COUNT; m++) {
    snprintf(key, sizeof key, "%s_band", band_metric[m].key);
    jw_arr_begin(w, key);
    jw_num(w, NULL, b->low[m] * band_metric[m].scale);
    jw_num(w, NULL, b->high[m] * band_metric[m].scale);
    jw_arr_end(w);
  }
  jw_obj_begin(w, "band_references");
  for (int k = 0; k < GPURF_BANK_REF_COUNT; k++) {
    jw_obj_begin(w, gpurf_bank_ref_class_name((gpurf_bank_ref_class)k));
    for (int m = 0; m < GPURF_BANK_METRIC_COUNT; m++)
      if (!isnan(b->value[k][m])) jw_num(w, band_metric[m].key, b->value[k][m] * band_metric[m].scale);
    jw_obj_end(w);
  }
  jw_obj_end(w);
}

static void band_text(sbuf *out, const gpurf_bank_band *b) {
  sb_printf(out, "\nReference band (CACTI class = this model; NVSim class: nominal periphery,\n"
                 "no write/output drivers, a one-mat data path free; compiler class: scaled\n"
                 "from a published compiled bank)\n");
  sb_printf(out, "  %-24s %12s %12s %12s %12s %12s\n", "", "low", "high", "cacti", "nvsim",
            "compiler");
  for (int m = 0; m < GPURF_BANK_METRIC_COUNT; m++) {
    char label[48];
    snprintf(label, sizeof label, "%s (%s)", band_metric[m].label, band_metric[m].unit);
    sb_printf(out, "  %-24s %12.5g %12.5g", label, b->low[m] * band_metric[m].scale,
              b->high[m] * band_metric[m].scale);
    for (int k = 0; k < GPURF_BANK_REF_COUNT; k++) {
      if (isnan(b->value[k][m]))
        sb_printf(out, " %12s", "-");
      else
        sb_printf(out, " %12.5g", b->value[k][m] * band_metric[m].scale);
    }
    sb_printf(out, "\n");
  }
}

void bank_cell_ports(gpurf_bank_spec *spec, const gpurf_cell *cell, int is_sram, int ports_given) {
  if (!is_sram && !ports_given && cell->kind == GPURF_CELL_SRAM)
    spec->ports = (gpurf_ports){cell->u.sram.rw_ports, cell->u.sram.read_ports,
                                cell->u.sram.write_ports};
  /* A flop has a separate data input and output: one read and one write
   * port unless told otherwise. */
  if (!ports_given && (cell->kind == GPURF_CELL_DFF || cell->kind == GPURF_CELL_LATCH))
    spec->ports = (gpurf_ports){0, 1, 1};
}

void bank_print_json(sbuf *out, const bank_view *b, long line) {
  const gpurf_bank_spec *s = b->spec;
  const gpurf_bank_cost *c = b->cost;
  metric pa[5], ab[4];
  part_table t[5];
  headline(c, pa, ab);
  part_tables(c, t);
  jw w;
  jw_init(&w, out);
  jw_obj_begin(&w, NULL);
  if (line > 0) jw_int(&w, "line", line);
  jw_str(&w, "tech", gpurf_tech_name(b->tech));
  jw_str(&w, "device", gpurf_device_kind_name(s->device));
  jw_str(&w, "cell", b->cell->name);
  jw_str(&w, "ports", b->ports);
  jw_int(&w, "banks", s->banks);
  jw_int(&w, "width_bits", s->width_bits);
  jw_int(&w, "entries", s->entries);
  jw_str(&w, "opt", gpurf_bank_opt_name(s->opt));
  /* Only when searched in CACTI's space, so the default's record keeps its keys. */
  if (s->space != GPURF_BANK_SPACE_OWN) jw_str(&w, "space", gpurf_bank_space_name(s->space));
  jw_num(&w, "temp_k", s->temp_k);
  jw_bool(&w, "split_write", s->split_write);
  jw_str(&w, "periphery", s->long_channel_periphery ? "long-channel" : "nominal");
  jw_str(&w, "port", s->port_along_edge ? "edge" : "point");
  jw_int(&w, "gate_groups", s->gate_groups);
  jw_str(&w, "overlap", gpurf_bank_overlap_name(c->overlap));
  if (s->clock_hz > 0) jw_num(&w, "clock_ghz", s->clock_hz * 1e-9);
  for (int i = 0; i < 5; i++) jw_num(&w, pa[i].key, pa[i].v);
  if (s->clock_hz > 0) {
    jw_int(&w, "read_cycles", c->read_cycles);
    jw_int(&w, "write_cycles", c->write_cycles);
  }
  for (int i = 0; i < 4; i++) jw_num(&w, ab[i].key, ab[i].v);
  if (b->band) band_json(&w, b->band);
  if (c->gate_groups > 0) {
    jw_obj_begin(&w, "power_gating");
    jw_int(&w, "groups_per_bank", c->gate_groups);
    jw_num(&w, "gated_leakage_fraction", c->gated_leakage_fraction);
    jw_num(&w, "wake_energy_pj", c->wake_energy_j * 1e12);
    jw_num(&w, "wake_latency_ns", c->wake_latency_s * 1e9);
    if (s->clock_hz > 0) jw_int(&w, "wake_cycles", c->wake_cycles);
    jw_obj_end(&w);
  }
  jw_obj_begin(&w, "organization");
  jw_int(&w, "rows", c->org.rows);
  jw_int(&w, "cols", c->org.cols);
  jw_int(&w, "col_mux", c->org.col_mux);
  jw_int(&w, "ndwl", c->org.ndwl);
  jw_int(&w, "ndbl", c->org.ndbl);
  jw_int(&w, "entries_per_bank", c->org.entries_per_bank);
  jw_int(&w, "padding_bits", c->org.padding_bits);
  jw_obj_end(&w);
  jw_int(&w, "search_candidates", c->candidates);
  jw_int(&w, "search_rejected", c->rejected);
  jw_obj_begin(&w, "breakdown");
  for (int k = 0; k < 5; k++) {
    jw_obj_begin(&w, t[k].key);
    for (int p = 0; p < GPURF_BANK_PART_COUNT; p++)
      jw_num(&w, gpurf_bank_part_name((gpurf_bank_part)p), t[k].v[p] * t[k].scale);
    jw_obj_end(&w);
  }
  jw_obj_end(&w);
  jw_obj_end(&w);
  jw_finish(&w);
}

static void print_text(sbuf *out, const bank_view *b) {
  const gpurf_bank_spec *s = b->spec;
  const gpurf_bank_cost *c = b->cost;
  metric pa[5], ab[4];
  part_table t[5];
  headline(c, pa, ab);
  part_tables(c, t);
  sb_printf(out, "Bank: %s %s, cell %s, ports %s, objective %s%s, %g K\n", gpurf_tech_name(b->tech),
            gpurf_device_kind_name(s->device), b->cell->name, b->ports, gpurf_bank_opt_name(s->opt),
            s->space == GPURF_BANK_SPACE_CACTI ? " in CACTI's organisations" : "", s->temp_k);
  sb_printf(out, "Capacity: %lld words x %d bits in %d bank%s (%lld words per bank)\n", s->entries,
            s->width_bits, s->banks, s->banks == 1 ? "" : "s", c->org.entries_per_bank);
  if (s->clock_hz > 0) sb_printf(out, "Clock: %g GHz\n", s->clock_hz * 1e-9);
  if (!s->long_channel_periphery || s->port_along_edge)
    sb_printf(out, "Periphery devices: %s; data port: %s\n",
              s->long_channel_periphery ? "long-channel" : "nominal (minimum length)",
              s->port_along_edge ? "along the bottom edge, each bit below its column"
                                 : "middle of the bottom edge");
  sb_printf(out, "Overlapping accesses: %s%s\n", gpurf_bank_overlap_name(c->overlap),
            c->overlap == GPURF_BANK_OVERLAP_SPLIT ? " (split write)"
            : c->overlap == GPURF_BANK_OVERLAP_PORTS ? " (on different ports)"
                                                : " (one access at a time)");
  sb_printf(out, "\nPer access of one bank (one %d-bit word)\n", s->width_bits);
  for (int i = 0; i < 5; i++) {
    sb_printf(out, "  %-24s %12.5g %s", pa[i].label, pa[i].v, pa[i].unit);
    int cycles = i == 0 ? c->read_cycles : i == 2 ? c->write_cycles : 0;
    if (s->clock_hz > 0 && (i == 0 || i == 2))
      sb_printf(out, " (%d cycle%s)", cycles, cycles == 1 ? "" : "s");
    sb_printf(out, "\n");
  }
  if (s->banks == 1)
    sb_printf(out, "\nThe bank as a whole\n");
  else
    sb_printf(out, "\nAll %d banks together\n", s->banks);
  for (int i = 0; i < 4; i++)
    sb_printf(out, "  %-24s %12.5g %s\n", ab[i].label, ab[i].v, ab[i].unit);
  if (b->band) band_text(out, b->band);
  if (c->gate_groups > 0) {
    sb_printf(out, "\nPower gating: %d group%s of sub-arrays per bank, a sleep transistor each\n",
              c->gate_groups, c->gate_groups == 1 ? "" : "s");
    sb_printf(out, "  %-24s %12.5g of its share (bank leakage / %d)\n", "gated group leaks",
              c->gated_leakage_fraction, c->gate_groups);
    sb_printf(out, "  %-24s %12.5g pJ\n", "wake-up energy", c->wake_energy_j * 1e12);
    sb_printf(out, "  %-24s %12.5g ns", "wake-up latency", c->wake_latency_s * 1e9);
    if (s->clock_hz > 0)
      sb_printf(out, " (%d cycle%s)", c->wake_cycles, c->wake_cycles == 1 ? "" : "s");
    sb_printf(out, "\n");
  }
  sb_printf(out, "\nOrganisation of each bank (%lld organisations searched", c->candidates);
  if (c->rejected > 0) sb_printf(out, ", %lld rejected", c->rejected);
  sb_printf(out, ")\n");
  sb_printf(out, "  sub-array                %d rows x %d columns, column mux %d:1\n", c->org.rows,
            c->org.cols, c->org.col_mux);
  sb_printf(out, "  sub-arrays               %d along the wordline (ndwl) x %d along the bitline "
            "(ndbl)\n", c->org.ndwl, c->org.ndbl);
  sb_printf(out, "  padding                  %lld cells beyond the capacity\n",
            c->org.padding_bits);
  sb_printf(out, "\nBreakdown (area and leakage: all banks; energy and delay: one access)\n");
  sb_printf(out, "  %-14s", "part");
  for (int k = 0; k < 5; k++) sb_printf(out, " %12s", t[k].head);
  sb_printf(out, "\n");
  for (int p = 0; p < GPURF_BANK_PART_COUNT; p++) {
    sb_printf(out, "  %-14s", gpurf_bank_part_name((gpurf_bank_part)p));
    for (int k = 0; k < 5; k++) sb_printf(out, " %12.5g", t[k].v[p] * t[k].scale);
    sb_printf(out, "\n");
  }
}

void bank_print_csv_header(sbuf *out, int band) {
  static const gpurf_bank_cost none;
  metric pa[5], ab[4];
  part_table t[5];
  headline(&none, pa, ab);
  part_tables(&none, t);
  sb_printf(out, "tech,device,cell,ports,banks,width_bits,entries,opt,temp_k,clock_ghz");
  for (int i = 0; i < 5; i++) sb_printf(out, ",%s", pa[i].key);
  sb_printf(out, ",read_cycles,write_cycles");
  for (int i = 0; i < 4; i++) sb_printf(out, ",%s", ab[i].key);
  sb_printf(out, ",rows,cols,col_mux,ndwl,ndbl,entries_per_bank,padding_bits,search_candidates");
  sb_printf(out, ",search_rejected,split_write,overlap,periphery,port,gate_groups,"
                 "gated_leakage_fraction,wake_energy_pj,wake_latency_ns,wake_cycles");
  for (int k = 0; k < 5; k++)
    for (int p = 0; p < GPURF_BANK_PART_COUNT; p++)
      sb_printf(out, ",%s_%s", t[k].key, gpurf_bank_part_name((gpurf_bank_part)p));
  if (band)
    for (int m = 0; m < GPURF_BANK_METRIC_COUNT; m++)
      sb_printf(out, ",%s_band_low,%s_band_high", band_metric[m].key, band_metric[m].key);
  sb_printf(out, "\n");
}

void bank_print_csv_row(sbuf *out, const bank_view *b) {
  const gpurf_bank_spec *s = b->spec;
  const gpurf_bank_cost *c = b->cost;
  metric pa[5], ab[4];
  part_table t[5];
  headline(c, pa, ab);
  part_tables(c, t);
  /* Names are quoted: a cell file may carry any name. */
  sb_printf(out, "\"%s\",%s,\"%s\",%s,%d,%d,%lld,%s,%.8g,%.8g", gpurf_tech_name(b->tech),
            gpurf_device_kind_name(s->device), b->cell->name, b->ports, s->banks, s->width_bits,
            s->entries, gpurf_bank_opt_name(s->opt), s->temp_k, s->clock_hz * 1e-9);
  for (int i = 0; i < 5; i++) sb_printf(out, ",%.8g", pa[i].v);
  sb_printf(out, ",%d,%d", c->read_cycles, c->write_cycles);
  for (int i = 0; i < 4; i++) sb_printf(out, ",%.8g", ab[i].v);
  sb_printf(out, ",%d,%d,%d,%d,%d,%lld,%lld,%lld", c->org.rows, c->org.cols, c->org.col_mux,
            c->org.ndwl, c->org.ndbl, c->org.entries_per_bank, c->org.padding_bits,
            c->candidates);
  sb_printf(out, ",%lld,%d,%s,%s,%s", c->rejected, s->split_write, gpurf_bank_overlap_name(c->overlap),
            s->long_channel_periphery ? "long-channel" : "nominal",
            s->port_along_edge ? "edge" : "point");
  sb_printf(out, ",%d,%.8g,%.8g,%.8g,%d", c->gate_groups, c->gated_leakage_fraction,
            c->wake_energy_j * 1e12, c->wake_latency_s * 1e9, c->wake_cycles);
  for (int k = 0; k < 5; k++)
    for (int p = 0; p < GPURF_BANK_PART_COUNT; p++) sb_printf(out, ",%.8g", t[k].v[p] * t[k].scale);
  if (b->band)
    for (int m = 0; m < GPURF_BANK_METRIC_COUNT; m++)
      sb_printf(out, ",%.8g,%.8g", b->band->low[m] * band_metric[m].scale,
                b->band->high[m] * band_metric[m].scale);
  sb_printf(out, "\n");
}

int cmd_bank(gpurf_ctx *ctx, const cli_parsed *p) {
  bank_args o;
  get_args(p, &o);
  const char *inputs[] = {o.tech, o.cell, o.batch};
  if (cli_stdin_once(p->prog, inputs, 3) != CLI_OK) return CLI_USAGE;
  if (o.batch) return bank_batch(ctx, p->prog, &o);
  gpurf_bank_spec spec;
  int ports_given = 0;
  int rc = bank_build_spec(p->prog, &o, &spec, &ports_given);
  if (rc != CLI_OK) return rc;
  gpurf_tech *tech = cli_tech_load(ctx, o.tech);
  gpurf_cell cell;
  int is_sram = strcmp(o.cell, "sram") == 0;
  if (!tech ||
      gpurf_cell_load(ctx, is_sram ? cli_sram_cell_for(&spec.ports) : o.cell, &cell) != GPURF_OK) {
    cli_print_error(ctx);
    gpurf_tech_free(tech);
    return CLI_FAIL;
  }
  bank_cell_ports(&spec, &cell, is_sram, ports_given);
  spec.tech = tech;
  spec.cell = &cell;
  gpurf_bank_cost cost;
  if (gpurf_bank_eval(ctx, &spec, &cost) != GPURF_OK) {
    cli_print_error(ctx);
    gpurf_tech_free(tech);
    return CLI_FAIL;
  }
  gpurf_bank_band band;
  if (o.band && gpurf_bank_band_eval(ctx, &spec, &cost, &band) != GPURF_OK) {
    cli_print_error(ctx);
    gpurf_tech_free(tech);
    return CLI_FAIL;
  }
  bank_view view = {&spec, tech, &cell, &cost, o.band ? &band : NULL, {0}};
  gpurf_ports_format(&spec.ports, view.ports, sizeof view.ports);
  sbuf out;
  sb_init(&out);
  if (o.fmt == FMT_JSON) {
    bank_print_json(&out, &view, 0);
  } else if (o.fmt == FMT_CSV) {
    bank_print_csv_header(&out, view.band != NULL);
    bank_print_csv_row(&out, &view);
  } else {
    print_text(&out, &view);
  }
  gpurf_tech_free(tech);
  rc = sb_flush_stdout(&out);
  sb_free(&out);
  return rc;
}
