//! hwfit's microbenchmarks, shared by the native CLI and the browser package.
//!
//! - [`gpu`]: the one WGSL module (`shaders/microbench.wgsl`: tiled matmul in f32 and, where the
//!   adapter has `shader-f16`, f16; a streaming copy) run through wgpu on any adapter — Vulkan, Metal,
//!   DX12, GL natively, WebGPU in the browser.
//! - [`cpu`]: an f32 matrix multiply through ndarray's vectorised GEMM and a memory copy.
//!
//! Both warm up, grow the problem until one timed sample is long enough to time reliably, and report
//! medians as a [`hwfit_core::Measurement`].

pub mod cpu;
pub mod gpu;
mod timing;

pub use gpu::{shader_source, GpuBenchError, ShaderScalar};
pub use timing::BenchConfig;
