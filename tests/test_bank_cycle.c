/* Cycle time of every bank kind against the access it pipelines, over
 * random configurations (fixed seed, so a failure names a configuration
 * that reproduces):
 *   sub-array banks (SRAM, STT-RAM): the cycle is the slowest pipelined
 *     stage of a read, so it is never below the decoder nor below the
 *     sub-array's own busy time (wordline, bitline, sense, then the
 *     restore), and never above access + restore, since every stage but the
 *     restore lies on the access path;
 *   flip-flop and latch arrays: nothing is restored, and one clock serves
 *     reads and writes, so the cycle is the longer of the two. */
#include <string.h>

#include "test_fixtures.h"

#define TOL 1e-12

typedef struct fixture {
  gpurf_ctx *ctx;
  gpurf_tech *tech[6];
  gpurf_cell sram6t, sram8t, multiport, stt_vol, stt_cur, dff, latch;
} fixture;

static const char *const nodes[6] = {"22nm", "32nm", "40nm", "45nm", "65nm", "90nm"};

static int setup(void **state) {
  static fixture f;
  f.ctx = test_ctx();
  for (int i = 0; i < 6; i++) f.tech[i] = test_tech(f.ctx, nodes[i]);
  assert_ok(f.ctx, gpurf_cell_load(f.ctx, "sram-6t", &f.sram6t));
  assert_ok(f.ctx, gpurf_cell_load(f.ctx, "sram-8t-1r1w", &f.sram8t));
  assert_ok(f.ctx, gpurf_cell_load(f.ctx, "sram-multiport", &f.multiport));
  assert_ok(f.ctx, gpurf_cell_load(f.ctx, "stt-40f2-vol", &f.stt_vol));
  assert_ok(f.ctx, gpurf_cell_load(f.ctx, "stt-40f2-cur", &f.stt_cur));
  assert_ok(f.ctx, gpurf_cell_load(f.ctx, "dff", &f.dff));
  assert_ok(f.ctx, gpurf_cell_load(f.ctx, "latch", &f.latch));
  *state = &f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  for (int i = 0; i < 6; i++) gpurf_tech_free(f->tech[i]);
  gpurf_ctx_free(f->ctx);
  return 0;
}

/* xorshift64: a fixed sequence on every platform. */
static unsigned pick(uint64_t *s, unsigned n) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return (unsigned)(*s % n);
}

static void describe(const gpurf_bank_spec *s, int node, char *buf, size_t size) {
  char ports[32];
  gpurf_ports_format(&s->ports, ports, sizeof ports);
  snprintf(buf, size, "%s %s %s, %lld x %d bits, %d banks, split %d", nodes[node],
           s->cell->name, ports, s->entries, s->width_bits, s->banks, s->split_write);
}

/* access + restore >= cycle >= each stage the breakdown shows. */
static void check_subarray_cycle(const gpurf_bank_cost *c, const char *what) {
  const double *d = c->delay_part_s;
  double array = d[GPURF_BANK_PART_WORDLINE] + d[GPURF_BANK_PART_BITLINE] +
                 d[GPURF_BANK_PART_SENSE_AMP] + c->restore_time_s;
  if (!(c->restore_time_s > 0.0 && isfinite(c->cycle_time_s)))
    fail_msg("%s: restore %g s, cycle %g s", what, c->restore_time_s, c->cycle_time_s);
  if (c->cycle_time_s < array * (1.0 - TOL))
    fail_msg("%s: cycle %.4g ns below the sub-array's busy time %.4g ns", what,
             c->cycle_time_s * 1e9, array * 1e9);
  if (c->cycle_time_s < d[GPURF_BANK_PART_DECODER] * (1.0 - TOL))
    fail_msg("%s: cycle %.4g ns below the decoder stage %.4g ns", what, c->cycle_time_s * 1e9,
             d[GPURF_BANK_PART_DECODER] * 1e9);
  if (c->cycle_time_s > (c->access_time_s + c->restore_time_s) * (1.0 + TOL))
    fail_msg("%s: cycle %.4g ns above access %.4g + restore %.4g ns", what, c->cycle_time_s * 1e9,
             c->access_time_s * 1e9, c->restore_time_s * 1e9);
}

