//! `mmtree.Tree` and the functions that make or read one: `solve`, `load`, `verify`.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use numpy::PyArray1;
use pyo3::prelude::*;

use mmtree_core::{Alphabet, CodeSpace, MemoryLimit, Node, StrategyTree};
use mmtree_io::{strategy_graph, to_dot_with, DotLabels, DotOptions, OutputPath, RankDir, RuleInfo, TreeFile};
use mmtree_strategy::Solver;
use mmtree_sweep::{recorded_rule, SolveReport};

use crate::convert::row_to_py;
use crate::errors::{bad, failed, lib, raise};
use crate::game::{memory_limit_of, rule, PyGame, RuleArgs};
use crate::work;

/// A complete strategy tree: every secret of the game found, with the figures of
/// `solve --format json` in `stats`.
///
/// >>> import mmtree
/// >>> t = mmtree.solve(4, 6)
/// >>> (t.stats["first_guess"], t.stats["max"], t.stats["total"])
/// ('1122', 5, 5801)
/// >>> t.histogram
/// [1, 6, 62, 533, 694]
/// >>> t.path("1234")[0]
/// ('1122', (1, 1))
#[pyclass(module = "mmtree", name = "Tree", frozen)]
pub struct PyTree {
    tree: StrategyTree,
    space: CodeSpace,
    game: PyGame,
    info: RuleInfo,
    report: SolveReport,
}

#[pymethods]
impl PyTree {
    /// The figures, with exactly the keys of `mmtree solve --format json`.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let value = serde_json::to_value(&self.report).map_err(|e| failed(e.to_string()))?;
        Ok(row_to_py(py, &value, &SolveReport::COLUMNS)?.into_any())
    }

    /// `histogram[i]`: secrets found with `i + 1` guesses.
    #[getter]
    fn histogram(&self) -> Vec<u64> {
        self.report.histogram.clone()
    }

    /// Guesses summed over all secrets.
    #[getter]
    fn total(&self) -> u64 {
        self.report.total
    }

    /// Most guesses any secret needs.
    #[getter]
    fn max(&self) -> u32 {
        self.report.max
    }

    /// Average guesses per secret.
    #[getter]
    fn average(&self) -> f64 {
        self.report.average
    }

    /// The first guess.
    #[getter]
    fn first_guess(&self) -> String {
        self.report.first_guess.clone()
    }

    /// The game the tree plays.
    #[getter]
    fn game(&self) -> PyGame {
        self.game.clone()
    }

    /// The number of guesses each secret needs, in code order (`1111`, `1112`, ...), as a
    /// NumPy array of `uint32` (handed over without a copy).
    fn depths<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        let mut depths = vec![0u32; self.space.len()];
        for (secret, depth) in self.tree.leaf_depths() {
            if let Some(slot) = depths.get_mut(secret.get()) {
                *slot = depth;
            }
        }
        PyArray1::from_vec(py, depths)
    }

    /// The game against `secret`: each guess with its feedback `(black, white)`, the last
    /// one winning.
    fn path(&self, secret: &str) -> PyResult<Vec<(String, (u8, u8))>> {
        let secret = self.game.code(&self.space, secret, Some("secret"))?;
        let scheme = self.space.scheme();
        let mut rounds = Vec::new();
        let mut at = self.tree.root();
        loop {
            let Node::Guess { guess, .. } = *self.tree.node(at) else {
                return Err(failed("the tree reaches a leaf without a winning guess (run mmtree.verify)"));
            };
            if self.space.try_code(guess.index()).is_none() {
                return Err(failed("a guess of the tree is not a code of the game (run mmtree.verify)"));
            }
            let f = self.space.feedback(guess, secret);
            let fb = scheme.feedback(f);
            rounds.push((self.game.alphabet.format(&self.space.code(guess)), (fb.black, fb.white)));
            if f == scheme.win() {
                return Ok(rounds);
            }
            let Some(edge) = self.tree.children(at).iter().find(|e| e.feedback == f) else {
                return Err(failed(format!(
                    "the tree has no branch for feedback {} after guess {} (run mmtree.verify)",
                    scheme.format(f),
                    rounds.len()
                )));
            };
            at = edge.child;
        }
    }

    /// Writes the tree file (`mmtree stats`, `verify`, `dot`... read it), atomically.
    fn save(&self, path: PathBuf) -> PyResult<()> {
        let output = lib(OutputPath::check(&path, "path"))?;
        let bytes = TreeFile::new(self.tree.clone(), self.game.symbols_of_game(), self.info.clone()).to_bytes();
        lib(output.write(&bytes, &mut std::io::stdout()))
    }

    /// The tree as Graphviz DOT text, as `mmtree dot` draws it.
    #[pyo3(signature = (max_depth = None, max_set = 8, labels = "set", win_edges = false, rankdir = None))]
    fn to_dot(
        &self,
        max_depth: Option<u32>,
        max_set: usize,
        labels: &str,
        win_edges: bool,
        rankdir: Option<&str>,
    ) -> PyResult<String> {
        let labels = match labels {
            "set" => DotLabels::Set,
            "rounds" => DotLabels::Rounds,
            "size" => DotLabels::Size,
            other => return Err(bad(format!("unknown labels '{other}': expected one of set, rounds, size"))),
        };
        let rankdir = match rankdir.map(|r| r.to_ascii_uppercase()) {
            None => None,
            Some(r) if r == "TB" => Some(RankDir::TopBottom),
            Some(r) if r == "LR" => Some(RankDir::LeftRight),
            Some(r) if r == "BT" => Some(RankDir::BottomTop),
            Some(r) if r == "RL" => Some(RankDir::RightLeft),
            Some(r) => return Err(bad(format!("unknown rankdir '{r}': expected one of TB, LR, BT, RL"))),
        };
        let options = DotOptions { max_depth, max_set, labels, win_edges, rankdir };
        let graph = strategy_graph(&self.tree, &self.space, &self.game.alphabet, options);
        Ok(to_dot_with(&graph, &options))
    }

    fn __repr__(&self) -> String {
        format!(
            "<Tree {} {}: first guess {}, max {}, total {}>",
            self.game.game, self.report.valuation, self.report.first_guess, self.report.max, self.report.total
        )
    }
}

