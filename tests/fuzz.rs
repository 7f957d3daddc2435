//! A seeded mutation fuzzer over the files mmtree reads: tree files, sweep tables,
//! optimal-search checkpoints and DOT game graphs.
//!
//! Each input is a real file (written by the binary itself, or a small DOT graph) mutated a
//! few times: bits flipped, bytes replaced, inserted, deleted or duplicated, the file cut or
//! spliced with another, numbers replaced by extreme ones, control and non-UTF-8 bytes
//! inserted. Tree files get their checksum (and often their length field) repaired, so
//! mutations reach the decoder behind it. Every command that reads the kind of file runs on
//! it under an address-space limit (`ulimit -v`), and each run must:
//!
//! - exit 0, 1 or 2 (never a signal: no panic abort, no stack overflow, no failed
//!   allocation), within a time bound;
//! - print exactly one line on stderr when it exits 2, and never a Rust panic;
//! - leave its output file (and a checkpoint it reads) unchanged when it fails.
//!
//! `cargo test --profile ci --test fuzz` runs a small number of inputs; set
//! `MMTREE_FUZZ_INPUTS=5000` for a longer run and `MMTREE_FUZZ_SEED=n` for other inputs.
//! A failing input is kept in the temporary directory named in the panic message.
#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mmtree::io::fnv1a64;

const BIN: &str = env!("CARGO_BIN_EXE_mmtree");
/// Inputs of the default run (each runs 2 to 5 commands).
const DEFAULT_INPUTS: usize = 240;
/// Address-space limit of each run, in KiB (`ulimit -v`): far below the machine's memory,
/// so a bound that is missing shows as a failed allocation.
const ADDRESS_SPACE_KIB: u64 = 1 << 20;
/// Longest one run may take: every input is tiny.
const RUN_TIMEOUT: Duration = Duration::from_secs(60);
/// The first bytes of a sentinel output file, to see whether a failed run touched it.
const SENTINEL: &[u8] = b"sentinel: a failed run must leave this file as it is\n";

/// splitmix64: a small, well-mixed seedable generator (no dependency).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n.max(1) as u128) >> 64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Tree,
    Sweep,
    Checkpoint,
    Dot,
}

impl Kind {
    const ALL: [Kind; 4] = [Kind::Tree, Kind::Sweep, Kind::Checkpoint, Kind::Dot];

    fn extension(self) -> &'static str {
        match self {
            Kind::Tree => "mmt",
            Kind::Sweep => "csv",
            Kind::Checkpoint => "json",
            Kind::Dot => "dot",
        }
    }
}

/// Values that break parsers: limits of integer types, signs, exponents, empties.
const NUMBERS: [&str; 9] =
    ["0", "-1", "255", "256", "4294967296", "18446744073709551615", "99999999999999999999999", "1e308", ""];
/// Bytes and strings that break text formats.
const SPECIALS: [&[u8]; 14] = [
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"\x1b[31m",
    b"\0",
    b"\n",
    b"\r\n",
    b",",
    b"\"",
    b"{",
    b"}",
    b"[",
    b" -> ",
    b";",
    b"/*",
];

fn mutate(rng: &mut Rng, seed: &[u8], others: &[Vec<u8>], kind: Kind) -> Vec<u8> {
    let mut b = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        let len = b.len();
        let at = rng.below(len + 1);
        match rng.below(11) {
            0 if len > 0 => b[at.min(len - 1)] ^= 1 << rng.below(8),
            1 if len > 0 => b[at.min(len - 1)] = *rng.pick(&[0, 1, 0x7f, 0x80, 0xfb, 0xfc, 0xfd, 0xff]),
            // Small values: game sizes ([8,9] is 43 million codes), counts, lengths, tags.
            8 if len > 0 => b[at.min(len - 1)] = rng.below(21) as u8,
            2 => {
                let bytes: Vec<u8> = (0..1 + rng.below(8)).map(|_| rng.next() as u8).collect();
                b.splice(at..at, bytes);
            }
            3 => {
                let end = (at + 1 + rng.below(16)).min(len);
                b.drain(at.min(end)..end);
            }
            4 => b.truncate(at),
            5 if len > 0 => {
                let start = rng.below(len);
                let end = (start + 1 + rng.below(64)).min(len);
                let chunk = b[start..end].to_vec();
                b.splice(at..at, chunk);
            }
            6 => {
                let other = rng.pick(others);
                let from = rng.below(other.len() + 1);
                b.truncate(at);
                b.extend_from_slice(&other[from..]);
            }
            7 => {
                // Replace a run of digits with an extreme number.
                if let Some(start) = (at..len).chain(0..at).find(|&i| b[i].is_ascii_digit()) {
                    let end = (start..len).find(|&i| !b[i].is_ascii_digit()).unwrap_or(len);
                    b.splice(start..end, rng.pick(&NUMBERS).bytes());
                }
            }
            _ => {
                let special = rng.pick(&SPECIALS).to_vec();
                b.splice(at..at, special);
            }
        }
    }
    if kind == Kind::Tree && b.len() >= 28 && rng.below(3) > 0 {
        if rng.below(2) == 0 {
            let body = (b.len() - 28) as u64;
            b[12..20].copy_from_slice(&body.to_le_bytes());
        }
        let end = b.len() - 8;
        let sum = fnv1a64(&b[..end]);
        b[end..].copy_from_slice(&sum.to_le_bytes());
    }
    b
}

