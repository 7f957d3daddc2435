//! `mmtree optimal` end to end: published optima, JSON keys, tree output, checkpoints, errors.

use std::process::Command;

use tempfile::TempDir;

fn mmtree(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mmtree")).args(args).output().expect("runs mmtree")
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = mmtree(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

/// A fresh directory per test, removed when dropped (also after a failed assertion).
fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new().prefix(&format!("mmtree-optimal-{name}-")).tempdir().unwrap()
}

#[test]
fn average_4_6_is_5625_with_the_solve_keys() {
    // Koyama & Lai 1993.
    let v = json(&["optimal", "-n", "4", "-k", "6", "--format", "json", "-q"]);
    assert_eq!(v["total"], 5625);
    assert_eq!(v["max"], 6);
    assert_eq!(v["valuation"], "optimal-average");
    assert_eq!(v["pool"], "all");
    for key in ["n", "k", "variant", "feedback", "ties", "first_guess", "average", "histogram"] {
        assert!(v.get(key).is_some(), "missing key {key}");
    }
}

#[test]
fn depth_limit_and_worst_case_of_4_6() {
    let v = json(&["optimal", "-n", "4", "-k", "6", "--max-depth", "5", "--format", "json", "-q"]);
    assert_eq!((v["total"].as_u64(), v["max"].as_u64()), (Some(5626), Some(5)));
    let v = json(&["optimal", "-n", "4", "-k", "6", "--objective", "worst", "--format", "json", "-q"]);
    assert_eq!((v["max"].as_u64(), v["total"].as_u64()), (Some(5), Some(5626)));
    assert_eq!(v["valuation"], "optimal-worst");
}

#[test]
fn impossible_depth_is_reported() {
    // 1296 codes cannot be told apart in 4 guesses (Knuth 1977).
    let out = mmtree(&["optimal", "-n", "4", "-k", "6", "--max-depth", "4", "-q"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no strategy solves every secret within 4 guesses"), "{err}");
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn tree_file_is_written() {
    let dir = scratch("tree");
    let path = dir.path().join("3x3.mmt");
    let v = json(&["optimal", "-n", "3", "-k", "3", "-o", path.to_str().unwrap(), "--format", "json", "-q"]);
    assert_eq!(v["total"], 73);
    // A normal tree file: the independent checker accepts it and reads back the same figures.
    let checked = mmtree(&["verify", path.to_str().unwrap(), "--format", "json"]);
    assert!(checked.status.success(), "{}", String::from_utf8_lossy(&checked.stderr));
    let stats = json(&["stats", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!((stats["total"].as_u64(), stats["valuation"].as_str()), (Some(73), Some("optimal-average")));
}

#[test]
fn interrupted_search_resumes_from_its_checkpoint() {
    let dir = scratch("ckpt");
    let ckpt = dir.path().join("4x6.ckpt");
    let c = ckpt.to_str().unwrap();
    let out = mmtree(&["optimal", "-n", "4", "-k", "6", "--checkpoint", c, "--stop-after-nodes", "400", "-q"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("search stopped"));
    // Besides finished subtrees, the stopped search keeps what it proved of the others.
    let saved: serde_json::Value = serde_json::from_slice(&std::fs::read(&ckpt).unwrap()).unwrap();
    let bounds = saved["bounds"].as_array().unwrap();
    assert!(!bounds.is_empty());
    // A bound that is not a set of this game is refused, naming it.
    let mut edited = saved.clone();
    edited["bounds"][0]["set"] = serde_json::json!([5, 4, 3, 2, 1, 0, 6, 7, 8, 9, 10, 11]);
    std::fs::write(&ckpt, serde_json::to_vec(&edited).unwrap()).unwrap();
    let out = mmtree(&["optimal", "-n", "4", "-k", "6", "--checkpoint", c, "-q"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bound 0 of `bounds`"));
    std::fs::write(&ckpt, serde_json::to_vec(&saved).unwrap()).unwrap();
    let out = mmtree(&["optimal", "-n", "4", "-k", "6", "--checkpoint", c, "--verbose", "--format", "json", "-q"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["total"], 5625);
    assert!(String::from_utf8_lossy(&out.stderr).contains("table hits"));
    // A checkpoint of another game is refused as bad input.
    let out = mmtree(&["optimal", "-n", "3", "-k", "3", "--checkpoint", c, "-q"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
#[cfg_attr(debug_assertions, ignore = "needs an optimised build: cargo test --profile ci")]
fn bulls_and_cows_cannot_always_win_within_6() {
    // Tanaka 1996: no strategy for 4 distinct digits of 10 always wins within 6 guesses.
    let out = mmtree(&["optimal", "-n", "4", "-k", "10", "--distinct", "--max-depth", "6", "-q"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no strategy solves every secret within 6 guesses"), "{err}");
}

#[test]
fn bad_depth_is_a_usage_error() {
    let out = mmtree(&["optimal", "-n", "4", "-k", "6", "--max-depth", "0", "-q"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_tampered_checkpoint_is_refused_naming_the_entry() {
    let dir = scratch("tampered");
    let ckpt = dir.path().join("4x6.ckpt");
    let c = ckpt.to_str().unwrap();
    let v = json(&["optimal", "-n", "4", "-k", "6", "--checkpoint", c, "--format", "json", "-q"]);
    assert_eq!(v["total"], 5625);
    let saved: serde_json::Value = serde_json::from_slice(&std::fs::read(&ckpt).unwrap()).unwrap();
    let root = saved["entries"].as_array().unwrap().iter().position(|e| e["set"].as_array().unwrap().len() == 1296);
    let root = root.expect("the finished search saves the root");
    assert_eq!(saved["entries"][root]["cost"], 5625);
    // The untouched file resumes to the same optimum and tree.
    let again = json(&["optimal", "-n", "4", "-k", "6", "--checkpoint", c, "--format", "json", "-q"]);
    assert_eq!((&again["total"], &again["first_guess"]), (&v["total"], &v["first_guess"]));
    // Another first guess (1111, code 0: its parts are not in the file), another cost at the
    // root or at a smaller set: each is refused as bad input, naming the entry.
    let small = saved["entries"].as_array().unwrap().iter().rposition(|e| e["set"].as_array().unwrap().len() >= 6);
    let small = small.expect("some smaller set is saved");
    let small_cost = saved["entries"][small]["cost"].as_u64().unwrap();
    let edits = [
        (root, "guess", serde_json::json!(0)),
        (root, "cost", serde_json::json!(5600)),
        (small, "cost", serde_json::json!(small_cost + 1)),
    ];
    for (entry, field, value) in edits {
        let mut edited = saved.clone();
        edited["entries"][entry][field] = value;
        std::fs::write(&ckpt, serde_json::to_vec(&edited).unwrap()).unwrap();
        let out = mmtree(&["optimal", "-n", "4", "-k", "6", "--checkpoint", c, "-q"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{field} of entry {entry}: {err}");
        assert!(err.contains(&format!("checkpoint entry {entry} is refused")), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_node_limit_reports_a_repeatable_bracket_and_a_verified_tree() {
    let dir = scratch("anytime");
    let path = dir.path().join("best.mmt");
    let p = path.to_str().unwrap();
    let args = ["optimal", "-n", "4", "-k", "6", "--node-limit", "200", "--format", "json", "-q", "-o", p];
    let v = json(&args);
    // Koyama & Lai 1993: the optimum is 5625.
    let (lower, upper) = (v["lower_bound"].as_u64().unwrap(), v["upper_bound"].as_u64().unwrap());
    assert!(lower <= 5625 && 5625 < upper, "{v}");
    assert_eq!(
        (v["exact"].as_bool(), &v["total"], v["valuation"].as_str()),
        (Some(false), &v["upper_bound"], Some("anytime-average"))
    );
    let checked = mmtree(&["verify", p, "--format", "json"]);
    assert!(checked.status.success(), "{}", String::from_utf8_lossy(&checked.stderr));
    let stats = json(&["stats", p, "--format", "json"]);
    assert_eq!(stats["total"].as_u64(), Some(upper));
    assert_eq!(json(&args), v, "a node limit gives the same bracket every time");
    // Enough room: exact, both bounds the optimum; the Markdown table says nothing more.
    let v = json(&["optimal", "-n", "4", "-k", "6", "--time-limit", "600", "--format", "json", "-q"]);
    assert_eq!(
        (v["lower_bound"].as_u64(), v["upper_bound"].as_u64(), v["exact"].as_bool()),
        (Some(5625), Some(5625), Some(true))
    );
    let out = mmtree(&["optimal", "-n", "4", "-k", "6", "--node-limit", "200", "-q"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("lower bound {lower}, upper bound {upper}")));
    for bad in [["--time-limit", "0"], ["--node-limit", "0"], ["--table-memory", "lots"]] {
        let out = mmtree(&["optimal", "-n", "4", "-k", "6", bad[0], bad[1], "-q"]);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
}
