//! Grouped bar charts: one group per category, one bar per series.

use alloc::string::String;
use core::fmt::Write as _;

use crate::axis::Axis;
use crate::layout::{legend_width, Area, Series, AXIS_WIDTH};
use crate::svg::{colour, escape, number, Frame};

/// A grouped bar chart.
pub(crate) struct Bars {
    pub frame: Frame,
    pub categories: alloc::vec::Vec<String>,
    pub series: alloc::vec::Vec<Series>,
    pub x_label: String,
    pub y_label: String,
    pub log: bool,
    /// A horizontal reference line (1× on a relative chart).
    pub reference: Option<f64>,
}

const BAR: f64 = 14.0;
const GROUP_GAP: f64 = 18.0;

impl Bars {
    /// The SVG.
    pub(crate) fn render(self) -> String {
        let Bars {
            mut frame,
            categories,
            series,
            x_label,
            y_label,
            log,
            reference,
        } = self;
        let per_group = BAR * series.len().max(1) as f64 + GROUP_GAP;
        let plot_width = (per_group * categories.len() as f64).max(360.0);
        let longest = categories.iter().map(|c| c.chars().count()).max().unwrap_or(0) as f64;
        let group_width = plot_width / categories.len().max(1) as f64;
        // A label wider than its group (~6.5 px per character at 12 px) is rotated by 30°; then it
        // reaches ~5.6 px per character left and ~3.3 px down.
        let long = longest * 6.5 > group_width - 4.0;
        let label_room = if long { 24.0 + 3.3 * longest } else { 40.0 };
        let overhang = if long {
            (5.6 * longest - group_width / 2.0 - AXIS_WIDTH + 8.0).max(0.0)
        } else {
            0.0
        };
        let area = Area {
            left: AXIS_WIDTH + overhang,
            top: 44.0,
            right: AXIS_WIDTH + overhang + plot_width,
            bottom: 44.0 + 300.0,
        };
        frame.width = area.right + legend_width(&series);
        frame.height = area.bottom + label_room + 40.0;
        let axis = Axis::covering(series.iter().flat_map(|s| s.values.iter().flatten().copied()), log);
        frame.render(|s| {
            area.value_axis(s, &axis, &y_label);
            let group_width = (area.right - area.left) / categories.len().max(1) as f64;
            for (c, category) in categories.iter().enumerate() {
                let group_left = area.left + group_width * c as f64;
                let bars_left = group_left + (group_width - BAR * series.len() as f64) / 2.0;
                let _ = write!(s, r#"<g class="category" data-category="{}">"#, escape(category));
                for (i, series) in series.iter().enumerate() {
                    let Some(v) = series.values.get(c).copied().flatten() else { continue };
                    let y = area.y(&axis, v);
                    let _ = write!(
                        s,
                        r#"<rect class="bar" data-series="{n}" data-category="{cat}" data-value="{v}" x="{x:.1}" y="{y:.1}" width="{w}" height="{h:.1}" fill="{col}"><title>{n}, {cat}: {shown}</title></rect>"#,
                        n = escape(&series.name),
                        cat = escape(category),
                        x = bars_left + BAR * i as f64,
                        w = BAR - 2.0,
                        h = (area.y(&axis, axis.base()) - y).max(0.5),
                        col = colour(series.colour),
                        shown = number(v)
                    );
                }
                let x = group_left + group_width / 2.0;
                let y = area.bottom + 16.0;
                let text = escape(category);
                if long {
                    let _ = write!(
                        s,
                        r#"<text class="category-label" transform="translate({x:.1} {y:.1}) rotate(-30)" text-anchor="end">{text}</text></g>"#
                    );
                } else {
                    let _ = write!(
                        s,
                        r#"<text class="category-label" x="{x:.1}" y="{y:.1}" text-anchor="middle">{text}</text></g>"#
                    );
                }
            }
            if let Some(r) = reference {
                let y = area.y(&axis, r);
                let _ = write!(
                    s,
                    r#"<line class="reference" x1="{l}" x2="{rr}" y1="{y:.1}" y2="{y:.1}" stroke="currentColor" stroke-dasharray="4 3"/>"#,
                    l = area.left,
                    rr = area.right
                );
            }
            area.base_line(s, &x_label, area.bottom + label_room + 10.0);
            area.legend(s, &series, false);
        })
    }
}
