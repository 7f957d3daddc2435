//! The guesses worth trying on a set: the pool cut down by symmetry, scanned once for every
//! guess's bound, sorted by it.
//!
//! A guess is bounded by `|K|` plus its parts' perfect-tree bounds, less one if it can win at
//! once; the least such bound over the pool bounds the set. The parts' perfect trees branch
//! as much as the most non-winning feedbacks any guess of the pool gets on the set, counted
//! first from the feedback masks (cheaper than the tables); the pool has a guess of every
//! symmetry class of the set, so that is the most any allowed guess gets. On sets of at most
//! `b + 1` codes every part has at most `linear` codes, where `lower[c] = 2c - 1`, so the
//! bound is `3|K| - parts - [guess in K]` and the set of feedbacks that occur is all a guess
//! needs.

use std::collections::HashMap;
use std::sync::Arc;

use mmtree_core::{canonical_codes, CodeIndex, Cut, Detail, Fold, Guesses, MaskRun, Partition, Scan, Symmetry};

use super::{lock, OptimalSearch, INFINITE};
use crate::rule::Pool;

/// Nodes up to this depth (guesses played) use the full symmetry group of the history.
const SYMMETRY_DEPTH: usize = 2;
/// Sets up to this size, and up to `2 linear + 1` codes (so that at most one part is past
/// `linear` and the bound needs no part's size but the largest's), get their guesses'
/// bounds from the pairwise kernel's statistics (largest part, parts) instead of partition
/// tables, which cost a gather and a pass over every feedback's counter per guess. One
/// thread, callgrind: [7,4]'s 480-code part after 1122334 and (3,1) 36.7 -> 28.4 G
/// instructions, [5,5] 6.62 -> 6.16 G, [4,7] 8.72 -> 8.61 G; up to 96 codes whatever
/// `linear`, [4,7] (14 feedbacks) took 9.08 G.
const PAIRWISE_MAX: usize = 96;
/// Most codes kept in cached pools (64 MB).
const POOL_CACHE_CODES: usize = 1 << 24;

/// What the pool of a set depends on: the guesses played (near the root, where their group
/// is used), or the classes of interchangeable colours (deeper: see
/// [`Symmetry::free_colours`]).
#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) enum PoolKey {
    History(Vec<u32>),
    Colours([u64; 2]),
}

/// Pools already computed, and the groups they were listed under.
#[derive(Default)]
pub(super) struct PoolCache {
    /// `None`: every code.
    pools: HashMap<PoolKey, Arc<Option<Vec<CodeIndex>>>>,
    /// Codes the pools hold.
    codes: usize,
    /// The group after each first guess: the root's n! position permutations are filtered
    /// once per first guess rather than once per pool.
    after_first: HashMap<CodeIndex, Arc<Symmetry>>,
    /// The pools near the root by group: most histories two guesses long fix one of a few
    /// groups, and listing a group's classes is a walk over every code.
    by_group: HashMap<Symmetry, Arc<Option<Vec<CodeIndex>>>>,
}

/// The outcome of scanning the pool on a set.
pub(super) enum Scanned {
    /// A guess whose known cost equals a lower bound of the set.
    Shortcut(u32, CodeIndex),
    /// The guesses to try with their bounds, in order, the least bound of any guess, and the
    /// most non-winning feedbacks a guess gives on the set, if counted.
    Guesses(Order, u32, Option<u32>),
}

/// The guesses to try on a set with their bounds, in increasing bound, then candidates
/// first, then code order.
pub(super) enum Order {
    /// A small set's, not yet keyed: only how many guesses are below the budget. Most small
    /// sets are prepared as parts of a guess that is cut before they are searched (on [6,4],
    /// 3,400 of 61,300), so their keys are computed when they are ([`OptimalSearch::keyed`]):
    /// one thread, [6,4] 2.39 -> 2.18 s.
    Pending {
        /// The pool (`None`: every code).
        pool: Arc<Option<Vec<CodeIndex>>>,
        /// Guesses below the budget.
        count: usize,
    },
    /// Listed in that order.
    Sorted(Vec<(u32, CodeIndex)>),
    /// A small set's: one key per position of the pool, `2 (bound - base) + [not a
    /// candidate]` (or [`SKIPPED`]), read key by key as the guesses are tried. Most sets
    /// try only a few of their guesses, so most of the pool is never listed nor sorted.
    Keyed {
        keys: Vec<u8>,
        /// The pool (`None`: every code, position = code index).
        pool: Arc<Option<Vec<CodeIndex>>>,
        base: u32,
        /// Guesses per key.
        counts: Vec<u32>,
    },
}

