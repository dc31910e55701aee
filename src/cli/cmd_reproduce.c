/* gpurf reproduce: each seed paper's claims, published beside ours; a
 * report; shards and their merge. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "gpurf/reproduce.h"

static const char *const reproduce_help =
    "usage: gpurf reproduce PAPER|all [--workloads SET] [--jobs N] [--out DIR]\n"
    "                       [--shard I/N] [--format text|json|csv|md] [--quiet]\n"
    "       gpurf reproduce merge PARTS... [--out DIR] [--format text|json|csv|md]\n"
    "       gpurf reproduce --list\n"
    "\n"
    "Runs a paper's experiment (its designs on a workload set, through the\n"
    "models and the register-file pipeline) and prints its published claims,\n"
    "each beside ours: published, ours, relative error and whether ours has\n"
    "the paper's direction. A claim whose mechanism is not built says 'not\n"
    "modelled'. PAPER is jing, gebhart, warrf, simtight or jeon (or several,\n"
    "comma-separated).\n"
    "\n"
    "  --workloads SET  default (each paper's), shipped, synthetic, riscv, suite\n"
    "                   (the RV32 kernels run on the emulator), suite-rv32e, a\n"
    "                   directory of traces, or sets joined with '+'\n"
    "  --jobs N         simulations on N threads (output identical for any N)\n"
    "  --out DIR        writes DIR/index.html, results.json, PAPER.csv and the\n"
    "                   figures (SVG); with --shard, DIR/shard-I-of-N.results\n"
    "  --shard I/N      runs the jobs j with j mod N = I and writes their results\n"
    "                   (to --out DIR, else standard output) for 'merge'\n"
    "  --quiet          no progress line on a terminal\n";

typedef struct progress {
  int on;
  time_t start;
} progress;

static void show_progress(void *arg, size_t done, size_t total) {
  progress *p = arg;
  if (!p->on) return;
  double el = difftime(time(NULL), p->start);
  double eta = done ? el * (double)(total - done) / (double)done : 0;
  fprintf(stderr, "\r[%zu/%zu] %.0f s elapsed, about %.0f s left\033[K", done, total, el, eta);
}

static int make_dir(const char *prog, const char *dir) {
  if (mkdir(dir, 0777) == 0 || errno == EEXIST) {
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) return CLI_OK;
  }
  fprintf(stderr, "%s: %s: cannot create directory: %s\n", prog, dir, strerror(errno));
  return CLI_FAIL;
}

static void fmt_value(sbuf *o, const gpurf_reproduce_claim *c, double v) {
  if (!strcmp(c->unit, "fraction"))
    sb_printf(o, strstr(c->metric, "ratio - 1") ? "%+.1f%%" : "%.1f%%", 100 * v);
  else
    sb_printf(o, "%.4g %s", v, c->unit);
}

static const char *rel_sign(gpurf_reproduce_relation r) {
  return r == GPURF_REPRODUCE_ABOUT ? "~" : r == GPURF_REPRODUCE_BELOW ? "<"
                                          : r == GPURF_REPRODUCE_ABOVE ? ">" : "";
}

/* Text and Markdown: a section per paper, a row per claim, per-workload
 * rows under the claims computed over a set. */
static void print_table(sbuf *o, gpurf_reproduce *r, int md) {
  const char *last = NULL;
  for (size_t i = 0; i < gpurf_reproduce_claim_count(r); i++) {
    const gpurf_reproduce_claim *c = gpurf_reproduce_claim_get(r, i);
    if (!last || strcmp(last, c->paper)) {
      const char *set = gpurf_reproduce_paper_workloads(r, c->paper);
      sb_printf(o, md ? "%s## %s (workloads: %s)\n\n" : "%s%s (workloads: %s:", last ? "\n" : "",
                c->paper, set);
      if (!md) {
        for (size_t w = 0; w < gpurf_reproduce_workload_count(r, c->paper); w++)
          sb_printf(o, "%s%s", w ? ", " : " ", gpurf_reproduce_workload_name(r, c->paper, w));
        sb_printf(o, ")\n");
      }
      sb_printf(o, md ? "| claim | published | ours | error | direction |\n|---|---|---|---|---|\n"
                      : "  %-40s %12s %12s %8s  %s\n",
                "claim", "published", "ours", "error", "direction");
      last = c->paper;
    }
    sbuf pub, ours;
    sb_init(&pub);
    sb_init(&ours);
    if (c->has_published) {
      sb_printf(&pub, "%s", rel_sign(c->relation));
      fmt_value(&pub, c, c->published);
    }
    if (c->status == GPURF_REPRODUCE_COMPUTED)
      fmt_value(&ours, c, c->ours);
    else
      sb_printf(&ours, "%s", gpurf_reproduce_status_name(c->status));
    char err[32] = "", dir[16] = "";
    if (c->status == GPURF_REPRODUCE_COMPUTED && c->has_rel_error && !c->per_workload)
      snprintf(err, sizeof err, "%+.0f%%", 100 * c->rel_error);
    if (c->direction_ok >= 0 && c->has_published)
      snprintf(dir, sizeof dir, "%s", c->direction_ok ? "agrees" : "differs");
    char name[128];
    snprintf(name, sizeof name, c->per_workload ? "  %s" : "%s",
             c->per_workload ? c->workloads : c->claim);
    if (md)
      sb_printf(o, "| %s%s | %s | %s | %s | %s |\n", c->per_workload ? "&nbsp;&nbsp;" : "", name,
                pub.data ? pub.data : "", ours.data ? ours.data : "", err, dir);
    else
      sb_printf(o, "  %-40s %12s %12s %8s  %s\n", name, pub.data ? pub.data : "",
                ours.data ? ours.data : "", err, dir);
    sb_free(&pub);
    sb_free(&ours);
  }
}

