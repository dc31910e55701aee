/* An Accel-Sim run with AccelWattch on, as its run directory holds it: the
 * power report (counters and AccelWattch's own power per kernel) and the
 * simulator's standard output (each kernel's cycles, the core clock). The
 * counters themselves are read by counts_accelwattch.c; this file pairs
 * the report's kernels with the log's so the cycles need not be typed. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "events/events_internal.h"

#define REPORT_NAME "accelwattch_power_report.log"

/* A kernel's name lives in the run's name arena (names): a report of a
 * million kernels then takes tens of megabytes, not a name-sized slot each
 * (a 32 MB file of kernel_name lines took a gigabyte). */
typedef struct aw_kernel {
  size_t name_at; /* offset in the arena */
  int has_cycles;
  uint64_t cycles;
  double rf_power_w; /* < 0: none */
} aw_kernel;

struct gpurf_accelwattch_run {
  char *report, *sim_log;
  aw_kernel *k;
  int n, cap;
  char *names;
  size_t names_len, names_cap;
  int cycles_seen; /* gpu_sim_cycle lines paired so far */
  uint64_t tot_sim_cycles;
  double core_clock_hz;
};

int gpurf_accelwattch_run_alloc(gpurf_ctx *ctx, gpurf_accelwattch_run **out) {
  if (!out) return gpurf_fail(ctx, GPURF_EINVAL, "accelwattch_run_alloc needs an out pointer");
  *out = calloc(1, sizeof **out);
  return *out ? GPURF_OK : gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
}

static void reset(gpurf_accelwattch_run *r) {
  free(r->report);
  free(r->sim_log);
  free(r->k);
  free(r->names);
  memset(r, 0, sizeof *r);
}

void gpurf_accelwattch_run_free(gpurf_accelwattch_run *run) {
  if (!run) return;
  reset(run);
  free(run);
}

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

static char *join(const char *dir, const char *name) {
  size_t a = strlen(dir), b = strlen(name);
  char *p = malloc(a + b + 2);
  if (!p) return NULL;
  memcpy(p, dir, a);
  p[a] = '/';
  memcpy(p + a + 1, name, b + 1);
  return p;
}

static int is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regular files of dir, sorted by name (directory order is not
 * deterministic). */
static int list_files(gpurf_ctx *ctx, const char *dir, char ***names, int *n) {
  *names = NULL;
  *n = 0;
  DIR *d = opendir(dir);
  if (!d)
    return gpurf_fail_at(ctx, GPURF_EIO, dir, 0, 0, NULL, "cannot open directory: %s",
                         strerror(errno));
  int cap = 0, rc = GPURF_OK;
  struct dirent *e;
  while (rc == GPURF_OK && (e = readdir(d)) != NULL) {
    char *full = join(dir, e->d_name);
    if (!full) {
      rc = gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
      break;
    }
    if (!is_file(full)) {
      free(full);
      continue;
    }
    if (*n == cap) {
      int nc = cap ? cap * 2 : 16;
      char **nn = realloc(*names, (size_t)nc * sizeof *nn);
      if (!nn) {
        free(full);
        rc = gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
        break;
      }
      *names = nn;
      cap = nc;
    }
    (*names)[(*n)++] = full;
  }
  closedir(d);
  if (*names) qsort(*names, (size_t)*n, sizeof **names, cmp_str);
  return rc;
}

static void free_list(char **names, int n) {
  for (int i = 0; i < n; i++) free(names[i]);
  free(names);
}

static int ends_with(const char *s, const char *tail) {
  size_t a = strlen(s), b = strlen(tail);
  return a >= b && strcmp(s + a - b, tail) == 0;
}

/* Does path hold a "gpu_sim_cycle = " line? Tolerant: this only picks a
 * candidate, which is then read strictly. Every file of the directory is
 * looked at, so the scan is by blocks, stops at a NUL byte in the first
 * block (a binary file) and at SCAN_BYTES_MAX bytes (a trace or a core file
 * beside the report need not be read whole; a log whose first kernel ends
 * later is named with --sim-log). */
