//! One tree as independent jobs: the top of the tree above a split depth, the nodes at that
//! depth (one subtree each), and the subtree or the guess of a node rebuilt from its history.
//!
//! The subtree below a node depends only on its candidate set, the rule and the symmetry of
//! the guesses played before it, and all three follow from the node's history (the rounds
//! leading to it). So a job needs nothing but the history, and a tree assembled from the top
//! and the jobs' subtrees is exactly the tree [`Solver::build`] builds in one process.

use std::collections::HashMap;

use mmtree_core::{CodeIndex, CodeSpace, FeedbackIndex, Subtree, Symmetry};
use rayon::prelude::*;

use super::{Representatives, Solver};
use crate::rule::{Method, Pool};

/// One round of a game: the guess played and the feedback it received.
pub type Round = (CodeIndex, FeedbackIndex);

/// Where [`Top::expand`] gets the guess of a node: from its history and its candidates.
pub type GuessOf<'a, E> = dyn FnMut(&[Round], &[CodeIndex]) -> Result<CodeIndex, E> + 'a;

/// A node of the top of a tree, where a guess is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopNode {
    /// The rounds leading to it (empty at the root).
    pub history: Vec<Round>,
    /// How many candidates it has.
    pub candidates: u32,
    /// The guess played.
    pub guess: CodeIndex,
}

/// A node at the split depth: the root of one job's subtree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitNode {
    /// The rounds leading to it.
    pub history: Vec<Round>,
    /// How many candidates it has.
    pub candidates: u32,
}

/// The top of a tree down to a split depth: its nodes and the subtree roots below them, each
/// in the preorder of the whole tree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Top {
    /// The nodes above the split depth.
    pub nodes: Vec<TopNode>,
    /// The nodes at the split depth that are not leaves.
    pub split: Vec<SplitNode>,
}

impl Top {
    /// Expands the top to `depth` (at least 1), asking `guess` for the guess of each node
    /// above it (given its history and its candidates).
    ///
    /// ```
    /// use mmtree_core::{CodeSpace, Game, GameSpec, MemoryLimit};
    /// use mmtree_strategy::Top;
    /// let space = CodeSpace::new(Game::new(GameSpec::mastermind(2, 3))?, MemoryLimit(1 << 30))?;
    /// // Always play the first candidate: 11 leaves {12, 13, 21, 31} (1,0) and {22, 23, 32, 33} (0,0).
    /// let top = Top::expand(&space, 1, &mut |_, k| Ok::<_, ()>(k[0])).unwrap();
    /// assert_eq!((top.nodes.len(), top.split.len()), (1, 2));
    /// assert_eq!(top.split.iter().map(|s| s.candidates).sum::<u32>(), 8);
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn expand<E>(space: &CodeSpace, depth: usize, guess: &mut GuessOf<'_, E>) -> Result<Top, E> {
        let mut top = Top::default();
        let mut history = Vec::new();
        expand_node(space, depth.max(1), &mut history, space.all_indices(), guess, &mut top)?;
        Ok(top)
    }
}

impl Top {
    /// The whole tree: the top's guesses, and below them `subtrees`, the subtree of each node
    /// of [`Top::split`] in that order. Errors name the first node that does not fit.
    ///
    /// ```
    /// use mmtree_core::{CodeSpace, Game, GameSpec, MemoryLimit, StrategyTree};
    /// use mmtree_strategy::{GuessRule, Solver, Valuation};
    /// let space = CodeSpace::new(Game::new(GameSpec::mastermind(3, 4))?, MemoryLimit(1 << 30))?;
    /// let solver = Solver::new(&space, GuessRule::new(Valuation::Minimax));
    /// let top = solver.top(2);
    /// let subtrees = top.split.iter().map(|s| solver.subtree_at(&s.history).unwrap()).collect();
    /// let joined = top.join(&space, subtrees).unwrap();
    /// assert_eq!(StrategyTree::from_subtree(*space.game(), joined), solver.build());
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn join(&self, space: &CodeSpace, subtrees: Vec<Subtree>) -> Result<Subtree, JoinError> {
        if subtrees.len() != self.split.len() {
            return Err(JoinError {
                history: Vec::new(),
                problem: "the number of subtrees differs from the split nodes",
            });
        }
        let depth = self.split.first().map_or(usize::MAX, |s| s.history.len());
        let guesses: HashMap<&[Round], CodeIndex> =
            self.nodes.iter().map(|n| (n.history.as_slice(), n.guess)).collect();
        let mut below: HashMap<&[Round], Subtree> =
            self.split.iter().map(|s| s.history.as_slice()).zip(subtrees).collect();
        let mut history = Vec::new();
        join_node(space, depth, &guesses, &mut below, &mut history, space.all_indices())
    }
}

