// A C++ program linking the installed gpurf through find_package(gpurf).
#include <cstdio>
#include <gpurf/gpurf.h>

int main(int argc, char **argv) {
  gpurf_ctx *ctx = gpurf_ctx_alloc();
  if (!ctx) return 1;
  if (argc > 1) gpurf_ctx_set_data_dir(ctx, argv[1]);
  gpurf_tech tech;
  int rc = gpurf_tech_load(ctx, "28nm", &tech);
  if (rc != GPURF_OK) {
    char line[1024];
    gpurf_error_format(gpurf_ctx_error(ctx), line, sizeof line);
    std::fprintf(stderr, "%s\n", line);
    gpurf_ctx_free(ctx);
    return 1;
  }
  std::printf("gpurf %s: %s interpolated=%d vdd %.3f V\n", gpurf_version(), tech.name,
              tech.interpolated, tech.device[GPURF_DEVICE_HP].vdd_v);
  gpurf_ctx_free(ctx);
  return 0;
}