#define SCAN_BYTES_MAX (64L << 20)
static int has_cycle_line(const char *path) {
  static const char key[] = "gpu_sim_cycle =";
  enum { K = sizeof key - 1 };
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  char buf[16384], head[K];
  size_t have = 0, n; /* have: bytes of the current line's start in head */
  long total = 0;
  int found = 0, skipping = 0; /* skipping: past the start of a line */
  while (!found && total < SCAN_BYTES_MAX && (n = fread(buf, 1, sizeof buf, f)) > 0) {
    if (total == 0 && memchr(buf, '\0', n < 4096 ? n : 4096)) break;
    total += (long)n;
    for (size_t i = 0; i < n && !found;) {
      if (skipping) {
        const char *nl = memchr(buf + i, '\n', n - i);
        if (!nl) break;
        i = (size_t)(nl - buf) + 1;
        skipping = 0;
        have = 0;
        continue;
      }
      char c = buf[i++];
      if (c == '\n') {
        have = 0;
        continue;
      }
      head[have++] = c;
      if (have == K) {
        found = memcmp(head, key, K) == 0;
        skipping = 1;
      }
    }
  }
  fclose(f);
  return found;
}

static int add_kernel(gpurf_ctx *ctx, gpurf_accelwattch_run *r, const char *name) {
  if (r->n == r->cap) {
    int nc = r->cap ? r->cap * 2 : 8;
    aw_kernel *nk = realloc(r->k, (size_t)nc * sizeof *nk);
    if (!nk) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
    r->k = nk;
    r->cap = nc;
  }
  size_t len = strlen(name);
  if (len > GPURF_ACCELWATTCH_NAME_MAX - 1) len = GPURF_ACCELWATTCH_NAME_MAX - 1;
  if (r->names_len + len + 1 > r->names_cap) {
    size_t nc = r->names_cap ? r->names_cap * 2 : 1024;
    while (nc < r->names_len + len + 1) nc *= 2;
    char *nn = realloc(r->names, nc);
    if (!nn) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
    r->names = nn;
    r->names_cap = nc;
  }
  aw_kernel *k = &r->k[r->n++];
  memset(k, 0, sizeof *k);
  k->name_at = r->names_len;
  memcpy(r->names + r->names_len, name, len);
  r->names[r->names_len + len] = '\0';
  r->names_len += len + 1;
  k->rf_power_w = -1.0;
  return GPURF_OK;
}

static const char *name_of(const gpurf_accelwattch_run *r, int k) {
  return r->names + r->k[k].name_at;
}

/* Splits "key = value" (GPGPU-Sim's statistics, with AccelWattch's comma
 * after the key) in place; 0 when the line has no '='. */
static int key_value(char *text, char **key, char **val) {
  char *eq = strchr(text, '=');
  if (!eq) return 0;
  *eq = '\0';
  char *k = text, *e = eq;
  while (e > k && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == ',')) e--;
  *e = '\0';
  char *v = eq + 1;
  while (*v == ' ' || *v == '\t') v++;
  e = v + strlen(v);
  while (e > v && (e[-1] == ' ' || e[-1] == '\t')) e--;
  *e = '\0';
  *key = k;
  *val = v;
  return 1;
}

#define FAIL_AT(L, COL, ...) \
  gpurf_fail_at(ctx, GPURF_EPARSE, (L)->path, (int)(L)->line_no, (COL), NULL, __VA_ARGS__)

/* Gives the next kernel without cycles the cycles of a gpu_sim_cycle line
 * (the report's own lines may follow all blocks, so pairing is by order). */
static int pair_cycles(gpurf_ctx *ctx, gpurf_accelwattch_run *r, const ev_lines *l,
                       const char *val, int col) {
  uint64_t c;
  if (ev_parse_u64(val, strlen(val), &c) != 0)
    return FAIL_AT(l, col, "gpu_sim_cycle '%s' is not a whole number", val);
  if (r->cycles_seen == r->n) {
    int rc = add_kernel(ctx, r, "");
    if (rc != GPURF_OK) return rc;
  }
  r->k[r->cycles_seen].cycles = c;
  r->k[r->cycles_seen].has_cycles = 1;
  r->cycles_seen++;
  return GPURF_OK;
}

