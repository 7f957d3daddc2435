//! A tree file as nested JSON, for Python or JavaScript users (schema in the README).

use serde_json::{json, Value};
use thiserror::Error;

use mmtree_core::{Alphabet, CodeIndex, CodeSpace, Node, NodeId};

use crate::tree_file::{TreeFile, FORMAT_VERSION};

/// Deepest tree written as nested JSON (real trees are a few levels deep; JSON readers
/// recurse once per level).
pub const MAX_JSON_DEPTH: u32 = 1000;

/// Why a tree cannot be exported.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExportError {
    /// The tree is deeper than nested JSON readers handle.
    #[error("the tree is {depth} levels deep, more than the {limit} nested JSON allows")]
    TooDeep {
        /// Depth of the tree.
        depth: u32,
        /// [`MAX_JSON_DEPTH`].
        limit: u32,
    },
}

/// The whole file as one JSON document:
/// `{format, format_version, game, rule, stats, root}`, where a node is
/// `{"guess", "candidates", "children": [{"feedback": {"black", "white"}, "node"}]}` or
/// `{"secret"}`.
///
/// ```
/// use mmtree_core::{Alphabet, CodeIndex, CodeSpace, FeedbackIndex, Game, GameSpec, MemoryLimit, StrategyTree, Subtree};
/// use mmtree_io::{tree_json, RuleInfo, TreeFile};
/// let space = CodeSpace::new(Game::new(GameSpec::mastermind(1, 2))?, MemoryLimit(1 << 30))?;
/// let (c, f) = (CodeIndex::from_index, FeedbackIndex::from_index);
/// let tree = StrategyTree::from_subtree(*space.game(), Subtree::Guess {
///     guess: c(0),
///     candidates: 2,
///     children: vec![
///         (f(0), Subtree::Guess { guess: c(1), candidates: 1, children: vec![(f(1), Subtree::Leaf(c(1)))] }),
///         (f(1), Subtree::Leaf(c(0))),
///     ],
/// });
/// let file = TreeFile::new(tree, "12".into(), RuleInfo::new("minimax", "all", "smallest", true, None));
/// let json = tree_json(&file, &space, &Alphabet::default()).unwrap();
/// assert_eq!(json["root"]["guess"], "1");
/// assert_eq!(json["root"]["children"][1]["node"]["secret"], "1");
/// assert_eq!(json["stats"]["total"], 3);
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
pub fn tree_json(file: &TreeFile, space: &CodeSpace, alphabet: &Alphabet) -> Result<Value, ExportError> {
    let tree = &file.tree;
    let nodes = tree.nodes();
    let mut depth = vec![0u32; nodes.len()];
    for i in 0..nodes.len() {
        for e in tree.children(NodeId(i as u32)) {
            depth[e.child.0 as usize] = depth[i] + 1;
        }
    }
    let deepest = depth.iter().copied().max().unwrap_or(0);
    if deepest > MAX_JSON_DEPTH {
        return Err(ExportError::TooDeep { depth: deepest, limit: MAX_JSON_DEPTH });
    }
    let name = |c: CodeIndex| match space.try_code(c.index()) {
        Some(code) => alphabet.format(&code),
        None => format!("#{}", c.index()),
    };
    let scheme = space.scheme();
    // Children follow parents in preorder: build values bottom-up, no recursion.
    let mut values: Vec<Option<Value>> = vec![None; nodes.len()];
    for i in (0..nodes.len()).rev() {
        let value = match nodes[i] {
            Node::Leaf { secret } => json!({ "secret": name(secret) }),
            Node::Guess { guess, candidates, .. } => {
                let children: Vec<Value> = tree
                    .children(NodeId(i as u32))
                    .iter()
                    .map(|e| {
                        let (black, white) = match scheme.all().get(e.feedback.get()) {
                            Some(fb) => (Value::from(fb.black), Value::from(fb.white)),
                            None => (Value::Null, Value::Null),
                        };
                        json!({
                            "feedback": { "black": black, "white": white },
                            "node": values[e.child.0 as usize].take().unwrap_or(Value::Null),
                        })
                    })
                    .collect();
                json!({ "guess": name(guess), "candidates": candidates, "children": children })
            }
        };
        values[i] = Some(value);
    }
    let h = &file.header;
    Ok(json!({
        "format": "mmtree-tree",
        "format_version": FORMAT_VERSION,
        "game": {
            "n": h.game.n,
            "k": h.game.k,
            "variant": h.game.variant.name(),
            "feedback": h.game.feedback.name(),
            "symbols": h.symbols,
        },
        "rule": {
            "valuation": h.rule.valuation,
            "pool": h.rule.pool,
            "ties": h.rule.ties,
            "prefer_candidates": h.rule.prefer_candidates,
            "first_guess": h.rule.first_guess,
        },
        "stats": {
            "secrets": h.stats.secrets,
            "max": h.stats.max,
            "total": h.stats.total,
            "average": h.stats.average(),
            "histogram": h.stats.histogram,
        },
        "root": values[0].take().unwrap_or(Value::Null),
    }))
}
