/* gpurf_rf_design_set and gpurf sweep: keys, values and their errors, the
 * CSV shape (one row per point, first --set slowest), lockstep keys, and the
 * plot when gnuplot is installed. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_run.h"

static cli_result R;

static void set_keys(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  static gpurf_rf_design d;
  assert_ok(ctx, gpurf_rf_design_load(ctx, "jing-128k-16bk-straight", &d));
  assert_ok(ctx, gpurf_rf_design_set(ctx, &d, "banks[0].count", "8"));
  assert_int_equal(d.bank_groups[0].count, 8);
  assert_ok(ctx, gpurf_rf_design_set(ctx, &d, "banks[0].entries", "128"));
  assert_true(d.bank_groups[0].entries == 128);
  assert_ok(ctx, gpurf_rf_design_set(ctx, &d, "crossbar.inputs", "8"));
  assert_int_equal(d.crossbar.inputs, 8);
  assert_ok(ctx, gpurf_rf_design_set(ctx, &d, "crossbar.activity", "0.5"));
  assert_rel(d.crossbar.activity, 0.5, 1e-12);
  assert_ok(ctx, gpurf_rf_design_set(ctx, &d, "arbiter.classes", "5"));
  assert_int_equal(d.arbiter.classes, 5);
  assert_ok(ctx, gpurf_rf_design_set(ctx, &d, "tech", "22nm"));
  assert_string_equal(d.tech, "22nm");
  assert_ok(ctx, gpurf_rf_design_set(ctx, &d, "clock_hz", "1e9"));
  assert_rel(d.clock_hz, 1e9, 1e-12);
  assert_ok(ctx, gpurf_rf_design_set(ctx, &d, "sm.registers", "65536"));
  assert_true(d.sm.registers == 65536);
  assert_ok(ctx, gpurf_rf_design_set(ctx, &d, "banks[0].ports", "1r1w"));
  assert_int_equal(d.bank_groups[0].ports.read, 1);
  assert_int_equal(d.bank_groups[0].ports.write, 1);
  assert_int_equal(d.bank_groups[0].ports.rw, 0);
  /* The changed design evaluates: 8 banks of 128 x 1024 bits. */
  static gpurf_rf_table t;
  assert_ok(ctx, gpurf_rf_design_table(ctx, &d, &t));
  assert_int_equal(t.components[0].instances, 8);
  assert_ok(ctx, gpurf_rf_design_load(ctx, "simtight-vrf512", &d));
  assert_ok(ctx, gpurf_rf_design_set(ctx, &d, "extras[0].vrf_regs", "256"));
  assert_int_equal(d.extras[0].vrf_regs, 256);
  gpurf_ctx_free(ctx);
}

typedef struct bad_set {
  const char *key, *value;
  int status;
  const char *message;
} bad_set;