/// The key of a guess left out of an [`Order::Keyed`].
const SKIPPED: u8 = u8::MAX;

impl Order {
    /// Number of guesses.
    pub(super) fn len(&self) -> usize {
        match self {
            Order::Sorted(list) => list.len(),
            Order::Keyed { counts, .. } => counts.iter().map(|&c| c as usize).sum(),
            Order::Pending { count, .. } => *count,
        }
    }

    /// The guesses with their bounds, in order ([`Order::Pending`] is keyed first).
    pub(super) fn iter(&self) -> impl Iterator<Item = (u32, CodeIndex)> + '_ {
        let (sorted, keyed) = match self {
            Order::Sorted(list) => (Some(list.iter().copied()), None),
            Order::Keyed { keys, pool, base, counts } => {
                let guess = move |p: usize| pool.as_ref().as_ref().map_or(CodeIndex::from_index(p as u32), |l| l[p]);
                let in_key = move |k: usize| {
                    let bound = base + (k / 2) as u32;
                    keys.iter()
                        .enumerate()
                        .filter(move |&(_, &key)| key as usize == k)
                        .map(move |(p, _)| (bound, guess(p)))
                };
                (None, Some((0..counts.len()).filter(|&k| counts[k] > 0).flat_map(in_key)))
            }
            Order::Pending { .. } => unreachable!("BUG: a pending order is listed before it is keyed"),
        };
        sorted.into_iter().flatten().chain(keyed.into_iter().flatten())
    }
}

