/* The SRAM bank model: input checks, names, organisation and padding, and
 * the properties every physical model must have (bigger costs more). */
#include <math.h>
#include <string.h>

#include "test_fixtures.h"

typedef struct fixture {
  gpurf_ctx *ctx;
  gpurf_tech *tech[4];
  gpurf_cell c6, c8, cm, stt;
} fixture;

static int setup(void **state) {
  static fixture f;
  f.ctx = test_ctx();
  const char *nodes[] = {"22nm", "32nm", "45nm", "90nm"};
  for (int i = 0; i < 4; i++) f.tech[i] = test_tech(f.ctx, nodes[i]);
  assert_ok(f.ctx, gpurf_cell_load(f.ctx, "sram-6t", &f.c6));
  assert_ok(f.ctx, gpurf_cell_load(f.ctx, "sram-8t-1r1w", &f.c8));
  assert_ok(f.ctx, gpurf_cell_load(f.ctx, "sram-multiport", &f.cm));
  assert_ok(f.ctx, gpurf_cell_load(f.ctx, "stt-40f2-cal-vol", &f.stt));
  *state = &f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  for (int i = 0; i < 4; i++) gpurf_tech_free(f->tech[i]);
  gpurf_ctx_free(f->ctx);
  return 0;
}

static gpurf_bank_spec spec_for(fixture *f, int node, long long entries, int width,
                                const char *ports, int banks, gpurf_bank_opt opt) {
  gpurf_bank_spec s;
  gpurf_bank_spec_init(&s);
  assert_int_equal(gpurf_ports_parse(ports, &s.ports), GPURF_OK);
  s.tech = f->tech[node];
  s.cell = s.ports.rw == 1 && s.ports.read == 0 && s.ports.write == 0 ? &f->c6
           : s.ports.rw == 0 && s.ports.read == 1 && s.ports.write == 1 ? &f->c8
                                                                         : &f->cm;
  s.entries = entries;
  s.width_bits = width;
  s.banks = banks;
  s.opt = opt;
  return s;
}

static void ports_parse_and_format(void **state) {
  (void)state;
  const char *good[] = {"1rw", "1r1w", "3r1w", "2rw1r", "4r2w", "1rw1w"};
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    gpurf_ports p;
    assert_int_equal(gpurf_ports_parse(good[i], &p), GPURF_OK);
    char buf[32];
    gpurf_ports_format(&p, buf, sizeof buf);
    assert_string_equal(buf, good[i]);
  }
  const char *bad[] = {"", "rw", "1r", "1w", "0rw", "1x", "1rw1rw", "17rw", "3r1w2", "-1rw"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    gpurf_ports p;
    if (gpurf_ports_parse(bad[i], &p) == GPURF_OK) fail_msg("'%s' was accepted", bad[i]);
  }
  gpurf_bank_opt o;
  for (int i = 0; i < GPURF_BANK_OPT_COUNT; i++) {
    assert_int_equal(gpurf_bank_opt_parse(gpurf_bank_opt_name((gpurf_bank_opt)i), &o), GPURF_OK);
    assert_int_equal(o, i);
  }
  assert_int_equal(gpurf_bank_opt_parse("speed", &o), GPURF_EINVAL);
  gpurf_bank_space sp;
  for (int i = 0; i < GPURF_BANK_SPACE_COUNT; i++) {
    assert_int_equal(gpurf_bank_space_parse(gpurf_bank_space_name((gpurf_bank_space)i), &sp), GPURF_OK);
    assert_int_equal(sp, i);
  }
  assert_int_equal(gpurf_bank_space_parse("nvsim", &sp), GPURF_EINVAL);
  assert_string_equal(gpurf_bank_space_name(GPURF_BANK_SPACE_COUNT), "?");
  for (int i = 0; i < GPURF_BANK_PART_COUNT; i++) assert_string_not_equal(gpurf_bank_part_name(i), "?");
}

