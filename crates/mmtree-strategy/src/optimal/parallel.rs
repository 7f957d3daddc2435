//! The parallel driver: the guesses of large nodes near the root tried on rayon's threads with
//! a shared best, and the parts of a guess searched side by side while no total can reach the
//! limit. Both give exactly what the sequential search gives.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use mmtree_core::CodeIndex;

use super::search::Expansion;
use super::{OptimalSearch, Stopped};

impl OptimalSearch<'_> {
    /// Tries guesses in parallel; the best is the least (cost, position in `guesses`), as the
    /// serial loop would find it.
    pub(super) fn best_parallel(
        &self,
        set: &[CodeIndex],
        guesses: &[(u32, CodeIndex)],
        budget: u32,
        child_depth: u8,
        most: Option<u32>,
        history: &[CodeIndex],
    ) -> Result<Option<(u32, CodeIndex)>, Stopped> {
        let pack = |cost: u32, pos: u32| (u64::from(cost) << 32) | u64::from(pos);
        let initial = pack(budget, 0);
        let best = AtomicU64::new(initial);
        // The most promising guess alone first, so the others start with its cost as budget.
        let (bound, guess) = guesses[0];
        if let Some(c) = self.evaluate(set, (bound, guess), budget, child_depth, most, history)? {
            best.store(pack(c, 0), Ordering::Relaxed);
        }
        // The guesses are in increasing bound and the best only falls, so those from the first
        // bound at the best on are cut now, not each by a task of its own (lists run to
        // thousands of guesses: [6,4], one thread, 1.29 -> 1.08 s).
        debug_assert!(guesses.windows(2).all(|w| w[0].0 <= w[1].0), "BUG: guesses out of bound order");
        let reach = (best.load(Ordering::Relaxed) >> 32) as u32;
        let end = guesses.partition_point(|&(bound, _)| bound < reach).max(1);
        self.cutoffs.fetch_add((guesses.len() - end) as u64, Ordering::Relaxed);
        // One task per guess: rayon's adaptive splitting leaves runs of several guesses to one
        // thread, and a run holding two of the few costly refutations serialises them
        // ([4,9], 2 threads: 26.5 -> 21.1 s with both iterators split to single items).
        guesses[..end].par_iter().enumerate().skip(1).with_max_len(1).try_for_each(|(i, &(bound, guess))| {
            let current = best.load(Ordering::Relaxed);
            let (cost, pos) = ((current >> 32) as u32, current as u32);
            // An earlier guess may tie the best; a later one must beat it.
            let limit = if (i as u32) < pos { cost.saturating_add(1) } else { cost };
            if bound >= limit {
                self.cutoffs.fetch_add(1, Ordering::Relaxed);
                return Ok(());
            }
            if let Some(c) = self.evaluate(set, (bound, guess), limit, child_depth, most, history)? {
                best.fetch_min(pack(c, i as u32), Ordering::Relaxed);
            }
            Ok(())
        })?;
        let result = best.load(Ordering::Relaxed);
        Ok((result != initial).then(|| ((result >> 32) as u32, guesses[result as u32 as usize].1)))
    }

    /// Searches the prepared parts of a guess (`(part, its bound, its expansion)`) side by
    /// side, each with the whole room left under `limit` (no total can reach it, so no part
    /// can cut the guess, and the exact results do not depend on the order the parts finish);
    /// returns `running` with each part's bound replaced by its cost, or `None` if a part
    /// failed.
    pub(super) fn expand_parts_parallel(
        &self,
        jobs: Vec<(&[CodeIndex], u32, Expansion)>,
        running: u32,
        limit: u32,
        child_depth: u8,
        history: &[CodeIndex],
    ) -> Result<Option<u32>, Stopped> {
        let costs = jobs
            .into_par_iter()
            // One task per part, as for guesses above: parts differ in cost by orders of
            // magnitude.
            .with_max_len(1)
            .map(|(part, part_bound, x)| {
                let child_budget = limit - (running - part_bound);
                Ok(self.expand(part, child_budget, child_depth, history, x)?.map(|c| (c, part_bound)))
            })
            .collect::<Result<Vec<_>, Stopped>>()?;
        let mut total = running;
        for cost in costs {
            match cost {
                Some((cost, part_bound)) => total = total.saturating_add(cost - part_bound),
                None => return Ok(None),
            }
        }
        Ok(Some(total))
    }
}
