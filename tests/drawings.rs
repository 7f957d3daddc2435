//! The thesis's figures through the `mmtree` binary: the [2,2] tree labelled by rounds with
//! winning edges, the successors of the [2,2] start, the [1,2] multigraph of states, the parts
//! of H(2,2) with their codes (`advise --codes`), first-guess values in full precision, the
//! sweep plots, and the bad input of `dot`, `states` and `html`.
//!
//! Expected figures are written out by hand from the definitions (successor `K(u,r)`, states
//! as sequences of rounds) or recomputed here with the literal scorer, never taken from
//! mmtree's output.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use mmtree::core::{score_reference, Alphabet, Code, Game, GameSpec};
use tempfile::TempDir;

fn mmtree(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mmtree")).args(args).output().expect("run mmtree")
}

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A fresh directory per test, removed when dropped (also after a failed assertion).
fn tempdir(name: &str) -> TempDir {
    tempfile::Builder::new().prefix(&format!("mmtree-drawings-{name}-")).tempdir().expect("scratch directory")
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn save_minimax(dir: &Path, n: u8, k: u8) -> PathBuf {
    let path = dir.join(format!("m{n}{k}.mmt"));
    let (n, k) = (n.to_string(), k.to_string());
    stdout(&mmtree(&["solve", "-n", &n, "-k", &k, "--valuation", "minimax", "-o", p(&path), "-q"]));
    path
}

/// `(label, shape)` of each node and `(from label, edge label, to label)` of each edge of a
/// DOT text as petgraph writes it.
fn parse_dot(text: &str) -> (Vec<String>, Vec<(String, String, String)>) {
    let label =
        |line: &str| line.split("label = \"").nth(1).and_then(|s| s.split('"').next()).unwrap_or("").to_string();
    let mut nodes = Vec::new();
    let mut edges = Vec::new();
    for line in text.lines().map(str::trim) {
        let id = line.split_whitespace().next().unwrap_or("");
        if id.parse::<usize>().is_err() {
            continue;
        }
        if let Some((from, rest)) = line.split_once(" -> ") {
            let to: usize = rest.split_whitespace().next().unwrap().parse().unwrap();
            edges.push((from.parse::<usize>().unwrap(), label(line), to));
        } else {
            nodes.push(label(line));
        }
    }
    let edges = edges.into_iter().map(|(a, l, b)| (nodes[a].clone(), l, nodes[b].clone())).collect();
    (nodes, edges)
}

/// The [2,2] Min-max tree (root 11; (0,0) leaves {22}, (1,0) leaves {12, 21} where 12 is
/// played, (2,0) wins) with every state named by its rounds and every win drawn as an edge:
/// 8 states, 7 edges.
#[test]
fn two_two_tree_by_rounds_with_winning_edges() {
    let dir = tempdir("rounds");
    let path = save_minimax(dir.path(), 2, 2);
    let text = stdout(&mmtree(&["dot", p(&path), "--labels", "rounds", "--win-edges"]));
    let (nodes, edges) = parse_dot(&text);
    let expected_nodes: BTreeSet<&str> = [
        "()",
        "((11,(0,0)))",
        "((11,(0,0)),(22,(2,0)))",
        "((11,(1,0)))",
        "((11,(1,0)),(12,(0,2)))",
        "((11,(1,0)),(12,(0,2)),(21,(2,0)))",
        "((11,(1,0)),(12,(2,0)))",
        "((11,(2,0)))",
    ]
    .into();
    assert_eq!(nodes.iter().map(String::as_str).collect::<BTreeSet<_>>(), expected_nodes);
    assert_eq!((nodes.len(), edges.len()), (8, 7));
    // Each edge extends its source's rounds by exactly the round on its label.
    for (from, label, to) in &edges {
        let (guess, feedback) = label.split_once(", ").unwrap();
        let round = format!("({guess},{feedback})");
        let expected = match from.as_str() {
            "()" => format!("({round})"),
            _ => format!("{},{round})", &from[..from.len() - 1]),
        };
        assert_eq!(to, &expected, "{from} -[{label}]-> {to}");
    }
    // The four wins are the four leaves, doubly outlined.
    assert_eq!(text.matches("peripheries = 2").count(), 4);

    // Without winning edges a solved state {22} is one node: 6 nodes, 5 edges (as before).
    let (nodes, edges) = parse_dot(&stdout(&mmtree(&["dot", p(&path), "--labels", "rounds"])));
    assert_eq!((nodes.len(), edges.len()), (6, 5));
    // Sizes only: the root has 4 candidates and plays 11; edges carry the feedback alone.
    let (nodes, edges) = parse_dot(&stdout(&mmtree(&["dot", p(&path), "--labels", "size", "--rankdir", "LR"])));
    assert_eq!(nodes[0], "4: 11");
    assert!(edges.iter().all(|(_, l, _)| l.starts_with('(')), "{edges:?}");
}

fn two_two() -> (Game, Vec<Code>) {
    let game = Game::new(GameSpec::mastermind(2, 2)).unwrap();
    let abc = Alphabet::default();
    let codes = ["11", "12", "21", "22"].iter().map(|c| abc.parse(&game, c).unwrap()).collect();
    (game, codes)
}

/// The start of [2,2] has 16 successors: 4 guesses times the 4 feedbacks of the game ((0,1)
/// never occurs when k = 2, w being even), 4 of them empty, each `K(u,r)` as the scorer says.
#[test]
fn every_successor_of_the_two_two_start() {
    let json: serde_json::Value = serde_json::from_str(&stdout(&mmtree(&[
        "states",
        "-n",
        "2",
        "-k",
        "2",
        "--include-empty",
        "--format",
        "json",
    ])))
    .unwrap();
    let states = json["states"].as_array().unwrap();
    let codes_of = |id: &serde_json::Value| -> Vec<String> {
        states[id.as_u64().unwrap() as usize]["codes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect()
    };
    let from_start: Vec<&serde_json::Value> =
        json["edges"].as_array().unwrap().iter().filter(|e| e["from"] == 0).collect();
    assert_eq!(from_start.len(), 16);
    assert_eq!(codes_of(&states[0]["id"]), ["11", "12", "21", "22"]);
    let (game, codes) = two_two();
    let abc = Alphabet::default();
    let mut seen = BTreeSet::new();
    for e in &from_start {
        let guess = abc.parse(&game, e["guess"].as_str().unwrap()).unwrap();
        let feedback = e["feedback"].as_str().unwrap().to_string();
        let expected: Vec<String> = codes
            .iter()
            .filter(|c| score_reference(&game, &guess, c).to_string() == feedback)
            .map(|c| abc.format(c))
            .collect();
        assert_eq!(codes_of(&e["to"]), expected, "{e}");
        seen.insert((abc.format(&guess), feedback));
    }
    let feedbacks = ["(0,0)", "(0,2)", "(1,0)", "(2,0)"];
    let all: BTreeSet<(String, String)> = ["11", "12", "21", "22"]
        .iter()
        .flat_map(|g| feedbacks.iter().map(move |f| (g.to_string(), f.to_string())))
        .collect();
    assert_eq!(seen, all);
    assert_eq!(from_start.iter().filter(|e| codes_of(&e["to"]).is_empty()).count(), 4);
    // Without empty successors: 12, as in the thesis's figure of the successors of H(2,2).
    let dot = stdout(&mmtree(&["states", "-n", "2", "-k", "2", "--max-depth", "1"]));
    let (nodes, edges) = parse_dot(&dot);
    assert_eq!((nodes.len(), edges.len()), (13, 12));
}

/// The [1,2] multigraph: states {1, 2}, {1}, {2}; from the start each guess splits; in each
/// singleton both guesses learn nothing, so each has two self-loops.
#[test]
fn one_two_multigraph_has_the_thesis_loops() {
    let text = stdout(&mmtree(&["states", "-n", "1", "-k", "2", "--merge-equal"]));
    let (nodes, edges) = parse_dot(&text);
    assert_eq!(nodes.iter().map(String::as_str).collect::<BTreeSet<_>>(), ["{1, 2}", "{1}", "{2}"].into());
    assert_eq!(nodes.len(), 3);
    let edge = |a: &str, l: &str, b: &str| (a.to_string(), l.to_string(), b.to_string());
    let expected: BTreeSet<_> = [
        edge("{1, 2}", "1, (0,0)", "{2}"),
        edge("{1, 2}", "1, (1,0)", "{1}"),
        edge("{1, 2}", "2, (0,0)", "{1}"),
        edge("{1, 2}", "2, (1,0)", "{2}"),
        edge("{1}", "1, (1,0)", "{1}"),
        edge("{1}", "2, (0,0)", "{1}"),
        edge("{2}", "1, (0,0)", "{2}"),
        edge("{2}", "2, (1,0)", "{2}"),
    ]
    .into();
    assert_eq!(edges.iter().cloned().collect::<BTreeSet<_>>(), expected);
    assert_eq!(edges.len(), 8);
    // Unmerged, the same sets and loops, each successor of the start its own node.
    let (nodes, edges) = parse_dot(&stdout(&mmtree(&["states", "-n", "1", "-k", "2"])));
    assert_eq!(nodes.len(), 5);
    assert_eq!(edges.iter().filter(|(a, _, b)| a == b).count(), 8);
    // The empty state joins with --include-empty: one (1,0) or (0,0) edge per guess and singleton.
    let json: serde_json::Value = serde_json::from_str(&stdout(&mmtree(&[
        "states",
        "-n",
        "1",
        "-k",
        "2",
        "--merge-equal",
        "--include-empty",
        "--format",
        "json",
    ])))
    .unwrap();
    assert_eq!(json["states"].as_array().unwrap().len(), 4);
    assert_eq!(json["edges"].as_array().unwrap().iter().filter(|e| e["loop"] == true).count(), 4);
    assert_eq!(json["edges"].as_array().unwrap().len(), 12);
}

/// The parts of H(2,2) under each first guess, with their codes, as the scorer splits them.
#[test]
fn advise_lists_the_codes_of_each_part() {
    let json: serde_json::Value = serde_json::from_str(&stdout(&mmtree(&[
        "advise",
        "-n",
        "2",
        "-k",
        "2",
        "--valuation",
        "minimax",
        "--top",
        "4",
        "--codes",
        "--format",
        "json",
    ])))
    .unwrap();
    let guesses = json["advice"][0]["guesses"].as_array().unwrap();
    assert_eq!(guesses.len(), 4);
    let (game, codes) = two_two();
    let abc = Alphabet::default();
    for g in guesses {
        let guess = abc.parse(&game, g["guess"].as_str().unwrap()).unwrap();
        for part in g["partition"].as_array().unwrap() {
            let expected: Vec<String> = codes
                .iter()
                .filter(|c| score_reference(&game, &guess, c).to_string() == part["feedback"].as_str().unwrap())
                .map(|c| abc.format(c))
                .collect();
            assert_eq!(part["codes"], serde_json::json!(expected), "{g}");
            assert_eq!(part["size"], expected.len());
        }
    }
    let md = stdout(&mmtree(&["advise", "-n", "2", "-k", "2", "--valuation", "minimax", "--top", "4", "--codes"]));
    assert!(md.contains("| 11 | yes | 2 | 3 | (0,0):1 {22} (1,0):2 {12 21} (2,0):1 {11} |"), "{md}");
    // Without --codes the JSON parts have no codes key.
    let plain = stdout(&mmtree(&["advise", "-n", "2", "-k", "2", "--format", "json"]));
    assert!(!plain.contains("\"codes\""));
}

/// `first-guesses --format json` keeps full precision; Markdown rounds.
#[test]
fn first_guess_values_in_full_precision() {
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&mmtree(&["first-guesses", "-n", "3", "-k", "3", "--format", "json", "-q"])))
            .unwrap();
    let game = Game::new(GameSpec::mastermind(3, 3)).unwrap();
    let abc = Alphabet::default();
    let all: Vec<Code> =
        (0..27u32).map(|i| Code::from_colours(&[(i / 9) as u8, (i / 3 % 3) as u8, (i % 3) as u8]).unwrap()).collect();
    for row in json[0]["rows"].as_array().unwrap() {
        let guess = abc.parse(&game, row["first_guess"].as_str().unwrap()).unwrap();
        let mut parts = std::collections::BTreeMap::new();
        for c in &all {
            *parts.entry(score_reference(&game, &guess, c)).or_insert(0u32) += 1;
        }
        let (entropy, expected_size) = parts.values().fold((0.0, 0.0), |(h, e), &s| {
            let p = f64::from(s) / 27.0;
            (h - p * p.log2(), e + f64::from(s) * p)
        });
        assert!((row["entropy"].as_f64().unwrap() - entropy).abs() < 1e-12, "{row}");
        assert!((row["expected_size"].as_f64().unwrap() - expected_size).abs() < 1e-12, "{row}");
    }
    for row in json[2]["rows"].as_array().unwrap() {
        assert_eq!(row["average"].as_f64().unwrap(), row["total"].as_u64().unwrap() as f64 / 27.0, "{row}");
    }
    // CSV too: 112 splits H(3,3) into parts 6,6,4,4,3,2,1,1, so its expected size is 119/27.
    let csv = stdout(&mmtree(&["first-guesses", "-n", "3", "-k", "3", "--format", "csv", "-q"]));
    let line = csv.lines().find(|l| l.starts_with("112,")).unwrap();
    let fields: Vec<&str> = line.split(',').collect();
    assert_eq!(fields[2].parse::<f64>().unwrap(), 119.0 / 27.0, "{line}");
    assert!(fields[3].len() > 10, "entropy in full precision: {line}");
    let md = stdout(&mmtree(&["first-guesses", "-n", "3", "-k", "3", "-q"]));
    assert!(md.contains("| 112 | 6 | 4.41 | 2.76 | 8 |"), "{md}");
}