static void bad_specs_are_rejected(void **state) {
  fixture *f = *state;
  gpurf_bank_cost c;
  gpurf_bank_spec s = spec_for(f, 1, 256, 128, "1rw", 1, GPURF_BANK_OPT_ED2);
  gpurf_bank_spec t = s;
  t.entries = 0;
  assert_int_equal(gpurf_bank_eval(f->ctx, &t, &c), GPURF_EINVAL);
  t = s;
  t.width_bits = 0;
  assert_int_equal(gpurf_bank_eval(f->ctx, &t, &c), GPURF_EINVAL);
  t = s;
  t.banks = 512;
  assert_int_equal(gpurf_bank_eval(f->ctx, &t, &c), GPURF_EINVAL); /* fewer words than banks */
  t = s;
  t.banks = 3;
  assert_int_equal(gpurf_bank_eval(f->ctx, &t, &c), GPURF_EINVAL); /* uneven split */
  assert_non_null(strstr(gpurf_ctx_error(f->ctx)->message, "split evenly"));
  t = s;
  t.ports = (gpurf_ports){0, 2, 0};
  assert_int_equal(gpurf_bank_eval(f->ctx, &t, &c), GPURF_EINVAL);
  t = s;
  t.temp_k = 500.0;
  assert_int_equal(gpurf_bank_eval(f->ctx, &t, &c), GPURF_EUNSUPPORTED);
  t = s;
  t.cell = &f->stt;
  t.ports = (gpurf_ports){0, 1, 1}; /* a 1T1MTJ cell has one port */
  assert_int_equal(gpurf_bank_eval(f->ctx, &t, &c), GPURF_EINVAL);
  t = s;
  t.split_write = 1; /* an STT-RAM option */
  assert_int_equal(gpurf_bank_eval(f->ctx, &t, &c), GPURF_EINVAL);
  t = s;
  t.space = GPURF_BANK_SPACE_CACTI; /* CACTI's space is an SRAM one */
  t.cell = &f->stt;
  assert_int_equal(gpurf_bank_eval(f->ctx, &t, &c), GPURF_EINVAL);
  t = s;
  t.space = GPURF_BANK_SPACE_CACTI; /* whole mats open: no gate groups */
  t.gate_groups = 2;
  assert_int_equal(gpurf_bank_eval(f->ctx, &t, &c), GPURF_EINVAL);
  t = s;
  t.space = GPURF_BANK_SPACE_COUNT;
  assert_int_equal(gpurf_bank_eval(f->ctx, &t, &c), GPURF_EINVAL);
  t = s;
  t.gate_groups = 3; /* not a power of two */
  assert_int_equal(gpurf_bank_eval(f->ctx, &t, &c), GPURF_EINVAL);
  t.gate_groups = 128;
  assert_int_equal(gpurf_bank_eval(f->ctx, &t, &c), GPURF_EINVAL);
  t = s;
  t.entries = 2;
  t.gate_groups = 4; /* two words cannot form four groups */
  assert_int_equal(gpurf_bank_eval(f->ctx, &t, &c), GPURF_EINVAL);
  t = s;
  t.cell = &f->stt; /* MTJ cells do not leak: nothing to gate */
  t.tech = f->tech[0];
  t.gate_groups = 2;
  assert_int_equal(gpurf_bank_eval(f->ctx, &t, &c), GPURF_EINVAL);
  assert_non_null(strstr(gpurf_ctx_error(f->ctx)->message, "power gating"));
  t = s;
  t.tech = NULL;
  assert_int_equal(gpurf_bank_eval(f->ctx, &t, &c), GPURF_EINVAL);
  t = s;
  t.entries = 1LL << 40;
  assert_int_equal(gpurf_bank_eval(f->ctx, &t, &c), GPURF_EINVAL);
}

/* Odd sizes are built from whole cells: a 60-entry write pool of 1024-bit
 * words and 10-bit renaming entries, with the padding reported. */
