#!/usr/bin/env bash
# gpurf reproduce from the command line: four shards merged give the bytes of
# one run (CSV and every report file), --jobs does not change the output, the
# report's HTML and SVG files are well-formed XML, and bad usage exits 2.
set -euo pipefail
gpurf=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

"$gpurf" reproduce all --workloads shipped --quiet --format csv --out whole > whole.csv
"$gpurf" reproduce all --workloads shipped --quiet --format csv --jobs 2 > jobs2.csv
cmp whole.csv jobs2.csv
for i in 0 1 2 3; do
  "$gpurf" reproduce all --workloads shipped --quiet --shard $i/4 --out parts
done
"$gpurf" reproduce merge parts/shard-*.results --format csv --out merged > merged.csv
cmp whole.csv merged.csv
diff -r whole merged
test "$(head -1 whole.csv)" = "paper,claim,metric,unit,published,ours,rel_error,direction_ok,workloads"
grep -q '^jing,steal8_vs_straight16_perf,IPC ratio - 1,fraction,0.072,-\?[0-9]' whole.csv
if grep -q '^jing,.*,not modelled,' whole.csv; then echo "a jing claim is not modelled"; exit 1; fi

# A shard missing is refused, not merged into partial claims.
if "$gpurf" reproduce merge parts/shard-0-of-4.results > /dev/null 2> err.txt; then
  echo "merge of one shard of four succeeded"; exit 1
fi
grep -q "jobs have no results" err.txt

for f in whole/*.svg whole/index.html; do xmllint --noout "$f"; done
ls whole/*.svg > /dev/null

"$gpurf" reproduce --list | grep -q '^jeon '
status=0; "$gpurf" reproduce all --shard 4/4 2> err.txt || status=$?
test "$status" = 2 && grep -q "shard" err.txt
status=0; "$gpurf" reproduce nobody 2> err.txt || status=$?
test "$status" = 2 && grep -q "unknown paper 'nobody'" err.txt
status=0; "$gpurf" reproduce jing --jobs 0 2> err.txt || status=$?
test "$status" = 2
echo "reproduce CLI: shards, jobs, report and usage as expected"
