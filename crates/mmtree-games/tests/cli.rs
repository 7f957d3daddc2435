//! The `games` subcommands as the main binary will call them.

use clap::Parser;
use mmtree_games::{run, GamesCommand, GamesError};
use tempfile::TempDir;

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    cmd: GamesCommand,
}

fn parse(args: &[&str]) -> GamesCommand {
    let mut argv = vec!["games"];
    argv.extend_from_slice(args);
    Cli::try_parse_from(argv).unwrap().cmd
}

fn output(args: &[&str]) -> Result<String, GamesError> {
    let mut out = Vec::new();
    run(&parse(args), &mut out)?;
    Ok(String::from_utf8(out).unwrap())
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&output(args).unwrap()).unwrap()
}

/// A file in a fresh directory, with the directory: the file lasts as long as the directory,
/// which is removed when dropped (also after a failed assertion).
fn temp_file(name: &str, contents: &str) -> (TempDir, std::path::PathBuf) {
    let dir = tempfile::Builder::new().prefix("mmtree-games-test-").tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, contents).unwrap();
    (dir, path)
}

#[test]
fn subtraction_in_all_formats() {
    let md = output(&["subtraction", "--moves", "1,2,3", "--up-to", "30"]).unwrap();
    assert!(md.contains("Subtraction game S = {1, 2, 3}"), "{md}");
    assert!(md.contains("P-positions (g = 0): 0, 4, 8, 12, 16, 20, 24, 28"));
    assert!(md.contains("| 28 | 0 | 1 | 2 | |"), "{md}");
    assert!(md.contains("period 4 from n = 0"), "{md}");
    let csv = output(&["subtraction", "--moves", "1,2,3", "--format", "csv"]).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "n,sg,outcome");
    assert_eq!(lines.len(), 32);
    assert_eq!(lines[31], "30,2,N");
    let j = json(&["subtraction", "--moves", "3,1,2", "--format", "json"]);
    assert_eq!(j["moves"], serde_json::json!([1, 2, 3]));
    let values: Vec<u64> = serde_json::from_value(j["values"].clone()).unwrap();
    assert_eq!(values, (0..=30).map(|x| x % 4).collect::<Vec<u64>>());
    assert_eq!(j["periodicity"]["period"], 4);
    assert_eq!(j["periodicity"]["proved"], true);
}

#[test]
fn subtraction_rejects_bad_move_sets() {
    assert!(matches!(output(&["subtraction"]), Err(GamesError::EmptyMoveSet)));
    assert!(matches!(output(&["subtraction", "--moves", "0,1"]), Err(GamesError::ZeroMove)));
    assert!(matches!(
        output(&["subtraction", "--moves", "1", "--up-to", "100000000"]),
        Err(GamesError::TooLarge { .. })
    ));
}

#[test]
fn nim_in_all_formats() {
    let md = output(&["nim", "5", "7", "9"]).unwrap();
    assert!(md.contains("5 ⊕ 7 ⊕ 9 = 11 (binary 1011)"), "{md}");
    assert!(md.contains("N-position"));
    assert!(md.contains("| 3 | 9 | 2 | 7 |"), "{md}");
    let csv = output(&["nim", "1", "2", "3", "--format", "csv"]).unwrap();
    assert_eq!(csv, "heaps,rule,nim_sum,outcome,heap,from,to,take\n1 2 3,normal,0,P,,,,\n");
    let j = json(&["nim", "3", "5", "7", "--format", "json"]);
    assert_eq!(j["nim_sum"], 1);
    assert_eq!(j["outcome"], "N");
    assert_eq!(j["winning_moves"].as_array().unwrap().len(), 3);
}

#[test]
fn nim_misere() {
    let j = json(&["nim", "1", "1", "1", "--misere", "--format", "json"]);
    assert_eq!(j["rule"], "misere");
    assert_eq!(j["outcome"], "P");
    let j = json(&["nim", "1", "1", "3", "--misere", "--format", "json"]);
    assert_eq!(j["outcome"], "N");
    assert_eq!(j["winning_moves"], serde_json::json!([{"heap": 3, "from": 3, "to": 1, "take": 2}]));
    let md = output(&["nim", "2", "2", "--misere"]).unwrap();
    assert!(md.contains("misère"), "{md}");
    assert!(md.contains("P-position"), "{md}");
}

