/* Help made from the command table: `gpurf help`, `gpurf GROUP --help`,
 * `gpurf CMD --help` and the table as JSON (`gpurf help --format json`), so
 * what the help says is what the parser accepts. */
#include <ctype.h>
#include <string.h>

#include "cli/cli.h"

#define LINE_WIDTH 80
#define HELP_COLUMN 28 /* where summaries and option help start */
#define NBSP '\x01'     /* a space that does not break a line */

/* "--name ARG", "--name a|b" or "--name". */
static void option_token(char *buf, size_t size, const cli_option *o) {
  size_t len = (size_t)snprintf(buf, size, "%s", o->name);
  if (o->arg) {
    snprintf(buf + len, size - len, " %s", o->arg);
    return;
  }
  for (const char *const *c = o->choices; c && *c && len < size; c++) {
    int w = snprintf(buf + len, size - len, "%s%s", c == o->choices ? " " : "|", *c);
    if (w < 0) return;
    len += (size_t)w;
  }
}

/* Words (split at spaces) from column `col` on, wrapped at the line width
 * with continuation lines starting at `indent`. In `keep`, a character
 * that stands for a space inside a word (a synopsis keeps "--tech NODE"
 * on one line); 0 for none. */
static void put_wrapped(FILE *out, const char *text, int col, int indent, char keep) {
  int line_start = 1; /* the caller has placed the first word */
  for (const char *s = text; *s;) {
    size_t w = strcspn(s, " ");
    if (!line_start && col + 1 + (int)w > LINE_WIDTH) {
      fprintf(out, "\n%*s", indent, "");
      col = indent;
    } else if (!line_start) {
      fputc(' ', out);
      col++;
    }
    for (size_t i = 0; i < w; i++) fputc(keep && s[i] == keep ? ' ' : s[i], out);
    col += (int)w;
    line_start = 0;
    s += w;
    while (*s == ' ') s++;
  }
  fputc('\n', out);
}

/* The synopsis: name, arguments, required options, then (when `all`) the
 * optional ones in brackets; spaces inside a token are `keep`. */
static void synopsis(char *buf, size_t size, const cli_command *c, int all, char keep) {
  size_t len = (size_t)snprintf(buf, size, "%s%s%s", c->name, c->args ? " " : "",
                                c->args ? c->args : "");
  for (int pass = 0; pass < (all ? 2 : 1); pass++)
    for (const cli_option *o = c->opts; o->name && len < size; o++) {
      int req = (o->flags & CLI_REQUIRED) != 0;
      if (req != (pass == 0)) continue;
      char tok[160];
      option_token(tok, sizeof tok, o);
      for (char *t = tok; *t; t++)
        if (*t == ' ') *t = keep ? keep : ' ';
      int w = snprintf(buf + len, size - len, req ? " %s" : " [%s]%s", tok,
                       o->flags & CLI_REPEAT ? "..." : "");
      if (w < 0) return;
      len += (size_t)w;
    }
}

/* A summary as a sentence of its own. */
static void sentence(FILE *out, const char *s) {
  fprintf(out, "%c%s.\n", toupper((unsigned char)s[0]), s + 1);
}

/* A left column and text beside it at HELP_COLUMN (below it when the left
 * column is too wide). */
static void row(FILE *out, const char *left, const char *text) {
  int n = fprintf(out, "  %s", left);
  if (n + 2 > HELP_COLUMN)
    fprintf(out, "\n%*s", HELP_COLUMN, "");
  else
    fprintf(out, "%*s", HELP_COLUMN - n, "");
  put_wrapped(out, text, HELP_COLUMN, HELP_COLUMN, 0);
}

void cli_help_command(FILE *out, const cli_command *c) {
  char syn[1024], tok[192];
  synopsis(syn, sizeof syn, c, 1, NBSP);
  /* Continuation lines of the usage start under the first argument. */
  int indent = (int)strlen("usage: gpurf ") + (int)strcspn(c->name, " ") + 1;
  fprintf(out, "usage: gpurf ");
  put_wrapped(out, syn, indent, indent, NBSP);
  fprintf(out, "\n");
  if (c->about)
    fputs(c->about, out);
  else
    sentence(out, c->summary);
  fprintf(out, "\nOptions:\n");
  for (const cli_option *o = c->opts; o->name; o++) {
    char left[160];
    option_token(left, sizeof left, o);
    snprintf(tok, sizeof tok, "%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "", left);
    row(out, tok, o->help);
  }
  row(out, "-h, --help", "this text");
  if (c->help_tail) c->help_tail(out);
}

void cli_help_group(FILE *out, const cli_group *g) {
  size_t n = strlen(g->name);
  fprintf(out, "usage: gpurf %s <%s> [options]\n\n", g->name, g->noun);
  sentence(out, g->summary);
  fprintf(out, "\nSubcommands:\n");
  for (const cli_command *c = cli_commands; c->name; c++) {
    if (strncmp(c->name, g->name, n) != 0 || c->name[n] != ' ') continue;
    char syn[512];
    synopsis(syn, sizeof syn, c, 0, 0);
    row(out, syn + n + 1, c->summary);
  }
  fprintf(out, "\n'gpurf %s <%s> --help' describes one.\n", g->name, g->noun);
}

void cli_help_all(FILE *out) {
  fprintf(out, "usage: gpurf <command> [options]\n\nCommands:\n");
  for (const cli_command *c = cli_commands; c->name; c++) {
    char syn[512];
    synopsis(syn, sizeof syn, c, 0, 0);
    row(out, syn, c->summary);
  }
  row(out, "help [COMMAND]", "this text, or a command's help; --format json: the command table");
  fputs("\n"
        "Every command takes --help (its options and their meaning); most take\n"
        "--format text|json, and those with tables also csv.\n"
        "gpurf --version prints the version.\n"
        "\n"
        "Data files (tech/, models/, validation/) are found in $GPURF_DATA_DIR,\n"
        "next to an installed executable (../share/gpurf), or in the source tree\n"
        "it was built from.\n",
        out);
}

int cli_help_json(void) {
  sbuf out;
  sb_init(&out);
  jw w;
  jw_init(&w, &out);
  jw_obj_begin(&w, NULL);
  jw_arr_begin(&w, "commands");
  for (const cli_command *c = cli_commands; c->name; c++) {
    jw_obj_begin(&w, NULL);
    jw_str(&w, "command", c->name);
    if (c->args) jw_str(&w, "args", c->args);
    jw_str(&w, "summary", c->summary);
    jw_arr_begin(&w, "options");
    for (const cli_option *o = c->opts; o->name; o++) {
      char tok[160];
      option_token(tok, sizeof tok, o);
      jw_obj_begin(&w, NULL);
      jw_str(&w, "name", o->name);
      if (o->alias) jw_str(&w, "alias", o->alias);
      if (strchr(tok, ' ')) jw_str(&w, "value", strchr(tok, ' ') + 1);
      jw_bool(&w, "required", (o->flags & CLI_REQUIRED) != 0);
      jw_bool(&w, "repeatable", (o->flags & CLI_REPEAT) != 0);
      jw_str(&w, "help", o->help);
      jw_obj_end(&w);
    }
    jw_arr_end(&w);
    jw_obj_end(&w);
  }
  jw_arr_end(&w);
  jw_obj_end(&w);
  jw_finish(&w);
  int rc = sb_flush_stdout(&out);
  sb_free(&out);
  return rc;
}
