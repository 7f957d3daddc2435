//! SVG plots of plain figures: line panels (average guesses against k), the plots of a sweep
//! ([`sweep_svg`]: excess over the best rule, averages, the winning rule per game) and grouped
//! histograms (guesses needed per secret), drawn with `plotters`' SVG backend.
//!
//! The functions take plain numbers and names, not trees or rules, so this crate stays
//! independent of how the figures were computed. Text is written as SVG `<text>` elements;
//! no font files are read. Lines differ in colour (a palette safe for colour blindness), in
//! marker and in dash pattern, so they stay apart in grey print; legends stand beside the
//! panels, never over the data.

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use thiserror::Error;

/// A plot could not be drawn.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum PlotError {
    /// Nothing to draw: no panel, or no panel with data.
    #[error("nothing to plot: {0}")]
    Empty(&'static str),
    /// The drawing backend failed.
    #[error("drawing the plot failed: {0}")]
    Draw(String),
}

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for PlotError {
    fn from(e: DrawingAreaErrorKind<E>) -> PlotError {
        PlotError::Draw(e.to_string())
    }
}

/// One named line: `(x, y)` points in increasing `x`.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// The points.
    pub points: Vec<(f64, f64)>,
}

/// One panel of a line plot: a caption and its lines.
#[derive(Clone, Debug, PartialEq)]
pub struct LinePanel {
    /// Caption, e.g. `n = 4`.
    pub title: String,
    /// The lines, one legend entry each.
    pub series: Vec<Series>,
}

/// One panel of grouped histograms: for each named group, the count at 1, 2, 3, ...
#[derive(Clone, Debug, PartialEq)]
pub struct HistogramPanel {
    /// Caption, e.g. `minimax`.
    pub title: String,
    /// `(legend text, counts)`; `counts[i]` is the height of the bar at `x = i + 1`.
    pub groups: Vec<(String, Vec<u64>)>,
}

const PANEL_WIDTH: u32 = 560;
const PANEL_HEIGHT: u32 = 400;

/// Okabe and Ito's palette (distinct for colour-blind readers; its yellow, too faint on white,
/// replaced by Tol's indigo), black last.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(213, 94, 0),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(51, 34, 136),
    RGBColor(0, 0, 0),
];

fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Dash patterns (SVG `stroke-dasharray`) of the lines, `None` for solid.
const DASHES: [Option<&str>; 4] = [None, Some("8,4"), Some("2,3"), Some("10,3,2,3")];

/// Markers at the data points; with the dash pattern they tell lines apart without colour.
#[derive(Clone, Copy)]
enum Marker {
    Circle,
    Triangle,
    Square,
    Diamond,
    Cross,
}

const MARKERS: [Marker; 5] = [Marker::Circle, Marker::Triangle, Marker::Square, Marker::Diamond, Marker::Cross];

/// The look of series `i`: colour, dash pattern and marker all change with `i`, with periods
/// 8, 4 and 5, so neighbours differ in all three.
fn series_style(i: usize) -> (RGBColor, Option<&'static str>, Marker) {
    (colour(i), DASHES[i % DASHES.len()], MARKERS[i % MARKERS.len()])
}

/// Draws a marker at each of `points` (data coordinates) of a chart.
fn draw_markers<DB: DrawingBackend>(
    chart: &mut ChartContext<DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    points: &[(f64, f64)],
    kind: Marker,
    colour: RGBColor,
) -> Result<(), PlotError> {
    let (fill, line) = (colour.filled(), colour.stroke_width(2));
    let at = |&p: &(f64, f64)| EmptyElement::at(p);
    let drawn = match kind {
        Marker::Circle => chart.draw_series(points.iter().map(|p| at(p) + Circle::new((0, 0), 4, fill))).map(drop),
        Marker::Triangle => chart
            .draw_series(points.iter().map(|p| at(p) + Polygon::new(vec![(0, -5), (5, 4), (-5, 4)], fill)))
            .map(drop),
        Marker::Square => {
            chart.draw_series(points.iter().map(|p| at(p) + Rectangle::new([(-4, -4), (4, 4)], fill))).map(drop)
        }
        Marker::Diamond => chart
            .draw_series(points.iter().map(|p| at(p) + Polygon::new(vec![(0, -5), (5, 0), (0, 5), (-5, 0)], fill)))
            .map(drop),
        Marker::Cross => chart
            .draw_series(points.iter().map(|p| {
                at(p) + PathElement::new(vec![(-4, -4), (4, 4)], line) + PathElement::new(vec![(-4, 4), (4, -4)], line)
            }))
            .map(drop),
    };
    drawn.map_err(PlotError::from)
}

