//! Candidate sets as bitsets over code indices.

use bitvec::prelude::*;

use crate::code::CodeIndex;

/// A set of codes of one code space, one bit per code.
///
/// Operators are set operations (`|` union, `&` intersection, `-` difference).
///
/// ```
/// use mmtree_core::{CandidateSet, CodeIndex};
/// let a = CandidateSet::from_indices(8, [1, 3, 5].map(CodeIndex::from_index));
/// let b = CandidateSet::from_indices(8, [3, 4].map(CodeIndex::from_index));
/// assert_eq!((&a & &b).len(), 1);
/// assert_eq!((&a | &b).iter().map(|c| c.index()).collect::<Vec<_>>(), vec![1, 3, 4, 5]);
/// assert!((&a - &b).contains(CodeIndex::from_index(5)));
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct CandidateSet {
    bits: BitVec<u64, Lsb0>,
}

impl CandidateSet {
    /// The empty set over a space of `universe` codes.
    pub fn empty(universe: usize) -> CandidateSet {
        CandidateSet { bits: bitvec![u64, Lsb0; 0; universe] }
    }

    /// Every code of a space of `universe` codes.
    ///
    /// ```
    /// use mmtree_core::CandidateSet;
    /// assert_eq!(CandidateSet::full(1296).len(), 1296);
    /// ```
    pub fn full(universe: usize) -> CandidateSet {
        CandidateSet { bits: bitvec![u64, Lsb0; 1; universe] }
    }

    /// The set of the given indices (each below `universe`).
    pub fn from_indices(universe: usize, indices: impl IntoIterator<Item = CodeIndex>) -> CandidateSet {
        let mut set = CandidateSet::empty(universe);
        for i in indices {
            set.insert(i);
        }
        set
    }

    /// Adds a code; returns whether it was new.
    ///
    /// ```
    /// use mmtree_core::{CandidateSet, CodeIndex};
    /// let mut s = CandidateSet::empty(4);
    /// assert!(s.insert(CodeIndex::from_index(2)));
    /// assert!(!s.insert(CodeIndex::from_index(2)));
    /// ```
    pub fn insert(&mut self, code: CodeIndex) -> bool {
        let was = self.bits[code.get()];
        self.bits.set(code.get(), true);
        !was
    }

    /// Whether the code is in the set (false for indices outside the universe).
    ///
    /// ```
    /// use mmtree_core::{CandidateSet, CodeIndex};
    /// assert!(CandidateSet::full(3).contains(CodeIndex::from_index(2)));
    /// assert!(!CandidateSet::full(3).contains(CodeIndex::from_index(3)));
    /// ```
    pub fn contains(&self, code: CodeIndex) -> bool {
        self.bits.get(code.get()).is_some_and(|b| *b)
    }

    /// Number of codes in the set.
    ///
    /// ```
    /// use mmtree_core::CandidateSet;
    /// assert_eq!(CandidateSet::empty(10).len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.bits.count_ones()
    }

    /// Whether no code is in the set.
    ///
    /// ```
    /// use mmtree_core::CandidateSet;
    /// assert!(CandidateSet::empty(10).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.bits.not_any()
    }

    /// Size of the space the set lives in.
    pub fn universe(&self) -> usize {
        self.bits.len()
    }

    /// Whether every member of `self` is in `other`.
    ///
    /// ```
    /// use mmtree_core::{CandidateSet, CodeIndex};
    /// let a = CandidateSet::from_indices(5, [CodeIndex::from_index(1)]);
    /// assert!(a.is_subset(&CandidateSet::full(5)));
    /// assert!(!CandidateSet::full(5).is_subset(&a));
    /// ```
    pub fn is_subset(&self, other: &CandidateSet) -> bool {
        self.bits.as_raw_slice().iter().zip(other.bits.as_raw_slice()).all(|(a, b)| a & !b == 0)
    }

    /// Members in increasing order, read from the raw words.
    ///
    /// ```
    /// use mmtree_core::{CandidateSet, CodeIndex};
    /// let s = CandidateSet::from_indices(200, [7, 64, 130].map(CodeIndex::from_index));
    /// assert_eq!(s.iter().map(|c| c.index()).collect::<Vec<_>>(), vec![7, 64, 130]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = CodeIndex> + '_ {
        self.bits.as_raw_slice().iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let tz = bits.trailing_zeros();
                bits &= bits - 1;
                Some(CodeIndex::from_index((w as u32) * 64 + tz))
            })
        })
    }

    /// Members collected into a sorted vector (what the partition kernels consume).
    pub fn to_vec(&self) -> Vec<CodeIndex> {
        self.iter().collect()
    }

    fn zip_with(&self, other: &CandidateSet, op: impl Fn(u64, u64) -> u64) -> CandidateSet {
        assert_eq!(self.universe(), other.universe(), "candidate sets of different code spaces");
        let mut out = self.clone();
        for (a, b) in out.bits.as_raw_mut_slice().iter_mut().zip(other.bits.as_raw_slice()) {
            *a = op(*a, *b);
        }
        out
    }
}

impl std::ops::BitOr for &CandidateSet {
    type Output = CandidateSet;
    fn bitor(self, rhs: &CandidateSet) -> CandidateSet {
        self.zip_with(rhs, |a, b| a | b)
    }
}

impl std::ops::BitAnd for &CandidateSet {
    type Output = CandidateSet;
    fn bitand(self, rhs: &CandidateSet) -> CandidateSet {
        self.zip_with(rhs, |a, b| a & b)
    }
}

impl std::ops::Sub for &CandidateSet {
    type Output = CandidateSet;
    fn sub(self, rhs: &CandidateSet) -> CandidateSet {
        self.zip_with(rhs, |a, b| a & !b)
    }
}
