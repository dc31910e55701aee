/* The command table against what users read: `gpurf help` lists every
 * command of the table, every `--help` names every option, README's Commands
 * section names every command and option, and the one option parser treats
 * every command's options alike. The table comes from the command itself
 * (`gpurf help --format json`), so a command or option added to the table
 * without its documentation fails here. */
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"

#define MAX_COMMANDS 64
#define MAX_OPTIONS 32
#define NAME_LEN 48

typedef struct command {
  char name[NAME_LEN];
  int nopts;
  char opts[MAX_OPTIONS][NAME_LEN];
  char alias[MAX_OPTIONS][NAME_LEN]; /* a short spelling, or "" */
} command;

static cli_result R;
static command cmds[MAX_COMMANDS];
static int ncmds;

/* The string value of a `"key": "value"` line, into out; 0 if not one. */
static int json_field(const char *line, const char *key, char *out, size_t size) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\": \"", key);
  const char *s = strstr(line, pat);
  if (!s) return 0;
  s += strlen(pat);
  size_t n = strcspn(s, "\"");
  if (n >= size) fail_msg("'%s' too long in the table", key);
  memcpy(out, s, n);
  out[n] = '\0';
  return 1;
}

/* Reads the table from `gpurf help --format json`: one key per line. */
static int load_table(void **state) {
  (void)state;
  cli_run(&R, "help --format json");
  assert_int_equal(R.status, 0);
  ncmds = 0;
  for (char *line = strtok(R.out, "\n"); line; line = strtok(NULL, "\n")) {
    char v[NAME_LEN];
    if (json_field(line, "command", v, sizeof v)) {
      assert_true(ncmds < MAX_COMMANDS);
      memset(&cmds[ncmds], 0, sizeof cmds[ncmds]);
      snprintf(cmds[ncmds++].name, NAME_LEN, "%s", v);
    } else if (json_field(line, "name", v, sizeof v)) {
      assert_true(ncmds > 0 && cmds[ncmds - 1].nopts < MAX_OPTIONS);
      command *c = &cmds[ncmds - 1];
      snprintf(c->opts[c->nopts++], NAME_LEN, "%s", v);
    } else if (json_field(line, "alias", v, sizeof v)) {
      command *c = &cmds[ncmds - 1];
      snprintf(c->alias[c->nopts - 1], NAME_LEN, "%s", v);
    }
  }
  /* Every command of gpurf, bench sim and component rfc-tags included. */
  assert_true(ncmds >= 23);
  return 0;
}

static const command *find(const char *name) {
  for (int i = 0; i < ncmds; i++)
    if (strcmp(cmds[i].name, name) == 0) return &cmds[i];
  return NULL;
}

/* Whether word stands in text as a whole word ("--port" is not in
 * "--ports"). */
static int has_word(const char *text, const char *word) {
  size_t n = strlen(word);
  for (const char *s = strstr(text, word); s; s = strstr(s + 1, word)) {
    char before = s == text ? ' ' : s[-1], after = s[n];
    if (!(before == '-' || (before >= 'a' && before <= 'z')) &&
        !(after == '-' || after == '_' || (after >= 'a' && after <= 'z') ||
          (after >= '0' && after <= '9')))
      return 1;
  }
  return 0;
}

static void table_has_the_commands(void **state) {
  (void)state;
  const char *names[] = {"tech list", "tech show", "cell show", "bank", "validate",
                         "bench bank", "bench events", "bench sim", "bench reproduce", "bench emu",
                         "trace stats", "trace convert", "trace gen", "trace dataflow",
                         "trace record", "xbar", "arbiter",
                         "component rename", "component wpool", "component crf",
                         "component rfc-tags", "rf", "sweep", "sim", "table", "energy",
                         "reproduce", "reproduce merge"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!find(names[i])) fail_msg("'%s' is not in the command table", names[i]);
  const command *bank = find("bank");
  const char *bank_opts[] = {"--tech", "--cell", "--width", "--periphery", "--port",
                             "--gate-groups", "--format"};
  for (size_t i = 0; i < sizeof bank_opts / sizeof bank_opts[0]; i++) {
    int seen = 0;
    for (int k = 0; k < bank->nopts; k++) seen |= strcmp(bank->opts[k], bank_opts[i]) == 0;
    if (!seen) fail_msg("bank lacks %s in the table", bank_opts[i]);
  }
}

/* `gpurf help` has a line "  NAME ..." for every command of the table. */
static void help_lists_every_command(void **state) {
  (void)state;
  cli_run(&R, "help");
  assert_int_equal(R.status, 0);
  for (int i = 0; i < ncmds; i++) {
    char line[NAME_LEN + 4];
    snprintf(line, sizeof line, "\n  %.47s", cmds[i].name);
    const char *s = strstr(R.out, line);
    while (s && s[strlen(line)] != ' ' && s[strlen(line)] != '\n')
      s = strstr(s + 1, line);
    if (!s) fail_msg("gpurf help does not list '%s'", cmds[i].name);
  }
}

