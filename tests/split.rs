//! One tree split into jobs (`plan`, `solve --plan`, `join`): the joined file equals the
//! one-process `solve -o` file byte for byte, whatever the split depth and shard count; jobs
//! are idempotent and leave nothing half-written; bad input is refused with exit code 2 and a
//! line naming the file; the engines (GNU parallel, the Slurm array script) run real jobs.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use mmtree::core::{CodeSpace, Game, GameSpec, MemoryLimit, StrategyTree};
use mmtree::strategy::{GuessRule, Method, Solver, Ties, Valuation};

fn mmtree(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mmtree")).args(args).output().expect("run mmtree")
}

fn ok(args: &[&str]) -> Output {
    let out = mmtree(args);
    assert!(out.status.success(), "mmtree {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// Exit code 2 and one line naming `name`.
fn refused(args: &[&str], name: &str) {
    let out = mmtree(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "mmtree {args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.contains(name), "the message names {name}: {err}");
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("split-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Plans, runs every shard and joins; returns the joined bytes.
fn split_and_join(dir: &Path, flags: &[&str], depth: u32, shards: u32) -> Vec<u8> {
    let plan = dir.join(format!("plan-{depth}-{shards}.json"));
    let (d, n) = (depth.to_string(), shards.to_string());
    let mut args = vec!["-q", "plan"];
    args.extend_from_slice(flags);
    args.extend_from_slice(&["--split-depth", &d, "--shards", &n, "-o", s(&plan)]);
    ok(&args);
    let mut parts = Vec::new();
    for i in 1..=shards {
        let part = dir.join(format!("part-{depth}-{shards}-{i}.mmt"));
        ok(&["-q", "solve", "--plan", s(&plan), "--shard", &format!("{i}/{shards}"), "-o", s(&part)]);
        parts.push(part);
    }
    let whole = dir.join(format!("joined-{depth}-{shards}.mmt"));
    let mut args = vec!["-q", "join", s(&plan)];
    args.extend(parts.iter().map(|p| s(p)));
    args.extend_from_slice(&["-o", s(&whole)]);
    ok(&args);
    std::fs::read(&whole).expect("joined file")
}

fn solve_bytes(dir: &Path, flags: &[&str]) -> Vec<u8> {
    let whole = dir.join("solve.mmt");
    let mut args = vec!["-q", "solve"];
    args.extend_from_slice(flags);
    args.extend_from_slice(&["-o", s(&whole)]);
    ok(&args);
    std::fs::read(&whole).expect("solve file")
}

/// Every rule option of `solve` on small games, depths 1-3, 1, 3 and 8 shards, through the
/// command line: the joined file is the one-process file.
#[test]
fn joined_files_equal_one_process_files() {
    let cases: [&[&str]; 10] = [
        &["-n", "4", "-k", "6", "--valuation", "minimax"],
        &["-n", "4", "-k", "6", "--valuation", "entropy", "--first", "1123", "--ties", "largest"],
        &["-n", "3", "-k", "5", "--valuation", "expected-size", "--pool", "candidates"],
        &["-n", "4", "-k", "4", "--valuation", "most-parts", "--no-prefer-candidates"],
        &["-n", "4", "-k", "8", "--distinct", "--valuation", "entropy"],
        &["-n", "5", "-k", "3", "--black-only", "--valuation", "minimax", "--symbols", "RGB"],
        &["-n", "3", "-k", "6", "--valuation", "minimax", "--lookahead", "2"],
        &["-n", "4", "-k", "6", "--valuation", "first-candidate", "--ties", "largest"],
        &["-n", "4", "-k", "8", "--distinct", "--valuation", "human"],
        &["-n", "6", "-k", "4", "--valuation", "expected-size"],
    ];
    for (c, flags) in cases.iter().enumerate() {
        let dir = scratch(&format!("cli-{c}"));
        let whole = solve_bytes(&dir, flags);
        for depth in [1, 2, 3] {
            for shards in [1, 3, 8] {
                // Sample: every depth with every shard count on the first cases, a diagonal later.
                if c >= 2 && (depth + shards + c as u32) % 3 != 0 {
                    continue;
                }
                assert!(
                    split_and_join(&dir, flags, depth, shards) == whole,
                    "{flags:?} depth {depth}, {shards} shards"
                );
            }
        }
    }
}

/// The builder's split (the top and each node's subtree from its history) gives back the
/// one-process tree for every combination of rule options and every method, depths 1-3.
#[test]
fn every_rule_splits_into_the_same_tree() {
    let games = [
        GameSpec::mastermind(3, 4),
        GameSpec::mastermind(4, 4),
        GameSpec::mastermind(2, 8),
        GameSpec::mastermind(4, 6),
        GameSpec::bulls_and_cows(3, 6),
    ];
    let spaces: Vec<CodeSpace> =
        games.iter().map(|&g| CodeSpace::new(Game::new(g).unwrap(), MemoryLimit(1 << 30)).unwrap()).collect();
    let mut rules = common::rule_product(mmtree::core::CodeIndex::from_index(5));
    for valuation in Valuation::ALL {
        rules.push(GuessRule { method: Method::Lookahead2, ..GuessRule::new(valuation) });
    }
    for ties in [Ties::Smallest, Ties::Largest] {
        rules.push(GuessRule { ties, ..GuessRule::method(Method::FirstCandidate) });
    }
    rules.push(GuessRule::method(Method::Human));
    for (r, rule) in rules.iter().enumerate() {
        // Each rule on one game in turn (the look-ahead on the smaller ones).
        let space = &spaces[if rule.method == Method::Lookahead2 { r % 3 } else { r % spaces.len() }];
        let solver = Solver::new(space, *rule);
        let whole = solver.build();
        for depth in 1..=3 {
            let top = solver.top(depth);
            let subtrees = top.split.iter().map(|s| solver.subtree_at(&s.history).expect("a non-empty node")).collect();
            let joined = StrategyTree::from_subtree(*space.game(), top.join(space, subtrees).expect("joins"));
            assert!(joined == whole, "{rule:?} on {}, depth {depth}", space.game());
        }
    }
}

/// A plan of [4,6] minimax at depth 2 in 4 shards, its parts built; returns (plan, parts).
fn built_plan(dir: &Path) -> (PathBuf, Vec<PathBuf>) {
    let plan = dir.join("plan.json");
    ok(&["-q", "plan", "-n", "4", "-k", "6", "--split-depth", "2", "--shards", "4", "-o", s(&plan)]);
    let parts: Vec<PathBuf> = (1..=4).map(|i| dir.join(format!("part-{i}.mmt"))).collect();
    for (i, part) in parts.iter().enumerate() {
        ok(&["-q", "solve", "--plan", s(&plan), "--shard", &format!("{}/4", i + 1), "-o", s(part)]);
    }
    (plan, parts)
}

fn join_args<'a>(plan: &'a Path, parts: &'a [PathBuf], out: &'a Path) -> Vec<&'a str> {
    let mut args = vec!["-q", "join", s(plan)];
    args.extend(parts.iter().map(|p| s(p)));
    args.extend_from_slice(&["-o", s(out)]);
    args
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn jobs_are_idempotent_and_keep_finished_parts() {
    let dir = scratch("idempotent");
    let (plan, parts) = built_plan(&dir);
    let first = std::fs::read(&parts[1]).unwrap();
    // A rerun keeps the part (checked subtree by subtree), with --resume too.
    for resume in [false, true] {
        let mut args = vec!["solve", "--plan", s(&plan), "--shard", "2/4", "-o", s(&parts[1]), "--format", "json"];
        if resume {
            args.push("--resume");
        }
        let out = ok(&args);
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["status"], "kept");
        assert_eq!(std::fs::read(&parts[1]).unwrap(), first);
    }
    // Removed and built again: the same bytes.
    std::fs::remove_file(&parts[1]).unwrap();
    let out = ok(&["solve", "--plan", s(&plan), "--shard", "2/4", "-o", s(&parts[1]), "--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["status"], "built");
    assert_eq!(std::fs::read(&parts[1]).unwrap(), first);
    // A part of another shard at that path is replaced by the right one.
    std::fs::copy(&parts[2], &parts[1]).unwrap();
    ok(&["-q", "solve", "--plan", s(&plan), "--shard", "2/4", "-o", s(&parts[1])]);
    assert_eq!(std::fs::read(&parts[1]).unwrap(), first);
    // The joined tree verifies and has Knuth's figures.
    let whole = dir.join("whole.mmt");
    let mut args = join_args(&plan, &parts, &whole);
    args.push("--self-check");
    ok(&args);
    let out = ok(&["verify", s(&whole), "--format", "json"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("5801"), "{text}");
}

#[test]
fn bad_input_is_refused_naming_the_file() {
    let dir = scratch("bad");
    let (plan, parts) = built_plan(&dir);
    let p = s(&plan);
    let out = dir.join("out.mmt");
    // Shards out of range, or of another count.
    for shard in ["0/4", "5/4", "2/5", "x/4", "3"] {
        refused(&["solve", "--plan", p, "--shard", shard, "-o", s(&out)], "--shard");
    }
    // A file that is not a plan (a part, a tree file, JSON of something else).
    refused(&["solve", "--plan", s(&parts[0]), "--shard", "1/4", "-o", s(&out)], "part-1.mmt");
    let other = dir.join("other.json");
    std::fs::write(&other, "{\"format\": \"something else\"}\n").unwrap();
    refused(&["join", s(&other), s(&parts[0]), "-o", s(&out)], "other.json");
    // An edited plan (its digest no longer matches).
    let edited = dir.join("edited.json");
    std::fs::write(
        &edited,
        std::fs::read_to_string(&plan).unwrap().replacen("\"candidates\": 1296", "\"candidates\": 1295", 1),
    )
    .unwrap();
    refused(&["join", s(&edited), s(&parts[0]), "-o", s(&out)], "edited.json");
    // A plan of another game given to join.
    let plan5 = dir.join("plan5.json");
    ok(&["-q", "plan", "-n", "4", "-k", "5", "--split-depth", "2", "--shards", "4", "-o", s(&plan5)]);
    refused(&join_args(&plan5, &parts, &out), "part-1.mmt");
    // A missing shard, a shard twice.
    refused(&join_args(&plan, &parts[..3], &out), "plan.json");
    let twice = [parts[0].clone(), parts[1].clone(), parts[1].clone(), parts[3].clone()];
    let copy = dir.join("copy.mmt");
    std::fs::copy(&parts[1], &copy).unwrap();
    let twice_copy = [parts[0].clone(), parts[1].clone(), copy.clone(), parts[2].clone(), parts[3].clone()];
    refused(&join_args(&plan, &twice_copy, &out), "copy.mmt");
    refused(&join_args(&plan, &twice, &out), "part-2.mmt");
    // An edited part: the checksum.
    let mut bytes = std::fs::read(&parts[2]).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x01;
    let corrupt = dir.join("corrupt.mmt");
    std::fs::write(&corrupt, &bytes).unwrap();
    let with_corrupt = [parts[0].clone(), parts[1].clone(), corrupt.clone(), parts[3].clone()];
    refused(&join_args(&plan, &with_corrupt, &out), "corrupt.mmt");
    // Nothing was written by any refused join.
    assert!(!out.exists());
    assert!(files_in(&dir).iter().all(|f| !f.contains(".tmp")), "{:?}", files_in(&dir));
}

/// Refining a depth-1 plan with the guesses its jobs chose gives the depth-2 plan computed in
/// one process, digest included.
#[test]
fn refined_plans_equal_direct_plans() {
    let dir = scratch("refine");
    let flags = ["-n", "4", "-k", "6", "--valuation", "entropy"];
    let plan1 = dir.join("plan1.json");
    let mut args = vec!["-q", "plan"];
    args.extend_from_slice(&flags);
    args.extend_from_slice(&["--split-depth", "1", "--shards", "3", "-o", s(&plan1)]);
    ok(&args);
    let mut refine = vec!["-q".to_string(), "plan".into(), "--refine".into(), s(&plan1).into()];
    for i in 1..=3 {
        let list = dir.join(format!("guesses-{i}.json"));
        ok(&["-q", "solve", "--plan", s(&plan1), "--shard", &format!("{i}/3"), "--guesses", "-o", s(&list)]);
        refine.push(s(&list).into());
    }
    let plan2 = dir.join("plan2.json");
    refine.extend(["--shards".into(), "5".into(), "-o".into(), s(&plan2).into()]);
    ok(&refine.iter().map(String::as_str).collect::<Vec<_>>());
    let direct = dir.join("direct.json");
    let mut args = vec!["-q", "plan"];
    args.extend_from_slice(&flags);
    args.extend_from_slice(&["--split-depth", "2", "--shards", "5", "-o", s(&direct)]);
    ok(&args);
    assert_eq!(std::fs::read_to_string(&plan2).unwrap(), std::fs::read_to_string(&direct).unwrap());
    // A missing guess list is refused.
    let two = [refine[0].as_str(), "plan", "--refine", s(&plan1), &refine[4], &refine[5], "-o", s(&plan2)];
    refused(&two, "plan1.json");
}

/// SIGTERM (what Slurm sends at the time limit) leaves no output file at all.
#[test]
fn a_terminated_job_leaves_nothing() {
    let dir = scratch("sigterm");
    let plan = dir.join("plan.json");
    ok(&["-q", "plan", "-n", "7", "-k", "6", "--split-depth", "1", "--shards", "1", "-o", s(&plan)]);
    let part = dir.join("part.mmt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mmtree"))
        .args(["-q", "solve", "--plan", s(&plan), "--shard", "1/1", "-o", s(&part)])
        .spawn()
        .expect("start a job");
    std::thread::sleep(std::time::Duration::from_millis(700));
    let killed = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("kill");
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert!(!status.success(), "the job was still running: [7,6] takes far longer than 0.7 s");
    assert_eq!(files_in(&dir), vec!["plan.json".to_string()]);
}

/// Runs a plan's jobs with `run`, joins, and compares with the one-process file.
fn engine_case(name: &str, run: impl FnOnce(&Path, &Path)) {
    let dir = scratch(name);
    let plan = dir.join("plan.json");
    ok(&[
        "-q",
        "plan",
        "-n",
        "4",
        "-k",
        "7",
        "--valuation",
        "expected-size",
        "--split-depth",
        "2",
        "--shards",
        "6",
        "-o",
        s(&plan),
    ]);
    let parts = dir.join("parts");
    run(&plan, &parts);
    let mut found: Vec<PathBuf> = std::fs::read_dir(&parts).unwrap().map(|e| e.unwrap().path()).collect();
    found.sort();
    assert_eq!(found.len(), 6, "{found:?}");
    let whole = dir.join("whole.mmt");
    ok(&join_args(&plan, &found, &whole));
    let solved = solve_bytes(&dir, &["-n", "4", "-k", "7", "--valuation", "expected-size"]);
    assert!(std::fs::read(&whole).unwrap() == solved);
}

fn tool_present(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok_and(|o| o.status.success())
}

/// The README's GNU parallel recipe, for real (`.ci/run` installs Debian's `parallel`).
#[test]
fn gnu_parallel_runs_the_jobs() {
    if !tool_present("parallel") {
        assert!(
            std::env::var_os("MMTREE_SKIP_ENGINE_TESTS").is_some(),
            "GNU parallel is missing (apt-get install parallel)"
        );
        return;
    }
    engine_case("parallel", |plan, parts| {
        std::fs::create_dir_all(parts).unwrap();
        let status = Command::new("parallel")
            .args(["-j", "2", "--retries", "3", "--halt", "now,fail=1"])
            .arg(env!("CARGO_BIN_EXE_mmtree"))
            .args(["-q", "solve", "--plan", s(plan), "--shard", "{}/6", "-o"])
            .arg(format!("{}/part-{{}}.mmt", s(parts)))
            .args([":::", "1", "2", "3", "4", "5", "6"])
            .stdout(std::process::Stdio::null())
            .status()
            .expect("run parallel");
        assert!(status.success());
    });
}

fn sbatch_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm/tree.sbatch")
}

/// The Slurm array script's logic, each task run by hand with `SLURM_ARRAY_TASK_ID`; a
/// second round (a resubmission) keeps every part.
#[test]
fn slurm_script_tasks_by_hand() {
    engine_case("slurm-by-hand", |plan, parts| {
        for round in 0..2 {
            for task in 1..=6 {
                let out = Command::new("bash")
                    .arg(sbatch_script())
                    .args([s(plan), s(parts)])
                    .env("SLURM_ARRAY_TASK_ID", task.to_string())
                    .env("MMTREE", env!("CARGO_BIN_EXE_mmtree"))
                    .output()
                    .unwrap();
                assert!(out.status.success(), "task {task}: {}", String::from_utf8_lossy(&out.stderr));
                if round == 1 {
                    assert!(String::from_utf8_lossy(&out.stdout).contains("kept"));
                }
            }
        }
        // A task outside the plan's shards is refused.
        let out = Command::new("bash")
            .arg(sbatch_script())
            .args([s(plan), s(parts)])
            .env("SLURM_ARRAY_TASK_ID", "7")
            .env("MMTREE", env!("CARGO_BIN_EXE_mmtree"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
    });
}

/// The array on a real Slurm when one answers (`.ci/run` starts a single-node cluster).
#[test]
fn slurm_array_builds_the_tree() {
    if !Command::new("sinfo").output().is_ok_and(|o| o.status.success()) {
        assert!(
            std::env::var_os("MMTREE_SKIP_ENGINE_TESTS").is_some(),
            "no Slurm answers (scripts/slurm/single-node.sh starts one)"
        );
        return;
    }
    engine_case("slurm", |plan, parts| {
        let log = parts.with_file_name("slurm-%a.log");
        let status = Command::new("sbatch")
            .args(["--wait", "--array=1-6", "--cpus-per-task=1", "--output"])
            .arg(&log)
            .arg(sbatch_script())
            .args([s(plan), s(parts)])
            .env("MMTREE", env!("CARGO_BIN_EXE_mmtree"))
            .status()
            .expect("sbatch");
        assert!(status.success());
    });
}
