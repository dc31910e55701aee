/* Trace reading speed: warp instructions per second for Accel-Sim text,
 * native text and native binary. The input is the recorded matrixMul trace
 * repeated over many CTAs, so every line is real tracer output.
 * Usage: bench_trace [SOURCE_DIR] [CTAS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gpurf/gpurf.h"
#include "gpurf/trace.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int fail(gpurf_ctx *ctx) {
  char line[1024];
  gpurf_error_format(gpurf_ctx_error(ctx), line, sizeof line);
  fprintf(stderr, "bench_trace: %s\n", line);
  return 1;
}

/* Reads every record; returns the count, or -1 on error. */
static long long read_all(gpurf_ctx *ctx, const char *path, double *secs) {
  gpurf_trace_reader *r;
  static gpurf_trace_inst inst;
  double t0 = now_s();
  if (gpurf_trace_reader_alloc(ctx, path, &r) != GPURF_OK) return -1;
  long long n = 0;
  int rc;
  while ((rc = gpurf_trace_next(ctx, r, &inst)) == GPURF_OK) n++;
  gpurf_trace_reader_free(r);
  *secs = now_s() - t0;
  return rc == GPURF_TRACE_END ? n : -1;
}

int main(int argc, char **argv) {
  const char *src = argc > 1 ? argv[1] : GPURF_BENCH_SOURCE_DIR;
  int ctas = argc > 2 ? atoi(argv[2]) : 256;
  if (ctas < 1 || ctas > 65535) ctas = 256;
  char in[4096], big[4096], text[4096], bin[4096];
  snprintf(in, sizeof in, "%s/tests/data/traces/matrixmul-32-32-trace/kernel-1.traceg", src);
  FILE *f = fopen(in, "rb");
  if (!f) {
    fprintf(stderr, "bench_trace: cannot open %s\n", in);
    return 1;
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *data = malloc((size_t)size + 1);
  if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) return 1;
  data[size] = '\0';
  fclose(f);
  char *body = strstr(data, "#BEGIN_TB");
  char *grid = strstr(data, "-grid dim = (1,1,1)");
  char *tb = body ? strstr(body, "thread block = 0,0,0\n") : NULL;
  if (!body || !grid || !tb) {
    fprintf(stderr, "bench_trace: unexpected layout of %s\n", in);
    return 1;
  }
  snprintf(big, sizeof big, "/tmp/gpurf-bench-%ld.traceg", (long)getpid());
  snprintf(text, sizeof text, "/tmp/gpurf-bench-%ld.gtrace", (long)getpid());
  snprintf(bin, sizeof bin, "/tmp/gpurf-bench-%ld.gtraceb", (long)getpid());
  f = fopen(big, "wb");
  if (!f) return 1;
  fwrite(data, 1, (size_t)(grid - data), f);
  fprintf(f, "-grid dim = (%d,1,1)", ctas);
  const char *after_grid = grid + strlen("-grid dim = (1,1,1)");
  fwrite(after_grid, 1, (size_t)(body - after_grid), f);
  for (int c = 0; c < ctas; c++) {
    fwrite(body, 1, (size_t)(tb - body), f);
    fprintf(f, "thread block = %d,0,0\n", c);
    const char *rest = tb + strlen("thread block = 0,0,0\n");
    fwrite(rest, 1, strlen(rest), f);
  }
  fclose(f);
  free(data);

  gpurf_ctx *ctx = gpurf_ctx_alloc();
  if (gpurf_trace_convert(ctx, big, text, GPURF_TRACE_FORMAT_TEXT) != GPURF_OK ||
      gpurf_trace_convert(ctx, big, bin, GPURF_TRACE_FORMAT_BINARY) != GPURF_OK)
    return fail(ctx);
  const char *names[] = {"accelsim text", "native text", "native binary"};
  const char *paths[] = {big, text, bin};
  printf("bench_trace: matrixMul trace x %d CTAs\n", ctas);
  for (int i = 0; i < 3; i++) {
    double best = 1e30, secs;
    long long n = 0;
    for (int rep = 0; rep < 3; rep++) {
      n = read_all(ctx, paths[i], &secs);
      if (n < 0) return fail(ctx);
      if (secs < best) best = secs;
    }
    printf("  %-14s %10lld warp instructions in %7.3f s: %8.2f M warp-instructions/s\n", names[i], n,
           best, n / best / 1e6);
  }
  remove(big);
  remove(text);
  remove(bin);
  gpurf_ctx_free(ctx);
  return 0;
}