/// Why a top and subtrees do not make a tree: the node (its history) and the problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{problem}")]
pub struct JoinError {
    /// The rounds leading to the node.
    pub history: Vec<Round>,
    /// What is wrong there.
    pub problem: &'static str,
}

fn join_node(
    space: &CodeSpace,
    depth: usize,
    guesses: &HashMap<&[Round], CodeIndex>,
    below: &mut HashMap<&[Round], Subtree>,
    history: &mut Vec<Round>,
    candidates: Vec<CodeIndex>,
) -> Result<Subtree, JoinError> {
    let problem = |history: &[Round], problem| JoinError { history: history.to_vec(), problem };
    let guess = *guesses.get(history.as_slice()).ok_or_else(|| problem(history, "no guess for this node"))?;
    if guess.get() >= space.len() {
        return Err(problem(history, "the guess is not a code of the game"));
    }
    let win = space.scheme().win();
    let m = candidates.len() as u32;
    let parts = space.split(guess, &candidates);
    drop(candidates);
    if parts.len() == 1 && parts[0].0 != win {
        return Err(problem(history, "the guess does not split the candidates"));
    }
    let mut children = Vec::with_capacity(parts.len());
    for (feedback, part) in parts {
        if feedback == win {
            children.push((feedback, Subtree::Leaf(guess)));
            continue;
        }
        history.push((guess, feedback));
        let child = if history.len() == depth {
            let sub = below.remove(history.as_slice()).ok_or_else(|| problem(history, "no subtree for this node"))?;
            match &sub {
                Subtree::Guess { candidates, .. } if *candidates as usize == part.len() => sub,
                _ => return Err(problem(history, "the subtree does not have the node's candidates")),
            }
        } else {
            join_node(space, depth, guesses, below, history, part)?
        };
        history.pop();
        children.push((feedback, child));
    }
    Ok(Subtree::Guess { guess, candidates: m, children })
}

fn expand_node<E>(
    space: &CodeSpace,
    depth: usize,
    history: &mut Vec<Round>,
    candidates: Vec<CodeIndex>,
    guess: &mut GuessOf<'_, E>,
    top: &mut Top,
) -> Result<(), E> {
    if history.len() == depth {
        top.split.push(SplitNode { history: history.clone(), candidates: candidates.len() as u32 });
        return Ok(());
    }
    let g = guess(history, &candidates)?;
    top.nodes.push(TopNode { history: history.clone(), candidates: candidates.len() as u32, guess: g });
    let win = space.scheme().win();
    for (feedback, part) in space.split(g, &candidates) {
        if feedback != win {
            history.push((g, feedback));
            expand_node(space, depth, history, part, guess, top)?;
            history.pop();
        }
    }
    Ok(())
}

/// The codes consistent with every round of `history`, in lexicographic order.
///
/// ```
/// use mmtree_core::{CodeIndex, CodeSpace, Game, GameSpec, MemoryLimit};
/// let space = CodeSpace::new(Game::new(GameSpec::mastermind(2, 3))?, MemoryLimit(1 << 30))?;
/// let (g, s) = (CodeIndex::from_index(0), CodeIndex::from_index(4));
/// let left = mmtree_strategy::candidates_after(&space, &[(g, space.feedback(g, s))]);
/// assert!(left.contains(&s) && !left.contains(&g));
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
pub fn candidates_after(space: &CodeSpace, history: &[Round]) -> Vec<CodeIndex> {
    let mut candidates = space.all_indices();
    for &(guess, feedback) in history {
        candidates.retain(|&c| space.feedback(guess, c) == feedback);
    }
    candidates
}

