/* The pipeline's results pinned exactly: shipped traces and synthetic
 * presets under several parameter sets, including latencies long enough
 * that most cycles are idle. Every counter of the run enters a
 * fingerprint, so any change in timing, counting or floating-point order
 * shows; the readable figures beside it say what moved. A deliberate model
 * change updates the table. */
#include <stdio.h>
#include <string.h>

#include "test_util.h"

#define TRACES GPURF_TEST_DATA_DIR "/traces/"
#define MICRO GPURF_TEST_DATA_DIR "/microtraces/"

typedef struct exact_case {
  const char *trace;  /* a path, or NULL for the preset below */
  const char *preset; /* with seed 3 and 1000 instructions per warp */
  const char *set[10];
  uint64_t cycles, inter_read, inter_write, intra;
  uint64_t fingerprint;
} exact_case;

static const exact_case cases[] = {
    {TRACES "matrixmul-32-32-trace", NULL, {NULL}, 3645, 632, 917, 0, 0x8ab5fea0f87e0d6eull},
    {TRACES "vectoradd-100-32-trace",
     NULL,
     {"policy", "lrr", NULL},
     728,
     33,
     0,
     0,
     0x49d16a8c69894626ull},
    {TRACES "dataflow.gtrace",
     NULL,
     {"policy", "two_level", "active_warps", "2", NULL},
     812,
     0,
     0,
     0,
     0x14edffd9fac1315eull},
    {TRACES "handwritten",
     NULL,
     {"schedulers", "1", "ibuffer_depth", "1", NULL},
     558,
     0,
     0,
     0,
     0xd9afda9594077260ull},
    {MICRO "barrier.gtrace", NULL, {"schedulers", "4", NULL}, 25, 0, 0, 0, 0x9d485199499eb39full},
    {TRACES "matrixmul-32-32-trace",
     NULL,
     {"banks", "6", "bank_write_cycles", "3", "arbiter", "reads_first", NULL},
     4510,
     2548,
     3467,
     288,
     0xb23386bc3ac1f7daull},
    {TRACES "matrixmul-32-32-trace",
     NULL,
     {"latency_alu", "100000", NULL},
     5000668,
     233,
     207,
     0,
     0xec1ec2777d7c0992ull},
    {NULL, "compute", {NULL}, 33766, 3309, 3585, 160, 0xb8461592f08c6940ull},
    {NULL,
     "hpc",
     {"policy", "two_level", "latency_global", "20000", NULL},
     1692882,
     2118,
     2550,
     1088,
     0x73a1ffbe6437123bull},
    /* More than 64 collectors: arrivals in both words of the sets. */
    {NULL,
     "compute",
     {"collectors_sp", "32", "collectors_sfu", "32", "collectors_mem", "32", NULL},
     30773,
     3722,
     4131,
     160,
     0x277c41a719004ca1ull},
    {NULL,
     "matrixmul",
     {"bank_read_cycles", "2", "read_cycles", "3", "units_global", "2", "global_bytes_per_cycle",
      "3", NULL},
     43957,
     12571,
     4448,
     1152,
     0x3988d8d380eeae2eull},
};

/* FNV-1a over the little-endian bytes of each value: the same on every host. */
static void fnv(uint64_t *h, const uint64_t *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 8; k++) *h = (*h ^ (v[i] >> (8 * k) & 0xffu)) * 0x100000001b3ull;
}

static void fnv_doubles(uint64_t *h, const double *d, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint64_t u;
    memcpy(&u, &d[i], sizeof u);
    fnv(h, &u, 1);
  }
}

static uint64_t fingerprint(const gpurf_pipeline_stats *s) {
  uint64_t h = 0xcbf29ce484222325ull;
  const uint64_t ints[] = {s->cycles,
                           s->warp_instructions,
                           s->issued,
                           s->ctas,
                           s->warps,
                           s->reads,
                           s->writes,
                           s->conflicts_inter_read,
                           s->conflicts_inter_write,
                           s->conflicts_intra,
                           s->crossbar_transfers,
                           s->arbiter_decisions,
                           s->collector_accesses,
                           s->fetch_instructions,
                           s->max_buffered};
  fnv(&h, ints, sizeof ints / sizeof ints[0]);
  fnv(&h, s->dispatch_stalls, GPURF_PIPELINE_UNIT_COUNT);
  fnv(&h, s->stalls, (size_t)s->n_stalls);
  fnv(&h, s->bank_reads, (size_t)s->banks);
  fnv(&h, s->bank_writes, (size_t)s->banks);
  const double d[] = {s->ipc, s->operand_fetch_cycles, s->operand_fetch_penalty};
  fnv_doubles(&h, d, 3);
  fnv_doubles(&h, s->bank_utilisation, (size_t)s->banks);
  return h;
}

static void run_case(const exact_case *c, gpurf_pipeline_stats *st) {
  gpurf_ctx *ctx = test_ctx();
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  for (const char *const *k = c->set; *k; k += 2)
    assert_ok(ctx, gpurf_pipeline_params_set(ctx, &prm, k[0], k[1]));
  gpurf_pipeline *p = NULL;
  gpurf_trace_reader *r = NULL;
  assert_ok(ctx, gpurf_pipeline_alloc(ctx, &prm, NULL, NULL, &p));
  if (c->trace) {
    assert_ok(ctx, gpurf_trace_reader_alloc(ctx, c->trace, &r));
  } else {
    gpurf_trace_gen_params g = {c->preset, 3, 0, 0, 1000, -1};
    assert_ok(ctx, gpurf_trace_gen_alloc(ctx, &g, &r));
  }
  assert_ok(ctx, gpurf_pipeline_run(ctx, p, r, 0));
  assert_ok(ctx, gpurf_pipeline_stats_get(p, st));
  gpurf_trace_reader_free(r);
  gpurf_pipeline_free(p);
  gpurf_ctx_free(ctx);
}