static void sram_cycle_within_stages_and_access(void **state) {
  fixture *f = *state;
  static const char *const port_mix[] = {"1rw", "1r1w", "2r1w", "3r1w", "2rw", "4r2w"};
  static const int widths[] = {32, 64, 128, 256, 512, 1024};
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  for (int k = 0; k < 48; k++) {
    gpurf_bank_spec s;
    gpurf_bank_spec_init(&s);
    int node = (int)pick(&seed, 6);
    s.tech = f->tech[node];
    s.device = (gpurf_device_kind)pick(&seed, GPURF_DEVICE_COUNT);
    assert_int_equal(gpurf_ports_parse(port_mix[pick(&seed, 6)], &s.ports), GPURF_OK);
    s.cell = s.ports.rw == 1 && !s.ports.read && !s.ports.write ? &f->sram6t
             : !s.ports.rw && s.ports.read == 1 && s.ports.write == 1 ? &f->sram8t
                                                                     : &f->multiport;
    s.width_bits = widths[pick(&seed, 6)];
    s.banks = 1 << pick(&seed, 6);
    s.entries = (long long)s.banks << (4 + pick(&seed, 7));
    char what[160];
    describe(&s, node, what, sizeof what);
    gpurf_bank_cost c = test_bank_eval(f->ctx, &s);
    check_subarray_cycle(&c, what);
  }
}

static void stt_cycle_within_stages_and_access(void **state) {
  fixture *f = *state;
  static const int stt_nodes[] = {0, 1, 3}; /* current sensing has data at 22-45 nm */
  static const int widths[] = {64, 128, 256, 512, 1024};
  uint64_t seed = 0x2545f4914f6cdd1dull;
  int evaluated = 0;
  for (int k = 0; k < 32; k++) {
    gpurf_bank_spec s;
    gpurf_bank_spec_init(&s);
    int node = stt_nodes[pick(&seed, 3)];
    s.tech = f->tech[node];
    s.cell = pick(&seed, 2) ? &f->stt_vol : &f->stt_cur;
    s.width_bits = widths[pick(&seed, 5)];
    s.banks = 1 << pick(&seed, 4);
    s.entries = (long long)s.banks << (5 + pick(&seed, 7));
    s.split_write = (int)pick(&seed, 2);
    char what[160];
    describe(&s, node, what, sizeof what);
    gpurf_bank_cost c;
    int rc = gpurf_bank_eval(f->ctx, &s, &c);
    /* A read margin no organisation meets is a refusal, not a cost. */
    if (rc == GPURF_EUNSUPPORTED) continue;
    assert_ok(f->ctx, rc);
    check_subarray_cycle(&c, what);
    evaluated++;
  }
  assert_true(evaluated >= 16);
}

static void ff_cycle_is_the_longer_access(void **state) {
  fixture *f = *state;
  static const char *const port_mix[] = {"1r1w", "2r1w", "3r1w", "4r2w"};
  uint64_t seed = 0xd1b54a32d192ed03ull;
  for (int k = 0; k < 32; k++) {
    gpurf_bank_spec s;
    gpurf_bank_spec_init(&s);
    int node = (int)pick(&seed, 6);
    s.tech = f->tech[node];
    s.device = (gpurf_device_kind)pick(&seed, GPURF_DEVICE_COUNT);
    s.cell = pick(&seed, 2) ? &f->dff : &f->latch;
    assert_int_equal(gpurf_ports_parse(port_mix[pick(&seed, 4)], &s.ports), GPURF_OK);
    s.width_bits = 16 << pick(&seed, 4);
    s.banks = 1 << pick(&seed, 4);
    s.entries = (long long)s.banks * (4 + pick(&seed, 61));
    char what[160];
    describe(&s, node, what, sizeof what);
    gpurf_bank_cost c = test_bank_eval(f->ctx, &s);
    double longer = c.access_time_s > c.write_latency_s ? c.access_time_s : c.write_latency_s;
    if (c.restore_time_s != 0.0) fail_msg("%s: restore %g s in a flop array", what, c.restore_time_s);
    if (fabs(c.cycle_time_s - longer) > TOL * longer)
      fail_msg("%s: cycle %.4g ns, read %.4g ns, write %.4g ns", what, c.cycle_time_s * 1e9,
               c.access_time_s * 1e9, c.write_latency_s * 1e9);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sram_cycle_within_stages_and_access),
      cmocka_unit_test(stt_cycle_within_stages_and_access),
      cmocka_unit_test(ff_cycle_is_the_longer_access),
  };
  return cmocka_run_group_tests_name("bank_cycle", tests, setup, teardown);
}