/// Draws a marker at a pixel position of an area (for legends).
fn draw_marker_at(
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    at: (i32, i32),
    kind: Marker,
    colour: RGBColor,
) -> Result<(), PlotError> {
    let (fill, line) = (colour.filled(), colour.stroke_width(2));
    let e = EmptyElement::at(at);
    match kind {
        Marker::Circle => area.draw(&(e + Circle::new((0, 0), 4, fill)))?,
        Marker::Triangle => area.draw(&(e + Polygon::new(vec![(0, -5), (5, 4), (-5, 4)], fill)))?,
        Marker::Square => area.draw(&(e + Rectangle::new([(-4, -4), (4, 4)], fill)))?,
        Marker::Diamond => area.draw(&(e + Polygon::new(vec![(0, -5), (5, 0), (0, 5), (-5, 0)], fill)))?,
        Marker::Cross => area.draw(
            &(e + PathElement::new(vec![(-4, -4), (4, 4)], line) + PathElement::new(vec![(-4, 4), (4, -4)], line)),
        )?,
    }
    Ok(())
}

/// Gives the 2 px lines of each dashed colour their dash pattern (plotters draws solid lines
/// only; each series has its own colour, so the colour finds its lines).
fn apply_dashes(svg: String, styles: &[(RGBColor, Option<&str>)]) -> String {
    let mut svg = svg;
    for (c, dash) in styles {
        if let Some(dash) = dash {
            let stroke = format!("stroke=\"#{:02X}{:02X}{:02X}\" stroke-width=\"2\"", c.0, c.1, c.2);
            svg = svg.replace(&stroke, &format!("{stroke} stroke-dasharray=\"{dash}\""));
        }
    }
    svg
}

/// Width of the legend column beside the panels.
const LEGEND_WIDTH: u32 = 220;

/// The legend of named line series in its own area: a line sample with its marker and dash,
/// and the name.
fn draw_line_legend(area: &DrawingArea<SVGBackend, plotters::coord::Shift>, names: &[String]) -> Result<(), PlotError> {
    for (i, name) in names.iter().enumerate() {
        let (c, _, kind) = series_style(i);
        let y = 50 + 24 * i as i32;
        area.draw(&PathElement::new(vec![(10, y), (50, y)], c.stroke_width(2)))?;
        draw_marker_at(area, (30, y), kind, c)?;
        area.draw(&Text::new(name.clone(), (58, y - 7), ("sans-serif", 14)))?;
    }
    Ok(())
}

/// Panels side by side: up to three in one row, four as 2 x 2, then three to a row.
fn grid(panels: usize) -> (usize, usize) {
    let cols = if panels == 4 { 2 } else { panels.clamp(1, 3) };
    (panels.div_ceil(cols).max(1), cols)
}

/// Draws line panels side by side, with one legend beside them; each series is one
/// `<polyline>` per panel with a marker at each point, and one legend entry.
///
/// ```
/// use mmtree_io::plot::{lines_svg, LinePanel, Series};
/// let panel = LinePanel {
///     title: "n = 2".into(),
///     series: vec![Series { name: "minimax".into(), points: vec![(2.0, 2.0), (3.0, 2.5)] }],
/// };
/// let svg = lines_svg(&[panel], "k", "average guesses")?;
/// assert!(svg.starts_with("<svg") && svg.contains("minimax"));
/// # Ok::<(), mmtree_io::plot::PlotError>(())
/// ```
pub fn lines_svg(panels: &[LinePanel], x_label: &str, y_label: &str) -> Result<String, PlotError> {
    draw_lines(panels, x_label, y_label, Some(1.0))
}

