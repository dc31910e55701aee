/* Designs built through the API rather than loaded from YAML: a design the
 * caller fills in is checked field by field before any model runs (a value
 * out of an enumeration's range once read uninitialised memory), and text
 * given to gpurf_rf_design_set is refused by name and leaves the design as
 * it was. */
#include <string.h>

#include "test_util.h"

/* The Fermi baseline's register file, written out by hand. */
static void fermi_by_hand(gpurf_rf_design *d) {
  memset(d, 0, sizeof *d);
  strcpy(d->design, "by-hand");
  strcpy(d->tech, "40nm");
  d->device = GPURF_DEVICE_HP;
  d->temp_k = 360.0;
  d->clock_hz = 7.0e8;
  d->sm.warps = 48;
  d->sm.threads_per_warp = 32;
  d->sm.registers = 32768;
  d->sm.policy = GPURF_RF_POLICY_GTO;
  d->n_bank_groups = 1;
  gpurf_rf_bank_group *g = &d->bank_groups[0];
  strcpy(g->name, "bank");
  strcpy(g->cell, "sram");
  g->ports = (gpurf_ports){1, 0, 0};
  g->count = 16;
  g->entries = 64;
  g->width_bits = 1024;
  g->opt = GPURF_BANK_OPT_ED2;
  g->port = GPURF_RF_PORT_POINT;
  d->has_crossbar = 1;
  d->crossbar = (gpurf_rf_crossbar){16, 16, 1024, GPURF_XBAR_MATRIX, GPURF_WIRE_SEMI_GLOBAL, 0.0};
  d->has_arbiter = 1;
  d->arbiter = (gpurf_rf_arbiter){16, 16, 2};
  d->n_extras = 1;
  d->extras[0].kind = GPURF_RF_EXTRA_WRITE_POOL;
  strcpy(d->extras[0].name, "write_pool");
}

/* The hand-written design costs the same as the shipped file. */
static void by_hand_matches_the_file(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  static gpurf_rf_design d, f;
  static gpurf_rf_table t, u;
  fermi_by_hand(&d);
  d.n_extras = 0;
  assert_ok(ctx, gpurf_rf_design_table(ctx, &d, &t));
  assert_ok(ctx, gpurf_rf_design_load(ctx, "fermi-baseline", &f));
  assert_ok(ctx, gpurf_rf_design_table(ctx, &f, &u));
  assert_int_equal(t.n_components, u.n_components);
  for (int c = 0; c < t.n_components; c++) {
    assert_string_equal(t.components[c].name, u.components[c].name);
    assert_rel(t.components[c].area_m2, u.components[c].area_m2, 1e-12);
    assert_rel(t.components[c].events[0].energy_j, u.components[c].events[0].energy_j, 1e-12);
  }
  assert_int_equal(f.device, GPURF_DEVICE_HP);
  assert_int_equal(f.sm.policy, GPURF_RF_POLICY_GTO);
  assert_int_equal(f.crossbar.wire, GPURF_WIRE_SEMI_GLOBAL);
  gpurf_ctx_free(ctx);
}

typedef struct bad_field {
  const char *field, *message;
  void (*spoil)(gpurf_rf_design *d);
} bad_field;

/* Out-of-range values are written through an int: a caller's cast from a
 * stale or corrupted number is what this guards against. */
#define SET_ENUM(lvalue, v)                     \
  do {                                          \
    int v_ = (v);                               \
    memcpy(&(lvalue), &v_, sizeof v_);          \
  } while (0)

static void bad_device(gpurf_rf_design *d) { SET_ENUM(d->device, 7); }
static void bad_device_neg(gpurf_rf_design *d) { SET_ENUM(d->device, -1); }
static void bad_policy(gpurf_rf_design *d) { SET_ENUM(d->sm.policy, 9); }
static void bad_opt(gpurf_rf_design *d) { SET_ENUM(d->bank_groups[0].opt, GPURF_BANK_OPT_COUNT); }
static void bad_port(gpurf_rf_design *d) { SET_ENUM(d->bank_groups[0].port, 2); }
static void bad_ports(gpurf_rf_design *d) { d->bank_groups[0].ports = (gpurf_ports){0, 0, 0}; }
static void bad_ports_neg(gpurf_rf_design *d) { d->bank_groups[0].ports = (gpurf_ports){2, -1, 0}; }
static void bad_style(gpurf_rf_design *d) { SET_ENUM(d->crossbar.style, 5); }
static void bad_wire(gpurf_rf_design *d) { SET_ENUM(d->crossbar.wire, GPURF_WIRE_COUNT); }
static void bad_kind(gpurf_rf_design *d) { SET_ENUM(d->extras[0].kind, 4); }
static void bad_count(gpurf_rf_design *d) { d->bank_groups[0].count = 0; }
static void bad_gates(gpurf_rf_design *d) { d->bank_groups[0].gate_groups = 6; }
static void bad_temp(gpurf_rf_design *d) { d->temp_k = -3.0; }
static void no_tech(gpurf_rf_design *d) { d->tech[0] = '\0'; }
static void too_many(gpurf_rf_design *d) { d->n_extras = GPURF_RF_MAX_EXTRAS + 1; }

