/* Real-world and hostile inputs: each case runs the gpurf command under a
 * CPU-time limit and checks its wall time and peak memory, so a parse that
 * goes quadratic or a file that asks for gigabytes fails the test instead of
 * hanging it. */
/* wait4 (the child's peak memory) is a BSD/GNU extension. */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bounded_run.h"

/* Every hostile case must finish within these (the sanitizer build runs
 * several times slower and keeps shadow memory, hence the margins). */
#define HOSTILE_CPU_S 20
#define HOSTILE_WALL_S 10.0
#define HOSTILE_RSS_KIB (512L * 1024L)

static bounded_result R;

static void run_bounded(const char *const *argv, const void *in, size_t in_len) {
  bounded_run(&R, argv, in, in_len, HOSTILE_CPU_S);
  if (R.signal) fail_msg("'%s %s' killed by signal %d", argv[0], argv[1], R.signal);
  if (R.wall_s > HOSTILE_WALL_S) fail_msg("'%s %s' took %.1f s", argv[0], argv[1], R.wall_s);
  if (R.maxrss_kib > HOSTILE_RSS_KIB)
    fail_msg("'%s %s' peaked at %ld KiB", argv[0], argv[1], R.maxrss_kib);
}

static int count_lines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

/* A one-line error naming what was wrong, nothing on stdout. */
static void expect_error(int status, const char *text) {
  if (R.status != status || !strstr(R.err, text) || count_lines(R.err) != 1 || R.out[0])
    fail_msg("status %d (want %d), stderr '%s' (want '%s'), %zu bytes on stdout", R.status, status,
             R.err, text, strlen(R.out));
}

/* Node names are decimal: "0x16" is not 22 nm, nor "1e1" 10 nm. */
static void test_tech_node_decimal_only(void **state) {
  (void)state;
  const char *hex[] = {"tech", "show", "0x16", NULL};
  run_bounded(hex, NULL, 0);
  expect_error(1, "'0x16' is neither a node");
  const char *expo[] = {"tech", "show", "1e1", NULL};
  run_bounded(expo, NULL, 0);
  expect_error(1, "'1e1' is neither a node");
  const char *ok[] = {"tech", "show", "22nm", NULL};
  run_bounded(ok, NULL, 0);
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "feature size 22 nm"));
}

/* Control bytes, bytes that are not UTF-8 and over-long values come out of
 * the escaper as one bounded line; ordinary text and UTF-8 pass unchanged. */
static void test_error_escape(void **state) {
  (void)state;
  char out[512];
  gpurf_error_escape(out, sizeof out, "bad 'a\nb\rc\x1b[31m\t' here");
  assert_string_equal(out, "bad 'a\\nb\\rc\\x1b[31m\\t' here");
  gpurf_error_escape(out, sizeof out, "the kernel's registers: 'R1' \xc2\xb5m \xff");
  assert_string_equal(out, "the kernel's registers: 'R1' \xc2\xb5m \\xff");
  char longv[300];
  memset(longv, 'x', sizeof longv);
  memcpy(longv, "value '", 7);
  strcpy(longv + 200, "' is wrong");
  gpurf_error_escape(out, sizeof out, longv);
  assert_int_equal(strlen(out), 7 + GPURF_ERROR_VALUE_MAX - 3 + 3 + 10);
  assert_non_null(strstr(out, "x...' is wrong"));
  /* An unterminated value is cut too. */
  longv[200] = 'x';
  longv[299] = '\0';
  gpurf_error_escape(out, sizeof out, longv);
  assert_int_equal(strlen(out), 7 + GPURF_ERROR_VALUE_MAX - 3 + 3);
  /* A tiny buffer stays terminated. */
  gpurf_error_escape(out, 4, "abcdef");
  assert_string_equal(out, "abc");
}

/* Binary and terminal-control bytes in input files: the error is one line
 * of bounded length on every reader. */
