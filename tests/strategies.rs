//! End to end: the simple and look-ahead strategies on `solve`, the advisor, and a scripted
//! game piped into `play`.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use mmtree::core::{score_reference, Alphabet, Feedback, Game, GameSpec};

fn mmtree(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mmtree")).args(args).output().expect("run mmtree")
}

fn play(args: &[&str], input: &str) -> (String, i32) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mmtree"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run mmtree play");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write stdin");
    let out = child.wait_with_output().expect("wait");
    (String::from_utf8_lossy(&out.stdout).into_owned(), out.status.code().unwrap_or(-1))
}

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

#[test]
fn first_candidate_reproduces_shapiro() {
    let v = json(&mmtree(&["solve", "-n", "4", "-k", "6", "--valuation", "first-candidate", "--format", "json"]));
    assert_eq!(v["valuation"], "first-candidate");
    assert_eq!((v["total"].as_u64(), v["max"].as_u64()), (Some(7471), Some(9)));
    assert_eq!(v["first_guess"], "1111");
}

#[test]
fn lookahead_names_itself_and_never_loses_a_secret() {
    let v = json(&mmtree(&[
        "solve",
        "-n",
        "3",
        "-k",
        "4",
        "--valuation",
        "entropy",
        "--lookahead",
        "2",
        "--format",
        "json",
    ]));
    assert_eq!(v["valuation"], "entropy-lookahead-2");
    let histogram: u64 = v["histogram"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).sum();
    assert_eq!(histogram, 64);
}

#[test]
fn unsupported_combinations_exit_2_with_one_line() {
    for args in [
        &["solve", "-n", "3", "-k", "3", "--lookahead", "3"][..],
        &["solve", "-n", "3", "-k", "3", "--lookahead", "2", "--valuation", "human"],
        &["solve", "-n", "3", "-k", "3", "--lookahead", "2", "--valuation", "first-candidate"],
        &["solve", "-n", "3", "-k", "3", "--valuation", "human", "--ties", "largest"],
    ] {
        let out = mmtree(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1, "{args:?}");
    }
}

/// The [4,6] codes consistent with a history, by the literal scorer over every code.
fn consistent(history: &[(&str, (u8, u8))]) -> Vec<String> {
    let game = Game::new(GameSpec::mastermind(4, 6)).unwrap();
    let abc = Alphabet::default();
    let mut out = Vec::new();
    for i in 0..1296u32 {
        let digits: String = (0..4).rev().map(|p| char::from(b'1' + (i / 6u32.pow(p) % 6) as u8)).collect();
        let code = abc.parse(&game, &digits).unwrap();
        if history.iter().all(|(g, (b, w))| {
            score_reference(&game, &abc.parse(&game, g).unwrap(), &code) == Feedback { black: *b, white: *w }
        }) {
            out.push(digits);
        }
    }
    out
}

#[test]
fn advise_counts_the_candidates_of_a_history() {
    let expected = consistent(&[("1122", (1, 0)), ("1344", (0, 2))]);
    let v = json(&mmtree(&[
        "advise",
        "-n",
        "4",
        "-k",
        "6",
        "--history",
        "1122:1,0 1344:0,2",
        "--top",
        "3",
        "--format",
        "json",
    ]));
    assert_eq!(v["remaining"].as_u64(), Some(expected.len() as u64));
    let listed: Vec<String> = v["candidates"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().into()).collect();
    assert_eq!(listed, expected);
    let advice = v["advice"].as_array().unwrap();
    let names: Vec<&str> = advice.iter().map(|a| a["valuation"].as_str().unwrap()).collect();
    assert_eq!(names, ["minimax", "expected-size", "entropy", "most-parts", "first-candidate", "human"]);
    assert_eq!(advice[0]["guesses"].as_array().unwrap().len(), 3);
    // Each partition table sums to the candidates left.
    for a in advice {
        for g in a["guesses"].as_array().unwrap() {
            let sum: u64 = g["partition"].as_array().unwrap().iter().map(|p| p["size"].as_u64().unwrap()).sum();
            assert_eq!(sum, expected.len() as u64);
        }
    }
    assert_eq!(advice[4]["guesses"][0]["guess"], expected[0].as_str());
}

#[test]
fn advise_names_the_first_inconsistent_round() {
    let out = mmtree(&["advise", "-n", "4", "-k", "6", "--history", "1122:1,0 1122:4,0 1234:0,0"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("round is 2 '1122:4,0'"), "{err}");
    for bad in ["1122", "1122:1", "1122:x,0", "1129:1,0", "1122:3,1"] {
        let out = mmtree(&["advise", "-n", "4", "-k", "6", "--history", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("round 1"), "{bad}");
    }
    let black =
        json(&mmtree(&["advise", "-n", "3", "-k", "3", "--black-only", "--history", "123:1", "--format", "json"]));
    // Codes of [3,3] with exactly one position equal to 123: 3 * 2 * 2 = 12.
    assert_eq!(black["remaining"].as_u64(), Some(12));
}

#[test]
fn a_scripted_game_is_played_to_the_end() {
    let (out, code) = play(&["-n", "4", "-k", "6", "--secret", "1234"], "hello\n12\nhint\n1122\n\n1344\n1234\n");
    assert_eq!(code, 0);
    assert_eq!(out.matches("not a guess").count(), 2, "{out}");
    assert!(out.contains("hint: 1122"), "{out}");
    let after_one = consistent(&[("1122", (1, 1))]);
    assert!(out.contains(&format!("1122 (1,1): {} candidate(s) left", after_one.len())), "{out}");
    let after_two = consistent(&[("1122", (1, 1)), ("1344", (2, 1))]);
    assert!(after_two.len() <= 12);
    let listed = format!("1344 (2,1): {} candidate(s) left: {}", after_two.len(), after_two.join(" "));
    assert!(out.contains(&listed), "{out}");
    assert!(out.contains("solved in 3 guess(es)"), "{out}");
}

#[test]
fn quit_and_end_of_input_reveal_the_seeded_secret() {
    let (a, code_a) = play(&["-n", "4", "-k", "6", "--seed", "42"], "quit\n");
    let (b, code_b) = play(&["-n", "4", "-k", "6", "--seed", "42"], "1111\n");
    assert_eq!((code_a, code_b), (0, 0));
    let secret = |s: &str| s.rsplit("the secret was ").next().unwrap().trim().trim_end_matches('.').to_string();
    assert_eq!(secret(&a), secret(&b));
    assert!(a.contains("gave up") && b.contains("End of input"), "{a}\n{b}");
    let (won, _) = play(&["-n", "4", "-k", "6", "--seed", "42"], &format!("{}\n", secret(&a)));
    assert!(won.contains("solved in 1 guess(es)"), "{won}");
}
