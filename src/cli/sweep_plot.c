/* The plot of a sweep, drawn by gnuplot run as an external program on a
 * generated script and data file. Everything goes to temporary files beside
 * the target; the target is renamed into place only when gnuplot succeeded,
 * so a failed or interrupted plot never leaves a half-written figure. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/sweep.h"

#define PROG "gpurf sweep"

static int has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Searches PATH as execvp will, so a missing gnuplot is reported before the
 * sweep runs rather than after. */
static int gnuplot_on_path(void) {
  const char *path = getenv("PATH");
  if (!path || !path[0]) return 0;
  char dir[4096];
  while (*path) {
    size_t n = strcspn(path, ":");
    if (n > 0 && n + sizeof "/gnuplot" < sizeof dir) {
      memcpy(dir, path, n);
      snprintf(dir + n, sizeof dir - n, "/gnuplot");
      if (access(dir, X_OK) == 0) return 1;
    }
    path += n;
    if (*path == ':') path++;
  }
  return 0;
}

int sweep_plot_check(const char *path) {
  if (!has_suffix(path, ".png") && !has_suffix(path, ".svg")) {
    cli_usage_error(PROG, "--plot needs a .png or .svg file name, not '%s'", path);
    return CLI_USAGE;
  }
  if (!gnuplot_on_path()) {
    cli_usage_error(PROG, "--plot needs gnuplot, which is not on PATH (Debian: apt-get install "
                          "gnuplot-nox)");
    return CLI_FAIL;
  }
  return CLI_OK;
}

/* mkstemp makes private files; the figure gets the usual permissions. */
static mode_t current_umask(void) {
  mode_t m = umask(022);
  umask(m);
  return m;
}

/* A temporary file beside `path`: PATH.tmp-XXXXXX. */
static int temp_beside(const char *path, char *out, size_t size) {
  if (snprintf(out, size, "%s.tmp-XXXXXX", path) >= (int)size) return -1;
  int fd = mkstemp(out);
  if (fd < 0) return -1;
  close(fd);
  return 0;
}

/* gnuplot quotes: single quotes, a quote doubled. */
static void put_quoted(FILE *f, const char *s) {
  fputc('\'', f);
  for (; *s; s++) {
    if (*s == '\'') fputc('\'', f);
    fputc(*s, f);
  }
  fputc('\'', f);
}

typedef struct panel {
  const char *title, *ylabel;
  int first_col, nparts;
  const char *const *labels;
  const int *colour; /* index into colours[] per part */
} panel;

/* Parts of each panel: the roles and parts of a metrics summary. */
enum {
  AR_COUNT = GPURF_METRICS_AREA_ROLES,
  RP_COUNT = GPURF_METRICS_PATH_PARTS,
  LK_COUNT = GPURF_METRICS_LEAKAGE_ROLES
};

static const char *const area_labels[AR_COUNT] = {"cell arrays", "bank periphery", "crossbar",
                                                  "arbiter", "extra structures"};
static const char *const path_labels[RP_COUNT] = {"bank", "crossbar", "arbiter"};
static const char *const leak_labels[LK_COUNT] = {"banks", "crossbar", "arbiter",
                                                  "extra structures"};
/* One colour per role across the panels (banks, periphery, crossbar,
 * arbiter, extras), distinct in grey as well. */
static const char *const colours[] = {"#4c72b0", "#9ecae1", "#dd8452", "#c44e52", "#55a868"};
static const int area_colour[AR_COUNT] = {0, 1, 2, 3, 4};
static const int path_colour[RP_COUNT] = {0, 2, 3};
static const int leak_colour[LK_COUNT] = {0, 2, 3, 4};