static void set_errors(void **state) {
  (void)state;
  const bad_set cases[] = {
      {"banks[0].colour", "red", GPURF_ESCHEMA, "unknown key (known: banks[i].name"},
      {"colour", "red", GPURF_ESCHEMA, "unknown key"},
      {"pipeline.depth", "3", GPURF_ESCHEMA, "unknown key"},
      {"banks[1].count", "8", GPURF_ERANGE, "the design has 1 bank group"},
      {"banks[x].count", "8", GPURF_ESCHEMA, "bad index"},
      {"extras[0].vrf_regs", "8", GPURF_ERANGE, "the design has 0 extra structures"},
      {"banks[0].count", "eight", GPURF_ESCHEMA, "'eight' is not a whole number"},
      {"banks[0].count", "8.5", GPURF_ESCHEMA, "not a whole number"},
      {"banks[0].count", "0", GPURF_ERANGE, "'0' is outside [1, 1024]"},
      {"arbiter.classes", "6", GPURF_ERANGE, "outside [2, 5]"},
      {"clock_hz", "-1", GPURF_ERANGE, "outside (0,"},
      {"clock_hz", "fast", GPURF_ESCHEMA, "not a number"},
      {"banks[0].ports", "2x", GPURF_ESCHEMA, "is not a port mix"},
      {"banks[0].opt", "fastest", GPURF_ESCHEMA, "is not ed2"},
      {"device", "ulp", GPURF_ESCHEMA, "is not hp, lstp or lop"},
      {"crossbar.style", "bus", GPURF_ESCHEMA, "is not matrix or mux"},
      {"tech", "7nm", GPURF_ERANGE, ""},
      {"banks[0].cell", "no-such-cell", GPURF_ENOTFOUND, "no-such-cell"},
  };
  gpurf_ctx *ctx = test_ctx();
  static gpurf_rf_design d, before;
  assert_ok(ctx, gpurf_rf_design_load(ctx, "jing-128k-16bk-straight", &d));
  before = d;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int rc = gpurf_rf_design_set(ctx, &d, cases[i].key, cases[i].value);
    const gpurf_error *e = gpurf_ctx_error(ctx);
    int status_ok = cases[i].status == GPURF_ERANGE && strcmp(cases[i].key, "tech") == 0
                        ? rc != GPURF_OK
                        : rc == cases[i].status;
    if (!status_ok || strcmp(e->field, cases[i].key) != 0 || !strstr(e->message, cases[i].message))
      fail_msg("%s=%s: status %d, field '%s', message '%s'", cases[i].key, cases[i].value, rc,
               e->field, e->message);
    if (memcmp(&d, &before, sizeof d) != 0) fail_msg("%s=%s changed the design", cases[i].key,
                                                     cases[i].value);
  }
  /* A design without a crossbar or arbiter says so. */
  assert_ok(ctx, gpurf_rf_design_load(ctx, "warrf-sram", &d));
  assert_int_equal(gpurf_rf_design_set(ctx, &d, "crossbar.inputs", "8"), GPURF_ESCHEMA);
  assert_non_null(strstr(gpurf_ctx_error(ctx)->message, "no crossbar"));
  assert_int_equal(gpurf_rf_design_set(ctx, &d, "arbiter.banks", "8"), GPURF_ESCHEMA);
  assert_int_equal(gpurf_rf_design_set(NULL, &d, "tech", "22nm"), GPURF_EINVAL);
  gpurf_ctx_free(ctx);
}

#define SWEEP_MODEL "sweep jing-128k-16bk-straight "
#define LOCKSTEP "--set 'banks[0].count+banks[0].entries+crossbar.inputs+arbiter.banks=8:128:8:8,16:64:16:16'"

/* One row per point, the first --set varying slowest; lockstep keys move
 * together; the output is the same on every run. */
static void csv_shape(void **state) {
  (void)state;
  cli_run(&R, SWEEP_MODEL LOCKSTEP " --set 'clock_hz=7e8,1e9,1.4e9' --format csv");
  assert_int_equal(R.status, 0);
  assert_int_equal(cli_count_lines(R.out), 1 + 6);
  assert_int_equal(strncmp(R.out, "point,banks[0].count,banks[0].entries,crossbar.inputs,"
                                  "arbiter.banks,clock_hz,area_mm2,",
                           strlen("point,banks[0].count,banks[0].entries,crossbar.inputs,"
                                  "arbiter.banks,clock_hz,area_mm2,")),
                   0);
  const char *rows[] = {"\n1,8,128,8,8,7e8,", "\n2,8,128,8,8,1e9,", "\n3,8,128,8,8,1.4e9,",
                        "\n4,16,64,16,16,7e8,", "\n5,16,64,16,16,1e9,", "\n6,16,64,16,16,1.4e9,"};
  for (int i = 0; i < 6; i++)
    if (!strstr(R.out, rows[i])) fail_msg("missing row %s", rows[i] + 1);
  assert_non_null(strstr(R.out, ",energy_bank_read_pj,energy_bank_write_pj,"));
  assert_non_null(strstr(R.out, ",delay_ns,delay_cycles,delay_bank_ns,delay_crossbar_ns,"));
  static char first[sizeof R.out];
  strcpy(first, R.out);
  cli_run(&R, SWEEP_MODEL LOCKSTEP " --set 'clock_hz=7e8,1e9,1.4e9' --format csv");
  assert_string_equal(first, R.out);
  /* The 16-bank point is the shipped 16-bank design. */
  cli_run(&R, "rf jing-128k-16bk-straight --format json");
  assert_int_equal(R.status, 0);
  const char *at = strstr(R.out, "\"area_mm2\": ");
  assert_non_null(at);
  char area[64];
  size_t len = strcspn(at, ",\n");
  assert_true(len < sizeof area);
  memcpy(area, at, len);
  area[len] = '\0';
  cli_run(&R, SWEEP_MODEL "--set 'banks[0].count=16' --format json");
  assert_int_equal(R.status, 0);
  if (!strstr(R.out, area)) fail_msg("the 16-bank point lacks the design's %s", area);
  cli_run(&R, SWEEP_MODEL LOCKSTEP);
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "Point 2: banks[0].count=16 banks[0].entries=64"));
  assert_non_null(strstr(R.out, "read path"));
}

