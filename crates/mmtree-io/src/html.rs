//! A tree file as one self-contained HTML page: an explorer that opens on the root, expands
//! states on demand, finds a secret's path and shows the figures of any subtree.
//!
//! The page needs no network and works from `file://`: its script and style
//! (`html/explorer.js`, `html/explorer.css`) are inlined, and the tree is embedded once, as
//! base64 of three preorder arrays (code index of each node's guess or secret, its number of
//! children, the feedback index of the edge into it). Codes are written by the script from
//! their index, as the code space orders them, with the file's symbols. The header's figures
//! and histogram are written here, so they show before the script has read the tree; the
//! script draws only the states that are open, so even trees of a million nodes open at once.

use mmtree_core::{FeedbackScheme, Node, NodeId, Variant};
use serde_json::json;

use crate::tree_file::TreeFile;

const SCRIPT: &str = include_str!("html/explorer.js");
const STYLE: &str = include_str!("html/explorer.css");

/// Marks a leaf in the children array (a state has at most `MAX_FEEDBACKS` children).
const LEAF: u8 = 255;
/// The feedback of the root, which no edge enters.
const NO_FEEDBACK: u8 = 255;

/// What the page shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HtmlOptions {
    /// States with at most this many candidates list them.
    pub max_set: usize,
}

impl Default for HtmlOptions {
    fn default() -> HtmlOptions {
        HtmlOptions { max_set: 20 }
    }
}

/// The explorer page of a tree file.
///
/// ```
/// use mmtree_core::{CodeIndex, FeedbackIndex, Game, GameSpec, StrategyTree, Subtree};
/// use mmtree_io::{explorer_html, HtmlOptions, RuleInfo, TreeFile};
/// let (c, f) = (CodeIndex::from_index, FeedbackIndex::from_index);
/// let tree = StrategyTree::from_subtree(Game::new(GameSpec::mastermind(1, 2))?, Subtree::Guess {
///     guess: c(0),
///     candidates: 2,
///     children: vec![
///         (f(0), Subtree::Guess { guess: c(1), candidates: 1, children: vec![(f(1), Subtree::Leaf(c(1)))] }),
///         (f(1), Subtree::Leaf(c(0))),
///     ],
/// });
/// let file = TreeFile::new(tree, "12".into(), RuleInfo::new("minimax", "all", "smallest", true, None));
/// let page = explorer_html(&file, HtmlOptions::default());
/// assert!(page.starts_with("<!DOCTYPE html>") && page.contains("[1,2]"));
/// assert!(!page.contains("http://") && !page.contains("https://")); // nothing to fetch
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
pub fn explorer_html(file: &TreeFile, options: HtmlOptions) -> String {
    let tree = &file.tree;
    let game = *tree.game();
    let header = &file.header;
    let stats = &header.stats;
    let codes = game.code_count();
    // Bytes per code index: the all-ones value stays out of range, so it can mark an index
    // outside the game (a damaged file), which the page writes as `#index`.
    let width: usize = match codes {
        0..=0xff => 1,
        0x100..=0xffff => 2,
        0x1_0000..=0xff_ffff => 3,
        _ => 4,
    };
    let nodes = tree.nodes();
    let mut bytes = Vec::with_capacity(nodes.len() * (width + 2));
    let mut feedback_in = vec![NO_FEEDBACK; nodes.len()];
    for i in 0..nodes.len() {
        for e in tree.children(NodeId(i as u32)) {
            feedback_in[e.child.0 as usize] = e.feedback.index().min(NO_FEEDBACK - 1);
        }
    }
    for node in nodes {
        let code = match *node {
            Node::Guess { guess, .. } => guess.index(),
            Node::Leaf { secret } => secret.index(),
        };
        let code = if u128::from(code) < codes { code } else { u32::MAX };
        bytes.extend_from_slice(&code.to_le_bytes()[..width]);
    }
    for (i, node) in nodes.iter().enumerate() {
        bytes.push(match node {
            Node::Guess { .. } => tree.children(NodeId(i as u32)).len().min(LEAF as usize - 1) as u8,
            Node::Leaf { .. } => LEAF,
        });
    }
    bytes.extend_from_slice(&feedback_in);

    let scheme = FeedbackScheme::new(&game);
    let feedbacks: Vec<String> =
        (0..scheme.len()).map(|f| scheme.format(mmtree_core::FeedbackIndex::from_index(f as u8))).collect();
    let symbols: String = header.symbols.chars().take(game.k() as usize).collect();
    let rule = &header.rule;
    let meta = json!({
        "game": game.to_string(),
        "n": game.n(),
        "k": game.k(),
        "distinct": game.variant() == Variant::Distinct,
        "codes": u64::try_from(codes).unwrap_or(u64::MAX),
        "symbols": symbols,
        "feedbacks": feedbacks,
        "nodes": nodes.len(),
        "width": width,
        "maxSet": options.max_set,
        "stats": { "secrets": stats.secrets, "max": stats.max, "total": stats.total, "histogram": stats.histogram },
    });
    let rule_text = format!(
        "{}, pool {}, ties {}{}{}",
        rule.valuation,
        rule.pool,
        rule.ties,
        if rule.prefer_candidates { ", candidates preferred" } else { "" },
        rule.first_guess.as_ref().map(|g| format!(", first guess {g}")).unwrap_or_default()
    );
    let title = format!("{} {}", game, rule.valuation);
    let figures = [
        ("game", game.to_string()),
        ("rule", rule_text),
        ("secrets", stats.secrets.to_string()),
        ("max", stats.max.to_string()),
        ("total", stats.total.to_string()),
        ("average", format!("{:.4}", stats.average())),
    ];
    let figures_html: String = figures
        .iter()
        .map(|(k, v)| format!("<div class=\"figure\"><dt>{k}</dt><dd data-figure=\"{k}\">{}</dd></div>", escape(v)))
        .collect();
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title} — mmtree explorer</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
         <header>\n<h1>{title_html} <span class=\"sub\">strategy tree</span></h1>\n\
         <dl class=\"figures\">{figures_html}</dl>\n\
         <section class=\"histogram-box\" aria-labelledby=\"hist-title\">\n\
         <h2 id=\"hist-title\">Secrets by guesses needed</h2>\n{histogram}</section>\n</header>\n\
         <form id=\"search\" class=\"search\" role=\"search\" autocomplete=\"off\">\n\
         <label for=\"secret\">Secret</label>\n\
         <input id=\"secret\" name=\"secret\" size=\"{size}\" placeholder=\"e.g. {example}\" spellcheck=\"false\">\n\
         <button type=\"submit\">Show its path</button>\n\
         <span class=\"hint\">Keys: ↑ ↓ move, → ← open and close, Enter toggles, / searches</span>\n\
         <p id=\"search-message\" role=\"status\" aria-live=\"polite\"></p>\n</form>\n\
         <main>\n<section class=\"tree-box\" aria-label=\"Strategy tree\">\n\
         <ul id=\"tree\" role=\"tree\" aria-label=\"Strategy tree of {title_html}\"><li class=\"loading\">Reading the tree…</li></ul>\n\
         </section>\n<aside id=\"details\" aria-live=\"polite\"></aside>\n</main>\n\
         <script id=\"tree-meta\" type=\"application/json\">{meta}</script>\n\
         <script id=\"tree-data\" type=\"text/plain\">{data}</script>\n\
         <script>\n{SCRIPT}</script>\n</body>\n</html>\n",
        title_html = escape(&title),
        histogram = histogram_html(&stats.histogram),
        size = game.n() as usize + 8,
        example = escape(&symbols.chars().cycle().take(game.n() as usize).collect::<String>()),
        meta = script_json(&meta),
        data = base64(&bytes),
    )
}