static void test_error_one_line(void **state) {
  (void)state;
  unsigned char bin[3000];
  uint32_t x = 12345;
  for (size_t i = 0; i < sizeof bin; i++) {
    x = x * 1103515245u + 12345u;
    bin[i] = (unsigned char)(x >> 16);
    if (bin[i] == '\n' || bin[i] == '\t' || bin[i] == 0) bin[i] = 0x1b;
  }
  const char *set = bounded_file(0, "binary.tsv", bin, sizeof bin);
  const char *v[] = {"validate", "--set", set, NULL};
  run_bounded(v, NULL, 0);
  assert_int_equal(R.status, 1);
  assert_int_equal(count_lines(R.err), 1);
  if (strlen(R.err) > 800) fail_msg("%zu bytes: %s", strlen(R.err), R.err);
  assert_null(strchr(R.err, 0x1b));
  static const char trace[] =
      "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-nregs = 8\n"
      "-accelsim tracer version = 4\n\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
      "0008 ffffffff 1 R1 MOV\x1b]0;owned\x07\r 0 0\n#END_TB\n";
  const char *tf = bounded_file(1, "esc.traceg", trace, sizeof trace - 1);
  const char *t[] = {"trace", "stats", tf, NULL};
  run_bounded(t, NULL, 0);
  assert_int_equal(R.status, 1);
  assert_int_equal(count_lines(R.err), 1);
  assert_null(strchr(R.err, 0x1b));
  assert_null(strchr(R.err, 0x07));
  assert_null(strchr(R.err, '\r'));
  assert_non_null(strstr(R.err, "bad opcode 'MOV\\x1b]0;owned\\x07\\r'"));
}

/* Deep YAML nesting is refused before libyaml's scanner goes quadratic:
 * 40,000 '[' took seconds, a megabyte of '{' minutes. */
static void test_yaml_deep_nesting(void **state) {
  (void)state;
  size_t n = 1u << 20;
  char *text = malloc(n + 8);
  assert_non_null(text);
  memcpy(text, "a: ", 3);
  memset(text + 3, '[', 40000);
  text[40003] = '\n';
  const char *flow = bounded_file(0, "deep-flow.yaml", text, 40004);
  const char *t[] = {"tech", "show", flow, NULL};
  run_bounded(t, NULL, 0);
  expect_error(1, ":1:35: collections nested deeper than 32 levels");
  memset(text + 3, '{', n);
  const char *mb = bounded_file(1, "deep-map.yaml", text, n + 3);
  const char *m[] = {"rf", mb, NULL};
  run_bounded(m, NULL, 0);
  expect_error(1, "collections nested deeper than 32 levels");
  /* Block nesting, by indentation. */
  size_t len = 0;
  for (int i = 0; i < 200 && len + 300 < n; i++)
    len += (size_t)snprintf(text + len, n - len, "%*sk%d:\n", i, "", i);
  len += (size_t)snprintf(text + len, n - len, "%*sx: 1\n", 200, "");
  const char *blk = bounded_file(2, "deep-block.yaml", text, len);
  const char *b[] = {"tech", "show", blk, NULL};
  run_bounded(b, NULL, 0);
  expect_error(1, ":33:33: collections nested deeper than 32 levels");
  free(text);
}

/* A wide file costs too: libyaml's document took 1.3 GB and 3 s for a 16 MB
 * flow list of numbers. The node count is capped before it is built. */
static void test_yaml_node_cap(void **state) {
  (void)state;
  size_t n = 6u << 20; /* three million list items, 12 MB */
  char *text = malloc(2 * n + 16);
  assert_non_null(text);
  memcpy(text, "a: [", 4);
  for (size_t i = 0; i < n; i++) memcpy(text + 4 + 2 * i, "1,", 2);
  memcpy(text + 4 + 2 * n, "1]\n", 3);
  const char *wide = bounded_file(0, "wide.yaml", text, 2 * n + 7);
  free(text);
  const char *t[] = {"tech", "show", wide, NULL};
  run_bounded(t, NULL, 0);
  expect_error(1, ":1:131071: more than 65536 YAML nodes");
  const char *d[] = {"rf", wide, NULL};
  run_bounded(d, NULL, 0);
  expect_error(1, "more than 65536 YAML nodes");
  remove(wide);
}

/* bank --batch reads a table of configurations: /dev/zero (an endless run
 * of NUL bytes, which fgets took for empty lines, forever) and a NUL inside
 * a row are refused at once; a header error names its own line (after
 * comments) and escapes what it echoes. */
