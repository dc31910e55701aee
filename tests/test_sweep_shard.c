/* gpurf_sweep and gpurf sweep --jobs/--shard/merge: axes and their errors,
 * results that do not depend on threads or shards (the same bits through a
 * results file), results files of another sweep or with a point missing
 * refused, and four merged shards printing the unsharded sweep's bytes in
 * every format. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_run.h"

#define MODEL "jing-128k-16bk-straight"
#define LOCKSTEP                                                                                  \
  "banks[0].count+banks[0].entries+crossbar.inputs+arbiter.banks=8:128:8:8,16:64:16:16,32:32:32:32"
#define CLOCKS "clock_hz=7e8,1e9,1.4e9"

static cli_result R;

static gpurf_sweep *new_sweep(gpurf_ctx *ctx) {
  gpurf_sweep *s = NULL;
  assert_ok(ctx, gpurf_sweep_alloc(ctx, MODEL, &s));
  assert_ok(ctx, gpurf_sweep_add(ctx, s, LOCKSTEP));
  assert_ok(ctx, gpurf_sweep_add(ctx, s, CLOCKS));
  return s;
}

typedef struct bad_setting {
  const char *setting, *field, *message;
  int status;
} bad_setting;

/* The first axis varies slowest; lockstep keys share a value index; every
 * malformed setting fails with its field and leaves the sweep unchanged. */
