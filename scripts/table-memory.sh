#!/usr/bin/env bash
# Peak resident memory of one split job under several `--table-memory` caps, against a run
# whose table is kept under 1 MB (what the search takes besides its table). Each run stops
# at the same node limit, so all do the same search. Usage:
#   scripts/table-memory.sh [RUN_DIR] [SHARD] [NODES] [CAP...]
# Defaults: data/runs/optimal-6-5, shard 17 (a 2,092-code part), 1500000 nodes, caps 128M.
# Environment: BIN (default target/release/mmtree), THREADS (default 1).
set -euo pipefail
bin=$(realpath "${BIN:-target/release/mmtree}")
dir=$(realpath "${1:-data/runs/optimal-6-5}")
shard=${2:-17}
nodes=${3:-1500000}
shift $(( $# < 3 ? $# : 3 ))
caps=("$@")
[ ${#caps[@]} -eq 0 ] && caps=(128M)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$dir/plan.json" "$work/"
echo "| table cap | CPU s | peak MiB | above the base MiB | x cap |"
echo "|---|--:|--:|--:|--:|"
base=
for cap in 1M "${caps[@]}"; do
  cp "$dir/part-$shard.mmt" "$work/" 2>/dev/null || true
  (cd "$work" && /usr/bin/time -f '%U %S %M' -o time.txt "$bin" -q --threads "${THREADS:-1}" optimal \
    --plan plan.json --shard "$shard/100000" -o "part-$shard.mmt" --node-limit "$nodes" \
    --table-memory "$cap" --format csv > /dev/null)
  read -r user sys mem < "$work/time.txt"
  mib=$((mem / 1024))
  [ -z "$base" ] && base=$mib
  bytes=$(numfmt --from=iec "$cap")
  printf '| %s | %.1f | %d | %d | %.2f |\n' "$cap" "$(awk "BEGIN {print $user + $sys}")" "$mib" $((mib - base)) \
    "$(awk "BEGIN {print ($mib - $base) * 1048576 / $bytes}")"
done
