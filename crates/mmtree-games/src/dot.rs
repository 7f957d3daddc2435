//! A small parser for the subset of the DOT language used for game graphs.
//!
//! Supported: `[strict] digraph [ID] { ... }` with node statements
//! (`a;`, `a [attrs];`), edge chains (`a -> b -> c [attrs];`), attribute
//! statements (`graph|node|edge [...]`, `rankdir = LR`), quoted, numeral and
//! HTML identifiers, ports (ignored), and `//`, `/* */` and `#` comments.
//! Attributes are accepted and ignored. Subgraphs and undirected graphs are
//! rejected with a clear message.

use crate::GamesError;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    /// An identifier; `quoted` tells keywords apart from quoted strings.
    Id {
        text: String,
        quoted: bool,
    },
    Arrow,
    DashDash,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Semi,
    Comma,
    Equals,
    Colon,
}

fn describe(tok: Option<&Tok>) -> String {
    match tok {
        None => "end of input".to_string(),
        Some(Tok::Id { text, .. }) => format!("{text:?}"),
        Some(Tok::Arrow) => "'->'".into(),
        Some(Tok::DashDash) => "'--'".into(),
        Some(Tok::LBrace) => "'{'".into(),
        Some(Tok::RBrace) => "'}'".into(),
        Some(Tok::LBracket) => "'['".into(),
        Some(Tok::RBracket) => "']'".into(),
        Some(Tok::Semi) => "';'".into(),
        Some(Tok::Comma) => "','".into(),
        Some(Tok::Equals) => "'='".into(),
        Some(Tok::Colon) => "':'".into(),
    }
}

fn err(line: usize, message: impl Into<String>) -> GamesError {
    GamesError::Dot { line, message: message.into() }
}

fn is_id_start(c: char) -> bool {
    c.is_alphabetic() || c == '_' || (c as u32) >= 0x80
}

fn is_id_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || (c as u32) >= 0x80
}

fn tokenize(src: &str) -> Result<Vec<(Tok, usize)>, GamesError> {
    let chars: Vec<char> = src.chars().collect();
    let mut toks = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let mut at_line_start = true;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
            at_line_start = true;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        // `#` lines are C-preprocessor output and ignored by Graphviz.
        if c == '#' && at_line_start {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        at_line_start = false;
        let start_line = line;
        match c {
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if chars.get(i + 1) == Some(&'*') => {
                i += 2;
                loop {
                    match chars.get(i) {
                        None => return Err(err(start_line, "unterminated /* comment")),
                        Some('*') if chars.get(i + 1) == Some(&'/') => {
                            i += 2;
                            break;
                        }
                        Some('\n') => {
                            line += 1;
                            i += 1;
                        }
                        Some(_) => i += 1,
                    }
                }
            }
            '-' if chars.get(i + 1) == Some(&'>') => {
                toks.push((Tok::Arrow, line));
                i += 2;
            }
            '-' if chars.get(i + 1) == Some(&'-') => {
                toks.push((Tok::DashDash, line));
                i += 2;
            }
            '{' | '}' | '[' | ']' | ';' | ',' | '=' | ':' => {
                let tok = match c {
                    '{' => Tok::LBrace,
                    '}' => Tok::RBrace,
                    '[' => Tok::LBracket,
                    ']' => Tok::RBracket,
                    ';' => Tok::Semi,
                    ',' => Tok::Comma,
                    '=' => Tok::Equals,
                    _ => Tok::Colon,
                };
                toks.push((tok, line));
                i += 1;
            }
            '"' => {
                i += 1;
                let mut text = String::new();
                loop {
                    match chars.get(i) {
                        None => return Err(err(start_line, "unterminated quoted string")),
                        Some('"') => {
                            i += 1;
                            break;
                        }
                        Some('\\') if chars.get(i + 1) == Some(&'"') => {
                            text.push('"');
                            i += 2;
                        }
                        Some('\\') if chars.get(i + 1) == Some(&'\n') => {
                            // Line continuation.
                            line += 1;
                            i += 2;
                        }
                        Some(&ch) => {
                            if ch == '\n' {
                                line += 1;
                            }
                            text.push(ch);
                            i += 1;
                        }
                    }
                }
                toks.push((Tok::Id { text, quoted: true }, start_line));
            }
            '<' => {
                let mut depth = 0usize;
                let mut text = String::new();
                loop {
                    match chars.get(i) {
                        None => return Err(err(start_line, "unterminated <HTML> identifier")),
                        Some(&ch) => {
                            if ch == '\n' {
                                line += 1;
                            }
                            if ch == '<' {
                                depth += 1;
                            } else if ch == '>' {
                                depth -= 1;
                            }
                            text.push(ch);
                            i += 1;
                            if depth == 0 {
                                break;
                            }
                        }
                    }
                }
                // Drop the outer delimiters: `<<b>x</b>>` is the id `<b>x</b>`.
                let inner = text[1..text.len() - 1].to_string();
                toks.push((Tok::Id { text: inner, quoted: true }, start_line));
            }
            c if c == '-' || c == '.' || c.is_ascii_digit() => {
                let mut text = String::new();
                text.push(c);
                i += 1;
                while let Some(&ch) = chars.get(i) {
                    if ch.is_ascii_digit() || ch == '.' {
                        text.push(ch);
                        i += 1;
                    } else {
                        break;
                    }
                }
                let body = text.trim_start_matches('-');
                let valid = !body.is_empty()
                    && body.chars().filter(|&ch| ch == '.').count() <= 1
                    && body.chars().any(|ch| ch.is_ascii_digit());
                if !valid {
                    return Err(err(line, format!("unexpected {text:?}")));
                }
                if chars.get(i).is_some_and(|&ch| is_id_start(ch)) {
                    return Err(err(line, format!("identifier starting with a digit: quote it, e.g. \"{text}...\"")));
                }
                toks.push((Tok::Id { text, quoted: false }, line));
            }
            c if is_id_start(c) => {
                let mut text = String::new();
                while let Some(&ch) = chars.get(i) {
                    if is_id_char(ch) {
                        text.push(ch);
                        i += 1;
                    } else {
                        break;
                    }
                }
                toks.push((Tok::Id { text, quoted: false }, line));
            }
            other => return Err(err(line, format!("unexpected character {other:?}"))),
        }
    }
    Ok(toks)
}