static void test_exact(void **state) {
  (void)state;
  int bad = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const exact_case *c = &cases[i];
    gpurf_pipeline_stats st;
    run_case(c, &st);
    uint64_t f = fingerprint(&st);
    if (st.cycles != c->cycles || st.conflicts_inter_read != c->inter_read ||
        st.conflicts_inter_write != c->inter_write || st.conflicts_intra != c->intra ||
        f != c->fingerprint) {
      print_error("case %zu (%s): cycles %llu, conflicts %llu %llu %llu, fingerprint 0x%016llx\n",
                  i, c->trace ? c->trace : c->preset, (unsigned long long)st.cycles,
                  (unsigned long long)st.conflicts_inter_read,
                  (unsigned long long)st.conflicts_inter_write,
                  (unsigned long long)st.conflicts_intra, (unsigned long long)f);
      bad++;
    }
  }
  assert_int_equal(bad, 0);
}

/* The cases with default parameters through the job runner, several times
 * over on three threads: each result as when run alone; then a batch with
 * two bad jobs reports the first of them. */
static void test_jobs(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  enum { N = 6 };
  static gpurf_pipeline_job jobs[N];
  const exact_case *want[N];
  for (int i = 0; i < N; i++) {
    memset(&jobs[i], 0, sizeof jobs[i]);
    want[i] = &cases[i % 2 ? 7 : 0];
    jobs[i].trace = want[i]->trace;
    jobs[i].gen = (gpurf_trace_gen_params){want[i]->preset, 3, 0, 0, 1000, -1};
  }
  assert_ok(ctx, gpurf_pipeline_run_jobs(ctx, &prm, NULL, jobs, N, 3, NULL, NULL));
  for (int i = 0; i < N; i++) {
    assert_int_equal(jobs[i].status, GPURF_OK);
    assert_int_equal(jobs[i].stats.cycles, want[i]->cycles);
    assert_true(fingerprint(&jobs[i].stats) == want[i]->fingerprint);
  }
  jobs[2].trace = TRACES "no-such-trace";
  jobs[4].trace = NULL;
  jobs[4].gen.workload = "no-such-preset";
  assert_int_equal(gpurf_pipeline_run_jobs(ctx, &prm, NULL, jobs, N, 2, NULL, NULL), GPURF_EIO);
  assert_non_null(strstr(gpurf_ctx_error(ctx)->file, "no-such-trace"));
  assert_int_equal(jobs[0].status, GPURF_OK);
  assert_int_equal(jobs[1].status, GPURF_OK);
  gpurf_ctx_free(ctx);
}

/* What the job runner hands its caller besides results: progress for every
 * job that ended, failed ones too, each index once and the count rising
 * by one; warnings in job order and never past the first failure,
 * whatever the number of threads. */
typedef struct seen {
  int calls, last_done, index_seen[8];
  char warnings[512];
} seen;

static void on_progress(void *arg, int index, int done, int n) {
  seen *s = arg;
  assert_int_equal(n, 5);
  assert_int_equal(done, s->last_done + 1);
  s->last_done = done;
  s->index_seen[index]++;
  s->calls++;
}

static void on_warning(void *user, const gpurf_error *w) {
  seen *s = user;
  const char *name = strrchr(w->file, '/');
  size_t len = strlen(s->warnings);
  snprintf(s->warnings + len, sizeof s->warnings - len, "%s;", name ? name + 1 : w->file);
}

static void test_jobs_side(void **state) {
  (void)state;
  gpurf_pipeline_params prm;
  gpurf_pipeline_params_init(&prm);
  const char *traces[5] = {TRACES "nregs/below-used.traceg", TRACES "vectoradd-100-32-trace",
                           TRACES "nregs/pair-below-used.traceg", TRACES "no-such-trace",
                           TRACES "nregs/v5-garbage-nregs.traceg"};
  for (int threads = 1; threads <= 4; threads++) {
    gpurf_ctx *ctx = test_ctx();
    seen s;
    memset(&s, 0, sizeof s);
    gpurf_ctx_set_warning_handler(ctx, on_warning, &s);
    gpurf_pipeline_job jobs[5];
    memset(jobs, 0, sizeof jobs);
    for (int i = 0; i < 5; i++) jobs[i].trace = traces[i];
    assert_int_equal(gpurf_pipeline_run_jobs(ctx, &prm, NULL, jobs, 5, threads, on_progress, &s),
                     GPURF_EIO);
    assert_non_null(strstr(gpurf_ctx_error(ctx)->file, "no-such-trace"));
    assert_int_equal(jobs[3].status, GPURF_EIO);
    for (int i = 0; i < 3; i++) assert_int_equal(jobs[i].status, GPURF_OK);
    /* Every job up to the failed one ended; a later one may have too. */
    assert_true(s.calls >= 4 && s.calls <= 5);
    for (int i = 0; i < 4; i++) assert_int_equal(s.index_seen[i], 1);
    assert_string_equal(s.warnings, "below-used.traceg;pair-below-used.traceg;");
    gpurf_ctx_free(ctx);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_exact), cmocka_unit_test(test_jobs),
                                     cmocka_unit_test(test_jobs_side)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
