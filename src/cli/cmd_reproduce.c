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
  cli_errorf("%s: %s: cannot create directory: %s", prog, dir, strerror(errno));
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
  if (out_dir && make_dir(prog, out_dir) != CLI_OK) return CLI_FAIL;
  if (out_dir) {
    /* The library writes each file of the report as DIR/.NAME.tmp-XXXXXX
     * and renames it, names the cleanup registry never sees: an interrupt
     * waits the few milliseconds the writing takes, then ends the process
     * with no temporary file left. */
    cli_cleanup_mask mask;
    cli_cleanup_hold(&mask);
    int wrc = gpurf_reproduce_report_write(ctx, r, out_dir);
    cli_cleanup_release(&mask);
    if (wrc != GPURF_OK) {
      cli_print_error(ctx);
      return CLI_FAIL;
    }
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
  cli_cleanup_mask mask;
  cli_cleanup_hold(&mask);
  int fd = mkstemp(tmp);
  int slot = fd >= 0 ? cli_cleanup_add(tmp) : -1;
  cli_cleanup_release(&mask);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    cli_errorf("%s: %s: cannot create: %s", prog, path, strerror(errno));
    if (fd >= 0) close(fd), unlink(tmp);
    cli_cleanup_remove(slot);
    return CLI_FAIL;
  }
  int rc = gpurf_reproduce_write_results(ctx, r, f);
  if (fclose(f) != 0 && rc == GPURF_OK) rc = GPURF_EIO;
  if (rc == GPURF_OK && rename(tmp, path) != 0) rc = GPURF_EIO;
  if (rc != GPURF_OK) unlink(tmp);
  cli_cleanup_remove(slot);
  if (rc != GPURF_OK) {
    cli_errorf("%s: %s: cannot write", prog, path);
    return CLI_FAIL;
  }
  return CLI_OK;
}

/* A run (PAPER) or a merge of shards (parts): the options each takes. */
static int reproduce(gpurf_ctx *ctx, const cli_parsed *a, const char *const *parts,
                     size_t n_parts) {
  int merge = parts != NULL;
  out_format fmt = a->fmt;
  const char *paper = a->pos[0], *format = cli_get(a, "--format"), *out_dir = cli_get(a, "--out");
  const char *workloads = merge ? NULL : cli_get(a, "--workloads");
  int jobs = 1, quiet = !merge && cli_get(a, "--quiet"), list = !merge && cli_get(a, "--list");
  int si = 0, sn = 1, md = format && !strcmp(format, "md"), rc = CLI_OK;
  long long n = 1;
  if (!merge && (cli_count_opt(a, "--jobs", 256, &n) ||
                 (cli_get(a, "--shard") && cli_parse_shard(a->prog, cli_get(a, "--shard"), &si, &sn))))
    rc = CLI_USAGE;
  jobs = (int)n;
  if (rc == CLI_OK && merge) rc = cli_stdin_once(a->prog, parts, (int)n_parts);
  if (rc == CLI_OK && list) return list_papers();
  if (rc == CLI_OK && !paper && !merge) {
    cli_usage_error(a->prog, "needs PAPER (jing, gebhart, warrf, simtight, jeon or all)");
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
        cli_usage_error(a->prog, "%s", e->message);
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
    rc = write_shard(ctx, a->prog, r, out_dir, si, sn);
  else if (rc == CLI_OK)
    rc = finish(ctx, a->prog, r, fmt, md, out_dir);
  gpurf_reproduce_free(r);
  return rc;
}

int cmd_reproduce(gpurf_ctx *ctx, const cli_parsed *p) { return reproduce(ctx, p, NULL, 0); }

int cmd_reproduce_merge(gpurf_ctx *ctx, const cli_parsed *p) {
  return reproduce(ctx, p, p->pos, (size_t)p->npos);
}