/// The candidate sets of many histories, each taken from its parent's partition by the
/// guess (kept), so the subtrees of one shard cost one pass over each parent's set, not one
/// per subtree.
///
/// ```
/// use mmtree_core::{CodeIndex, CodeSpace, Game, GameSpec, MemoryLimit};
/// use mmtree_strategy::{candidates_after, CandidateCache};
/// let space = CodeSpace::new(Game::new(GameSpec::mastermind(3, 4))?, MemoryLimit(1 << 30))?;
/// let (g, h) = (CodeIndex::from_index(5), CodeIndex::from_index(40));
/// let history = [(g, space.feedback(g, h)), (h, space.feedback(h, g))];
/// let mut cache = CandidateCache::new(&space);
/// assert_eq!(cache.candidates(&history), candidates_after(&space, &history));
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
pub struct CandidateCache<'s> {
    space: &'s CodeSpace,
    /// The parts of a history's candidates under a guess, by feedback.
    parts: HashMap<(Vec<Round>, CodeIndex), HashMap<FeedbackIndex, Vec<CodeIndex>>>,
}

impl<'s> CandidateCache<'s> {
    /// An empty cache.
    pub fn new(space: &'s CodeSpace) -> CandidateCache<'s> {
        CandidateCache { space, parts: HashMap::new() }
    }

    /// The codes consistent with every round of `history` (the partitions of its proper
    /// prefixes are kept).
    pub fn candidates(&mut self, history: &[Round]) -> Vec<CodeIndex> {
        let Some((&(guess, feedback), prefix)) = history.split_last() else {
            return self.space.all_indices();
        };
        let key = (prefix.to_vec(), guess);
        if !self.parts.contains_key(&key) {
            let set = self.candidates(prefix);
            self.parts.insert(key.clone(), self.space.split(guess, &set).into_iter().collect());
        }
        self.parts[&key].get(&feedback).cloned().unwrap_or_default()
    }
}

impl Solver<'_> {
    /// The top of this rule's tree down to `depth`: every guess above it chosen as
    /// [`Solver::build`] chooses it.
    pub fn top(&self, depth: usize) -> Top {
        let result: Result<Top, std::convert::Infallible> =
            Top::expand(self.space, depth, &mut |history, candidates| Ok(self.guess_of(history, candidates)));
        match result {
            Ok(top) => top,
            Err(never) => match never {},
        }
    }

    /// The guess the rule plays at the node reached by `history` (the same as in the tree).
    pub fn guess_at(&self, history: &[Round]) -> CodeIndex {
        self.guess_of(history, &candidates_after(self.space, history))
    }

    /// [`Solver::guess_at`] given the node's candidates (non-empty, those of `history`).
    pub fn guess_with(&self, history: &[Round], candidates: &[CodeIndex]) -> CodeIndex {
        self.guess_of(history, candidates)
    }

    /// The subtree below the node reached by `history`, exactly as it appears in the tree
    /// [`Solver::build`] builds. `None` when no code is consistent with the history.
    ///
    /// ```
    /// use mmtree_core::{CodeSpace, Game, GameSpec, MemoryLimit, StrategyTree};
    /// use mmtree_strategy::{GuessRule, Solver, Valuation};
    /// let space = CodeSpace::new(Game::new(GameSpec::mastermind(3, 4))?, MemoryLimit(1 << 30))?;
    /// let solver = Solver::new(&space, GuessRule::new(Valuation::Entropy));
    /// let whole = solver.build();
    /// let root = solver.subtree_at(&[]).unwrap();
    /// assert_eq!(StrategyTree::from_subtree(*space.game(), root), whole);
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn subtree_at(&self, history: &[Round]) -> Option<Subtree> {
        let candidates = candidates_after(self.space, history);
        if candidates.is_empty() {
            return None;
        }
        let fixed = if history.is_empty() { self.rule.first_guess } else { None };
        Some(self.subtree(candidates, fixed, &self.history_symmetry(history), None))
    }