static void test_batch_binary_input(void **state) {
  (void)state;
  const char *z[] = {"bank", "--batch", "/dev/zero", NULL};
  run_bounded(z, NULL, 0);
  expect_error(1, "/dev/zero:1: NUL byte: not a text file");
  static const char nul[] = "tech\tcell\twidth\tentries\n40\tsram\t32\t6\0004\n";
  const char *nf = bounded_file(0, "nul.tsv", nul, sizeof nul - 1);
  const char *n[] = {"bank", "--batch", nf, NULL};
  run_bounded(n, NULL, 0);
  expect_error(1, "nul.tsv:2: NUL byte: not a text file");
  static const char head[] = "# configurations\ntech\tcell\x1b]0;x\x07\r\n";
  const char *hf = bounded_file(1, "head.tsv", head, sizeof head - 1);
  const char *h[] = {"bank", "--batch", hf, NULL};
  run_bounded(h, NULL, 0);
  expect_error(1, "head.tsv:2: column 'cell\\x1b]0;x\\x07' is not a bank option");
  /* The same table on standard input. */
  const char *p[] = {"bank", "--batch", "-", NULL};
  run_bounded(p, head, sizeof head - 1);
  expect_error(1, "<stdin>:2: column 'cell\\x1b]0;x\\x07' is not a bank option");
}

/* Usage errors echo command-line values escaped, as the library's errors
 * echo file contents: an argument holding a line break or a terminal
 * escape (a file name from a script) keeps the message one line. */
static void test_usage_error_escape(void **state) {
  (void)state;
  const char *w[] = {"bank", "--tech", "40", "--cell", "sram", "--entries", "64",
                     "--width", "1\n\x1b[31m", NULL};
  run_bounded(w, NULL, 0);
  expect_error(2, "--width needs a whole number, not '1\\n\\x1b[31m'");
  const char *c[] = {"no\rsuch\ncommand", NULL};
  run_bounded(c, NULL, 0);
  expect_error(2, "unknown command 'no\\rsuch\\ncommand'");
  const char *v[] = {"validate", "--set", "a\nb", NULL};
  run_bounded(v, NULL, 0);
  expect_error(1, "no validation set named a\\nb");
  if (strchr(R.err, 0x1b)) fail_msg("escape byte in '%s'", R.err);
}

static const char big_table_fmt[] =
    "table:\n"
    "  design: big\n"
    "  clock_hz: 1.0e9\n"
    "  components:\n"
    "%s";
static const char big_component_fmt[] =
    "    - name: %s\n"
    "      kind: sram\n"
    "      instances: %d\n"
    "      leakage_w: 1.0e-3\n"
    "      area_m2: 2.0e-8\n"
    "      access_time_s: 5.0e-10\n"
    "      subarrays: %d\n"
    "      gated_leakage_fraction: 0.1\n"
    "      wake_energy_j: 1.0e-12\n"
    "      wake_latency_s: 2.0e-9\n"
    "      events:\n"
    "        - {name: read, energy_j: 2.0e-12}\n";

/* A 352-byte primitive table asking for 65536 instances of 4096 sub-arrays
 * made `gpurf energy` allocate 8.4 GB; two such components passed 16 GB.
 * The total is capped, and the error points at the line that tips it. */
static void test_table_subarray_cap(void **state) {
  (void)state;
  char comp[2][512], text[2048];
  snprintf(comp[0], sizeof comp[0], big_component_fmt, "bank", 65536, 4096);
  snprintf(text, sizeof text, big_table_fmt, comp[0]);
  const char *one = bounded_file(0, "big-table.yaml", text, strlen(text));
  const char *counts = GPURF_TEST_DATA_DIR "/counters/test-rf.tsv";
  const char *e1[] = {"energy", one, counts, NULL};
  run_bounded(e1, NULL, 0);
  expect_error(1, ":11:18: key 'table.components[0].subarrays': 65536 instances x 4096 "
                  "sub-arrays bring the table to 268435456 sub-arrays; at most 1048576");
  /* Each alone at the limit, the two together over it. */
  snprintf(comp[0], sizeof comp[0], big_component_fmt, "bank", 65536, 16);
  snprintf(comp[1], sizeof comp[1], big_component_fmt, "other", 65536, 16);
  char both[1024];
  snprintf(both, sizeof both, "%s%s", comp[0], comp[1]);
  snprintf(text, sizeof text, big_table_fmt, both);
  const char *two = bounded_file(1, "big-table-2.yaml", text, strlen(text));
  const char *e2[] = {"energy", two, counts, NULL};
  run_bounded(e2, NULL, 0);
  expect_error(1, ":23:18: key 'table.components[1].subarrays': 65536 instances x 16 "
                  "sub-arrays bring the table to 2097152 sub-arrays");
}

static char *slurp_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  size_t cap = 1 << 20, n = 0;
  char *buf = malloc(cap + 1);
  assert_non_null(buf);
  n = fread(buf, 1, cap, f);
  fclose(f);
  buf[n] = '\0';
  *len = n;
  return buf;
}

/* Output past the first line naming the input ("Trace PATH", "Energy of
 * PATH", a PATH line of its own); the name stands as a whole word. */