/// Line panels whose y axis starts at `y_from` (or below, if the data are lower).
fn draw_lines(panels: &[LinePanel], x_label: &str, y_label: &str, y_from: Option<f64>) -> Result<String, PlotError> {
    let points = || panels.iter().flat_map(|p| p.series.iter().flat_map(|s| s.points.iter()));
    if points().next().is_none() {
        return Err(PlotError::Empty("no data points"));
    }
    let (x_min, x_max) = points().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (y_min, y_max) = points().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let (x_lo, x_hi) = pad(x_min, x_max, 0.5);
    let y_lo = y_from.map_or(y_min, |f| y_min.min(f));
    let y_margin = ((y_max - y_lo) * 0.08).max(0.02);
    let (y_lo, y_hi) = (if y_from.is_some() { y_lo } else { y_lo - y_margin }, y_max + y_margin);
    // One legend for all panels: every series name, in order of first appearance.
    let mut names: Vec<String> = Vec::new();
    for s in panels.iter().flat_map(|p| p.series.iter()) {
        if !names.contains(&s.name) {
            names.push(s.name.clone());
        }
    }
    let index = |name: &str| names.iter().position(|n| n == name).unwrap_or(0);
    let (rows, cols) = grid(panels.len());
    let mut svg = String::new();
    {
        let width = PANEL_WIDTH * cols as u32 + LEGEND_WIDTH;
        let root = SVGBackend::with_string(&mut svg, (width, PANEL_HEIGHT * rows as u32)).into_drawing_area();
        root.fill(&WHITE)?;
        let (plots, legend) = root.split_horizontally(PANEL_WIDTH * cols as u32);
        let areas = plots.split_evenly((rows, cols));
        for (panel, area) in panels.iter().zip(areas.iter()) {
            let mut chart = ChartBuilder::on(area)
                .caption(&panel.title, ("sans-serif", 18))
                .margin(10)
                .x_label_area_size(35)
                .y_label_area_size(55)
                .build_cartesian_2d(x_lo..x_hi, y_lo..y_hi)?;
            chart
                .configure_mesh()
                .x_desc(x_label)
                .y_desc(y_label)
                .x_labels((x_max - x_min) as usize + 1)
                .x_label_formatter(&integer_label)
                .y_label_formatter(&|y| if (y_hi - y_lo) < 0.5 { format!("{y:.2}") } else { format!("{y:.1}") })
                .draw()?;
            for series in &panel.series {
                let (c, _, kind) = series_style(index(&series.name));
                chart.draw_series(LineSeries::new(series.points.iter().copied(), c.stroke_width(2)))?;
                draw_markers(&mut chart, &series.points, kind, c)?;
            }
        }
        draw_line_legend(&legend, &names)?;
        root.present()?;
    }
    let styles: Vec<(RGBColor, Option<&str>)> =
        (0..names.len()).map(|i| (series_style(i).0, series_style(i).1)).collect();
    Ok(apply_dashes(svg, &styles))
}

/// One solved (game, rule) of a sweep, as plain figures.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPoint {
    /// Pegs.
    pub n: u8,
    /// Colours.
    pub k: u8,
    /// The rule's name in the legend, e.g. `entropy` or `entropy (candidates)`.
    pub rule: String,
    /// Average guesses.
    pub average: f64,
    /// Total guesses over all secrets.
    pub total: u64,
    /// Whether this row is the exact optimum of the average (then it is the baseline of the
    /// excess plot for its game).
    pub optimal: bool,
}