/* Per paper: claims, computed, direction agrees, and within a third. */
static void print_summary(sbuf *o, gpurf_reproduce *r, int md) {
  sb_printf(o, md ? "\n## Summary\n\n| paper | claims | computed | direction agrees | and within a "
                    "third |\n|---|---|---|---|---|\n"
                  : "\nsummary\n  %-10s %8s %9s %17s %19s\n",
            "paper", "claims", "computed", "direction agrees", "and within a third");
  for (int p = 0; p < gpurf_reproduce_paper_count(); p++) {
    const char *id = gpurf_reproduce_paper_get(p)->id;
    gpurf_reproduce_tally t;
    gpurf_reproduce_tally_get(r, id, &t);
    if (t.claims == 0) continue;
    sb_printf(o, md ? "| %s | %d | %d | %d | %d |\n" : "  %-10s %8d %9d %17d %19d\n", id, t.claims,
              t.computed, t.direction_ok, t.within_third);
  }
}

static int list_papers(void) {
  for (int i = 0; i < gpurf_reproduce_paper_count(); i++) {
    const gpurf_reproduce_paper *p = gpurf_reproduce_paper_get(i);
    printf("%-9s %s\n          %s; default workloads: %s\n", p->id, p->title, p->citation,
           p->default_workloads);
  }
  return CLI_OK;
}

/* Prints the claims to standard output and, with DIR, writes the report. */
static int finish(gpurf_ctx *ctx, const char *prog, gpurf_reproduce *r, out_format fmt, int md,
                  const char *out_dir) {
  if (gpurf_reproduce_claims(ctx, r) != GPURF_OK) {
    cli_print_error(ctx);
    return CLI_FAIL;
  }
  if (out_dir && (make_dir(prog, out_dir) != CLI_OK ||
                  gpurf_reproduce_report_write(ctx, r, out_dir) != GPURF_OK)) {
    if (gpurf_ctx_error(ctx)->status) cli_print_error(ctx);
    return CLI_FAIL;
  }
  int rc = GPURF_OK;
  if (fmt == FMT_CSV) {
    rc = gpurf_reproduce_write_csv(ctx, r, NULL, stdout);
  } else if (fmt == FMT_JSON) {
    rc = gpurf_reproduce_write_json(ctx, r, stdout);
  } else {
    sbuf o;
    sb_init(&o);
    print_table(&o, r, md);
    print_summary(&o, r, md);
    rc = sb_flush_stdout(&o) == CLI_OK ? GPURF_OK : GPURF_EIO;
    sb_free(&o);
    return rc == GPURF_OK ? CLI_OK : CLI_FAIL;
  }
  if (rc != GPURF_OK) cli_print_error(ctx);
  return rc == GPURF_OK ? CLI_OK : CLI_FAIL;
}

static int write_shard(gpurf_ctx *ctx, const char *prog, gpurf_reproduce *r, const char *dir,
                       int si, int sn) {
  if (!dir) return gpurf_reproduce_write_results(ctx, r, stdout) == GPURF_OK ? CLI_OK : CLI_FAIL;
  if (make_dir(prog, dir) != CLI_OK) return CLI_FAIL;
  char path[4096], tmp[4200];
  snprintf(path, sizeof path, "%s/shard-%d-of-%d.results", dir, si, sn);
  snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", path);
  int fd = mkstemp(tmp);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    fprintf(stderr, "%s: %s: cannot create: %s\n", prog, path, strerror(errno));
    if (fd >= 0) close(fd), unlink(tmp);
    return CLI_FAIL;
  }
  int rc = gpurf_reproduce_write_results(ctx, r, f);
  if (fclose(f) != 0 && rc == GPURF_OK) rc = GPURF_EIO;
  if (rc == GPURF_OK && rename(tmp, path) != 0) rc = GPURF_EIO;
  if (rc != GPURF_OK) {
    unlink(tmp);
    fprintf(stderr, "%s: %s: cannot write\n", prog, path);
    return CLI_FAIL;
  }
  return CLI_OK;
}