static const char *after_name(const char *s, const char *name) {
  size_t n = strlen(name);
  for (const char *at = strstr(s, name); at; at = strstr(at + 1, name)) {
    int starts = at == s || at[-1] == ' ' || at[-1] == '(' || at[-1] == '\n';
    int ends = at[n] == ' ' || at[n] == ')' || at[n] == '\n';
    if (!starts || !ends) continue;
    const char *nl = strchr(at, '\n');
    return nl ? nl + 1 : s;
  }
  return s;
}

/* Runs argv with the file on a pipe, and argv_file on the file itself; the
 * two outputs must agree past the first line. */
static void same_on_pipe(const char *const *argv_pipe, const char *const *argv_file,
                         const char *file) {
  static char want[1 << 16];
  run_bounded(argv_file, NULL, 0);
  if (R.status != 0) fail_msg("%s on a file: %s", argv_file[0], R.err);
  strcpy(want, after_name(R.out, file));
  size_t len;
  char *data = slurp_file(file, &len);
  run_bounded(argv_pipe, data, len);
  free(data);
  if (R.status != 0) fail_msg("%s %s on a pipe: %s", argv_pipe[0], argv_pipe[1], R.err);
  const char *got = R.out;
  for (int i = 0; argv_pipe[i]; i++)
    if (!strcmp(argv_pipe[i], "-") || !strcmp(argv_pipe[i], "/dev/stdin"))
      got = after_name(R.out, argv_pipe[i]);
  assert_string_equal(got, want);
}

/* Every reader takes "-" (and /dev/stdin) as a pipe: it opens its input
 * once, so nothing is read twice or rewound. */