impl OptimalSearch<'_> {
    /// The guesses worth trying on `set`, one per symmetry class, each with its bound, in
    /// increasing bound (then candidates first, then code order), with the least bound of
    /// all. A guess whose cost is known to be its bound and equal to `known` (a lower bound
    /// of the set that depends on nothing but the set) is optimal at once: the scan stops at
    /// the first such guess in pool order.
    pub(super) fn ordered_guesses(
        &self,
        set: &[CodeIndex],
        budget: u32,
        known: u32,
        child_depth: u8,
        history: &[CodeIndex],
    ) -> Scanned {
        let m = set.len() as u32;
        let pool = self.pool(set, history);
        let guesses = self.pool_guesses(&pool);
        let masks = self.space.scheme().len() <= 32;
        let win = self.space.scheme().win().get();
        let bounded = || Bounded {
            search: self,
            win,
            m,
            budget,
            known,
            least: INFINITE,
            out: Vec::new(),
            kept: Vec::new(),
            shortcut: None,
        };
        // Chunks of a large scan go to idle threads: most of a search's time with one thread
        // busy is the scan of a large set whose guess is being bounded.
        let scan = |guesses, detail| Scan::new(self.space, guesses, set).detail(detail).parallel(self.parallel);
        if m as usize <= self.bounds.linear && child_depth >= 2 && masks {
            // Bounds from `2m - 1` (every part a single, the guess a candidate) to `3m - 1`; the
            // guesses' keys wait until the set is searched.
            let found = scan(guesses, Detail::Feedbacks).run(|| Floor { bounded: bounded(), count: 0, most: 0 });
            return match found.bounded.shortcut {
                Some((cost, g)) => Scanned::Shortcut(cost, g),
                None => {
                    Scanned::Guesses(Order::Pending { pool, count: found.count }, found.bounded.least, Some(found.most))
                }
            };
        }
        // Larger sets: `3m - parts - [guess in set]` still bounds every guess's bound from
        // below (`lower[c] >= 2c - 1`), so when the budget is below `3m - 1` the feedback
        // masks sift out guesses that cannot beat it before any partition table is counted.
        let sift = masks && u64::from(budget) + 1 < 3 * u64::from(m);
        let sifted = masks.then(|| scan(guesses, Detail::Feedbacks).run(|| Sift(bounded(), sift, 0)));
        let most = sifted.as_ref().map(|s| s.2);
        let sifted = sifted.filter(|s| s.1).map(|s| s.0);
        let guesses = match &sifted {
            Some(sifted) => Guesses::Increasing(&sifted.kept),
            None => guesses,
        };
        // Parts whose bound is their exact cost: 1 code (1 guess), 2 codes (3 guesses).
        let exact_size = match child_depth {
            0 => 0,
            1 => 1,
            _ => 2,
        };
        let cap = self.bounds.capacity(child_depth);
        let (lower, linear) = self.bounds.with_branching(set.len(), most);
        let pairwise = set.len() <= PAIRWISE_MAX.min(2 * linear + 1);
        let (detail, members) = if pairwise { (Detail::Moments, Some(set)) } else { (Detail::Counts, None) };
        let mut found = scan(guesses, detail)
            .run(|| Tables { bounded: bounded(), exact_size, cap, lower, linear, members })
            .bounded;
        found.least = found.least.min(sifted.map_or(INFINITE, |s| s.least));
        found.finish(most)
    }

    /// The [`Order::Keyed`] of a set whose scan left it [`Order::Pending`], for `budget` (at
    /// most the scan's): the same guesses in the same order, up to the budget.
    pub(super) fn keyed(&self, set: &[CodeIndex], pool: &Arc<Option<Vec<CodeIndex>>>, budget: u32) -> Order {
        let m = set.len() as u32;
        let guesses = self.pool_guesses(pool);
        let small = || Small {
            m,
            win: self.space.scheme().win().get(),
            budget,
            keys: vec![SKIPPED; guesses.len()],
            counts: vec![0; 2 * m as usize + 2],
        };
        let found = Scan::new(self.space, guesses, set).detail(Detail::Feedbacks).run(small);
        Order::Keyed { keys: found.keys, pool: Arc::clone(pool), base: 2 * m - 1, counts: found.counts }
    }

    /// A pool (from [`Self::pool`]) as the guesses of a scan.
    pub(super) fn pool_guesses<'a>(&'a self, pool: &'a Option<Vec<CodeIndex>>) -> Guesses<'a> {
        match pool {
            Some(list) => Guesses::Increasing(list),
            None => Guesses::Pool(self.space.pool(), false),
        }
    }

    /// The guesses to try on `set`: those of the pool, one per symmetry class: near the root
    /// under the history's group, deeper under the permutations of the colours never played
    /// and of those absent from the set (in closed form, [`canonical_codes`]).
    pub(super) fn pool(&self, set: &[CodeIndex], history: &[CodeIndex]) -> Arc<Option<Vec<CodeIndex>>> {
        let space = self.space;
        let (key, absent) = if history.len() <= SYMMETRY_DEPTH {
            (PoolKey::History(history.iter().map(|h| h.index()).collect()), 0)
        } else {
            let absent = self.absent(set);
            let all = (1u64 << space.game().k()) - 1;
            let played = self.played(history);
            // As `Symmetry::free_colours`, without listing the history's group.
            (PoolKey::Colours([absent, all & !played & !absent]), absent)
        };
        if self.config.pool == Pool::All {
            if let Some(pool) = lock(&self.pools).pools.get(&key) {
                return Arc::clone(pool);
            }
        }
        let mut group = None;
        let pool = Arc::new(match (&key, self.config.pool) {
            (PoolKey::History(_), Pool::All) => {
                let symmetry = self.symmetry(history);
                let shared = lock(&self.pools).by_group.get(&symmetry).map(Arc::clone);
                if let Some(pool) = shared {
                    lock(&self.pools).pools.insert(key, Arc::clone(&pool));
                    return pool;
                }
                let pool = (!symmetry.moves_nothing(0)).then(|| symmetry.representatives(space, false));
                group = Some(symmetry);
                pool
            }
            (PoolKey::Colours(free), Pool::All) if free.iter().all(|c| c.count_ones() <= 1) => None,
            (PoolKey::Colours(free), Pool::All) => {
                let mut pool = Vec::new();
                canonical_codes(space.game(), *free, false, |_, i| pool.push(CodeIndex::from_index(i)));
                Some(pool)
            }
            (_, Pool::Candidates) => {
                let symmetry = self.symmetry(history);
                let keep = |g: &CodeIndex| symmetry.is_representative(&space.code(*g), absent, false);
                Some(set.iter().copied().filter(keep).collect())
            }
        });
        if self.config.pool == Pool::All {
            let mut cache = lock(&self.pools);
            let size = pool.as_ref().as_ref().map_or(1, Vec::len);
            if cache.codes + size <= POOL_CACHE_CODES {
                cache.codes += size;
                cache.pools.insert(key, Arc::clone(&pool));
                if let Some(group) = group {
                    cache.by_group.insert(group, Arc::clone(&pool));
                }
            }
        }
        pool
    }

    /// Whether `set` is mapped onto itself by the permutations whose classes [`Self::pool`]
    /// keeps one guess of, as the candidates left after `history` are: on any other set the
    /// pool may lack the best guess.
    pub(super) fn pool_fits(&self, set: &[CodeIndex], history: &[CodeIndex]) -> bool {
        let space = self.space;
        let group = if history.len() <= SYMMETRY_DEPTH || self.config.pool == Pool::Candidates {
            self.symmetry(history)
        } else {
            let played = self.played(history);
            // Colours absent from the set are interchangeable whatever the set.
            Symmetry::of_colours(space.game(), played | self.absent(set))
        };
        group.fixes(space, set)
    }

    /// The group fixing every guess of `history`, from the kept group after its first guess:
    /// listing the root's position permutations again for every pool cost [6,4]'s search 0.62 G
    /// instructions (one thread, callgrind: 26.66 -> 26.04 G).
    fn symmetry(&self, history: &[CodeIndex]) -> Symmetry {
        let space = self.space;
        let Some((&first, rest)) = history.split_first() else {
            return Symmetry::root(space.game());
        };
        let after_first = Arc::clone(
            lock(&self.pools)
                .after_first
                .entry(first)
                .or_insert_with(|| Arc::new(Symmetry::of_history(space.game(), &[space.code(first)]))),
        );
        rest.iter().fold((*after_first).clone(), |s, &g| s.after(&space.code(g)))
    }

    /// The colours of the guesses of `history`.
    fn played(&self, history: &[CodeIndex]) -> u64 {
        history.iter().flat_map(|&h| self.space.code(h).pegs().to_vec()).fold(0u64, |m, c| m | 1 << c)
    }

    /// The colours no code of `set` contains.
    fn absent(&self, set: &[CodeIndex]) -> u64 {
        let k = self.space.game().k();
        let all = if k >= 64 { u64::MAX } else { (1u64 << k) - 1 };
        let present = set.iter().fold(0u64, |acc, &c| self.space.code(c).pegs().iter().fold(acc, |a, &p| a | 1 << p));
        all & !present
    }
}