/// Texts of `<text>` elements of an SVG.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| t.split_once('>'))
        .map(|(_, rest)| rest.split("</text>").next().unwrap_or("").trim().to_string())
        .collect()
}

/// The three sweep plots: the winners grid names, per game, the rules of least total in the
/// sweep's own table; excess and average have their axes and one legend beside the panels.
#[test]
fn sweep_plots_of_each_kind() {
    let dir = tempdir("plots");
    let csv = dir.path().join("sweep.csv");
    let svg = |kind: &str| dir.path().join(format!("{kind}.svg"));
    for kind in ["excess", "average", "winners"] {
        let file = svg(kind);
        let mut args = vec!["sweep", "-n", "2..=3", "-k", "2..=4", "-q", "--format", "csv", "-o", p(&csv)];
        args.extend(["--plot", p(&file), "--plot-kind", kind]);
        stdout(&mmtree(&args));
    }
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().skip(1).map(|l| l.split(',').collect()).collect();
    let texts = svg_texts(&std::fs::read_to_string(svg("winners")).unwrap());
    let short = |v: &str| match v {
        "minimax" => "M",
        "expected-size" => "ES",
        "entropy" => "E",
        "most-parts" => "MP",
        other => panic!("unexpected valuation {other}"),
    };
    for name in ["M  minimax", "ES  expected-size", "E  entropy", "MP  most-parts"] {
        assert!(texts.iter().any(|t| t == name), "legend entry {name}: {texts:?}");
    }
    let mut cells = texts.iter().filter(|t| t.contains('=') || t.as_str() == "all tie" || t.len() <= 2);
    for n in ["2", "3"] {
        for k in ["2", "3", "4"] {
            let game: Vec<&Vec<&str>> = rows.iter().filter(|r| r[0] == n && r[1] == k).collect();
            let least = game.iter().map(|r| r[9].parse::<u64>().unwrap()).min().unwrap();
            let winners: Vec<&str> = game.iter().filter(|r| r[9] == least.to_string()).map(|r| short(r[4])).collect();
            let expected = if winners.len() == game.len() { "all tie".to_string() } else { winners.join("=") };
            let cell = cells.find(|t| !["2", "3", "4", "n"].contains(&t.as_str())).unwrap();
            assert_eq!(cell, &expected, "[{n},{k}]");
        }
    }
    let excess = svg_texts(&std::fs::read_to_string(svg("excess")).unwrap());
    assert!(excess.iter().any(|t| t == "average − best average of the game"), "{excess:?}");
    let average = std::fs::read_to_string(svg("average")).unwrap();
    assert!(svg_texts(&average).iter().any(|t| t == "average guesses"));
    // The legend stands right of the panels: its texts start beyond the last panel.
    let legend_x: Vec<f64> = average
        .split("<text")
        .filter(|t| t.contains(">\nentropy\n<") || t.contains(">entropy<"))
        .filter_map(|t| t.split("x=\"").nth(1)?.split('"').next()?.parse().ok())
        .collect();
    assert!(!legend_x.is_empty() && legend_x.iter().all(|&x| x > 2.0 * 560.0), "{legend_x:?}");
    // Lines differ in dash pattern too (grey print): some series are dashed.
    assert!(average.contains("stroke-dasharray"));
}

