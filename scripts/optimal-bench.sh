#!/usr/bin/env bash
# Times `mmtree optimal` (least average) in one process on a list of games and prints a
# table: the optimum, the most guesses, wall and CPU seconds (user + system, GNU time) and
# peak memory. Usage:
#   scripts/optimal-bench.sh [GAME...]     GAME = N,K or bc (Bulls and Cows); default: the list below
# Environment: BIN (default target/release/mmtree), THREADS (default: all cores), REPEAT
# (default 1): runs per game; the row is the run with the least wall time, since a shared
# virtual machine's wall times vary by tens of percent from run to run.
set -euo pipefail
bin=${BIN:-target/release/mmtree}
threads=${THREADS:+--threads $THREADS}
repeat=${REPEAT:-1}
games=("$@")
[ ${#games[@]} -eq 0 ] && games=(4,6 4,7 bc 5,5 6,4 4,8 4,9)
echo "| game | total | max | wall s | CPU s | peak MiB |"
echo "|---|--:|--:|--:|--:|--:|"
for g in "${games[@]}"; do
  if [ "$g" = bc ]; then
    args=(-n 4 -k 10 --distinct) name="Bulls and Cows"
  else
    args=(-n "${g%,*}" -k "${g#*,}") name="[$g]"
  fi
  wall=
  for ((r = 0; r < repeat; r++)); do
    got=$(/usr/bin/time -f '%e %U %S %M' -o /tmp/optimal-bench.$$ "$bin" -q optimal "${args[@]}" $threads --format csv | tail -1)
    read -r w u s m < /tmp/optimal-bench.$$
    if [ -z "$wall" ] || awk "BEGIN {exit !($w < $wall)}"; then
      out=$got wall=$w user=$u sys=$s mem=$m
    fi
  done
  IFS=, read -r _ _ _ _ _ _ _ _ max total _ <<< "$out"
  printf '| %s | %s | %s | %.2f | %.2f | %d |\n' "$name" "$total" "$max" "$wall" "$(awk "BEGIN {print $user + $sys}")" $((mem / 1024))
done
rm -f /tmp/optimal-bench.$$