static void odd_sizes_are_padded_physically(void **state) {
  fixture *f = *state;
  const struct {
    long long entries;
    int width;
  } cases[] = {{60, 1024}, {3072, 10}, {1, 1}, {7, 3}, {48 * 63, 10}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    gpurf_bank_spec s = spec_for(f, 0, cases[i].entries, cases[i].width, "1rw", 1, GPURF_BANK_OPT_ED2);
    gpurf_bank_cost c = test_bank_eval(f->ctx, &s);
    const gpurf_bank_org *o = &c.org;
    long long built = (long long)o->rows * o->ndbl * o->cols * o->ndwl;
    assert_true(built >= cases[i].entries * cases[i].width);
    assert_int_equal(built - cases[i].entries * cases[i].width, o->padding_bits);
    assert_true((long long)o->rows * o->ndbl * o->col_mux >= cases[i].entries);
    assert_int_equal(o->cols % o->col_mux, 0);
    assert_true((o->cols / o->col_mux) * o->ndwl >= cases[i].width);
    assert_true(c.area_m2 > 0.0 && c.read_energy_j > 0.0 && c.access_time_s > 0.0);
  }
}

static void totals_are_the_sum_of_their_parts(void **state) {
  fixture *f = *state;
  gpurf_bank_spec s = spec_for(f, 1, 8 * 1024, 1024, "1rw", 8, GPURF_BANK_OPT_ED2);
  gpurf_bank_cost c = test_bank_eval(f->ctx, &s);
  test_check_part_sums(&c);
  assert_true(c.area_part_m2[GPURF_BANK_PART_INTERBANK] > 0.0);
  assert_true(c.cycle_time_s > 0.0 && c.write_latency_s > 0.0);
  assert_true(c.candidates > 1);
}

static void clock_gives_whole_cycles(void **state) {
  fixture *f = *state;
  gpurf_bank_spec s = spec_for(f, 2, 256, 128, "1r1w", 1, GPURF_BANK_OPT_ED2);
  s.clock_hz = 1e9;
  gpurf_bank_cost c = test_bank_eval(f->ctx, &s);
  assert_true(c.read_cycles >= 1 && c.write_cycles >= 1);
  assert_true(c.read_cycles * 1e-9 >= c.access_time_s * (1 - 1e-9));
  assert_true((c.read_cycles - 1) * 1e-9 < c.access_time_s);
  s.clock_hz = 0.0;
  c = test_bank_eval(f->ctx, &s);
  assert_int_equal(c.read_cycles, 0);
}

/* Bigger costs more: at every node, for every single-metric objective, the
 * optimum grows with depth, with width and with ports, and splitting a
 * capacity into more banks takes more area. (Each objective is checked on
 * the metric it optimises: the search may trade the others.) */
static void bigger_costs_more(void **state) {
  fixture *f = *state;
  const gpurf_bank_opt opts[] = {GPURF_BANK_OPT_DELAY, GPURF_BANK_OPT_ENERGY, GPURF_BANK_OPT_AREA, GPURF_BANK_OPT_LEAKAGE};
  const char *const ports[] = {"1rw", "1r1w", "2r1w", "3r1w", "4r2w"};
  for (int node = 0; node < 4; node += 3) {
    for (size_t oi = 0; oi < 4; oi++) {
      gpurf_bank_opt o = opts[oi];
      const int widths[] = {10, 128, 1024};
      for (size_t wi = 0; wi < 3; wi++) {
        double prev = 0.0;
        for (long long e = 1; e <= 16384; e *= 4) {
          gpurf_bank_spec s = spec_for(f, node, e, widths[wi], "1rw", 1, o);
          gpurf_bank_cost c = test_bank_eval(f->ctx, &s);
          double m = test_objective_metric(&c, o);
          if (m < prev) fail_msg("%s: %lld x %d bits costs %g < %g", gpurf_bank_opt_name(o), e,
                                 widths[wi], m, prev);
          prev = m;
        }
      }
      double prev = 0.0;
      for (int w = 1; w <= 2048; w *= 4) {
        gpurf_bank_spec s = spec_for(f, node, 256, w, "1rw", 1, o);
        gpurf_bank_cost c = test_bank_eval(f->ctx, &s);
        double m = test_objective_metric(&c, o);
        if (m < prev) fail_msg("%s: width %d costs %g < %g", gpurf_bank_opt_name(o), w, m, prev);
        prev = m;
      }
      prev = 0.0;
      for (size_t pi = 0; pi < sizeof ports / sizeof ports[0]; pi++) {
        gpurf_bank_spec s = spec_for(f, node, 1024, 128, ports[pi], 1, o);
        gpurf_bank_cost c = test_bank_eval(f->ctx, &s);
        double m = test_objective_metric(&c, o);
        if (m < prev) fail_msg("%s: ports %s cost %g < %g", gpurf_bank_opt_name(o), ports[pi], m, prev);
        prev = m;
      }
    }
    double prev = 0.0;
    for (int b = 1; b <= 32; b *= 2) {
      gpurf_bank_spec s = spec_for(f, node, 1024, 1024, "1rw", b, GPURF_BANK_OPT_AREA);
      gpurf_bank_cost c = test_bank_eval(f->ctx, &s);
      if (c.area_m2 <= prev) fail_msg("%d banks take %g m2 <= %g", b, c.area_m2, prev);
      prev = c.area_m2;
    }
  }
}