static void axes(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_sweep *s = new_sweep(ctx);
  assert_int_equal(gpurf_sweep_point_count(s), 9);
  assert_int_equal(gpurf_sweep_axis_count(s), 2);
  assert_int_equal(gpurf_sweep_key_count(s, 0), 4);
  assert_string_equal(gpurf_sweep_key(s, 0, 2), "crossbar.inputs");
  assert_string_equal(gpurf_sweep_setting(s, 1), CLOCKS);
  assert_string_equal(gpurf_sweep_value(s, 4, 0, 1), "64");
  assert_string_equal(gpurf_sweep_value(s, 4, 1, 0), "1e9");
  assert_string_equal(gpurf_sweep_value(s, 8, 0, 0), "32");
  assert_null(gpurf_sweep_value(s, 9, 0, 0));
  char label[512];
  gpurf_sweep_point_label(s, 5, label, sizeof label);
  assert_string_equal(label, "banks[0].count=16 banks[0].entries=64 crossbar.inputs=16 "
                             "arbiter.banks=16 clock_hz=1.4e9");
  const bad_setting cases[] = {
      {"banks[0].count", "set", "needs KEY=V1,V2", GPURF_EINVAL},
      {"a+=1:2", "set", "an empty key", GPURF_EINVAL},
      {"a+b=1:2,3", "set", "value 2 has 1 part for 2 keys", GPURF_EINVAL},
      {"a=1,,2", "set", "value 2 is empty", GPURF_EINVAL},
      {"a+a=1:2", "a", "key 'a' is swept twice", GPURF_EINVAL},
      {"clock_hz=1e9", "clock_hz", "key 'clock_hz' is swept twice", GPURF_EINVAL},
      {"temp_k=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,"
       "31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,"
       "60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,"
       "89,90,91,92,93,94,95,96,97,98,99,100,101,102,103,104,105,106,107,108,109,110,111,112",
       "", "more than 1000 points", GPURF_ERANGE},
      {"temp_k=300\t350", "set", "no tab or line break", GPURF_EINVAL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int rc = gpurf_sweep_add(ctx, s, cases[i].setting);
    const gpurf_error *e = gpurf_ctx_error(ctx);
    if (rc != cases[i].status || strcmp(e->field, cases[i].field) ||
        !strstr(e->message, cases[i].message))
      fail_msg("'%s': status %d, field '%s', message '%s'", cases[i].setting, rc, e->field,
               e->message);
    assert_int_equal(gpurf_sweep_point_count(s), 9);
    assert_int_equal(gpurf_sweep_axis_count(s), 2);
  }
  /* Nothing is read or evaluated before prepare. */
  assert_null(gpurf_sweep_design(s));
  assert_null(gpurf_sweep_point_get(s, 0));
  gpurf_sweep_free(s);
  gpurf_sweep *t = NULL;
  assert_int_equal(gpurf_sweep_alloc(ctx, "a\nb", &t), GPURF_EINVAL);
  assert_null(t);
  gpurf_ctx_free(ctx);
}

/* Every number of two points' results, compared bit for bit. */
static void assert_same_point(const gpurf_sweep_point *a, const gpurf_sweep_point *b) {
  assert_true(a->done && b->done);
  assert_same_bits(a->clock_hz, b->clock_hz);
  for (int r = 0; r < GPURF_METRICS_AREA_ROLES; r++)
    assert_same_bits(gpurf_metrics_summary_area_m2(a->summary, r),
                     gpurf_metrics_summary_area_m2(b->summary, r));
  for (int r = 0; r < GPURF_METRICS_LEAKAGE_ROLES; r++)
    assert_same_bits(gpurf_metrics_summary_leakage_w(a->summary, r),
                     gpurf_metrics_summary_leakage_w(b->summary, r));
  for (int p = 0; p < GPURF_METRICS_PATH_PARTS; p++) {
    assert_same_bits(gpurf_metrics_summary_read_path_s(a->summary, p),
                     gpurf_metrics_summary_read_path_s(b->summary, p));
    assert_same_bits(gpurf_metrics_summary_read_energy_j(a->summary, p),
                     gpurf_metrics_summary_read_energy_j(b->summary, p));
  }
  assert_same_bits(gpurf_metrics_summary_area_total_m2(a->summary),
                   gpurf_metrics_summary_area_total_m2(b->summary));
  assert_same_bits(gpurf_metrics_summary_leakage_total_w(a->summary),
                   gpurf_metrics_summary_leakage_total_w(b->summary));
  assert_same_bits(gpurf_metrics_summary_read_path_total_s(a->summary),
                   gpurf_metrics_summary_read_path_total_s(b->summary));
  assert_same_bits(gpurf_metrics_summary_read_energy_total_j(a->summary),
                   gpurf_metrics_summary_read_energy_total_j(b->summary));
  assert_true(gpurf_metrics_summary_read_path_cycles(a->summary) ==
              gpurf_metrics_summary_read_path_cycles(b->summary));
  assert_int_equal(a->n_components, b->n_components);
  for (int c = 0; c < a->n_components; c++) {
    assert_string_equal(a->components[c].name, b->components[c].name);
    assert_int_equal(a->components[c].n_events, b->components[c].n_events);
    for (int e = 0; e < a->components[c].n_events; e++) {
      assert_string_equal(a->components[c].events[e].name, b->components[c].events[e].name);
      assert_same_bits(a->components[c].events[e].energy_j, b->components[c].events[e].energy_j);
    }
  }
}

static void tmp_path(char *buf, size_t size, const char *name) {
  snprintf(buf, size, "%s/sweep_%ld_%s", GPURF_TEST_TMP_DIR, (long)getpid(), name);
}

/* Runs shard i of n of the test sweep on `jobs` threads into path. */
static void write_shard(gpurf_ctx *ctx, int i, int n, int jobs, const char *path) {
  gpurf_sweep *s = new_sweep(ctx);
  gpurf_sweep_run_opts o = {jobs, i, n, NULL, NULL};
  assert_ok(ctx, gpurf_sweep_run(ctx, s, &o));
  assert_int_equal(gpurf_sweep_points_done(s), (9 - (size_t)i + (size_t)n - 1) / (size_t)n);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  assert_ok(ctx, gpurf_sweep_write_results(ctx, s, f));
  fclose(f);
  gpurf_sweep_free(s);
}

/* One thread, three threads and three merged shards give the same bits; the
 * points are those of the design evaluated directly. */
static void threads_and_shards(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  gpurf_sweep *one = new_sweep(ctx), *three = new_sweep(ctx), *merged = NULL;
  gpurf_sweep_run_opts o1 = {1, 0, 0, NULL, NULL}, o3 = {3, 0, 0, NULL, NULL};
  assert_ok(ctx, gpurf_sweep_run(ctx, one, &o1));
  assert_ok(ctx, gpurf_sweep_run(ctx, three, &o3));
  char p[3][512];
  const char *paths[3] = {p[0], p[1], p[2]};
  for (int i = 0; i < 3; i++) {
    char name[32];
    snprintf(name, sizeof name, "api%d.results", i);
    tmp_path(p[i], sizeof p[i], name);
    write_shard(ctx, i, 3, 2, p[i]);
  }
  assert_ok(ctx, gpurf_sweep_merge(ctx, paths, 3, &merged));
  assert_int_equal(gpurf_sweep_points_done(merged), 9);
  assert_string_equal(gpurf_sweep_design(merged)->design, MODEL);
  for (size_t i = 0; i < 9; i++) {
    assert_same_point(gpurf_sweep_point_get(one, i), gpurf_sweep_point_get(three, i));
    assert_same_point(gpurf_sweep_point_get(one, i), gpurf_sweep_point_get(merged, i));
  }
  /* Point 5 (16 banks at 1 GHz) is the shipped 16-bank design. */
  static gpurf_rf_design d;
  static gpurf_rf_table t;
  gpurf_metrics_summary *sum = NULL;
  assert_ok(ctx, gpurf_rf_design_load(ctx, MODEL, &d));
  assert_ok(ctx, gpurf_rf_design_set(ctx, &d, "clock_hz", "1e9"));
  assert_ok(ctx, gpurf_rf_design_table(ctx, &d, &t));
  assert_ok(ctx, gpurf_metrics_summary_alloc(ctx, &sum));
  assert_ok(ctx, gpurf_metrics_summarise(ctx, &t, sum));
  const gpurf_sweep_point *p5 = gpurf_sweep_point_get(merged, 4);
  assert_same_bits(gpurf_metrics_summary_area_total_m2(p5->summary),
                   gpurf_metrics_summary_area_total_m2(sum));
  assert_same_bits(gpurf_metrics_summary_read_energy_total_j(p5->summary),
                   gpurf_metrics_summary_read_energy_total_j(sum));
  gpurf_metrics_summary_free(sum);
  gpurf_sweep_free(one);
  gpurf_sweep_free(three);
  gpurf_sweep_free(merged);
  /* Two of the three shards: the first point missing is named. */
  assert_int_equal(gpurf_sweep_merge(ctx, paths + 1, 2, &merged), GPURF_EINVAL);
  assert_null(merged);
  assert_non_null(strstr(gpurf_ctx_error(ctx)->message, "3 of 9 points have no results, the "
                                                         "first point 1 (a shard missing?)"));
  /* The same shard twice. */
  const char *twice[3] = {p[0], p[1], p[1]};
  assert_int_equal(gpurf_sweep_merge(ctx, twice, 3, &merged), GPURF_EINVAL);
  assert_string_equal(gpurf_ctx_error(ctx)->file, p[1]);
  assert_int_equal(gpurf_ctx_error(ctx)->line, 2);
  for (int i = 0; i < 3; i++) remove(p[i]);
  gpurf_ctx_free(ctx);
}

typedef struct bad_file {
  const char *text, *field, *message;
  int line;
} bad_file;

/* Files of another sweep and damaged lines fail with file and line, and the
 * sweep keeps no part of a bad line. */
static void bad_results(void **state) {
  (void)state;
  gpurf_ctx *ctx = test_ctx();
  char path[512], good[512];
  tmp_path(good, sizeof good, "good.results");
  write_shard(ctx, 1, 4, 1, good);
  char *text = cli_slurp(good, 1 << 16);
  assert_non_null(text);
  char *nl = strchr(text, '\n');
  assert_non_null(nl);
  char header[1024], point[8192];
  snprintf(header, sizeof header, "%.*s", (int)(nl - text + 1), text);
  char *nl2 = strchr(nl + 1, '\n');
  assert_non_null(nl2);
  snprintf(point, sizeof point, "%.*s", (int)(nl2 - nl), nl + 1); /* "point=2\t...\n" */
  free(text);
  char other_model[1024], other_set[1024], cut[10240], bad_number[10240], far[10240];
  snprintf(other_model, sizeof other_model, "gpurf-sweep-results 1\tmodel=warrf-sram\tset="
                                            LOCKSTEP "\tset=" CLOCKS "\n");
  snprintf(other_set, sizeof other_set, "gpurf-sweep-results 1\tmodel=" MODEL "\tset=" LOCKSTEP
                                        "\tset=clock_hz=7e8,1e9,1.5e9\n");
  snprintf(cut, sizeof cut, "%s%.*s\n", header, (int)(strstr(point, "\tleakage_w") - point),
           point);
  snprintf(bad_number, sizeof bad_number, "%s%s", header, point);
  char *area = strstr(bad_number, "\tarea_total_m2=");
  assert_non_null(area);
  area[15] = 'z';
  snprintf(far, sizeof far, "%spoint=10%s", header, strchr(point, '\t'));
  const bad_file cases[] = {
      {"", "", "not a gpurf sweep results file", 1},
      {"gpurf-reproduce-results 1\tpapers=all\tworkloads=shipped\n", "",
       "not a gpurf sweep results file", 1},
      {other_model, "model", "results of a sweep of 'warrf-sram', not of '" MODEL "'", 1},
      {other_set, "set", "setting 2 is 'clock_hz=7e8,1e9,1.5e9', not '" CLOCKS "'", 1},
      {cut, "leakage_w", "expected leakage_w=VALUE here", 2},
      {bad_number, "area_total_m2", "expected 1 number", 2},
      {far, "point", "expected a whole number in [1, 9]", 2},
  };
  tmp_path(path, sizeof path, "bad.results");
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(cases[i].text, f);
    fclose(f);
    gpurf_sweep *s = new_sweep(ctx);
    int rc = gpurf_sweep_read_results(ctx, s, path);
    const gpurf_error *e = gpurf_ctx_error(ctx);
    if (rc == GPURF_OK || strcmp(e->file, path) || e->line != cases[i].line ||
        strcmp(e->field, cases[i].field) || !strstr(e->message, cases[i].message))
      fail_msg("case %zu: status %d, %s:%d field '%s': %s", i, rc, e->file, e->line, e->field,
               e->message);
    assert_int_equal(gpurf_sweep_points_done(s), 0);
    gpurf_sweep_free(s);
  }
  /* "-" is standard input, opened once: a shard on it is read whole (and
   * the merge then misses the other shards' points). */
  assert_non_null(freopen(good, "r", stdin));
  gpurf_sweep *s = NULL;
  const char *dash = "-";
  assert_int_equal(gpurf_sweep_merge(ctx, &dash, 1, &s), GPURF_EINVAL);
  assert_non_null(strstr(gpurf_ctx_error(ctx)->message, "points have no results"));
  remove(path);
  remove(good);
  gpurf_ctx_free(ctx);
}

