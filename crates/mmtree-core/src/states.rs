//! The graph of game states: every candidate set reachable from the start under every guess
//! and feedback, for games small enough to draw.
//!
//! A state is a candidate set `K`; its successor under guess `u` and feedback `r` is
//! `K(u,r) = { w in K : s(u,w) = r }`. Two drawings are built:
//!
//! * **every successor** ([`StateOptions::merge_equal`] off): each successor of a state is its
//!   own node, as in a figure of all successors of the start, except that a guess which learns
//!   nothing (`K(u,r) = K`) is a self-loop. Successors are expanded again when non-empty; they
//!   are strictly smaller than their parent, so the drawing is finite.
//! * **merged** (on): one node per distinct candidate set, with one edge per (guess, feedback)
//!   — a multigraph, with a self-loop wherever a guess learns nothing.
//!
//! Empty successors are left out unless [`StateOptions::include_empty`]; then only the
//! feedbacks the game can produce at all count (for `k = 2`, `w` is always even, so the start
//! of [2,2] has 4 guesses x 4 feedbacks = 16 successors). Sets are `u64` bitmasks, so the code
//! space may have at most [`MAX_STATE_CODES`] codes, and a drawing at most
//! [`MAX_STATE_NODES`] nodes.

use std::collections::HashMap;

use thiserror::Error;

use crate::code::CodeIndex;
use crate::feedback::FeedbackIndex;
use crate::space::CodeSpace;

/// Most codes a game may have for its state graph (sets are 64-bit masks).
pub const MAX_STATE_CODES: usize = 64;
/// Most nodes a state graph may have; larger ones cannot be drawn usefully.
pub const MAX_STATE_NODES: u64 = 5000;
/// Most edges a state graph may have.
pub const MAX_STATE_EDGES: u64 = 20_000;
/// Distinct sets counted before giving up on the size of a merged graph.
const COUNT_LIMIT: u64 = 100_000;

/// Which state graph to build.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StateOptions {
    /// Keep the empty successors (only of feedbacks the game can produce).
    pub include_empty: bool,
    /// One node per distinct candidate set (a multigraph with self-loops).
    pub merge_equal: bool,
    /// Expand states down to this depth only (the start is depth 0).
    pub max_depth: Option<u32>,
}

/// A node: a candidate set (codes in lexicographic order) and its depth from the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateNode {
    /// The candidates.
    pub codes: Vec<CodeIndex>,
    /// Fewest rounds from the start (merged) or rounds on its path (every successor).
    pub depth: u32,
}

/// An edge `(u, r)` from a state to its successor `K(u,r)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateEdge {
    /// Index of the source state.
    pub from: usize,
    /// Index of the successor.
    pub to: usize,
    /// The guess `u`.
    pub guess: CodeIndex,
    /// The feedback `r`.
    pub feedback: FeedbackIndex,
}

/// The states (node 0 is the start, `H`) and the edges between them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateGraph {
    /// Nodes in discovery order.
    pub nodes: Vec<StateNode>,
    /// Edges grouped by source, then by guess and feedback order.
    pub edges: Vec<StateEdge>,
}

/// Why a state graph was not built.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StatesError {
    /// The code space is too large for 64-bit sets.
    #[error("game {game} has {codes} codes; the state graph is drawn for games of at most {max} codes")]
    TooManyCodes {
        /// The game, e.g. `[4,6]`.
        game: String,
        /// Its number of codes.
        codes: usize,
        /// [`MAX_STATE_CODES`].
        max: usize,
    },
    /// The graph is too large to draw.
    #[error("the state graph of {game} has {nodes} nodes and {edges} edges, too many to draw (at most {MAX_STATE_NODES} nodes and {MAX_STATE_EDGES} edges)")]
    TooLarge {
        /// The game.
        game: String,
        /// Nodes, or `more than N` when counting stopped.
        nodes: String,
        /// Edges, or `more than N` when counting stopped.
        edges: String,
    },
}

/// The successors of one set under every guess: `(guess, feedback, successor)` in guess then
/// feedback order, empty successors only for `feedbacks` the game can produce.
struct Successors<'a> {
    space: &'a CodeSpace,
    /// `table[g][c]`: feedback index of guess `g` against code `c`.
    table: Vec<Vec<u8>>,
    /// The feedbacks some pair of codes produces.
    feedbacks: Vec<FeedbackIndex>,
    include_empty: bool,
}

