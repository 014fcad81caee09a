//! llama.cpp's WebAssembly build (what wllama and webgpu-bench run on the CPU): which ggml
//! dot-product kernel each weight format runs, and the share of the threads' SIMD peak each kernel
//! reaches (fitted by [`crate::perf::fitting::wasm_kernels`]).
//!
//! ggml's WebAssembly build has `wasm_simd128` dot products for Q4_0, Q5_0, Q5_1, Q8_0 and the
//! k-quants Q2_K…Q6_K (and its f32/f16 vector code is SIMD); Q4_1, every i-quant, MXFP4 and bf16
//! fall back to generic C (`ggml/src/ggml-cpu/arch-fallback.h`, the `__wasm__` branch). One
//! thread's rate differs up to 5× between the formats of one model (webgpu-bench on an M3), so a
//! single WebAssembly share — ONNX Runtime Web's — does not describe this runtime.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::Precision;

/// Whether a kernel has a SIMD implementation in ggml's WebAssembly build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum KernelClass {
    /// A `wasm_simd128` implementation.
    Simd,
    /// ggml's generic C (scalar, whatever the compiler vectorises).
    Generic,
}

/// The ggml dot-product kernel the matrix products of a format run (a `Q4_K_M` file is mostly
/// `q4_K` tensors; `IQ2_M` files are `iq2_s` tensors), and its class; `None` for formats llama.cpp
/// does not read.
#[must_use]
pub const fn kernel_of(precision: Precision) -> Option<(&'static str, KernelClass)> {
    use KernelClass::{Generic, Simd};
    Some(match precision {
        Precision::Fp32 => ("f32", Simd),
        Precision::Fp16 | Precision::F16 => ("f16", Simd),
        Precision::Bf16 => ("bf16", Generic),
        Precision::Q4_0 | Precision::Int4 => ("q4_0", Simd),
        Precision::Q4_1 => ("q4_1", Generic),
        Precision::Q5_0 => ("q5_0", Simd),
        Precision::Q5_1 => ("q5_1", Simd),
        Precision::Q8_0 | Precision::Int8 => ("q8_0", Simd),
        Precision::Q2K => ("q2_K", Simd),
        Precision::Q3KS | Precision::Q3KM | Precision::Q3KL => ("q3_K", Simd),
        Precision::Q4KS | Precision::Q4KM => ("q4_K", Simd),
        Precision::Q5KS | Precision::Q5KM => ("q5_K", Simd),
        Precision::Q6K => ("q6_K", Simd),
        Precision::Iq1S => ("iq1_s", Generic),
        Precision::Iq1M => ("iq1_m", Generic),
        Precision::Iq2Xxs => ("iq2_xxs", Generic),
        Precision::Iq2Xs => ("iq2_xs", Generic),
        Precision::Iq2S | Precision::Iq2M => ("iq2_s", Generic),
        Precision::Iq3Xxs => ("iq3_xxs", Generic),
        Precision::Iq3Xs | Precision::Iq3S | Precision::Iq3M => ("iq3_s", Generic),
        Precision::Iq4Nl => ("iq4_nl", Generic),
        Precision::Iq4Xs => ("iq4_xs", Generic),
        Precision::Mxfp4 | Precision::Mxfp4Moe => ("mxfp4", Generic),
        _ => return None,
    })
}

/// One kernel's fitted share of the threads' SIMD peak.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct KernelShare {
    /// The ggml kernel (`q4_K`, `iq4_nl` …).
    pub kernel: String,
    /// Achieved share of the threads' peak.
    pub share: f64,
    /// Decode steps it was fitted on.
    pub rows: usize,
    /// Models among them.
    pub models: usize,
}

/// llama.cpp's WebAssembly build: each kernel's share where its rows allow, each class's otherwise.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WasmKernelShares {
    /// The share of kernels with SIMD code and too few rows of their own.
    pub simd: f64,
    /// The share of generic kernels with too few rows of their own.
    pub generic: f64,
    /// Kernels with rows from enough models.
    pub kernels: Vec<KernelShare>,
    /// What the shares were fitted on.
    pub fitted_on: String,
}

impl WasmKernelShares {
    /// The share `precision`'s kernel reaches (`None`: llama.cpp does not read the format).
    #[must_use]
    pub fn share(&self, precision: Precision) -> Option<f64> {
        let (kernel, class) = kernel_of(precision)?;
        Some(self.kernels.iter().find(|k| k.kernel == kernel).map_or(
            match class {
                KernelClass::Simd => self.simd,
                KernelClass::Generic => self.generic,
            },
            |k| k.share,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kernel_with_rows_answers_for_itself_and_others_take_their_class() {
        let shares = WasmKernelShares {
            simd: 0.5,
            generic: 0.2,
            kernels: alloc::vec![KernelShare {
                kernel: String::from("q4_K"),
                share: 0.6,
                rows: 9,
                models: 7,
            }],
            fitted_on: String::new(),
        };
        assert_eq!(shares.share(Precision::Q4KM), Some(0.6));
        assert_eq!(shares.share(Precision::Q4KS), Some(0.6));
        assert_eq!(shares.share(Precision::Q5KM), Some(0.5));
        assert_eq!(shares.share(Precision::Iq4Xs), Some(0.2));
        assert_eq!(shares.share(Precision::Awq), None);
    }

    #[test]
    fn every_gguf_format_has_a_kernel() {
        for p in Precision::ALL.iter().filter(|p| p.is_gguf()) {
            assert!(kernel_of(*p).is_some(), "{p:?}");
        }
    }
}
