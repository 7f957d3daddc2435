//! The HTML explorer in a real headless Chromium: open the [3,3], [4,6] and Bulls and Cows
//! pages, expand states by clicking, search secrets, move with the keyboard, and compare what
//! the page shows with the tree file read and replayed here with the literal scorer.
//!
//! Chromium and chromedriver are required (Debian `chromium`, `chromium-driver`; `.ci/run`
//! installs them). Without them the test fails, unless `MMTREE_SKIP_BROWSER_TESTS=1` is set
//! outside CI. A screenshot of the [4,6] explorer is saved as
//! `target/tmp/explorer-4-6.png` for a person to look at.

mod browser;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use fantoccini::key::Key;
use fantoccini::Locator;
use serde_json::Value;
use tempfile::TempDir;

use mmtree::core::{score_reference, Alphabet, Code, CodeSpace, MemoryLimit, Node, NodeId};
use mmtree::io::TreeFile;

use browser::Browser;

fn mmtree(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_mmtree")).args(args).output().expect("run mmtree");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A fresh directory for the trees, pages and browser profile, removed when dropped (also
/// after a failed assertion).
fn scratch() -> TempDir {
    tempfile::Builder::new().prefix("mmtree-explorer-").tempdir().expect("scratch directory")
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A solved game: its tree file, its page, and what is needed to replay it.
struct Game {
    file: TreeFile,
    space: CodeSpace,
    alphabet: Alphabet,
    page: PathBuf,
}

fn build(dir: &Path, name: &str, solve: &[&str]) -> Game {
    let tree = dir.join(format!("{name}.mmt"));
    let page = dir.join(format!("{name}.html"));
    let mut args = vec!["solve", "-q", "-o", p(&tree)];
    args.extend(solve);
    mmtree(&args);
    mmtree(&["html", p(&tree), "-o", p(&page)]);
    let file = TreeFile::read(&tree, MemoryLimit(1 << 30)).unwrap();
    let space = CodeSpace::new(*file.tree.game(), MemoryLimit(1 << 30)).unwrap();
    let alphabet = Alphabet::new(&file.header.symbols).unwrap();
    Game { file, space, alphabet, page }
}

impl Game {
    fn name(&self, code: &Code) -> String {
        self.alphabet.format(code)
    }

    fn codes(&self) -> Vec<Code> {
        self.space.iter().map(|(_, c)| c).collect()
    }

    /// The rounds the tree plays against `secret`, replayed with the literal scorer:
    /// `(guess, feedback)` per round, the last one the win.
    fn replay(&self, secret: &Code) -> Vec<(String, String)> {
        let tree = &self.file.tree;
        let game = tree.game();
        let mut id = tree.root();
        let mut rounds = Vec::new();
        while let Node::Guess { guess, .. } = *tree.node(id) {
            let guess = self.space.code(guess);
            let fb = score_reference(game, &guess, secret);
            rounds.push((self.name(&guess), fb.to_string()));
            let index = self.space.scheme().index(fb).unwrap();
            id = tree.children(id).iter().find(|e| e.feedback == index).expect("the tree covers every secret").child;
        }
        rounds
    }

    /// Sizes of the parts of `set` under `guess`, by feedback as written.
    fn parts(&self, guess: &Code, set: &[Code]) -> BTreeMap<String, usize> {
        let mut parts = BTreeMap::new();
        for c in set {
            *parts.entry(score_reference(self.file.tree.game(), guess, c).to_string()).or_insert(0) += 1;
        }
        parts
    }

    /// The guess the tree plays after one round with feedback `fb` (as written).
    fn second_guess(&self, fb: &str) -> String {
        let tree = &self.file.tree;
        let edge = tree.children(NodeId(0)).iter().find(|e| self.space.scheme().format(e.feedback) == fb).unwrap();
        match *tree.node(edge.child) {
            Node::Guess { guess, .. } => self.name(&self.space.code(guess)),
            Node::Leaf { secret } => self.name(&self.space.code(secret)),
        }
    }
}

/// `(feedback, size, listed candidates)` of each row matched by `selector`, as the page
/// writes them (a found secret counts 1).
async fn rows(browser: &Browser, selector: &str) -> Vec<(String, usize, String)> {
    let found = browser
        .eval(&format!(
            "Array.from(document.querySelectorAll('{selector}')).map(r => [r.querySelector('.edge').textContent, \
             (r.querySelector('.size') || {{textContent: '1'}}).textContent, (r.querySelector('.cands') || {{textContent: ''}}).textContent])"
        ))
        .await;
    found
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            let field = |i: usize| row[i].as_str().unwrap().to_string();
            let size = field(1).split(' ').next().unwrap().parse().unwrap();
            (field(0), size, field(2))
        })
        .collect()
}

