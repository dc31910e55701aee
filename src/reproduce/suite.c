/* The RV32 kernel suite as reproduction workloads: each job runs its
 * kernel's ELF on the SIMT emulator (64 warps, as SIMTight's SM) and
 * simulates the trace it records, so no large trace is kept with the
 * sources. The trace goes through a temporary file that is removed once
 * open. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ctx_internal.h"
#include "gpurf/emu.h"
#include "gpurf/trace.h"
#include "reproduce/repro_internal.h"

#ifndef GPURF_LIB_KERNEL_DIR
#define GPURF_LIB_KERNEL_DIR ""
#endif

static int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Where the suite's ELFs are: $GPURF_KERNEL_DIR, DATADIR/riscv of an
 * installation, then the build tree (as `gpurf trace record --kernel`). */
static int suite_dir(const gpurf_reproduce *r, const char *variant, char *out, size_t n) {
  const char *env = getenv("GPURF_KERNEL_DIR");
  char dirs[3][REPRO_PATH_MAX + 16];
  int nd = 0;
  if (env && env[0]) snprintf(dirs[nd++], sizeof dirs[0], "%.*s", REPRO_PATH_MAX, env);
  snprintf(dirs[nd++], sizeof dirs[0], "%.*s/riscv", REPRO_PATH_MAX, r->data_dir);
  if (GPURF_LIB_KERNEL_DIR[0])
    snprintf(dirs[nd++], sizeof dirs[0], "%.*s", REPRO_PATH_MAX, GPURF_LIB_KERNEL_DIR);
  const char *first = gpurf_emu_suite()[0].name;
  for (int i = 0; i < nd; i++) {
    char probe[4 * REPRO_PATH_MAX];
    if (snprintf(out, n, "%s%s%s", dirs[i], variant[0] ? "/" : "", variant) >= (int)n) continue;
    snprintf(probe, sizeof probe, "%s/%.64s.elf", out, first);
    if (file_exists(probe)) return 1;
  }
  return 0;
}

int repro_suite_add(gpurf_ctx *ctx, gpurf_reproduce *r, repro_paper_plan *pp, const char *variant,
                    int *found) {
  char dir[REPRO_PATH_MAX];
  *found = suite_dir(r, variant, dir, sizeof dir);
  if (!*found) return GPURF_OK;
  for (const gpurf_emu_kernel_info *k = gpurf_emu_suite(); k->name; k++) {
    repro_workload w;
    memset(&w, 0, sizeof w);
    w.kind = REPRO_W_KERNEL;
    snprintf(w.name, sizeof w.name, "%s%s%s", k->name, variant[0] ? "-" : "", variant);
    if (snprintf(w.path, sizeof w.path, "%s/%s.elf", dir, k->name) >= (int)sizeof w.path)
      return gpurf_fail_at(ctx, GPURF_EINVAL, dir, 0, 0, "workloads", "path too long");
    if (!file_exists(w.path))
      return gpurf_fail_at(ctx, GPURF_ENOTFOUND, w.path, 0, 0, "workloads",
                           "kernel %s of the suite is not built", k->name);
    int rc = repro_plan_add_workload(ctx, r, pp, &w);
    if (rc != GPURF_OK) return rc;
  }
  return GPURF_OK;
}

static void put_u32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Runs the ELF with the suite's protocol (size, warps, blocks on the UART;
 * size 0: the kernel's own) and records the trace to `path`. */
static int record(gpurf_ctx *ctx, const repro_workload *w, const char *path) {
  uint8_t in[12];
  put_u32(in, 0);
  put_u32(in + 4, REPRO_SUITE_WARPS);
  put_u32(in + 8, REPRO_SUITE_BLOCKS);
  gpurf_emu_config cfg = {.warps = REPRO_SUITE_WARPS,
                          .reconv = GPURF_EMU_RECONV_MARKERS,
                          .step_limit = 0,
                          .uart_in = in,
                          .uart_in_len = sizeof in};
  gpurf_emu *e = NULL;
  gpurf_trace_writer *wr = NULL;
  gpurf_trace_recorder *rec = NULL;
  gpurf_emu_result res;
  int rc = gpurf_emu_alloc(ctx, &cfg, &e);
  if (rc == GPURF_OK) rc = gpurf_emu_load_elf(ctx, e, w->path);
  if (rc == GPURF_OK) rc = gpurf_trace_writer_alloc(ctx, path, GPURF_TRACE_FORMAT_BINARY, &wr);
  if (rc == GPURF_OK) rc = gpurf_trace_recorder_alloc(ctx, e, wr, w->name, &rec);
  if (rc == GPURF_OK) rc = gpurf_emu_run(ctx, e, &res);
  if (rc == GPURF_OK && (res.exit_code != 0 || res.kernel_failures))
    rc = gpurf_fail_at(ctx, GPURF_EINVAL, w->path, 0, 0, "workloads",
                       "kernel %s failed its self-check on the emulator", w->name);
  if (rc == GPURF_OK) rc = gpurf_trace_writer_commit(ctx, wr);
  gpurf_trace_recorder_free(rec);
  gpurf_trace_writer_free(wr);
  gpurf_emu_free(e);
  return rc;
}

int repro_suite_open(gpurf_ctx *ctx, const repro_workload *w, gpurf_trace_reader **out) {
  *out = NULL;
  const char *tmp = getenv("TMPDIR");
  char path[REPRO_PATH_MAX];
  snprintf(path, sizeof path, "%s/gpurf-kernel-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  int fd = mkstemp(path);
  if (fd < 0)
    return gpurf_fail_at(ctx, GPURF_EIO, path, 0, 0, "workloads",
                         "cannot make a temporary file for the trace of %s", w->name);
  close(fd);
  int rc = record(ctx, w, path);
  if (rc == GPURF_OK) rc = gpurf_trace_reader_alloc(ctx, path, out);
  /* An open reader keeps reading the removed file. */
  unlink(path);
  return rc;
}
