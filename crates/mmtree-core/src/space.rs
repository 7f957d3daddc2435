//! The code space: every code of a game in lexicographic order, and fast scoring over it.

use rayon::prelude::*;

use crate::code::{Code, CodeIndex};
use crate::error::GameError;
use crate::feedback::{FeedbackIndex, FeedbackScheme, MAX_FEEDBACKS};
use crate::game::{FeedbackKind, Game, Variant, MAX_PEGS};
use crate::memory::MemoryLimit;
use crate::scan::CodePool;
use crate::score::PackedCode;

/// Part sizes per feedback index, on the stack.
pub type Counts = [u32; MAX_FEEDBACKS];

/// All codes of a game, lexicographically ordered, with their packed forms and, when it fits,
/// the `|H| x |H|` table of feedback indices.
///
/// ```
/// use mmtree_core::{Alphabet, CodeSpace, Game, GameSpec, MemoryLimit};
/// let space = CodeSpace::new(Game::new(GameSpec::mastermind(4, 6))?, MemoryLimit(1 << 30))?;
/// let abc = Alphabet::default();
/// let i = space.index(&abc.parse(space.game(), "1122")?).unwrap();
/// assert_eq!(i.index(), 7); // 1111, 1112, ..., 1116, 1121, 1122
/// assert_eq!(abc.format(&space.code(i)), "1122");
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
pub struct CodeSpace {
    game: Game,
    scheme: FeedbackScheme,
    codes: Vec<Code>,
    packed: Vec<PackedCode>,
    lookup: [u8; 256],
    lanes: usize,
    peg_mask: u32,
    table: Option<Vec<u8>>,
    pool: std::sync::OnceLock<CodePool>,
}

impl CodeSpace {
    /// Enumerates the codes after checking the estimated memory against `limit`.
    pub fn new(game: Game, limit: MemoryLimit) -> Result<CodeSpace, GameError> {
        limit.check(&game)?;
        let codes = enumerate(&game);
        let packed = codes.iter().map(PackedCode::new).collect();
        let scheme = FeedbackScheme::new(&game);
        let lookup = scheme.packed_lookup();
        Ok(CodeSpace {
            lanes: (game.k() as usize).div_ceil(16),
            peg_mask: (1u32 << game.n()) - 1,
            game,
            scheme,
            codes,
            packed,
            lookup,
            table: None,
            pool: std::sync::OnceLock::new(),
        })
    }

    /// Precomputes the feedback table if `|H|^2` bytes fit in `budget`; returns whether it did.
    pub fn build_table(&mut self, budget: u64) -> bool {
        let n = self.codes.len();
        if self.table.is_some() {
            return true;
        }
        if (n as u128) * (n as u128) > u128::from(budget) {
            return false;
        }
        let mut table = vec![0u8; n * n];
        table.par_chunks_mut(n).enumerate().for_each(|(g, row)| match self.lanes {
            1 => self.fill_row::<1>(g, row),
            2 => self.fill_row::<2>(g, row),
            _ => self.fill_row::<3>(g, row),
        });
        self.table = Some(table);
        true
    }

    fn fill_row<const L: usize>(&self, g: usize, row: &mut [u8]) {
        let pg = &self.packed[g];
        for (slot, pc) in row.iter_mut().zip(&self.packed) {
            let (b, t) = pg.black_total::<L>(pc, self.peg_mask);
            *slot = self.lookup[((b << 4) | t) as usize];
        }
    }

    /// The feedback indices of `code` against every code (its table row; by symmetry of the
    /// score also its column), if the table is in use.
    #[inline]
    pub fn table_row(&self, code: CodeIndex) -> Option<&[u8]> {
        let n = self.codes.len();
        self.table.as_ref().map(|t| &t[code.get() * n..(code.get() + 1) * n])
    }

    /// Every code laid out for scoring 32 guesses at once (built on first use).
    pub fn pool(&self) -> &CodePool {
        self.pool.get_or_init(|| CodePool::new(self, self.all_indices()))
    }

    /// The feedback index of a raw key `(b << 4) | t` from [`CodeBlocks`](crate::CodeBlocks).
    #[inline(always)]
    pub fn feedback_of_raw(&self, raw: u8) -> usize {
        self.lookup[raw as usize] as usize
    }

