//! Codes, their 0-based lexicographic index, and how people write them.

use serde::{Deserialize, Serialize};

use crate::error::GameError;
use crate::game::{Game, Variant, MAX_COLOURS, MAX_PEGS};

/// The position of a code in the lexicographic order of its code space (`11..1` is 0).
///
/// Kept apart from [`Code`] so that an index and a colour sequence are never confused.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CodeIndex(u32);

impl CodeIndex {
    /// From a 0-based index.
    pub const fn from_index(index: u32) -> CodeIndex {
        CodeIndex(index)
    }
    /// The 0-based index.
    pub const fn index(self) -> u32 {
        self.0
    }
    /// The index as `usize`, for slicing.
    pub const fn get(self) -> usize {
        self.0 as usize
    }
}

/// A code: one colour per peg, colours stored 0-based (`0..k`).
///
/// Written with colours `1..k` by [`Alphabet`]; build one with [`Alphabet::parse`] or
/// [`Code::from_colours`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Code {
    len: u8,
    pegs: [u8; MAX_PEGS as usize],
}

impl Code {
    /// From 0-based colours; `None` if there are more than `MAX_PEGS` pegs or a colour is
    /// `MAX_COLOURS` or more.
    ///
    /// ```
    /// use mmtree_core::Code;
    /// let code = Code::from_colours(&[0, 0, 1, 1]).unwrap();
    /// assert_eq!(code.pegs(), &[0, 0, 1, 1]);
    /// ```
    pub fn from_colours(colours: &[u8]) -> Option<Code> {
        if colours.len() > MAX_PEGS as usize || colours.iter().any(|&c| c >= MAX_COLOURS) {
            return None;
        }
        let mut pegs = [0u8; MAX_PEGS as usize];
        pegs[..colours.len()].copy_from_slice(colours);
        Some(Code { len: colours.len() as u8, pegs })
    }

    /// The 0-based colours, one per peg.
    pub fn pegs(&self) -> &[u8] {
        &self.pegs[..self.len as usize]
    }

    /// Number of pegs.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True for the empty code (never part of a game).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl std::fmt::Debug for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Code({})", Alphabet::default().format(self))
    }
}

/// The symbols used to write colours: `1-9` then `A-Z` by default.
///
/// ```
/// use mmtree_core::Alphabet;
/// let digits = Alphabet::new("0123456789")?;
/// let code = digits.parse_raw("0123")?;
/// assert_eq!(Alphabet::default().format(&code), "1234");
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alphabet {
    symbols: Vec<char>,
}

impl Default for Alphabet {
    fn default() -> Alphabet {
        Alphabet { symbols: "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".chars().collect() }
    }
}

impl Alphabet {
    /// An alphabet of distinct symbols, at most `MAX_COLOURS` of them.
    pub fn new(symbols: &str) -> Result<Alphabet, GameError> {
        let chars: Vec<char> = symbols.chars().collect();
        let bad = |reason: &str| GameError::Alphabet { alphabet: symbols.to_string(), reason: reason.to_string() };
        if chars.is_empty() {
            return Err(bad("it is empty"));
        }
        if chars.len() > MAX_COLOURS as usize {
            return Err(bad(&format!("more than {MAX_COLOURS} symbols")));
        }
        for (i, c) in chars.iter().enumerate() {
            let shown = crate::printable::printable_char(*c);
            if shown != c.to_string() {
                return Err(bad(&format!("symbol '{shown}' is a control or invisible character")));
            }
            if c.is_whitespace() || *c == ',' || *c == ':' {
                return Err(bad(&format!("symbol '{c}' is reserved")));
            }
            if chars[..i].contains(c) {
                return Err(bad(&format!("symbol '{c}' appears twice")));
            }
        }
        Ok(Alphabet { symbols: chars })
    }

    /// Number of symbols.
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    /// Never true: an alphabet has at least one symbol.
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// Writes a code.
    pub fn format(&self, code: &Code) -> String {
        code.pegs().iter().map(|&c| self.symbol(c)).collect()
    }

    /// The symbol of a 0-based colour (`?` if the alphabet is too short).
    pub fn symbol(&self, colour: u8) -> char {
        self.symbols.get(colour as usize).copied().unwrap_or('?')
    }

    /// The first `k` symbols, for messages.
    pub fn first(&self, k: u8) -> String {
        self.symbols.iter().take(k as usize).collect()
    }

    /// Reads a code without checking it against a game (any length, any known symbol).
    pub fn parse_raw(&self, text: &str) -> Result<Code, GameError> {
        let mut colours = Vec::with_capacity(text.len());
        for ch in text.chars() {
            let upper = ch.to_ascii_uppercase();
            let pos =
                self.symbols.iter().position(|&s| s == ch).or_else(|| self.symbols.iter().position(|&s| s == upper));
            match pos {
                Some(p) => colours.push(p as u8),
                None => {
                    return Err(GameError::Symbol {
                        code: text.to_string(),
                        symbol: ch,
                        k: self.symbols.len() as u8,
                        allowed: self.symbols.iter().collect(),
                    })
                }
            }
        }
        Code::from_colours(&colours).ok_or_else(|| GameError::CodeLength {
            code: text.to_string(),
            len: colours.len(),
            n: MAX_PEGS,
        })
    }

    /// Reads a code of `game`: right length, colours in range, no repeats where forbidden.
    ///
    /// ```
    /// use mmtree_core::{Alphabet, Game, GameSpec};
    /// let game = Game::new(GameSpec::mastermind(4, 6))?;
    /// let abc = Alphabet::default();
    /// assert!(abc.parse(&game, "1122").is_ok());
    /// assert!(abc.parse(&game, "1127").is_err()); // colour 7 of 6
    /// assert!(abc.parse(&game, "112").is_err()); // 3 pegs of 4
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn parse(&self, game: &Game, text: &str) -> Result<Code, GameError> {
        let len = text.chars().count();
        if len != game.n() as usize {
            return Err(GameError::CodeLength { code: text.to_string(), len, n: game.n() });
        }
        let allowed = self.first(game.k());
        let code = self.parse_raw(text).map_err(|e| match e {
            GameError::Symbol { symbol, .. } => {
                GameError::Symbol { code: text.to_string(), symbol, k: game.k(), allowed: allowed.clone() }
            }
            other => other,
        })?;
        for (&c, ch) in code.pegs().iter().zip(text.chars()) {
            if c >= game.k() {
                return Err(GameError::Symbol {
                    code: text.to_string(),
                    symbol: ch,
                    k: game.k(),
                    allowed: allowed.clone(),
                });
            }
        }
        if game.variant() == Variant::Distinct {
            for (i, ch) in text.chars().enumerate() {
                if code.pegs()[..i].contains(&code.pegs()[i]) {
                    return Err(GameError::Repeated { code: text.to_string(), symbol: ch });
                }
            }
        }
        Ok(code)
    }
}
