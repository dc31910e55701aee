// A C++ program linking the installed gpurf through find_package(gpurf):
// the umbrella header, events.h included, compiles as C++.
#include <cstdio>
#include <cstring>
#include <gpurf/gpurf.h>

int main(int argc, char **argv) {
  gpurf_ctx *ctx = gpurf_ctx_alloc();
  if (!ctx) return 1;
  if (argc > 1) gpurf_ctx_set_data_dir(ctx, argv[1]);
  gpurf_tech *tech = nullptr;
  int rc = gpurf_tech_alloc(ctx, &tech);
  if (rc == GPURF_OK) rc = gpurf_tech_load(ctx, "28nm", tech);
  gpurf_rf_table *table = gpurf_rf_table_alloc();
  if (!table) {
    gpurf_tech_free(tech);
    gpurf_ctx_free(ctx);
    return 1;
  }
  std::strcpy(table->design, "cxx");
  table->clock_hz = 1.0e9;
  gpurf_rf_component *bank = gpurf_rf_table_add_component(table);
  std::strcpy(bank->name, "bank");
  bank->instances = 2;
  std::strcpy(gpurf_rf_component_add_event(bank)->name, "read");
  gpurf_energy *engine = nullptr;
  if (rc == GPURF_OK) rc = gpurf_energy_alloc(ctx, table, &engine);
  gpurf_rf_table_free(table);
  int id = -1;
  if (rc == GPURF_OK) rc = gpurf_energy_event_id(engine, "bank", "read", &id);
  if (rc == GPURF_OK) rc = gpurf_energy_add(engine, id, 1, 3);
  if (rc != GPURF_OK) {
    char line[1024];
    gpurf_error_format(gpurf_ctx_error(ctx), line, sizeof line);
    std::fprintf(stderr, "%s\n", line);
    gpurf_energy_free(engine);
    gpurf_tech_free(tech);
    gpurf_ctx_free(ctx);
    return 1;
  }
  gpurf_energy_free(engine);
  std::printf("gpurf %s: %s interpolated=%d vdd %.3f V; event id %d\n", gpurf_version(),
              gpurf_tech_name(tech), gpurf_tech_interpolated(tech, nullptr, nullptr),
              gpurf_tech_device_value(gpurf_tech_device(tech, GPURF_DEVICE_HP), GPURF_DEVICE_VDD_V),
              id);
  gpurf_tech_free(tech);
  gpurf_ctx_free(ctx);
  return 0;
}
