//! The four one-step valuations (docs/definitions.md), compared exactly.

use std::cmp::Ordering;

use num_bigint::BigUint;
use serde::{Deserialize, Serialize};

use mmtree_core::{xlogx, Cut, Detail, Partition};

/// Whether the smallest or the largest value of a valuation is best.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Best {
    /// Smaller is better.
    Min,
    /// Larger is better.
    Max,
}

/// How a guess is scored from its partition table.
///
/// A closed enum rather than a trait object: the set of published valuations is small and
/// fixed, a tree file records which one built it, and matching once outside the hot loop lets
/// every valuation run its own monomorphic scan. Every valuation reduces to a *key* where
/// smaller is better; integer keys compare exactly, and entropy keys that are within float
/// noise of each other are settled by [`Valuation::compare`] on the part sizes themselves, so
/// mathematically equal entropies tie (`{4,1,1,1,1}` and `{2,2,2,2}` of 8 codes).
///
/// ```
/// use mmtree_strategy::Valuation;
/// use std::cmp::Ordering;
/// // 4^4 = 2^2 * 2^2 * 2^2 * 2^2: equal entropy, so a tie.
/// assert_eq!(Valuation::Entropy.compare(&[4, 1, 1, 1, 1], &[2, 2, 2, 2]), Ordering::Equal);
/// assert_eq!(Valuation::Minimax.compare(&[3, 3, 2], &[4, 2, 2]), Ordering::Less); // Less = better
/// assert_eq!(Valuation::MostParts.value(&[4, 4, 0, 1], 9), 3.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Valuation {
    /// Largest part, minimised (Knuth 1977).
    Minimax,
    /// `sum |part|^2 / |K|`, minimised (Irving 1978).
    ExpectedSize,
    /// Shannon entropy of the partition, maximised (Neuwirth 1982).
    Entropy,
    /// Number of non-empty parts, maximised (Kooi 2005).
    MostParts,
}

impl Valuation {
    /// The four, in the order tables list them.
    pub const ALL: [Valuation; 4] =
        [Valuation::Minimax, Valuation::ExpectedSize, Valuation::Entropy, Valuation::MostParts];