static void test_pipes(void **state) {
  (void)state;
  const char *table = GPURF_TEST_DATA_DIR "/tables/test-rf.yaml";
  const char *counts = GPURF_TEST_DATA_DIR "/counters/test-rf.tsv";
  const char *aw = GPURF_TEST_DATA_DIR "/counters/accelwattch-report.log";
  const char *ef[] = {"energy", table, counts, NULL};
  const char *ep[] = {"energy", table, "-", NULL};
  const char *ed[] = {"energy", table, "/dev/stdin", NULL};
  same_on_pipe(ep, ef, counts);
  same_on_pipe(ed, ef, counts);
  const char *af[] = {"energy", table, aw, NULL};
  const char *ap[] = {"energy", table, "-", NULL};
  same_on_pipe(ap, af, aw);
  /* A report with kernel blocks is read twice (its counters, then each
   * kernel's name and power beside the simulator's cycles): on a pipe the
   * second read found nothing. */
  const char *run = GPURF_TEST_DATA_DIR "/accelwattch-runs/titanx-matrixmul/titanx-aw-matrixmul";
  static char report[512], log[512];
  snprintf(report, sizeof report, "%s.accelwattch_power_report.log", run);
  snprintf(log, sizeof log, "%s.stdout.txt", run);
  const char *rp[] = {"energy", "fermi-baseline", "-", "--sim-log", log, "--format", "json", NULL};
  size_t rlen;
  char *rdata = slurp_file(report, &rlen);
  run_bounded(rp, rdata, rlen);
  free(rdata);
  if (R.status != 0) fail_msg("energy REPORT on a pipe: %s", R.err);
  assert_non_null(strstr(R.out, "\"cycles\": 7506,"));
  assert_non_null(strstr(R.out, "\"report\": \"<stdin>\""));
  assert_non_null(strstr(R.out, "\"accelwattch_rf_power_w\": 0.157323"));
  const char *dz[] = {"energy", "fermi-baseline", "/dev/zero", NULL};
  run_bounded(dz, NULL, 0);
  expect_error(1, "/dev/zero: a device, not a file or a pipe");
  const char *tp[] = {"energy", "-", counts, NULL};
  const char *td[] = {"energy", "/dev/stdin", counts, NULL};
  same_on_pipe(tp, ef, table);
  same_on_pipe(td, ef, table);

  const char *kernel = GPURF_TEST_DATA_DIR "/traces/handwritten/kernel-1.traceg";
  const char *kf[] = {"trace", "stats", kernel, NULL};
  const char *kp[] = {"trace", "stats", "-", NULL};
  const char *kd[] = {"trace", "stats", "/dev/stdin", NULL};
  same_on_pipe(kp, kf, kernel);
  same_on_pipe(kd, kf, kernel);
  /* The native formats, written from the same trace. */
  static char text[512], bin[512];
  snprintf(text, sizeof text, "%s/%ld_pipe.gtrace", GPURF_TEST_TMP_DIR, (long)getpid());
  snprintf(bin, sizeof bin, "%s/%ld_pipe.gtraceb", GPURF_TEST_TMP_DIR, (long)getpid());
  const char *dir = GPURF_TEST_DATA_DIR "/traces/handwritten";
  const char *ct[] = {"trace", "convert", dir, text, NULL};
  const char *cb[] = {"trace", "convert", dir, bin, NULL};
  run_bounded(ct, NULL, 0);
  assert_int_equal(R.status, 0);
  run_bounded(cb, NULL, 0);
  assert_int_equal(R.status, 0);
  const char *xf[] = {"trace", "stats", text, NULL};
  same_on_pipe(kp, xf, text);
  const char *bf[] = {"trace", "stats", bin, NULL};
  same_on_pipe(kp, bf, bin);
  const char *sf[] = {"sim", "fermi-baseline", "--trace", bin, NULL};
  const char *sp[] = {"sim", "fermi-baseline", "--trace", "-", NULL};
  same_on_pipe(sp, sf, bin);
  /* A trace converted from a pipe is the same file. */
  static char again[512];
  snprintf(again, sizeof again, "%s/%ld_pipe2.gtraceb", GPURF_TEST_TMP_DIR, (long)getpid());
  const char *cp[] = {"trace", "convert", "-", again, NULL};
  size_t len, len2;
  char *data = slurp_file(bin, &len);
  run_bounded(cp, data, len);
  assert_int_equal(R.status, 0);
  char *copy = slurp_file(again, &len2);
  assert_int_equal(len, len2);
  assert_memory_equal(data, copy, len);
  free(data);
  free(copy);
  remove(text);
  remove(bin);
  remove(again);

  /* A validation set. */
  const char *set = GPURF_TEST_SOURCE_DIR "/validation/gebhart-table5.tsv";
  const char *vd[] = {"validate", "--set", "/dev/stdin", NULL};
  const char *vp[] = {"validate", "--set", "-", NULL};
  data = slurp_file(set, &len);
  run_bounded(vd, data, len);
  assert_int_equal(R.status, 0);
  static char by_dev[1 << 16];
  strcpy(by_dev, R.out);
  run_bounded(vp, data, len);
  free(data);
  if (R.status != 0) fail_msg("validate --set -: %s", R.err);
  assert_string_equal(R.out, by_dev);

  /* YAML readers: a node file and a design. */
  const char *node = GPURF_TEST_SOURCE_DIR "/tech/40nm.yaml";
  const char *nf[] = {"tech", "show", node, "--format", "json", NULL};
  const char *np[] = {"tech", "show", "-", "--format", "json", NULL};
  run_bounded(nf, NULL, 0);
  assert_int_equal(R.status, 0);
  const char *design = GPURF_TEST_SOURCE_DIR "/models/fermi-baseline.yaml";
  const char *df[] = {"rf", design, NULL};
  const char *dp[] = {"rf", "-", NULL};
  same_on_pipe(dp, df, design);
  data = slurp_file(node, &len);
  run_bounded(np, data, len);
  free(data);
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "\"feature_size_m\": 4e-08"));
}

/* Writes the output of argv (which must succeed) to a new file in slot. */
static const char *output_to_file(int slot, const char *name, const char *const *argv) {
  run_bounded(argv, NULL, 0);
  if (R.status != 0) fail_msg("'%s %s': %s", argv[0], argv[1], R.err);
  return bounded_file(slot, name, R.out, strlen(R.out));
}

/* The merges open each results file once, so the first part may come on a
 * pipe ("-" or /dev/stdin: the first line was read, then the file opened
 * again and found empty); and a results line is bounded, so /dev/zero
 * fails at once instead of growing one line through memory. */
