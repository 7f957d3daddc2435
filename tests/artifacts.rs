//! Strategy trees as artifacts, end to end through the `mmtree` binary: save, stats, verify,
//! trace, dot, export, and every kind of bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use mmtree::core::{score_reference, Alphabet, Game, GameSpec};
use tempfile::TempDir;

fn mmtree(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mmtree")).args(args).output().expect("run mmtree")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A fresh directory per test, removed when dropped (also after a failed assertion).
fn tempdir(name: &str) -> TempDir {
    tempfile::Builder::new().prefix(&format!("mmtree-artifacts-{name}-")).tempdir().expect("scratch directory")
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Saves the [n,k] Min-max tree with --self-check and returns its path.
fn save(dir: &Path, n: u8, k: u8) -> PathBuf {
    let path = dir.join(format!("m{n}{k}.mmt"));
    let out = mmtree(&[
        "solve",
        "-n",
        &n.to_string(),
        "-k",
        &k.to_string(),
        "--valuation",
        "minimax",
        "-o",
        p(&path),
        "--self-check",
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    path
}

/// A failure: exit 1 or 2, one line on stderr, no panic.
fn assert_clean_error(out: &Output, code: i32, needle: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line expected: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(needle), "expected '{needle}' in: {err}");
}

#[test]
fn stats_reads_the_same_figures_and_keys_as_solve() {
    let dir = tempdir("stats");
    let path = dir.path().join("knuth.mmt");
    let solve = mmtree(&["solve", "-n", "4", "-k", "6", "--format", "json", "-o", p(&path)]);
    assert!(solve.status.success(), "{}", stderr(&solve));
    let stats = mmtree(&["stats", p(&path), "--format", "json"]);
    assert!(stats.status.success(), "{}", stderr(&stats));
    let a: serde_json::Value = serde_json::from_str(&stdout(&solve)).unwrap();
    let b: serde_json::Value = serde_json::from_str(&stdout(&stats)).unwrap();
    assert_eq!(a, b);
    // Knuth 1977.
    assert_eq!(
        (b["max"].as_u64(), b["total"].as_u64(), b["first_guess"].as_str()),
        (Some(5), Some(5801), Some("1122"))
    );
    let keys: Vec<&String> = b.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 12);
    let md = mmtree(&["stats", p(&path)]);
    assert!(stdout(&md).contains("| 5801 |"), "{}", stdout(&md));
}

#[test]
fn verify_accepts_real_trees_and_names_violations() {
    let dir = tempdir("verify");
    let path = save(dir.path(), 4, 6);
    let ok = mmtree(&["verify", p(&path), "--format", "json"]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    let v: serde_json::Value = serde_json::from_str(&stdout(&ok)).unwrap();
    assert_eq!(v["total"], 5801);

    // Alter a recorded figure (with a valid checksum): verify exits 1 naming it.
    let mut file = mmtree::io::TreeFile::read(&path, mmtree::core::MemoryLimit(1 << 30)).unwrap();
    file.header.stats.total = 5800;
    let bad = dir.path().join("bad.mmt");
    file.write(&bad).unwrap();
    let out = mmtree(&["verify", p(&bad)]);
    assert_clean_error(&out, 1, "header figure 'total': expected 5801, found 5800 recorded");
    // stats trusts the header (it does not recompute); verify is the check.
    assert!(stdout(&mmtree(&["stats", p(&bad)])).contains("| 5800 |"));
}

#[test]
fn trace_from_file_and_from_rule_agree_and_follow_the_rules() {
    let dir = tempdir("trace");
    let path = save(dir.path(), 4, 6);
    let from_file = mmtree(&["trace", p(&path), "--secret", "5463", "--format", "json"]);
    let from_rule =
        mmtree(&["trace", "-n", "4", "-k", "6", "--valuation", "minimax", "--secret", "5463", "--format", "json"]);
    assert!(from_file.status.success(), "{}", stderr(&from_file));
    assert!(from_rule.status.success(), "{}", stderr(&from_rule));
    let rows = |out: &Output| -> Vec<Vec<String>> {
        let v: serde_json::Value = serde_json::from_str(&stdout(out)).unwrap();
        v.as_array()
            .unwrap()
            .iter()
            .map(|r| {
                ["round", "guess", "feedback", "left"]
                    .iter()
                    .map(|k| r[k].as_str().map(str::to_string).unwrap_or_else(|| r[k].to_string()))
                    .collect()
            })
            .collect()
    };
    let rows_file = rows(&from_file);
    assert_eq!(rows_file, rows(&from_rule));
    // Independent check with the literal scorer: each feedback, and each count of codes
    // consistent with every round so far.
    let game = Game::new(GameSpec::mastermind(4, 6)).unwrap();
    let abc = Alphabet::default();
    let secret = abc.parse(&game, "5463").unwrap();
    let all: Vec<_> = (0..1296u32)
        .map(|i| {
            let pegs: Vec<u8> = (0..4).rev().map(|j| ((i / 6u32.pow(j)) % 6) as u8).collect();
            mmtree::core::Code::from_colours(&pegs).unwrap()
        })
        .collect();
    let mut left = all.clone();
    assert_eq!(rows_file[0][1], "1122");
    assert!(rows_file.len() <= 5, "Knuth's tree needs at most 5 guesses");
    for row in &rows_file {
        let guess = abc.parse(&game, &row[1]).unwrap();
        let fb = score_reference(&game, &guess, &secret);
        assert_eq!(row[2], fb.to_string(), "{row:?}");
        left.retain(|c| score_reference(&game, &guess, c) == fb);
        assert_eq!(row[3], left.len().to_string(), "{row:?}");
    }
    assert_eq!(rows_file.last().unwrap()[2], "(4,0)");
}

#[test]
fn dot_draws_the_thesis_figure_for_two_two() {
    let dir = tempdir("dot");
    let path = save(dir.path(), 2, 2);
    let out = mmtree(&["dot", p(&path)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // Node ids are preorder: 0 root, 1 {22}, 2 {12, 21}, 3 {21}, 4 leaf 12, 5 leaf 11.
    for line in [
        r#"0 [ label = "{11, 12, 21, 22}\l11""#,
        r#"1 [ label = "{22}\l22""#,
        r#"2 [ label = "{12, 21}\l12""#,
        r#"3 [ label = "{21}\l21""#,
        r#"4 [ label = "12""#,
        r#"5 [ label = "11""#,
        r#"0 -> 1 [ label = "11, (0,0)" ]"#,
        r#"0 -> 2 [ label = "11, (1,0)" ]"#,
        r#"2 -> 3 [ label = "12, (0,2)" ]"#,
        r#"2 -> 4 [ label = "12, (2,0)" ]"#,
        r#"0 -> 5 [ label = "11, (2,0)" ]"#,
    ] {
        assert!(text.contains(line), "missing {line} in\n{text}");
    }
    assert_eq!(text.matches(" -> ").count(), 5);
}

#[test]
fn dot_renders_svg_with_graphviz() {
    let have_dot = Command::new("dot").arg("-V").output().is_ok();
    if !have_dot {
        assert!(std::env::var_os("CI").is_none(), "CI must install Graphviz (`dot` not found)");
        eprintln!("skipping dot_renders_svg_with_graphviz: Graphviz `dot` is not installed");
        return;
    }
    let dir = tempdir("svg");
    for (n, k, depth) in [(2u8, 2u8, None), (3, 3, None), (4, 6, Some("2"))] {
        let path = save(dir.path(), n, k);
        let svg = dir.path().join(format!("m{n}{k}.svg"));
        let mut args = vec!["dot", p(&path), "--render", "svg", "-o", p(&svg)];
        if let Some(d) = depth {
            args.extend(["--max-depth", d]);
        }
        let out = mmtree(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(text.contains("<svg") && text.contains("</svg>"), "[{n},{k}] is not an SVG");
        if depth.is_some() {
            assert!(text.contains("secrets, depth ≤"), "the cut [4,6] drawing has summary nodes");
        }
    }
}

#[test]
fn render_without_graphviz_says_so() {
    let dir = tempdir("nodot");
    let path = save(dir.path(), 2, 2);
    let svg = dir.path().join("x.svg");
    let out = Command::new(env!("CARGO_BIN_EXE_mmtree"))
        .args(["dot", p(&path), "--render", "svg", "-o", p(&svg)])
        .env("PATH", "")
        .output()
        .unwrap();
    assert_clean_error(&out, 1, "Graphviz");
    assert!(stderr(&out).contains("not installed"));
    assert!(!svg.exists());
}

#[test]
fn export_json_follows_the_schema() {
    let dir = tempdir("export");
    let path = save(dir.path(), 2, 2);
    let json_path = dir.path().join("t.json");
    let out = mmtree(&["export", p(&path), "--format", "json", "-o", p(&json_path)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    assert_eq!(v["format"], "mmtree-tree");
    assert_eq!(v["game"]["n"], 2);
    assert_eq!(v["rule"]["valuation"], "minimax");
    let root = &v["root"];
    assert_eq!((root["guess"].as_str(), root["candidates"].as_u64()), (Some("11"), Some(4)));
    let kids = root["children"].as_array().unwrap();
    assert_eq!(kids.len(), 3);
    assert_eq!(kids[0]["feedback"], serde_json::json!({"black": 0, "white": 0}));
    assert_eq!(kids[0]["node"]["guess"], "22");
    assert_eq!(kids[1]["node"]["guess"], "12");
    assert_eq!(kids[2]["node"]["secret"], "11");
}

#[test]
fn bad_files_are_one_line_errors() {
    let dir = tempdir("bad");
    let path = save(dir.path(), 3, 3);
    let good = std::fs::read(&path).unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let f = dir.path().join(name);
        std::fs::write(&f, bytes).unwrap();
        f
    };
    let truncated = write("truncated.mmt", &good[..good.len() / 2]);
    let mut flipped = good.clone();
    flipped[good.len() / 2] ^= 0x01;
    let flipped = write("flipped.mmt", &flipped);
    let mut magic = good.clone();
    magic[0] = b'X';
    let magic = write("magic.mmt", &magic);
    let mut newer = good.clone();
    newer[8] = 9;
    let newer = write("newer.mmt", &newer);
    let json = write("tree.json", b"{\"root\": {}}\n");
    let empty = write("empty.mmt", b"");
    for (file, needle) in [
        (&truncated, "truncated"),
        (&flipped, "checksum mismatch"),
        (&magic, "wrong magic"),
        (&newer, "format version 9 is not supported"),
        (&json, "not an mmtree tree file"),
        (&empty, "truncated"),
    ] {
        for cmd in ["stats", "verify", "dot", "export"] {
            let out = mmtree(&[cmd, p(file)]);
            assert_clean_error(&out, 2, needle);
            assert!(stderr(&out).contains(p(file)), "the file is named: {}", stderr(&out));
        }
        let out = mmtree(&["trace", p(file), "--secret", "123"]);
        assert_clean_error(&out, 2, needle);
    }
    let missing = dir.path().join("missing.mmt");
    assert_clean_error(&mmtree(&["stats", p(&missing)]), 2, "cannot read");
}

#[test]
fn bad_secrets_and_outputs_are_refused_and_nothing_is_half_written() {
    let dir = tempdir("inputs");
    let path = save(dir.path(), 3, 3);
    assert_clean_error(&mmtree(&["trace", p(&path), "--secret", "124"]), 2, "symbol '4'");
    assert_clean_error(&mmtree(&["trace", p(&path), "--secret", "12"]), 2, "has 2 symbols");
    assert_clean_error(&mmtree(&["trace", "-n", "4", "-k", "6", "--secret", "1127"]), 2, "symbol '7'");
    assert_clean_error(&mmtree(&["trace", "--secret", "1122"]), 2, "-n and -k");
    let nowhere = dir.path().join("no-such-dir").join("t.mmt");
    for args in [
        vec!["solve", "-n", "3", "-k", "3", "-o", p(&nowhere)],
        vec!["export", p(&path), "-o", p(&nowhere)],
        vec!["dot", p(&path), "-o", p(&nowhere)],
    ] {
        assert_clean_error(&mmtree(&args), 2, "does not exist");
    }
    // An existing output survives a failing command untouched, and a successful overwrite
    // leaves no temporary files behind.
    let existing = dir.path().join("existing.mmt");
    std::fs::write(&existing, b"keep me").unwrap();
    let out = mmtree(&["solve", "-n", "3", "-k", "3", "--first", "129", "-o", p(&existing)]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(&existing).unwrap(), b"keep me");
    let out = mmtree(&["solve", "-n", "3", "-k", "3", "-o", p(&existing), "--quiet"]);
    assert!(out.status.success());
    assert!(mmtree(&["verify", p(&existing)]).status.success());
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
}