impl<'a> Successors<'a> {
    fn new(space: &'a CodeSpace, include_empty: bool) -> Successors<'a> {
        let all = space.all_indices();
        let table: Vec<Vec<u8>> =
            all.iter().map(|&g| all.iter().map(|&c| space.feedback(g, c).index()).collect()).collect();
        let mut seen = vec![false; space.scheme().len()];
        for row in &table {
            for &f in row {
                seen[f as usize] = true;
            }
        }
        let feedbacks = (0..seen.len()).filter(|&f| seen[f]).map(|f| FeedbackIndex::from_index(f as u8)).collect();
        Successors { space, table, feedbacks, include_empty }
    }

    fn of(&self, set: u64) -> Vec<(CodeIndex, FeedbackIndex, u64)> {
        let mut out = Vec::new();
        for (g, row) in self.table.iter().enumerate() {
            let mut parts = vec![0u64; self.space.scheme().len()];
            for (c, &f) in row.iter().enumerate() {
                if set >> c & 1 == 1 {
                    parts[f as usize] |= 1 << c;
                }
            }
            for &f in &self.feedbacks {
                let part = parts[f.get()];
                if part != 0 || self.include_empty {
                    out.push((CodeIndex::from_index(g as u32), f, part));
                }
            }
        }
        out
    }
}

/// The state graph of a small game.
///
/// ```
/// use mmtree_core::{state_graph, CodeSpace, Game, GameSpec, MemoryLimit, StateOptions};
/// let space = CodeSpace::new(Game::new(GameSpec::mastermind(1, 2))?, MemoryLimit(1 << 30))?;
/// let merged = StateOptions { merge_equal: true, ..StateOptions::default() };
/// let graph = state_graph(&space, merged)?;
/// // {1,2}, {1}, {2}; from each singleton both guesses learn nothing: 4 self-loops.
/// assert_eq!(graph.nodes.len(), 3);
/// assert_eq!(graph.edges.iter().filter(|e| e.from == e.to).count(), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn state_graph(space: &CodeSpace, options: StateOptions) -> Result<StateGraph, StatesError> {
    let game = space.game().to_string();
    if space.len() > MAX_STATE_CODES {
        return Err(StatesError::TooManyCodes { game, codes: space.len(), max: MAX_STATE_CODES });
    }
    let succ = Successors::new(space, options.include_empty);
    let start = if space.len() == 64 { u64::MAX } else { (1u64 << space.len()) - 1 };
    let deeper = |depth: u32| options.max_depth.is_none_or(|d| depth < d);
    let too_large = |nodes: String, edges: String| StatesError::TooLarge { game: game.clone(), nodes, edges };
    let mut graph = StateGraph { nodes: Vec::new(), edges: Vec::new() };
    let mut sets: Vec<u64> = Vec::new();
    let add = |graph: &mut StateGraph, sets: &mut Vec<u64>, set: u64, depth: u32| {
        let codes = (0..space.len()).filter(|&c| set >> c & 1 == 1).map(|c| CodeIndex::from_index(c as u32)).collect();
        graph.nodes.push(StateNode { codes, depth });
        sets.push(set);
        graph.nodes.len() - 1
    };
    if options.merge_equal {
        let mut index: HashMap<u64, usize> = HashMap::new();
        index.insert(start, add(&mut graph, &mut sets, start, 0));
        let mut next = 0;
        // Breadth first, so a node's depth is its fewest rounds from the start. Past the
        // limits only the size is counted (edges no longer stored), for the message.
        let mut edges = 0u64;
        while next < sets.len() {
            let (set, depth) = (sets[next], graph.nodes[next].depth);
            if set != 0 && deeper(depth) {
                for (guess, feedback, part) in succ.of(set) {
                    let to = match index.get(&part) {
                        Some(&to) => to,
                        None if sets.len() as u64 >= COUNT_LIMIT => {
                            return Err(too_large(format!("more than {COUNT_LIMIT}"), format!("at least {edges}")))
                        }
                        None => {
                            let to = add(&mut graph, &mut sets, part, depth + 1);
                            index.insert(part, to);
                            to
                        }
                    };
                    edges += 1;
                    if edges <= MAX_STATE_EDGES {
                        graph.edges.push(StateEdge { from: next, to, guess, feedback });
                    }
                }
            }
            next += 1;
        }
        if sets.len() as u64 > MAX_STATE_NODES || edges > MAX_STATE_EDGES {
            return Err(too_large(sets.len().to_string(), edges.to_string()));
        }
        return Ok(graph);
    }
    // Every successor its own node: count first (per set and depth, memoised) to refuse early.
    let mut memo: HashMap<(u64, u32), Size> = HashMap::new();
    let size = count_tree(&succ, start, 0, &options, &mut memo);
    if size.nodes > MAX_STATE_NODES || size.edges > MAX_STATE_EDGES {
        let text = |n: u64, max: u64| if n == u64::MAX { format!("more than {max}") } else { n.to_string() };
        return Err(too_large(text(size.nodes, MAX_STATE_NODES), text(size.edges, MAX_STATE_EDGES)));
    }
    add(&mut graph, &mut sets, start, 0);
    let mut stack = vec![(0usize, start)];
    while let Some((from, parent)) = stack.pop() {
        let depth = graph.nodes[from].depth;
        let mut children = Vec::new();
        for (guess, feedback, part) in succ.of(parent) {
            if part == parent {
                graph.edges.push(StateEdge { from, to: from, guess, feedback });
                continue;
            }
            let to = add(&mut graph, &mut sets, part, depth + 1);
            graph.edges.push(StateEdge { from, to, guess, feedback });
            if part != 0 && deeper(depth + 1) {
                children.push((to, part));
            }
        }
        stack.extend(children.into_iter().rev());
    }
    Ok(graph)
}

