//! The exact optimum searched as independent jobs (`plan --optimal`, `optimal --plan --shard`,
//! `join`): the joined result is the published optimum and the one-process `optimal` result
//! (the same file, byte for byte), under both objectives, with and without a fixed first
//! guess; parts stopped by a node limit give a proven bracket and a real tree; a partial join
//! names what is missing; bad input is refused with exit code 2 and a line naming the file.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("optimal-split-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// Writes the plan of `flags` (split depth 1 unless they say) with `shards` shards and
/// returns its path.
fn make_plan(dir: &Path, name: &str, flags: &[&str], shards: u32) -> PathBuf {
    let path = dir.join(format!("{name}.json"));
    let n = shards.to_string();
    let mut args = vec!["-q", "plan", "--optimal", "--shards", &n, "-o", s(&path)];
    if !flags.contains(&"--split-depth") {
        args.extend_from_slice(&["--split-depth", "1"]);
    }
    args.extend_from_slice(flags);
    ok(&args);
    path
}

/// Runs the given shards of a plan (with extra job flags) and returns the part files.
fn run_shards(dir: &Path, plan: &Path, shards: &[u32], of: u32, extra: &[&str]) -> Vec<PathBuf> {
    let stem = plan.file_stem().and_then(|s| s.to_str()).expect("plan name");
    shards
        .iter()
        .map(|&i| {
            let part = dir.join(format!("{stem}-part-{i}.mmt"));
            let shard = format!("{i}/{of}");
            let mut args = vec!["-q", "optimal", "--plan", s(plan), "--shard", &shard, "-o", s(&part)];
            args.extend_from_slice(extra);
            ok(&args);
            part
        })
        .collect()
}

fn join_args<'a>(plan: &'a Path, parts: &'a [PathBuf], out: &'a Path) -> Vec<&'a str> {
    let mut args = vec!["-q", "join", s(plan)];
    args.extend(parts.iter().map(|p| s(p)));
    args.extend_from_slice(&["-o", s(out), "--format", "json"]);
    args
}

/// Plans `flags` over 3 shards, runs them all, joins (self-checked): the join's JSON and file.
fn split_and_join(dir: &Path, name: &str, flags: &[&str]) -> (serde_json::Value, Vec<u8>) {
    let plan = make_plan(dir, name, flags, 3);
    let parts = run_shards(dir, &plan, &[1, 2, 3], 3, &[]);
    let whole = dir.join(format!("{name}-joined.mmt"));
    let mut args = join_args(&plan, &parts, &whole);
    args.push("--self-check");
    let report = json(&ok(&args));
    let verified = json(&ok(&["verify", s(&whole), "--format", "json"]));
    assert_eq!(verified["total"], report["upper_bound"], "{name}: {verified}");
    (report, std::fs::read(&whole).expect("joined file"))
}

/// The one-process `optimal` figures and file.
fn one_process(dir: &Path, flags: &[&str]) -> (serde_json::Value, Vec<u8>) {
    let whole = dir.join("one-process.mmt");
    let mut args = vec!["-q", "optimal", "--format", "json", "-o", s(&whole)];
    args.extend_from_slice(flags);
    (json(&ok(&args)), std::fs::read(&whole).expect("optimal file"))
}

/// Games of at most 1296 codes, both objectives: the joined bracket is exact, equals the
/// published optimum where there is one (Chen & Lin's 2-peg totals, [3,4] 206, Koyama & Lai's
/// [4,6] 5625 and 5 / 5626), and the joined file is the one-process file.
#[test]
fn joined_optimum_equals_one_process_and_published() {
    let dir = scratch("games");
    // (n, k, published average total, published worst case and total)
    type Published = (Option<u64>, Option<(u64, u64)>);
    let games: [(&str, &str, Published); 8] = [
        ("2", "3", (Some(21), None)),
        ("2", "4", (Some(45), None)),
        ("2", "5", (Some(81), None)),
        ("2", "6", (Some(132), None)),
        ("3", "4", (Some(206), None)),
        ("3", "5", (None, None)),
        ("4", "4", (None, None)),
        ("4", "6", (Some(5625), Some((5, 5626)))),
    ];
    for (n, k, (average, worst)) in games {
        for objective in ["average", "worst"] {
            let flags = ["-n", n, "-k", k, "--objective", objective];
            let name = format!("{n}-{k}-{objective}");
            let (joined, bytes) = split_and_join(&dir, &name, &flags);
            let (one, one_bytes) = one_process(&dir, &flags);
            assert_eq!(joined["exact"], true, "{name}: {joined}");
            assert_eq!(joined["lower_bound"], joined["upper_bound"], "{name}");
            assert_eq!(joined["upper_bound"], one["total"], "{name}: {joined} {one}");
            assert_eq!(joined["max"], one["max"], "{name}");
            assert_eq!(joined["missing"].as_array().map(Vec::len), Some(0));
            assert!(bytes == one_bytes, "{name}: the joined file is not the one-process file");
            let published = match objective {
                "average" => average.map(|t| (None, t)),
                _ => worst.map(|(m, t)| (Some(m), t)),
            };
            if let Some((max, total)) = published {
                assert_eq!(joined["upper_bound"], total, "{name}");
                if let Some(max) = max {
                    assert_eq!(joined["max"], max, "{name}");
                }
            }
        }
    }
}