impl PyGame {
    /// The symbols a tree file records: the first `k`.
    fn symbols_of_game(&self) -> String {
        self.alphabet.first(self.game.k())
    }
}

impl PyTree {
    /// A tree with its figures; `report` is computed by the caller from the same tree.
    pub fn new(tree: StrategyTree, space: CodeSpace, game: PyGame, info: RuleInfo, report: SolveReport) -> PyTree {
        PyTree { tree, space, game, info, report }
    }
}

/// Builds the tree of a game under a rule, like `mmtree solve`.
///
/// `game_or_n` is a `Game`, or the number of pegs with `k` colours. `valuation` is one of
/// minimax, expected-size, entropy, most-parts, first-candidate, human; `pool` all or
/// candidates; `first` a fixed first guess; `ties` smallest or largest; `lookahead` 1 or 2.
///
/// >>> import mmtree
/// >>> mmtree.solve(4, 6, "entropy").total
/// 5722
#[pyfunction]
#[pyo3(signature = (game_or_n, k = None, valuation = "minimax", pool = "all", first = None, ties = "smallest",
    prefer_candidates = true, lookahead = 1, *, memory_limit = None))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    game_or_n: &Bound<'_, PyAny>,
    k: Option<i128>,
    valuation: &str,
    pool: &str,
    first: Option<&str>,
    ties: &str,
    prefer_candidates: bool,
    lookahead: i64,
    memory_limit: Option<&str>,
) -> PyResult<PyTree> {
    let game = PyGame::resolve(game_or_n, k, memory_limit)?;
    let space = game.space()?;
    let args = RuleArgs { valuation, pool, first, ties, prefer_candidates, lookahead };
    let rule = rule(&args, &game, &space)?;
    // The builder has no stop flag: Ctrl-C is raised once the tree is built.
    let never = AtomicBool::new(false);
    let tree = work::run(py, &never, || Solver::new(&space, rule).build(), |_| Ok(()))?;
    let report = SolveReport::new(&game.game, &rule, &tree, &space, &game.alphabet);
    let info = RuleInfo::new(
        rule.name(),
        rule.pool.name(),
        rule.ties.name(),
        rule.prefer_candidates,
        rule.first_guess.map(|g| game.alphabet.format(&space.code(g))),
    );
    Ok(PyTree::new(tree, space, game, info, report))
}

/// A tree file read from `path`, refused as `mmtree stats` refuses it.
pub fn prepare(path: &Path, file: TreeFile, limit: MemoryLimit) -> PyResult<PyTree> {
    let shown = format!("'{}'", path.display());
    recorded_rule(&file.header.rule).map_err(|e| raise(Some(&shown), &e))?;
    let alphabet = Alphabet::new(&file.header.symbols)
        .map_err(|e| raise(Some(&format!("{shown}: invalid symbols in the header")), &e))?;
    let game = *file.tree.game();
    if alphabet.len() < game.k() as usize {
        return Err(bad(format!(
            "{shown}: the header's symbols '{}' cannot write {} colours",
            file.header.symbols,
            game.k()
        )));
    }
    let space = CodeSpace::new(game, limit).map_err(|e| raise(Some(&shown), &e))?;
    let report = SolveReport::from_file(&file, &space, &alphabet).map_err(|e| raise(Some(&shown), &e))?;
    let TreeFile { tree, header } = file;
    Ok(PyTree::new(tree, space, PyGame { game, alphabet, limit }, header.rule, report))
}

/// Reads a tree file written by `Tree.save` or `mmtree solve -o`.
#[pyfunction]
#[pyo3(signature = (path, *, memory_limit = None))]
pub fn load(path: PathBuf, memory_limit: Option<&str>) -> PyResult<PyTree> {
    let limit = memory_limit_of(memory_limit)?;
    prepare(&path, lib(TreeFile::read(&path, limit))?, limit)
}

/// Checks a tree file with the independent checker, like `mmtree verify`; returns its
/// figures (the keys of `solve --format json`) or raises `RuntimeError` naming the defect.
#[pyfunction]
#[pyo3(signature = (path, *, memory_limit = None))]
pub fn verify<'py>(py: Python<'py>, path: PathBuf, memory_limit: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
    let limit = memory_limit_of(memory_limit)?;
    let file = lib(TreeFile::read(&path, limit))?;
    let shown = format!("'{}'", path.display());
    recorded_rule(&file.header.rule).map_err(|e| raise(Some(&shown), &e))?;
    let never = AtomicBool::new(false);
    work::run(py, &never, || mmtree_verify::verify(&file, limit), |_| Ok(()))?
        .map_err(|e| raise(Some(&format!("{shown} is not a valid strategy tree")), &e))?;
    // The recorded figures equal the re-derived ones once verified.
    prepare(&path, file, limit)?.stats(py)
}