/// Nodes and edges of a drawing, saturating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Size {
    nodes: u64,
    edges: u64,
}

/// The every-successor drawing below `set` (itself included); `u64::MAX` once too many
/// distinct sets were met to go on counting.
fn count_tree(
    succ: &Successors,
    set: u64,
    depth: u32,
    options: &StateOptions,
    memo: &mut HashMap<(u64, u32), Size>,
) -> Size {
    // Depth matters only when it limits the expansion.
    let key = (set, if options.max_depth.is_some() { depth } else { 0 });
    if let Some(&size) = memo.get(&key) {
        return size;
    }
    if memo.len() as u64 >= COUNT_LIMIT {
        return Size { nodes: u64::MAX, edges: u64::MAX };
    }
    let mut size = Size { nodes: 1, edges: 0 };
    if options.max_depth.is_none_or(|d| depth < d) {
        for (_, _, part) in succ.of(set) {
            size.edges = size.edges.saturating_add(1);
            if part == set {
                continue;
            }
            let below = if part != 0 && options.max_depth.is_none_or(|d| depth + 1 < d) {
                count_tree(succ, part, depth + 1, options, memo)
            } else {
                Size { nodes: 1, edges: 0 }
            };
            size.nodes = size.nodes.saturating_add(below.nodes);
            size.edges = size.edges.saturating_add(below.edges);
        }
    }
    memo.insert(key, size);
    size
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, GameSpec, MemoryLimit};

    fn space(n: u8, k: u8) -> CodeSpace {
        CodeSpace::new(Game::new(GameSpec::mastermind(n, k)).unwrap(), MemoryLimit(1 << 30)).unwrap()
    }

    #[test]
    fn start_of_two_two_has_sixteen_successors() {
        let options = StateOptions { include_empty: true, max_depth: Some(1), ..StateOptions::default() };
        let graph = state_graph(&space(2, 2), options).unwrap();
        assert_eq!((graph.nodes.len(), graph.edges.len()), (17, 16));
        let empty = graph.nodes.iter().filter(|n| n.codes.is_empty()).count();
        assert_eq!(empty, 4, "each guess has one impossible feedback among the four");
    }

    #[test]
    fn counting_matches_building() {
        let space = space(2, 2);
        for merge_equal in [false, true] {
            for include_empty in [false, true] {
                let options = StateOptions { include_empty, merge_equal, max_depth: None };
                let graph = state_graph(&space, options).unwrap();
                if !merge_equal {
                    let mut memo = HashMap::new();
                    let succ = Successors::new(&space, include_empty);
                    let size = count_tree(&succ, 15, 0, &options, &mut memo);
                    assert_eq!(size, Size { nodes: graph.nodes.len() as u64, edges: graph.edges.len() as u64 });
                    let loops = graph.edges.iter().filter(|e| e.from == e.to).count();
                    assert_eq!(graph.edges.len() - loops + 1, graph.nodes.len(), "a tree apart from loops");
                }
            }
        }
    }

    #[test]
    fn large_games_are_refused_with_their_size() {
        let err = state_graph(&space(4, 6), StateOptions::default()).unwrap_err();
        assert!(err.to_string().contains("1296 codes"), "{err}");
        let err = state_graph(&space(3, 3), StateOptions::default()).unwrap_err();
        assert!(matches!(err, StatesError::TooLarge { .. }), "{err}");
        let merged = StateOptions { merge_equal: true, ..StateOptions::default() };
        let err = state_graph(&space(3, 3), merged).unwrap_err();
        assert!(matches!(err, StatesError::TooLarge { .. }), "{err}");
    }
}
