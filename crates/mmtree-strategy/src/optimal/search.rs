//! The sequential search: a set's bounds and table entry, then its guesses in order, each
//! evaluated part by part with the budget left; and the depth-first feasibility search for
//! depth limits.

use std::collections::HashMap;
use std::sync::atomic::Ordering;

use mmtree_core::{standard_image, CodeIndex, Cut, Detail, Fold, Partition, Scan, MAX_FEEDBACKS};

use super::bounds::Small;
use super::guesses::{Order, Scanned};
use super::table::{mix, Cost, Entry, HashedMap};
use super::{OptimalSearch, Stopped, INFINITE, UNLIMITED};

/// Nodes up to this depth with at least `PARALLEL_MIN` candidates try guesses in parallel.
/// Deep enough that the first guess of each node on the way down (searched before its
/// siblings) still has parallel work below it: on Bulls and Cows, 2 levels kept 2 threads
/// at 1.2x one thread's speed, 4 levels at 1.5x.
pub(super) const PARALLEL_DEPTH: usize = 4;
const PARALLEL_MIN: usize = 24;

/// What [`OptimalSearch::prepare`] found.
pub(super) enum Prep {
    /// The answer of `solve`.
    Done(Option<u32>),
    /// The optimum, below the budget, with the guess that reaches it (from the table or a
    /// shortcut).
    Solved(u32, CodeIndex),
    /// The set needs its guesses tried.
    Expand(Expansion),
}

/// A set to expand: its guesses in order with their bounds (`None`: not scanned yet), and its
/// lower bound.
pub(super) struct Expansion {
    guesses: Option<Order>,
    /// The set's `known` bound (see [`OptimalSearch::prepare`]), for a scan still to come
    /// (`None`: not computed yet).
    known: Option<u32>,
    pub(super) node_bound: u32,
    /// The most non-winning feedbacks a guess gives on the set, from its scan (`None` before
    /// it, or if not counted): every subset takes the perfect-tree bounds with that many
    /// branches.
    most: Option<u32>,
    /// The set's [`standard_image`], which keys its class.
    class: Vec<CodeIndex>,
}