/// Split depth 2 (one job per second guess that may be optimal and part): the same optimum
/// and the same file as one process.
#[test]
fn depth_two_joins_equal_one_process() {
    let dir = scratch("depth2");
    for (n, k, first) in [("2", "5", None), ("3", "4", None), ("4", "4", Some("1122"))] {
        let mut flags = vec!["-n", n, "-k", k, "--split-depth", "2"];
        let name = format!("{n}-{k}-{first:?}");
        flags.extend(first.iter().flat_map(|f| ["--first", f]));
        let (joined, bytes) = split_and_join(&dir, &name, &flags);
        assert_eq!(joined["exact"], true, "{name}: {joined}");
        if first.is_none() {
            let (one, one_bytes) = one_process(&dir, &flags[..4]);
            assert_eq!(joined["upper_bound"], one["total"], "{name}");
            assert!(bytes == one_bytes, "{name}: the joined file is not the one-process file");
        } else {
            let (depth1, _) = split_and_join(&dir, &format!("{name}-1"), &["-n", n, "-k", k, "--first", "1122"]);
            assert_eq!(joined["upper_bound"], depth1["upper_bound"], "{name}");
        }
    }
    assert_eq!(split_and_join(&dir, "3-4-avg", &["-n", "3", "-k", "4", "--split-depth", "2"]).0["upper_bound"], 206);
}

/// Bulls and Cows split at depth 2 into hundreds of jobs (at depth 1 its one first guess
/// class has only 13 parts), joined to the published optimum 26274 with at most 7 guesses
/// (Tanaka 1996).
#[test]
fn bulls_and_cows_split_and_joined() {
    let dir = scratch("bulls");
    let flags = ["-n", "4", "-k", "10", "--distinct", "--split-depth", "2"];
    let plan = make_plan(&dir, "bulls", &flags, 12);
    let plan_json: serde_json::Value = serde_json::from_slice(&std::fs::read(&plan).unwrap()).unwrap();
    let jobs = plan_json["subtrees"].as_array().map_or(0, Vec::len);
    assert!(jobs >= 20, "{jobs} jobs");
    let parts = run_shards(&dir, &plan, &(1..=12).collect::<Vec<u32>>(), 12, &[]);
    let whole = dir.join("bulls.mmt");
    let report = json(&ok(&join_args(&plan, &parts, &whole)));
    assert_eq!((&report["exact"], &report["upper_bound"], &report["max"]), (&true.into(), &26274.into(), &7.into()));
    let verified = json(&ok(&["verify", s(&whole), "--format", "json"]));
    assert_eq!(verified["total"], 26274);
}

/// With `--first`: the optimal first guess gives the optimum; another first guess gives the
/// same total as its row in the join of every first guess, and never less than the optimum.
#[test]
fn a_fixed_first_guess_agrees_with_the_join_of_every_first_guess() {
    let dir = scratch("first");
    for (n, k, objective) in [("2", "5", "average"), ("3", "4", "worst"), ("4", "4", "average"), ("4", "6", "worst")] {
        let flags = ["-n", n, "-k", k, "--objective", objective];
        let name = format!("{n}-{k}-{objective}");
        let (all, _) = split_and_join(&dir, &format!("{name}-all"), &flags);
        for class in all["classes"].as_array().expect("classes") {
            let first = class["first_guess"].as_str().expect("first guess");
            let fixed = [&flags[..], &["--first", first]].concat();
            let (joined, _) = split_and_join(&dir, &format!("{name}-{first}"), &fixed);
            assert_eq!(joined["exact"], true, "{name} {first}");
            assert_eq!(joined["upper_bound"], class["upper_bound"], "{name} {first}");
            assert_eq!(joined["first_guess"], first);
            assert!(joined["upper_bound"].as_u64() >= all["upper_bound"].as_u64(), "{name} {first}");
            if first == all["first_guess"] {
                assert_eq!(joined["upper_bound"], all["upper_bound"], "{name} {first}");
            }
        }
    }
}