/// What a sweep plot shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SweepPlot {
    /// Each rule's average minus the best average of the same game (or the optimum where a
    /// row is optimal), against k, one panel per n.
    #[default]
    Excess,
    /// Average guesses against k, one panel per n.
    Average,
    /// A grid over (n, k) coloured by the rule with the least total; ties marked.
    Winners,
}

/// Draws a sweep's results.
///
/// ```
/// use mmtree_io::plot::{sweep_svg, SweepPlot, SweepPoint};
/// let point = |k: u8, rule: &str, total: u64| SweepPoint {
///     n: 2, k, rule: rule.into(), average: total as f64 / f64::from(k * k), total, optimal: false,
/// };
/// let points = [point(3, "minimax", 21), point(3, "entropy", 20), point(4, "minimax", 42), point(4, "entropy", 42)];
/// let svg = sweep_svg(&points, SweepPlot::Winners)?;
/// assert!(svg.contains("tie"));
/// assert!(sweep_svg(&points, SweepPlot::Excess)?.contains("minimax"));
/// # Ok::<(), mmtree_io::plot::PlotError>(())
/// ```
pub fn sweep_svg(points: &[SweepPoint], kind: SweepPlot) -> Result<String, PlotError> {
    if points.is_empty() {
        return Err(PlotError::Empty("no solved games"));
    }
    match kind {
        SweepPlot::Average => {
            let panels = sweep_panels(points, |p| Some(p.average));
            lines_svg(&panels, "colours k", "average guesses")
        }
        SweepPlot::Excess => {
            let with_optimum = points.iter().any(|p| p.optimal);
            let y_label = if with_optimum {
                "average − optimum (else best of the game)"
            } else {
                "average − best average of the game"
            };
            draw_lines(&excess_panels(points), "colours k", y_label, Some(0.0))
        }
        SweepPlot::Winners => winners_svg(points),
    }
}

/// Each rule's average minus its game's baseline: the optimum where a row is optimal (not
/// drawn itself), else the least average of the game.
fn excess_panels(points: &[SweepPoint]) -> Vec<LinePanel> {
    let baseline = |n: u8, k: u8| -> f64 {
        let game = points.iter().filter(|p| p.n == n && p.k == k);
        match game.clone().find(|p| p.optimal) {
            Some(opt) => opt.average,
            None => game.map(|p| p.average).fold(f64::INFINITY, f64::min),
        }
    };
    sweep_panels(points, |p| (!p.optimal).then(|| p.average - baseline(p.n, p.k)))
}

/// Panels per n, a series per rule, points `(k, y)` for the rows `y` keeps.
fn sweep_panels(points: &[SweepPoint], y: impl Fn(&SweepPoint) -> Option<f64>) -> Vec<LinePanel> {
    let mut ns: Vec<u8> = points.iter().map(|p| p.n).collect();
    ns.sort_unstable();
    ns.dedup();
    ns.into_iter()
        .map(|n| {
            let mut series: Vec<Series> = Vec::new();
            for p in points.iter().filter(|p| p.n == n) {
                let Some(value) = y(p) else { continue };
                match series.iter_mut().find(|s| s.name == p.rule) {
                    Some(s) => s.points.push((p.k.into(), value)),
                    None => series.push(Series { name: p.rule.clone(), points: vec![(p.k.into(), value)] }),
                }
            }
            for s in &mut series {
                s.points.sort_by(|a, b| a.0.total_cmp(&b.0));
            }
            LinePanel { title: format!("n = {n}"), series }
        })
        .collect()
}