    /// The raw key `(b << 4) | t` ([`CodeBlocks`](crate::CodeBlocks)) of each feedback, in feedback order.
    pub fn raw_keys(&self) -> Vec<u8> {
        (0..self.scheme.len())
            .map(|i| {
                let fb = self.scheme.feedback(FeedbackIndex::from_index(i as u8));
                (fb.black << 4) | (fb.black + fb.white)
            })
            .collect()
    }

    /// Whether the feedback table is in use.
    pub fn has_table(&self) -> bool {
        self.table.is_some()
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game's feedbacks.
    pub fn scheme(&self) -> &FeedbackScheme {
        &self.scheme
    }

    /// `|H|`.
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    /// Never true: every game has a code.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// The code at an index. Panics on an index from another game (a bug, not user input).
    pub fn code(&self, index: CodeIndex) -> Code {
        self.codes[index.get()]
    }

    /// The code at an index, or `None` if out of range.
    pub fn try_code(&self, index: u32) -> Option<Code> {
        self.codes.get(index as usize).copied()
    }

    /// All codes with their indices, in lexicographic order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (CodeIndex, Code)> + '_ {
        self.codes.iter().enumerate().map(|(i, &c)| (CodeIndex::from_index(i as u32), c))
    }

    /// Every index `0..|H|`.
    pub fn all_indices(&self) -> Vec<CodeIndex> {
        (0..self.codes.len() as u32).map(CodeIndex::from_index).collect()
    }

    /// The index of a code of this game, or `None` if it is not one (wrong length, colour out
    /// of range, a repeated symbol where that is forbidden).
    pub fn index(&self, code: &Code) -> Option<CodeIndex> {
        let k = self.game.k() as u64;
        if code.len() != self.game.n() as usize || code.pegs().iter().any(|&c| c as u64 >= k) {
            return None;
        }
        match self.game.variant() {
            Variant::Repetition => {
                let idx = code.pegs().iter().fold(0u64, |acc, &c| acc * k + c as u64);
                Some(CodeIndex::from_index(idx as u32))
            }
            Variant::Distinct => {
                let n = code.len() as u64;
                let mut used = 0u64;
                let mut idx = 0u64;
                for (i, &c) in code.pegs().iter().enumerate() {
                    if used & (1 << c) != 0 {
                        return None;
                    }
                    let smaller_free = (0..c).filter(|&s| used & (1 << s) == 0).count() as u64;
                    // Arrangements of the remaining n-1-i pegs from k-1-i symbols.
                    let rest: u64 = (0..n - 1 - i as u64).map(|j| k - 1 - i as u64 - j).product();
                    idx += smaller_free * rest;
                    used |= 1 << c;
                }
                Some(CodeIndex::from_index(idx as u32))
            }
        }
    }

    /// The feedback index of `guess` against `secret`.
    #[inline]
    pub fn feedback(&self, guess: CodeIndex, secret: CodeIndex) -> FeedbackIndex {
        if let Some(table) = &self.table {
            return FeedbackIndex::from_index(table[guess.get() * self.codes.len() + secret.get()]);
        }
        let (b, t) = match self.lanes {
            1 => self.packed[guess.get()].black_total::<1>(&self.packed[secret.get()], self.peg_mask),
            2 => self.packed[guess.get()].black_total::<2>(&self.packed[secret.get()], self.peg_mask),
            _ => self.packed[guess.get()].black_total::<3>(&self.packed[secret.get()], self.peg_mask),
        };
        FeedbackIndex::from_index(self.lookup[((b << 4) | t) as usize])
    }

    /// Adds to `counts[f]` the number of `candidates` that score `f` against `guess`:
    /// the hot loop of every valuation.
    #[inline]
    pub fn count_parts(&self, guess: CodeIndex, candidates: &[CodeIndex], counts: &mut Counts) {
        self.for_each_feedback(guess, candidates, |f| counts[f] += 1);
    }

