//! The predictor guide's five charts of a prediction matrix, as SVG text: hardware comparison,
//! batch-size scaling, efficiency relative to the CPU, memory by hardware and batch size, and
//! precision impact. One drawing for every face: `hwfit matrix --visualize DIR` writes the files, the
//! web page renders the same strings. no_std + alloc, hand-written SVG (no plotting dependency in the
//! npm package).
//!
//! Every mark carries its numbers (`data-series`, `data-category`/`data-x`, `data-value`) and a
//! `<title>` tooltip, so a test or a reader can check a chart against the answer it was drawn from.

#![no_std]

extern crate alloc;

mod axis;
mod bars;
mod layout;
mod lines;
mod matrix;
mod svg;

pub use matrix::{matrix_charts, Chart, ChartKind};
