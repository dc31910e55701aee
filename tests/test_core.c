/* Context handle, status codes and error formatting. */
#include <string.h>

#include "test_util.h"

static void strerror_covers_every_status(void **state) {
  (void)state;
  const int codes[] = {GPURF_OK, GPURF_EINVAL, GPURF_ENOMEM, GPURF_EIO, GPURF_EPARSE,
                       GPURF_ESCHEMA, GPURF_ERANGE, GPURF_ENOTFOUND, GPURF_EUNSUPPORTED};
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
    const char *s = gpurf_strerror(codes[i]);
    assert_non_null(s);
    assert_string_not_equal(s, "unknown status");
  }
  assert_string_equal(gpurf_strerror(12345), "unknown status");
}

static void error_format_has_every_part(void **state) {
  (void)state;
  gpurf_error e;
  memset(&e, 0, sizeof e);
  e.status = GPURF_ERANGE;
  strcpy(e.file, "tech/45nm.yaml");
  e.line = 12;
  e.column = 5;
  strcpy(e.field, "devices.hp.vdd_v");
  strcpy(e.message, "value 7 must be <= 5");
  char buf[256];
  gpurf_error_format(&e, buf, sizeof buf);
  assert_string_equal(buf, "tech/45nm.yaml:12:5: key 'devices.hp.vdd_v': value 7 must be <= 5");
  e.field[0] = '\0';
  e.line = 0;
  gpurf_error_format(&e, buf, sizeof buf);
  assert_string_equal(buf, "tech/45nm.yaml: value 7 must be <= 5");
  e.file[0] = '\0';
  e.message[0] = '\0';
  gpurf_error_format(&e, buf, sizeof buf);
  assert_string_equal(buf, "value out of range");
}

static void context_holds_data_dir_and_error(void **state) {
  (void)state;
  gpurf_ctx *ctx = gpurf_ctx_alloc();
  assert_non_null(ctx);
  /* A new context points at the installed data directory. */
  assert_non_null(strstr(gpurf_ctx_data_dir(ctx), "share/gpurf"));
  assert_int_equal(gpurf_ctx_set_data_dir(ctx, "/some/where"), GPURF_OK);
  assert_string_equal(gpurf_ctx_data_dir(ctx), "/some/where");
  gpurf_tech *t = NULL;
  assert_ok(ctx, gpurf_tech_alloc(ctx, &t));
  assert_int_equal(gpurf_tech_load_file(ctx, "/nonexistent/x.yaml", t), GPURF_EIO);
  gpurf_tech_free(t);
  const gpurf_error *e = gpurf_ctx_error(ctx);
  assert_int_equal(e->status, GPURF_EIO);
  assert_string_equal(e->file, "/nonexistent/x.yaml");
  gpurf_ctx_clear_error(ctx);
  assert_int_equal(gpurf_ctx_error(ctx)->status, GPURF_OK);
  char big[2048];
  memset(big, 'a', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  assert_int_equal(gpurf_ctx_set_data_dir(ctx, big), GPURF_EINVAL);
  gpurf_ctx_free(ctx);
  gpurf_ctx_free(NULL);
}

static void version_is_semantic(void **state) {
  (void)state;
  int a, b, c;
  assert_int_equal(sscanf(gpurf_version(), "%d.%d.%d", &a, &b, &c), 3);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(strerror_covers_every_status),
      cmocka_unit_test(error_format_has_every_part),
      cmocka_unit_test(context_holds_data_dir_and_error),
      cmocka_unit_test(version_is_semantic),
  };
  return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
