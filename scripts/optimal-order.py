#!/usr/bin/env python3
"""The shards of an optimal plan (split depth 1) in the order that raises a bracket fastest.

First-guess classes go by increasing plan bound (|H| plus the plan's lower bounds of their
parts): the game's lower bound is the least over the classes, so it only rises once the
classes at the bottom are searched. Within a class, parts go smallest first, so a run cut
short still leaves every small part exact. With --above U, classes whose plan bound is
already at least U (the total of a tree one has) are left out: they cannot be optimal.

Usage: scripts/optimal-order.py plan.json [--above U]     (one shard a line)
scripts/optimal-exact.sh runs its jobs in this order with ORDER=bound (and ABOVE=U).
"""
import argparse
import json
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("plan")
    parser.add_argument("--above", type=int, help="leave out classes whose plan bound is at least this total")
    args = parser.parse_args()
    try:
        with open(args.plan) as f:
            plan = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"{args.plan}: {e}")
    if plan.get("format") != "mmtree-plan" or plan.get("kind") != "optimal":
        sys.exit(f"{args.plan}: not an optimal plan (mmtree plan --optimal)")
    if plan.get("split_depth") != 1:
        sys.exit(f"{args.plan}: split depth {plan.get('split_depth')}; this order is for depth 1")
    codes = {t["guess"]: t["candidates"] for t in plan["top"] if not t["history"]}
    classes = {}
    for job in plan["subtrees"]:
        classes.setdefault(job["history"][0][0], []).append(job)
    bound = {g: codes[g] + sum(j["lower_bound"] for j in jobs) for g, jobs in classes.items()}
    seen = set()
    for g in sorted(classes, key=lambda g: (bound[g], g)):
        if args.above is not None and bound[g] >= args.above:
            continue
        for job in sorted(classes[g], key=lambda j: (j["candidates"], j["shard"])):
            if job["shard"] not in seen:
                seen.add(job["shard"])
                print(job["shard"])


if __name__ == "__main__":
    main()
