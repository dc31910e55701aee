/* The RV32 kernel suite on the emulator: every kernel passes its own
 * self-check (a scalar reference on the host thread) at two sizes and two
 * warp counts, and under the min-PC rule as well. Built only when the
 * cross compiler was found. */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static void put_u32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void run_one(const char *name, uint32_t size, uint32_t warps, uint32_t blocks,
                    gpurf_emu_reconv rule) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.elf", GPURF_RISCV_KERNEL_DIR, name);
  uint8_t in[12];
  put_u32(in, size);
  put_u32(in + 4, warps);
  put_u32(in + 8, blocks);
  gpurf_emu_config cfg = {.warps = warps, .reconv = rule, .step_limit = 1ull << 30,
                          .uart_in = in, .uart_in_len = sizeof in};
  gpurf_ctx *ctx = test_ctx();
  gpurf_emu *e = NULL;
  assert_ok(ctx, gpurf_emu_alloc(ctx, &cfg, &e));
  assert_ok(ctx, gpurf_emu_load_elf(ctx, e, path));
  gpurf_emu_result res;
  assert_ok(ctx, gpurf_emu_run(ctx, e, &res));
  const char *out = gpurf_emu_output(e, NULL);
  if (res.exit_code != 0 || !strstr(out, "Self test: PASSED"))
    fail_msg("%s size %u warps %u blocks %u: exit %u, output '%s'", name, size, warps, blocks,
             res.exit_code, out);
  assert_true(res.kernels >= 1);
  assert_true(res.thread_instructions > res.warp_instructions);
  gpurf_emu_free(e);
  gpurf_ctx_free(ctx);
}

/* The suite table of the library names the kernels CMake builds. */
static void test_suite_table(void **state) {
  (void)state;
  char list[] = GPURF_RISCV_KERNEL_LIST;
  const gpurf_emu_kernel_info *k = gpurf_emu_suite();
  for (char *name = strtok(list, ","); name; name = strtok(NULL, ","), k++) {
    assert_non_null(k->name);
    assert_string_equal(k->name, name);
  }
  assert_null(k->name);
}

static void test_suite(void **state) {
  (void)state;
  char list[] = GPURF_RISCV_KERNEL_LIST;
  for (char *k = strtok(list, ","); k; k = strtok(NULL, ",")) {
    run_one(k, 0, 2, 1, GPURF_EMU_RECONV_MARKERS);  /* the kernel's default size */
    run_one(k, 0, 8, 1, GPURF_EMU_RECONV_MARKERS);
    run_one(k, 77, 2, 1, GPURF_EMU_RECONV_MARKERS); /* odd size: partial blocks */
    run_one(k, 77, 8, 1, GPURF_EMU_RECONV_MARKERS);
    run_one(k, 77, 8, 4, GPURF_EMU_RECONV_MINPC);   /* 4 resident blocks of 2 warps */
  }
}

/* A failing self-check is reported as such: the histogram of a wrong
 * kernel size would not do, so use an unsupported block shape. */
static void test_failure_reported(void **state) {
  (void)state;
  char path[1024];
  snprintf(path, sizeof path, "%s/matmul.elf", GPURF_RISCV_KERNEL_DIR);
  uint8_t in[12];
  put_u32(in, 16);
  put_u32(in + 4, 3); /* 96 threads per block: not a square tile */
  put_u32(in + 8, 1);
  gpurf_emu_config cfg = {.warps = 3, .uart_in = in, .uart_in_len = sizeof in};
  gpurf_ctx *ctx = test_ctx();
  gpurf_emu *e = NULL;
  assert_ok(ctx, gpurf_emu_alloc(ctx, &cfg, &e));
  assert_ok(ctx, gpurf_emu_load_elf(ctx, e, path));
  gpurf_emu_result res;
  assert_ok(ctx, gpurf_emu_run(ctx, e, &res));
  assert_int_equal(res.exit_code, 1);
  assert_non_null(strstr(gpurf_emu_output(e, NULL), "Self test: FAILED"));
  gpurf_emu_free(e);
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_suite_table),
                                     cmocka_unit_test(test_suite),
                                     cmocka_unit_test(test_failure_reported)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
