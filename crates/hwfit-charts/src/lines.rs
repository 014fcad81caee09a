//! Line charts over a numeric x axis (batch size), log-scaled on both axes when asked.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write as _;

use crate::axis::Axis;
use crate::layout::{dash, legend_width, Area, Series, AXIS_WIDTH};
use crate::svg::{colour, escape, number, Frame};

/// A line chart: one line per series over the shared x values.
pub(crate) struct Lines {
    pub frame: Frame,
    pub x: Vec<f64>,
    pub series: Vec<Series>,
    pub x_label: String,
    pub y_label: String,
    pub log_x: bool,
    pub log_y: bool,
}

impl Lines {
    /// The SVG.
    pub(crate) fn render(self) -> String {
        let Lines {
            mut frame,
            x,
            series,
            x_label,
            y_label,
            log_x,
            log_y,
        } = self;
        let area = Area {
            left: AXIS_WIDTH,
            top: 44.0,
            right: AXIS_WIDTH + 480.0,
            bottom: 344.0,
        };
        frame.width = area.right + legend_width(&series);
        frame.height = area.bottom + 80.0;
        let y_axis = Axis::covering(series.iter().flat_map(|s| s.values.iter().flatten().copied()), log_y);
        let (x_lo, x_hi) = x.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
        let x_of = |v: f64| {
            let f = if x_hi.partial_cmp(&x_lo) != Some(core::cmp::Ordering::Greater) {
                0.5
            } else if log_x {
                (libm::log(v) - libm::log(x_lo)) / (libm::log(x_hi) - libm::log(x_lo))
            } else {
                (v - x_lo) / (x_hi - x_lo)
            };
            area.left + 12.0 + f * (area.right - area.left - 24.0)
        };
        frame.render(|s| {
            area.value_axis(s, &y_axis, &y_label);
            s.push_str(r#"<g class="x-axis">"#);
            for &v in &x {
                let _ = write!(
                    s,
                    r#"<line x1="{x:.1}" x2="{x:.1}" y1="{b}" y2="{b2}" stroke="currentColor"/><text x="{x:.1}" y="{ty}" text-anchor="middle">{v}</text>"#,
                    x = x_of(v),
                    b = area.bottom,
                    b2 = area.bottom + 5.0,
                    ty = area.bottom + 18.0,
                    v = number(v)
                );
            }
            s.push_str("</g>");
            for series in &series {
                let points: Vec<(f64, f64)> = x
                    .iter()
                    .zip(&series.values)
                    .filter_map(|(&x, v)| v.map(|v| (x, v)))
                    .collect();
                let name = escape(&series.name);
                let _ = write!(s, r#"<g class="series" data-series="{name}">"#);
                if points.len() > 1 {
                    s.push_str(r#"<polyline fill="none" stroke-width="2.5" points=""#);
                    for (x, v) in &points {
                        let _ = write!(s, "{:.1},{:.1} ", x_of(*x), area.y(&y_axis, *v));
                    }
                    let _ = write!(s, r#"" stroke="{}"{}/>"#, colour(series.colour), dash(series.colour));
                }
                for (x, v) in &points {
                    let _ = write!(
                        s,
                        r#"<circle class="point" data-series="{name}" data-x="{x}" data-value="{v}" cx="{cx:.1}" cy="{cy:.1}" r="3.5" fill="{c}"><title>{name}, {xl} {x}: {shown}</title></circle>"#,
                        cx = x_of(*x),
                        cy = area.y(&y_axis, *v),
                        c = colour(series.colour),
                        xl = escape(&x_label),
                        shown = number(*v)
                    );
                }
                s.push_str("</g>");
            }
            area.base_line(s, &x_label, area.bottom + 40.0);
            area.legend(s, &series, true);
        })
    }
}
