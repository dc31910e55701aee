/* gpurf bench bank: evaluates many varied bank configurations in-process,
 * organisation search included, and reports the rate. Configurations come
 * from a seeded generator, so a run is repeatable on any machine. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/bank_cli.h"

/* Shipped nodes and nodes between them, which the library interpolates. */
static const char *const bench_nodes[] = {"22", "28", "32", "36", "40", "45",
                                          "50", "55", "65", "75", "90"};
#define N_NODES (sizeof bench_nodes / sizeof bench_nodes[0])
static const char *const bench_ports[] = {"1rw", "1r1w", "3r1w"};
#define N_PORTS (sizeof bench_ports / sizeof bench_ports[0])
static const char *const bench_stt_cells[] = {"stt-40f2-vol", "stt-40f2-cal-vol", "stt-40f2-cur",
                                              "stt-40f2-cal-cur"};
static const char *const bench_ff_ports[] = {"1r1w", "2r1w", "3r1w", "3r2w"};
#define N_VARIANTS 4
/* bench_nodes up to 45 nm: where current sensing is known. */
#define N_NODES_IV 6

typedef enum bench_kind { BK_SRAM, BK_STT, BK_DFF, BK_LATCH } bench_kind;

/* Loads the cells and port mixes a kind of bank varies over; returns how
 * many, 0 on a library error. */
static size_t bench_variants(gpurf_ctx *ctx, bench_kind kind, gpurf_cell *cells,
                             gpurf_ports *ports) {
  size_t n = kind == BK_SRAM ? N_PORTS : N_VARIANTS;
  for (size_t i = 0; i < n; i++) {
    const char *p = kind == BK_SRAM ? bench_ports[i] : kind == BK_STT ? "1rw" : bench_ff_ports[i];
    if (gpurf_ports_parse(p, &ports[i]) != GPURF_OK) return 0;
    const char *c = kind == BK_SRAM ? cli_sram_cell_for(&ports[i])
                    : kind == BK_STT ? bench_stt_cells[i]
                    : kind == BK_DFF ? "dff" : "latch";
    if (gpurf_cell_load(ctx, c, &cells[i]) != GPURF_OK) return 0;
  }
  return n;
}