    /// Calls `visit` with the feedback index of `guess` against each candidate, in order.
    /// The table/kernel choice is made once, outside the loop, so `visit` is inlined into a
    /// branch-free loop.
    #[inline(always)]
    pub fn for_each_feedback(&self, guess: CodeIndex, candidates: &[CodeIndex], mut visit: impl FnMut(usize)) {
        if let Some(table) = &self.table {
            let n = self.codes.len();
            let row = &table[guess.get() * n..(guess.get() + 1) * n];
            for c in candidates {
                visit(row[c.get()] as usize);
            }
            return;
        }
        match self.lanes {
            1 => self.visit_packed::<1>(guess, candidates, visit),
            2 => self.visit_packed::<2>(guess, candidates, visit),
            _ => self.visit_packed::<3>(guess, candidates, visit),
        }
    }

    /// Like [`CodeSpace::for_each_feedback`], stopping as soon as `visit` returns `false`;
    /// returns whether every candidate was visited.
    #[inline(always)]
    pub fn try_for_each_feedback(
        &self,
        guess: CodeIndex,
        candidates: &[CodeIndex],
        mut visit: impl FnMut(usize) -> bool,
    ) -> bool {
        if let Some(table) = &self.table {
            let n = self.codes.len();
            let row = &table[guess.get() * n..(guess.get() + 1) * n];
            return candidates.iter().all(|c| visit(row[c.get()] as usize));
        }
        let pg = &self.packed[guess.get()];
        macro_rules! run {
            ($l:literal) => {
                candidates.iter().all(|c| {
                    let (b, t) = pg.black_total::<$l>(&self.packed[c.get()], self.peg_mask);
                    visit(self.lookup[((b << 4) | t) as usize] as usize)
                })
            };
        }
        match self.lanes {
            1 => run!(1),
            2 => run!(2),
            _ => run!(3),
        }
    }

    #[inline(always)]
    fn visit_packed<const L: usize>(&self, guess: CodeIndex, candidates: &[CodeIndex], mut visit: impl FnMut(usize)) {
        let pg = &self.packed[guess.get()];
        for c in candidates {
            let (b, t) = pg.black_total::<L>(&self.packed[c.get()], self.peg_mask);
            visit(self.lookup[((b << 4) | t) as usize] as usize);
        }
    }

    /// The parts of `candidates` under `guess` laid end to end in `out`, in feedback order,
    /// each keeping the order of `candidates`: part `f` is `out[starts[f]..starts[f + 1]]`.
    /// One buffer, reused across calls, where [`CodeSpace::split`] allocates one per part.
    ///
    /// ```
    /// use mmtree_core::{CodeSpace, Game, GameSpec, MemoryLimit, MAX_FEEDBACKS};
    /// let space = CodeSpace::new(Game::new(GameSpec::mastermind(4, 6))?, MemoryLimit(1 << 30))?;
    /// let all = space.all_indices();
    /// let guess = all[7];
    /// let mut out = Vec::new();
    /// let starts = space.split_flat(guess, &all, &mut out);
    /// for (f, part) in space.split(guess, &all) {
    ///     assert_eq!(&out[starts[f.get()]..starts[f.get() + 1]], &part[..]);
    /// }
    /// assert_eq!(starts[MAX_FEEDBACKS], all.len());
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn split_flat(
        &self,
        guess: CodeIndex,
        candidates: &[CodeIndex],
        out: &mut Vec<CodeIndex>,
    ) -> [usize; MAX_FEEDBACKS + 1] {
        let mut starts = [0usize; MAX_FEEDBACKS + 1];
        self.for_each_feedback(guess, candidates, |f| starts[f + 1] += 1);
        for f in 1..starts.len() {
            starts[f] += starts[f - 1];
        }
        let mut next = starts;
        out.clear();
        out.resize(candidates.len(), CodeIndex::from_index(0));
        let mut i = 0;
        self.for_each_feedback(guess, candidates, |f| {
            out[next[f]] = candidates[i];
            next[f] += 1;
            i += 1;
        });
        starts
    }