#define SWEEP "sweep " MODEL " --set '" LOCKSTEP "' --set '" CLOCKS "' "

/* Four shards merged print the unsharded sweep's bytes in each format, and
 * so does any number of threads. */
static void cli_merge(void **state) {
  (void)state;
  static char whole[sizeof R.out];
  char dir[512], args[8192], file[512];
  tmp_path(dir, sizeof dir, "parts/");
  tmp_path(file, sizeof file, "one.results");
  /* Shards 0-2 into a directory (made for the trailing '/'), shard 3 to a
   * named file. */
  for (int i = 0; i < 4; i++) {
    snprintf(args, sizeof args, SWEEP "--shard %d/4 --jobs 2 --out '%s'", i, i < 3 ? dir : file);
    cli_run(&R, args);
    if (R.status != 0 || R.out[0]) fail_msg("shard %d: status %d: %s", i, R.status, R.err);
  }
  const char *formats[] = {"text", "csv", "json"};
  for (int f = 0; f < 3; f++) {
    snprintf(args, sizeof args, SWEEP "--format %s", formats[f]);
    cli_run(&R, args);
    assert_int_equal(R.status, 0);
    strcpy(whole, R.out);
    snprintf(args, sizeof args, SWEEP "--format %s --jobs 3", formats[f]);
    cli_run(&R, args);
    assert_int_equal(R.status, 0);
    assert_string_equal(R.out, whole);
    snprintf(args, sizeof args,
             "sweep merge '%sshard-0-of-4.results' '%sshard-1-of-4.results' "
             "'%sshard-2-of-4.results' '%s' --format %s",
             dir, dir, dir, file, formats[f]);
    cli_run(&R, args);
    if (R.status != 0) fail_msg("merge: %s", R.err);
    if (strcmp(R.out, whole) != 0) fail_msg("merged %s differs from one run's", formats[f]);
  }
  int points = 0; /* JSON, the last format: every point */
  for (const char *q = strstr(whole, "\"point\": "); q; q = strstr(q + 1, "\"point\": ")) points++;
  assert_int_equal(points, 9);
  /* The plot of the merge is the plot of one run. */
  if (system("command -v gnuplot >/dev/null 2>&1") == 0) {
    char one[512], merged[512];
    tmp_path(one, sizeof one, "one.svg");
    tmp_path(merged, sizeof merged, "merged.svg");
    snprintf(args, sizeof args, SWEEP "--plot '%s' --base 2", one);
    cli_run(&R, args);
    assert_int_equal(R.status, 0);
    snprintf(args, sizeof args,
             "sweep merge '%sshard-0-of-4.results' '%sshard-1-of-4.results' "
             "'%sshard-2-of-4.results' '%s' --plot '%s' --base 2",
             dir, dir, dir, file, merged);
    cli_run(&R, args);
    assert_int_equal(R.status, 0);
    char *a = cli_slurp(one, 1 << 20), *b = cli_slurp(merged, 1 << 20);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(strstr(a, "<svg"));
    assert_string_equal(a, b);
    free(a);
    free(b);
    remove(one);
    remove(merged);
  }
  /* A shard to standard output is the same file. */
  cli_run(&R, SWEEP "--shard 3/4");
  assert_int_equal(R.status, 0);
  char *named = cli_slurp(file, sizeof R.out);
  assert_non_null(named);
  assert_string_equal(R.out, named);
  free(named);
  /* A shard missing, and a shard of another sweep. */
  const char *other = "sweep " MODEL " --set '" LOCKSTEP "' --set 'clock_hz=7e8,1e9,1.5e9' "
                      "--shard 3/4";
  char merge_missing[8192], merge_other[8192], other_file[512];
  tmp_path(other_file, sizeof other_file, "other.results");
  snprintf(args, sizeof args, "%s --out '%s'", other, other_file);
  cli_run(&R, args);
  assert_int_equal(R.status, 0);
  snprintf(merge_missing, sizeof merge_missing,
           "sweep merge '%sshard-0-of-4.results' '%sshard-2-of-4.results' '%s'", dir, dir, file);
  snprintf(merge_other, sizeof merge_other,
           "sweep merge '%sshard-0-of-4.results' '%sshard-1-of-4.results' "
           "'%sshard-2-of-4.results' '%s'",
           dir, dir, dir, other_file);
  char want_other[1024];
  snprintf(want_other, sizeof want_other, "%s:1:1: key 'set': results of a sweep whose setting 2",
           other_file);
  const cli_error_case cases[] = {
      {merge_missing, 1, "2 of 9 points have no results, the first point 2 (a shard missing?)"},
      {merge_other, 1, want_other},
  };
  cli_check_errors(cases, 2);
  for (int i = 0; i < 3; i++) {
    snprintf(args, sizeof args, "%sshard-%d-of-4.results", dir, i);
    remove(args);
  }
  rmdir(dir);
  remove(file);
  remove(other_file);
}