/* Leakage rises with temperature, through the node's leakage table. */
static void leakage_follows_temperature(void **state) {
  fixture *f = *state;
  gpurf_bank_spec s = spec_for(f, 1, 1024, 128, "1rw", 1, GPURF_BANK_OPT_ED2);
  s.temp_k = 300.0;
  gpurf_bank_cost cold = test_bank_eval(f->ctx, &s);
  s.temp_k = 380.0;
  gpurf_bank_cost hot = test_bank_eval(f->ctx, &s);
  assert_true(hot.leakage_sub_w > 2.0 * cold.leakage_sub_w);
}

/* With the port along the edge a wide bank needs no data bus of its own:
 * less area and read energy, and the address still reaches every row. */
static void edge_port_drops_the_data_bus(void **state) {
  fixture *f = *state;
  gpurf_bank_spec s = spec_for(f, 1, 64, 1024, "1rw", 1, GPURF_BANK_OPT_ED2);
  gpurf_bank_cost point = test_bank_eval(f->ctx, &s);
  s.port_along_edge = 1;
  gpurf_bank_cost edge = test_bank_eval(f->ctx, &s);
  assert_true(edge.area_m2 < point.area_m2);
  assert_true(edge.read_energy_j < point.read_energy_j);
  assert_true(edge.read_part_j[GPURF_BANK_PART_ROUTING] < point.read_part_j[GPURF_BANK_PART_ROUTING]);
  assert_true(edge.read_part_j[GPURF_BANK_PART_ROUTING] > 0.0);
  assert_rel(edge.area_part_m2[GPURF_BANK_PART_CELLS], point.area_part_m2[GPURF_BANK_PART_CELLS], 0.5);
}

/* Minimum-length periphery leaks more by the node's long-channel factor and
 * changes nothing else: cells keep their leakage, dynamic costs stay. */
static void nominal_periphery_leaks_more(void **state) {
  fixture *f = *state;
  gpurf_bank_spec s = spec_for(f, 1, 256, 256, "1rw", 1, GPURF_BANK_OPT_AREA);
  gpurf_bank_cost lc = test_bank_eval(f->ctx, &s);
  s.long_channel_periphery = 0;
  gpurf_bank_cost nom = test_bank_eval(f->ctx, &s);
  double factor = gpurf_tech_device_value(gpurf_tech_device(f->tech[1], GPURF_DEVICE_HP),
                                     GPURF_DEVICE_LONG_CHANNEL_LEAKAGE_FACTOR);
  assert_true(factor < 1.0);
  assert_rel(nom.leakage_part_w[GPURF_BANK_PART_CELLS], lc.leakage_part_w[GPURF_BANK_PART_CELLS], 1e-12);
  assert_rel(nom.leakage_part_w[GPURF_BANK_PART_DECODER] * factor,
             lc.leakage_part_w[GPURF_BANK_PART_DECODER], 1e-9);
  assert_rel(nom.read_energy_j, lc.read_energy_j, 1e-12);
  assert_rel(nom.area_m2, lc.area_m2, 1e-12);
  assert_true(nom.leakage_sub_w > lc.leakage_sub_w);
}

