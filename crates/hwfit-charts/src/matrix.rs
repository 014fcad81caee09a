//! The predictor guide's five charts of a [`PredictionMatrix`].

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use hwfit_core::plan::matrix::{Cell, ModelRow, PredictionMatrix};
use hwfit_core::{Precision, SortedMap};

use crate::bars::Bars;
use crate::layout::Series;
use crate::lines::Lines;
use crate::svg::Frame;

/// Which chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChartKind {
    /// Throughput per model, one bar per hardware (the first batch size and precision).
    HardwareComparison,
    /// Throughput against batch size, one line per model and hardware.
    BatchScaling,
    /// Throughput relative to the CPU (or the first hardware when there is no CPU).
    Efficiency,
    /// Memory per model and batch size, one bar per hardware.
    Memory,
    /// Throughput per precision, for each model and hardware.
    PrecisionImpact,
}

impl ChartKind {
    /// The five, in the guide's order.
    pub const ALL: [ChartKind; 5] = [
        ChartKind::HardwareComparison,
        ChartKind::BatchScaling,
        ChartKind::Efficiency,
        ChartKind::Memory,
        ChartKind::PrecisionImpact,
    ];

    /// The file name without `.svg` (`hardware_comparison`, …).
    #[must_use]
    pub const fn file_stem(self) -> &'static str {
        match self {
            ChartKind::HardwareComparison => "hardware_comparison",
            ChartKind::BatchScaling => "batch_scaling",
            ChartKind::Efficiency => "efficiency",
            ChartKind::Memory => "memory",
            ChartKind::PrecisionImpact => "precision_impact",
        }
    }
}

/// One drawn chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// Which one.
    pub kind: ChartKind,
    /// Its title (also the SVG's accessible name).
    pub title: String,
    /// The SVG document.
    pub svg: String,
}

/// A predicted cell's (throughput, memory MB); `None` when the matrix refused it.
fn predicted(row: &ModelRow, hardware: &str, batch: u32, precision: Precision) -> Option<(f64, f64)> {
    match row
        .predictions
        .get(hardware)?
        .get(&batch.to_string())?
        .get(&precision)?
    {
        Cell::Predicted {
            throughput,
            memory_usage,
            ..
        } => Some((*throughput, *memory_usage)),
        Cell::Refused { .. } => None,
    }
}

/// The throughput unit of the matrix: one when every model shares it, else both named.
fn throughput_label(m: &PredictionMatrix) -> String {
    let mut units: Vec<String> = m
        .models
        .values()
        .flat_map(|r| r.predictions.values())
        .flat_map(SortedMap::values)
        .flat_map(SortedMap::values)
        .filter_map(|c| match c {
            Cell::Predicted { throughput_unit, .. } => Some(throughput_unit.to_string()),
            Cell::Refused { .. } => None,
        })
        .collect();
    units.sort();
    units.dedup();
    match units.as_slice() {
        [one] => format!("throughput ({one})"),
        _ => format!("throughput ({}, by model)", units.join(" or ")),
    }
}

/// Draws the five charts. A matrix without batch sizes, precisions, models or hardware gives none.
#[must_use]
pub fn matrix_charts(m: &PredictionMatrix) -> Vec<Chart> {
    let (Some(&batch), Some(&precision)) = (m.batch_sizes.first(), m.precision_options.first()) else {
        return Vec::new();
    };
    if m.models.is_empty() || m.hardware_platforms.is_empty() {
        return Vec::new();
    }
    let context = Context { m, batch, precision };
    ChartKind::ALL
        .iter()
        .map(|&kind| {
            let (title, svg) = context.draw(kind);
            Chart { kind, title, svg }
        })
        .collect()
}

/// The matrix and the batch size and precision the single-slice charts use.
struct Context<'a> {
    m: &'a PredictionMatrix,
    batch: u32,
    precision: Precision,
}

/// How a chart names a model: its name without the Hub organisation (`gpt2` for
/// `openai-community/gpt2`), unless two models would then share a name.
fn short_names(m: &PredictionMatrix) -> Vec<String> {
    let short = |name: &str| -> String { name.rsplit('/').next().unwrap_or(name).into() };
    let shorts: Vec<String> = m.models.values().map(|r| short(&r.name)).collect();
    let mut unique = shorts.clone();
    unique.sort();
    unique.dedup();
    if unique.len() == shorts.len() {
        shorts
    } else {
        m.models.values().map(|r| r.name.clone()).collect()
    }
}

