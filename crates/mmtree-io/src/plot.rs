//! SVG plots of plain figures: line panels (average guesses against k) and grouped
//! histograms (guesses needed per secret), drawn with `plotters`' SVG backend.
//!
//! The functions take plain numbers and names, not trees or rules, so this crate stays
//! independent of how the figures were computed. Text is written as SVG `<text>` elements;
//! no font files are read.

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

fn colour(i: usize) -> RGBColor {
    const COLOURS: [RGBColor; 8] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
    ];
    COLOURS[i % COLOURS.len()]
}

/// Panels side by side: up to three in one row, four as 2 x 2, then three to a row.
fn grid(panels: usize) -> (usize, usize) {
    let cols = if panels == 4 { 2 } else { panels.clamp(1, 3) };
    (panels.div_ceil(cols).max(1), cols)
}

/// Draws line panels side by side; each series is one `<polyline>` and one legend entry.
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
    let points = || panels.iter().flat_map(|p| p.series.iter().flat_map(|s| s.points.iter()));
    if points().next().is_none() {
        return Err(PlotError::Empty("no data points"));
    }
    let (x_min, x_max) = points().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (y_min, y_max) = points().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let (x_lo, x_hi) = pad(x_min, x_max, 0.5);
    let (y_lo, y_hi) = pad(y_min.min(1.0), y_max, 0.25);
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
                .y_label_area_size(45)
                .build_cartesian_2d(x_lo..x_hi, y_lo..y_hi)?;
            chart
                .configure_mesh()
                .x_desc(x_label)
                .y_desc(y_label)
                .x_labels((x_max - x_min) as usize + 1)
                .x_label_formatter(&integer_label)
                .y_label_formatter(&|y| format!("{y:.1}"))
                .draw()?;
            for (i, series) in panel.series.iter().enumerate() {
                let style = colour(i).stroke_width(2);
                chart
                    .draw_series(LineSeries::new(series.points.iter().copied(), style))?
                    .label(series.name.as_str())
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], style));
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
                            .filter(|(_, &c)| c > 0)
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
