/* The plan of a reproduction: which papers, which workloads, which jobs.
 * Jobs are kept in the order the papers add them, without duplicates, so
 * that a job's index (and so its shard) is the same in every process. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/ctx_internal.h"
#include "gpurf/trace.h"
#include "reproduce/repro_internal.h"

static const repro_paper_def *const papers[REPRO_MAX_PAPERS] = {
    &repro_paper_jing, &repro_paper_gebhart, &repro_paper_warrf, &repro_paper_simtight,
    &repro_paper_jeon};

int gpurf_reproduce_paper_count(void) { return REPRO_MAX_PAPERS; }

const gpurf_reproduce_paper *gpurf_reproduce_paper_get(int i) {
  return i >= 0 && i < REPRO_MAX_PAPERS ? &papers[i]->info : NULL;
}

/* The shipped Accel-Sim traces, found under the data directory. */
static const char *const shipped_traces[] = {"matrixmul-32-32-trace", "vectoradd-100-32-trace"};
static const char *const shipped_dirs[] = {"traces", "tests/data/traces"};

static int add_workload(gpurf_ctx *ctx, gpurf_reproduce *r, const repro_workload *w, int *index) {
  for (int i = 0; i < r->n_workloads; i++) {
    if (!strcmp(r->workloads[i].name, w->name)) {
      if (strcmp(r->workloads[i].path, w->path) || r->workloads[i].kind != w->kind)
        return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "workload",
                               "two workloads are named '%s'", w->name);
      *index = i;
      return GPURF_OK;
    }
  }
  if (r->n_workloads == r->cap_workloads) {
    int cap = r->cap_workloads ? 2 * r->cap_workloads : 16;
    repro_workload *nw = realloc(r->workloads, (size_t)cap * sizeof *nw);
    if (!nw) return gpurf_fail_at(ctx, GPURF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    r->workloads = nw;
    r->cap_workloads = cap;
  }
  r->workloads[r->n_workloads] = *w;
  *index = r->n_workloads++;
  return GPURF_OK;
}

int repro_plan_add_workload(gpurf_ctx *ctx, gpurf_reproduce *r, repro_paper_plan *pp,
                            const repro_workload *w) {
  int idx = -1;
  int rc = add_workload(ctx, r, w, &idx);
  if (rc != GPURF_OK) return rc;
  for (int i = 0; i < pp->n_workloads; i++)
    if (pp->workloads[i] == idx) return GPURF_OK;
  int *nw = realloc(pp->workloads, (size_t)(pp->n_workloads + 1) * sizeof *nw);
  if (!nw) return gpurf_fail_at(ctx, GPURF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
  pp->workloads = nw;
  pp->workloads[pp->n_workloads++] = idx;
  return GPURF_OK;
}

static int is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* Workload name of a trace path: its last component without "-trace" or an
 * extension. */
static void trace_name(const char *path, char *out, size_t n) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  snprintf(out, n, "%s", base);
  size_t len = strlen(out);
  if (len > 6 && !strcmp(out + len - 6, "-trace")) out[len - 6] = '\0';
  char *dot = strrchr(out, '.');
  if (dot && dot != out) *dot = '\0';
}

static int add_trace(gpurf_ctx *ctx, gpurf_reproduce *r, repro_paper_plan *pp, const char *path) {
  repro_workload w;
  memset(&w, 0, sizeof w);
  w.kind = REPRO_W_TRACE;
  trace_name(path, w.name, sizeof w.name);
  if (snprintf(w.path, sizeof w.path, "%s", path) >= (int)sizeof w.path)
    return gpurf_fail_at(ctx, GPURF_EINVAL, path, 0, 0, "workloads", "path too long");
  return repro_plan_add_workload(ctx, r, pp, &w);
}

static int add_shipped(gpurf_ctx *ctx, gpurf_reproduce *r, repro_paper_plan *pp) {
  for (size_t t = 0; t < sizeof shipped_traces / sizeof *shipped_traces; t++) {
    char path[2 * REPRO_PATH_MAX];
    int found = 0;
    for (size_t d = 0; d < sizeof shipped_dirs / sizeof *shipped_dirs && !found; d++) {
      snprintf(path, sizeof path, "%s/%s/%s", r->data_dir, shipped_dirs[d], shipped_traces[t]);
      found = exists(path);
    }
    if (!found)
      return gpurf_fail_at(ctx, GPURF_ENOTFOUND, NULL, 0, 0, "workloads",
                             "shipped trace %s not found under the data directory '%s'",
                             shipped_traces[t], r->data_dir);
    int rc = add_trace(ctx, r, pp, path);
    if (rc != GPURF_OK) return rc;
  }
  return GPURF_OK;
}

