#!/usr/bin/env bash
# The report opens in headless Chromium without a console message and renders
# something (a blank page compresses to a few kilobytes). Skipped (77) where
# Chromium is not installed: tools/install-deps.sh --ci adds it.
set -euo pipefail
gpurf=$1
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "chromium not found: browser test skipped"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gpurf" reproduce all --workloads shipped --quiet --out "$tmp/report" > /dev/null
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 \
  --window-size=1200,2000 --screenshot="$tmp/shot.png" \
  "file://$tmp/report/index.html" 2> "$tmp/log.txt" || { cat "$tmp/log.txt"; exit 1; }
if grep -q "CONSOLE" "$tmp/log.txt"; then
  grep "CONSOLE" "$tmp/log.txt"; exit 1
fi
size=$(stat -c %s "$tmp/shot.png")
if [ "$size" -lt 20000 ]; then
  echo "screenshot of $size bytes: the page looks blank"; exit 1
fi
echo "report rendered: screenshot $size bytes, no console messages"
