//! The documentation stands on its own: every `$ mmtree …` example in `docs/` prints what the
//! docs show, every definition has such an example, every relative link and repository path
//! mentioned in `README.md` and `docs/` exists (anchors as GitHub renders headings), and no
//! file of the repository refers to material outside it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// `README.md` and every Markdown file under `docs/`, as (path relative to the root, text).
fn markdown_files() -> Vec<(String, String)> {
    let mut names = vec!["README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|e| e.expect("directory entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    docs.sort();
    names.extend(docs);
    names.into_iter().map(|name| (name.clone(), read(&root().join(&name)))).collect()
}

/// One `$ mmtree …` line of a `console` block and the output lines that follow it.
#[derive(Debug)]
struct Example {
    at: String,
    args: Vec<String>,
    expected: Vec<String>,
}

/// The lines of `text` outside fenced code blocks, with their 1-based numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut inside = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            inside = !inside;
        } else if !inside {
            out.push((i + 1, line));
        }
    }
    out
}

fn examples(file: &str, text: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_console = false;
    let mut in_other = false;
    for (i, line) in text.lines().enumerate() {
        let fence = line.trim_start();
        if let Some(lang) = fence.strip_prefix("```") {
            if in_console || in_other {
                in_console = false;
                in_other = false;
            } else if lang.trim() == "console" {
                in_console = true;
            } else {
                in_other = true;
            }
            continue;
        }
        if !in_console {
            continue;
        }
        let at = format!("{file}:{}", i + 1);
        if let Some(command) = line.strip_prefix("$ ") {
            let words = shell_words(command).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(words.first().map(String::as_str), Some("mmtree"), "{at}: examples run mmtree");
            out.push(Example { at, args: words[1..].to_vec(), expected: Vec::new() });
        } else {
            let example = out.last_mut().unwrap_or_else(|| panic!("{at}: output before any `$ mmtree` line"));
            example.expected.push(line.to_string());
        }
    }
    out
}

/// Splits a command line on blanks, honouring single and double quotes. Pipes and
/// redirections are refused: the test runs the program directly, not through a shell.
fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, '|' | '>' | '<' | '&' | ';' | '$' | '`') => {
                return Err(format!("shell syntax {c:?} in an example: {line}"));
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if quote.is_some() {
        return Err(format!("unclosed quote: {line}"));
    }
    words.extend(word);
    Ok(words)
}

/// One line against a pattern where `[..]` matches any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let mut pieces = pattern.split("[..]");
    let first = pieces.next().unwrap_or("");
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let pieces: Vec<&str> = pieces.collect();
    for (i, piece) in pieces.iter().enumerate() {
        if i + 1 == pieces.len() {
            return rest.ends_with(piece);
        }
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Output lines against expected lines, where a line `...` matches any number of lines.
fn output_matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => (0..=actual.len()).any(|skip| output_matches(rest, &actual[skip..])),
        Some((first, rest)) => {
            actual.first().is_some_and(|line| line_matches(first, line)) && output_matches(rest, &actual[1..])
        }
    }
}

/// Lines without trailing blanks, and without trailing empty lines.
fn normalise(lines: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = lines.map(|l| l.trim_end().to_string()).collect();
    while out.last().is_some_and(String::is_empty) {
        out.pop();
    }
    out
}

