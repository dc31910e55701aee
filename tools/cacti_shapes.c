/* Organisation agreement with CACTI 7: for every row of
 * validation/cacti7.tsv, the bank our search picks and the least-ED^2
 * organisation of CACTI's own sub-array shape (subarray_rows_x_cols), each
 * as ours / CACTI's per figure, and how many rows pick CACTI's shape.
 * Usage: cacti_shapes [SOURCE_DIR] [--parts]  (not run by ctest;
 * test_bank_cycle holds the figures at CACTI's shapes to the set's row
 * bounds). --parts adds each organisation's read and write energy and
 * access time by part, to see which part decides between two shapes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "component/bank_internal.h"
#include "gpurf/gpurf.h"

enum { C_CONFIG, C_NODE, C_PORTS, C_BYTES, C_WIDTH, C_BANKS, C_ACCESS, C_CYCLE, C_READ, C_WRITE,
       C_AREA, C_SHAPE, C_COUNT };
static const char *const col_name[C_COUNT] = {
    "config", "node_nm", "ports", "bytes", "width_bits", "banks", "access_ns", "cycle_ns",
    "read_pj", "write_pj", "area_mm2", "subarray_rows_x_cols"};

static int fail(gpurf_ctx *ctx) {
  char line[1024];
  gpurf_error_format(gpurf_ctx_error(ctx), line, sizeof line);
  fprintf(stderr, "cacti_shapes: %s\n", line);
  return 1;
}

/* Our best organisation with CACTI's sub-array shape rows x cols: 1, 0
 * if there is none, -1 on an error. */
static int cost_at_shape(gpurf_ctx *ctx, const gpurf_bank_spec *s, int rows, int cols,
                         gpurf_bank_cost *out, subarray_cost *sa) {
  bank_in in;
  int found = 0;
  if (bank_in_init(ctx, s, &in) != GPURF_OK) return -1;
  in.subarray_eval = sram_subarray_eval;
  if (sram_bank_best_of_shape(ctx, &in, rows, cols, out, &found) != GPURF_OK) return -1;
  if (found && sram_subarray_eval(&in, &out->org, sa) != GPURF_OK) return -1;
  return found;
}

/* The stages of the shape's access and cycle, in ps. */
static void print_stages(const gpurf_bank_cost *c, const subarray_cost *sa) {
  const double ps = 1e12;
  printf("         stages ps: decode %.1f (row gate %.1f) wordline %.1f (ramp %.1f) bitline %.1f "
         "sense %.1f routing %.1f | wl reset %.1f precharge drv %.1f bl restore %.1f | "
         "access %.1f cycle %.1f\n",
         sa->t_decode_s * ps, sa->t_row_gate_s * ps, sa->t_wordline_s * ps,
         sa->wordline_ramp_s * ps, sa->t_bitline_s * ps, sa->t_sense_s * ps,
         c->delay_part_s[GPURF_BANK_PART_ROUTING] * ps, sa->t_wl_reset_s * ps,
         sa->t_precharge_drv_s * ps, sa->t_precharge_s * ps, c->access_time_s * ps,
         c->cycle_time_s * ps);
}

static void print_cost(const char *tag, const gpurf_bank_cost *c, const double ref[C_COUNT],
                       int parts) {
  double ed2 = 0.5 * (c->read_energy_j + c->write_energy_j) * c->access_time_s * c->access_time_s;
  printf("  %-6s %4d x %-4d mux %-2d %2d x %-2d  access %5.2f cycle %5.2f read %5.2f write %5.2f "
         "area %5.2f  ED^2 %.4g J s^2\n",
         tag, c->org.rows, c->org.cols, c->org.col_mux, c->org.ndwl, c->org.ndbl,
         c->access_time_s / ref[C_ACCESS], c->cycle_time_s / ref[C_CYCLE],
         c->read_energy_j / ref[C_READ], c->write_energy_j / ref[C_WRITE],
         c->area_m2 / ref[C_AREA], ed2);
  if (parts) {
    static const char *const part[GPURF_BANK_PART_COUNT] = {
        "cells", "dec", "wl", "bl", "sa", "wd", "od", "route", "ib", "sleep"};
    printf("         read pJ:");
    for (int p = 0; p < GPURF_BANK_PART_COUNT; p++) printf(" %s %.2f", part[p], c->read_part_j[p] * 1e12);
    printf("\n         write pJ:");
    for (int p = 0; p < GPURF_BANK_PART_COUNT; p++) printf(" %s %.2f", part[p], c->write_part_j[p] * 1e12);
    printf("\n         delay ps:");
    for (int p = 0; p < GPURF_BANK_PART_COUNT; p++) printf(" %s %.1f", part[p], c->delay_part_s[p] * 1e12);
    printf("\n");
  }
}