int cmd_reproduce(gpurf_ctx *ctx, int argc, char **argv) {
  cli_args a = {argc, argv, 0, "gpurf reproduce"};
  out_format fmt = FMT_TEXT;
  const char *paper = NULL, *workloads = NULL, *out_dir = NULL, *format = NULL;
  int jobs = 1, quiet = 0, list = 0, merge = 0, si = 0, sn = 1, md = 0, rc = CLI_OK;
  const char **parts = calloc((size_t)(argc ? argc : 1), sizeof *parts);
  size_t n_parts = 0;
  if (!parts) {
    fprintf(stderr, "gpurf reproduce: out of memory\n");
    return CLI_FAIL;
  }
  for (a.pos = 0; a.pos < a.argc && rc == CLI_OK; a.pos++) {
    const char *v, *arg = a.argv[a.pos];
    int bad = 0;
    if (cli_is_help(arg)) {
      fputs(reproduce_help, stdout);
      free(parts);
      return CLI_OK;
    } else if (cli_opt_value(&a, "--format", &v, &bad)) {
      format = v;
      if (bad) rc = CLI_USAGE;
    } else if (cli_opt_value(&a, "--workloads", &v, &bad)) {
      workloads = v;
      if (bad) rc = CLI_USAGE;
    } else if (cli_opt_value(&a, "--out", &v, &bad)) {
      out_dir = v;
      if (bad) rc = CLI_USAGE;
    } else if (cli_opt_value(&a, "--jobs", &v, &bad)) {
      long long n = 0;
      rc = bad ? CLI_USAGE : cli_parse_count(a.prog, "--jobs", v, 256, &n);
      jobs = (int)n;
    } else if (cli_opt_value(&a, "--shard", &v, &bad)) {
      rc = bad ? CLI_USAGE : cli_parse_shard(a.prog, v, &si, &sn);
    } else if (cli_is_flag(&a, "--quiet")) {
      quiet = 1;
    } else if (cli_is_flag(&a, "--list")) {
      list = 1;
    } else if (arg[0] == '-' && arg[1] != '\0') {
      cli_usage_error(a.prog, "unknown option '%s'", arg);
      rc = CLI_USAGE;
    } else if (!paper && !merge) {
      if (!strcmp(arg, "merge"))
        merge = 1;
      else
        paper = arg;
    } else if (merge) {
      parts[n_parts++] = arg;
    } else {
      cli_usage_error(a.prog, "unexpected argument '%s'", arg);
      rc = CLI_USAGE;
    }
  }
  if (rc == CLI_OK && format) {
    if (!strcmp(format, "md"))
      md = 1;
    else
      rc = cli_parse_format(a.prog, format, 1, &fmt);
  }
  if (rc == CLI_OK && list) {
    free(parts);
    return list_papers();
  }
  if (rc == CLI_OK && !paper && !merge) {
    cli_usage_error(a.prog, "needs PAPER (jing, gebhart, warrf, simtight, jeon or all)");
    rc = CLI_USAGE;
  }
  if (rc == CLI_OK && merge && (n_parts == 0 || sn > 1 || workloads)) {
    cli_usage_error(a.prog, n_parts ? "merge takes no --shard or --workloads"
                                    : "merge needs the results files of the shards");
    rc = CLI_USAGE;
  }
  gpurf_reproduce *r = NULL;
  if (rc == CLI_OK && merge) {
    if (gpurf_reproduce_merge(ctx, parts, n_parts, &r) != GPURF_OK) {
      cli_print_error(ctx);
      rc = CLI_FAIL;
    } else if (gpurf_reproduce_jobs_done(r) != gpurf_reproduce_job_count(r)) {
      fprintf(stderr, "gpurf reproduce merge: %zu of %zu jobs have no results (a shard missing?)\n",
              gpurf_reproduce_job_count(r) - gpurf_reproduce_jobs_done(r),
              gpurf_reproduce_job_count(r));
      rc = CLI_FAIL;
    }
  } else if (rc == CLI_OK) {
    if (gpurf_reproduce_alloc(ctx, paper, workloads, &r) != GPURF_OK) {
      const gpurf_error *e = gpurf_ctx_error(ctx);
      if (e->status == GPURF_EINVAL && !e->file[0]) {
        cli_usage_error(a.prog, "%s", e->message);
        rc = CLI_USAGE;
      } else {
        cli_print_error(ctx);
        rc = CLI_FAIL;
      }
    }
    progress pr = {!quiet && isatty(STDERR_FILENO), time(NULL)};
    gpurf_reproduce_run_opts ro = {jobs, si, sn, show_progress, &pr};
    if (rc == CLI_OK && gpurf_reproduce_run(ctx, r, &ro) != GPURF_OK) {
      cli_print_error(ctx);
      rc = CLI_FAIL;
    }
    if (pr.on) fprintf(stderr, "\r\033[K");
  }
  if (rc == CLI_OK && sn > 1)
    rc = write_shard(ctx, a.prog, r, out_dir, si, sn);
  else if (rc == CLI_OK)
    rc = finish(ctx, a.prog, r, fmt, md, out_dir);
  gpurf_reproduce_free(r);
  free(parts);
  return rc;
}
