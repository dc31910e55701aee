/* The one option parser and the dispatch, both driven by the command table
 * (commands.c): a command's options are data, so every command accepts,
 * refuses and explains its options the same way. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* Hints are given for names at most this many edits away: close enough to
 * be a typo, far enough that --bogus does not become --banks. */
#define HINT_MAX_EDITS 2

int cli_is_help(const char *arg) {
  return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

int cli_ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int is_flag(const cli_option *o) { return !o->arg && !o->choices; }

static int same(const char *name, const char *arg, size_t len) {
  return name && strlen(name) == len && strncmp(name, arg, len) == 0;
}

static int find_option(const cli_command *c, const char *arg, size_t len) {
  for (int i = 0; c->opts[i].name; i++)
    if (same(c->opts[i].name, arg, len) || same(c->opts[i].alias, arg, len)) return i;
  return -1;
}

/* "a, b or c" from a NULL-terminated list, for messages. */
static void join_or(char *buf, size_t size, const char *const *list) {
  size_t n = 0, len = 0;
  while (list[n]) n++;
  buf[0] = '\0';
  for (size_t i = 0; i < n && len < size; i++) {
    const char *sep = i == 0 ? "" : i + 1 == n ? " or " : ", ";
    int w = snprintf(buf + len, size - len, "%s%s", sep, list[i]);
    if (w < 0) break;
    len += (size_t)w;
  }
}

static void unknown_option(const cli_parsed *p, const char *arg, size_t len) {
  const cli_option *opts = p->cmd->opts;
  char word[64];
  snprintf(word, sizeof word, "%.*s", (int)(len < sizeof word ? len : sizeof word - 1), arg);
  int k = find_option(p->cmd, arg, len);
  if (k >= 0) { /* a flag given a value */
    cli_usage_error(p->prog, "unknown option '%s' (%s takes no value)", arg, opts[k].name);
    return;
  }
  const char *best = NULL;
  size_t best_d = HINT_MAX_EDITS + 1;
  for (int i = 0; opts[i].name; i++) {
    size_t d = gpurf_edit_distance(word, opts[i].name);
    if (d < best_d) best_d = d, best = opts[i].name;
  }
  if (best)
    cli_usage_error(p->prog, "unknown option '%s' (did you mean '%s'?)", arg, best);
  else
    cli_usage_error(p->prog, "unknown option '%s'", arg);
}

static int check_choice(const cli_parsed *p, const cli_option *o, const char *v) {
  for (const char *const *c = o->choices; *c; c++)
    if (strcmp(*c, v) == 0) return CLI_OK;
  char list[256];
  join_or(list, sizeof list, o->choices);
  cli_usage_error(p->prog, "%s must be %s, not '%s'", o->name, list, v);
  return CLI_USAGE;
}

/* Takes the option at argv[*i] (and its value) into p. */
static int take_option(cli_parsed *p, int argc, char **argv, int *i) {
  const char *arg = argv[*i], *eq = strchr(arg, '=');
  size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
  int k = find_option(p->cmd, arg, len);
  const cli_option *o = k >= 0 ? &p->cmd->opts[k] : NULL;
  if (!o || (eq && is_flag(o))) {
    unknown_option(p, arg, len);
    return CLI_USAGE;
  }
  const char *v = "1";
  if (!is_flag(o)) {
    if (eq) {
      v = eq + 1;
    } else if (*i + 1 < argc) {
      v = argv[++*i];
    } else {
      cli_usage_error(p->prog, "option %s needs a value", o->name);
      return CLI_USAGE;
    }
  }
  if (o->choices && check_choice(p, o, v) != CLI_OK) return CLI_USAGE;
  if (o->flags & CLI_REPEAT) {
    if (p->nrep == CLI_MAX_REPEATS) {
      cli_usage_error(p->prog, "more than %d repeated options", CLI_MAX_REPEATS);
      return CLI_USAGE;
    }
    p->rep[p->nrep].opt = k;
    p->rep[p->nrep++].value = v;
  } else if (p->value[k]) {
    cli_usage_error(p->prog, "%s given twice", o->name);
    return CLI_USAGE;
  }
  p->value[k] = v;
  return CLI_OK;
}

int cli_parse(const cli_command *c, int argc, char **argv, cli_parsed *p) {
  int nopts = 0;
  while (c->opts[nopts].name) nopts++;
  if (nopts > CLI_MAX_OPTS || c->max_pos > CLI_MAX_POS) {
    /* The table asks more than cli_parsed holds: raise the limits. */
    fprintf(stderr, "gpurf: internal error: '%s' has too many options or arguments\n", c->name);
    return CLI_FAIL;
  }
  memset(p, 0, sizeof *p);
  p->cmd = c;
  snprintf(p->prog_buf, sizeof p->prog_buf, "gpurf %s", c->name);
  p->prog = p->prog_buf;
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i];
    if (cli_is_help(arg)) {
      cli_help_command(stdout, c);
      return -1;
    }
    /* A lone '-' is an argument (standard input, by convention). */
    if (arg[0] != '-' || arg[1] == '\0') {
      if (p->npos >= c->max_pos) {
        cli_usage_error(p->prog, "unexpected argument '%s'", arg);
        return CLI_USAGE;
      }
      p->pos[p->npos++] = arg;
      continue;
    }
    if (take_option(p, argc, argv, &i) != CLI_OK) return CLI_USAGE;
  }
  if (c->need && p->npos < (c->max_pos == CLI_MAX_POS ? 1 : c->max_pos)) {
    cli_usage_error(p->prog, "%s", c->need);
    return CLI_USAGE;
  }
  int instead = 0;
  for (int k = 0; c->opts[k].name; k++)
    if ((c->opts[k].flags & CLI_INSTEAD) && p->value[k]) instead = 1;
  for (int k = 0; c->opts[k].name && !instead; k++)
    if ((c->opts[k].flags & CLI_REQUIRED) && !p->value[k]) {
      cli_usage_error(p->prog, "%s %s is required", c->opts[k].name, c->opts[k].arg);
      return CLI_USAGE;
    }
  const char *fmt = NULL;
  for (int k = 0; c->opts[k].name; k++)
    if (strcmp(c->opts[k].name, "--format") == 0) fmt = p->value[k];
  p->fmt = !fmt ? FMT_TEXT : !strcmp(fmt, "json") ? FMT_JSON : !strcmp(fmt, "csv") ? FMT_CSV
                                                                                   : FMT_TEXT;
  return CLI_OK;
}