static int read_report(gpurf_ctx *ctx, gpurf_accelwattch_run *r) {
  ev_lines l;
  int rc = ev_lines_open(ctx, &l, r->report);
  if (rc != GPURF_OK) return rc;
  char *text, *key, *val;
  while (rc == GPURF_OK && (rc = ev_lines_next(ctx, &l, &text)) == 1) {
    rc = GPURF_OK;
    if (!key_value(text, &key, &val)) continue;
    int col = (int)(val - text) + 1;
    if (strcmp(key, "kernel_name") == 0) {
      rc = add_kernel(ctx, r, val);
    } else if (strcmp(key, "gpu_avg_RFP") == 0) {
      char *end;
      errno = 0;
      double w = strtod(val, &end);
      if (!val[0] || *end || errno == ERANGE || !isfinite(w) || w < 0.0)
        rc = FAIL_AT(&l, col, "gpu_avg_RFP '%s' is not a finite number >= 0", val);
      else if (r->n == 0)
        rc = FAIL_AT(&l, 1, "gpu_avg_RFP before any kernel_name line");
      else if (r->k[r->n - 1].rf_power_w >= 0.0)
        rc = FAIL_AT(&l, 1, "a second gpu_avg_RFP in kernel block %d", r->n);
      else
        r->k[r->n - 1].rf_power_w = w;
    } else if (strcmp(key, "gpu_sim_cycle") == 0) {
      rc = pair_cycles(ctx, r, &l, val, col);
    }
  }
  ev_lines_close(&l);
  return rc < 0 ? rc : GPURF_OK;
}

/* The log's kernels, by kernel_name and gpu_sim_cycle lines, checked
 * against the report's. */
static int read_log(gpurf_ctx *ctx, gpurf_accelwattch_run *r) {
  ev_lines l;
  int rc = ev_lines_open(ctx, &l, r->sim_log);
  if (rc != GPURF_OK) return rc;
  char *text, *key, *val;
  int named = 0; /* kernel_name lines seen */
  while (rc == GPURF_OK && (rc = ev_lines_next(ctx, &l, &text)) == 1) {
    rc = GPURF_OK;
    if (strncmp(text, "-gpgpu_clock_domains", 20) == 0) {
      char *end;
      double mhz = strtod(text + 20, &end);
      if (end != text + 20 && isfinite(mhz) && mhz > 0.0) r->core_clock_hz = mhz * 1e6;
      continue;
    }
    if (!key_value(text, &key, &val)) continue;
    int col = (int)(val - text) + 1;
    if (strcmp(key, "kernel_name") == 0) {
      if (named >= r->n)
        rc = FAIL_AT(&l, col, "kernel %d ('%.80s') is not in the report %s (%d kernel%s)",
                     named + 1, val, r->report, r->n, r->n == 1 ? "" : "s");
      else if (name_of(r, named)[0] &&
               strncmp(name_of(r, named), val, GPURF_ACCELWATTCH_NAME_MAX - 1))
        rc = FAIL_AT(&l, col, "kernel %d is '%.80s' here but '%.80s' in the report", named + 1,
                     val, name_of(r, named));
      named++;
    } else if (strcmp(key, "gpu_sim_cycle") == 0) {
      if (r->cycles_seen >= r->n)
        rc = FAIL_AT(&l, col, "more gpu_sim_cycle lines than the report's %d kernel%s", r->n,
                     r->n == 1 ? "" : "s");
      else
        rc = pair_cycles(ctx, r, &l, val, col);
    } else if (strcmp(key, "gpu_tot_sim_cycle") == 0) {
      if (ev_parse_u64(val, strlen(val), &r->tot_sim_cycles) != 0)
        rc = FAIL_AT(&l, col, "gpu_tot_sim_cycle '%s' is not a whole number", val);
    }
  }
  ev_lines_close(&l);
  if (rc < 0) return rc;
  if (r->cycles_seen != r->n)
    return gpurf_fail_at(ctx, GPURF_EPARSE, r->sim_log, 0, 0, NULL,
                         "%d gpu_sim_cycle line%s for the report's %d kernel%s", r->cycles_seen,
                         r->cycles_seen == 1 ? "" : "s", r->n, r->n == 1 ? "" : "s");
  return GPURF_OK;
}

