//! What the npm package's wasm modules (the questions in `hwfit_bg.wasm`, the benchmark in
//! `bench/hwfit_bench_bg.wasm`) share: plain JS objects to and from Rust values, typed JS errors,
//! and the benchmark's options and report.

pub mod benchmark;
pub mod convert;

pub use benchmark::{BenchmarkOptions, BenchmarkReport};
pub use convert::{core_error, error, from_js, range_error, to_js, type_error};