static void bad_fields_are_refused(void **state) {
  (void)state;
  const bad_field cases[] = {
      {"device", "7 is not a device kind (hp, lstp or lop)", bad_device},
      {"device", "-1 is not a device kind", bad_device_neg},
      {"sm.policy", "9 is not a policy", bad_policy},
      {"banks[0].opt", "7 is not an objective", bad_opt},
      {"banks[0].port", "2 is not a port place", bad_port},
      {"banks[0].ports", "0rw 0r 0w is not a port mix", bad_ports},
      {"banks[0].ports", "2rw -1r 0w is not a port mix", bad_ports_neg},
      {"crossbar.style", "5 is not a crossbar style", bad_style},
      {"crossbar.wire", "3 is not a wire kind", bad_wire},
      {"extras[0].kind", "4 is not an extra kind", bad_kind},
      {"banks[0].count", "0 is outside [1, 1024]", bad_count},
      {"banks[0].gate_groups", "6 is not 0 or a power of two", bad_gates},
      {"temp_k", "-3 is outside (0, 1000]", bad_temp},
      {"tech", "is empty", no_tech},
      {"extras", "more than 8", too_many},
  };
  gpurf_ctx *ctx = test_ctx();
  static gpurf_rf_design d;
  static gpurf_rf_table t;
  fermi_by_hand(&d);
  assert_ok(ctx, gpurf_rf_design_table(ctx, &d, &t));
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    fermi_by_hand(&d);
    cases[i].spoil(&d);
    memset(&t, 0xa5, sizeof t);
    int rc = gpurf_rf_design_table(ctx, &d, &t);
    const gpurf_error *e = gpurf_ctx_error(ctx);
    if (rc != GPURF_EINVAL || strcmp(e->field, cases[i].field) != 0 ||
        !strstr(e->message, cases[i].message))
      fail_msg("%s: status %d, field '%s', message '%s'", cases[i].field, rc, e->field,
               e->message);
    /* Nothing is written on failure. */
    unsigned char first;
    memcpy(&first, &t, 1);
    assert_int_equal(first, 0xa5);
  }
  gpurf_ctx_free(ctx);
}

typedef struct bad_text {
  const char *key, *value, *message;
} bad_text;

/* The words the bug report named ("hx", "fastest") and one per other word
 * field: refused, the design unchanged. */
static void bad_words_are_refused(void **state) {
  (void)state;
  const bad_text cases[] = {
      {"device", "hx", "'hx' is not hp, lstp or lop"},
      {"banks[0].opt", "fastest", "'fastest' is not ed2"},
      {"banks[0].ports", "1x", "is not a port mix"},
      {"banks[0].port", "side", "'side' is not edge or point"},
      {"crossbar.style", "bus", "'bus' is not matrix or mux"},
      {"crossbar.wire", "copper", "'copper' is not local, semi-global or global"},
      {"extras[0].kind", "victim_cache", "is not rename_table, write_pool"},
      {"device", "", "an empty value"},
  };
  gpurf_ctx *ctx = test_ctx();
  static gpurf_rf_design d, before;
  fermi_by_hand(&d);
  before = d;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int rc = gpurf_rf_design_set(ctx, &d, cases[i].key, cases[i].value);
    const gpurf_error *e = gpurf_ctx_error(ctx);
    if (rc != GPURF_ESCHEMA || strcmp(e->field, cases[i].key) != 0 ||
        !strstr(e->message, cases[i].message))
      fail_msg("%s=%s: status %d, field '%s', message '%s'", cases[i].key, cases[i].value, rc,
               e->field, e->message);
    if (memcmp(&d, &before, sizeof d) != 0)
      fail_msg("%s=%s changed the design", cases[i].key, cases[i].value);
  }
  /* Good words resolve to their enumerations. */
  assert_ok(ctx, gpurf_rf_design_set(ctx, &d, "device", "lstp"));
  assert_int_equal(d.device, GPURF_DEVICE_LSTP);
  assert_ok(ctx, gpurf_rf_design_set(ctx, &d, "banks[0].opt", "leakage"));
  assert_int_equal(d.bank_groups[0].opt, GPURF_BANK_OPT_LEAKAGE);
  assert_ok(ctx, gpurf_rf_design_set(ctx, &d, "banks[0].port", "edge"));
  assert_int_equal(d.bank_groups[0].port, GPURF_RF_PORT_EDGE);
  assert_ok(ctx, gpurf_rf_design_set(ctx, &d, "crossbar.style", "mux"));
  assert_int_equal(d.crossbar.style, GPURF_XBAR_MUX);
  assert_ok(ctx, gpurf_rf_design_set(ctx, &d, "crossbar.wire", "global"));
  assert_int_equal(d.crossbar.wire, GPURF_WIRE_GLOBAL);
  assert_ok(ctx, gpurf_rf_design_set(ctx, &d, "extras[0].kind", "rename_table"));
  assert_int_equal(d.extras[0].kind, GPURF_RF_EXTRA_RENAME_TABLE);
  assert_ok(ctx, gpurf_rf_design_set(ctx, &d, "banks[0].ports", "3r1w"));
  assert_int_equal(d.bank_groups[0].ports.read, 3);
  gpurf_ctx_free(ctx);
}

