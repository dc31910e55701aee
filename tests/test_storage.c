/* The storage components of published techniques: the sizing facts each
 * paper states, derived from field widths (Jeon's 3.8 KB and 1 KB renaming
 * table, WarRF's write pool under 6% of the RF, SIMTight's Fig. 8 storage),
 * input checks, and bigger-costs-more properties. */
#include <string.h>

#include "test_util.h"

typedef struct fixture {
  gpurf_ctx *ctx;
  gpurf_tech *t22, *t40;
  gpurf_sram_cells cells;
  gpurf_cell dff;
} fixture;

static int setup(void **state) {
  static fixture f;
  f.ctx = test_ctx();
  f.t22 = test_tech(f.ctx, "22nm");
  f.t40 = test_tech(f.ctx, "40nm");
  assert_ok(f.ctx, gpurf_sram_cells_load(f.ctx, &f.cells));
  assert_ok(f.ctx, gpurf_cell_load(f.ctx, "dff", &f.dff));
  *state = &f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  gpurf_tech_free(f->t22);
  gpurf_tech_free(f->t40);
  gpurf_ctx_free(f->ctx);
  return 0;
}

static gpurf_rename_cost rename_eval(fixture *f, const gpurf_rename_spec *s) {
  gpurf_rename_cost c;
  assert_ok(f->ctx, gpurf_rename_eval(f->ctx, s, &c));
  return c;
}

static gpurf_rename_spec rename_spec(fixture *f) {
  gpurf_rename_spec s;
  gpurf_rename_spec_init(&s);
  s.tech = f->t40;
  s.cells = &f->cells;
  return s;
}

/* Jeon: 48 warps x 63 registers x 10 bits = 3.8 KB; limited to 1 KB by
 * exempting long-lived registers; release flag cache 10 x 54 bits = 68 B. */
static void rename_table_sizes(void **state) {
  fixture *f = *state;
  gpurf_rename_spec s = rename_spec(f);
  gpurf_rename_cost c = rename_eval(f, &s);
  assert_int_equal(c.entry_bits, 10);
  assert_int_equal(c.table_bits, 48 * 63 * 10);
  assert_int_equal(c.exempt_regs, 0);
  double kb = c.table_bits / 8.0 / 1000.0;
  assert_true(kb >= 3.75 && kb < 3.85);
  assert_int_equal(c.availability_bits, 1024);
  assert_int_equal((c.flag_cache_bits + 7) / 8, 68);
  s.budget_bytes = 1024;
  gpurf_rename_cost small = rename_eval(f, &s);
  assert_true(small.table_bits <= 1024 * 8);
  assert_true(small.table_bits > 0.99 * 1024 * 8);
  assert_int_equal(small.renamed_regs + small.exempt_regs, 63);
  assert_true(small.exempt_regs > 0);
  assert_true(small.base.area_m2 < c.base.area_m2);
  assert_true(test_ev_j(&small.base, GPURF_EV_LOOKUP) < test_ev_j(&c.base, GPURF_EV_LOOKUP));
  assert_true(test_ev_j(&c.base, GPURF_EV_ALLOC) > test_ev_j(&c.base, GPURF_EV_RELEASE) &&
              test_ev_j(&c.base, GPURF_EV_RELEASE) > 0);
  assert_true(test_ev_s(&c.base, GPURF_EV_LOOKUP) > 0 && test_ev_s(&c.base, GPURF_EV_ALLOC) > 0 &&
              test_leak_w(&c.base) > 0);
}