/* The report of a run directory. */
static int find_report(gpurf_ctx *ctx, gpurf_accelwattch_run *r, const char *dir) {
  char *exact = join(dir, REPORT_NAME);
  if (!exact) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  if (is_file(exact)) {
    r->report = exact;
    return GPURF_OK;
  }
  free(exact);
  char **names;
  int n, rc = list_files(ctx, dir, &names, &n);
  const char *found = NULL;
  for (int i = 0; rc == GPURF_OK && i < n; i++) {
    if (!ends_with(names[i], REPORT_NAME)) continue;
    if (found)
      rc = gpurf_fail_at(ctx, GPURF_EINVAL, dir, 0, 0, NULL,
                         "two power reports (%s, %s): name one", found, names[i]);
    found = names[i];
  }
  if (rc == GPURF_OK && !found)
    rc = gpurf_fail_at(ctx, GPURF_ENOTFOUND, dir, 0, 0, NULL,
                       "no %s in this directory (not an Accel-Sim run with AccelWattch on)",
                       REPORT_NAME);
  if (rc == GPURF_OK && !(r->report = dup_str(found)))
    rc = gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  free_list(names, n);
  return rc;
}

/* Does the file name start as the report's does before REPORT_NAME (the
 * "RUN." of RUN.accelwattch_power_report.log)? Runs kept side by side in
 * one directory are told apart so. */
static int same_run(const char *log, const char *report) {
  const char *lb = strrchr(log, '/'), *rb = strrchr(report, '/');
  lb = lb ? lb + 1 : log;
  rb = rb ? rb + 1 : report;
  if (!ends_with(rb, REPORT_NAME)) return 0;
  size_t n = strlen(rb) - strlen(REPORT_NAME);
  return n > 0 && strncmp(lb, rb, n) == 0;
}

/* The one simulator log beside the report; none found leaves sim_log
 * NULL. Several logs: the one named as the report is (RUN.*), if one. */
static int find_log(gpurf_ctx *ctx, gpurf_accelwattch_run *r) {
  char *dir = dup_str(r->report);
  if (!dir) return gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  char *slash = strrchr(dir, '/');
  if (slash == dir) slash[1] = '\0';
  else if (slash) *slash = '\0';
  else strcpy(dir, ".");
  char **names;
  int n, rc = list_files(ctx, dir, &names, &n);
  const char *found = NULL, *first = NULL, *second = NULL, *mine = NULL;
  int n_found = 0, n_same = 0;
  for (int i = 0; rc == GPURF_OK && i < n; i++) {
    const char *base = strrchr(names[i], '/') + 1;
    const char *rbase = strrchr(r->report, '/');
    if (strcmp(base, rbase ? rbase + 1 : r->report) == 0 || !has_cycle_line(names[i])) continue;
    if (n_found++ == 0) first = names[i];
    else if (n_found == 2) second = names[i];
    if (same_run(names[i], r->report) && n_same++ == 0) mine = names[i];
  }
  if (n_found == 1) found = first;
  else if (n_found > 1 && n_same == 1) found = mine;
  else if (rc == GPURF_OK && n_found > 1)
    rc = gpurf_fail_at(ctx, GPURF_EINVAL, dir, 0, 0, NULL,
                       "%d simulator logs with gpu_sim_cycle lines (%s, %s%s): give --sim-log",
                       n_found, first, second, n_found > 2 ? ", ..." : "");
  if (rc == GPURF_OK && found && !(r->sim_log = dup_str(found)))
    rc = gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
  free_list(names, n);
  free(dir);
  return rc;
}