async fn text(browser: &Browser, css: &str) -> String {
    browser.client.find(Locator::Css(css)).await.unwrap().text().await.unwrap()
}

/// Types a secret, submits, and checks the highlighted path against the replay.
async fn search(browser: &Browser, game: &Game, secret: &str) {
    let input = browser.client.find(Locator::Css("#secret")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(&format!("{secret}{}", char::from(Key::Enter))).await.unwrap();
    let code = game.alphabet.parse(game.file.tree.game(), secret).unwrap();
    let expected = game.replay(&code);
    browser.wait_until(&format!("document.querySelectorAll('li.on-path').length === {}", expected.len() + 1)).await;
    let path = browser
        .eval("Array.from(document.querySelectorAll('li.on-path > .row')).map(r => [r.querySelector('.edge').textContent, (r.querySelector('.guess b, .found b') || {}).textContent, r.querySelector('.badge').textContent])")
        .await;
    let path = path.as_array().unwrap();
    assert_eq!(path.len(), expected.len() + 1, "{secret}: {path:?}");
    for (r, row) in path.iter().enumerate() {
        if r < expected.len() {
            assert_eq!(row[1], Value::from(expected[r].0.clone()), "{secret} round {}", r + 1);
            assert_eq!(row[2], Value::from(format!("round {}", r + 1)));
        } else {
            assert_eq!(row[1], Value::from(game.name(&code)), "{secret}: the leaf is the secret");
            assert_eq!(row[2], Value::from("solved"));
        }
        // Each row after the root is reached by the previous round's feedback.
        let edge = if r == 0 { "start".to_string() } else { expected[r - 1].1.clone() };
        assert_eq!(row[0], Value::from(edge), "{secret} row {r}");
    }
    let message = text(browser, "#search-message").await;
    let guesses = expected.len();
    assert!(message.starts_with(&format!("{}: {guesses} guess", game.name(&code))), "{message}");
    // The details show the secret found, with its number of guesses.
    assert_eq!(text(browser, "#details dd[data-fact='guesses']").await, guesses.to_string());
}

/// Figures of the header against a replay of every secret.
async fn check_header(browser: &Browser, game: &Game) {
    let depths: Vec<usize> = game.codes().iter().map(|c| game.replay(c).len()).collect();
    let total: usize = depths.iter().sum();
    let max = depths.iter().max().unwrap();
    assert_eq!(text(browser, "dd[data-figure='total']").await, total.to_string());
    assert_eq!(text(browser, "dd[data-figure='max']").await, max.to_string());
    assert_eq!(text(browser, "dd[data-figure='secrets']").await, depths.len().to_string());
    assert_eq!(text(browser, "dd[data-figure='game']").await, game.file.tree.game().to_string());
    let histogram = browser
        .eval("Array.from(document.querySelectorAll('header table.hist td.count')).map(t => Number(t.textContent))")
        .await;
    let mut expected = vec![0u64; *max];
    for d in &depths {
        expected[d - 1] += 1;
    }
    assert_eq!(histogram, serde_json::json!(expected));
}

#[test]
fn explorer_in_a_headless_browser() {
    let Some((chromium, chromedriver)) = browser::programs() else {
        assert!(std::env::var_os("CI").is_none(), "CI must install chromium and chromium-driver (.ci/run does)");
        assert!(
            std::env::var_os("MMTREE_SKIP_BROWSER_TESTS").is_some(),
            "the explorer test needs chromium and chromedriver (apt-get install chromium chromium-driver); \
             set MMTREE_SKIP_BROWSER_TESTS=1 to skip it"
        );
        eprintln!("skipping the explorer test: MMTREE_SKIP_BROWSER_TESTS is set and chromium is missing");
        return;
    };
    let dir = scratch();
    let knuth = build(dir.path(), "m46", &["-n", "4", "-k", "6", "--valuation", "minimax"]);
    let small = build(dir.path(), "m33", &["-n", "3", "-k", "3", "--valuation", "entropy"]);
    let bulls = build(dir.path(), "bc", &["-n", "4", "-k", "10", "--distinct", "--symbols", "0123456789"]);
    browser::runtime().block_on(async {
        let browser = Browser::start(&chromium, &chromedriver, dir.path()).await;

        // [4,6], Knuth's tree: 5801 guesses in all, at most 5 (Knuth 1977).
        browser.open(&knuth.page).await;
        check_header(&browser, &knuth).await;
        assert_eq!(text(&browser, "dd[data-figure='total']").await, "5801");
        let root = text(&browser, "#tree > li > .row").await;
        assert!(root.contains("1296 candidates") && root.contains("guess 1122"), "{root}");
        // The root opens on its parts: 1122 splits H(4,6) as the scorer says.
        let first = knuth.alphabet.parse(knuth.file.tree.game(), "1122").unwrap();
        let all = knuth.codes();
        let parts = knuth.parts(&first, &all);
        let shown = rows(&browser, "#tree > li > ul > li > .row").await;
        let shown_parts: BTreeMap<String, usize> = shown.iter().map(|(f, s, _)| (f.clone(), *s)).collect();
        assert_eq!(shown_parts, parts);
        assert_eq!(shown_parts["(0,0)"], 256);
        // Click (1,0): its guess's parts of the 256 candidates left appear.
        let at = shown.iter().position(|(f, _, _)| f == "(1,0)").unwrap() + 1;
        let row = format!("#tree > li > ul > li:nth-child({at})");
        browser.client.find(Locator::Css(&format!("{row} > .row"))).await.unwrap().click().await.unwrap();
        browser.wait_until(&format!("document.querySelector('{row}').getAttribute('aria-expanded') === 'true'")).await;
        let second = knuth.second_guess("(1,0)");
        assert!(text(&browser, &format!("{row} > .row")).await.contains(&format!("guess {second}")));
        let left: Vec<Code> = all
            .iter()
            .filter(|c| score_reference(knuth.file.tree.game(), &first, c).to_string() == "(1,0)")
            .copied()
            .collect();
        let second_code = knuth.alphabet.parse(knuth.file.tree.game(), &second).unwrap();
        let below = rows(&browser, &format!("{row} > ul > li > .row")).await;
        let below: BTreeMap<String, usize> = below.iter().map(|(f, s, _)| (f.clone(), *s)).collect();
        assert_eq!(below, knuth.parts(&second_code, &left));
        // The details follow the click: the rounds played and the candidates left.
        assert_eq!(text(&browser, "#details .rounds").await, "Rounds: 1122 (1,0)");
        assert_eq!(text(&browser, "#details dd[data-fact='candidates']").await, left.len().to_string());
        // Search: each round highlighted along the replayed path.
        search(&browser, &knuth, "5463").await;
        search(&browser, &knuth, "6666").await;
        // A malformed secret is refused in words.
        let input = browser.client.find(Locator::Css("#secret")).await.unwrap();
        input.clear().await.unwrap();
        input.send_keys(&format!("1127{}", char::from(Key::Enter))).await.unwrap();
        browser.wait_until("document.getElementById('search-message').classList.contains('error')").await;
        assert!(text(&browser, "#search-message").await.contains("symbol '7' is not one of 123456"));
        // Keyboard: '/' goes to the search box, Escape back to the tree, arrows move.
        let body = browser.client.find(Locator::Css("#tree > li > .row")).await.unwrap();
        body.click().await.unwrap(); // selects the root (and folds it)
        browser.wait_until("document.activeElement.dataset.node === '0'").await;
        browser.client.active_element().await.unwrap().send_keys(&char::from(Key::Right).to_string()).await.unwrap();
        browser.wait_until("document.querySelector('#tree > li').getAttribute('aria-expanded') === 'true'").await;
        browser.client.active_element().await.unwrap().send_keys(&char::from(Key::Down).to_string()).await.unwrap();
        browser.wait_until("document.activeElement.dataset.node === '1'").await;
        assert_eq!(text(&browser, "#details .rounds").await, "Rounds: 1122 (0,0)");
        browser.client.active_element().await.unwrap().send_keys("/").await.unwrap();
        browser.wait_until("document.activeElement.id === 'secret'").await;
        let shot = browser.client.screenshot().await.unwrap();
        let png = Path::new(env!("CARGO_TARGET_TMPDIR")).join("explorer-4-6.png");
        std::fs::write(&png, &shot).unwrap();
        assert!(shot.starts_with(b"\x89PNG"), "a PNG screenshot");

        // [3,3] entropy: figures, the root's parts, a path.
        browser.open(&small.page).await;
        check_header(&browser, &small).await;
        let first =
            small.alphabet.parse(small.file.tree.game(), &text(&browser, "#tree > li > .row .guess b").await).unwrap();
        let shown = rows(&browser, "#tree > li > ul > li > .row").await;
        let shown_parts: BTreeMap<String, usize> = shown.iter().map(|(f, s, _)| (f.clone(), *s)).collect();
        assert_eq!(shown_parts, small.parts(&first, &small.codes()));
        // Small states list their candidates.
        for (f, size, listed) in &shown {
            if (2..=20).contains(size) {
                assert_eq!(listed.matches(", ").count() + 1, *size, "{f}: {listed}");
            }
        }
        for secret in ["111", "231", "333"] {
            search(&browser, &small, secret).await;
        }

        // Bulls and Cows: codes of distinct digits, written with the file's symbols.
        browser.open(&bulls.page).await;
        assert_eq!(text(&browser, "dd[data-figure='secrets']").await, "5040");
        for secret in ["0123", "9876", "5031"] {
            search(&browser, &bulls, secret).await;
        }
        browser.quit().await;
    });
}