    /// The subtrees of many nodes, each given by its history and its candidates (those
    /// consistent with the history, e.g. from a [`CandidateCache`]), built in parallel and
    /// returned in order, each exactly as in [`Solver::build`]'s tree (`None` for a node
    /// without candidates). Nodes reached by the same guesses share the list of guesses their
    /// searches test against the group, as siblings do in one process.
    ///
    /// ```
    /// use mmtree_core::{CodeSpace, Game, GameSpec, MemoryLimit};
    /// use mmtree_strategy::{CandidateCache, GuessRule, Solver, Valuation};
    /// let space = CodeSpace::new(Game::new(GameSpec::mastermind(3, 4))?, MemoryLimit(1 << 30))?;
    /// let solver = Solver::new(&space, GuessRule::new(Valuation::Minimax));
    /// let top = solver.top(1);
    /// let mut cache = CandidateCache::new(&space);
    /// let nodes = top.split.iter().map(|s| (s.history.clone(), cache.candidates(&s.history))).collect();
    /// let built = solver.subtrees_with(nodes);
    /// let one_by_one: Vec<_> = top.split.iter().map(|s| solver.subtree_at(&s.history)).collect();
    /// assert_eq!(built, one_by_one);
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn subtrees_with(&self, nodes: Vec<(Vec<Round>, Vec<CodeIndex>)>) -> Vec<Option<Subtree>> {
        let guesses = |history: &[Round]| history.iter().map(|r| r.0).collect::<Vec<_>>();
        let mut large: HashMap<Vec<CodeIndex>, usize> = HashMap::new();
        for (history, candidates) in &nodes {
            if candidates.len() > super::choice::LAID_OUT_MAX {
                *large.entry(guesses(history)).or_default() += 1;
            }
        }
        let shared: HashMap<Vec<CodeIndex>, Representatives> =
            large.into_iter().filter(|&(_, n)| n >= 2).map(|(g, _)| (g, Representatives::new())).collect();
        nodes
            .into_par_iter()
            .map(|(history, candidates)| {
                if candidates.is_empty() {
                    return None;
                }
                let fixed = if history.is_empty() { self.rule.first_guess } else { None };
                let symmetry = self.history_symmetry(&history);
                Some(self.subtree(candidates, fixed, &symmetry, shared.get(&guesses(&history))))
            })
            .collect()
    }

    /// The estimated cost of building the subtree of a node with `candidates` codes, in
    /// guess-candidate pairs scored: each level of the subtree scores the pool against at most
    /// all of its candidates, and the subtree has about `log_b m` levels with real scans (b
    /// feedbacks). Only ratios matter for balancing shards.
    pub fn estimated_cost(&self, candidates: usize) -> f64 {
        let m = candidates.max(1) as f64;
        let feedbacks = (self.space.scheme().len() as f64 - 1.0).max(2.0);
        let levels = (m.ln() / feedbacks.ln()).max(1.0);
        let pool = match (self.rule.method, self.rule.pool) {
            (Method::FirstCandidate | Method::Human, _) => 1.0,
            (_, Pool::All) => self.space.len() as f64,
            (_, Pool::Candidates) => m,
        };
        // The look-ahead scores a second step on every part of every guess it keeps.
        let step = if self.rule.method == Method::Lookahead2 { pool } else { 1.0 };
        m * pool * step * levels
    }

    /// The rule's guess at a node, with its fixed first guess at the root.
    fn guess_of(&self, history: &[Round], candidates: &[CodeIndex]) -> CodeIndex {
        match self.rule.first_guess {
            Some(first) if history.is_empty() => first,
            _ => self.choose_with(candidates, &self.history_symmetry(history), None),
        }
    }

    /// The symmetry the builder carries to the node reached by `history`.
    fn history_symmetry(&self, history: &[Round]) -> Symmetry {
        let mut symmetry = self.root_symmetry();
        if self.symmetry {
            for &(g, _) in history {
                symmetry = symmetry.after(&self.space.code(g));
            }
        }
        symmetry
    }
}
