#!/usr/bin/env bash
# Wall time, CPU time and peak memory of whole `mmtree solve` processes, as a Markdown table.
#   scripts/bench.sh                          # the issue's games, 600 s cap per run
#   TIMEOUT=60 scripts/bench.sh 4,6 5,8       # chosen games (n,k; append d for --distinct)
#   VALUATIONS=minimax scripts/bench.sh 7,7   # chosen valuations (default: all four)
#   STRETCH=1 scripts/bench.sh                # the large games: [8,6] every valuation, then
#                                             # [7,7] and [6,9] minimax (tens of minutes)
# Needs GNU time (/usr/bin/time, Debian package `time`). Games up to [4,6] take a few
# milliseconds, below what GNU time resolves: time them with `perf stat -r 20` or hyperfine.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${BIN:-}" ] || cargo build --release --quiet
bin=${BIN:-./target/release/mmtree}
timeout_s=${TIMEOUT:-600}
read -r -a valuations <<< "${VALUATIONS:-minimax expected-size entropy most-parts}"
games=("$@")
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo
echo "| game | valuation | wall s | CPU s | peak MiB | max | total |"
echo "|---|---|--:|--:|--:|--:|--:|"
run() { # n k extra-flag valuation
  local n=$1 k=$2 flag=$3 v=$4 out extra=()
  [ -z "$flag" ] || extra=("$flag")
  out=$(mktemp)
  if /usr/bin/time -f "%e %U %S %M" -o "$out.time" timeout "$timeout_s" "$bin" solve -n "$n" -k "$k" "${extra[@]}" \
       --valuation "$v" --format csv -q > "$out" 2>/dev/null; then
    read -r wall user sys rss < "$out.time"
    IFS=, read -r _ _ _ _ _ _ _ _ max total _ < <(tail -n 1 "$out")
    printf '| [%s,%s]%s | %s | %s | %s | %d | %s | %s |\n' "$n" "$k" "${flag:+ distinct}" "$v" "$wall" \
      "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')" $((rss / 1024)) "$max" "$total"
  else
    printf '| [%s,%s]%s | %s | > %s (stopped) | - | - | - | - |\n' "$n" "$k" "${flag:+ distinct}" "$v" "$timeout_s"
  fi
  rm -f "$out" "$out.time"
}
bench() { # game (n,k[d]) and valuations
  local g=$1 n k flag=""; shift
  n=${g%%,*}; k=${g#*,}
  if [[ $k == *d ]]; then k=${k%d}; flag=--distinct; fi
  for v in "$@"; do run "$n" "$k" "$flag" "$v"; done
}
if [ -n "${STRETCH:-}" ]; then
  bench 8,6 "${valuations[@]}"
  bench 7,7 minimax
  bench 6,9 minimax
  exit 0
fi
[ ${#games[@]} -gt 0 ] || games=(4,6 4,10d 5,8 6,6 6,7 7,5 7,6 8,4 8,5)
for g in "${games[@]}"; do bench "$g" "${valuations[@]}"; done