/// The commands that read a file of `kind`; `OUT` stands for the output file.
fn commands(kind: Kind, input: &str) -> Vec<Vec<String>> {
    let lines: Vec<Vec<&str>> = match kind {
        Kind::Tree => vec![
            vec!["stats", input],
            vec!["verify", input, "--format", "json"],
            vec!["dot", input, "--max-depth", "2", "-o", "OUT"],
            vec!["export", input, "-o", "OUT"],
            vec!["trace", input, "--secret", "123"],
        ],
        Kind::Sweep => vec![
            vec!["merge", input, "-o", "OUT"],
            vec![
                "sweep",
                "-n",
                "2",
                "-k",
                "2..=3",
                "--valuation",
                "minimax",
                "--format",
                "csv",
                "-q",
                "--resume",
                input,
                "-o",
                "OUT",
            ],
        ],
        Kind::Checkpoint => vec![vec!["optimal", "-n", "3", "-k", "3", "-q", "--checkpoint", input, "-o", "OUT"]],
        Kind::Dot => vec![
            vec!["games", "graph", input],
            vec!["games", "graph", input, "--dot"],
            vec!["games", "graph", input, "--format", "json"],
        ],
    };
    lines.into_iter().map(|l| l.into_iter().map(str::to_string).collect()).collect()
}

/// Runs the binary under the address-space limit; `None` when it had to be killed.
fn run_limited(args: &[String]) -> Option<std::process::Output> {
    let script = format!("ulimit -v {ADDRESS_SPACE_KIB}; exec \"$0\" \"$@\"");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sh");
    let start = Instant::now();
    // Pipes are small: read them while waiting, or a chatty child would block.
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut v);
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut v);
        v
    });
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return Some(std::process::Output {
                status,
                stdout: out.join().expect("stdout reader"),
                stderr: err.join().expect("stderr reader"),
            });
        }
        if start.elapsed() > RUN_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The seed files: written by the binary itself, plus small DOT graphs.
fn seeds(dir: &Path) -> Vec<(Kind, Vec<u8>)> {
    let make = |args: &[&str], file: &str| -> Vec<u8> {
        let path = dir.join(file);
        let mut all: Vec<&str> = vec!["-q"];
        all.extend_from_slice(args);
        all.push(path.to_str().expect("UTF-8 path"));
        let out = Command::new(BIN).args(&all).output().expect("run mmtree");
        assert!(out.status.success(), "{all:?}: {}", String::from_utf8_lossy(&out.stderr));
        std::fs::read(&path).expect("seed written")
    };
    let mut seeds = vec![
        (Kind::Tree, make(&["solve", "-n", "3", "-k", "3", "-o"], "t33.mmt")),
        (Kind::Tree, make(&["solve", "-n", "2", "-k", "4", "--valuation", "entropy", "-o"], "t24.mmt")),
        (Kind::Tree, make(&["solve", "-n", "3", "-k", "4", "--distinct", "--black-only", "-o"], "t34.mmt")),
        (Kind::Tree, make(&["optimal", "-n", "3", "-k", "3", "-o"], "o33.mmt")),
        (Kind::Sweep, make(&["sweep", "-n", "2", "-k", "2..=3", "--format", "csv", "-o"], "s.csv")),
        (Kind::Sweep, make(&["sweep", "-n", "2..=3", "-k", "2", "--format", "json", "-o"], "s.jsonl")),
        (Kind::Checkpoint, make(&["optimal", "-n", "3", "-k", "3", "--checkpoint"], "c33.json")),
        (
            Kind::Checkpoint,
            make(&["optimal", "-n", "3", "-k", "3", "--pool", "candidates", "--checkpoint"], "c33c.json"),
        ),
    ];
    for dot in [
        "digraph G { a -> b -> c; a -> c [color=red]; }\n",
        "digraph \"Kayles 3\" {\n  \"3\" -> \"2\"; \"3\" -> \"1\"; \"3\" -> \"1+1\";\n  \"2\" -> \"1\"; \"2\" -> \"0\";\n  \"1+1\" -> \"1\"; \"1\" -> \"0\";\n}\n",
        "strict digraph { node [shape=box]; x:p -> y; /* c */ y -> z; # line\n z; }\n",
    ] {
        seeds.push((Kind::Dot, dot.as_bytes().to_vec()));
    }
    seeds
}