fn refused(args: &[&str], needle: &str) {
    let out = mmtree(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    // mmtree's own refusals are one line; clap's (a bad flag or value) are its whole message.
    if !err.starts_with("error: ") {
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    assert!(err.contains(needle), "expected '{needle}' in {err}");
}

#[test]
fn bad_input_is_one_line_and_exit_two() {
    let dir = tempdir("bad");
    let path = save_minimax(dir.path(), 2, 2);
    refused(&["dot", p(&path), "--labels", "colours"], "invalid value 'colours' for '--labels");
    refused(&["dot", p(&path), "--rankdir", "UP"], "--rankdir");
    refused(&["states", "-n", "4", "-k", "6"], "[4,6] has 1296 codes");
    refused(&["states", "-n", "3", "-k", "3"], "too many to draw");
    refused(&["states", "-n", "10", "-k", "35"], "codes");
    refused(&["sweep", "-n", "2", "-k", "2", "--plot", "x.svg", "--plot-kind", "pie"], "--plot-kind");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    let corrupt = dir.path().join("corrupt.mmt");
    std::fs::write(&corrupt, bytes).unwrap();
    refused(&["dot", p(&corrupt), "--labels", "rounds"], "checksum mismatch");
    let page = dir.path().join("tree.html");
    refused(&["html", p(&corrupt), "-o", p(&page)], "checksum mismatch");
    assert!(!page.exists(), "nothing written for a corrupt file");
    refused(&["html", p(&path), "-o", p(&dir.path().join("no-such-dir").join("t.html"))], "does not exist");
    let html = dir.path().join("m22.html");
    refused(&["html", p(&path), "-o", p(&path)], "names the same file as the tree file");
    // Without -o the page goes beside the tree file.
    stdout(&mmtree(&["html", p(&path)]));
    assert!(std::fs::read_to_string(&html).unwrap().starts_with("<!DOCTYPE html>"));
}
