#!/usr/bin/env bash
# What splitting one tree into jobs costs: one `solve` process (2 threads, then 1) against
# `plan` + every shard (`parallel -j JOBS`, `--threads 1`) + `join`, in CPU time (user +
# system), wall time and peak memory, and a byte comparison of the two tree files.
#   scripts/split-bench.sh                                  # [6,8] minimax, depth 2, 16 shards
#   DEPTH=2 SHARDS=64 scripts/split-bench.sh -n 8 -k 6      # any game and rule options of solve
# Needs GNU time (/usr/bin/time) and GNU parallel. Works in a temporary directory it prints.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${BIN:-}" ] || cargo build --release --quiet
bin=$(realpath "${BIN:-./target/release/mmtree}")
depth=${DEPTH:-2} shards=${SHARDS:-16} jobs=${JOBS:-2}
[ $# -gt 0 ] || set -- -n 6 -k 8 --valuation minimax
dir=$(mktemp -d "${TMPDIR:-/tmp}/mmtree-split.XXXX")
cd "$dir"
echo "working in $dir: mmtree solve $*, split at depth $depth into $shards shards"
t() { /usr/bin/time -f "%e %U %S %M" -o "$1" "${@:2}"; }
t one.t "$bin" -q solve "$@" -o one.mmt > /dev/null
t one1.t "$bin" -q --threads 1 solve "$@" -o one1.mmt > /dev/null
t plan.t "$bin" -q plan "$@" --split-depth "$depth" --shards "$shards" -o plan.json > /dev/null
start=$(date +%s.%N)
seq "$shards" | parallel -j "$jobs" --halt now,fail=1 \
  "/usr/bin/time -f '%e %U %S %M' -o shard-{}.t $bin -q --threads 1 solve --plan plan.json --shard {}/$shards -o part-{}.mmt > /dev/null"
t join.t "$bin" -q join plan.json part-*.mmt -o whole.mmt > /dev/null
wall=$(echo "$(date +%s.%N) - $start" | bc)
cpu() { awk '{printf "%.2f", $2 + $3}' "$1"; }
mib() { awk '{printf "%d", $4 / 1024}' "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3fx", a / b; else printf "n/a" }'; }
if cmp -s one.mmt whole.mmt; then same=identical; else same=DIFFERENT; fi
shard_cpu=$(cat shard-*.t | awk '{s += $2 + $3} END {printf "%.2f", s}')
total=$(echo "$(cpu plan.t) + $shard_cpu + $(cpu join.t)" | bc)
echo "one process, 2 threads: $(cpu one.t) s CPU, $(awk '{print $1}' one.t) s wall, $(mib one.t) MiB"
echo "one process, 1 thread:  $(cpu one1.t) s CPU"
echo "plan: $(cpu plan.t) s CPU, $(mib plan.t) MiB"
cat shard-*.t | awk '{c = $2 + $3; s += c; if (c > m) m = c; if ($4 > p) p = $4}
  END {printf "shards: %.2f s CPU, largest %.2f s, mean %.2f s (%s), peak %d MiB\n", s, m, s / NR,
       (s > 0 ? sprintf("%.2fx", m / (s / NR)) : "n/a"), p / 1024}'
echo "join: $(cpu join.t) s CPU, $(awk '{print $1}' join.t) s wall, $(mib join.t) MiB; file $(stat -c %s whole.mmt) bytes, $same"
echo "split total: $total s CPU ($(ratio "$total" "$(cpu one.t)") the 2-thread process," \
  "$(ratio "$total" "$(cpu one1.t)") the 1-thread one); shards and join $wall s wall"
[ "$same" = identical ]