int gpurf_accelwattch_run_read(gpurf_ctx *ctx, gpurf_accelwattch_run *run, const char *path,
                               const char *sim_log, int flags) {
  if (!run || !path || !path[0])
    return gpurf_fail(ctx, GPURF_EINVAL, "accelwattch_run_read needs a run and a path");
  reset(run);
  int rc = is_dir(path) ? find_report(ctx, run, path)
                        : ((run->report = dup_str(path)) ? GPURF_OK
                                                          : gpurf_fail(ctx, GPURF_ENOMEM,
                                                                       "out of memory"));
  if (rc == GPURF_OK) rc = read_report(ctx, run);
  if (rc == GPURF_OK && run->cycles_seen > 0 && sim_log)
    rc = gpurf_fail_at(ctx, GPURF_EINVAL, run->report, 0, 0, NULL,
                       "the report gives its own gpu_sim_cycle lines; a simulator log is for "
                       "reports without");
  if (rc == GPURF_OK && run->cycles_seen == 0) {
    if (sim_log && !(run->sim_log = dup_str(sim_log)))
      rc = gpurf_fail(ctx, GPURF_ENOMEM, "out of memory");
    /* A report without kernel blocks (the bare form) has nothing to pair
     * a log's kernels with. */
    else if (!sim_log && !(flags & GPURF_ACCELWATTCH_NO_SEARCH) && run->n > 0)
      rc = find_log(ctx, run);
    if (rc == GPURF_OK && run->sim_log) rc = read_log(ctx, run);
  }
  if (rc != GPURF_OK) reset(run);
  return rc;
}

const char *gpurf_accelwattch_run_report_path(const gpurf_accelwattch_run *run) {
  return run && run->report ? run->report : "";
}

const char *gpurf_accelwattch_run_sim_log_path(const gpurf_accelwattch_run *run) {
  return run && run->sim_log ? run->sim_log : "";
}

int gpurf_accelwattch_run_kernels(const gpurf_accelwattch_run *run) { return run ? run->n : 0; }

static const aw_kernel *kernel(const gpurf_accelwattch_run *run, int k) {
  return run && k >= 0 && k < run->n ? &run->k[k] : NULL;
}

const char *gpurf_accelwattch_run_kernel_name(const gpurf_accelwattch_run *run, int k) {
  const aw_kernel *p = kernel(run, k);
  return p ? name_of(run, k) : "";
}

uint64_t gpurf_accelwattch_run_kernel_cycles(const gpurf_accelwattch_run *run, int k) {
  const aw_kernel *p = kernel(run, k);
  return p ? p->cycles : 0;
}

double gpurf_accelwattch_run_kernel_rf_power_w(const gpurf_accelwattch_run *run, int k) {
  const aw_kernel *p = kernel(run, k);
  return p ? p->rf_power_w : -1.0;
}

int gpurf_accelwattch_run_has_cycles(const gpurf_accelwattch_run *run) {
  return run && run->n > 0 && run->cycles_seen == run->n;
}

uint64_t gpurf_accelwattch_run_cycles(const gpurf_accelwattch_run *run) {
  if (!gpurf_accelwattch_run_has_cycles(run)) return 0;
  uint64_t sum = 0;
  for (int k = 0; k < run->n; k++) sum += run->k[k].cycles;
  return sum;
}

uint64_t gpurf_accelwattch_run_tot_sim_cycles(const gpurf_accelwattch_run *run) {
  return run ? run->tot_sim_cycles : 0;
}

double gpurf_accelwattch_run_core_clock_hz(const gpurf_accelwattch_run *run) {
  return run ? run->core_clock_hz : 0.0;
}

double gpurf_accelwattch_run_rf_power_w(const gpurf_accelwattch_run *run) {
  if (!gpurf_accelwattch_run_has_cycles(run)) return -1.0;
  double energy = 0.0, cycles = 0.0;
  for (int k = 0; k < run->n; k++) {
    if (run->k[k].rf_power_w < 0.0) return -1.0;
    energy += run->k[k].rf_power_w * (double)run->k[k].cycles;
    cycles += (double)run->k[k].cycles;
  }
  return cycles > 0.0 ? energy / cycles : -1.0;
}