const char *cli_get(const cli_parsed *p, const char *name) {
  int k = find_option(p->cmd, name, strlen(name));
  if (k < 0) {
    /* A handler asking for an option its table entry lacks: a bug here. */
    fprintf(stderr, "gpurf: internal error: '%s' has no option %s\n", p->cmd->name, name);
    abort();
  }
  return p->value[k];
}

int cli_next(const cli_parsed *p, int *k, const char **name, const char **value) {
  if (*k >= p->nrep) return 0;
  *name = p->cmd->opts[p->rep[*k].opt].name;
  *value = p->rep[*k].value;
  ++*k;
  return 1;
}

int cli_opt_int(const cli_parsed *p, const char *name, long long lo, long long hi, int *out) {
  const char *s = cli_get(p, name);
  if (!s) return CLI_OK;
  long long v;
  if (lo == 0 && strcmp(s, "0") == 0) {
    *out = 0;
    return CLI_OK;
  }
  if (cli_parse_count(p->prog, name, s, hi, &v)) return CLI_USAGE;
  if (v < lo) {
    cli_usage_error(p->prog, "%s must be at least %lld, not '%s'", name, lo, s);
    return CLI_USAGE;
  }
  *out = (int)v;
  return CLI_OK;
}

int cli_count_opt(const cli_parsed *p, const char *name, long long max, long long *out) {
  const char *s = cli_get(p, name);
  return s ? cli_parse_count(p->prog, name, s, max, out) : CLI_OK;
}

int cli_seed_opt(const cli_parsed *p, const char *name, uint64_t *out) {
  const char *s = cli_get(p, name);
  char *end = NULL;
  if (!s) return CLI_OK;
  unsigned long long v = strtoull(s, &end, 0);
  if (end == s || *end || s[0] == '-') {
    cli_usage_error(p->prog, "%s needs a whole number, not '%s'", name, s);
    return CLI_USAGE;
  }
  *out = v;
  return CLI_OK;
}

/* ---- dispatch ---- */

static int run(gpurf_ctx *ctx, const cli_command *c, int argc, char **argv) {
  cli_parsed *p = malloc(sizeof *p);
  if (!p) {
    fprintf(stderr, "gpurf: out of memory\n");
    return CLI_FAIL;
  }
  int rc = cli_parse(c, argc, argv, p);
  rc = rc < 0 ? CLI_OK : rc != CLI_OK ? rc : c->run(ctx, p);
  free(p);
  return rc;
}

/* The subcommand part of a command's name in group g, or NULL. */
static const char *in_group(const cli_command *c, const char *group) {
  size_t n = strlen(group);
  return strncmp(c->name, group, n) == 0 && c->name[n] == ' ' ? c->name + n + 1 : NULL;
}

/* A group named without a subcommand it has: help or one line saying so. */
static int run_group(const cli_group *g, int argc, char **argv) {
  char prog[64], list[256];
  const char *subs[32];
  size_t n = 0;
  for (const cli_command *c = cli_commands; c->name && n + 1 < 32; c++)
    if (in_group(c, g->name)) subs[n++] = in_group(c, g->name);
  subs[n] = NULL;
  join_or(list, sizeof list, subs);
  snprintf(prog, sizeof prog, "gpurf %s", g->name);
  if (argc < 1) {
    cli_usage_error(prog, "name a %s: %s", g->noun, list);
    return CLI_USAGE;
  }
  if (cli_is_help(argv[0])) {
    cli_help_group(stdout, g);
    return CLI_OK;
  }
  /* cli_dispatch has run any subcommand the table has. */
  cli_usage_error(prog, "unknown %s '%s' (%s)", g->noun, argv[0], list);
  return CLI_USAGE;
}

int cli_dispatch(gpurf_ctx *ctx, int argc, char **argv) {
  for (const cli_command *c = cli_commands; c->name && argc > 1; c++) {
    const char *sub = in_group(c, argv[0]);
    if (sub && strcmp(sub, argv[1]) == 0) return run(ctx, c, argc - 2, argv + 2);
  }
  for (const cli_command *c = cli_commands; c->name; c++)
    if (strcmp(c->name, argv[0]) == 0) return run(ctx, c, argc - 1, argv + 1);
  for (const cli_group *g = cli_groups; g->name; g++)
    if (strcmp(g->name, argv[0]) == 0) return run_group(g, argc - 1, argv + 1);
  cli_errorf("gpurf: unknown command '%s' (see 'gpurf help')", argv[0]);
  return CLI_USAGE;
}
