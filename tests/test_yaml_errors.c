/* Every loader error path, each triggered by a file in tests/data/bad/, must
 * give the right status, position, key and message. */
#include <string.h>

#include "test_util.h"

typedef struct bad_case {
  const char *file;
  int status;
  int line, column;
  const char *field;   /* "" when the error names no key */
  const char *message; /* a substring of the message */
} bad_case;

static const bad_case cases[] = {
    {"unknown-key.yaml", GPURF_ESCHEMA, 4, 1, "area_f3", "unknown key (did you mean 'area_f2'?)"},
    {"missing-key.yaml", GPURF_ESCHEMA, 1, 1, "aspect_ratio", "missing required key"},
    {"duplicate-key.yaml", GPURF_ESCHEMA, 9, 1, "w_access_f", "duplicate key (first given on line 6)"},
    {"quoted-number.yaml", GPURF_ESCHEMA, 4, 10, "area_f2", "quoted string"},
    {"mapping-for-number.yaml", GPURF_ESCHEMA, 4, 10, "area_f2", "found a mapping"},
    {"word-for-number.yaml", GPURF_ESCHEMA, 4, 10, "area_f2", "expected a number, found 'big'"},
    {"infinite.yaml", GPURF_ERANGE, 4, 10, "area_f2", "not finite"},
    {"nan.yaml", GPURF_ERANGE, 5, 15, "aspect_ratio", "not finite"},
    {"overflow.yaml", GPURF_ERANGE, 4, 10, "area_f2", "not finite"},
    {"negative-width.yaml", GPURF_ERANGE, 6, 13, "w_access_f", "must be > 0"},
    {"fractional-ports.yaml", GPURF_ESCHEMA, 9, 11, "rw_ports", "whole number"},
    {"no-ports.yaml", GPURF_ERANGE, 9, 11, "rw_ports", "no port"},
    {"bad-kind.yaml", GPURF_ESCHEMA, 1, 7, "kind", "'sdram' is not one of"},
    {"missing-kind.yaml", GPURF_ESCHEMA, 1, 1, "kind", "missing required key"},
    {"empty.yaml", GPURF_EPARSE, 1, 1, "", "empty file"},
    {"comments-only.yaml", GPURF_EPARSE, 1, 1, "", "empty file"},
    {"syntax-error.yaml", GPURF_EPARSE, 3, 1, "", "invalid YAML"},
    {"top-level-list.yaml", GPURF_ESCHEMA, 1, 1, "", "top level must be a mapping"},
    {"two-documents.yaml", GPURF_EPARSE, 2, 1, "", "more than one YAML document"},
    {"invalid-utf8.yaml", GPURF_EPARSE, 2, 10, "", "UTF-8"},
    {"binary.yaml", GPURF_EPARSE, 1, 8, "", "binary data"},
    {"compressed.yaml.gz", GPURF_EPARSE, 1, 1, "", "gzip-compressed"},
    {"stt-roff-below-ron.yaml", GPURF_ERANGE, 7, 12, "r_off_ohm", "must exceed r_on_ohm"},
    {"stt-current-without-voltage.yaml", GPURF_ESCHEMA, 8, 12, "read_mode", "needs read_voltage_v"},
    {"stt-bad-read-mode.yaml", GPURF_ESCHEMA, 8, 12, "read_mode", "'magnetic' is not one of"},
    {"dff-zero-data-internal.yaml", GPURF_ERANGE, 10, 24, "data_internal_width_f", "must be > 0"},
};

static void each_bad_file_is_rejected_precisely(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const bad_case *c = &cases[i];
    char path[1024];
    snprintf(path, sizeof path, "%s/bad/%s", GPURF_TEST_DATA_DIR, c->file);
    gpurf_cell cell;
    int rc = gpurf_cell_load_file(ctx, path, &cell);
    const gpurf_error *e = gpurf_ctx_error(ctx);
    if (rc != c->status || e->line != c->line || e->column != c->column ||
        strcmp(e->field, c->field) != 0 || !strstr(e->message, c->message)) {
      char line[1024];
      gpurf_error_format(e, line, sizeof line);
      fail_msg("%s: got status %d '%s'; expected status %d at %d:%d key '%s' with '%s'",
               c->file, rc, line, c->status, c->line, c->column, c->field, c->message);
    }
    assert_string_equal(e->file, path);
  }
  gpurf_ctx_free(ctx);
}

static void good_fixture_loads(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_cell cell;
  assert_ok(ctx, gpurf_cell_load_file(ctx, GPURF_TEST_DATA_DIR "/good-cell.yaml", &cell));
  assert_int_equal(cell.kind, GPURF_CELL_SRAM);
  assert_rel(cell.u.sram.area_f2, 146.0, 0);
  assert_int_equal(cell.u.sram.rw_ports, 1);
  assert_string_equal(cell.name, "test-cell");
  gpurf_ctx_free(ctx);
}

static void missing_file_is_an_io_error(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_cell cell;
  assert_int_equal(gpurf_cell_load_file(ctx, GPURF_TEST_DATA_DIR "/no-such.yaml", &cell),
                   GPURF_EIO);
  assert_non_null(strstr(gpurf_ctx_error(ctx)->message, "cannot open"));
  assert_int_equal(gpurf_cell_load(ctx, "no-such-cell", &cell), GPURF_ENOTFOUND);
  assert_int_equal(gpurf_cell_load_file(ctx, GPURF_TEST_DATA_DIR, &cell) != GPURF_OK, 1);
  gpurf_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(each_bad_file_is_rejected_precisely),
      cmocka_unit_test(good_fixture_loads),
      cmocka_unit_test(missing_file_is_an_io_error),
  };
  return cmocka_run_group_tests_name("yaml_errors", tests, NULL, NULL);
}
