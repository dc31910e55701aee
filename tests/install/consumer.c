/* A simulator linking the installed gpurf: costs its register-file events. */
#include <stdio.h>
#include <string.h>

#include <gpurf/gpurf.h>

static int fail(gpurf_ctx *ctx) {
  char line[1024];
  gpurf_error_format(gpurf_ctx_error(ctx), line, sizeof line);
  fprintf(stderr, "%s\n", line);
  gpurf_ctx_free(ctx);
  return 1;
}

int main(int argc, char **argv) {
  gpurf_ctx *ctx = gpurf_ctx_alloc();
  if (!ctx) return 1;
  if (argc > 1) gpurf_ctx_set_data_dir(ctx, argv[1]);
  /* One bank of a 16-bank register file: 256 x 128-bit words, 1R1W, 40 nm. */
  gpurf_tech *tech = NULL;
  gpurf_cell cell;
  gpurf_bank_spec spec;
  gpurf_bank_cost cost;
  gpurf_bank_spec_init(&spec);
  if (gpurf_tech_alloc(ctx, &tech) != GPURF_OK || gpurf_tech_load(ctx, "40nm", tech) != GPURF_OK ||
      gpurf_cell_load(ctx, "sram-8t-1r1w", &cell) != GPURF_OK)
    return fail(ctx);
  spec.tech = tech;
  spec.cell = &cell;
  spec.ports = (gpurf_ports){0, 1, 1};
  spec.entries = 256;
  spec.width_bits = 128;
  int rc = gpurf_bank_eval(ctx, &spec, &cost);
  gpurf_tech_free(tech);
  if (rc != GPURF_OK) return fail(ctx);

  /* Its primitive table (or gpurf_rf_table_load from a table file), from
   * the library: its size is not part of the ABI. */
  gpurf_rf_table *table = gpurf_rf_table_alloc();
  if (!table) return fail(ctx);
  strcpy(table->design, "example");
  table->clock_hz = 1.0e9;
  gpurf_rf_component *bank = gpurf_rf_table_add_component(table);
  strcpy(bank->name, "bank");
  strcpy(bank->kind, "sram");
  bank->instances = 16;
  bank->leakage_w = cost.leakage_sub_w + cost.leakage_gate_w;
  bank->area_m2 = cost.area_m2;
  gpurf_rf_event *read = gpurf_rf_component_add_event(bank);
  strcpy(read->name, GPURF_EV_READ);
  read->energy_j = cost.read_energy_j;
  gpurf_rf_event *write = gpurf_rf_component_add_event(bank);
  strcpy(write->name, GPURF_EV_WRITE);
  write->energy_j = cost.write_energy_j;

  /* The simulator resolves event ids once, then counts as it runs. */
  gpurf_energy *engine;
  int rd, wr;
  rc = gpurf_energy_alloc(ctx, table, &engine);
  gpurf_rf_table_free(table); /* the engine keeps its own copy */
  if (rc != GPURF_OK) return fail(ctx);
  gpurf_energy_event_id(engine, GPURF_RF_BANK, GPURF_EV_READ, &rd);
  gpurf_energy_event_id(engine, GPURF_RF_BANK, GPURF_EV_WRITE, &wr);
  for (int cycle = 0; cycle < 100000; cycle++) {
    gpurf_energy_add(engine, rd, cycle % 16, 2);
    gpurf_energy_add(engine, wr, (cycle * 7) % 16, 1);
    gpurf_energy_advance(engine, 1);
  }
  gpurf_energy_report *report = NULL;
  gpurf_energy_report_in in = {100000};
  rc = gpurf_energy_report_alloc(ctx, &report);
  if (rc == GPURF_OK) rc = gpurf_energy_report_get(ctx, engine, &in, report);
  gpurf_energy_free(engine);
  if (rc != GPURF_OK) {
    gpurf_energy_report_free(report);
    return fail(ctx);
  }
  printf("gpurf %s: %.3f uJ (%.3f dynamic), %.2f mW, %.2f pJ per instruction\n",
         gpurf_version(), gpurf_energy_report_total_energy_j(report) * 1e6,
         gpurf_energy_report_dynamic_energy_j(report) * 1e6,
         gpurf_energy_report_average_power_w(report) * 1e3,
         gpurf_energy_report_energy_per_instruction_j(report) * 1e12);
  gpurf_energy_report_free(report);
  gpurf_ctx_free(ctx);
  return 0;
}