static void rename_grows_with_warps_and_registers(void **state) {
  fixture *f = *state;
  gpurf_rename_spec s = rename_spec(f);
  s.flag_entries = 0;
  gpurf_rename_cost c0 = rename_eval(f, &s);
  assert_int_equal(c0.flag_cache_bits, 0);
  s.warps = 96;
  gpurf_rename_cost cw = rename_eval(f, &s);
  s.warps = 48;
  s.arch_regs = 127;
  gpurf_rename_cost cr = rename_eval(f, &s);
  s.arch_regs = 63;
  s.phys_regs = 2048;
  gpurf_rename_cost cp = rename_eval(f, &s);
  assert_true(cw.base.area_m2 > c0.base.area_m2 && cr.base.area_m2 > c0.base.area_m2 &&
              cp.base.area_m2 > c0.base.area_m2);
  assert_true(cw.table_bits == 2 * c0.table_bits);
  assert_int_equal(cp.entry_bits, 11);
  assert_true(test_ev_j(&cp.base, GPURF_EV_ALLOC) > test_ev_j(&c0.base, GPURF_EV_ALLOC));
}

static void rename_bad_specs(void **state) {
  fixture *f = *state;
  gpurf_rename_spec s = rename_spec(f), bad[5];
  for (int i = 0; i < 5; i++) bad[i] = s;
  bad[0].cells = NULL;
  bad[1].warps = 0;
  bad[2].phys_regs = 1022; /* not a multiple of 4 banks */
  bad[3].budget_bytes = 10; /* below one register of 48 warps */
  bad[4].flag_bits = 0;
  gpurf_rename_cost c;
  for (int i = 0; i < 5; i++)
    if (gpurf_rename_eval(f->ctx, &bad[i], &c) != GPURF_EINVAL) fail_msg("bad spec %d accepted", i);
}

static gpurf_wpool_cost wpool_eval(fixture *f, int entries) {
  gpurf_wpool_spec s;
  gpurf_wpool_spec_init(&s);
  s.tech = f->t22;
  s.cells = &f->cells;
  s.entries = entries;
  gpurf_wpool_cost c;
  assert_ok(f->ctx, gpurf_wpool_eval(f->ctx, &s, &c));
  return c;
}

/* WarRF: a 60-entry pool costs under 6% of the 128 KB, 16-bank RF (22 nm). */
static void write_pool_share_of_the_rf(void **state) {
  fixture *f = *state;
  gpurf_wpool_cost c = wpool_eval(f, 60);
  assert_int_equal(c.key_bits, 6 + 6);
  assert_int_equal(c.payload_bits, 1 + 6);
  assert_int_equal(c.array_bits, 60 * 1024);
  gpurf_bank_spec b;
  gpurf_bank_spec_init(&b);
  b.tech = f->t22;
  b.cell = &f->cells.single_port;
  b.entries = 1024;
  b.width_bits = 1024;
  b.banks = 16;
  gpurf_bank_cost rf;
  assert_ok(f->ctx, gpurf_bank_eval(f->ctx, &b, &rf));
  double share = c.base.area_m2 / rf.area_m2;
  assert_true(share > 0.01 && share < 0.06);
  assert_true(gpurf_component_cost_part_m2(&c.base, "cam") > 0 &&
              gpurf_component_cost_part_m2(&c.base, "cam") < c.array.area_m2);
  assert_true(test_ev_j(&c.base, GPURF_EV_CAM_SEARCH) > 0 &&
              test_ev_j(&c.base, GPURF_EV_CAM_UPDATE) > 0);
  assert_true(test_ev_j(&c.base, GPURF_EV_READ) > test_ev_j(&c.base, GPURF_EV_CAM_SEARCH));
  assert_true(test_ev_s(&c.base, GPURF_EV_CAM_SEARCH) > 0 &&
              test_leak_w(&c.base) > c.cam_leakage_w);
}