    /// Each code's colour multiset, numbered from 0 in order of first appearance, and how many
    /// there are. Codes of one multiset share their blacks plus whites with any code, which
    /// the searches use to bound many guesses, or many sets, at once.
    ///
    /// ```
    /// use mmtree_core::{CodeSpace, Game, GameSpec, MemoryLimit};
    /// let space = CodeSpace::new(Game::new(GameSpec::mastermind(2, 3))?, MemoryLimit(1 << 30))?;
    /// // 11 12 13 21 22 23 31 32 33
    /// assert_eq!(space.multiset_numbers(), (vec![0, 1, 2, 1, 3, 4, 2, 4, 5], 6));
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn multiset_numbers(&self) -> (Vec<u32>, usize) {
        let mut numbers = std::collections::HashMap::new();
        let of = self
            .codes
            .iter()
            .map(|code| {
                let mut pegs = [0u8; MAX_PEGS as usize];
                pegs[..code.pegs().len()].copy_from_slice(code.pegs());
                pegs[..code.pegs().len()].sort_unstable();
                let next = numbers.len() as u32;
                *numbers.entry(pegs).or_insert(next)
            })
            .collect();
        (of, numbers.len())
    }

    /// The most distinct feedbacks any guess can get on `candidates`, from the colour multisets
    /// among them: a guess's number of common colours with a candidate (blacks plus whites)
    /// depends on the candidate's multiset alone, so `r` multisets allow at most `r` totals, each
    /// with its few feedbacks. Deep in a tree the candidates often share one or two multisets,
    /// and the ideal split a search aims for is then far coarser than one over all feedbacks.
    /// The same bound holds on every subset. Black-peg games give no such bound.
    ///
    /// ```
    /// use mmtree_core::{CodeSpace, Game, GameSpec, MemoryLimit};
    /// let space = CodeSpace::new(Game::new(GameSpec::mastermind(4, 6))?, MemoryLimit(1 << 30))?;
    /// // The permutations of 1123 share one multiset: 4 common colours, so (0,4) .. (4,0) less (3,1).
    /// let perms: Vec<_> = space.iter().filter(|(_, c)| {
    ///     let mut p = c.pegs().to_vec();
    ///     p.sort();
    ///     p == [0, 0, 1, 2]
    /// }).map(|(i, _)| i).collect();
    /// assert_eq!(space.feedback_bound(&perms), 4);
    /// assert_eq!(space.feedback_bound(&space.all_indices()), 14);
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn feedback_bound(&self, candidates: &[CodeIndex]) -> usize {
        let all = self.scheme.len();
        let totals = usize::from(self.game.n()) + 1;
        if self.game.feedback_kind() == FeedbackKind::Black {
            return all;
        }
        let mut multisets: Vec<[u8; MAX_PEGS as usize]> = Vec::new();
        for &c in candidates {
            let mut pegs = [u8::MAX; MAX_PEGS as usize];
            let code = self.code(c);
            pegs[..code.pegs().len()].copy_from_slice(code.pegs());
            pegs.sort_unstable();
            if !multisets.contains(&pegs) {
                multisets.push(pegs);
                if multisets.len() >= totals {
                    return all;
                }
            }
        }
        self.scheme.most_with_totals(multisets.len()).map_or(all, |most| most.min(all))
    }

    /// The non-empty parts of `candidates` under `guess`, in feedback order; each part keeps
    /// the lexicographic order of `candidates`.
    pub fn split(&self, guess: CodeIndex, candidates: &[CodeIndex]) -> Vec<(FeedbackIndex, Vec<CodeIndex>)> {
        let mut parts: Vec<Vec<CodeIndex>> = vec![Vec::new(); self.scheme.len()];
        for &c in candidates {
            parts[self.feedback(guess, c).get()].push(c);
        }
        parts
            .into_iter()
            .enumerate()
            .filter(|(_, p)| !p.is_empty())
            .map(|(f, p)| (FeedbackIndex::from_index(f as u8), p))
            .collect()
    }
}

/// Lexicographic enumeration of the code space.
fn enumerate(game: &Game) -> Vec<Code> {
    let (n, k) = (game.n() as usize, game.k());
    let mut out = Vec::with_capacity(game.code_count() as usize);
    let mut pegs = vec![0u8; n];
    fn rec(pos: usize, pegs: &mut Vec<u8>, k: u8, distinct: bool, out: &mut Vec<Code>) {
        if pos == pegs.len() {
            out.push(Code::from_colours(pegs).expect("pegs and colours within limits"));
            return;
        }
        for c in 0..k {
            if distinct && pegs[..pos].contains(&c) {
                continue;
            }
            pegs[pos] = c;
            rec(pos + 1, pegs, k, distinct, out);
        }
    }
    rec(0, &mut pegs, k, game.variant() == Variant::Distinct, &mut out);
    out
}