/* Sub-array power gating: the groups are whole rows of sub-arrays; a gated
 * group keeps only a small part of its share (the footer and the bank's
 * routing); waking is fast and costs about an access; finer groups wake
 * cheaper; the footers cost a little area and nothing else changes much. */
static void power_gating_groups(void **state) {
  fixture *f = *state;
  gpurf_bank_spec s = spec_for(f, 1, 128, 128, "1rw", 1, GPURF_BANK_OPT_ED2);
  s.clock_hz = 7e8;
  gpurf_bank_cost plain = test_bank_eval(f->ctx, &s);
  assert_int_equal(plain.gate_groups, 0);
  assert_true(plain.area_part_m2[GPURF_BANK_PART_SLEEP] == 0.0);
  double wake_prev = INFINITY;
  for (int g = 1; g <= 8; g *= 2) {
    s.gate_groups = g;
    gpurf_bank_cost c = test_bank_eval(f->ctx, &s);
    assert_int_equal(c.gate_groups, g);
    assert_int_equal(c.org.ndbl % g, 0);
    assert_true(c.gated_leakage_fraction > 0.0 && c.gated_leakage_fraction < 0.5);
    assert_true(c.wake_energy_j > 0.0 && c.wake_energy_j < 5.0 * c.write_energy_j);
    assert_true(c.wake_latency_s > 0.0 && c.wake_latency_s < 1e-9);
    assert_int_equal(c.wake_cycles, 1);
    assert_true(c.area_part_m2[GPURF_BANK_PART_SLEEP] > 0.0);
    assert_true(c.area_part_m2[GPURF_BANK_PART_SLEEP] < 0.1 * c.area_m2);
    assert_true(c.wake_energy_j < wake_prev);
    wake_prev = c.wake_energy_j;
  }
}

/* The wiring between banks, built as CACTI 7 builds its multi-bank tree: at a
 * fixed capacity more banks mean a longer path through the tree; its
 * repeaters sit on every branch, so the whole tree leaks more than the one
 * path CACTI's figure counts; its gate leakage is in the bank's; and the bus
 * wires are drawn narrower than the layer (more resistance, less
 * capacitance per metre) at every node. */