/// Short names for the cells of the winners grid: initials of the words (`expected-size` →
/// `ES`), the pool's initial after a pool other than `all` (`ESc`); numbers if two rules would
/// share one.
fn abbreviations(rules: &[String]) -> Vec<String> {
    let short: Vec<String> = rules
        .iter()
        .map(|r| {
            let (name, pool) = match r.split_once(" (") {
                Some((name, pool)) => (name, pool.trim_end_matches(')')),
                None => (r.as_str(), "all"),
            };
            let mut a: String = name.split('-').filter_map(|w| w.chars().next()).collect::<String>().to_uppercase();
            if pool != "all" {
                a.extend(pool.chars().next());
            }
            a
        })
        .collect();
    let unique = short.iter().enumerate().all(|(i, a)| !short[..i].contains(a));
    if unique {
        short
    } else {
        (1..=rules.len()).map(|i| i.to_string()).collect()
    }
}

const CELL_WIDTH: i32 = 96;
const CELL_HEIGHT: i32 = 48;

/// The grid of winners: one cell per (n, k), coloured by the rule with the least total and
/// labelled with its short name; ties are white, hatched, and list every tied rule.
fn winners_svg(points: &[SweepPoint]) -> Result<String, PlotError> {
    let mut ns: Vec<u8> = points.iter().map(|p| p.n).collect();
    let mut ks: Vec<u8> = points.iter().map(|p| p.k).collect();
    for v in [&mut ns, &mut ks] {
        v.sort_unstable();
        v.dedup();
    }
    let mut rules: Vec<String> = Vec::new();
    for p in points {
        if !rules.contains(&p.rule) {
            rules.push(p.rule.clone());
        }
    }
    let short = abbreviations(&rules);
    let (left, top) = (60i32, 70i32);
    let width = (left + CELL_WIDTH * ks.len() as i32 + 20) as u32 + LEGEND_WIDTH + 40;
    let height = ((top + CELL_HEIGHT * ns.len() as i32 + 20) as u32).max(90 + 24 * (rules.len() as u32 + 1));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let (grid_area, legend) = root.split_horizontally(width - LEGEND_WIDTH - 40);
        grid_area.draw(&Text::new("rule with the least total guesses", (left, 10), ("sans-serif", 16)))?;
        grid_area.draw(&Text::new(
            "colours k",
            (left + CELL_WIDTH * ks.len() as i32 / 2 - 30, 30),
            ("sans-serif", 13),
        ))?;
        grid_area.draw(&Text::new("n", (10, top + CELL_HEIGHT * ns.len() as i32 / 2 - 6), ("sans-serif", 13)))?;
        for (j, k) in ks.iter().enumerate() {
            let x = left + CELL_WIDTH * j as i32 + CELL_WIDTH / 2 - 5;
            grid_area.draw(&Text::new(k.to_string(), (x, top - 20), ("sans-serif", 13)))?;
        }
        for (i, &n) in ns.iter().enumerate() {
            let y0 = top + CELL_HEIGHT * i as i32;
            grid_area.draw(&Text::new(n.to_string(), (left - 20, y0 + CELL_HEIGHT / 2 - 7), ("sans-serif", 13)))?;
            for (j, &k) in ks.iter().enumerate() {
                let x0 = left + CELL_WIDTH * j as i32;
                let cell = [(x0, y0), (x0 + CELL_WIDTH, y0 + CELL_HEIGHT)];
                let game: Vec<&SweepPoint> = points.iter().filter(|p| p.n == n && p.k == k && !p.optimal).collect();
                let Some(least) = game.iter().map(|p| p.total).min() else {
                    grid_area.draw(&Rectangle::new(cell, BLACK.mix(0.3)))?;
                    continue;
                };
                let winners: Vec<usize> = game
                    .iter()
                    .filter(|p| p.total == least)
                    .filter_map(|p| rules.iter().position(|r| *r == p.rule))
                    .collect();
                // A tie lists its rules, three to a line ("all" when every rule ties).
                let lines: Vec<String> = if winners.len() > 1 && winners.len() == game.len() {
                    vec!["all tie".to_string()]
                } else {
                    winners
                        .chunks(3)
                        .map(|c| c.iter().map(|&w| short[w].as_str()).collect::<Vec<_>>().join("="))
                        .collect()
                };
                let text_colour = if let [w] = winners[..] {
                    let c = colour(w);
                    grid_area.draw(&Rectangle::new(cell, c.filled()))?;
                    if luminance(c) < 0.45 {
                        WHITE
                    } else {
                        BLACK
                    }
                } else {
                    hatch(&grid_area, cell)?;
                    BLACK
                };
                grid_area.draw(&Rectangle::new(cell, BLACK.stroke_width(1)))?;
                let size = if lines.len() > 1 { 12 } else { 15 };
                let first = y0 + CELL_HEIGHT / 2 - (size + 2) * lines.len() as i32 / 2;
                for (l, line) in lines.into_iter().enumerate() {
                    let style = TextStyle::from(("sans-serif", size).into_font()).color(&text_colour);
                    grid_area.draw(&Text::new(line, (x0 + 6, first + l as i32 * (size + 2)), style))?;
                }
            }
        }
        for (i, rule) in rules.iter().enumerate() {
            let y = 50 + 24 * i as i32;
            legend.draw(&Rectangle::new([(10, y - 8), (40, y + 8)], colour(i).filled()))?;
            legend.draw(&Rectangle::new([(10, y - 8), (40, y + 8)], BLACK.stroke_width(1)))?;
            legend.draw(&Text::new(format!("{}  {rule}", short[i]), (48, y - 7), ("sans-serif", 14)))?;
        }
        let y = 50 + 24 * rules.len() as i32;
        hatch(&legend, [(10, y - 8), (40, y + 8)])?;
        legend.draw(&Rectangle::new([(10, y - 8), (40, y + 8)], BLACK.stroke_width(1)))?;
        legend.draw(&Text::new("tie: the rules joined by =", (48, y - 7), ("sans-serif", 14)))?;
        root.present()?;
    }
    Ok(svg)
}