int main(int argc, char **argv) {
  const char *dir = ".";
  int parts = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--parts")) parts = 1;
    else dir = argv[i];
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/validation/cacti7.tsv", dir);
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "cacti_shapes: cannot open %s\n", path);
    return 1;
  }
  gpurf_ctx *ctx = gpurf_ctx_alloc();
  if (!ctx || gpurf_ctx_set_data_dir(ctx, dir) != GPURF_OK) return ctx ? fail(ctx) : 1;
  static const char *const cell_name[3] = {"sram-6t", "sram-8t-1r1w", "sram-multiport"};
  gpurf_cell cell[3];
  for (int i = 0; i < 3; i++)
    if (gpurf_cell_load(ctx, cell_name[i], &cell[i]) != GPURF_OK) return fail(ctx);
  static const double si[C_COUNT] = {[C_ACCESS] = 1e-9, [C_CYCLE] = 1e-9, [C_READ] = 1e-12,
                                     [C_WRITE] = 1e-12, [C_AREA] = 1e-6};
  char line[2048], *field[32];
  int col[C_COUNT], have_header = 0, rows = 0, same = 0, lineno = 0;
  printf("ours / CACTI 7 per figure; pick = the search's organisation, shape = the least-ED^2\n"
         "organisation of CACTI's sub-array shape (rows x cols, mux, ndwl x ndbl), by the set's\n"
         "objective (ed2-read, CACTI's rule)\n");
  while (fgets(line, sizeof line, f)) {
    lineno++;
    if (line[0] == '#' || line[0] == '\n') continue;
    line[strcspn(line, "\r\n")] = '\0';
    int nf = 0;
    for (char *p = line; p && nf < 32;) {
      field[nf++] = p;
      p = strchr(p, '\t');
      if (p) *p++ = '\0';
    }
    if (!have_header) {
      for (int k = 0; k < C_COUNT; k++) {
        col[k] = -1;
        for (int i = 0; i < nf; i++)
          if (!strcmp(field[i], col_name[k])) col[k] = i;
        if (col[k] < 0) {
          fprintf(stderr, "cacti_shapes: %s:%d: no column %s\n", path, lineno, col_name[k]);
          return 1;
        }
      }
      have_header = 1;
      continue;
    }
    double ref[C_COUNT];
    for (int k = 0; k < C_COUNT; k++) ref[k] = si[k] > 0.0 && col[k] < nf ? atof(field[col[k]]) * si[k] : 0.0;
    char node[16];
    snprintf(node, sizeof node, "%snm", field[col[C_NODE]]);
    gpurf_tech *tech = NULL;
    if (gpurf_tech_alloc(ctx, &tech) != GPURF_OK || gpurf_tech_load(ctx, node, tech) != GPURF_OK)
      return fail(ctx);
    gpurf_bank_spec s;
    gpurf_bank_spec_init(&s);
    s.tech = tech;
    if (gpurf_ports_parse(field[col[C_PORTS]], &s.ports) != GPURF_OK) return fail(ctx);
    s.cell = s.ports.rw == 1 && !s.ports.read && !s.ports.write        ? &cell[0]
             : !s.ports.rw && s.ports.read == 1 && s.ports.write == 1 ? &cell[1]
                                                                     : &cell[2];
    s.width_bits = atoi(field[col[C_WIDTH]]);
    s.entries = atoll(field[col[C_BYTES]]) * 8 / s.width_bits;
    s.banks = atoi(field[col[C_BANKS]]);
    s.temp_k = 360.0;
    s.opt = GPURF_BANK_OPT_ED2_READ; /* the set's objective: CACTI's own ED^2 rule */
    int r = 0, c = 0;
    if (sscanf(field[col[C_SHAPE]], "%d x %d", &r, &c) != 2) {
      fprintf(stderr, "cacti_shapes: %s:%d: subarray_rows_x_cols '%s' is not 'R x C'\n", path,
              lineno, field[col[C_SHAPE]]);
      return 1;
    }
    gpurf_bank_cost pick, at;
    subarray_cost sa;
    if (gpurf_bank_eval(ctx, &s, &pick) != GPURF_OK) return fail(ctx);
    int found = cost_at_shape(ctx, &s, r, c, &at, &sa);
    if (found < 0) return fail(ctx);
    int eq = pick.org.rows == r && pick.org.cols == c;
    same += eq;
    rows++;
    printf("%s: CACTI %d x %d%s\n", field[col[C_CONFIG]], r, c, eq ? " (picked)" : "");
    print_cost("pick", &pick, ref, parts);
    if (found) {
      print_cost("shape", &at, ref, parts);
      print_stages(&at, &sa);
    }
    gpurf_tech_free(tech);
  }
  fclose(f);
  printf("rows whose pick has CACTI's sub-array shape: %d of %d\n", same, rows);
  gpurf_ctx_free(ctx);
  return 0;
}
