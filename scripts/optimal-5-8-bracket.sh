#!/usr/bin/env bash
# The [5,8] bracket of the first guess 11223 (the class of AABBC), split into its 19 parts:
# plan, one job per part with a time limit each, one job at a time on one thread (GNU
# parallel), then the join and the check of the joined tree. Usage:
#   scripts/optimal-5-8-bracket.sh [SECONDS_PER_PART] [DIR]     (default 120, ./optimal-5-8)
# Jobs whose part file already holds their part exactly are kept on a rerun, so a rerun with a
# larger limit only searches the parts still bracketed.
set -euo pipefail
limit=${1:-120}
dir=${2:-optimal-5-8}
mmtree=${MMTREE:-mmtree}
mkdir -p "$dir"
cd "$dir"
"$mmtree" -q plan -n 5 -k 8 --optimal --first 11223 --split-depth 1 --shards 19 -o plan.json
seq 1 19 | parallel -j 1 --joblog joblog.txt \
  "/usr/bin/time -f '%U %S %e %M' -o time-{}.txt $mmtree -q --threads 1 optimal --plan plan.json --shard {}/19 -o part-{}.mmt --time-limit $limit --format csv > job-{}.csv"
"$mmtree" -q join plan.json part-*.mmt -o best.mmt --format json | tee join.json
"$mmtree" -q verify best.mmt
awk '{cpu += $1 + $2} END {printf "CPU of the jobs: %.0f s\n", cpu}' time-*.txt
