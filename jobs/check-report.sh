#!/usr/bin/env bash
# Renders an audit report (or the benchmarks' page, jobs/bench-all.sh) in a real headless browser
# (Debian's chromium) and checks that it shows: the page loads from disk with nothing fetched, every
# chart is drawn, the findings (the targets) are on top.
# Writes a full-page screenshot next to the report.
#
#   jobs/check-report.sh var/audit/demo_messages/audit.html      # -> .../audit.png
#   jobs/check-report.sh --install FILE                          # apt-get install chromium first
#
# Exit codes: 0 rendered and checked, 1 the report does not render as it must, 3 no browser.
set -euo pipefail

install=""
if [ "${1:-}" = "--install" ]; then install=1; shift; fi
report="${1:?usage: jobs/check-report.sh [--install] path/to/audit.html}"
[ -f "$report" ] || { echo "error: $report does not exist; run 'jobs/hbase-rekey.sh audit --table NS:T' first" >&2; exit 1; }

browser=""
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then browser="$b"; break; fi
done
if [ -z "$browser" ] && [ -n "$install" ]; then
  # A package install under way (.ci/run starts chromium's alongside the build) holds apt's lock:
  # wait for it (up to 4 minutes), then look again before installing.
  for ((i = 0; i < 120; i++)); do
    pgrep -x 'apt-get|apt|dpkg' >/dev/null 2>&1 || break
    ((i == 0)) && echo "waiting for a package install under way..." >&2
    sleep 2
  done
  if command -v chromium >/dev/null 2>&1; then
    browser=chromium
  else
    echo "installing chromium (apt-get)..." >&2
    apt-get install -y chromium >/dev/null 2>&1 || (apt-get update >/dev/null 2>&1 && apt-get install -y chromium >/dev/null 2>&1) || true
    command -v chromium >/dev/null 2>&1 && browser=chromium
  fi
fi
if [ -z "$browser" ]; then
  echo "no headless browser found: install one with 'apt-get install chromium' (or run with --install)" >&2
  exit 3
fi

abs="$(cd "$(dirname "$report")" && pwd)/$(basename "$report")"
png="${abs%.html}.png"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# No network at all: a report that needs one must fail here, not look fine on the author's laptop.
flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars
       --disable-background-networking --no-first-run --user-data-dir="$work/profile"
       --proxy-server=127.0.0.1:9 --proxy-bypass-list='<-loopback>' --virtual-time-budget=5000)

"$browser" "${flags[@]}" --dump-dom "file://$abs" > "$work/dom.html" 2> "$work/browser.log" || {
  echo "error: $browser could not load $report:" >&2; tail -5 "$work/browser.log" >&2; exit 1; }

charts=$( (grep -o '<svg' "$work/dom.html" || true) | wc -l)
first_section=$(grep -o 'id="[a-z-]*"' "$work/dom.html" | head -1)
problems=()
# Two kinds of page: the audit report, and the benchmarks' page (jobs/bench-all.sh).
if grep -q 'name="rekey-report" content="bench"' "$work/dom.html"; then
  kind="benchmark page"; first=targets; min_charts=5; required=(targets ratios scale stages profile)
else
  kind="audit report"; first=findings; min_charts=8; required=(findings heatmap)
fi
[ "$charts" -ge "$min_charts" ] || problems+=("only $charts charts were drawn (expected $min_charts or more)")
for id in "${required[@]}"; do
  grep -q "id=\"$id\"" "$work/dom.html" || problems+=("the $id section is missing")
done
[ "$first_section" = "id=\"$first\"" ] || problems+=("the first section is $first_section, not the $first")
if [ "${#problems[@]}" -gt 0 ]; then
  printf 'error: %s does not render as it must: %s\n' "$report" "$(IFS=';'; echo "${problems[*]}")" >&2
  exit 1
fi

# Tall enough for a whole report (about 6,000-8,000 px at this width).
height=9000
"$browser" "${flags[@]}" --window-size=1100,"$height" --screenshot="$png" "file://$abs" >/dev/null 2>&1 || {
  echo "error: $browser could not take a screenshot of $report" >&2; exit 1; }
[ -s "$png" ] || { echo "error: no screenshot was written to $png" >&2; exit 1; }
echo "rendered $report ($kind) in $browser: $charts charts, $first first; screenshot $png"