/// Relative luminance of a colour, to choose black or white text on it.
fn luminance(c: RGBColor) -> f64 {
    (0.2126 * f64::from(c.0) + 0.7152 * f64::from(c.1) + 0.0722 * f64::from(c.2)) / 255.0
}

/// A white cell with grey diagonal lines: the mark of a tie.
fn hatch(area: &DrawingArea<SVGBackend, plotters::coord::Shift>, cell: [(i32, i32); 2]) -> Result<(), PlotError> {
    let [(x0, y0), (x1, y1)] = cell;
    area.draw(&Rectangle::new(cell, WHITE.filled()))?;
    let grey = RGBColor(150, 150, 150).stroke_width(1);
    let mut d = 0;
    while d < (x1 - x0) + (y1 - y0) {
        // The segment of the line x + y = x0 + y0 + d inside the cell.
        let (ax, ay) = (x0 + d.min(x1 - x0), y0 + (d - (x1 - x0)).max(0));
        let (bx, by) = (x0 + (d - (y1 - y0)).max(0), y0 + d.min(y1 - y0));
        area.draw(&PathElement::new(vec![(ax, ay), (bx, by)], grey))?;
        d += 8;
    }
    Ok(())
}

/// Draws grouped histograms side by side: in each panel, the groups' bars stand next to each
/// other at every `x = 1, 2, 3, ...`; each group has one legend entry.
///
/// ```
/// use mmtree_io::plot::{histograms_svg, HistogramPanel};
/// let panel = HistogramPanel {
///     title: "minimax".into(),
///     groups: vec![("1122".into(), vec![1, 6, 62, 533, 694]), ("1234".into(), vec![1, 12, 140, 500, 643])],
/// };
/// let svg = histograms_svg(&[panel], "guesses", "secrets")?;
/// assert!(svg.contains("1122") && svg.contains("1234"));
/// # Ok::<(), mmtree_io::plot::PlotError>(())
/// ```
pub fn histograms_svg(panels: &[HistogramPanel], x_label: &str, y_label: &str) -> Result<String, PlotError> {
    let depth = panels.iter().flat_map(|p| p.groups.iter().map(|g| g.1.len())).max().unwrap_or(0);
    let top = panels.iter().flat_map(|p| p.groups.iter().flat_map(|g| g.1.iter().copied())).max().unwrap_or(0);
    if depth == 0 {
        return Err(PlotError::Empty("no histogram bars"));
    }
    let (rows, cols) = grid(panels.len());
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (PANEL_WIDTH * cols as u32, PANEL_HEIGHT * rows as u32))
            .into_drawing_area();
        root.fill(&WHITE)?;
        let areas = root.split_evenly((rows, cols));
        for (panel, area) in panels.iter().zip(areas.iter()) {
            let mut chart = ChartBuilder::on(area)
                .caption(&panel.title, ("sans-serif", 18))
                .margin(10)
                .x_label_area_size(35)
                .y_label_area_size(55)
                .build_cartesian_2d(0.5f64..depth as f64 + 0.5, 0f64..top as f64 * 1.1)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_desc(x_label)
                .y_desc(y_label)
                .x_labels(depth + 1)
                .x_label_formatter(&integer_label)
                .y_label_formatter(&|y| format!("{y:.0}"))
                .draw()?;
            let width = 0.8 / panel.groups.len().max(1) as f64;
            for (i, (name, counts)) in panel.groups.iter().enumerate() {
                let fill = colour(i).filled();
                let left = |d: usize| d as f64 + 1.0 - 0.4 + i as f64 * width;
                chart
                    .draw_series(
                        counts
                            .iter()
                            .enumerate()
                            .filter(|&(_, &c)| c > 0)
                            .map(|(d, &c)| Rectangle::new([(left(d), 0.0), (left(d) + width, c as f64)], fill)),
                    )?
                    .label(name.as_str())
                    .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], fill));
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .draw()?;
        }
        root.present()?;
    }
    Ok(svg)
}