impl Context<'_> {
    fn frame(&self, title: &str, description: String) -> Frame {
        Frame {
            width: 0.0,
            height: 0.0,
            title: title.into(),
            description,
            note: format!(
                "hwfit · {} mode · predicted ({}), not measured",
                self.m.mode, self.m.prediction_source
            ),
        }
    }

    /// The rows with the names the charts show.
    fn models(&self) -> impl Iterator<Item = (&ModelRow, String)> {
        self.m.models.values().zip(short_names(self.m))
    }

    /// `model · hardware`, or the hardware alone when the matrix has one model.
    fn pair_name(&self, model: &str, hardware: &str) -> String {
        if self.m.models.len() == 1 {
            hardware.into()
        } else {
            format!("{model} · {hardware}")
        }
    }

    fn draw(&self, kind: ChartKind) -> (String, String) {
        let m = self.m;
        let (b, p) = (self.batch, self.precision);
        let throughput = throughput_label(m);
        let model_names: Vec<String> = self.models().map(|(_, name)| name).collect();
        let per_hardware = |value: &dyn Fn(&ModelRow, &str) -> Option<f64>| -> Vec<Series> {
            m.hardware_platforms
                .iter()
                .enumerate()
                .map(|(colour, hw)| Series {
                    name: hw.clone(),
                    values: self.models().map(|(r, _)| value(r, hw)).collect(),
                    colour,
                })
                .collect()
        };
        match kind {
            ChartKind::HardwareComparison => {
                let title = format!("Throughput by hardware (batch {b}, {p})");
                let series = per_hardware(&|r, hw| predicted(r, hw, b, p).map(|c| c.0));
                let description = format!(
                    "Grouped bars, log scale: {} models × {} hardware platforms.",
                    model_names.len(),
                    series.len()
                );
                let svg = Bars {
                    frame: self.frame(&title, description),
                    categories: model_names,
                    series,
                    x_label: "model".into(),
                    y_label: throughput,
                    log: true,
                    reference: None,
                }
                .render();
                (title, svg)
            }
            ChartKind::BatchScaling => {
                let title = format!("Throughput vs batch size ({p})");
                let series: Vec<Series> = self
                    .models()
                    .enumerate()
                    .flat_map(|(model, (r, name))| {
                        let platforms = m.hardware_platforms.len();
                        m.hardware_platforms.iter().enumerate().map(move |(h, hw)| Series {
                            name: self.pair_name(&name, hw),
                            values: m
                                .batch_sizes
                                .iter()
                                .map(|&batch| predicted(r, hw, batch, p).map(|c| c.0))
                                .collect(),
                            colour: model * platforms + h,
                        })
                    })
                    .collect();
                let description = format!(
                    "Lines, log-log: {} model and hardware pairs over batch sizes {:?}.",
                    series.len(),
                    m.batch_sizes
                );
                let svg = Lines {
                    frame: self.frame(&title, description),
                    x: m.batch_sizes.iter().map(|&b| f64::from(b)).collect(),
                    series,
                    x_label: "batch size".into(),
                    y_label: throughput,
                    log_x: true,
                    log_y: true,
                }
                .render();
                (title, svg)
            }
            ChartKind::Efficiency => {
                let baseline = m
                    .hardware_platforms
                    .iter()
                    .find(|h| h.as_str() == "cpu")
                    .unwrap_or(&m.hardware_platforms[0])
                    .clone();
                let title = format!("Speed-up over {baseline} (batch {b}, {p})");
                let series: Vec<Series> = per_hardware(&|r, hw| {
                    let base = predicted(r, &baseline, b, p)?.0;
                    let here = predicted(r, hw, b, p)?.0;
                    (base > 0.0).then(|| here / base)
                })
                .into_iter()
                .filter(|s| s.name != baseline)
                .collect();
                let description = format!(
                    "Grouped bars, log scale: each platform's throughput divided by {baseline}'s for the same model; the dashed line is 1×."
                );
                let svg = Bars {
                    frame: self.frame(&title, description),
                    categories: model_names,
                    series,
                    x_label: "model".into(),
                    y_label: format!("throughput relative to {baseline} (×)"),
                    log: true,
                    reference: Some(1.0),
                }
                .render();
                (title, svg)
            }
            ChartKind::Memory => {
                let title = format!("Memory by hardware and batch size ({p})");
                let mut categories = Vec::new();
                let mut slots = Vec::new();
                for (r, name) in self.models() {
                    for &batch in &m.batch_sizes {
                        categories.push(if m.models.len() == 1 {
                            format!("batch {batch}")
                        } else {
                            format!("{name} · batch {batch}")
                        });
                        slots.push((r, batch));
                    }
                }
                let series: Vec<Series> = m
                    .hardware_platforms
                    .iter()
                    .enumerate()
                    .map(|(colour, hw)| Series {
                        name: hw.clone(),
                        values: slots
                            .iter()
                            .map(|(r, batch)| predicted(r, hw, *batch, p).map(|c| c.1))
                            .collect(),
                        colour,
                    })
                    .collect();
                let description = format!(
                    "Grouped bars, linear scale: predicted memory in MB for {} model and batch-size pairs.",
                    categories.len()
                );
                let svg = Bars {
                    frame: self.frame(&title, description),
                    categories,
                    series,
                    x_label: "model and batch size".into(),
                    y_label: "memory (MB)".into(),
                    log: false,
                    reference: None,
                }
                .render();
                (title, svg)
            }
            ChartKind::PrecisionImpact => {
                let title = format!("Throughput by precision (batch {b})");
                let mut categories = Vec::new();
                let mut slots = Vec::new();
                for (r, name) in self.models() {
                    for hw in &m.hardware_platforms {
                        categories.push(self.pair_name(&name, hw));
                        slots.push((r, hw.as_str()));
                    }
                }
                let series: Vec<Series> = m
                    .precision_options
                    .iter()
                    .enumerate()
                    .map(|(colour, &precision)| Series {
                        name: precision.to_string(),
                        values: slots
                            .iter()
                            .map(|(r, hw)| predicted(r, hw, b, precision).map(|c| c.0))
                            .collect(),
                        colour,
                    })
                    .collect();
                let description = format!(
                    "Grouped bars, log scale: {} precisions for {} model and hardware pairs{}.",
                    series.len(),
                    categories.len(),
                    if series.len() == 1 {
                        " (one precision was asked for: pass several to compare)"
                    } else {
                        ""
                    }
                );
                let svg = Bars {
                    frame: self.frame(&title, description),
                    categories,
                    series,
                    x_label: "model and hardware".into(),
                    y_label: throughput,
                    log: true,
                    reference: None,
                }
                .render();
                (title, svg)
            }
        }
    }
}