/// Parts stopped by a small node limit (deterministic): the joined bracket holds the known
/// optimum, its upper bound is the total of the written tree, which verifies; a partial join
/// names what is missing and counts the plan's lower bounds for it.
#[test]
fn node_limits_give_brackets_and_partial_joins_name_missing_jobs() {
    let dir = scratch("limits");
    let flags = ["-n", "4", "-k", "6"];
    let plan = make_plan(&dir, "plan", &flags, 4);
    let parts = run_shards(&dir, &plan, &[1, 2, 3, 4], 4, &["--node-limit", "3"]);
    let whole = dir.join("bracket.mmt");
    let report = json(&ok(&join_args(&plan, &parts, &whole)));
    let (lower, upper) = (report["lower_bound"].as_u64().unwrap(), report["upper_bound"].as_u64().unwrap());
    assert!(lower <= 5625 && 5625 <= upper, "{report}");
    assert!(lower < upper && report["exact"] == false, "a node limit of 3 proves nothing: {report}");
    let verified = json(&ok(&["verify", s(&whole), "--format", "json"]));
    assert_eq!(verified["total"], upper);
    // The open jobs are bracketed (lower below upper) and in classes below the upper bound;
    // rerunning their shards alone, with no limit, closes the bracket at the optimum.
    let open = report["open"].as_array().expect("open jobs");
    assert!(!open.is_empty(), "{report}");
    for o in open {
        assert!(o["lower_bound"].as_u64() < o["upper_bound"].as_u64(), "{o}");
        assert!(o["class_lower_bound"].as_u64().unwrap() < upper, "{o}");
    }
    let mut rerun: Vec<u32> = open.iter().map(|o| o["shard"].as_u64().unwrap() as u32).collect();
    rerun.sort_unstable();
    rerun.dedup();
    assert!(rerun.len() < 4, "some shards are exact at 3 nodes: {rerun:?}");
    run_shards(&dir, &plan, &rerun, 4, &[]);
    let closed = json(&ok(&join_args(&plan, &parts, &whole)));
    assert_eq!((closed["lower_bound"].as_u64(), closed["upper_bound"].as_u64()), (Some(5625), Some(5625)));
    assert_eq!(closed["open"].as_array().map(Vec::len), Some(0), "{closed}");

    // Shard 2 missing: named, with the plan's lower bound counted for each of its jobs.
    let plan_json: serde_json::Value = serde_json::from_slice(&std::fs::read(&plan).unwrap()).unwrap();
    let jobs: Vec<&serde_json::Value> =
        plan_json["subtrees"].as_array().unwrap().iter().filter(|j| j["shard"] == 2).collect();
    let partial = [parts[0].clone(), parts[2].clone(), parts[3].clone()];
    let report = json(&ok(&join_args(&plan, &partial, &whole)));
    let missing = report["missing"].as_array().unwrap();
    assert_eq!(missing.len(), jobs.len(), "{report}");
    for (m, j) in missing.iter().zip(&jobs) {
        assert_eq!((&m["shard"], &m["path"], &m["lower_bound"]), (&j["shard"], &j["path"], &j["lower_bound"]));
    }
    assert!(report["lower_bound"].as_u64().unwrap() <= 5625);

    // One first guess, one of its parts missing: a bracket but no tree.
    let fixed = plan_first(&dir);
    let parts = run_shards(&dir, &fixed, &[1, 2], 3, &[]);
    let none = dir.join("none.mmt");
    let report = json(&ok(&join_args(&fixed, &parts, &none)));
    assert!(report["upper_bound"].is_null() && report["output"].is_null(), "{report}");
    assert!(report["lower_bound"].as_u64().unwrap() <= 5625);
    assert!(!report["missing"].as_array().unwrap().is_empty());
    assert!(!none.exists(), "no tree is written without every part of the best first guess");
}

fn plan_first(dir: &Path) -> PathBuf {
    make_plan(dir, "first", &["-n", "4", "-k", "6", "--first", "1123"], 3)
}