/* splitmix64: small, fast, and the same sequence everywhere. */
static uint64_t next_u64(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static double next_unit(uint64_t *s) { return (double)(next_u64(s) >> 11) * 0x1.0p-53; }

/* Integer in [lo, hi], uniform in log scale so small and large sizes are
 * equally represented. */
static long long log_uniform(uint64_t *s, long long lo, long long hi) {
  double v = exp(log((double)lo) + next_unit(s) * (log((double)hi) - log((double)lo)));
  long long r = llround(v);
  return r < lo ? lo : r > hi ? hi : r;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void free_techs(gpurf_tech **techs) {
  for (size_t i = 0; techs && i < N_NODES; i++) gpurf_tech_free(techs[i]);
  free(techs);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Runs the table through bank --batch in this process (tables, parsing,
 * evaluation, CSV), as `gpurf bank --batch` does after process start. */
static int batch_time(gpurf_ctx *ctx, const sbuf *tsv, double *seconds) {
  char path[4200];
  const char *dir = getenv("TMPDIR");
  snprintf(path, sizeof path, "%s/gpurf-bench-bank-%ld.tsv", dir && dir[0] ? dir : "/tmp",
           (long)getpid());
  int slot = cli_cleanup_add(path);
  FILE *f = fopen(path, "wb");
  int ok = f && fwrite(tsv->data, 1, tsv->len, f) == tsv->len;
  if (f && fclose(f) != 0) ok = 0;
  int rc = CLI_FAIL;
  if (!ok) {
    cli_errorf("gpurf bench bank: cannot write %s", path);
  } else {
    bank_args o;
    memset(&o, 0, sizeof o);
    o.batch = path;
    o.fmt = FMT_CSV;
    sbuf out;
    sb_init(&out);
    long rows, bad;
    double t0 = now_s();
    rc = bank_batch_run(ctx, "gpurf bench bank", &o, &out, &rows, &bad);
    *seconds = now_s() - t0;
    sb_free(&out);
    if (rc == CLI_OK && bad > 0) {
      fprintf(stderr, "gpurf bench bank: %ld of %ld batch rows failed\n", bad, rows);
      rc = CLI_FAIL;
    }
  }
  remove(path);
  cli_cleanup_remove(slot);
  return rc;
}

int cmd_bench_bank(gpurf_ctx *ctx, const cli_parsed *p) {
  long long n = 10000, seed = 1;
  out_format fmt = p->fmt;
  static const char *const kinds[] = {"sram", "stt", "dff", "latch"};
  const char *kind_name = cli_get(p, "--cell") ? cli_get(p, "--cell") : "sram";
  int ki = 0;
  while (strcmp(kind_name, kinds[ki]) != 0) ki++; /* the parser checked the name */
  bench_kind kind = (bench_kind)ki;
  if (cli_count_opt(p, "--n", 100000000LL, &n) || cli_count_opt(p, "--seed", INT64_MAX, &seed))
    return CLI_USAGE;
  gpurf_tech **techs = calloc(N_NODES, sizeof *techs);
  gpurf_cell cells[N_VARIANTS];
  gpurf_ports ports[N_VARIANTS];
  if (!techs) {
    fprintf(stderr, "gpurf bench: out of memory\n");
    return CLI_FAIL;
  }
  for (size_t i = 0; i < N_NODES; i++)
    if (!(techs[i] = cli_tech_load(ctx, bench_nodes[i]))) goto lib_error;
  size_t variants = bench_variants(ctx, kind, cells, ports);
  if (variants == 0) goto lib_error;

  uint64_t rng = (uint64_t)seed;
  long long candidates = 0;
  /* Each evaluation is timed alone for the median; the same configurations
   * are written as a --batch table for the batch rate. */
  double *each = malloc((size_t)n * sizeof *each);
  sbuf tsv;
  sb_init(&tsv);
  sb_printf(&tsv, "tech\tdevice\tcell\tports\tentries\twidth\tbanks\tsplit-write\n");
  if (!each) {
    fprintf(stderr, "gpurf bench: out of memory\n");
    free_techs(techs);
    return CLI_FAIL;
  }
  double t0 = now_s();
  for (long long k = 0; k < n; k++) {
    gpurf_bank_spec s;
    gpurf_bank_spec_init(&s);
    size_t node = next_u64(&rng) % N_NODES, port = next_u64(&rng) % variants;
    if (kind == BK_STT && cells[port].u.stt.read_mode == GPURF_STT_READ_CURRENT)
      node %= N_NODES_IV;
    s.tech = techs[node];
    s.device = (gpurf_device_kind)(next_u64(&rng) % GPURF_DEVICE_COUNT);
    s.cell = &cells[port];
    s.ports = ports[port];
    s.banks = (int)log_uniform(&rng, 1, 32);
    s.width_bits = (int)log_uniform(&rng, 8, 1024);
    /* Whole words per bank, at least one, for a capacity of 64 B..512 KB. */
    long long bits = 8 * log_uniform(&rng, 64, 512 * 1024);
    long long per_bank = bits / s.width_bits / s.banks;
    /* Flop arrays hold a handful of operands per bank; STT-RAM banks may
     * be split in two halves (each needs a word). */
    if (kind == BK_DFF || kind == BK_LATCH) per_bank = log_uniform(&rng, 1, 256);
    if (kind == BK_STT) {
      s.split_write = (int)(next_u64(&rng) & 1);
      if (s.split_write && per_bank < 2) per_bank = 2;
    }
    s.entries = (per_bank < 1 ? 1 : per_bank) * s.banks;
    gpurf_bank_cost cost;
    double e0 = now_s();
    int erc = gpurf_bank_eval(ctx, &s, &cost);
    each[k] = now_s() - e0;
    char ptxt[32];
    gpurf_ports_format(&s.ports, ptxt, sizeof ptxt);
    sb_printf(&tsv, "%s\t%s\t%s\t%s\t%lld\t%d\t%d\t%d\n", bench_nodes[node],
              gpurf_device_kind_name(s.device), s.cell->name, ptxt, s.entries, s.width_bits,
              s.banks, s.split_write);
    if (erc != GPURF_OK) {
      char ports_txt[32], msg[2048];
      gpurf_ports_format(&s.ports, ports_txt, sizeof ports_txt);
      gpurf_error_format(gpurf_ctx_error(ctx), msg, sizeof msg);
      fprintf(stderr, "gpurf bench bank: configuration %lld (%s %s, %s, %lld x %d bits, %d banks): "
              "%s\n", k, gpurf_tech_name(s.tech), gpurf_device_kind_name(s.device), ports_txt,
              s.entries, s.width_bits, s.banks, msg);
      free_techs(techs);
      free(each);
      sb_free(&tsv);
      return CLI_FAIL;
    }
    candidates += cost.candidates;
  }
  double dt = now_s() - t0;
  free_techs(techs);
  double rate = dt > 0 ? (double)n / dt : INFINITY;
  qsort(each, (size_t)n, sizeof *each, cmp_double);
  double median_s = n % 2 ? each[n / 2] : 0.5 * (each[n / 2 - 1] + each[n / 2]);
  free(each);
  double batch_s = 0;
  if (batch_time(ctx, &tsv, &batch_s) != CLI_OK) {
    sb_free(&tsv);
    return CLI_FAIL;
  }
  sb_free(&tsv);
  double batch_rate = batch_s > 0 ? (double)n / batch_s : INFINITY;
  sbuf out;
  sb_init(&out);
  if (fmt == FMT_JSON) {
    jw w;
    jw_init(&w, &out);
    jw_obj_begin(&w, NULL);
    jw_str(&w, "cell", kind_name);
    jw_int(&w, "configurations", n);
    jw_int(&w, "seed", seed);
    jw_num(&w, "total_time_s", dt);
    jw_num(&w, "configs_per_s", rate);
    jw_num(&w, "time_per_config_us", dt / (double)n * 1e6);
    jw_num(&w, "median_time_per_config_us", median_s * 1e6);
    jw_num(&w, "batch_time_s", batch_s);
    jw_num(&w, "batch_configs_per_s", batch_rate);
    jw_int(&w, "candidates_evaluated", candidates);
    jw_obj_end(&w);
    jw_finish(&w);
  } else {
    sb_printf(&out, "bank (%s): %lld configurations (seed %lld) in %.3f s: %.0f configs/s, "
              "%.1f us each\n", kind_name, n, seed, dt, rate, dt / (double)n * 1e6);
    sb_printf(&out, "organisation search: %lld candidates evaluated, %.0f per configuration\n",
              candidates, (double)candidates / (double)n);
    sb_printf(&out, "median per configuration in the library: %.1f us\n", median_s * 1e6);
    sb_printf(&out, "bank --batch (the same configurations from a table, CSV out, in this "
              "process): %.3f s, %.0f configs/s\n", batch_s, batch_rate);
  }
  int rc = sb_flush_stdout(&out);
  sb_free(&out);
  return rc;

lib_error:
  cli_print_error(ctx);
  free_techs(techs);
  return CLI_FAIL;
}

/* The engine's costs play no part in its speed: every energy and leakage
 * is 1 (J, W), which no one would take for a register file's. */
static void bench_table(gpurf_rf_table *t) {
  static const struct {
    const char *name;
    int instances, subarrays;
    const char *events[2];
  } parts[] = {{GPURF_RF_BANK, 16, 8, {GPURF_EV_READ, GPURF_EV_WRITE}},
               {GPURF_RF_CROSSBAR, 1, 0, {GPURF_EV_TRANSFER, NULL}},
               {GPURF_RF_COLLECTOR, 8, 0, {GPURF_EV_WRITE, GPURF_EV_READ}}};
  memset(t, 0, sizeof *t);
  snprintf(t->design, sizeof t->design, "bench");
  t->clock_hz = 1.0e9;
  t->n_components = 3;
  for (int c = 0; c < 3; c++) {
    gpurf_rf_component *k = &t->components[c];
    snprintf(k->name, sizeof k->name, "%s", parts[c].name);
    snprintf(k->kind, sizeof k->kind, "bench");
    k->instances = parts[c].instances;
    k->subarrays = parts[c].subarrays;
    k->leakage_w = 1.0;
    k->gated_leakage_fraction = k->subarrays ? 0.5 : 0.0;
    k->wake_energy_j = k->subarrays ? 1.0 : 0.0;
    for (int v = 0; v < 2 && parts[c].events[v]; v++) {
      snprintf(k->events[v].name, sizeof k->events[v].name, "%s", parts[c].events[v]);
      k->events[v].energy_j = 1.0;
      k->n_events = v + 1;
    }
  }
}

#define EV_STREAM 4096 /* fits in L1 with the counters: the rate is the engine's */

int cmd_bench_events(gpurf_ctx *ctx, const cli_parsed *p) {
  long long n = 200000000LL, seed = 1;
  out_format fmt = p->fmt;
  if (cli_count_opt(p, "--n", 100000000000LL, &n) || cli_count_opt(p, "--seed", INT64_MAX, &seed))
    return CLI_USAGE;
  gpurf_rf_table table;
  bench_table(&table);
  gpurf_energy *e = NULL;
  if (gpurf_energy_alloc(ctx, &table, &e) != GPURF_OK) {
    cli_print_error(ctx);
    return CLI_FAIL;
  }
  /* Every (event, instance) pair of the table, drawn in a seeded order. */
  static const char *const ev[5][2] = {
      {GPURF_RF_BANK, GPURF_EV_READ},          {GPURF_RF_BANK, GPURF_EV_WRITE},
      {GPURF_RF_CROSSBAR, GPURF_EV_TRANSFER},  {GPURF_RF_COLLECTOR, GPURF_EV_WRITE},
      {GPURF_RF_COLLECTOR, GPURF_EV_READ}};
  static const int inst[5] = {16, 16, 1, 8, 8};
  int ids[5];
  for (int i = 0; i < 5; i++) gpurf_energy_event_id(e, ev[i][0], ev[i][1], &ids[i]);
  /* On the heap: with the table, two streams on the stack would pass 64 KB. */
  int *s_id = malloc(2 * EV_STREAM * sizeof *s_id);
  if (!s_id) {
    gpurf_energy_free(e);
    fprintf(stderr, "gpurf bench events: out of memory\n");
    return CLI_FAIL;
  }
  int *s_inst = s_id + EV_STREAM;
  uint64_t rng = (uint64_t)seed;
  for (int i = 0; i < EV_STREAM; i++) {
    int k = (int)(next_u64(&rng) % 5);
    s_id[i] = ids[k];
    s_inst[i] = (int)(next_u64(&rng) % (uint64_t)inst[k]);
  }
  int refused = 0;
  double t0 = now_s();
  for (long long k = 0; k < n; k++) {
    size_t j = (size_t)k & (EV_STREAM - 1);
    refused |= gpurf_energy_add(e, s_id[j], s_inst[j], 1);
    if (j == EV_STREAM - 1) gpurf_energy_advance(e, 1);
  }
  double dt = now_s() - t0;
  free(s_id);
  for (int s = 0; s < 16; s++) gpurf_energy_gate(e, 0, s, s % 8, 1);
  gpurf_energy_report *rep = NULL;
  const int reports = 10000;
  double r0 = now_s(), rdt;
  int rc = gpurf_energy_report_alloc(ctx, &rep);
  for (int k = 0; k < reports && rc == GPURF_OK && rep; k++)
    rc = gpurf_energy_report_get(ctx, e, NULL, rep);
  rdt = now_s() - r0;
  gpurf_energy_free(e);
  if (rc != GPURF_OK || refused) {
    if (rc != GPURF_OK) cli_print_error(ctx);
    else fprintf(stderr, "gpurf bench events: an add was refused\n");
    gpurf_energy_report_free(rep);
    return CLI_FAIL;
  }
  gpurf_energy_report_free(rep);
  double rate = dt > 0 ? (double)n / dt : INFINITY;
  sbuf out;
  sb_init(&out);
  if (fmt == FMT_JSON) {
    jw w;
    jw_init(&w, &out);
    jw_obj_begin(&w, NULL);
    jw_int(&w, "adds", n);
    jw_int(&w, "seed", seed);
    jw_num(&w, "total_time_s", dt);
    jw_num(&w, "adds_per_s", rate);
    jw_num(&w, "time_per_add_ns", dt / (double)n * 1e9);
    jw_int(&w, "reports", reports);
    jw_num(&w, "time_per_report_us", rdt / reports * 1e6);
    jw_obj_end(&w);
    jw_finish(&w);
  } else {
    sb_printf(&out, "events: %lld adds (seed %lld) in %.3f s: %.1f M adds/s, %.2f ns each\n", n,
              seed, dt, rate * 1e-6, dt / (double)n * 1e9);
    sb_printf(&out, "report: %.2f us each (%d reports; %d components, 128 sub-arrays, 16 "
              "gated)\n", rdt / reports * 1e6, reports, table.n_components);
  }
  rc = sb_flush_stdout(&out);
  sb_free(&out);
  return rc;
}