static void write_pool_grows_with_entries(void **state) {
  fixture *f = *state;
  gpurf_wpool_cost a = wpool_eval(f, 30), b = wpool_eval(f, 120);
  assert_true(b.base.area_m2 > a.base.area_m2 && gpurf_component_cost_part_m2(&b.base, "cam") >
                                                     gpurf_component_cost_part_m2(&a.base, "cam"));
  assert_true(test_ev_j(&b.base, GPURF_EV_CAM_SEARCH) > test_ev_j(&a.base, GPURF_EV_CAM_SEARCH));
  assert_true(test_leak_w(&b.base) > test_leak_w(&a.base));
  gpurf_wpool_spec s;
  gpurf_wpool_spec_init(&s);
  s.tech = f->t22;
  s.cells = &f->cells;
  s.entries = 0;
  gpurf_wpool_cost c;
  assert_int_equal(gpurf_wpool_eval(f->ctx, &s, &c), GPURF_EINVAL);
}

static gpurf_crf_cost crf_eval(fixture *f, int vrf, int separate) {
  gpurf_crf_spec s;
  gpurf_crf_spec_init(&s);
  s.tech = f->t40;
  s.cells = &f->cells;
  s.vrf_regs = vrf;
  s.pointer_in_base = !separate;
  gpurf_crf_cost c;
  assert_ok(f->ctx, gpurf_crf_eval(f->ctx, &s, &c));
  return c;
}

/* SIMTight Fig. 8: 2097 kbit uncompressed, 1202 / 672 / 407 kbit for VRFs of
 * 1024 / 512 / 256 vector registers, from the field widths. */
static void simtight_storage_totals(void **state) {
  fixture *f = *state;
  const struct {
    int vrf;
    double kbit;
  } fig8[] = {{0, 2097}, {1024, 1202}, {512, 672}, {256, 407}};
  double prev_area = 0.0;
  for (int i = 0; i < 4; i++) {
    gpurf_crf_cost c = crf_eval(f, fig8[i].vrf, 0);
    assert_rel(c.total_bits / 1000.0, fig8[i].kbit, 0.005);
    assert_int_equal(c.total_bits, c.srf_bits + c.vrf_bits + c.stack_bits);
    if (i > 0) {
      assert_int_equal(c.srf_entry_bits, 1 + 32 + 2);
      assert_true(c.base.area_m2 < prev_area);
      assert_true(test_ev_j(&c.base, GPURF_EV_STACK_PUSH) > 0 &&
                  test_ev_j(&c.base, GPURF_EV_STACK_POP) > 0);
      assert_true(test_ev_j(&c.base, GPURF_EV_SRF_WRITE) > c.srf.write_energy_j);
      assert_true(c.base.access_time_s > c.vrf.access_time_s);
    }
    prev_area = c.base.area_m2;
  }
  /* A pointer field of its own costs its bits in every SRF entry. */
  gpurf_crf_cost sep = crf_eval(f, 512, 1);
  assert_int_equal(sep.srf_entry_bits, 1 + 32 + 2 + 9);
}

static void crf_bad_specs(void **state) {
  fixture *f = *state;
  gpurf_crf_spec s;
  gpurf_crf_spec_init(&s);
  s.tech = f->t40;
  s.cells = &f->cells;
  gpurf_crf_spec bad[4];
  for (int i = 0; i < 4; i++) bad[i] = s;
  bad[0].vrf_regs = 255;  /* below four slots per warp */
  bad[1].vrf_regs = 4096; /* more slots than registers */
  bad[2].warps = 0;
  bad[3].vrf_regs = 512, bad[3].srf_copies = 0;
  gpurf_crf_cost c;
  for (int i = 0; i < 4; i++)
    if (gpurf_crf_eval(f->ctx, &bad[i], &c) != GPURF_EINVAL) fail_msg("bad spec %d accepted", i);
}

static gpurf_rfc_tags_cost tags_eval(fixture *f, int warps, int entries, int lookups) {
  gpurf_rfc_tags_spec s;
  gpurf_rfc_tags_spec_init(&s);
  s.tech = f->t40;
  s.cell = &f->dff;
  s.warps = warps;
  s.entries_per_thread = entries;
  s.lookups = lookups;
  gpurf_rfc_tags_cost c;
  assert_ok(f->ctx, gpurf_rfc_tags_eval(f->ctx, &s, &c));
  return c;
}

