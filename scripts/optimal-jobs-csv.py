#!/usr/bin/env python3
"""One line per job of a split optimal run: the jobs.csv kept beside the runs in data/runs.

Reads the run directory scripts/optimal-exact.sh leaves (plan.json, job-N.csv, time-N.txt)
and writes, for each shard that ran, its part, size, the plan's lower bound, the job's
bounds, whether it is exact, its nodes, the time limit given, CPU seconds (user + system)
and peak memory. With --previous, rows of shards that did not run this time are copied from
that earlier jobs.csv, and rows of shards that did are replaced (a rerun carries the
earlier bounds forward, so its bounds are the part file's).

Usage: scripts/optimal-jobs-csv.py DIR --limit SECONDS [--previous OLD.csv] > jobs.csv
"""
import argparse
import csv
import json
import os
import sys

COLUMNS = ["shard", "part", "codes", "plan_lower_bound", "lower_bound", "upper_bound", "exact",
           "nodes", "time_limit_s", "cpu_s", "peak_mb"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--limit", required=True, help="the time limit per part this pass used")
    parser.add_argument("--previous", help="an earlier jobs.csv of the same plan")
    args = parser.parse_args()
    try:
        with open(os.path.join(args.dir, "plan.json")) as f:
            plan = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"{args.dir}: {e}")
    rows = {}
    if args.previous:
        with open(args.previous) as f:
            for row in csv.DictReader(f):
                rows[int(row["shard"])] = row
    for job in plan["subtrees"]:
        shard = job["shard"]
        result = os.path.join(args.dir, f"job-{shard}.csv")
        timing = os.path.join(args.dir, f"time-{shard}.txt")
        if not (os.path.exists(result) and os.path.exists(timing)):
            continue
        with open(result) as f:
            lines = list(csv.reader(f))
        if len(lines) < 2:
            continue  # the job failed or was stopped: its earlier row stays
        _, _, exact, lower, upper, nodes = lines[1][:6]
        with open(timing) as f:
            user, system, _, peak = f.read().split()[:4]
        rows[shard] = {
            "shard": shard, "part": job["path"], "codes": job["candidates"],
            "plan_lower_bound": job["lower_bound"], "lower_bound": lower, "upper_bound": upper,
            "exact": "true" if exact == "1" else "false", "nodes": nodes, "time_limit_s": args.limit,
            "cpu_s": f"{float(user) + float(system):.1f}", "peak_mb": int(peak) // 1024,
        }
    out = csv.DictWriter(sys.stdout, COLUMNS, lineterminator="\n")
    out.writeheader()
    for shard in sorted(rows):
        out.writerow(rows[shard])


if __name__ == "__main__":
    main()