#[test]
fn examples_in_the_docs_print_what_the_docs_show() {
    let mut failures = Vec::new();
    let mut count = 0;
    for (file, text) in markdown_files() {
        for example in examples(&file, &text) {
            count += 1;
            let output = Command::new(env!("CARGO_BIN_EXE_mmtree")).args(&example.args).output().expect("run mmtree");
            let stdout = String::from_utf8_lossy(&output.stdout);
            let actual = normalise(stdout.lines().map(str::to_string));
            let expected = normalise(example.expected.iter().cloned());
            let actual_refs: Vec<&str> = actual.iter().map(String::as_str).collect();
            if !output.status.success() || !output_matches(&expected, &actual_refs) {
                failures.push(format!(
                    "{}: mmtree {}\n  status {:?}, stderr: {}\n  expected:\n{}\n  printed:\n{}",
                    example.at,
                    example.args.join(" "),
                    output.status.code(),
                    String::from_utf8_lossy(&output.stderr).trim(),
                    expected.join("\n"),
                    actual.join("\n")
                ));
            }
        }
    }
    assert!(count >= 20, "only {count} examples found in the docs: is the parser still reading them?");
    assert!(failures.is_empty(), "{} of {count} examples differ:\n\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn every_definition_has_a_checked_example() {
    let text = read(&root().join("docs/definitions.md"));
    let mut sections: Vec<(String, usize)> = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            inside = !inside;
        } else if !inside && line.starts_with("## ") {
            sections.push((line[3..].to_string(), 0));
        } else if inside && line.starts_with("$ mmtree ") {
            if let Some(section) = sections.last_mut() {
                section.1 += 1;
            }
        }
    }
    assert!(sections.len() >= 10, "definitions.md has {} sections", sections.len());
    let bare: Vec<&str> = sections.iter().filter(|(_, n)| *n == 0).map(|(s, _)| s.as_str()).collect();
    assert!(bare.is_empty(), "sections without a `$ mmtree` example: {bare:?}");
}

/// The anchor GitHub gives a heading: lower case, punctuation dropped, blanks to hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|&c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every anchor of a Markdown text, with GitHub's `-1`, `-2` … for repeated headings.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let level = line.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&level) && line[level..].starts_with(' ') {
            let base = slug(&line[level..]);
            let mut anchor = base.clone();
            let mut n = 0;
            while out.contains(&anchor) {
                n += 1;
                anchor = format!("{base}-{n}");
            }
            out.insert(anchor);
        }
    }
    out
}

/// Link targets `[text](target)` of a line, and the spans between backticks.
fn links_and_code(line: &str) -> (Vec<String>, Vec<String>) {
    let mut code = Vec::new();
    let mut prose = String::new();
    for (i, part) in line.split('`').enumerate() {
        if i % 2 == 1 {
            code.push(part.to_string());
        } else {
            prose.push_str(part);
            prose.push(' ');
        }
    }
    let mut links = Vec::new();
    let mut rest = prose.as_str();
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        if let Some(end) = rest.find(')') {
            links.push(rest[..end].trim().to_string());
            rest = &rest[end..];
        }
    }
    (links, code)
}

/// Checks `target` (a path, optionally `#anchor`) resolved against `base`.
fn check_target(base: &Path, target: &str, at: &str, problems: &mut Vec<String>) {
    let (path, anchor) = match target.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (target, None),
    };
    let file = if path.is_empty() { base.to_path_buf() } else { base.parent().expect("a file").join(path) };
    if !file.exists() {
        problems.push(format!("{at}: {target}: no such file or directory"));
        return;
    }
    if let Some(anchor) = anchor {
        if !anchors(&read(&file)).contains(anchor) {
            problems.push(format!("{at}: {target}: no heading with this anchor"));
        }
    }
}