impl OptimalSearch<'_> {
    pub(super) fn lookup(&self, set: &[CodeIndex], depth: u8) -> Option<Entry> {
        self.table.get(set, depth)
    }

    /// What the table, or failing it the set's class, knows of the cost of `set`.
    pub(super) fn known_cost(&self, set: &[CodeIndex], depth: u8) -> Option<Cost> {
        self.lookup(set, depth).map(Cost::from).or_else(|| {
            let mut class = Vec::with_capacity(set.len());
            standard_image(self.space, set, &mut class);
            self.classes.get(&class, depth)
        })
    }

    pub(super) fn store(&self, set: &[CodeIndex], depth: u8, entry: Entry) {
        self.table.update(set, depth, |old| match (old, entry) {
            (Some(Entry::Exact(..)), _) => None,
            (Some(Entry::Lower(old)), Entry::Lower(new)) if old >= new => None,
            _ => Some(entry),
        });
    }

    /// A lower bound of `set`'s cost for the set and its class.
    pub(super) fn store_lower(&self, set: &[CodeIndex], depth: u8, bound: u32) {
        let mut class = Vec::with_capacity(set.len());
        standard_image(self.space, set, &mut class);
        self.store_with_class(set, &class, depth, Entry::Lower(bound));
    }

    /// [`Self::store`], and the cost for the set's class (keyed by its image).
    fn store_with_class(&self, set: &[CodeIndex], class: &[CodeIndex], depth: u8, entry: Entry) {
        self.store(set, depth, entry);
        let cost = Cost::from(entry);
        self.classes.update(class, depth, |old| match (old, cost) {
            (Some(Cost::Exact(_)), _) => None,
            (Some(Cost::Lower(old)), Cost::Lower(new)) if old >= new => None,
            _ => Some(cost),
        });
    }

    /// The least cost of `set` within `depth` guesses if it is below `budget`; `None` proves
    /// the least cost is at least `budget` (or that no strategy fits the depth).
    pub(super) fn solve(
        &self,
        set: &[CodeIndex],
        budget: u32,
        depth: u8,
        history: &[CodeIndex],
    ) -> Result<Option<u32>, Stopped> {
        match self.prepare(set, budget, depth, history, None, true)? {
            Prep::Done(result) => Ok(result),
            Prep::Solved(cost, _) => Ok(Some(cost)),
            Prep::Expand(x) => self.expand(set, budget, depth, history, x),
        }
    }

    /// The least cost of `set` within `depth` with its best guess: as [`Self::solve`] with no
    /// budget, but never answered by the set's class alone (whose cost comes without this
    /// set's guess), and returned, not only left in a table that may forget it. `None` for
    /// sets answered in closed form (at most 2 codes, or by their own candidates).
    pub(super) fn solve_with_guess(
        &self,
        set: &[CodeIndex],
        depth: u8,
        history: &[CodeIndex],
    ) -> Result<Option<(u32, CodeIndex)>, Stopped> {
        match self.prepare(set, INFINITE, depth, history, None, false)? {
            Prep::Done(_) => Ok(None),
            Prep::Solved(cost, guess) => Ok(Some((cost, guess))),
            Prep::Expand(x) => self.expand_with_guess(set, INFINITE, depth, history, x),
        }
    }

    /// Everything short of trying guesses: closed forms, the table, small sets, and the scan
    /// of the pool, whose least bound is a lower bound of the set. `small`: the set's
    /// [`Small::Lower`] or [`Small::Reached`] bound when the caller has already computed it
    /// (a reached bound puts the scan off until the set is searched); `by_class`: whether
    /// the set's class may answer for it.
    pub(super) fn prepare(
        &self,
        set: &[CodeIndex],
        budget: u32,
        depth: u8,
        history: &[CodeIndex],
        small: Option<Small>,
        by_class: bool,
    ) -> Result<Prep, Stopped> {
        let m = set.len();
        let found = |cost: u32| Prep::Done(if cost < budget { Some(cost) } else { None });
        match m {
            0 => return Ok(Prep::Done(Some(0))),
            1 if depth >= 1 => return Ok(found(1)),
            2 if depth >= 2 => return Ok(found(3)),
            _ => {}
        }
        // `known`: a function of the set and depth alone (never of what the table holds), so
        // that the shortcut below picks the same guess whenever the set is searched.
        let mut known = self.bounds.set_bound(set, depth);
        if known >= budget {
            return Ok(Prep::Done(None));
        }
        let mut node_bound = known;
        match self.lookup(set, depth) {
            Some(Entry::Exact(cost, guess)) => {
                self.hits.fetch_add(1, Ordering::Relaxed);
                return Ok(if cost < budget { Prep::Solved(cost, guess) } else { Prep::Done(None) });
            }
            Some(Entry::Lower(lb)) => {
                if lb >= budget {
                    self.hits.fetch_add(1, Ordering::Relaxed);
                    return Ok(Prep::Done(None));
                }
                node_bound = node_bound.max(lb);
            }
            None => {}
        }
        if depth != UNLIMITED && self.feasible.get(set, depth) == Some(false) {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return Ok(Prep::Done(None));
        }
        // A caller's `small` is sharpened by the branching of the set this one is a part of:
        // it bounds the set, but differs with the way the set was reached, so `known` waits
        // for the set's own bound, taken when the pool is scanned. (With it, the shortcut's
        // guess depended on which context scanned a set first, and so on the threads: Bulls
        // and Cows gave one tree on one thread and another on two.)
        let mut own = true;
        match small.unwrap_or_else(|| self.bounds.small_set(self.space, self.config.pool, set, depth)) {
            Small::Exact(cost, _) => return Ok(found(cost)),
            Small::Lower(lb) | Small::Reached(lb) if small.is_some() => {
                node_bound = node_bound.max(lb);
                own = false;
            }
            Small::Lower(lb) | Small::Reached(lb) => known = known.max(lb),
            Small::Unknown => {}
        }
        node_bound = node_bound.max(known);
        let known = own.then_some(known);
        if node_bound >= budget {
            self.store(set, depth, Entry::Lower(node_bound));
            return Ok(Prep::Done(None));
        }
        // What an image of the set proved, before its pool is scanned.
        let mut class = Vec::with_capacity(set.len());
        standard_image(self.space, set, &mut class);
        if by_class {
            match self.classes.get(&class, depth) {
                Some(Cost::Exact(cost)) => {
                    self.hits.fetch_add(1, Ordering::Relaxed);
                    return Ok(found(cost));
                }
                Some(Cost::Lower(lb)) if lb >= budget => {
                    self.hits.fetch_add(1, Ordering::Relaxed);
                    self.store(set, depth, Entry::Lower(lb));
                    return Ok(Prep::Done(None));
                }
                Some(Cost::Lower(lb)) => {
                    // An image was scanned before (every lower bound of a class is stored
                    // after a scan, so it is at least the scan's least bound): the scan
                    // waits until the set is searched, which most parts of guesses never are.
                    node_bound = node_bound.max(lb);
                    self.store(set, depth, Entry::Lower(node_bound));
                    return Ok(Prep::Expand(Expansion { guesses: None, known, node_bound, most: None, class }));
                }
                None => {}
            }
        }
        let expansion = Expansion { guesses: None, known, node_bound, most: None, class };
        if matches!(small, Some(Small::Reached(_))) {
            // A candidate's one-step bound reaches the set's bound, so the scan would seldom
            // raise it: it waits until the set is searched, which most parts of guesses
            // never are (as for a class's bound above).
            return Ok(Prep::Expand(expansion));
        }
        self.scan(set, budget, depth, history, expansion)
    }

    /// Scans the pool of a set about to be expanded: the expansion with its guesses, a
    /// shortcut, or `Done(None)` if no guess is below the budget.
    fn scan(
        &self,
        set: &[CodeIndex],
        budget: u32,
        depth: u8,
        history: &[CodeIndex],
        mut x: Expansion,
    ) -> Result<Prep, Stopped> {
        let nodes = self.nodes.fetch_add(1, Ordering::Relaxed) + 1;
        self.check_stop(nodes)?;
        let child_depth = if depth == UNLIMITED { UNLIMITED } else { depth - 1 };
        let known = x.known.unwrap_or_else(|| self.own_known(set, depth));
        match self.ordered_guesses(set, budget, known, child_depth, history) {
            Scanned::Shortcut(cost, guess) => {
                self.store_with_class(set, &x.class, depth, Entry::Exact(cost, guess));
                Ok(Prep::Solved(cost, guess))
            }
            Scanned::Guesses(guesses, least, most) => {
                x.node_bound = x.node_bound.max(least);
                x.most = most;
                if guesses.len() == 0 || x.node_bound >= budget {
                    self.cutoffs.fetch_add(1, Ordering::Relaxed);
                    self.store_with_class(set, &x.class, depth, Entry::Lower(x.node_bound.max(budget)));
                    return Ok(Prep::Done(None));
                }
                self.store_with_class(set, &x.class, depth, Entry::Lower(x.node_bound));
                x.guesses = Some(guesses);
                Ok(Prep::Expand(x))
            }
        }
    }

    /// The bound a shortcut must meet: the set's admissible bound and what its own candidates
    /// prove, a function of the set and depth alone.
    fn own_known(&self, set: &[CodeIndex], depth: u8) -> u32 {
        let known = self.bounds.set_bound(set, depth);
        match self.bounds.small_set(self.space, self.config.pool, set, depth) {
            Small::Exact(cost, _) | Small::Lower(cost) | Small::Reached(cost) => known.max(cost),
            Small::Unknown => known,
        }
    }

    /// Tries the guesses of a prepared set (within a budget at most the one it was prepared
    /// with) and records the outcome.
    pub(super) fn expand(
        &self,
        set: &[CodeIndex],
        budget: u32,
        depth: u8,
        history: &[CodeIndex],
        x: Expansion,
    ) -> Result<Option<u32>, Stopped> {
        Ok(self.expand_with_guess(set, budget, depth, history, x)?.map(|(cost, _)| cost))
    }

    /// [`Self::expand`], with the best guess.
    fn expand_with_guess(
        &self,
        set: &[CodeIndex],
        budget: u32,
        depth: u8,
        history: &[CodeIndex],
        x: Expansion,
    ) -> Result<Option<(u32, CodeIndex)>, Stopped> {
        if x.node_bound >= budget {
            return Ok(None);
        }
        let x = match x.guesses {
            Some(_) => x,
            None => match self.scan(set, budget, depth, history, x)? {
                Prep::Expand(x) => x,
                Prep::Solved(cost, guess) => return Ok((cost < budget).then_some((cost, guess))),
                Prep::Done(_) => return Ok(None),
            },
        };
        let child_depth = if depth == UNLIMITED { UNLIMITED } else { depth - 1 };
        let keyed;
        let guesses = match x.guesses.as_ref().expect("scanned above") {
            Order::Pending { pool, .. } => {
                keyed = self.keyed(set, pool, budget);
                &keyed
            }
            order => order,
        };
        let parallel =
            self.parallel && history.len() < PARALLEL_DEPTH && set.len() >= PARALLEL_MIN && guesses.len() > 1;
        let best = if parallel {
            let listed: Vec<_> = guesses.iter().collect();
            self.best_parallel(set, &listed, budget, child_depth, x.most, history)?
        } else {
            self.best_serial(set, guesses, budget, child_depth, x.most, history)?
        };
        match best {
            Some((cost, guess)) => {
                self.store_with_class(set, &x.class, depth, Entry::Exact(cost, guess));
                Ok(Some((cost, guess)))
            }
            None => {
                self.store_with_class(set, &x.class, depth, Entry::Lower(budget.max(x.node_bound)));
                Ok(None)
            }
        }
    }

    fn best_serial(
        &self,
        set: &[CodeIndex],
        guesses: &Order,
        budget: u32,
        child_depth: u8,
        most: Option<u32>,
        history: &[CodeIndex],
    ) -> Result<Option<(u32, CodeIndex)>, Stopped> {
        let mut best = budget;
        let mut best_guess = None;
        // Guesses with the same partition (up to the names of the feedbacks) are the same
        // move: try only the first.
        let mut tried: HashedMap<Vec<CodeIndex>> = HashMap::default();
        for (i, (bound, guess)) in guesses.iter().enumerate() {
            if bound >= best {
                self.cutoffs.fetch_add((guesses.len() - i) as u64, Ordering::Relaxed);
                break;
            }
            let same = tried.entry(self.partition_hash(guess, set)).or_default();
            if same.iter().any(|&other| self.same_partition(guess, other, set)) {
                continue;
            }
            same.push(guess);
            if let Some(cost) = self.evaluate(set, (bound, guess), best, child_depth, most, history)? {
                best = cost;
                best_guess = Some(guess);
            }
        }
        Ok(best_guess.map(|g| (best, g)))
    }

    /// A hash of the partition `guess` makes of `set`, feedbacks renamed in order of first
    /// appearance (the winning one kept apart).
    fn partition_hash(&self, guess: CodeIndex, set: &[CodeIndex]) -> u64 {
        let win = self.space.scheme().win().get();
        let mut names = [u8::MAX; MAX_FEEDBACKS];
        let mut next = 0u8;
        let mut h = 0u64;
        self.space.for_each_feedback(guess, set, |f| {
            let name = if f == win {
                u8::MAX
            } else {
                if names[f] == u8::MAX {
                    names[f] = next;
                    next += 1;
                }
                names[f]
            };
            h = mix(h, u64::from(name));
        });
        h
    }

    /// Whether two guesses split `set` into the same parts, the winning part included.
    fn same_partition(&self, a: CodeIndex, b: CodeIndex, set: &[CodeIndex]) -> bool {
        let win = self.space.scheme().win().get();
        let (mut ab, mut ba) = ([u8::MAX; MAX_FEEDBACKS], [u8::MAX; MAX_FEEDBACKS]);
        set.iter().all(|&c| {
            let (fa, fb) = (self.space.feedback(a, c).get(), self.space.feedback(b, c).get());
            if (fa == win) != (fb == win) {
                return false;
            }
            if ab[fa] == u8::MAX && ba[fb] == u8::MAX {
                ab[fa] = fb as u8;
                ba[fb] = fa as u8;
            }
            ab[fa] as usize == fb && ba[fb] as usize == fa
        })
    }

    /// The cost of playing `guess` (whose bound is `bound`) on `set` if below `limit`; `most`:
    /// as [`Expansion::most`].
    ///
    /// First every part is bounded as cheaply as possible (closed forms, the table, then
    /// small parts from their own candidates), then each part is prepared (its pool
    /// scanned, which gives its one-step bound), and only then are parts searched, smallest
    /// first: a guess whose parts' bounds already reach the limit is abandoned before any
    /// deep search. Each part is searched first within its bound plus twice its even share
    /// of the room left, and the parts that rose past it again with all the room.
    pub(super) fn evaluate(
        &self,
        set: &[CodeIndex],
        (bound, guess): (u32, CodeIndex),
        limit: u32,
        child_depth: u8,
        most: Option<u32>,
        history: &[CodeIndex],
    ) -> Result<Option<u32>, Stopped> {
        let win = self.space.scheme().win().get();
        let (fewer, _) = self.bounds.with_branching(set.len(), most);
        let mut codes = Vec::new();
        let starts = self.space.split_flat(guess, set, &mut codes);
        // Sized once: collected from a filter, the list grew two or three times per guess.
        let feedbacks = self.space.scheme().len();
        let mut parts: Vec<&[CodeIndex]> = Vec::with_capacity(feedbacks);
        parts.extend(
            (0..feedbacks).filter(|&f| f != win && starts[f + 1] > starts[f]).map(|f| &codes[starts[f]..starts[f + 1]]),
        );
        parts.sort_by_key(|p| p.len());
        let cut = || {
            self.cutoffs.fetch_add(1, Ordering::Relaxed);
            Ok(None)
        };
        // Each part's bound, raised to what the table knows, before solving any part.
        let mut running = set.len() as u32;
        let mut bounds = Vec::with_capacity(parts.len());
        for part in &parts {
            let b = self.bounds.set_bound(part, child_depth).max(fewer[part.len()]);
            let (b, exact) = if part.len() <= 2 || b == INFINITE {
                (b, true) // 1 and 3: the costs of 1 and 2 codes, when the depth allows them
            } else {
                match self.lookup(part, child_depth) {
                    Some(Entry::Exact(cost, _)) => {
                        self.hits.fetch_add(1, Ordering::Relaxed);
                        (cost, true)
                    }
                    Some(Entry::Lower(lb)) => {
                        self.hits.fetch_add(1, Ordering::Relaxed);
                        (b.max(lb), false)
                    }
                    None => (b, false),
                }
            };
            running = running.saturating_add(b);
            bounds.push((b, exact));
        }
        debug_assert!(running >= bound || running == INFINITE);
        if running >= limit {
            return cut();
        }
        // Small parts' bounds from their own candidates (`|K|²` scorings) before any part's
        // pool is scanned (the pool's size times `|K|`): most guesses are cut here.
        let mut small = vec![None; parts.len()];
        for ((part, (part_bound, exact)), small) in parts.iter().zip(bounds.iter_mut()).zip(small.iter_mut()) {
            if *exact {
                continue;
            }
            let (cost, now_exact) = match self.bounds.small_part(self.space, self.config.pool, part, child_depth, most)
            {
                Small::Exact(cost, _) => (cost, true),
                bound @ (Small::Lower(lb) | Small::Reached(lb)) => {
                    *small = Some(bound);
                    (lb.max(*part_bound), false)
                }
                Small::Unknown => continue,
            };
            running = running - *part_bound + cost;
            (*part_bound, *exact) = (cost, now_exact);
            if running >= limit {
                return cut();
            }
        }
        let mut history = history.to_vec();
        history.push(guess);
        let mut prepared: Vec<Option<Expansion>> = (0..parts.len()).map(|_| None).collect();
        // Parts of at most `linear` codes (scanned for feedback masks only) first, largest
        // first: their scans raise a part's bound most per code scanned ([6,4]: 0.07 per code at
        // 7 codes, 0.25 at 21 to 27), so a guess that is cut is cut after fewer scans. Then the
        // larger parts, whose scans cost most, smallest first. [6,4] 71,267 -> 53,740 nodes.
        let mut order: Vec<usize> = (0..parts.len()).collect();
        let linear = self.bounds.linear;
        order.sort_by_key(|&i| {
            let m = parts[i].len();
            if m <= linear {
                (false, usize::MAX - m)
            } else {
                (true, m)
            }
        });
        for i in order {
            let (part, (part_bound, exact), small) = (parts[i], &mut bounds[i], small[i]);
            if *exact {
                continue;
            }
            let child_budget = limit - (running - *part_bound);
            match self.prepare(part, child_budget, child_depth, &history, small, true)? {
                Prep::Done(None) => return cut(),
                Prep::Done(Some(cost)) | Prep::Solved(cost, _) => {
                    running = running - *part_bound + cost;
                    (*part_bound, *exact) = (cost, true);
                }
                Prep::Expand(x) => {
                    if x.node_bound > *part_bound {
                        running = running - *part_bound + x.node_bound;
                        *part_bound = x.node_bound;
                        if running >= limit {
                            return cut();
                        }
                    }
                    prepared[i] = Some(x);
                }
            }
        }
        let jobs: Vec<(&[CodeIndex], u32, Expansion)> =
            parts.iter().zip(&bounds).zip(prepared).filter_map(|((p, b), x)| Some((*p, b.0, x?))).collect();
        if self.parallel && limit >= INFINITE / 2 && history.len() <= PARALLEL_DEPTH {
            // No total can reach this limit, so no part can cut the guess.
            return match self.expand_parts_parallel(jobs, running, limit, child_depth, &history)? {
                Some(total) => Ok((total < limit).then_some(total)),
                None => cut(),
            };
        }
        // Each part is first searched within its bound plus twice its even share of the room
        // left: a part that costs less is solved exactly, and one that costs more rises by that
        // much at a fraction of the search that solves it. Most guesses tried are refuted, and
        // they are refuted by these rises on several parts sooner than by solving each part in
        // turn with all the room. Only the parts that rose are then searched with all the room
        // left. One thread, nodes: [4,8] 50,611 -> 33,489, [6,4] 27,020 -> 21,098, [4,9]'s
        // 1,820-code part after 1234 and (0,1) 92,080 -> 50,420; one share gave 41,116, 24,870
        // and 67,743, three shares 42,828, 23,664 and 64,758.
        let share = (u64::from(limit - running) * 2 / jobs.len().max(1) as u64).max(1);
        let mut rose = Vec::new();
        for (part, part_bound, x) in jobs {
            let child_budget = limit - (running - part_bound);
            let probe = (u64::from(part_bound) + share).min(u64::from(child_budget)) as u32;
            match self.expand(part, probe, child_depth, &history, x)? {
                Some(cost) => running = running - part_bound + cost,
                None if probe == child_budget => return cut(),
                None => {
                    running = running - part_bound + probe;
                    rose.push((part, probe));
                }
            }
        }
        for (part, part_bound) in rose {
            let child_budget = limit - (running - part_bound);
            match self.solve(part, child_budget, child_depth, &history)? {
                Some(cost) => running = running - part_bound + cost,
                None => return cut(),
            }
        }
        Ok(Some(running))
    }

    /// Whether some strategy settles every code of `set` within `depth` guesses: the
    /// depth-first search for a depth limit, parts largest first, guesses with the smallest
    /// largest part first.
    pub(super) fn feasible(&self, set: &[CodeIndex], depth: u8, history: &[CodeIndex]) -> Result<bool, Stopped> {
        let m = set.len();
        if m == 0 {
            return Ok(true);
        }
        if depth == 0 || m as u64 > self.bounds.capacity(depth) {
            return Ok(false);
        }
        if m <= 2 {
            return Ok(m as u8 <= depth);
        }
        if let Some(known) = self.feasible.get(set, depth) {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return Ok(known);
        }
        let nodes = self.nodes.fetch_add(1, Ordering::Relaxed) + 1;
        self.check_stop(nodes)?;
        let win = self.space.scheme().win().get();
        let child_depth = depth - 1;
        let pool = self.pool(set, history);
        let guesses = self.pool_guesses(&pool);
        let fold = || Feasible {
            search: self,
            m,
            win,
            cap: self.bounds.capacity(child_depth),
            easy: u32::from(child_depth.min(2)),
            guesses: Vec::new(),
            done: false,
        };
        let scanned = Scan::new(self.space, guesses, set).detail(Detail::Counts).run(fold);
        let (mut guesses, mut done) = (scanned.guesses, scanned.done);
        let easy = u32::from(child_depth.min(2));
        if !done {
            guesses.sort_unstable();
            let mut history = history.to_vec();
            history.push(CodeIndex::from_index(0));
            'guesses: for &(_, _, _, g) in &guesses {
                *history.last_mut().expect("pushed above") = g;
                let mut parts: Vec<Vec<CodeIndex>> = self
                    .space
                    .split(g, set)
                    .into_iter()
                    .filter(|(f, p)| f.get() != win && p.len() as u32 > easy)
                    .map(|(_, p)| p)
                    .collect();
                parts.sort_by_key(|p| std::cmp::Reverse(p.len()));
                for part in &parts {
                    if !self.feasible(part, child_depth, &history)? {
                        continue 'guesses;
                    }
                }
                done = true;
                break;
            }
        }
        self.feasible.update(set, depth, |_| Some(done));
        Ok(done)
    }
}