/// The state of a scan of the pool (see [`OptimalSearch::ordered_guesses`]), shared by its
/// three kinds: [`Floor`], [`Sift`] and [`Tables`].
struct Bounded<'a, 's> {
    search: &'a OptimalSearch<'s>,
    /// The winning feedback's index.
    win: usize,
    m: u32,
    budget: u32,
    known: u32,
    least: u32,
    /// `(bound, not a candidate, guess)` of the guesses below the budget.
    out: Vec<(u32, bool, CodeIndex)>,
    /// The guesses that survive sifting.
    kept: Vec<CodeIndex>,
    shortcut: Option<(u32, CodeIndex)>,
}

impl Bounded<'_, '_> {
    fn finish(self, most: Option<u32>) -> Scanned {
        match self.shortcut {
            Some((cost, g)) => Scanned::Shortcut(cost, g),
            None => Scanned::Guesses(Order::Sorted(sort_guesses(self.out, self.least)), self.least, most),
        }
    }

    /// Whether a guess with this bound is worth trying (`exact`: the bound is its cost);
    /// `None` once it is a shortcut, which ends the scan.
    #[inline(always)]
    fn admit(&mut self, g: CodeIndex, bound: u32, exact: bool) -> Option<bool> {
        self.least = self.least.min(bound);
        if bound >= self.budget {
            return Some(false); // can never beat the budget
        }
        if bound <= self.known && exact {
            self.shortcut = Some((bound, g));
            return None;
        }
        Some(true)
    }