#[test]
fn octal_kayles_and_dawson() {
    let md = output(&["octal", "0.77", "--up-to", "200"]).unwrap();
    assert!(md.contains("Octal game 0.77 (Kayles)"), "{md}");
    assert!(md.contains("period 12 from n = 71 (last exceptional value at n = 70); proved"), "{md}");
    assert!(md.contains("| 72 | 4 | 1 | 2 | 8 | 1 | 4 | 7 | 2 | 1 | 8 | 2 | 7 |"), "{md}");
    // Too short to prove: reported as observed, with the --up-to that would prove it.
    let md = output(&["octal", "0.77", "--up-to", "100"]).unwrap();
    assert!(md.contains("observed in the computed range only"), "{md}");
    assert!(md.contains("--up-to 167"), "{md}");
    let j = json(&["octal", ".07", "--up-to", "200", "--format", "json"]);
    assert_eq!(j["name"], "Dawson's Kayles");
    assert_eq!(j["periodicity"]["period"], 34);
    assert_eq!(j["periodicity"]["last_exception"], 52);
    assert_eq!(j["periodicity"]["proved"], true);
    let csv = output(&["octal", "0.77", "--up-to", "5", "--format", "csv"]).unwrap();
    assert_eq!(csv, "n,sg,outcome\n0,0,P\n1,1,N\n2,2,N\n3,3,N\n4,1,N\n5,4,N\n");
}

#[test]
fn octal_rejects_malformed_codes() {
    for bad in ["0.78", "kayles", "1.7", "0."] {
        match output(&["octal", bad]) {
            Err(e @ GamesError::InvalidOctal { .. }) => {
                assert!(e.to_string().contains("malformed octal code"))
            }
            other => panic!("{bad}: {other:?}"),
        }
    }
    assert!(matches!(output(&["octal", "0.77", "--up-to", "1000000"]), Err(GamesError::TooLarge { .. })));
}

#[test]
fn graph_command() {
    let (_dir, path) = temp_file("g.dot", "digraph G { a -> b -> c; a -> c }\n");
    let p = path.to_str().unwrap();
    let md = output(&["graph", p]).unwrap();
    assert!(md.contains("| a | 2 | N | b, c |"), "{md}");
    assert!(md.contains("| c | 0 | P | (terminal) |"), "{md}");
    assert!(md.contains("```dot\ndigraph \"G\" {"), "{md}");
    let dot = output(&["graph", p, "--dot"]).unwrap();
    assert!(dot.contains(r#""b" [label="b\nSG=1 N"];"#), "{dot}");
    let csv = output(&["graph", p, "--format", "csv"]).unwrap();
    assert_eq!(csv, "node,sg,outcome\na,2,N\nb,1,N\nc,0,P\n");
    let j = json(&["graph", p, "--format", "json"]);
    assert_eq!(j["nodes"][0]["id"], "a");
    assert_eq!(j["nodes"][0]["sg"], 2);
    assert!(j["dot"].as_str().unwrap().contains("SG=0 P"));
}

#[test]
fn graph_command_errors() {
    let missing = output(&["graph", "/nonexistent/game.dot"]).unwrap_err();
    assert!(matches!(missing, GamesError::Read { .. }));
    assert!(missing.to_string().contains("/nonexistent/game.dot"));
    let (_cyclic_dir, cyclic) = temp_file("cyclic.dot", "digraph { a -> b -> a }");
    let e = output(&["graph", cyclic.to_str().unwrap()]).unwrap_err();
    assert!(matches!(e, GamesError::Cycle { .. }), "{e}");
    let (_bad_dir, bad) = temp_file("bad.dot", "digraph { a -> ");
    let e = output(&["graph", bad.to_str().unwrap()]).unwrap_err();
    assert!(matches!(e, GamesError::Dot { .. }), "{e}");
}

#[test]
fn clap_flags_are_as_documented() {
    assert!(Cli::try_parse_from(["games", "nim"]).is_err()); // heaps required
    assert!(Cli::try_parse_from(["games", "nim", "1", "--format", "xml"]).is_err());
    assert!(Cli::try_parse_from(["games", "subtraction", "--moves", "1,x"]).is_err());
    let cmd = parse(&["octal", "0.07", "--up-to", "50", "--format", "json"]);
    assert!(matches!(cmd, GamesCommand::Octal { up_to: 50, .. }));
}