static void part_values(const gpurf_metrics_summary *s, int panel_index, double *v, int *n) {
  if (panel_index == 0) {
    for (int p = 0; p < AR_COUNT; p++) v[p] = gpurf_metrics_summary_area_m2(s, p);
    *n = AR_COUNT;
  } else if (panel_index == 1 || panel_index == 2) {
    for (int p = 0; p < RP_COUNT; p++)
      v[p] = panel_index == 1 ? gpurf_metrics_summary_read_path_s(s, p)
                              : gpurf_metrics_summary_read_energy_j(s, p);
    *n = RP_COUNT;
  } else {
    for (int p = 0; p < LK_COUNT; p++) v[p] = gpurf_metrics_summary_leakage_w(s, p);
    *n = LK_COUNT;
  }
}

static double panel_total(const gpurf_metrics_summary *s, int panel_index) {
  switch (panel_index) {
  case 0: return gpurf_metrics_summary_area_total_m2(s);
  case 1: return gpurf_metrics_summary_read_path_total_s(s);
  case 2: return gpurf_metrics_summary_read_energy_total_j(s);
  default: return gpurf_metrics_summary_leakage_total_w(s);
  }
}

static int write_data(const char *path, const sweep_plot_point *pts, int n, int base) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  for (int i = 0; i < n; i++) {
    fputc('"', f);
    for (const char *c = pts[i].label; *c; c++) fputc(*c == '"' ? '\'' : *c, f);
    fputc('"', f);
    for (int k = 0; k < 4; k++) {
      double v[8], norm = panel_total(pts[base].s, k);
      int np;
      part_values(pts[i].s, k, v, &np);
      for (int p = 0; p < np; p++) fprintf(f, "\t%.9g", norm > 0.0 ? v[p] / norm : 0.0);
    }
    fputc('\n', f);
  }
  return fclose(f) == 0 ? 0 : -1;
}

static int write_script(const char *path, const char *data, const char *out, int svg,
                        const char *title, const sweep_plot_point *pts, int n, int base) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  const panel panels[4] = {
      {"(a) Area", "normalised area", 2, AR_COUNT, area_labels, area_colour},
      {"(b) Read-path delay", "normalised delay", 2 + AR_COUNT, RP_COUNT, path_labels,
       path_colour},
      {"(c) Dynamic energy per operand read", "normalised energy", 2 + AR_COUNT + RP_COUNT,
       RP_COUNT, path_labels, path_colour},
      {"(d) Leakage power", "normalised leakage", 2 + AR_COUNT + 2 * RP_COUNT, LK_COUNT,
       leak_labels, leak_colour}};
  /* Rotate the tick labels when they would run into each other in a panel
   * about 40 characters wide. */
  size_t chars = 0;
  for (int i = 0; i < n; i++) chars += strlen(pts[i].label) + 2;
  int rotate = chars > 40;
  fprintf(f, "set terminal %s size 1400,1000 font 'Sans,12'\nset output ", svg ? "svg" : "pngcairo");
  put_quoted(f, out);
  fprintf(f, "\nset datafile separator '\\t'\nset multiplot layout 2,2 title ");
  put_quoted(f, title);
  fprintf(f, " font 'Sans,14'\n"
             "set style data histograms\nset style histogram rowstacked\n"
             "set style fill solid 0.9 border rgb '#333333'\nset boxwidth 0.65\n"
             "set grid ytics lc rgb '#cccccc'\nset yrange [0:*]\nset offsets 0,0,0.15,0\n"
             "set key outside right top vertical Left reverse noenhanced font 'Sans,11'\n"
             "set xtics noenhanced%s\nset xlabel ",
          rotate ? " rotate by -40" : "");
  char xl[256];
  snprintf(xl, sizeof xl, "normalised to point %d (%s)", base + 1, pts[base].label);
  put_quoted(f, xl);
  fprintf(f, " noenhanced\n");
  for (int k = 0; k < 4; k++) {
    const panel *p = &panels[k];
    /* Parts that are zero at every point (no arbiter, no extras) are left
     * out of the legend. */
    int shown[8] = {0}, any = 0;
    for (int i = 0; i < n; i++) {
      double v[8];
      int np;
      part_values(pts[i].s, k, v, &np);
      for (int q = 0; q < np; q++) shown[q] |= v[q] > 0.0;
    }
    fprintf(f, "set title '%s'\nset ylabel '%s'\nplot ", p->title, p->ylabel);
    for (int q = 0; q < p->nparts; q++) {
      if (!shown[q]) continue;
      fprintf(f, "%s", any ? ", \\\n     " : "");
      put_quoted(f, data);
      fprintf(f, " using %d%s title '%s' lc rgb '%s'", p->first_col + q,
              any ? "" : ":xtic(1)", p->labels[q], colours[p->colour[q]]);
      any = 1;
    }
    if (!any) {
      put_quoted(f, data);
      fprintf(f, " using (0):xtic(1) notitle");
    }
    fprintf(f, "\n");
  }
  fprintf(f, "unset multiplot\n");
  return fclose(f) == 0 ? 0 : -1;
}