/* The presets: the general ones ("synthetic"), or the Table 1 rows of
 * Jeon et al. ("jeon", named jeon-*). */
static int add_synthetic(gpurf_ctx *ctx, gpurf_reproduce *r, repro_paper_plan *pp, int jeon) {
  for (const gpurf_trace_preset_info *p = gpurf_trace_gen_presets(); p->name; p++) {
    if (jeon != !strncmp(p->name, "jeon-", 5)) continue;
    repro_workload w;
    memset(&w, 0, sizeof w);
    w.kind = REPRO_W_PRESET;
    w.seed = 1;
    snprintf(w.name, sizeof w.name, "%s", p->name);
    snprintf(w.path, sizeof w.path, "%s", p->name);
    int rc = repro_plan_add_workload(ctx, r, pp, &w);
    if (rc != GPURF_OK) return rc;
  }
  return GPURF_OK;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every entry of a directory (files and trace directories), by name. */
static int add_directory(gpurf_ctx *ctx, gpurf_reproduce *r, repro_paper_plan *pp,
                         const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return gpurf_fail_at(ctx, GPURF_EIO, dir, 0, 0, "workloads", "cannot open directory");
  char **names = NULL;
  size_t n = 0;
  int rc = GPURF_OK;
  struct dirent *e;
  while (rc == GPURF_OK && (e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char **nn = realloc(names, (n + 1) * sizeof *nn);
    char *s = nn ? malloc(strlen(e->d_name) + 1) : NULL;
    if (nn) names = nn;
    if (!s) {
      rc = gpurf_fail_at(ctx, GPURF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
      break;
    }
    strcpy(s, e->d_name);
    names[n++] = s;
  }
  closedir(d);
  if (rc == GPURF_OK && n == 0)
    rc = gpurf_fail_at(ctx, GPURF_ENOTFOUND, dir, 0, 0, "workloads", "no traces in directory");
  if (names) qsort(names, n, sizeof *names, cmp_str);
  for (size_t i = 0; i < n && rc == GPURF_OK; i++) {
    char path[REPRO_PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", dir, names[i]) >= (int)sizeof path)
      rc = gpurf_fail_at(ctx, GPURF_EINVAL, dir, 0, 0, "workloads", "path too long");
    else
      rc = add_trace(ctx, r, pp, path);
  }
  for (size_t i = 0; i < n; i++) free(names[i]);
  free(names);
  return rc;
}

/* The riscv traces shipped with the sources. */
static int add_riscv(gpurf_ctx *ctx, gpurf_reproduce *r, repro_paper_plan *pp) {
  char dir[REPRO_PATH_MAX + 32];
  snprintf(dir, sizeof dir, "%s/tests/data/riscv", r->data_dir);
  if (!is_dir(dir))
    return gpurf_fail_at(ctx, GPURF_ENOTFOUND, NULL, 0, 0, "workloads",
                         "no emulated kernel traces (%s): the riscv set is not available",
                         "tests/data/riscv");
  return add_directory(ctx, r, pp, dir);
}

/* A set: "shipped", "synthetic", "jeon", "riscv", "suite" (the kernel suite run on
 * the emulator, else the riscv traces), "suite-rv32e" (its RV32E builds,
 * empty without them), a directory, or several joined with '+'. */
static int resolve_set(gpurf_ctx *ctx, gpurf_reproduce *r, repro_paper_plan *pp, const char *set) {
  snprintf(pp->set, sizeof pp->set, "%s", set);
  char buf[REPRO_PATH_MAX];
  snprintf(buf, sizeof buf, "%s", set);
  int rc = GPURF_OK;
  for (char *save = NULL, *part = strtok_r(buf, "+", &save); part && rc == GPURF_OK;
       part = strtok_r(NULL, "+", &save)) {
    if (!strcmp(part, "shipped")) {
      rc = add_shipped(ctx, r, pp);
    } else if (!strcmp(part, "synthetic")) {
      rc = add_synthetic(ctx, r, pp, 0);
    } else if (!strcmp(part, "jeon")) {
      rc = add_synthetic(ctx, r, pp, 1);
    } else if (!strcmp(part, "riscv")) {
      rc = add_riscv(ctx, r, pp);
    } else if (!strcmp(part, "suite") || !strcmp(part, "suite-rv32e")) {
      int found = 0;
      rc = repro_suite_add(ctx, r, pp, part[5] ? "rv32e" : "", &found);
      if (rc == GPURF_OK && !found && !part[5]) rc = add_riscv(ctx, r, pp);
    } else if (is_dir(part)) {
      rc = add_directory(ctx, r, pp, part);
    } else {
      rc = gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "workloads",
                           "'%s' is not shipped, synthetic, jeon, riscv, suite, suite-rv32e or "
                           "a directory",
                           part);
    }
  }
  return rc;
}

static const repro_paper_def *find_paper(const char *id, size_t len) {
  for (int i = 0; i < REPRO_MAX_PAPERS; i++)
    if (strlen(papers[i]->info.id) == len && !strncmp(papers[i]->info.id, id, len))
      return papers[i];
  return NULL;
}

static int select_papers(gpurf_ctx *ctx, gpurf_reproduce *r, const char *which) {
  if (!which || !*which)
    return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "paper", "no paper given");
  int want[REPRO_MAX_PAPERS] = {0};
  if (!strcmp(which, "all")) {
    for (int i = 0; i < REPRO_MAX_PAPERS; i++) want[i] = 1;
  } else {
    for (const char *p = which;;) {
      size_t len = strcspn(p, ",");
      const repro_paper_def *d = find_paper(p, len);
      if (!d)
        return gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "paper",
                               "unknown paper '%.*s' (jing, gebhart, warrf, simtight, jeon, all)",
                               (int)len, p);
      for (int i = 0; i < REPRO_MAX_PAPERS; i++) want[i] |= papers[i] == d;
      if (!p[len]) break;
      p += len + 1;
    }
  }
  for (int i = 0; i < REPRO_MAX_PAPERS; i++)
    if (want[i]) r->papers[r->n_papers++].def = papers[i];
  return GPURF_OK;
}

int gpurf_reproduce_alloc(gpurf_ctx *ctx, const char *which, const char *workloads,
                          gpurf_reproduce **out) {
  *out = NULL;
  gpurf_reproduce *r = calloc(1, sizeof *r);
  if (!r) return gpurf_fail_at(ctx, GPURF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
  snprintf(r->data_dir, sizeof r->data_dir, "%s", gpurf_ctx_data_dir(ctx));
  int use_default = !workloads || !strcmp(workloads, "default");
  int rc = GPURF_OK;
  if (!which || strlen(which) >= sizeof r->papers_spec ||
      (!use_default && strlen(workloads) >= sizeof r->workloads_spec) ||
      strpbrk(which, "\t\n") || (!use_default && strpbrk(workloads, "\t\n")))
    rc = gpurf_fail_at(ctx, GPURF_EINVAL, NULL, 0, 0, "paper", "bad paper or workload set");
  if (rc == GPURF_OK) {
    snprintf(r->papers_spec, sizeof r->papers_spec, "%s", which);
    snprintf(r->workloads_spec, sizeof r->workloads_spec, "%s", use_default ? "default" : workloads);
    rc = select_papers(ctx, r, which);
  }
  for (int i = 0; i < r->n_papers && rc == GPURF_OK; i++) {
    repro_paper_plan *pp = &r->papers[i];
    rc = resolve_set(ctx, r, pp, use_default ? pp->def->info.default_workloads : workloads);
    repro_env env = {ctx, r, pp, 0};
    if (rc == GPURF_OK) rc = pp->def->plan(&env);
  }
  if (rc != GPURF_OK) {
    gpurf_reproduce_free(r);
    return rc;
  }
  *out = r;
  return GPURF_OK;
}

void gpurf_reproduce_free(gpurf_reproduce *r) {
  if (!r) return;
  for (int i = 0; i < r->n_papers; i++) free(r->papers[i].workloads);
  for (size_t i = 0; i < r->n_strings; i++) free(r->strings[i]);
  free(r->strings);
  free(r->workloads);
  free(r->jobs);
  free(r->claims);
  free(r);
}

/* The "design." entries of a settings string: what a design job needs. */
static void design_sets(const char *sets, char *out, size_t n) {
  out[0] = '\0';
  if (!sets) return;
  size_t len = 0;
  for (const char *p = sets; *p;) {
    size_t l = strcspn(p, ";");
    if (!strncmp(p, "design.", 7) && len + l + 2 < n) {
      if (len) out[len++] = ';';
      memcpy(out + len, p, l);
      len += l;
      out[len] = '\0';
    }
    p += l + (p[l] == ';');
  }
}

void repro_job_key(repro_job_kind kind, const char *design, const char *workload,
                   const char *sets, char *out, size_t n) {
  if (kind == REPRO_JOB_DESIGN) {
    char ds[REPRO_SETS_MAX];
    design_sets(sets, ds, sizeof ds);
    snprintf(out, n, "design|%s|%s", design, ds);
  } else {
    snprintf(out, n, "sim|%s|%s|%s", design, workload, sets ? sets : "");
  }
}

static int add_job(repro_env *env, repro_job_kind kind, const char *design, int workload,
                   const char *sets) {
  gpurf_reproduce *r = env->r;
  if (strlen(design) >= REPRO_NAME_MAX || (sets && strlen(sets) >= REPRO_SETS_MAX))
    return gpurf_fail_at(env->ctx, GPURF_EINVAL, NULL, 0, 0, "job", "design or settings too long");
  char key[REPRO_KEY_MAX];
  repro_job_key(kind, design, workload >= 0 ? r->workloads[workload].name : "", sets, key,
                sizeof key);
  for (size_t i = 0; i < r->n_jobs; i++)
    if (!strcmp(r->jobs[i].key, key)) return GPURF_OK;
  if (r->n_jobs == r->cap_jobs) {
    size_t cap = r->cap_jobs ? 2 * r->cap_jobs : 64;
    repro_job *nj = realloc(r->jobs, cap * sizeof *nj);
    if (!nj) return gpurf_fail_at(env->ctx, GPURF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    r->jobs = nj;
    r->cap_jobs = cap;
  }
  repro_job *j = &r->jobs[r->n_jobs++];
  memset(j, 0, sizeof *j);
  j->kind = kind;
  snprintf(j->design, sizeof j->design, "%s", design);
  j->workload = workload;
  if (kind == REPRO_JOB_DESIGN)
    design_sets(sets, j->sets, sizeof j->sets);
  else
    snprintf(j->sets, sizeof j->sets, "%s", sets ? sets : "");
  snprintf(j->key, sizeof j->key, "%s", key);
  return GPURF_OK;
}

int repro_plan_design(repro_env *env, const char *design, const char *sets) {
  return add_job(env, REPRO_JOB_DESIGN, design, -1, sets);
}

int repro_plan_sims(repro_env *env, const char *design, const char *sets) {
  int rc = repro_plan_design(env, design, sets);
  for (int i = 0; i < env->paper->n_workloads && rc == GPURF_OK; i++)
    rc = add_job(env, REPRO_JOB_SIM, design, env->paper->workloads[i], sets);
  return rc;
}

static const repro_job *find_key(const gpurf_reproduce *r, const char *key) {
  for (size_t i = 0; i < r->n_jobs; i++)
    if (!strcmp(r->jobs[i].key, key)) return r->jobs[i].done ? &r->jobs[i] : NULL;
  return NULL;
}

const repro_job *repro_find_sim(const repro_env *env, const char *design, const char *sets,
                                int workload) {
  char key[REPRO_KEY_MAX];
  repro_job_key(REPRO_JOB_SIM, design, env->r->workloads[workload].name, sets, key, sizeof key);
  return find_key(env->r, key);
}

const repro_job *repro_find_design(const repro_env *env, const char *design, const char *sets) {
  char key[REPRO_KEY_MAX];
  repro_job_key(REPRO_JOB_DESIGN, design, "", sets, key, sizeof key);
  return find_key(env->r, key);
}

size_t gpurf_reproduce_job_count(const gpurf_reproduce *r) { return r->n_jobs; }

size_t gpurf_reproduce_jobs_done(const gpurf_reproduce *r) {
  size_t n = 0;
  for (size_t i = 0; i < r->n_jobs; i++) n += r->jobs[i].done != 0;
  return n;
}

const char *gpurf_reproduce_job_key(const gpurf_reproduce *r, size_t i) {
  return i < r->n_jobs ? r->jobs[i].key : NULL;
}

static const repro_paper_plan *plan_of(const gpurf_reproduce *r, const char *paper) {
  for (int i = 0; i < r->n_papers; i++)
    if (!strcmp(r->papers[i].def->info.id, paper)) return &r->papers[i];
  return NULL;
}

const char *gpurf_reproduce_paper_workloads(const gpurf_reproduce *r, const char *paper) {
  const repro_paper_plan *pp = plan_of(r, paper);
  return pp ? pp->set : NULL;
}

size_t gpurf_reproduce_workload_count(const gpurf_reproduce *r, const char *paper) {
  const repro_paper_plan *pp = plan_of(r, paper);
  return pp ? (size_t)pp->n_workloads : 0;
}

const char *gpurf_reproduce_workload_name(const gpurf_reproduce *r, const char *paper, size_t i) {
  const repro_paper_plan *pp = plan_of(r, paper);
  return pp && i < (size_t)pp->n_workloads ? r->workloads[pp->workloads[i]].name : NULL;
}