static void sweep_errors(void **state) {
  (void)state;
  const cli_error_case cases[] = {
      {"sweep", 2, "which design?"},
      {"sweep jing-128k-16bk-straight", 2, "nothing to sweep"},
      {SWEEP_MODEL "--set banks[0].count", 2, "--set needs KEY=V1,V2"},
      {SWEEP_MODEL "--set 'banks[0].count+banks[0].entries=8:128,16'", 2, "value 2 has 1 part"},
      {SWEEP_MODEL "--set 'banks[0].count=8,' ", 2, "value 2 is empty"},
      {SWEEP_MODEL "--set 'tech=22nm' --set 'tech=32nm'", 2, "key 'tech' is swept twice"},
      {SWEEP_MODEL "--set 'banks[0].count=8' --format xml", 2, "--format must be"},
      {SWEEP_MODEL "--set 'banks[0].count=8' --base 2", 2, "--base 2: the sweep has 1 point"},
      {SWEEP_MODEL "--set 'banks[0].count=8' --plot out.pdf", 2, "a .png or .svg file name"},
      {SWEEP_MODEL "--set 'banks[0].colour=8'", 1, "key 'banks[0].colour': unknown key"},
      {SWEEP_MODEL "--set 'banks[0].count=8,x'", 1, "'x' is not a whole number"},
      {SWEEP_MODEL "--set 'banks[2].count=8'", 1, "the design has 1 bank group"},
      {"sweep no-such-design --set tech=22nm", 1, "no design named 'no-such-design'"},
      {SWEEP_MODEL "--set 'crossbar.width_bits=1,70000'", 1, "outside [1, 65536]"},
  };
  cli_check_errors(cases, sizeof cases / sizeof cases[0]);
}

static int gnuplot_installed(void) {
  return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

/* The plot appears only after gnuplot succeeded; without gnuplot the command
 * fails before evaluating anything and writes nothing. */
static void plot(void **state) {
  (void)state;
  char path[512], args[1024];
  snprintf(path, sizeof path, "%s/sweep_plot_%ld.png", GPURF_TEST_TMP_DIR, (long)getpid());
  remove(path);
  /* Without gnuplot on PATH (the command itself is run by its full path). */
  char cmd[2048];
  snprintf(cmd, sizeof cmd,
           "PATH=/nonexistent GPURF_DATA_DIR='%s' '%s' " SWEEP_MODEL
           "--set 'banks[0].count=8' --plot '%s' >/dev/null 2>&1",
           GPURF_TEST_SOURCE_DIR, GPURF_TEST_CLI, path);
  int st = system(cmd);
  assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 1);
  struct stat sb;
  assert_int_not_equal(stat(path, &sb), 0);
  if (!gnuplot_installed()) skip();
  snprintf(args, sizeof args, SWEEP_MODEL LOCKSTEP " --plot '%s' --format csv", path);
  cli_run(&R, args);
  if (R.status != 0) fail_msg("status %d: %s", R.status, R.err);
  assert_int_equal(cli_count_lines(R.out), 3);
  assert_int_equal(stat(path, &sb), 0);
  char *png = cli_slurp(path, 16);
  assert_non_null(png);
  assert_int_equal(memcmp(png, "\x89PNG", 4), 0);
  free(png);
  remove(path);
  snprintf(path, sizeof path, "%s/sweep_plot_%ld.svg", GPURF_TEST_TMP_DIR, (long)getpid());
  snprintf(args, sizeof args, SWEEP_MODEL "--set 'tech=22nm,32nm' --plot '%s'", path);
  cli_run(&R, args);
  assert_int_equal(R.status, 0);
  char *svg = cli_slurp(path, 1 << 16);
  assert_non_null(svg);
  assert_non_null(strstr(svg, "<svg"));
  free(svg);
  remove(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(set_keys),    cmocka_unit_test(set_errors),
      cmocka_unit_test(csv_shape),   cmocka_unit_test(sweep_errors),
      cmocka_unit_test(plot),
  };
  return cmocka_run_group_tests_name("sweep", tests, NULL, NULL);
}