/* Every command's --help starts with its usage and names every option. */
static void every_help_names_every_option(void **state) {
  (void)state;
  for (int i = 0; i < ncmds; i++) {
    char args[NAME_LEN + 16], usage[NAME_LEN + 16];
    snprintf(args, sizeof args, "%.47s --help", cmds[i].name);
    snprintf(usage, sizeof usage, "usage: gpurf %.47s", cmds[i].name);
    cli_run(&R, args);
    if (R.status != 0 || strncmp(R.out, usage, strlen(usage)) != 0)
      fail_msg("'%s' gave status %d and no usage", args, R.status);
    for (int k = 0; k < cmds[i].nopts; k++)
      if (!has_word(R.out, cmds[i].opts[k]))
        fail_msg("'%s' does not name %s", args, cmds[i].opts[k]);
  }
}

/* README's Commands section: a block per command, its first line
 * "gpurf NAME ...", continued on indented lines; every option of the table
 * in its command's block. */
static void readme_names_every_command_and_option(void **state) {
  (void)state;
  char path[1024];
  snprintf(path, sizeof path, "%s/README.md", GPURF_TEST_SOURCE_DIR);
  char *readme = cli_slurp(path, 1 << 20);
  assert_non_null(readme);
  char *sec = strstr(readme, "\n## Commands\n");
  if (!sec) fail_msg("README.md has no '## Commands' section");
  char *end = strstr(sec + 1, "\n## ");
  if (end) *end = '\0';
  int missing = 0;
  for (int i = 0; i < ncmds; i++) {
    char head[NAME_LEN + 8];
    snprintf(head, sizeof head, "\ngpurf %.47s", cmds[i].name);
    const char *b = strstr(sec, head);
    while (b && b[strlen(head)] != ' ' && b[strlen(head)] != '\n') b = strstr(b + 1, head);
    if (!b) {
      print_error("README's Commands section lacks 'gpurf %s'\n", cmds[i].name);
      missing++;
      continue;
    }
    /* The block ends where a line starts with anything but a space. */
    const char *e = b + 1;
    while ((e = strchr(e, '\n')) && e[1] == ' ') e++;
    char block[2048];
    size_t n = e ? (size_t)(e - b) : strlen(b);
    snprintf(block, sizeof block, "%.*s", (int)(n < sizeof block ? n : sizeof block - 1), b);
    for (int k = 0; k < cmds[i].nopts; k++)
      if (!has_word(block, cmds[i].opts[k]) &&
          !(cmds[i].alias[k][0] && has_word(block, cmds[i].alias[k]))) {
        print_error("README's 'gpurf %s' lacks %s\n", cmds[i].name, cmds[i].opts[k]);
        missing++;
      }
  }
  free(readme);
  if (missing) fail_msg("%d commands or options of the table are missing from README.md", missing);
}

/* The parser: the same rules for every command. */
static void one_parser_for_all(void **state) {
  (void)state;
  const cli_error_case cases[] = {
      {"tech show 40 --temp 300", 2, "unknown option '--temp' (did you mean '--temp-k'?)"},
      {"xbar --inputs 4 --outputs 4 --width 8 --tech 32 --wdith 8", 2, "did you mean '--width'?"},
      {"trace gen --bogus", 2, "unknown option '--bogus' (see"},
      {"bank --tech 40 --tech 32", 2, "--tech given twice"},
      {"component crf --tech 40 --separate-pointer=1", 2, "--separate-pointer takes no value"},
      {"energy a b --cycles", 2, "option --cycles needs a value"},
      {"trace convert a b --to gzip", 2, "--to must be text or binary, not 'gzip'"},
      {"bench bank --cell flash", 2, "--cell must be sram, stt, dff or latch, not 'flash'"},
      {"rf a b", 2, "unexpected argument 'b'"},
      {"trace", 2, "name a subcommand: stats, convert, gen, dataflow or record"},
      {"bench sum", 2, "unknown benchmark 'sum' (bank, events, sim, reproduce or emu)"},
      {"help frobnicate", 2, "no command 'frobnicate'"},
  };
  cli_check_errors(cases, sizeof cases / sizeof cases[0]);
  /* --name=value is --name value; a repeated option keeps its order. */
  cli_run(&R, "tech show 40nm --device=lop --format=json");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "\"lop\""));
  assert_null(strstr(R.out, "\"hp\""));
  cli_run(&R, "help trace gen");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "-o, --output OUT"));
  cli_run(&R, "trace --help");
  assert_int_equal(R.status, 0);
  assert_non_null(strstr(R.out, "  dataflow PATH "));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(table_has_the_commands),
      cmocka_unit_test(help_lists_every_command),
      cmocka_unit_test(every_help_names_every_option),
      cmocka_unit_test(readme_names_every_command_and_option),
      cmocka_unit_test(one_parser_for_all),
  };
  return cmocka_run_group_tests_name("cli_table", tests, load_table, NULL);
}