/* The library allocates tables and designs (their sizes are not ABI) and
 * hands out their elements by index, refusing indices beyond the counts. */
static void allocation_and_access(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_rf_design *d = gpurf_rf_design_alloc(), *e = gpurf_rf_design_alloc();
  gpurf_rf_table *t = gpurf_rf_table_alloc(), *u = gpurf_rf_table_alloc();
  assert_true(d && e && t && u);
  assert_int_equal(t->n_components, 0);
  assert_null(gpurf_rf_table_component(t, 0));
  fermi_by_hand(d);
  gpurf_rf_design_copy(e, d);
  assert_memory_equal(d, e, sizeof *d);
  gpurf_rf_bank_group *g = gpurf_rf_design_bank_group(e, 0);
  assert_non_null(g);
  g->count = 8;
  assert_null(gpurf_rf_design_bank_group(e, 1));
  assert_non_null(gpurf_rf_design_extra(e, 0));
  assert_null(gpurf_rf_design_extra(e, 1));
  assert_ok(ctx, gpurf_rf_design_table(ctx, e, t));
  const gpurf_rf_component *c = gpurf_rf_table_component(t, 0);
  assert_non_null(c);
  assert_int_equal(c->instances, 8);
  assert_null(gpurf_rf_table_component(t, t->n_components));
  assert_null(gpurf_rf_table_component(t, -1));
  const gpurf_rf_event *ev = gpurf_rf_component_event(c, 1);
  assert_non_null(ev);
  assert_string_equal(ev->name, GPURF_EV_WRITE);
  assert_null(gpurf_rf_component_event(c, c->n_events));
  gpurf_rf_table_copy(u, t);
  assert_memory_equal(t, u, sizeof *t);
  gpurf_rf_table_free(t);
  gpurf_rf_table_free(u);
  gpurf_rf_design_free(d);
  gpurf_rf_design_free(e);
  gpurf_rf_table_free(NULL);
  gpurf_rf_design_free(NULL);
  gpurf_ctx_free(ctx);
}

/* Names and parsers of the design's own enumerations agree. */
static void enum_names_round_trip(void **state) {
  (void)state;
  for (int i = 0; i < GPURF_RF_EXTRA_KIND_COUNT; i++) {
    gpurf_rf_extra_kind k;
    assert_int_equal(gpurf_rf_extra_kind_parse(gpurf_rf_extra_kind_name((gpurf_rf_extra_kind)i), &k),
                     GPURF_OK);
    assert_int_equal(k, i);
  }
  for (int i = 1; i < GPURF_RF_POLICY_COUNT; i++) {
    gpurf_rf_policy p;
    assert_int_equal(gpurf_rf_policy_parse(gpurf_rf_policy_name((gpurf_rf_policy)i), &p), GPURF_OK);
    assert_int_equal(p, i);
  }
  gpurf_rf_port_place pl;
  assert_int_equal(gpurf_rf_port_place_parse("edge", &pl), GPURF_OK);
  assert_int_equal(pl, GPURF_RF_PORT_EDGE);
  assert_int_equal(gpurf_rf_policy_parse("", NULL), GPURF_EINVAL);
  assert_string_equal(gpurf_rf_extra_kind_name((gpurf_rf_extra_kind)99), "?");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(by_hand_matches_the_file),
      cmocka_unit_test(bad_fields_are_refused),
      cmocka_unit_test(bad_words_are_refused),
      cmocka_unit_test(allocation_and_access),
      cmocka_unit_test(enum_names_round_trip),
  };
  return cmocka_run_group_tests_name("rf_design_api", tests, NULL, NULL);
}