#[test]
fn mutated_inputs_never_crash_hang_or_lose_files() {
    let inputs: usize = std::env::var("MMTREE_FUZZ_INPUTS").ok().and_then(|v| v.parse().ok()).unwrap_or(DEFAULT_INPUTS);
    let seed: u64 = std::env::var("MMTREE_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    // Removed when dropped, unless an input fails: then it is kept with the seeds.
    let mut dir = tempfile::Builder::new().prefix("mmtree-fuzz-").tempdir().expect("scratch directory");
    let seeds = seeds(dir.path());
    let mut rng = Rng(seed);
    let start = Instant::now();
    let (mut runs, mut codes) = (0usize, [0usize; 3]);
    for i in 0..inputs {
        let kind = Kind::ALL[i % Kind::ALL.len()];
        let same: Vec<Vec<u8>> = seeds.iter().filter(|(k, _)| *k == kind).map(|(_, b)| b.clone()).collect();
        let base = rng.pick(&same).clone();
        let bytes = mutate(&mut rng, &base, &same, kind);
        let input = dir.path().join(format!("input-{i}.{}", kind.extension()));
        let output = dir.path().join(format!("output-{i}"));
        for args in commands(kind, input.to_str().expect("UTF-8 path")) {
            std::fs::write(&input, &bytes).expect("write input");
            std::fs::write(&output, SENTINEL).expect("write sentinel");
            let args: Vec<String> =
                args.into_iter().map(|a| if a == "OUT" { output.to_string_lossy().into_owned() } else { a }).collect();
            let mut keep = |why: &str| -> ! {
                let kept = dir.path().join(format!("failing-{i}.{}", kind.extension()));
                std::fs::write(&kept, &bytes).expect("keep the failing input");
                dir.disable_cleanup(true);
                panic!("{why}\n  command: mmtree {}\n  input kept in {}", args.join(" "), kept.display());
            };
            let Some(out) = run_limited(&args) else { keep("no exit within the time bound") };
            runs += 1;
            let err = String::from_utf8_lossy(&out.stderr);
            let code = match out.status.code() {
                Some(c @ 0..=2) => c as usize,
                other => keep(&format!("exit {other:?} (a signal?): {err}")),
            };
            codes[code] += 1;
            if err.contains("panicked") || err.contains("RUST_BACKTRACE") {
                keep(&format!("a panic: {err}"));
            }
            if code == 2 && err.trim_end().lines().count() != 1 {
                keep(&format!("exit 2 needs a one-line message, got: {err}"));
            }
            if code != 0 {
                if std::fs::read(&output).ok().as_deref() != Some(SENTINEL) {
                    keep("a failed run changed its output file");
                }
                if kind == Kind::Checkpoint && std::fs::read(&input).ok().as_deref() != Some(&bytes[..]) {
                    keep("a failed run changed the checkpoint it read");
                }
            }
        }
        let _ = std::fs::remove_file(&input);
        let _ = std::fs::remove_file(&output);
    }
    eprintln!(
        "fuzz: {inputs} inputs, {runs} runs (exit 0: {}, 1: {}, 2: {}) in {:.1} s, seed {seed}",
        codes[0],
        codes[1],
        codes[2],
        start.elapsed().as_secs_f64()
    );
}
