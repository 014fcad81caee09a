//! The detection report: IPFS Accelerate's `hardware: {cpu: true, cuda: …}` map and `torch_device`, plus
//! the detailed probes and the devices hwfit can predict on. The shape is the core's
//! (`hwfit_core::detect`); this crate fills it.

pub use hwfit_core::detect::{DetectedDevice, DetectionReport, GpuAdapter, MpsReport, Profile};