static void test_merge_reads_once(void **state) {
  (void)state;
  static char want[1 << 16];
  const char *kinds[2][3] = {{"sweep", "fermi-baseline", "--set"},
                             {"reproduce", "warrf", "--workloads"}};
  const char *values[2] = {"banks[0].count=8,16", "shipped"};
  for (int k = 0; k < 2; k++) {
    const char *s0[] = {kinds[k][0], kinds[k][1], kinds[k][2], values[k], "--shard", "0/2", NULL};
    const char *s1[] = {kinds[k][0], kinds[k][1], kinds[k][2], values[k], "--shard", "1/2", NULL};
    const char *f0 = output_to_file(0, "part0.results", s0);
    const char *f1 = output_to_file(1, "part1.results", s1);
    const char *files[] = {kinds[k][0], "merge", f0, f1, NULL};
    run_bounded(files, NULL, 0);
    if (R.status != 0) fail_msg("%s merge: %s", kinds[k][0], R.err);
    strcpy(want, R.out);
    size_t len = 0;
    char *data = slurp_file(f0, &len);
    const char *stdin_names[] = {"-", "/dev/stdin"};
    for (int i = 0; i < 2; i++) {
      const char *pipe_first[] = {kinds[k][0], "merge", stdin_names[i], f1, NULL};
      run_bounded(pipe_first, data, len);
      if (R.status != 0) fail_msg("%s merge %s: %s", kinds[k][0], stdin_names[i], R.err);
      assert_string_equal(R.out, want);
    }
    free(data);
    const char *zero[] = {kinds[k][0], "merge", "/dev/zero", NULL};
    run_bounded(zero, NULL, 0);
    expect_error(1, "/dev/zero:1:1: a NUL byte on the line");
  }
}

/* Standard input can be read once. Two inputs naming it are a usage error
 * (two simulations on threads read one stream in any order: the result
 * changed from run to run); the benchmark, which reads its trace 2 x --n
 * times, copies a trace on a pipe first, and prints a warning once, not per
 * read. */
static void test_stdin_read_once(void **state) {
  (void)state;
  const char *bin = GPURF_TEST_DATA_DIR "/traces/handwritten/kernel-1.traceg";
  size_t len;
  char *data = slurp_file(bin, &len);
  const char *sim[] = {"sim", "--trace", "-", "--trace", "/dev/stdin", "--jobs", "2", NULL};
  run_bounded(sim, data, len);
  expect_error(2, "2 inputs name standard input ('-' or /dev/stdin), which can be read once");
  const char *en[] = {"energy", "-", "-", NULL};
  run_bounded(en, data, len);
  expect_error(2, "which can be read once");
  free(data);
  static char want[1024];
  const char *v5 = GPURF_TEST_DATA_DIR "/traces/nregs/v5-garbage-nregs.traceg";
  const char *bf[] = {"bench", "sim", "--trace", v5, "--n", "2", "--format", "json", NULL};
  run_bounded(bf, NULL, 0);
  assert_int_equal(R.status, 0);
  snprintf(want, sizeof want,
           "%s:6: -nregs 32542 is implausible; using 30 (highest register used + 1)\n", v5);
  assert_string_equal(R.err, want);
  data = slurp_file(v5, &len);
  const char *bp[] = {"bench", "sim", "--trace", "-", "--n", "2", "--format", "json", NULL};
  run_bounded(bp, data, len);
  free(data);
  if (R.status != 0) fail_msg("bench sim --trace -: %s", R.err);
  assert_string_equal(R.err,
                      "<stdin>:6: -nregs 32542 is implausible; using 30 (highest register used + 1)\n");
  assert_non_null(strstr(R.out, "\"trace_format\": \"accelsim\""));
  assert_non_null(strstr(R.out, "\"warp_instructions\": 276,"));
  /* A device is not copied: /dev/zero would fill the disk. */
  const char *bz[] = {"bench", "sim", "--trace", "/dev/zero", "--n", "1", NULL};
  run_bounded(bz, NULL, 0);
  expect_error(1, "/dev/zero: a device, not a file or a pipe");
}

/* Outputs are written under a temporary name and renamed into place: an
 * OUT that is a pipe or a device (/dev/null, /dev/stdout; /dev is writable
 * as root) was replaced by a regular file. It is refused and left as it
 * was, also through a symbolic link. */