/* Gebhart's HW RFC tags: 6-bit register ids with valid and dirty bits, a row
 * of six per active warp (8 x 48 bits); more warps, entries or operands
 * cost more; a check takes well under a 1 GHz cycle (its own pipeline
 * stage, Section 4.1). */
static void rfc_tags_sizes_and_growth(void **state) {
  fixture *f = *state;
  gpurf_rfc_tags_cost c = tags_eval(f, 8, 6, 4);
  assert_int_equal(c.tag_bits, 8);
  assert_int_equal(c.store_bits, 8 * 6 * 8);
  assert_true(test_ev_j(&c.base, GPURF_EV_CHECK) > c.store.read_energy_j);
  assert_true(c.base.access_time_s > 0.0 && c.base.access_time_s < 1e-9);
  assert_rel(c.base.area_m2,
             gpurf_component_cost_part_m2(&c.base, "store") +
                 gpurf_component_cost_part_m2(&c.base, "compare"),
             1e-12);
  gpurf_rfc_tags_cost more_warps = tags_eval(f, 16, 6, 4);
  gpurf_rfc_tags_cost more_entries = tags_eval(f, 8, 8, 4);
  gpurf_rfc_tags_cost fewer_ops = tags_eval(f, 8, 6, 2);
  assert_true(gpurf_component_cost_part_m2(&more_warps.base, "store") >
              gpurf_component_cost_part_m2(&c.base, "store"));
  assert_true(test_leak_w(&more_warps.base) > test_leak_w(&c.base));
  assert_true(more_entries.base.area_m2 > c.base.area_m2);
  assert_true(test_ev_j(&more_entries.base, GPURF_EV_CHECK) > test_ev_j(&c.base, GPURF_EV_CHECK));
  assert_true(test_ev_j(&fewer_ops.base, GPURF_EV_CHECK) < test_ev_j(&c.base, GPURF_EV_CHECK));
  assert_true(gpurf_component_cost_part_m2(&fewer_ops.base, "compare") <
              gpurf_component_cost_part_m2(&c.base, "compare"));
}

static void rfc_tags_bad_specs(void **state) {
  fixture *f = *state;
  gpurf_rfc_tags_spec s;
  gpurf_rfc_tags_spec_init(&s);
  s.tech = f->t40;
  gpurf_rfc_tags_cost c;
  assert_int_equal(gpurf_rfc_tags_eval(f->ctx, &s, &c), GPURF_EINVAL); /* no cell */
  s.cell = &f->cells.single_port;
  assert_int_equal(gpurf_rfc_tags_eval(f->ctx, &s, &c), GPURF_EINVAL); /* not a flop */
  s.cell = &f->dff;
  s.entries_per_thread = 0;
  assert_int_equal(gpurf_rfc_tags_eval(f->ctx, &s, &c), GPURF_EINVAL);
  s.entries_per_thread = 6;
  s.arch_regs = 1;
  assert_int_equal(gpurf_rfc_tags_eval(f->ctx, &s, &c), GPURF_EINVAL);
  s.arch_regs = 63;
  s.lookups = 9;
  assert_int_equal(gpurf_rfc_tags_eval(f->ctx, &s, &c), GPURF_EINVAL);
  s.lookups = 4;
  assert_ok(f->ctx, gpurf_rfc_tags_eval(f->ctx, &s, &c));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rename_table_sizes),
      cmocka_unit_test(rename_grows_with_warps_and_registers),
      cmocka_unit_test(rename_bad_specs),
      cmocka_unit_test(write_pool_share_of_the_rf),
      cmocka_unit_test(write_pool_grows_with_entries),
      cmocka_unit_test(simtight_storage_totals),
      cmocka_unit_test(crf_bad_specs),
      cmocka_unit_test(rfc_tags_sizes_and_growth),
      cmocka_unit_test(rfc_tags_bad_specs),
  };
  return cmocka_run_group_tests_name("storage", tests, setup, teardown);
}
