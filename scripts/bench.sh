#!/usr/bin/env bash
# Wall time and peak memory of whole `mmtree solve` processes, as a Markdown table.
#   scripts/bench.sh                 # the issue's games, 600 s cap per run
#   TIMEOUT=60 scripts/bench.sh 4,6 5,8      # chosen games (n,k; append d for --distinct)
# Needs GNU time (/usr/bin/time, Debian package `time`).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=${BIN:-./target/release/mmtree}
timeout_s=${TIMEOUT:-600}
games=("$@")
[ ${#games[@]} -gt 0 ] || games=(4,6 4,10d 5,8 6,6 6,7 7,5 7,6 8,4 8,5)
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo
echo "| game | valuation | wall s | peak MiB | max | total |"
echo "|---|---|--:|--:|--:|--:|"
for g in "${games[@]}"; do
  n=${g%%,*}; k=${g#*,}; extra=()
  if [[ $k == *d ]]; then k=${k%d}; extra=(--distinct); fi
  for v in minimax expected-size entropy most-parts; do
    out=$(mktemp)
    if /usr/bin/time -f "%e %M" -o "$out.time" timeout "$timeout_s" "$bin" solve -n "$n" -k "$k" "${extra[@]}" \
         --valuation "$v" --format csv -q > "$out" 2>/dev/null; then
      read -r wall rss < "$out.time"
      IFS=, read -r _ _ _ _ _ _ _ _ max total _ < <(tail -n 1 "$out")
      printf '| [%s,%s]%s | %s | %s | %d | %s | %s |\n' "$n" "$k" "${extra[*]:+ distinct}" "$v" "$wall" $((rss / 1024)) "$max" "$total"
    else
      printf '| [%s,%s]%s | %s | > %s (stopped) | - | - | - |\n' "$n" "$k" "${extra[*]:+ distinct}" "$v" "$timeout_s"
    fi
    rm -f "$out" "$out.time"
  done
done