static void test_output_not_a_file(void **state) {
  (void)state;
  static char fifo[512], link_path[512], svg[512];
  snprintf(fifo, sizeof fifo, "%s/%ld_out.fifo", GPURF_TEST_TMP_DIR, (long)getpid());
  snprintf(link_path, sizeof link_path, "%s/%ld_out.link", GPURF_TEST_TMP_DIR, (long)getpid());
  snprintf(svg, sizeof svg, "%s/%ld_out.svg", GPURF_TEST_TMP_DIR, (long)getpid());
  remove(fifo);
  remove(link_path);
  remove(svg);
  assert_int_equal(mkfifo(fifo, 0644), 0);
  assert_int_equal(mkfifo(svg, 0644), 0);
  assert_int_equal(symlink(fifo, link_path), 0);
  const char *kernel = GPURF_TEST_DATA_DIR "/traces/handwritten/kernel-1.traceg";
  const char *c[] = {"trace", "convert", kernel, fifo, NULL};
  run_bounded(c, NULL, 0);
  expect_error(1, "out.fifo: not a regular file (a device, pipe or socket)");
  const char *g[] = {"trace", "gen", "--workload", "compute", "--seed", "1", "-o", link_path,
                     NULL};
  run_bounded(g, NULL, 0);
  expect_error(1, "out.link: not a regular file");
  const char *w[] = {"sweep", "fermi-baseline", "--set", "banks[0].count=8", "--plot", svg, NULL};
  run_bounded(w, NULL, 0);
  assert_int_equal(R.status, 1);
  assert_non_null(strstr(R.err, "out.svg: not a regular file"));
  struct stat st;
  assert_int_equal(lstat(fifo, &st), 0);
  assert_true(S_ISFIFO(st.st_mode));
  assert_int_equal(lstat(link_path, &st), 0);
  assert_true(S_ISLNK(st.st_mode));
  assert_int_equal(lstat(svg, &st), 0);
  assert_true(S_ISFIFO(st.st_mode));
  /* '-' as an output is no file name: refused, and no file '-' appears. */
  remove("-");
  const char *d[] = {"trace", "convert", kernel, "-", NULL};
  run_bounded(d, NULL, 0);
  expect_error(1, "-: not a file name");
  assert_int_not_equal(lstat("-", &st), 0);
  remove(fifo);
  remove(link_path);
  remove(svg);
}

/* An AccelWattch report of a million kernel blocks (16 MB of kernel_name
 * lines) took a name-sized slot per kernel: a gigabyte for 32 MB. */
static void test_report_many_kernels(void **state) {
  (void)state;
  static const char head[] = "gpu_tot_REG_RD = 100\ngpu_tot_REG_WR = 100\n";
  static const char line[] = "kernel_name = k\n";
  size_t n = 1u << 20, len = sizeof head - 1 + n * (sizeof line - 1);
  char *text = malloc(len);
  assert_non_null(text);
  memcpy(text, head, sizeof head - 1);
  for (size_t i = 0; i < n; i++)
    memcpy(text + sizeof head - 1 + i * (sizeof line - 1), line, sizeof line - 1);
  const char *report = bounded_file(0, "many.accelwattch_power_report.log", text, len);
  free(text);
  const char *e[] = {"energy", "fermi-baseline", report, "--cycles", "1000", NULL};
  run_bounded(e, NULL, 0);
  if (R.status != 0) fail_msg("energy: %s", R.err);
  remove(report);
}

/* A real-format trace (tracer version 5, as NVBit writes it) whose header
 * says -nregs = 32542 for a kernel using R0..R29: accepted with one warning
 * naming the header line, 30 registers used, and the source reported. */
/* A workload without the events a ratio counts (these kernels write no
 * register through the write pool) leaves that claim without data, with the
 * reason, and the report is still written. */
static void test_reproduce_zero_metric(void **state) {
  (void)state;
  const char *argv[] = {"reproduce", "warrf", "--workloads",
                        GPURF_TEST_DATA_DIR "/traces/nregs", "--format", "json", NULL};
  run_bounded(argv, NULL, 0);
  if (R.status != 0) fail_msg("reproduce: %s", R.err);
  assert_non_null(strstr(R.out, "\"claim\": \"wpool_write_traffic\""));
  assert_non_null(strstr(R.out, "\"status\": \"no data\""));
  assert_non_null(strstr(R.out, "writes is not positive on workload"));
}

