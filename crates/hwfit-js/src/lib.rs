//! What the npm package's wasm modules (the questions in `hwfit_bg.wasm`, the benchmark in
//! `bench/hwfit_bench_bg.wasm`, the charts in `charts/hwfit_charts_bg.wasm`) share: plain JS objects
//! to and from Rust values, typed JS errors, the benchmark's options and report, a drawn chart.

pub mod benchmark;
pub mod charts;
pub mod convert;

pub use benchmark::{BenchmarkOptions, BenchmarkReport};
pub use charts::ChartSvg;
pub use convert::{core_error, error, from_js, range_error, to_js, type_error};