static void interbank_tree(void **state) {
  fixture *f = *state;
  double prev_delay = 0.0, prev_access = 0.0;
  for (int b = 2; b <= 32; b *= 2) {
    gpurf_bank_spec s = spec_for(f, 1, 1024, 1024, "1rw", b, GPURF_BANK_OPT_ED2);
    gpurf_bank_cost c = test_bank_eval(f->ctx, &s);
    double delay = c.delay_part_s[GPURF_BANK_PART_INTERBANK];
    if (delay <= prev_delay) fail_msg("%d banks: tree delay %g s <= %g s", b, delay, prev_delay);
    if (c.access_time_s <= prev_access) fail_msg("%d banks: access %g s <= %g s", b, c.access_time_s, prev_access);
    prev_delay = delay;
    prev_access = c.access_time_s;
    assert_true(c.interbank_path_leakage_sub_w > 0.0);
    assert_true(c.interbank_path_leakage_gate_w > 0.0);
    /* Two banks: one link from the port to the middle, path and tree alike. */
    if (b == 2) {
      assert_rel(c.interbank_path_leakage_sub_w, c.leakage_part_w[GPURF_BANK_PART_INTERBANK], 1e-12);
    } else {
      assert_true(c.interbank_path_leakage_sub_w < c.leakage_part_w[GPURF_BANK_PART_INTERBANK]);
      assert_true(c.interbank_path_leakage_gate_w < c.interbank_leakage_gate_w);
    }
    assert_true(c.leakage_gate_w > c.interbank_leakage_gate_w);
    assert_true(c.read_part_j[GPURF_BANK_PART_INTERBANK] > 0.0);
    assert_rel(c.read_part_j[GPURF_BANK_PART_INTERBANK], c.write_part_j[GPURF_BANK_PART_INTERBANK], 1e-12);
  }
  gpurf_bank_spec one = spec_for(f, 1, 1024, 1024, "1rw", 1, GPURF_BANK_OPT_ED2);
  gpurf_bank_cost c1 = test_bank_eval(f->ctx, &one);
  assert_true(c1.interbank_leakage_gate_w == 0.0 && c1.interbank_path_leakage_sub_w == 0.0 &&
              c1.interbank_path_leakage_gate_w == 0.0);
  for (int i = 0; i < 4; i++) {
    for (int w = 0; w < GPURF_WIRE_COUNT; w++) {
      gpurf_wire_kind k = (gpurf_wire_kind)w;
      assert_true(gpurf_tech_wire_value(f->tech[i], k, GPURF_WIRE_BUS_R_OHM_PER_M) >
                  gpurf_tech_wire_value(f->tech[i], k, GPURF_WIRE_R_OHM_PER_M));
      assert_true(gpurf_tech_wire_value(f->tech[i], k, GPURF_WIRE_BUS_C_F_PER_M) <
                  gpurf_tech_wire_value(f->tech[i], k, GPURF_WIRE_C_F_PER_M));
    }
  }
}

static void same_input_same_output(void **state) {
  fixture *f = *state;
  gpurf_bank_spec s = spec_for(f, 0, 4096, 64, "3r1w", 4, GPURF_BANK_OPT_ED2);
  gpurf_bank_cost a = test_bank_eval(f->ctx, &s), b = test_bank_eval(f->ctx, &s);
  assert_memory_equal(&a, &b, sizeof a);
}

/* A search keeps nothing from one bank to the next: banks evaluated in one
 * order and in the reverse order cost the same, bit for bit. */
static void order_of_queries_does_not_matter(void **state) {
  fixture *f = *state;
  static const struct {
    int node;
    long long entries;
    int width;
    const char *ports;
    int banks;
    gpurf_bank_opt opt;
  } q[] = {{0, 4096, 64, "1rw", 1, GPURF_BANK_OPT_ED2},   {1, 2048, 128, "1r1w", 4, GPURF_BANK_OPT_EDP},
           {2, 960, 33, "3r1w", 3, GPURF_BANK_OPT_DELAY}, {3, 65536, 32, "1rw", 16, GPURF_BANK_OPT_ENERGY},
           {0, 512, 1024, "1r1w", 2, GPURF_BANK_OPT_AREA}, {1, 100, 7, "2rw1r", 5, GPURF_BANK_OPT_LEAKAGE},
           {2, 8192, 256, "1rw", 32, GPURF_BANK_OPT_ED2},  {3, 6, 1000, "4r2w", 2, GPURF_BANK_OPT_ED2}};
  enum { N = sizeof q / sizeof q[0] };
  gpurf_bank_cost fwd[N], rev[N];
  for (int k = 0; k < 2 * N; k++) {
    int i = k < N ? k : 2 * N - 1 - k;
    gpurf_bank_spec s = spec_for(f, q[i].node, q[i].entries, q[i].width, q[i].ports, q[i].banks,
                                 q[i].opt);
    gpurf_bank_cost c = test_bank_eval(f->ctx, &s);
    if (k < N) fwd[i] = c;
    else rev[i] = c;
  }
  for (int i = 0; i < N; i++) assert_memory_equal(&fwd[i], &rev[i], sizeof fwd[i]);
}

/* The context keeps the environments of the nodes it evaluated, with the
 * search's memo of driver chains: more of them than it keeps, asked for in
 * one order and then the other, and a node freed and another loaded in its
 * place, give every bank the bits a fresh context gives it. */
