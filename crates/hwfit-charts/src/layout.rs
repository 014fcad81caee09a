//! The parts every chart shares: the plot area, the value axis with its grid, the legend.

use alloc::string::String;
use core::fmt::Write as _;

use crate::axis::Axis;
use crate::svg::{colour, escape, number};

/// One named row of values (a bar colour or a line), `None` where there is no prediction.
#[derive(Debug, Clone)]
pub(crate) struct Series {
    pub name: String,
    pub values: alloc::vec::Vec<Option<f64>>,
    /// Its palette slot: one hardware keeps its colour across the charts.
    pub colour: usize,
}

/// The plot area, in SVG units.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Area {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
}

/// Space for the legend on the right of the plot: swatch, gap and the longest name (12 px text).
pub(crate) fn legend_width(series: &[Series]) -> f64 {
    let longest = series.iter().map(|s| s.name.chars().count()).max().unwrap_or(0);
    48.0 + 7.0 * longest as f64
}
/// Space for the value axis on the left.
pub(crate) const AXIS_WIDTH: f64 = 72.0;

impl Area {
    /// The SVG y of value `v`.
    pub(crate) fn y(&self, axis: &Axis, v: f64) -> f64 {
        self.bottom - axis.fraction(v) * (self.bottom - self.top)
    }

    /// The value axis: grid lines, tick labels and the rotated axis label.
    pub(crate) fn value_axis(&self, s: &mut String, axis: &Axis, label: &str) {
        s.push_str(r#"<g class="y-axis">"#);
        for t in axis.ticks() {
            let y = self.y(axis, t);
            let _ = write!(
                s,
                r#"<line x1="{l}" x2="{r}" y1="{y:.1}" y2="{y:.1}" stroke="currentColor" stroke-opacity="0.15"/><text x="{tx}" y="{ty:.1}" text-anchor="end">{v}</text>"#,
                l = self.left,
                r = self.right,
                tx = self.left - 6.0,
                ty = y + 4.0,
                v = number(t)
            );
        }
        let mid = f64::midpoint(self.top, self.bottom);
        let _ = write!(
            s,
            r#"<line x1="{l}" x2="{l}" y1="{t}" y2="{b}" stroke="currentColor"/><text class="y-label" transform="translate({lx} {mid:.1}) rotate(-90)" text-anchor="middle">{label}</text></g>"#,
            l = self.left,
            lx = self.left - 56.0,
            t = self.top,
            b = self.bottom,
            label = escape(label)
        );
    }

    /// The category/x axis line and its label.
    pub(crate) fn base_line(&self, s: &mut String, label: &str, label_y: f64) {
        let _ = write!(
            s,
            r#"<line x1="{l}" x2="{r}" y1="{b}" y2="{b}" stroke="currentColor"/><text class="x-label" x="{mid:.1}" y="{label_y:.1}" text-anchor="middle">{label}</text>"#,
            l = self.left,
            r = self.right,
            b = self.bottom,
            mid = f64::midpoint(self.left, self.right),
            label = escape(label)
        );
    }

    /// The legend: one swatch and name per series, right of the plot; `dashed` marks line series.
    pub(crate) fn legend(&self, s: &mut String, series: &[Series], lines: bool) {
        s.push_str(r#"<g class="legend">"#);
        for (row, one) in series.iter().enumerate() {
            let i = one.colour;
            let y = self.top + 4.0 + 18.0 * row as f64;
            let x = self.right + 16.0;
            if lines {
                let _ = write!(
                    s,
                    r#"<line x1="{x}" x2="{x2}" y1="{y:.1}" y2="{y:.1}" stroke="{c}" stroke-width="2.5"{dash}/>"#,
                    x2 = x + 18.0,
                    c = colour(i),
                    dash = dash(i)
                );
            } else {
                let _ = write!(
                    s,
                    r#"<rect x="{x}" y="{ry:.1}" width="12" height="12" fill="{c}"/>"#,
                    ry = y - 6.0,
                    c = colour(i)
                );
            }
            let _ = write!(
                s,
                r#"<text class="legend-entry" data-series="{n}" x="{tx}" y="{ty:.1}">{n}</text>"#,
                n = escape(&one.name),
                tx = x + 24.0,
                ty = y + 4.0
            );
        }
        s.push_str("</g>");
    }
}

/// A dash pattern for line series beyond the palette's first round (so 16 lines stay apart).
pub(crate) fn dash(i: usize) -> &'static str {
    if (i / crate::svg::PALETTE.len()) % 2 == 1 {
        r#" stroke-dasharray="6 3""#
    } else {
        ""
    }
}