    /// Records a guess with its bound if worth trying; `false` ends the scan.
    #[inline(always)]
    fn take(&mut self, g: CodeIndex, bound: u32, in_set: bool, exact: bool) -> bool {
        let Some(keep) = self.admit(g, bound, exact) else { return false };
        if keep {
            self.out.push((bound, !in_set, g));
        }
        true
    }

    fn merge(mut self, later: Self) -> Self {
        self.least = self.least.min(later.least);
        self.out.extend(later.out);
        self.kept.extend(later.kept);
        self.shortcut = self.shortcut.or(later.shortcut);
        self
    }
}

/// Small sets being searched: each guess's bound `3m - parts - [guess in set]` from its
/// feedbacks alone, kept as a key by pool position. The set's [`Floor`] scan has already found
/// its least bound and that no guess is a shortcut.
struct Small {
    m: u32,
    /// The winning feedback's index.
    win: usize,
    budget: u32,
    keys: Vec<u8>,
    counts: Vec<u32>,
}

impl Small {
    /// Keys a guess if its bound is below the budget.
    #[inline(always)]
    fn keep(&mut self, position: usize, mask: u32) {
        let bound = mask_bound(mask, self.m, self.win);
        if bound < self.budget {
            let key = 2 * (bound - (2 * self.m - 1)) + 1 - ((mask >> self.win) & 1);
            self.keys[position] = key as u8;
            self.counts[key as usize] += 1;
        }
    }
}

impl Fold for Small {
    fn cut(&self) -> Cut {
        Cut::Never
    }

    #[inline(always)]
    fn visit(&mut self, p: &Partition) -> bool {
        // Only feedback-mask scans (at most 32 feedbacks) run this fold.
        self.keep(p.position(), p.feedbacks() as u32);
        true
    }

    #[inline(always)]
    fn visit_masks(&mut self, run: &MaskRun) -> bool {
        for (j, &mask) in run.masks().iter().enumerate() {
            self.keep(run.position() + j, mask);
        }
        true
    }

    fn merge(mut self, later: Self) -> Self {
        for (key, &later) in self.keys.iter_mut().zip(&later.keys) {
            if later != SKIPPED {
                *key = later;
            }
        }
        for (count, later) in self.counts.iter_mut().zip(later.counts) {
            *count += later;
        }
        self
    }
}

/// Small sets before they are searched: the least bound `3m - parts - [guess in set]`, how
/// many guesses are below the budget, and the first guess (in pool order) that splits the set
/// into singletons with a bound that meets the set's known bound.
struct Floor<'a, 's> {
    bounded: Bounded<'a, 's>,
    count: usize,
    /// The most non-winning feedbacks of a guess.
    most: u32,
}

impl Floor<'_, '_> {
    /// Whether a guess with this mask and bound is a shortcut (every part a single).
    #[inline(always)]
    fn shortcut(&self, mask: u32, bound: u32) -> bool {
        mask.count_ones() == self.bounded.m && bound <= self.bounded.known && bound < self.bounded.budget
    }
}

impl Fold for Floor<'_, '_> {
    fn cut(&self) -> Cut {
        Cut::Never
    }

    #[inline(always)]
    fn visit(&mut self, p: &Partition) -> bool {
        // Only feedback-mask scans (at most 32 feedbacks) run this fold.
        let mask = p.feedbacks() as u32;
        self.most = self.most.max(non_winning(mask, self.bounded.win));
        let bound = mask_bound(mask, self.bounded.m, self.bounded.win);
        self.bounded.least = self.bounded.least.min(bound);
        if self.shortcut(mask, bound) {
            self.bounded.shortcut = Some((bound, p.guess()));
            return false;
        }
        self.count += usize::from(bound < self.bounded.budget);
        true
    }