static void kept_environments_change_no_bit(void **state) {
  fixture *f = *state;
  static const double temps_k[] = {300.0, 320.0, 340.0, 360.0, 380.0};
  enum { NT = sizeof temps_k / sizeof temps_k[0], N = 4 * GPURF_DEVICE_COUNT * NT };
  for (int pass = 0; pass < 2; pass++) {
    for (int k = 0; k < N; k++) {
      const int i = pass ? N - 1 - k : k;
      const int banks = 1 + i % 3;
      gpurf_bank_spec s = spec_for(f, i % 4, banks * (512 + 64 * (i % 7)), 32 + 8 * (i % 5),
                                   "1r1w", banks, GPURF_BANK_OPT_ED2);
      s.device = (gpurf_device_kind)(i / 4 % GPURF_DEVICE_COUNT);
      s.temp_k = temps_k[i / (4 * GPURF_DEVICE_COUNT)];
      gpurf_bank_cost kept = test_bank_eval(f->ctx, &s);
      gpurf_ctx *fresh = test_ctx();
      gpurf_bank_cost alone = test_bank_eval(fresh, &s);
      gpurf_ctx_free(fresh);
      assert_memory_equal(&kept, &alone, sizeof kept);
    }
  }
  gpurf_tech *t = test_tech(f->ctx, "45nm");
  gpurf_bank_spec s = spec_for(f, 0, 2048, 64, "1rw", 2, GPURF_BANK_OPT_ED2);
  s.tech = t;
  (void)test_bank_eval(f->ctx, &s);
  gpurf_tech_free(t);
  s.tech = t = test_tech(f->ctx, "22nm"); /* (perhaps at the freed node's address) */
  gpurf_bank_cost kept = test_bank_eval(f->ctx, &s);
  gpurf_ctx *fresh = test_ctx();
  gpurf_bank_cost alone = test_bank_eval(fresh, &s);
  gpurf_ctx_free(fresh);
  assert_memory_equal(&kept, &alone, sizeof kept);
  gpurf_tech_free(t);
}

/* Every bank count the spec allows lays out, as the bank N times and the
 * wiring between them. */
static void every_bank_count_lays_out(void **state) {
  fixture *f = *state;
  gpurf_bank_spec s1 = spec_for(f, 1, 1, 16, "1rw", 1, GPURF_BANK_OPT_ED2);
  gpurf_bank_cost one = test_bank_eval(f->ctx, &s1);
  for (int banks = 2; banks <= 1024; banks++) {
    gpurf_bank_spec s = spec_for(f, 1, banks, 16, "1rw", banks, GPURF_BANK_OPT_ED2);
    gpurf_bank_cost c = test_bank_eval(f->ctx, &s);
    test_check_part_sums(&c);
    /* The same bank, N times, and the wiring between them. */
    assert_true(isfinite(c.area_m2) && c.area_m2 > banks * one.area_m2 * (1.0 - 1e-12));
    assert_true(c.delay_part_s[GPURF_BANK_PART_INTERBANK] > 0.0);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(ports_parse_and_format),
      cmocka_unit_test(bad_specs_are_rejected),
      cmocka_unit_test(odd_sizes_are_padded_physically),
      cmocka_unit_test(totals_are_the_sum_of_their_parts),
      cmocka_unit_test(clock_gives_whole_cycles),
      cmocka_unit_test(bigger_costs_more),
      cmocka_unit_test(leakage_follows_temperature),
      cmocka_unit_test(edge_port_drops_the_data_bus),
      cmocka_unit_test(nominal_periphery_leaks_more),
      cmocka_unit_test(power_gating_groups),
      cmocka_unit_test(interbank_tree),
      cmocka_unit_test(same_input_same_output),
      cmocka_unit_test(order_of_queries_does_not_matter),
      cmocka_unit_test(kept_environments_change_no_bit),
      cmocka_unit_test(every_bank_count_lays_out),
  };
  return cmocka_run_group_tests_name("bank", tests, setup, teardown);
}
