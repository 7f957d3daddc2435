//! Text from the command line or a file, made safe to echo in a message: control characters
//! (escape sequences, carriage returns, NUL...) and invisible direction marks are written as
//! escapes instead of being sent to the terminal.

/// `text` with every control or invisible formatting character escaped (`\u{1b}`, `\n`).
///
/// ```
/// assert_eq!(mmtree_core::printable("ab\u{1b}[31m\n"), "ab\\u{1b}[31m\\n");
/// assert_eq!(mmtree_core::printable("1234 é"), "1234 é");
/// ```
pub fn printable(text: &str) -> String {
    text.chars().map(printable_char).collect()
}

/// One character as [`printable`] writes it.
///
/// ```
/// assert_eq!(mmtree_core::printable_char('\u{7}'), "\\u{7}");
/// assert_eq!(mmtree_core::printable_char('A'), "A");
/// ```
pub fn printable_char(c: char) -> String {
    let invisible =
        matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}');
    if c.is_control() || invisible {
        c.escape_default().to_string()
    } else {
        c.to_string()
    }
}