    #[inline(always)]
    fn visit_masks(&mut self, run: &MaskRun) -> bool {
        let (masks, guesses) = (run.masks(), run.guesses());
        let (m, win, budget) = (self.bounded.m, self.bounded.win, self.bounded.budget);
        for (masks, guesses) in masks.chunks(RUN_CHUNK).zip(guesses.chunks(RUN_CHUNK)) {
            // Branch-free, so that it vectorises: most guesses are below the budget.
            let (mut least, mut below, mut short, mut most) = (INFINITE, 0u32, false, 0);
            for &mask in masks {
                most = most.max(non_winning(mask, win));
                let bound = mask_bound(mask, m, win);
                least = least.min(bound);
                below += u32::from(bound < budget);
                short |= self.shortcut(mask, bound);
            }
            self.bounded.least = self.bounded.least.min(least);
            self.most = self.most.max(most);
            self.count += below as usize;
            if short {
                let bound = |i: usize| mask_bound(masks[i], m, win);
                let i = (0..masks.len()).find(|&i| self.shortcut(masks[i], bound(i))).expect("flagged above");
                self.bounded.shortcut = Some((bound(i), guesses[i]));
                return false;
            }
        }
        true
    }

    fn merge(mut self, later: Self) -> Self {
        self.count += later.count;
        self.most = self.most.max(later.most);
        Floor { bounded: self.bounded.merge(later.bounded), ..self }
    }
}

/// Guesses whose bounds [`Floor`] and [`Sift`] compute together from their masks.
const RUN_CHUNK: usize = 64;

/// `3m - parts - [guess in set]` from a guess's feedback mask, or `u32::MAX` if the guess
/// learns nothing (one part, not a candidate); branch-free.
#[inline(always)]
fn mask_bound(mask: u32, m: u32, win: usize) -> u32 {
    let (parts, in_set) = (mask.count_ones(), (mask >> win) & 1);
    let useless = u32::from(parts + in_set < 2);
    (3 * m - parts - in_set) | useless.wrapping_neg()
}

/// The non-winning feedbacks in a guess's feedback mask.
#[inline(always)]
fn non_winning(mask: u32, win: usize) -> u32 {
    (mask & !(1 << win)).count_ones()
}

/// The guesses whose floor `3m - parts - [guess in set]` is below the budget (when the
/// `bool` says to sift), and the most non-winning feedbacks any guess gives.
struct Sift<'a, 's>(Bounded<'a, 's>, bool, u32);

impl Fold for Sift<'_, '_> {
    fn cut(&self) -> Cut {
        Cut::Never
    }

    #[inline(always)]
    fn visit(&mut self, p: &Partition) -> bool {
        // Only feedback-mask scans (at most 32 feedbacks) run this fold.
        let mask = p.feedbacks() as u32;
        self.2 = self.2.max(non_winning(mask, self.0.win));
        if self.1 {
            let floor = mask_bound(mask, self.0.m, self.0.win);
            if floor >= self.0.budget {
                self.0.least = self.0.least.min(floor);
            } else {
                self.0.kept.push(p.guess());
            }
        }
        true
    }

    #[inline(always)]
    fn visit_masks(&mut self, run: &MaskRun) -> bool {
        let b = &mut self.0;
        let (m, win, budget) = (b.m, b.win, b.budget);
        let mut floors = [0u32; RUN_CHUNK];
        for (masks, guesses) in run.masks().chunks(RUN_CHUNK).zip(run.guesses().chunks(RUN_CHUNK)) {
            let most = masks.iter().map(|&mask| non_winning(mask, win)).max().unwrap_or(0);
            self.2 = self.2.max(most);
            if !self.1 {
                if u64::from(self.2) >= b.search.bounds.branching {
                    return false; // nothing left to learn
                }
                continue;
            }
            let floors = &mut floors[..masks.len()];
            let mut least = INFINITE;
            for (floor, &mask) in floors.iter_mut().zip(masks) {
                *floor = mask_bound(mask, m, win);
                if *floor >= budget {
                    least = least.min(*floor);
                }
            }
            b.least = b.least.min(least);
            b.kept.extend(floors.iter().zip(guesses).filter(|&(&f, _)| f < budget).map(|(_, &g)| g));
        }
        true
    }

