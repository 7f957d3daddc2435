#!/usr/bin/env bash
# The exact optimum (least total guesses) of a game, split into one job per (first guess
# class, part): plan, the jobs on GNU parallel, the join and the check of the joined tree.
# Usage:
#   scripts/optimal-exact.sh DIR GAME-OPTIONS...        e.g. scripts/optimal-exact.sh out-5-6 -n 5 -k 6
# Environment: JOBS (parallel jobs, default 2), LIMIT (seconds per part, default none), MMTREE,
# ORDER=bound (first-guess classes by increasing plan bound, parts smallest first: the order
# that raises the lower bound of a run cut short, scripts/optimal-order.py; default: the plan's
# order, largest parts first) and, with it, ABOVE=U (leave out the classes whose plan bound is
# at least U, the total of a tree one already has), or ORDER=open (a rerun: only the open
# jobs the last join listed in DIR/join.json, in its order, lowest classes first).
# Jobs whose part file already holds their parts exactly are kept on a rerun, so a rerun (with
# a larger LIMIT, or a newer mmtree) only searches the parts still bracketed, and each keeps the
# better of its old and new bounds.
set -euo pipefail
dir=$1
shift
mmtree=${MMTREE:-mmtree}
jobs=${JOBS:-2}
limit=${LIMIT:+--time-limit $LIMIT}
case ${ORDER:-plan} in
  plan | bound) ;;
  open) [ -f "$dir/join.json" ] || { echo "ORDER=open: no $dir/join.json (run without it first)" >&2; exit 2; } ;;
  *) echo "ORDER=$ORDER: plan, bound or open" >&2; exit 2 ;;
esac
order_script=$(realpath "$(dirname "$0")/optimal-order.py")
mkdir -p "$dir"
cd "$dir"
# More shards than jobs: each job is its own shard, and the empty shards are not run.
shards=100000
"$mmtree" -q plan "$@" --optimal --split-depth 1 --shards $shards -o plan.json > /dev/null
if [ "${ORDER:-plan}" = bound ]; then
  shards_to_run() { python3 "$order_script" plan.json ${ABOVE:+--above "$ABOVE"}; }
elif [ "${ORDER:-plan}" = open ]; then
  shards_to_run() { python3 -c 'import json; [print(s) for s in dict.fromkeys(o["shard"] for o in json.load(open("join.json"))["open"])]'; }
else
  shards_to_run() { grep -o '"shard": *[0-9]*' plan.json | grep -o '[0-9]*$' | sort -n | uniq; }
fi
shards_to_run | parallel -j "$jobs" --joblog joblog.txt \
  "/usr/bin/time -f '%U %S %e %M' -o time-{}.txt $mmtree -q --threads 1 optimal --plan plan.json --shard {}/$shards -o part-{}.mmt $limit --format csv > job-{}.csv"
"$mmtree" -q join plan.json part-*.mmt -o best.mmt --format json | tee join.json
"$mmtree" -q verify best.mmt --format json > verify.json
awk '{cpu += $1 + $2; if ($4 > mem) mem = $4} END {printf "jobs: %.0f s CPU in all, largest %.2f GB\n", cpu, mem / 1048576}' time-*.txt