/* Runs gnuplot on the script; its messages go to errpath. */
static int run_gnuplot(const char *script, const char *errpath) {
  cli_cleanup_mask mask;
  cli_cleanup_hold(&mask);
  pid_t pid = fork();
  if (pid > 0) cli_cleanup_child(pid);
  cli_cleanup_release(&mask);
  if (pid < 0) return -1;
  if (pid == 0) {
    int fd = open(errpath, O_WRONLY | O_TRUNC);
    int null = open("/dev/null", O_WRONLY);
    if (fd >= 0) dup2(fd, 2);
    if (null >= 0) dup2(null, 1);
    execlp("gnuplot", "gnuplot", script, (char *)NULL);
    _exit(127);
  }
  int st, rc;
  while ((rc = (int)waitpid(pid, &st, 0)) < 0 && errno == EINTR) {}
  cli_cleanup_child(0);
  if (rc < 0) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int sweep_plot(const char *path, const char *title, const sweep_plot_point *pts, int n, int base) {
  char data[4200] = "", script[4200] = "", out[4200] = "", err[4200] = "";
  char *const tmps[4] = {data, script, out, err};
  int slots[4] = {-1, -1, -1, -1};
  if (cli_output_file_ok(path) != CLI_OK) return CLI_FAIL;
  int ok = 1;
  cli_cleanup_mask mask;
  cli_cleanup_hold(&mask);
  for (int i = 0; i < 4 && ok; i++) {
    ok = temp_beside(path, tmps[i], sizeof data) == 0;
    if (ok) slots[i] = cli_cleanup_add(tmps[i]);
  }
  cli_cleanup_release(&mask);
  int rc = CLI_FAIL;
  if (!ok) {
    cli_errorf(PROG ": cannot create a temporary file beside '%s': %s", path,
            strerror(errno));
  } else if (write_data(data, pts, n, base) != 0 ||
             write_script(script, data, out, has_suffix(path, ".svg"), title, pts, n, base) != 0) {
    cli_errorf(PROG ": cannot write the plot's data beside '%s'", path);
  } else {
    int st = run_gnuplot(script, err);
    struct stat sb;
    if (st != 0 || stat(out, &sb) != 0 || sb.st_size == 0) {
      char line[512] = "";
      FILE *f = fopen(err, "r");
      if (f) {
        if (!fgets(line, sizeof line, f)) line[0] = '\0';
        fclose(f);
      }
      line[strcspn(line, "\n")] = '\0';
      cli_errorf(PROG ": gnuplot failed (status %d)%s%s", st, line[0] ? ": " : "", line);
    } else if (chmod(out, 0666 & ~current_umask()) != 0 || rename(out, path) != 0) {
      cli_errorf(PROG ": cannot write '%s': %s", path, strerror(errno));
    } else {
      rc = CLI_OK;
    }
  }
  remove(data);
  remove(script);
  remove(err);
  if (rc != CLI_OK) remove(out);
  for (int i = 0; i < 4; i++) cli_cleanup_remove(slots[i]);
  return rc;
}
