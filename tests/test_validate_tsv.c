/* The validation-set reader: the shipped sets read with their conventions
 * applied, and every malformed file is refused with FILE:LINE(:COL). */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "cli/validate_tsv.h"

static const vt_row *find_row(const vt_set *s, const char *config) {
  for (size_t i = 0; i < s->n_rows; i++)
    if (strcmp(s->rows[i].config, config) == 0) return &s->rows[i];
  fail_msg("no row %s in %s", config, s->name);
  return NULL;
}

static void read_set(const char *name, vt_set *s) {
  char path[1024], err[2048] = "";
  snprintf(path, sizeof path, "%s/validation/%s.tsv", GPURF_TEST_SOURCE_DIR, name);
  if (vt_set_read(path, s, err, sizeof err) != 0) fail_msg("%s", err);
}

static void cacti7_reads_with_its_gate(void **state) {
  (void)state;
  vt_set s;
  read_set("cacti7", &s);
  assert_string_equal(s.name, "cacti7");
  assert_int_equal(s.n_rows, 20);
  assert_true(s.gated);
  assert_true(s.leakage_per_bank);
  const vt_metric gated[] = {VT_READ_ENERGY, VT_WRITE_ENERGY, VT_ACCESS_TIME, VT_LEAKAGE, VT_AREA};
  for (size_t i = 0; i < 5; i++) {
    assert_true(s.tol[gated[i]].gated);
    assert_rel(s.tol[gated[i]].median, 0.25, 1e-12);
    assert_rel(s.tol[gated[i]].max_ratio, 2.0, 1e-12);
  }
  assert_false(s.tol[VT_CYCLE_TIME].gated);
  const vt_row *r = find_row(&s, "c_128K_16bk_1024_32");
  assert_string_equal(r->node, "32nm");
  assert_string_equal(r->cell, "sram");
  assert_int_equal(r->spec.banks, 16);
  assert_int_equal(r->spec.width_bits, 1024);
  assert_int_equal(r->spec.entries, 1024); /* 131072 bytes of 1024-bit words */
  assert_int_equal(r->spec.device, GPURF_DEVICE_HP);
  assert_rel(r->spec.temp_k, 360, 1e-12);
  /* Leakage is the sum of the subthreshold and gate columns. */
  assert_rel(r->ref[VT_LEAKAGE], 25.3 + 2.82, 1e-12);
  r = find_row(&s, "e_4K_128_3r1w_40");
  assert_true(r->ports_given);
  assert_int_equal(r->spec.ports.read, 3);
  assert_int_equal(r->spec.ports.write, 1);
  vt_set_free(&s);
}

static void conversions_and_maps(void **state) {
  (void)state;
  vt_set s;
  read_set("nvsim-sram", &s);
  assert_false(s.gated);
  assert_true(s.not_gated_why[0] != '\0');
  const vt_row *r = find_row(&s, "a22_sram_hp_ReadEDP");
  assert_string_equal(r->cell, "sram-6t"); /* mapped from SRAM146F2 */
  assert_false(r->ports_given);
  assert_rel(r->spec.temp_k, 350, 1e-12);
  assert_rel(r->ref[VT_AREA], 5624.7e-6, 1e-12); /* um^2 to mm^2 */
  assert_rel(r->ref[VT_WRITE_LATENCY], 0.223, 1e-12);
  vt_set_free(&s);
  read_set("warrf-table2-sram", &s);
  r = find_row(&s, "warrf_sram_2M_1024_22");
  assert_rel(r->ref[VT_READ_ENERGY], 0.37 * 1024, 1e-12); /* per bit to per access */
  assert_false(r->has[VT_LEAKAGE]);
  vt_set_free(&s);
  read_set("gebhart-table5", &s);
  r = find_row(&s, "mrf_bank_4K_128_1r1w_40");
  assert_rel(r->spec.clock_hz, 1e9, 1e-12);
  assert_rel(r->ref[VT_AREA], 0.038, 1e-12);
  vt_set_free(&s);
}

static void malformed_sets_name_file_and_line(void **state) {
  (void)state;
  const struct {
    const char *file, *where, *what;
  } cases[] = {
      {"unknown-column.tsv", ":4:70: ", "column 'area_cm2': unknown column"},
      {"short-row.tsv", ":5:1: ", "9 fields, but the header has 10 columns"},
      {"word-for-number.tsv", ":5:44: ", "column 'read_pj': reference value must be a positive"},
      {"negative-reference.tsv", ":5:49: ", "column 'area_mm2': reference value must be"},
      {"unknown-metric.tsv", ":3:14: ", "unknown metric 'speed'"},
      {"no-tolerance.tsv", ":1: ", "no '# tolerance:' line"},
      {"no-source.tsv", ":1: ", "no '# source:' line"},
      {"fractional-words.tsv", ":5:21: ", "not a whole number of 24-bit words"},
      {"unknown-ports.tsv", ":5:17: ", "column 'ports'"},
      {"unknown-periphery.tsv", ":2:", "long-channel or nominal, not 'short'"},
      {"duplicate-config.tsv", ":6:1: ", "'a_4K_128_1rw_40' also on line 5"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[1024], err[2048] = "", want[1200];
    snprintf(path, sizeof path, "%s/validation-bad/%s", GPURF_TEST_DATA_DIR, cases[i].file);
    vt_set s;
    if (vt_set_read(path, &s, err, sizeof err) == 0) fail_msg("%s was accepted", cases[i].file);
    snprintf(want, sizeof want, "%s%s", path, cases[i].where);
    if (strncmp(err, want, strlen(want)) != 0 || !strstr(err, cases[i].what) || strchr(err, '\n'))
      fail_msg("%s: got '%s', expected '%s...%s'", cases[i].file, err, want, cases[i].what);
  }
  char err[256];
  vt_set s;
  assert_int_not_equal(vt_set_read(GPURF_TEST_DATA_DIR "/validation-bad/none.tsv", &s, err,
                                   sizeof err), 0);
  assert_non_null(strstr(err, "cannot open"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cacti7_reads_with_its_gate),
      cmocka_unit_test(conversions_and_maps),
      cmocka_unit_test(malformed_sets_name_file_and_line),
  };
  return cmocka_run_group_tests_name("validate_tsv", tests, NULL, NULL);
}
