//! hwfit's charts module for the web (`charts/hwfit_charts_bg.wasm` in the npm package, loaded by
//! `charts()` on first use so the questions' module stays small): the predictor guide's five charts
//! of a prediction matrix, drawn by the same code as `hwfit matrix --visualize` (`hwfit-charts`).
//! Nothing here panics across the boundary.

use hwfit_core::plan::matrix::PredictionMatrix;
use hwfit_js::{from_js, to_js, ChartSvg};
use wasm_bindgen::prelude::*;

/// The five charts of `matrix`.
#[must_use]
pub fn draw(matrix: &PredictionMatrix) -> Vec<ChartSvg> {
    hwfit_charts::matrix_charts(matrix)
        .into_iter()
        .map(|c| ChartSvg {
            kind: c.kind.file_stem().to_owned(),
            title: c.title,
            svg: c.svg,
        })
        .collect()
}

/// Draws the five charts of a prediction matrix (what `matrix()` answers) → `ChartSvg[]`; the
/// questions' module calls it as part of `charts()`.
#[wasm_bindgen(js_name = drawCharts)]
pub fn draw_charts(matrix: JsValue) -> Result<JsValue, JsValue> {
    console_error_panic_hook::set_once();
    let matrix: PredictionMatrix = from_js(matrix, "charts")?;
    to_js(&draw(&matrix))
}