#[test]
fn relative_links_and_paths_exist() {
    let top_level: Vec<String> = std::fs::read_dir(root())
        .expect("repository root")
        .map(|e| e.expect("directory entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name != "target" && name != ".git")
        .collect();
    let mut problems = Vec::new();
    let mut checked = 0;
    for (file, text) in markdown_files() {
        let path = root().join(&file);
        for (number, line) in prose_lines(&text) {
            let at = format!("{file}:{number}");
            let (links, code) = links_and_code(line);
            for link in links {
                if link.contains("://") || link.starts_with("mailto:") {
                    continue;
                }
                checked += 1;
                check_target(&path, &link, &at, &mut problems);
            }
            // Repository paths written as code (`tests/docs.rs`) are relative to the root.
            for span in code {
                let span = span.trim();
                let names_repository_file = top_level.iter().any(|entry| {
                    span == entry || span.strip_prefix(entry.as_str()).is_some_and(|rest| rest.starts_with('/'))
                });
                if names_repository_file && !span.contains(char::is_whitespace) {
                    checked += 1;
                    check_target(&root().join("README.md"), span, &at, &mut problems);
                }
            }
        }
    }
    assert!(checked >= 30, "only {checked} links and paths found: is the scan still reading them?");
    assert!(problems.is_empty(), "broken links or paths:\n{}", problems.join("\n"));
}

/// What a mention of material outside the repository looks like (built from pieces, so that
/// this file does not mention it itself).
fn outside_mentions(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut found = Vec::new();
    let patterns = [
        ["..", "/shared"].concat(),
        ["shared", "/spec"].concat(),
        ["shared", "/reference"].concat(),
        ["shared", "/seeds"].concat(),
        ["/work", "/shared"].concat(),
        ["spec", ".md"].concat(),
    ];
    for pattern in &patterns {
        if lower.contains(pattern.as_str()) {
            found.push(pattern.clone());
        }
    }
    // The numbered source documents: the word, optionally plural, then three digits (but not
    // a `--seed` value).
    let word = ["se", "ed"].concat();
    for (at, _) in lower.match_indices(&word) {
        let rest = &lower[at + word.len()..];
        let rest = rest.strip_prefix('s').unwrap_or(rest);
        let Some(number) = rest.strip_prefix(' ') else { continue };
        let digits = number.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 3 && !lower[..at].ends_with("--") {
            found.push(format!("{word} {}", &number[..3]));
        }
    }
    found
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display())) {
        let path = entry.expect("directory entry").path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if name == ".git" || (dir == root() && name == "target") {
            continue;
        }
        if path.is_dir() {
            walk(&path, files);
        } else {
            files.push(path);
        }
    }
}

#[test]
fn no_file_refers_outside_the_repository() {
    let mut files = Vec::new();
    walk(&root(), &mut files);
    assert!(files.len() > 50, "only {} files found", files.len());
    let mut problems = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue; // not text
        };
        for (number, line) in text.lines().enumerate() {
            for mention in outside_mentions(line) {
                let shown = file.strip_prefix(root()).unwrap_or(&file).display().to_string();
                problems.push(format!("{shown}:{}: {mention:?}", number + 1));
            }
        }
    }
    assert!(problems.is_empty(), "mentions of material outside the repository:\n{}", problems.join("\n"));
}

#[test]
fn the_checks_can_fail() {
    // Output matching.
    let lines = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
    assert!(output_matches(&lines("a\n...\nd"), &["a", "b", "c", "d"]));
    assert!(output_matches(&lines("a\n...\nb"), &["a", "b"]));
    assert!(!output_matches(&lines("a\nc"), &["a", "b"]));
    assert!(!output_matches(&lines("a"), &["a", "b"]));
    assert!(line_matches("4,6,first,[..],6,5625,[..]", "4,6,first,1123,6,5625,1 8"));
    assert!(!line_matches("4,6,first,[..],6,5625,[..]", "4,6,first,1123,6,5626,1 8"));
    assert!(!line_matches("| 1 | 12 |", "| 1 | 12 | x"));
    assert_eq!(
        shell_words(r#"advise --history "1112:2,0 1344:0,2" -n 4"#).unwrap(),
        ["advise", "--history", "1112:2,0 1344:0,2", "-n", "4"]
    );
    assert!(shell_words("solve -n 4 | head").is_err());
    // Anchors as GitHub renders them.
    assert_eq!(slug(" Irving 1978–79"), "irving-197879");
    assert_eq!(
        slug(" Simple strategies: first candidate and human-friendly"),
        "simple-strategies-first-candidate-and-human-friendly"
    );
    assert_eq!(slug(" `mmtree advise` and `mmtree play`"), "mmtree-advise-and-mmtree-play");
    assert!(anchors("# A\n## A\n```\n# not a heading\n```\n").into_iter().eq(["a", "a-1"]));
    // Outside mentions.
    let spec = ["spec", ".md"].concat();
    assert_eq!(outside_mentions(&format!("as in {spec} §1")), [spec]);
    assert_eq!(outside_mentions(&format!("({} 004)", ["se", "ed"].concat())).len(), 1);
    assert_eq!(outside_mentions(&format!("({} 002)", ["Se", "eds"].concat())).len(), 1);
    assert!(outside_mentions("--seed 7, seeded by the clock, a seed of 12").is_empty());
}
