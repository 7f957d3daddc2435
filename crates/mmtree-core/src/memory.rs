//! Memory estimates made before allocating, so a game that cannot fit is refused up front.

use crate::error::GameError;
use crate::game::Game;

/// Bytes a whole solve needs per code, beyond any feedback table: the code and its packed
/// form (75 B), candidate lists down the recursion (about 4 B per level, 12 levels), and the
/// finished tree (about two nodes and two edges per secret).
pub const BYTES_PER_CODE: u128 = 75 + 48 + 64;

/// An upper bound on memory use, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryLimit(pub u64);

impl MemoryLimit {
    /// Three quarters of the machine's physical memory (from `/proc/meminfo`, 8 GiB where that
    /// cannot be read), or of the process's address-space or data-size limit (`ulimit -v`,
    /// `ulimit -d`, from `/proc/self/limits`) when that is smaller: a game that passes the
    /// check must not abort on a failed allocation.
    pub fn machine_default() -> MemoryLimit {
        let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("MemTotal:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
                .map(|kb| kb * 1024)
        });
        let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
        let soft = |name: &str| -> Option<u64> {
            limits.lines().find_map(|l| l.strip_prefix(name)?.split_whitespace().next()?.parse().ok())
        };
        let available = [total, soft("Max address space"), soft("Max data size")].into_iter().flatten().min();
        MemoryLimit(available.map_or(8 << 30, |t| t / 4 * 3))
    }

    /// Parses `512M`, `8G`, `1.5GiB`, `1000000` (bytes).
    ///
    /// ```
    /// use mmtree_core::MemoryLimit;
    /// assert_eq!(MemoryLimit::parse("2G").unwrap().0, 2 << 30);
    /// assert!(MemoryLimit::parse("lots").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<MemoryLimit, String> {
        let t = text.trim();
        let upper = t.to_ascii_uppercase();
        let stripped = upper.trim_end_matches("IB").trim_end_matches('B');
        let (num, mult) = match stripped.chars().last() {
            Some('K') => (&stripped[..stripped.len() - 1], 1u64 << 10),
            Some('M') => (&stripped[..stripped.len() - 1], 1 << 20),
            Some('G') => (&stripped[..stripped.len() - 1], 1 << 30),
            Some('T') => (&stripped[..stripped.len() - 1], 1 << 40),
            _ => (stripped, 1),
        };
        let value: f64 =
            num.trim().parse().map_err(|_| format!("invalid memory size '{text}' (examples: 512M, 8G)"))?;
        if value.is_nan() || value <= 0.0 || !value.is_finite() {
            return Err(format!("invalid memory size '{text}': must be positive"));
        }
        Ok(MemoryLimit((value * mult as f64) as u64))
    }

    /// Refuses a game whose solve would need more than this limit.
    pub fn check(&self, game: &Game) -> Result<(), GameError> {
        let needed = game.code_count().saturating_mul(BYTES_PER_CODE);
        if needed > u128::from(self.0) {
            return Err(GameError::TooLarge {
                game: game.to_string(),
                codes: game.code_count(),
                needed: format_bytes(needed),
                limit: format_bytes(u128::from(self.0)),
            });
        }
        Ok(())
    }
}

/// `1.5 GiB`-style sizes for messages.
pub fn format_bytes(bytes: u128) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}