static void cli_usage(void **state) {
  (void)state;
  const cli_error_case cases[] = {
      {SWEEP "--shard 4/4", 2, "--shard needs I/N with 0 <= I < N, not '4/4'"},
      {SWEEP "--shard 1", 2, "--shard needs I/N"},
      {SWEEP "--jobs 0", 2, "--jobs"},
      {SWEEP "--shard 0/2 --format csv", 2, "which takes --format, --plot and --base"},
      {SWEEP "--shard 0/2 --plot x.png", 2, "which takes --format, --plot and --base"},
      {SWEEP "--out x.results", 2, "--out names the results file of a --shard"},
      {"sweep merge", 2, "merge needs the results files of the shards"},
      {"sweep merge x.results --set tech=22nm", 2, "unknown option '--set'"},
      {"sweep merge x.results --jobs 2", 2, "unknown option '--jobs'"},
      {"sweep merge /nonexistent/x.results", 1, "/nonexistent/x.results: cannot open"},
  };
  cli_check_errors(cases, sizeof cases / sizeof cases[0]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(axes),     cmocka_unit_test(threads_and_shards),
      cmocka_unit_test(bad_results), cmocka_unit_test(cli_merge),
      cmocka_unit_test(cli_usage),
  };
  return cmocka_run_group_tests_name("sweep_shard", tests, NULL, NULL);
}
