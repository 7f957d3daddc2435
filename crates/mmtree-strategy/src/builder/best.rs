//! The running best guess of a one-step scan: the first guess, in priority order, whose
//! valuation no later guess beats strictly, compared exactly.

use std::cmp::Ordering;

use mmtree_core::{CodeIndex, Counts, Cut, Fold, Partition, MAX_FEEDBACKS};

use crate::valuation::Valuation;

/// The most balanced split of `m` codes into `f` parts: a bound no guess can beat under
/// any of the four valuations.
pub(crate) fn ideal_partition(m: usize, f: usize) -> Counts {
    let mut counts: Counts = [0; MAX_FEEDBACKS];
    for (i, c) in counts[..f].iter_mut().enumerate() {
        *c = (m / f + usize::from(i < m % f)) as u32;
    }
    counts
}

/// The best a guess can do on a candidate set: reaching it ends the scan.
pub(super) struct Target {
    key: f64,
    sizes: Counts,
}

impl Target {
    /// The ideal split of `m` candidates into `f` feedbacks, valued (`f` at most what any
    /// guess can reach on them, see [`mmtree_core::CodeSpace::feedback_bound`]).
    pub(super) fn ideal(valuation: Valuation, m: usize, f: usize) -> Target {
        let mut sizes = ideal_partition(m, f);
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        Target { key: valuation.key(&sizes[..f]), sizes }
    }
}

impl Target {
    /// The value of a guess known to be the best there is: the scan stops at the first guess
    /// that reaches it.
    pub(super) fn of(best: &Candidate) -> Target {
        Target { key: best.key, sizes: best.sizes }
    }
}

/// A guess found in a scan: its position in priority order, key and part sizes (kept for
/// entropy, whose near-equal keys are settled on the sizes).
#[derive(Clone)]
pub(super) struct Candidate {
    pub(super) position: usize,
    pub(super) guess: CodeIndex,
    pub(super) key: f64,
    pub(super) sizes: Counts,
}

/// The best guess of a scan so far, and whether it reached the target.
#[derive(Clone)]
pub(super) struct BestGuess<'t> {
    valuation: Valuation,
    target: &'t Target,
    /// Position of the scan's first guess in the whole priority order.
    offset: usize,
    pub(super) best: Option<Candidate>,
    pub(super) reached: bool,
    /// Positions are ranks in tie order, and an equal guess of lower rank replaces the best:
    /// the guesses are not scanned in tie order (see [`BestGuess::ranked`]).
    ranks: Option<Rank>,
}

/// A guess's place in the tie order of the whole pool, from its index (increasing or
/// decreasing), counted from 1: 0 is left for a best guess from an earlier part of the order.
#[derive(Clone, Copy)]
pub(super) struct Rank {
    pub(super) largest: bool,
    pub(super) codes: usize,
}

impl Rank {
    #[inline]
    pub(super) fn of(self, g: CodeIndex) -> usize {
        if self.largest {
            self.codes - g.get()
        } else {
            g.get() + 1
        }
    }
}

impl<'t> BestGuess<'t> {
    /// A scan of guesses from position `offset` on, after `best` from earlier positions.
    pub(super) fn new(valuation: Valuation, target: &'t Target, offset: usize, best: Option<Candidate>) -> Self {
        BestGuess { valuation, target, offset, best, reached: false, ranks: None }
    }

    /// A scan of guesses in any order that ends with the first in tie order of the best value
    /// found: a guess of equal value is counted to the end (not cut) and replaces the best when
    /// of lower rank. `best`'s position must be a rank, or 0 for a guess that comes first.
    pub(super) fn ranked(valuation: Valuation, target: &'t Target, rank: Rank, best: Option<Candidate>) -> Self {
        BestGuess { valuation, target, offset: 0, best, reached: false, ranks: Some(rank) }
    }
}

impl Fold for BestGuess<'_> {
    fn cut(&self) -> Cut {
        self.best.as_ref().map_or(Cut::Never, |b| match self.ranks {
            Some(_) => self.valuation.cut_worse(b.key),
            None => self.valuation.cut(b.key),
        })
    }

    #[inline]
    fn visit(&mut self, p: &Partition) -> bool {
        let v = self.valuation;
        let key = v.key_of(p);
        let entropy = v == Valuation::Entropy;
        let mut sizes: Option<Counts> = None;
        let position = match self.ranks {
            Some(rank) => rank.of(p.guess()),
            None => self.offset + p.position(),
        };
        if let Some(b) = &self.best {
            match compare(v, key, || *sizes.insert(p.sizes()), b.key, &b.sizes) {
                Ordering::Less => {}
                // In tie order, the guess itself (a seed met again) ends a scan that seeks its value.
                Ordering::Equal if self.ranks.is_some() && position <= b.position => {}
                _ => return true,
            }
        }
        let sizes = if entropy { sizes.unwrap_or_else(|| p.sizes()) } else { [0; MAX_FEEDBACKS] };
        let reached = compare(v, key, || sizes, self.target.key, &self.target.sizes) != Ordering::Greater;
        self.best = Some(Candidate { position, guess: p.guess(), key, sizes });
        self.reached = reached;
        !reached
    }

    fn merge(self, later: Self) -> Self {
        let reached = self.reached || later.reached;
        let best = match (self.best, later.best) {
            (Some(a), Some(b)) => Some(better(self.valuation, a, b)),
            (a, b) => a.or(b),
        };
        BestGuess { best, reached, ..self }
    }
}

/// Exact comparison of a guess (key, sizes on demand) with a known one (`Less`: the first is
/// better). Sizes are largest first ([`Partition::sizes`]), so equal multisets are equal arrays.
#[inline]
pub(super) fn compare(valuation: Valuation, ka: f64, a: impl FnOnce() -> Counts, kb: f64, b: &Counts) -> Ordering {
    if !valuation.needs_exact(ka, kb) {
        return ka.partial_cmp(&kb).unwrap_or(Ordering::Equal);
    }
    let a = a();
    if a == *b {
        Ordering::Equal
    } else {
        valuation.compare(&a, b)
    }
}

/// The better of two chunk winners; on equal value, the earlier in priority order.
fn better(valuation: Valuation, a: Candidate, b: Candidate) -> Candidate {
    match compare(valuation, a.key, || a.sizes, b.key, &b.sizes) {
        Ordering::Less => a,
        Ordering::Greater => b,
        Ordering::Equal if a.position <= b.position => a,
        Ordering::Equal => b,
    }
}
