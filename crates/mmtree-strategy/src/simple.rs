//! The two strategies that need no partition tables: Shapiro's *first candidate* and the
//! *human-friendly* Bulls-and-Cows strategy (docs/definitions.md), plus the hook that sends
//! [`Solver::choose`](crate::Solver::choose) to them and to the look-ahead.

use mmtree_core::{CodeIndex, CodeSpace, Counts, MAX_FEEDBACKS};

use crate::rule::Ties;

/// Shapiro's simple strategy: the smallest candidate ([`Ties::Smallest`]) or the largest.
///
/// It always terminates: a candidate is either the secret or leaves strictly fewer
/// candidates. For `[4,6]` it opens with 1111 and needs 7471 guesses in total, at most 9.
///
/// ```
/// use mmtree_core::CodeIndex;
/// use mmtree_strategy::{first_candidate, Ties};
/// let cands = [CodeIndex::from_index(3), CodeIndex::from_index(8)];
/// assert_eq!(first_candidate(Ties::Smallest, &cands), CodeIndex::from_index(3));
/// assert_eq!(first_candidate(Ties::Largest, &cands), CodeIndex::from_index(8));
/// ```
///
/// # Panics
/// On an empty candidate set (a bug of the caller).
pub fn first_candidate(ties: Ties, candidates: &[CodeIndex]) -> CodeIndex {
    let pick = match ties {
        Ties::Smallest => candidates.iter().min(),
        Ties::Largest => candidates.iter().max(),
    };
    *pick.expect("BUG: first_candidate on an empty candidate set")
}

/// The human-friendly strategy of the Bulls-and-Cows paper (docs/references.md), with every
/// detail the paper leaves open fixed as follows:
///
/// 1. **Frequencies.** For each symbol, count its occurrences over all positions of all
///    remaining candidates (a candidate `1123` adds 2 to symbol 1).
/// 2. **Which symbols.** Only symbols that occur at least once are ranked (the paper's program
///    builds its frequency table from the candidates, so absent symbols never enter it;
///    guessing them would tell nothing). They are ranked by frequency ascending, equal
///    frequencies by the smaller symbol first.
/// 3. **The guess.** Position `i` (left to right) gets the `i`-th symbol of the ranking, so
///    the least frequent symbol stands first and no symbol repeats. Only in a repetition game
///    can fewer than `n` symbols occur; the ranking is then repeated cyclically
///    (ranking `a, b` gives `abab` for `n = 4`). In a game without repetition every candidate
///    has `n` distinct symbols, so the cycle never happens there.
/// 4. **Fallback.** If that guess does not split the candidates (one part, not the win), or
///    only one candidate is left, play the smallest candidate instead.
///
/// Every guess either splits the candidates or is a candidate, so the strategy always
/// terminates.
///
/// ```
/// use mmtree_core::{Alphabet, CodeSpace, Game, GameSpec, MemoryLimit};
/// use mmtree_strategy::human_guess;
/// let space = CodeSpace::new(Game::new(GameSpec::bulls_and_cows(4, 10))?, MemoryLimit(1 << 30))?;
/// let abc = Alphabet::new("0123456789")?;
/// let all = space.all_indices();
/// // All digits equally frequent: the four smallest, in order.
/// assert_eq!(abc.format(&space.code(human_guess(&space, &all))), "0123");
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
///
/// # Panics
/// On an empty candidate set (a bug of the caller).
pub fn human_guess(space: &CodeSpace, candidates: &[CodeIndex]) -> CodeIndex {
    assert!(!candidates.is_empty(), "BUG: human_guess on an empty candidate set");
    if candidates.len() == 1 {
        return candidates[0];
    }
    let game = space.game();
    let mut freq = vec![0u64; game.k() as usize];
    for &c in candidates {
        for &peg in space.code(c).pegs() {
            freq[peg as usize] += 1;
        }
    }
    let mut ranking: Vec<u8> = (0..game.k()).filter(|&s| freq[s as usize] > 0).collect();
    ranking.sort_by_key(|&s| (freq[s as usize], s));
    let pegs: Vec<u8> = (0..game.n() as usize).map(|i| ranking[i % ranking.len()]).collect();
    let guess = mmtree_core::Code::from_colours(&pegs).and_then(|code| space.index(&code));
    let fallback = *candidates.iter().min().expect("non-empty");
    let Some(guess) = guess else {
        return fallback;
    };
    let f = space.scheme().len();
    let mut counts: Counts = [0; MAX_FEEDBACKS];
    space.count_parts(guess, candidates, &mut counts);
    let parts = counts[..f].iter().filter(|&&s| s > 0).count();
    if parts > 1 || counts[space.scheme().win().get()] == candidates.len() as u32 {
        guess
    } else {
        fallback
    }
}
