#!/usr/bin/env bash
# Prints the command list of README's "## Commands" section from the command
# table of the built CLI: each command's usage as its --help gives it. Paste
# it over the code block there after adding a command or an option;
# tests/test_cli_table.c fails while README lacks one.
set -euo pipefail
cd "$(dirname "$0")/.."
gpurf=${GPURF:-build/src/gpurf}
"$gpurf" help --format json | sed -n 's/^ *"command": "\(.*\)",$/\1/p' |
  while read -r cmd; do
    # The whole help is read first: awk stops at the synopsis's end, and a
    # help longer than a pipe's buffer would then die of SIGPIPE.
    # shellcheck disable=SC2086 # a command's name is one or two words
    help=$("$gpurf" $cmd --help)
    printf '%s\n' "$help" | awk 'NR == 1 { sub(/^usage: /, ""); print; next }
                               /^ / { print substr($0, 8); next }
                               { exit }'
  done
echo "gpurf --version | help [COMMAND] | <command> --help"
