//! A drawn chart as the charts module returns it and `charts()` answers it.

use serde::{Deserialize, Serialize};

/// One of the predictor guide's five charts, as SVG text.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "typegen", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ChartSvg {
    /// `hardware_comparison`, `batch_scaling`, `efficiency`, `memory` or `precision_impact` (the
    /// CLI's file names).
    pub kind: String,
    /// The chart's title (also its accessible name).
    pub title: String,
    /// The SVG document.
    pub svg: String,
}
