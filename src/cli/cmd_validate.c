/* gpurf validate: finds the reference sets in DATA_DIR/validation/, has the
 * library compare the bank model with each, and prints how far our numbers
 * are from theirs. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/validate_report.h"

#define MAX_SETS 64
#define PEER_SUFFIX "-pipeline.tsv"

static int is_peer(const char *path) {
  size_t n = strlen(path), k = strlen(PEER_SUFFIX);
  return n >= k && strcmp(path + n - k, PEER_SUFFIX) == 0;
}

static void shown(const char *data_dir, const char *p, char *out, size_t size) {
  size_t dl = strlen(data_dir);
  snprintf(out, size, "%s", dl && !strncmp(p, data_dir, dl) && p[dl] == '/' ? p + dl + 1 : p);
}

/* Reads the peer references among paths (moving them out of the list) and
 * runs the pipeline for each. */
static int load_peers(gpurf_ctx *ctx, const char *data_dir, char **paths, size_t *n,
                      vr_peer *peers, size_t *n_peers) {
  size_t kept = 0;
  int rc = CLI_OK;
  *n_peers = 0;
  for (size_t i = 0; i < *n; i++) {
    if (!is_peer(paths[i]) || rc != CLI_OK) {
      paths[kept++] = paths[i];
      continue;
    }
    vr_peer *p = &peers[(*n_peers)++];
    shown(data_dir, paths[i], p->shown_path, sizeof p->shown_path);
    const char *base = strrchr(paths[i], '/');
    snprintf(p->name, sizeof p->name, "%s", base ? base + 1 : paths[i]);
    p->name[strlen(p->name) - 4] = '\0';
    if (gpurf_reproduce_peer_load(ctx, paths[i], &p->peer) != GPURF_OK ||
        gpurf_reproduce_peer_compare(ctx, p->peer) != GPURF_OK) {
      cli_print_validate_error(ctx);
      rc = CLI_FAIL;
    }
    free(paths[i]);
  }
  *n = kept;
  return rc;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collects the set files: one named set or every *.tsv of the directory,
 * sorted so the report is the same on every machine. */
static int find_sets(const char *data_dir, const char *which, char **paths, size_t *n) {
  char dir[1024];
  *n = 0;
  /* "-" is standard input; the set reader takes paths, and /dev/stdin is
   * the one that names it (read once, so a pipe works). */
  if (which && !strcmp(which, "-")) which = "/dev/stdin";
  if (which && (strchr(which, '/') || (strlen(which) > 4 && !strcmp(which + strlen(which) - 4,
                                                                      ".tsv")))) {
    paths[(*n)++] = strdup(which);
    return paths[0] ? 0 : -1;
  }
  if (!data_dir[0]) {
    fprintf(stderr, "gpurf validate: no data directory (set GPURF_DATA_DIR)\n");
    return -1;
  }
  snprintf(dir, sizeof dir, "%s/validation", data_dir);
  DIR *d = opendir(dir);
  if (!d) {
    cli_errorf("gpurf validate: cannot open %s", dir);
    return -1;
  }
  struct dirent *e;
  while ((e = readdir(d)) != NULL && *n < MAX_SETS) {
    size_t len = strlen(e->d_name);
    if (len <= 4 || e->d_name[0] == '.' || strcmp(e->d_name + len - 4, ".tsv") != 0) continue;
    if (which && (len - 4 != strlen(which) || strncmp(e->d_name, which, len - 4) != 0)) continue;
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (!(paths[*n] = strdup(path))) break;
    (*n)++;
  }
  closedir(d);
  if (e != NULL && *n < MAX_SETS) {
    fprintf(stderr, "gpurf validate: out of memory\n");
    return -1;
  }
  if (*n == 0) {
    cli_errorf("gpurf validate: no validation set%s%s in %s", which ? " named " : "",
            which ? which : "", dir);
    return -1;
  }
  qsort(paths, *n, sizeof *paths, by_name);
  return 0;
}

int cmd_validate(gpurf_ctx *ctx, const cli_parsed *args) {
  const char *which = cli_get(args, "--set");
  out_format fmt = args->fmt;
  int check = cli_get(args, "--check") != NULL;
  if (which && !*which) {
    cli_usage_error(args->prog, "--set needs a name");
    return CLI_USAGE;
  }
  char *paths[MAX_SETS];
  size_t n = 0;
  const char *data_dir = gpurf_ctx_data_dir(ctx);
  if (find_sets(data_dir, which, paths, &n) != 0) return CLI_FAIL;
  /* On the heap: MAX_SETS peer records would take 80 KB of stack. */
  vr_peer *peers = calloc(MAX_SETS, sizeof *peers);
  size_t n_peers = 0;
  int rc = peers ? load_peers(ctx, data_dir, paths, &n, peers, &n_peers) : CLI_FAIL;
  vr_set *sets = calloc(n ? n : 1, sizeof *sets);
  if (!sets) rc = CLI_FAIL;
  /* Every set is read before anything is evaluated, so a malformed file
   * is reported at once and nothing is printed. */
  for (size_t i = 0; rc == CLI_OK && i < n; i++) {
    vr_set *r = &sets[i];
    if (gpurf_validate_set_load(ctx, paths[i], &r->set) != GPURF_OK) {
      cli_print_validate_error(ctx);
      rc = CLI_FAIL;
      break;
    }
    shown(data_dir, paths[i], r->shown_path, sizeof r->shown_path);
  }
  int all_pass = 1;
  for (size_t i = 0; rc == CLI_OK && i < n; i++) {
    if (gpurf_validate_compare(ctx, sets[i].set, &sets[i].res) != GPURF_OK) {
      cli_print_validate_error(ctx);
      rc = CLI_FAIL;
    } else if (gpurf_validate_set_gated(sets[i].set) &&
               !gpurf_validate_result_set_pass(sets[i].res)) {
      all_pass = 0;
    }
  }
  if (rc == CLI_OK) {
    sbuf out;
    sb_init(&out);
    if (fmt == FMT_JSON) {
      vr_print_json(&out, sets, n, all_pass, peers, n_peers);
    } else if (fmt == FMT_CSV) {
      vr_print_csv(&out, sets, n);
      vp_print_csv(&out, peers, n_peers);
    } else {
      if (n) vr_print_text(&out, sets, n, all_pass);
      vp_print_text(&out, peers, n_peers);
    }
    rc = sb_flush_stdout(&out);
    sb_free(&out);
    if (rc == CLI_OK && check && !all_pass) {
      fprintf(stderr, "gpurf validate: a gated set is outside its tolerance\n");
      rc = CLI_FAIL;
    }
  }
  for (size_t i = 0; sets && i < n; i++) {
    gpurf_validate_result_free(sets[i].res);
    gpurf_validate_set_free(sets[i].set);
  }
  for (size_t i = 0; i < n; i++) free(paths[i]);
  for (size_t i = 0; i < n_peers; i++) gpurf_reproduce_peer_free(peers[i].peer);
  free(peers);
  free(sets);
  return rc;
}
