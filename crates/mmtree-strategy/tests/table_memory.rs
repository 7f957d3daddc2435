//! `table_memory` against what the allocator really hands out: a search may go past its cap
//! by no more than what a search with an almost empty table takes.
//!
//! This binary counts every live byte with its own global allocator, so it holds one test:
//! tests running side by side would count each other's allocations.
#![cfg(all(target_os = "linux", target_env = "gnu"))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use mmtree_core::{CodeSpace, Game, GameSpec, MemoryLimit};
use mmtree_strategy::{Objective, OptimalConfig, OptimalSearch};

/// The system allocator, counting the bytes it really uses (glibc's usable size plus its
/// 8-byte header) and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn used(p: *mut u8) -> usize {
    // SAFETY: `p` is a live allocation of the system allocator (glibc's malloc).
    unsafe { libc::malloc_usable_size(p.cast()) + 8 }
}

fn add(bytes: usize) {
    let live = LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            add(used(p));
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        LIVE.fetch_sub(used(p), Ordering::Relaxed);
        unsafe { System.dealloc(p, layout) };
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = used(p);
        let q = unsafe { System.realloc(p, layout, new_size) };
        if !q.is_null() {
            LIVE.fetch_sub(old, Ordering::Relaxed);
            add(used(q));
        }
        q
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn a_search_stays_within_its_table_memory() {
    let mut space = CodeSpace::new(Game::new(GameSpec::mastermind(6, 4)).unwrap(), MemoryLimit(1 << 32)).unwrap();
    space.build_table(1 << 28);
    // Peak bytes above those live before the search, and the optimum.
    let peak_under = |cap: u64| {
        let start = LIVE.load(Ordering::Relaxed);
        PEAK.store(start, Ordering::Relaxed);
        let config = OptimalConfig { table_memory: cap, ..OptimalConfig::new(Objective::Average) };
        let total = OptimalSearch::new(&space, config).run().unwrap().stats().total;
        (PEAK.load(Ordering::Relaxed) - start, total)
    };
    // What the search takes besides its table (which is kept under 64 KB).
    let (rest, optimum) = peak_under(1 << 16);
    // Uncapped, the table takes about 18 MB here.
    for cap in [4u64 << 20, 12 << 20] {
        let (peak, total) = peak_under(cap);
        assert_eq!(total, optimum, "a table forgets only what can be proven again");
        assert!(peak as u64 <= rest as u64 + cap, "cap {cap}: peak {peak}, {rest} besides the table");
    }
}