/// Axis labels at whole numbers only (k and guess counts are integers).
fn integer_label(x: &f64) -> String {
    if (x - x.round()).abs() < 1e-6 {
        format!("{x:.0}")
    } else {
        String::new()
    }
}

/// A range around `[lo, hi]` with `margin` on both sides (and some width when `lo == hi`).
fn pad(lo: f64, hi: f64, margin: f64) -> (f64, f64) {
    (lo - margin, hi + margin)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(n: u8, k: u8, rule: &str, total: u64, optimal: bool) -> SweepPoint {
        let codes = u64::from(k).pow(u32::from(n));
        SweepPoint { n, k, rule: rule.into(), average: total as f64 / codes as f64, total, optimal }
    }

    #[test]
    fn excess_is_measured_from_the_best_rule_or_the_optimum() {
        // [2,3]: 9 codes. Totals 24 and 21: the second is best (excess 0), the first 3/9 above.
        let points = [point(2, 3, "a", 24, false), point(2, 3, "b", 21, false)];
        let panels = excess_panels(&points);
        assert!((panels[0].series[0].points[0].1 - 3.0 / 9.0).abs() < 1e-12);
        assert_eq!(panels[0].series[1].points, [(3.0, 0.0)]);
        // With an optimum of total 20, both lie above it and the optimum is not a line.
        let points = [point(2, 3, "a", 24, false), point(2, 3, "b", 21, false), point(2, 3, "opt", 20, true)];
        let panels = excess_panels(&points);
        assert_eq!(panels[0].series.len(), 2);
        assert!((panels[0].series[1].points[0].1 - 1.0 / 9.0).abs() < 1e-12);
    }

    #[test]
    fn abbreviations_are_initials_with_the_pool() {
        let rules: Vec<String> = ["expected-size (all)", "expected-size (candidates)", "most-parts (all)"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(abbreviations(&rules), ["ES", "ESc", "MP"]);
        let clash: Vec<String> = ["most-parts", "max-pairs"].iter().map(|s| s.to_string()).collect();
        assert_eq!(abbreviations(&clash), ["1", "2"]);
    }
}