/// Jobs are idempotent: a finished output is kept (same bytes), a rerun gives the same bytes.
#[test]
fn jobs_are_idempotent() {
    let dir = scratch("idempotent");
    let plan = plan_first(&dir);
    let parts = run_shards(&dir, &plan, &[2], 3, &[]);
    let bytes = std::fs::read(&parts[0]).unwrap();
    let out = ok(&["optimal", "--plan", s(&plan), "--shard", "2/3", "-o", s(&parts[0]), "--format", "json"]);
    assert_eq!(json(&out)["status"], "kept");
    std::fs::remove_file(&parts[0]).unwrap();
    let out = ok(&["optimal", "--plan", s(&plan), "--shard", "2/3", "-o", s(&parts[0]), "--format", "json"]);
    assert_eq!(json(&out)["status"], "searched");
    assert!(std::fs::read(&parts[0]).unwrap() == bytes, "a rerun gives other bytes");
}

/// A rerun of a bracketed job carries the earlier output forward: each part keeps the higher
/// lower bound and the cheaper subtree, so a shorter rerun loses nothing the first run proved.
#[test]
fn a_rerun_keeps_what_the_earlier_run_proved() {
    let dir = scratch("rerun");
    let plan = make_plan(&dir, "plan", &["-n", "4", "-k", "6"], 4);
    let bounds = |out: &Output| {
        let v = json(out);
        (v["lower_bound"].as_u64().unwrap(), v["upper_bound"].as_u64().unwrap())
    };
    let job = |part: &Path, nodes: &str| {
        bounds(&ok(&[
            "optimal",
            "--plan",
            s(&plan),
            "--shard",
            "1/4",
            "-o",
            s(part),
            "--node-limit",
            nodes,
            "--format",
            "json",
        ]))
    };
    let (carried, fresh) = (dir.join("carried.mmt"), dir.join("fresh.mmt"));
    let first = job(&carried, "300");
    let short = job(&fresh, "1");
    assert!(first.0 > short.0 || first.1 < short.1, "the longer run should prove more: {first:?} {short:?}");
    let rerun = job(&carried, "1");
    assert!(
        rerun.0 >= first.0.max(short.0) && rerun.1 <= first.1.min(short.1),
        "{rerun:?} from {first:?} and {short:?}"
    );
    // The carried part is still a valid part: an unlimited rerun solves what is left.
    let exact = json(&ok(&["optimal", "--plan", s(&plan), "--shard", "1/4", "-o", s(&carried), "--format", "json"]));
    assert_eq!(exact["lower_bound"], exact["upper_bound"]);
    assert!(exact["lower_bound"].as_u64().unwrap() >= rerun.0 && exact["upper_bound"].as_u64().unwrap() <= rerun.1);
}

#[test]
fn bad_input_is_refused_naming_the_file() {
    let dir = scratch("bad");
    let plan = plan_first(&dir);
    let parts = run_shards(&dir, &plan, &[1, 2, 3], 3, &[]);
    let p = s(&plan);
    let out = dir.join("out.mmt");
    for shard in ["0/3", "4/3", "2/4", "x/3"] {
        refused(&["optimal", "--plan", p, "--shard", shard, "-o", s(&out)], "--shard");
    }
    // Not a plan; a plan of the other kind, each way round.
    refused(&["optimal", "--plan", s(&parts[0]), "--shard", "1/3", "-o", s(&out)], "first-part-1.mmt");
    let tree_plan = dir.join("tree.json");
    ok(&["-q", "plan", "-n", "4", "-k", "6", "--split-depth", "1", "--shards", "3", "-o", s(&tree_plan)]);
    refused(&["optimal", "--plan", s(&tree_plan), "--shard", "1/3", "-o", s(&out)], "tree.json");
    refused(&["solve", "--plan", p, "--shard", "1/3", "-o", s(&out)], "first.json");
    // Other split depths; depth 2 only for the average.
    for depth in [&["--split-depth", "3"][..], &["--split-depth", "2", "--objective", "worst"]] {
        let mut args = vec!["plan", "--optimal", "-n", "4", "-k", "6", "--shards", "3", "-o", s(&out)];
        args.extend_from_slice(depth);
        refused(&args, "--split-depth");
    }
    // A part of another plan, a part twice, a corrupt part.
    let other = make_plan(&dir, "other", &["-n", "4", "-k", "6", "--first", "1122"], 3);
    let other_parts = run_shards(&dir, &other, &[1], 3, &[]);
    refused(&join_args(&plan, &[parts[0].clone(), other_parts[0].clone()], &out), "other-part-1.mmt");
    let copy = dir.join("copy.mmt");
    std::fs::copy(&parts[1], &copy).unwrap();
    refused(&join_args(&plan, &[parts[0].clone(), parts[1].clone(), copy.clone()], &out), "copy.mmt");
    let mut bytes = std::fs::read(&parts[2]).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x01;
    let corrupt = dir.join("corrupt.mmt");
    std::fs::write(&corrupt, &bytes).unwrap();
    refused(&join_args(&plan, &[parts[0].clone(), parts[1].clone(), corrupt.clone()], &out), "corrupt.mmt");
    assert!(!out.exists());
}