/// The histogram as a table of bars (readable without the script, and in print).
fn histogram_html(histogram: &[u64]) -> String {
    let top = histogram.iter().copied().max().unwrap_or(0).max(1);
    let rows: String = histogram
        .iter()
        .enumerate()
        .map(|(d, &count)| {
            format!(
                "<tr><th scope=\"row\">{}</th><td class=\"bar-cell\"><span class=\"bar\" style=\"width:{:.1}%\"></span></td><td class=\"count\">{count}</td></tr>",
                d + 1,
                100.0 * count as f64 / top as f64
            )
        })
        .collect();
    format!(
        "<table class=\"hist\"><thead><tr><th scope=\"col\">guesses</th><th scope=\"col\"><span class=\"visually-hidden\">bar</span></th><th scope=\"col\">secrets</th></tr></thead><tbody>{rows}</tbody></table>\n"
    )
}

/// JSON safe inside a `<script>` element: no `<` at all (so no `</script>`).
fn script_json(value: &serde_json::Value) -> String {
    value.to_string().replace('<', "\\u003c")
}

/// Escapes text for HTML element content and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(ch),
        }
    }
    out
}

/// Standard base64 with padding, as the browser's `atob` reads it.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let v = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(v >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_standard_vectors() {
        // RFC 4648, section 10.
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
        assert_eq!(script_json(&json!({"s": "</script>"})), r#"{"s":"\u003c/script>"}"#);
    }
}