/// The guesses of a feasibility scan, by (largest non-winning part, bound, not a candidate,
/// guess); `done` once a guess leaves only parts that always fit.
struct Feasible<'a, 's> {
    search: &'a OptimalSearch<'s>,
    m: usize,
    win: usize,
    cap: u64,
    /// Parts this small always fit.
    easy: u32,
    guesses: Vec<(u32, u32, bool, CodeIndex)>,
    done: bool,
}

impl Fold for Feasible<'_, '_> {
    fn cut(&self) -> Cut {
        Cut::Never
    }

    #[inline(always)]
    fn visit(&mut self, p: &Partition) -> bool {
        let counts = p.counts();
        let mut largest = 0;
        let mut bound = 0u32;
        for (f, &c) in counts.iter().enumerate() {
            if f != self.win && c > 0 {
                largest = largest.max(c);
                bound = bound.saturating_add(self.search.bounds.lower[c as usize]);
            }
        }
        if largest as usize == self.m || u64::from(largest) > self.cap {
            return true;
        }
        if largest <= self.easy {
            self.done = true;
            return false;
        }
        self.guesses.push((largest, bound, counts[self.win] == 0, p.guess()));
        true
    }

    fn merge(mut self, later: Self) -> Self {
        self.done |= later.done;
        self.guesses.extend(later.guesses);
        self
    }
}