/// `scripts/optimal-exact.sh`, the README's recipe for the optima it lists, end to end on
/// [3,4] (206, the optimum other programs publish): plan, every job on GNU parallel, join and
/// verify; a rerun keeps the exact parts and gives the same result; `ORDER=bound ABOVE=U`
/// leaves out the classes that cannot be optimal; `ORDER=open` reruns only the open jobs.
#[test]
fn the_exact_optimum_script_runs_end_to_end() {
    if !Command::new("parallel").arg("--version").output().is_ok_and(|o| o.status.success()) {
        assert!(
            std::env::var_os("MMTREE_SKIP_ENGINE_TESTS").is_some(),
            "GNU parallel is missing (apt-get install parallel)"
        );
        return;
    }
    let root = scratch("script");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/optimal-exact.sh");
    // Runs the script on a game in `dir` and returns its join and verify reports.
    let run = |dir: &Path, game: [&str; 4], env: &[(&str, &str)]| {
        let out = Command::new("bash")
            .arg(&script)
            .arg(dir)
            .args(game)
            .env("MMTREE", env!("CARGO_BIN_EXE_mmtree"))
            .envs(env.iter().copied())
            .output()
            .expect("run the script");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let read = |name: &str| -> serde_json::Value {
            serde_json::from_slice(&std::fs::read(dir.join(name)).expect(name)).expect(name)
        };
        (read("join.json"), read("verify.json"))
    };
    for _ in 0..2 {
        let (join, verify) = run(&root.join("3-4"), ["-n", "3", "-k", "4"], &[]);
        assert_eq!(join["lower_bound"], 206);
        assert_eq!(join["upper_bound"], 206);
        assert_eq!(join["exact"], true);
        assert_eq!(verify["total"], 206);
    }
    // Classes by increasing plan bound, those at 207 or more left out (111's and 123's): the
    // join still proves 206, counting the classes left out at their plan bounds.
    let (join, verify) = run(&root.join("3-4-bound"), ["-n", "3", "-k", "4"], &[("ORDER", "bound"), ("ABOVE", "207")]);
    assert_eq!((join["lower_bound"].as_u64(), join["upper_bound"].as_u64()), (Some(206), Some(206)));
    assert_eq!(join["exact"], true);
    assert_eq!(verify["total"], 206);
    let missing = join["missing"].as_array().expect("missing jobs");
    assert!(!missing.is_empty());
    assert!(missing.iter().all(|m| !m["path"].as_str().expect("path").starts_with("112 ")), "{missing:?}");

    // [4,4] cut short (each job stops after its first node) leaves open jobs; `ORDER=open`
    // reruns those alone and reaches the one-process optimum.
    let dir = root.join("4-4");
    let game = ["-n", "4", "-k", "4"];
    let (join, _) = run(&dir, game, &[("LIMIT", "0.0001")]);
    let open = join["open"].as_array().expect("open jobs").len();
    assert!(open > 0 && join["exact"] == false, "{join}");
    let (join, verify) = run(&dir, game, &[("ORDER", "open")]);
    let optimum = json(&ok(&["-q", "optimal", "-n", "4", "-k", "4", "--format", "json"]))["total"].clone();
    assert_eq!((&join["lower_bound"], &join["upper_bound"], &verify["total"]), (&optimum, &optimum, &optimum));
    let joblog = std::fs::read_to_string(dir.join("joblog.txt")).expect("joblog");
    assert_eq!(joblog.lines().count(), 1 + open, "a header and the open jobs: {joblog}");
}

