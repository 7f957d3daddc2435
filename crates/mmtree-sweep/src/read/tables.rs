//! Markdown and LaTeX tables as `sweep --format md|latex` writes them (mmtree-io's `Table`),
//! read back so a finished table can be resumed. Hand-written: no crate reads these two
//! dialects back, and only the escapes `Table` writes need undoing.

use super::{Collector, Problem};
use crate::error::SweepError;
use crate::row::Row;

/// `| n | k | ... |` header (spaces for underscores), a `|--:|---|` rule, then rows with `|`
/// escaped as `\|`.
pub(super) fn markdown(text: &str, rows: &mut Collector) -> Result<(), SweepError> {
    let lines: Vec<(usize, &str)> =
        text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| l.starts_with('|')).collect();
    let Some(&(header_no, header)) = lines.first() else { return Ok(()) };
    let columns: Vec<String> = markdown_cells(header).iter().map(|c| c.replace(' ', "_")).collect();
    let is_rule = |l: &str| l.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '));
    if !lines.get(1).is_some_and(|&(_, l)| is_rule(l)) {
        return Err(rows.format_error(header_no + 1, "expected the rule line of a Markdown table".into()));
    }
    let body = &lines[2..];
    for (i, &(no, line)) in body.iter().enumerate() {
        rows.take(no, i + 1 == body.len(), named_row(&columns, markdown_cells(line)))?;
    }
    Ok(())
}

/// The cells of `| a | b\|c |`: `["a", "b|c"]`.
fn markdown_cells(line: &str) -> Vec<String> {
    let inner = line.strip_prefix('|').unwrap_or(line);
    let inner = inner.strip_suffix('|').filter(|s| !s.ends_with('\\')).unwrap_or(inner);
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                chars.next();
                cell.push('|');
            }
            '|' => cells.push(std::mem::take(&mut cell)),
            c => cell.push(c),
        }
    }
    cells.push(cell);
    cells.iter().map(|c| c.trim().to_string()).collect()
}

/// `booktabs`: header line, `\midrule`, rows `a & b \\` until `\bottomrule`.
pub(super) fn latex(text: &str, rows: &mut Collector) -> Result<(), SweepError> {
    let lines: Vec<(usize, &str)> = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).collect();
    let Some(mid) = lines.iter().position(|&(_, l)| l == "\\midrule") else {
        return Err(rows.format_error(1, "expected a LaTeX table with \\midrule".into()));
    };
    let Some(&(_, header)) = mid.checked_sub(1).map(|i| &lines[i]) else {
        return Err(rows.format_error(1, "expected a header line before \\midrule".into()));
    };
    let columns: Vec<String> = latex_cells(header).iter().map(|c| c.replace(' ', "_")).collect();
    let body: Vec<(usize, &str)> = lines[mid + 1..]
        .iter()
        .copied()
        .take_while(|&(_, l)| l != "\\bottomrule")
        .filter(|(_, l)| !l.is_empty())
        .collect();
    for &(no, line) in &body {
        rows.take(no, false, named_row(&columns, latex_cells(line)))?;
    }
    Ok(())
}

/// The cells of `a & b\_c \\`: `["a", "b_c"]`, undoing the escapes `Table` writes.
fn latex_cells(line: &str) -> Vec<String> {
    let line = line.strip_suffix("\\\\").unwrap_or(line);
    let (mut cells, mut cell) = (Vec::new(), String::new());
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        match c {
            '&' => cells.push(std::mem::take(&mut cell)),
            '\\' => {
                let named = [("textasciitilde{}", '~'), ("textasciicircum{}", '^'), ("textbackslash{}", '\\')];
                if let Some(&(name, symbol)) = named.iter().find(|(name, _)| rest.starts_with(name)) {
                    cell.push(symbol);
                    rest = &rest[name.len()..];
                } else if let Some(next) = rest.chars().next().filter(|c| "&%$#_{}".contains(*c)) {
                    cell.push(next);
                    rest = &rest[1..];
                } else {
                    cell.push('\\');
                }
            }
            c => cell.push(c),
        }
    }
    cells.push(cell);
    cells.iter().map(|c| c.trim().to_string()).collect()
}

/// A row from cells under named columns.
fn named_row(columns: &[String], cells: Vec<String>) -> Result<Row, Problem> {
    if cells.len() != columns.len() {
        return Err(Problem::Format(format!("{} cells, the header has {}", cells.len(), columns.len())));
    }
    Ok(Row::from_fields(&|name| columns.iter().position(|c| c == name).map(|i| cells[i].clone()))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_escapes() {
        assert_eq!(markdown_cells("| a | b\\|c |  |"), ["a", "b|c", ""]);
        assert_eq!(markdown_cells("| first guess |"), ["first guess"]);
    }

    #[test]
    fn latex_escapes() {
        assert_eq!(
            latex_cells("a & b\\_c \\& d & \\textasciitilde{}x\\textbackslash{} \\\\"),
            ["a", "b_c & d", "~x\\"]
        );
        assert_eq!(latex_cells("1 &  \\\\"), ["1", ""]);
    }
}
