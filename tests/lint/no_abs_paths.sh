#!/usr/bin/env bash
# Fails when a shipped file (tech/, models/, validation/, docs/, the README and
# the changelog) names a path on some machine: shipped files cite references
# by name or by a path relative to the repository root.
# usage: no_abs_paths.sh SOURCE_DIR [SCRATCH_DIR]
# With SCRATCH_DIR the scan first proves on a planted file that it can fail.
set -u
src=$1
scratch=${2:-}

# A root-anchored path into the usual top-level directories of Unix-like
# systems (after a start of line, blank, quote, bracket, '=' or ':' so URLs
# and relative paths do not match), a home shorthand, or a Windows drive.
pattern='(^|[][[:space:]"'"'"'(=:,<>`])(/(home|Users|work|tmp|root|mnt|media|opt|var|srv|usr|data|scratch|nfs|private|net|Volumes)/|~/[A-Za-z0-9_.-]+/)|(^|[[:space:]"'"'"'(=])[A-Za-z]:[\\/][A-Za-z0-9_]'

scan() {
  local root=$1
  shift
  (cd "$root" && grep -rInE "$pattern" -- "$@" 2>/dev/null)
}

if [ -n "$scratch" ]; then
  plant="$scratch/abs-path-probe"
  rm -rf "$plant"
  mkdir -p "$plant/docs"
  printf 'title: probe\nsource: "%s/alice/ref/table.tsv, row 3"\n' "/home" >"$plant/docs/probe.yaml"
  if ! scan "$plant" docs >/dev/null; then
    echo "no_abs_paths: the planted absolute path was not found: the pattern is broken" >&2
    exit 1
  fi
  printf 'see validation/nvsim-stt.tsv and https://github.com/SEAL-UCSB/NVSim\n' >"$plant/docs/probe.yaml"
  if scan "$plant" docs >/dev/null; then
    echo "no_abs_paths: a relative path or URL was taken for an absolute one" >&2
    exit 1
  fi
  rm -rf "$plant"
fi

targets=()
for t in tech models validation docs README.md CHANGELOG.md; do
  [ -e "$src/$t" ] && targets+=("$t")
done
hits=$(scan "$src" "${targets[@]}")
if [ -n "$hits" ]; then
  echo "shipped files name an absolute machine path (cite by name or repository-relative path):" >&2
  echo "$hits" >&2
  exit 1
fi
exit 0