/// The parsed graph: its name, node ids in order of first appearance, and edges.
#[derive(Debug, Default)]
pub(crate) struct ParsedDot {
    pub(crate) name: Option<String>,
    pub(crate) nodes: Vec<String>,
    pub(crate) edges: Vec<(String, String)>,
}

struct Parser {
    toks: Vec<(Tok, usize)>,
    pos: usize,
    last_line: usize,
    out: ParsedDot,
    seen: std::collections::HashSet<String>,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|(t, _)| t)
    }

    fn line(&self) -> usize {
        self.toks.get(self.pos).map(|(_, l)| *l).unwrap_or(self.last_line)
    }

    fn expect(&mut self, want: Tok, what: &str) -> Result<(), GamesError> {
        if self.peek() == Some(&want) {
            self.pos += 1;
            Ok(())
        } else {
            Err(err(self.line(), format!("expected {what}, found {}", describe(self.peek()))))
        }
    }

    fn keyword(&self, kw: &str) -> bool {
        matches!(self.peek(), Some(Tok::Id { text, quoted: false }) if text.eq_ignore_ascii_case(kw))
    }

    fn id(&mut self, what: &str) -> Result<String, GamesError> {
        match self.peek() {
            Some(Tok::Id { text, .. }) => {
                let text = text.clone();
                self.pos += 1;
                Ok(text)
            }
            other => Err(err(self.line(), format!("expected {what}, found {}", describe(other)))),
        }
    }

    fn add_node(&mut self, id: &str) {
        if self.seen.insert(id.to_string()) {
            self.out.nodes.push(id.to_string());
        }
    }

    fn graph(&mut self) -> Result<(), GamesError> {
        if self.keyword("strict") {
            self.pos += 1;
        }
        if self.keyword("graph") {
            return Err(err(
                self.line(),
                "undirected 'graph': a game graph must be a 'digraph' (moves have a direction)",
            ));
        }
        if !self.keyword("digraph") {
            return Err(err(self.line(), format!("expected 'digraph', found {}", describe(self.peek()))));
        }
        self.pos += 1;
        if let Some(Tok::Id { .. }) = self.peek() {
            self.out.name = Some(self.id("graph name")?);
        }
        self.expect(Tok::LBrace, "'{'")?;
        loop {
            match self.peek() {
                None => return Err(err(self.line(), "missing closing '}'")),
                Some(Tok::RBrace) => {
                    self.pos += 1;
                    break;
                }
                Some(Tok::Semi) => self.pos += 1,
                Some(_) => self.stmt()?,
            }
        }
        if self.peek().is_some() {
            return Err(err(
                self.line(),
                format!("unexpected {} after the closing '}}' (one graph per file)", describe(self.peek())),
            ));
        }
        Ok(())
    }

    fn attr_lists(&mut self) -> Result<(), GamesError> {
        while self.peek() == Some(&Tok::LBracket) {
            self.pos += 1;
            loop {
                match self.peek() {
                    Some(Tok::RBracket) => {
                        self.pos += 1;
                        break;
                    }
                    Some(Tok::Semi | Tok::Comma) => self.pos += 1,
                    Some(Tok::Id { .. }) => {
                        self.pos += 1;
                        if self.peek() == Some(&Tok::Equals) {
                            self.pos += 1;
                            self.id("an attribute value")?;
                        }
                    }
                    other => {
                        return Err(err(
                            self.line(),
                            format!("expected an attribute or ']', found {}", describe(other)),
                        ))
                    }
                }
            }
        }
        Ok(())
    }

    /// A node id with an optional (ignored) port.
    fn node_id(&mut self) -> Result<String, GamesError> {
        if self.keyword("subgraph") || self.peek() == Some(&Tok::LBrace) {
            return Err(err(self.line(), "subgraphs are not supported"));
        }
        let id = self.id("a node id")?;
        for _ in 0..2 {
            if self.peek() == Some(&Tok::Colon) {
                self.pos += 1;
                self.id("a port name")?;
            }
        }
        Ok(id)
    }

    fn stmt(&mut self) -> Result<(), GamesError> {
        if self.keyword("subgraph") || self.peek() == Some(&Tok::LBrace) {
            return Err(err(self.line(), "subgraphs are not supported"));
        }
        if self.keyword("graph") || self.keyword("node") || self.keyword("edge") {
            self.pos += 1;
            if self.peek() != Some(&Tok::LBracket) {
                return Err(err(
                    self.line(),
                    format!("expected '[' after an attribute statement, found {}", describe(self.peek())),
                ));
            }
            return self.attr_lists();
        }
        let first = self.node_id()?;
        if self.peek() == Some(&Tok::Equals) {
            // Graph attribute `ID = ID`.
            self.pos += 1;
            self.id("an attribute value")?;
            return Ok(());
        }
        self.add_node(&first);
        let mut prev = first;
        loop {
            match self.peek() {
                Some(Tok::Arrow) => {
                    self.pos += 1;
                    let next = self.node_id()?;
                    self.add_node(&next);
                    self.out.edges.push((prev, next.clone()));
                    prev = next;
                }
                Some(Tok::DashDash) => return Err(err(self.line(), "undirected edge '--' in a digraph: use '->'")),
                _ => break,
            }
        }
        self.attr_lists()?;
        match self.peek() {
            None | Some(Tok::Semi | Tok::RBrace | Tok::Id { .. }) => Ok(()),
            other => Err(err(self.line(), format!("unexpected {}", describe(other)))),
        }
    }
}

/// Parse a DOT digraph into its name, nodes (first-appearance order) and edges.
pub(crate) fn parse(src: &str) -> Result<ParsedDot, GamesError> {
    let toks = tokenize(src)?;
    let last_line = toks.last().map(|(_, l)| *l).unwrap_or(1);
    let mut p = Parser { toks, pos: 0, last_line, out: ParsedDot::default(), seen: Default::default() };
    p.graph()?;
    Ok(p.out)
}

/// Quote an identifier for DOT output.
pub(crate) fn quote(id: &str) -> String {
    let mut s = String::with_capacity(id.len() + 2);
    s.push('"');
    for c in id.chars() {
        match c {
            '"' => s.push_str("\\\""),
            _ => s.push(c),
        }
    }
    s.push('"');
    s
}

/// Escape text for use inside a quoted DOT label (an escString): backslashes
/// are doubled so that only our own `\n` acts as a line break.
pub(crate) fn label_text(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => s.push_str("\\\\"),
            '"' => s.push_str("\\\""),
            '\n' => s.push_str("\\n"),
            _ => s.push(c),
        }
    }
    s
}
