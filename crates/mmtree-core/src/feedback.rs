//! Feedback pairs and their dense index `0..count`.

use serde::{Deserialize, Serialize};

use crate::error::GameError;
use crate::game::{FeedbackKind, Game, MAX_PEGS};

/// Most distinct feedbacks of any supported game: `(n^2 + 3n)/2` for `n = MAX_PEGS`.
pub const MAX_FEEDBACKS: usize = (MAX_PEGS as usize * MAX_PEGS as usize + 3 * MAX_PEGS as usize) / 2;

/// A score `(b, w)`: black pegs (right colour, right place) and white pegs (right colour,
/// wrong place). In the black-only game `white` is always 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Feedback {
    /// Black pegs (bulls).
    pub black: u8,
    /// White pegs (cows).
    pub white: u8,
}

impl std::fmt::Display for Feedback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({},{})", self.black, self.white)
    }
}

/// A feedback's position in the dense order of its game (see [`FeedbackScheme`]).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct FeedbackIndex(u8);

impl FeedbackIndex {
    /// From a 0-based index.
    pub const fn from_index(index: u8) -> FeedbackIndex {
        FeedbackIndex(index)
    }
    /// The 0-based index.
    pub const fn index(self) -> u8 {
        self.0
    }
    /// The index as `usize`.
    pub const fn get(self) -> usize {
        self.0 as usize
    }
}

/// The feedbacks of a game in dense order: by blacks, then whites, `(n-1,1)` left out;
/// the winning feedback `(n,0)` is last.
///
/// ```
/// use mmtree_core::{FeedbackScheme, Feedback, Game, GameSpec};
/// let scheme = FeedbackScheme::new(&Game::new(GameSpec::mastermind(4, 6))?);
/// assert_eq!(scheme.len(), 14);
/// assert_eq!(scheme.feedback(scheme.win()), Feedback { black: 4, white: 0 });
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeedbackScheme {
    n: u8,
    kind: FeedbackKind,
    feedbacks: Vec<Feedback>,
    /// `lookup[b][t]` with `t = b + w`: the dense index (black-only ignores `t`).
    lookup: [[u8; MAX_PEGS as usize + 1]; MAX_PEGS as usize + 1],
}

impl FeedbackScheme {
    /// The scheme of a game.
    pub fn new(game: &Game) -> FeedbackScheme {
        let n = game.n();
        let mut feedbacks = Vec::new();
        let mut lookup = [[u8::MAX; MAX_PEGS as usize + 1]; MAX_PEGS as usize + 1];
        for b in 0..=n {
            match game.feedback_kind() {
                FeedbackKind::Black => {
                    for t in b..=n {
                        lookup[b as usize][t as usize] = feedbacks.len() as u8;
                    }
                    feedbacks.push(Feedback { black: b, white: 0 });
                }
                FeedbackKind::BlackWhite => {
                    for w in 0..=(n - b) {
                        if b + 1 == n && w == 1 {
                            continue;
                        }
                        lookup[b as usize][(b + w) as usize] = feedbacks.len() as u8;
                        feedbacks.push(Feedback { black: b, white: w });
                    }
                }
            }
        }
        FeedbackScheme { n, kind: game.feedback_kind(), feedbacks, lookup }
    }

    /// Number of feedbacks.
    pub fn len(&self) -> usize {
        self.feedbacks.len()
    }

    /// Never true.
    pub fn is_empty(&self) -> bool {
        self.feedbacks.is_empty()
    }

    /// The winning feedback `(n, 0)`.
    pub fn win(&self) -> FeedbackIndex {
        FeedbackIndex((self.feedbacks.len() - 1) as u8)
    }

    /// The pair of an index. Panics on an index of another game (a bug, not user input).
    pub fn feedback(&self, index: FeedbackIndex) -> Feedback {
        self.feedbacks[index.get()]
    }

    /// All feedbacks in dense order.
    pub fn all(&self) -> &[Feedback] {
        &self.feedbacks
    }

    /// How many feedbacks have each total `b + w` (`None` for black pegs, which tell no
    /// total): what a guess can still tell apart among candidates with which it shares
    /// that many colours.
    ///
    /// ```
    /// use mmtree_core::{FeedbackScheme, Game, GameSpec};
    /// let scheme = FeedbackScheme::new(&Game::new(GameSpec::mastermind(4, 6))?);
    /// // (0,4) (1,3) (2,2) (4,0): (3,1) cannot happen.
    /// assert_eq!(scheme.by_total().unwrap()[..5], [1, 2, 3, 4, 4]);
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn by_total(&self) -> Option<[usize; MAX_PEGS as usize + 1]> {
        if self.kind == FeedbackKind::Black {
            return None;
        }
        let mut counts = [0; MAX_PEGS as usize + 1];
        for fb in &self.feedbacks {
            counts[usize::from(fb.black + fb.white)] += 1;
        }
        Some(counts)
    }

    /// The most feedbacks a guess can get when it shares `totals` distinct numbers of colours
    /// with the candidates (`None` for black pegs): the `totals` largest counts of
    /// [`FeedbackScheme::by_total`] added up.
    ///
    /// ```
    /// use mmtree_core::{FeedbackScheme, Game, GameSpec};
    /// let scheme = FeedbackScheme::new(&Game::new(GameSpec::mastermind(4, 6))?);
    /// assert_eq!(scheme.most_with_totals(1), Some(4));
    /// assert_eq!(scheme.most_with_totals(5), Some(14));
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn most_with_totals(&self, totals: usize) -> Option<usize> {
        let mut counts = self.by_total()?;
        counts.sort_unstable_by(|a, b| b.cmp(a));
        Some(counts.iter().take(totals).sum())
    }

    /// The index of `(blacks, blacks + whites)`; both already known possible.
    #[inline(always)]
    pub fn index_of_total(&self, black: u8, total: u8) -> FeedbackIndex {
        FeedbackIndex(self.lookup[black as usize][total as usize])
    }

    /// The index of a feedback, or an error if the game cannot produce it.
    pub fn index(&self, fb: Feedback) -> Result<FeedbackIndex, GameError> {
        let bad = GameError::Feedback { black: fb.black, white: fb.white, n: self.n };
        if self.kind == FeedbackKind::Black && fb.white != 0 {
            return Err(bad);
        }
        let t = fb.black as usize + fb.white as usize;
        if t > self.n as usize {
            return Err(bad);
        }
        match self.lookup[fb.black as usize][t] {
            u8::MAX => Err(bad),
            i => Ok(FeedbackIndex(i)),
        }
    }

    /// The 256-entry table `(b << 4 | t) -> index` used by the packed kernels.
    pub(crate) fn packed_lookup(&self) -> [u8; 256] {
        let mut table = [0u8; 256];
        for b in 0..=self.n as usize {
            for t in 0..=self.n as usize {
                if self.lookup[b][t] != u8::MAX {
                    table[(b << 4) | t] = self.lookup[b][t];
                }
            }
        }
        table
    }

    /// Writes a feedback as people do: `(b,w)`, or `b` in the black-only game.
    pub fn format(&self, index: FeedbackIndex) -> String {
        let fb = self.feedback(index);
        match self.kind {
            FeedbackKind::BlackWhite => fb.to_string(),
            FeedbackKind::Black => fb.black.to_string(),
        }
    }
}