static void test_implausible_nregs(void **state) {
  (void)state;
  static char want[1024];
  const char *v5 = GPURF_TEST_DATA_DIR "/traces/nregs/v5-garbage-nregs.traceg";
  const char *sj[] = {"trace", "stats", v5, "--format", "json", NULL};
  run_bounded(sj, NULL, 0);
  assert_int_equal(R.status, 0);
  snprintf(want, sizeof want,
           "%s:6: -nregs 32542 is implausible; using 30 (highest register used + 1)\n", v5);
  assert_string_equal(R.err, want);
  assert_non_null(strstr(R.out, "\"registers_per_thread\": 30,"));
  assert_non_null(strstr(R.out, "\"registers_per_thread_source\": \"inferred\""));
  /* The same on a pipe, and in a simulation (once, not per record). */
  const char *sp[] = {"trace", "stats", "-", "--format", "json", NULL};
  size_t len;
  char *data = slurp_file(v5, &len);
  run_bounded(sp, data, len);
  free(data);
  assert_int_equal(R.status, 0);
  assert_string_equal(R.err,
                      "<stdin>:6: -nregs 32542 is implausible; using 30 (highest register used + 1)\n");
  const char *sim[] = {"sim", "fermi-baseline", "--trace", v5, NULL};
  run_bounded(sim, NULL, 0);
  assert_int_equal(R.status, 0);
  assert_string_equal(R.err, want);
  assert_non_null(strstr(R.out, "warp instructions 276"));
  /* A negative count and one beyond 64 bits are garbage of the same kind,
   * named as written (the long one cut). */
  static const char *const garbage[] = {"-1", "123456789012345678901234567890"};
  static const char *const shown[] = {"-1", "12345678901234567890..."};
  data = slurp_file(v5, &len);
  char *at = strstr(data, "-nregs = 32542\n");
  assert_non_null(at);
  size_t head = (size_t)(at - data) + strlen("-nregs = ");
  size_t tail = head + strlen("32542");
  for (int g = 0; g < 2; g++) {
    size_t n = head + strlen(garbage[g]) + (len - tail);
    char *mod = malloc(n);
    assert_non_null(mod);
    memcpy(mod, data, head);
    memcpy(mod + head, garbage[g], strlen(garbage[g]));
    memcpy(mod + head + strlen(garbage[g]), data + tail, len - tail);
    run_bounded(sp, mod, n);
    free(mod);
    assert_int_equal(R.status, 0);
    snprintf(want, sizeof want,
             "<stdin>:6: -nregs %s is implausible; using 30 (highest register used + 1)\n",
             shown[g]);
    assert_string_equal(R.err, want);
    assert_non_null(strstr(R.out, "\"registers_per_thread_source\": \"inferred\""));
  }
  free(data);
  /* A count below the registers used: R12 under -nregs = 8. */
  const char *below = GPURF_TEST_DATA_DIR "/traces/nregs/below-used.traceg";
  /* Simulations on threads: the warnings come in trace order all the same. */
  static char both[2048];
  snprintf(both, sizeof both,
           "%s:6: -nregs 32542 is implausible; using 30 (highest register used + 1)\n"
           "%s:6: -nregs 8 is implausible; using 13 (highest register used + 1)\n",
           v5, below);
  const char *jobs[] = {"sim", "fermi-baseline", "--trace", v5, "--trace", below, "--jobs", "2",
                        NULL};
  for (int i = 0; i < 3; i++) {
    run_bounded(jobs, NULL, 0);
    assert_int_equal(R.status, 0);
    assert_string_equal(R.err, both);
  }
  const char *sb[] = {"trace", "stats", below, "--format", "json", NULL};
  run_bounded(sb, NULL, 0);
  assert_int_equal(R.status, 0);
  snprintf(want, sizeof want,
           "%s:6: -nregs 8 is implausible; using 13 (highest register used + 1)\n", below);
  assert_string_equal(R.err, want);
  assert_non_null(strstr(R.out, "\"registers_per_thread\": 13,"));
  /* A sound header stands, silently. */
  const char *mm = GPURF_TEST_DATA_DIR "/traces/matrixmul-32-32-trace";
  const char *sm[] = {"trace", "stats", mm, "--format", "json", NULL};
  run_bounded(sm, NULL, 0);
  assert_int_equal(R.status, 0);
  assert_string_equal(R.err, "");
  assert_non_null(strstr(R.out, "\"registers_per_thread\": 30,"));
  assert_non_null(strstr(R.out, "\"registers_per_thread_source\": \"header\""));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tech_node_decimal_only),
      cmocka_unit_test(test_error_escape),
      cmocka_unit_test(test_error_one_line),
      cmocka_unit_test(test_yaml_deep_nesting),
      cmocka_unit_test(test_yaml_node_cap),
      cmocka_unit_test(test_table_subarray_cap),
      cmocka_unit_test(test_pipes),
      cmocka_unit_test(test_implausible_nregs),
      cmocka_unit_test(test_reproduce_zero_metric),
      cmocka_unit_test(test_batch_binary_input),
      cmocka_unit_test(test_usage_error_escape),
      cmocka_unit_test(test_merge_reads_once),
      cmocka_unit_test(test_stdin_read_once),
      cmocka_unit_test(test_output_not_a_file),
      cmocka_unit_test(test_report_many_kernels),
  };
  return cmocka_run_group_tests_name("hostile", tests, NULL, NULL);
}