/// The runs kept in `data/runs` (plans and part files of open games, jobs stopped by time
/// limits) prove the brackets the README gives: their join has those bounds and its tree,
/// checked by the independent verifier, has the upper bound as its total.
#[test]
fn committed_runs_prove_the_readme_brackets() {
    let dir = scratch("committed");
    let runs = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/runs");
    // (run, lower bound, upper bound, first guess of the tree, the least total of a published
    // strategy). [5,7], [6,5] and [7,4] are solved: every part of the best class is exact and
    // every other class's lower bound is at least its total.
    let brackets = [
        ("optimal-5-7", 85_645, 85_645, "11223", None),
        ("optimal-6-5", 73_795, 73_795, "111223", None),
        ("optimal-7-4", 75_774, 75_774, "1112223", None),
        // First guess 11223 only: the bracket on the best strategy that opens with it. The
        // best published [5,8] trees are one-step trees of 179,747 to 179,863 guesses.
        ("optimal-5-8", 170_537, 178_969, "11223", Some(179_747)),
        // Every first guess class (11111 counted at its plan bound): a bracket on the game.
        ("optimal-5-8-all", 177_275, 178_606, "11223", Some(179_747)),
    ];
    for (run, lower, upper, first, published) in brackets {
        assert!(published.is_none_or(|p| upper < p));
        let run = runs.join(run);
        let mut parts: Vec<PathBuf> = std::fs::read_dir(&run)
            .expect("run directory")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("part-")))
            .collect();
        parts.sort();
        let tree = dir.join(format!("{}.mmt", run.file_name().and_then(|n| n.to_str()).expect("name")));
        let joined = json(&ok(&join_args(&run.join("plan.json"), &parts, &tree)));
        assert_eq!((joined["lower_bound"].as_u64(), joined["upper_bound"].as_u64()), (Some(lower), Some(upper)));
        assert_eq!(joined["exact"], lower == upper, "{}", run.display());
        assert_eq!(joined["first_guess"], first);
        let verified = json(&ok(&["verify", s(&tree), "--format", "json"]));
        assert_eq!(verified["total"], upper, "{}", run.display());
    }
}

/// A job's `--checkpoint` holds what all of its shard's parts proved (each set once, no bound
/// for a finished set, largest sets first) and a rerun resumes from it to the exact parts;
/// the join is Koyama and Lai's 5625.
#[test]
fn a_job_checkpoint_carries_every_part_of_its_shard() {
    let dir = scratch("checkpoint");
    let plan = make_plan(&dir, "ck", &["-n", "4", "-k", "6"], 3);
    let checkpoint = dir.join("ck-2.json");
    let read = || -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(&checkpoint).expect("checkpoint written")).expect("checkpoint JSON")
    };
    let check = |c: &serde_json::Value| {
        let key = |e: &serde_json::Value| (e["depth"].as_u64(), e["set"].as_array().cloned().unwrap_or_default());
        let (entries, bounds) = (c["entries"].as_array().unwrap(), c["bounds"].as_array().unwrap());
        let finished: std::collections::HashSet<_> = entries.iter().map(key).collect();
        assert_eq!(finished.len(), entries.len(), "a finished set twice");
        assert!(bounds.iter().all(|b| !finished.contains(&key(b))), "a bound for a finished set");
        for list in [entries, bounds] {
            let sizes: Vec<usize> = list.iter().map(|e| key(e).1.len()).collect();
            assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "largest sets first");
        }
        entries.len()
    };
    let limited = ["--node-limit", "30", "--checkpoint", s(&checkpoint)];
    // Shard 2 of 3 holds 21 parts, not all solved within 30 nodes each.
    let mut parts = run_shards(&dir, &plan, &[2], 3, &limited);
    let stopped = read();
    assert!(check(&stopped) > 0 && !stopped["bounds"].as_array().unwrap().is_empty());
    // Resumed with no limit: every part of the shard exact, and the checkpoint kept growing.
    run_shards(&dir, &plan, &[2], 3, &["--checkpoint", s(&checkpoint)]);
    assert!(check(&read()) > check(&stopped));
    parts.extend(run_shards(&dir, &plan, &[1, 3], 3, &[]));
    let out = dir.join("ck.mmt");
    let joined = json(&ok(&join_args(&plan, &parts, &out)));
    assert_eq!((joined["exact"].as_bool(), joined["upper_bound"].as_u64()), (Some(true), Some(5625)), "{joined}");
}