    fn merge(self, later: Self) -> Self {
        Sift(self.0.merge(later.0), self.1, self.2.max(later.2))
    }
}

/// Each guess's bound from its partition table; parts up to `exact_size` codes have their
/// bound as exact cost; a part above `cap` codes cannot fit the depth left.
struct Tables<'a, 's> {
    bounded: Bounded<'a, 's>,
    exact_size: u32,
    cap: u64,
    /// The perfect-tree bounds of the set's parts ([`super::bounds::Bounds::with_branching`]).
    lower: &'a [u32],
    /// Their [`super::bounds::Bounds::linear`].
    linear: usize,
    /// The set, when the scan reports statistics instead of tables (whether a guess is a
    /// candidate is then looked up here).
    members: Option<&'a [CodeIndex]>,
}

impl Fold for Tables<'_, '_> {
    fn cut(&self) -> Cut {
        Cut::Never
    }

    #[inline(always)]
    fn visit(&mut self, p: &Partition) -> bool {
        // `lower[0] = 0` and the winning part (0 or 1 code, `lower[1] = 1`) costs nothing.
        let b = &mut self.bounded;
        let (in_set, parts, largest) = match self.members {
            Some(set) => (u32::from(set.binary_search(&p.guess()).is_ok()), p.parts(), p.largest()),
            None => {
                let counts = p.counts();
                let (mut parts, mut largest) = (0u32, 0u32);
                for &c in counts.iter() {
                    parts += u32::from(c != 0);
                    largest = largest.max(c);
                }
                (counts[b.win], parts, largest)
            }
        };
        if largest == b.m {
            return true; // one part of everything: learns nothing
        }
        // Parts up to `linear` codes have `lower[c] = 2c - 1`, so while at most the largest
        // part is larger the sum of `lower` is `2m - parts` plus the largest's excess, with
        // no other part's size looked up.
        let (lower, m, linear) = (self.lower, b.m as usize, self.linear);
        let sum = if (largest as usize) <= linear {
            2 * u64::from(b.m) - u64::from(parts)
        } else if m - largest as usize <= linear {
            let excess = lower[largest as usize] + 1 - 2 * largest;
            2 * u64::from(b.m) - u64::from(parts) + u64::from(excess)
        } else {
            p.counts().iter().map(|&c| u64::from(lower[c as usize])).sum()
        };
        let bound = if u64::from(largest) > self.cap {
            INFINITE
        } else {
            (u64::from(b.m) + sum - u64::from(in_set)).min(u64::from(INFINITE)) as u32
        };
        b.take(p.guess(), bound, in_set == 1, largest <= self.exact_size)
    }

    fn merge(self, later: Self) -> Self {
        Tables { bounded: self.bounded.merge(later.bounded), ..self }
    }
}

/// Sorts `(bound, not a candidate, guess)` triples given in increasing guess order, all with
/// bounds from `least` on, by bound, then candidates first, then guess: a counting sort when
/// the bounds span a short range (the usual case), which keeps the guess order within a key.
fn sort_guesses(mut out: Vec<(u32, bool, CodeIndex)>, least: u32) -> Vec<(u32, CodeIndex)> {
    let top = out.iter().map(|e| e.0).max().unwrap_or(least);
    let span = (top - least) as usize;
    if span > 4096 || out.len() < 32 {
        out.sort_unstable();
        return out.into_iter().map(|(b, _, g)| (b, g)).collect();
    }
    let key = |e: &(u32, bool, CodeIndex)| 2 * (e.0 - least) as usize + usize::from(e.1);
    let mut starts = vec![0usize; 2 * span + 3];
    for e in &out {
        starts[key(e) + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut sorted = vec![(0, CodeIndex::from_index(0)); out.len()];
    for e in &out {
        let slot = &mut starts[key(e)];
        sorted[*slot] = (e.0, e.2);
        *slot += 1;
    }
    sorted
}