    /// Name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Valuation::Minimax => "minimax",
            Valuation::ExpectedSize => "expected-size",
            Valuation::Entropy => "entropy",
            Valuation::MostParts => "most-parts",
        }
    }

    /// Parses a [`Valuation::name`].
    pub fn from_name(name: &str) -> Option<Valuation> {
        Valuation::ALL.into_iter().find(|v| v.name() == name)
    }

    /// Whether the minimum or maximum value is best.
    pub fn best(self) -> Best {
        match self {
            Valuation::Minimax | Valuation::ExpectedSize => Best::Min,
            Valuation::Entropy | Valuation::MostParts => Best::Max,
        }
    }

    /// The value as the literature prints it: largest part, expected size, entropy in bits,
    /// or number of parts. `total` is `|K|`.
    pub fn value(self, parts: &[u32], total: u32) -> f64 {
        let t = f64::from(total.max(1));
        match self {
            Valuation::Minimax => f64::from(parts.iter().copied().max().unwrap_or(0)),
            Valuation::ExpectedSize => parts.iter().map(|&s| f64::from(s) * f64::from(s)).sum::<f64>() / t,
            Valuation::Entropy => parts
                .iter()
                .filter(|&&s| s > 0)
                .map(|&s| {
                    let p = f64::from(s) / t;
                    -p * p.log2()
                })
                .sum(),
            Valuation::MostParts => parts.iter().filter(|&&s| s > 0).count() as f64,
        }
    }

    /// The ordering key: smaller is better. Exact for all but entropy, where it is
    /// `sum s log2 s` and near-equal keys go to [`Valuation::compare`].
    #[inline]
    pub fn key(self, parts: &[u32]) -> f64 {
        match self {
            Valuation::Minimax => f64::from(parts.iter().copied().max().unwrap_or(0)),
            Valuation::ExpectedSize => parts.iter().map(|&s| u64::from(s) * u64::from(s)).sum::<u64>() as f64,
            Valuation::Entropy => parts.iter().map(|&s| xlogx(s)).sum(),
            Valuation::MostParts => -(parts.iter().filter(|&&s| s > 0).count() as f64),
        }
    }

    /// [`Valuation::key`] of a scanned partition, from the statistic it rests on.
    #[inline]
    pub(crate) fn key_of(self, p: &Partition) -> f64 {
        match self {
            Valuation::Minimax => f64::from(p.largest()),
            Valuation::ExpectedSize => p.sum_squares() as f64,
            Valuation::Entropy => p.xlogx(),
            Valuation::MostParts => -f64::from(p.parts()),
        }
    }

    /// The partitions that cannot beat a guess of key `best` strictly, in the scanner's terms
    /// (for entropy, beyond a margin wider than float noise, so no exact tie is cut).
    #[inline]
    pub(crate) fn cut(self, best: f64) -> Cut {
        match self {
            Valuation::Minimax => Cut::Largest(best as u32),
            Valuation::ExpectedSize => Cut::SumSquares(best as u64),
            Valuation::Entropy => Cut::XLogX(best + 1e-6 * (1.0 + best.abs())),
            Valuation::MostParts => Cut::Parts((-best) as u32),
        }
    }

    /// The partitions that are strictly worse than a guess of key `best`: a guess of equal
    /// value is counted to the end, for scans that keep the first of equal guesses in an order
    /// other than the scan's.
    #[inline]
    pub(crate) fn cut_worse(self, best: f64) -> Cut {
        match self {
            Valuation::Minimax => Cut::Largest(best as u32 + 1),
            Valuation::ExpectedSize => Cut::SumSquares(best as u64 + 1),
            Valuation::Entropy => self.cut(best),
            Valuation::MostParts => Cut::Parts(((-best) as u32).saturating_sub(1)),
        }
    }

    /// What a scan must prepare for [`Valuation::key_of`] and exact ties.
    pub(crate) fn detail(self) -> Detail {
        match self {
            Valuation::Entropy => Detail::Sizes,
            _ => Detail::Moments,
        }
    }

    /// The key of the union of two multisets of parts from their keys (a maximum for minimax,
    /// a sum for the others).
    #[inline]
    pub(crate) fn combine(self, a: f64, b: f64) -> f64 {
        match self {
            Valuation::Minimax => a.max(b),
            _ => a + b,
        }
    }

    /// Whether two keys may be a tie that floats cannot settle (two entropy keys of exactly 0
    /// are a tie: only parts of at most one code give 0).
    #[inline]
    pub(crate) fn needs_exact(self, a: f64, b: f64) -> bool {
        self == Valuation::Entropy && (a - b).abs() <= 1e-7 * (1.0 + a.abs()) && (a != 0.0 || b != 0.0)
    }

    /// Exact comparison of two partition tables of the same candidate set:
    /// `Less` when `a` is the better guess, `Equal` on a mathematical tie.
    pub fn compare(self, a: &[u32], b: &[u32]) -> Ordering {
        let (ka, kb) = (self.key(a), self.key(b));
        if self.needs_exact(ka, kb) {
            return entropy_exact_cmp(a, b);
        }
        ka.partial_cmp(&kb).unwrap_or(Ordering::Equal)
    }
}

/// Compares `sum s log2 s` exactly, i.e. `prod s^s`: first by multiset, then by prime
/// exponents (equal exponents = equal product), and only for genuinely different products
/// that floats cannot separate, by big integers.
fn entropy_exact_cmp(a: &[u32], b: &[u32]) -> Ordering {
    let sorted = |p: &[u32]| {
        let mut v: Vec<u32> = p.iter().copied().filter(|&s| s > 1).collect();
        v.sort_unstable();
        v
    };
    let (sa, sb) = (sorted(a), sorted(b));
    if sa == sb {
        return Ordering::Equal;
    }
    let (ea, eb) = (prime_exponents(&sa), prime_exponents(&sb));
    if ea == eb {
        return Ordering::Equal;
    }
    let product = |sizes: &[u32]| sizes.iter().fold(BigUint::from(1u32), |acc, &s| acc * BigUint::from(s).pow(s));
    product(&sa).cmp(&product(&sb))
}

/// `prod s^s` as sorted `(prime, exponent)` pairs.
fn prime_exponents(sizes: &[u32]) -> Vec<(u32, u64)> {
    let mut map = std::collections::BTreeMap::new();
    for &s in sizes {
        let mut x = s;
        let mut p = 2;
        while p * p <= x {
            while x % p == 0 {
                *map.entry(p).or_insert(0u64) += u64::from(s);
                x /= p;
            }
            p += 1;
        }
        if x > 1 {
            *map.entry(x).or_insert(0u64) += u64::from(s);
        }
    }
    map.into_iter().collect()
}
