//! Compatibility: which hardware types run which model families (real / limited / unsupported, with
//! a performance rating and the reason), and which precisions each hardware type supports. Follows
//! IPFS Accelerate's matrix where it is right; `differs_from_ipfs_accelerate` says why where it is not.

use crate::map::SortedMap;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::{CoreError, Family, HardwareType, Precision};

string_enum! {
    /// How well a combination is supported.
    pub enum SupportLevel: "support level" {
        /// Runs with real hardware acceleration in mainstream runtimes.
        Real => "real",
        /// Runs, with caveats (some models, some ops, some platforms, or small sizes only).
        Limited => "limited",
        /// Does not run.
        Unsupported => "unsupported",
    }
}

string_enum! {
    /// Expected relative performance.
    pub enum PerformanceRating: "performance rating" {
        /// Among the fastest options.
        High => "high",
        /// Usable for production at moderate load.
        Medium => "medium",
        /// Works, slowly.
        Low => "low",
        /// Does not run.
        None => "none",
    }
}

/// One cell of the compatibility matrix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CompatibilityEntry {
    /// Whether it runs at all (`support != unsupported`).
    pub compatible: bool,
    /// How well.
    pub support: SupportLevel,
    /// Expected relative performance.
    pub performance_rating: PerformanceRating,
    /// Why.
    pub reason: String,
    /// Where IPFS Accelerate's matrix says otherwise, why hwfit differs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub differs_from_ipfs_accelerate: Option<String>,
}

type Cell = (SupportLevel, PerformanceRating, &'static str, Option<&'static str>);

fn cell(family: Family, hardware: HardwareType) -> Cell {
    use Family as F;
    use HardwareType as H;
    use PerformanceRating::{High, Low, Medium};
    use SupportLevel::{Limited, Real};
    match (hardware, family) {
        (H::Cuda, _) => (Real, High, "PyTorch, ONNX Runtime, TensorRT and llama.cpp all run every family on CUDA", None),
        (H::Rocm, F::Multimodal) => (Real, High, "PyTorch on ROCm runs CLIP, BLIP and LLaVA like any other transformer", Some("IPFS Accelerate mark ROCm multimodal as simulation; PyTorch's ROCm build runs these models for real")),
        (H::Rocm, _) => (Real, High, "PyTorch, ONNX Runtime (MIGraphX/ROCm EP), vLLM and llama.cpp (HIP) support AMD Instinct and Radeon GPUs", None),
        (H::Mps, F::Multimodal) => (Real, Medium, "PyTorch MPS runs CLIP, BLIP and LLaVA; MLX runs VLMs", Some("IPFS Accelerate mark MPS multimodal as simulation; PyTorch MPS and MLX run these models for real")),
        (H::Mps, F::TextGeneration) => (Real, Medium, "llama.cpp (Metal), MLX and PyTorch MPS; unified memory holds large models, bandwidth limits decode speed", None),
        (H::Mps, _) => (Real, Medium, "PyTorch MPS and Core ML run encoders, vision and audio models on Apple-silicon GPUs", None),
        (H::Cpu, F::TextGeneration) => (Real, Low, "llama.cpp and PyTorch run LLMs on CPUs; decode speed is bound by memory bandwidth", None),
        (H::Cpu, F::Embedding | F::Audio) => (Real, Medium, "small encoders and speech models run well on modern CPUs (ONNX Runtime, whisper.cpp)", None),
        (H::Cpu, _) => (Real, Low, "every family runs on CPU, slowly for large vision and multimodal models", None),
        (H::Openvino, F::Multimodal) => (Real, Medium, "optimum-intel exports CLIP, BLIP and LLaVA-style VLMs to OpenVINO", Some("IPFS Accelerate mark OpenVINO multimodal as simulation; OpenVINO supports these models")),
        (H::Openvino, F::TextGeneration) => (Real, Medium, "OpenVINO GenAI runs LLMs on Intel CPUs, iGPUs and NPUs with int4/int8 weight compression", None),
        (H::Openvino, _) => (Real, Medium, "OpenVINO accelerates encoders, vision and audio models on Intel CPUs, GPUs and NPUs", None),
        (H::Qnn, F::Embedding | F::Vision) => (Real, Medium, "Qualcomm AI Engine Direct runs quantized encoders and vision models on the Hexagon NPU", None),
        (H::Qnn, F::Audio) => (Real, Medium, "Whisper and other speech models are published for the Hexagon NPU (Qualcomm AI Hub)", None),
        (H::Qnn, _) => (Limited, Low, "large generative and multimodal models need Qualcomm's Genie SDK and pre-quantized exports; few models are published", None),
        (H::Webgpu, F::Audio) => (Real, Medium, "transformers.js and ONNX Runtime Web run Whisper and wav2vec2 on WebGPU", Some("IPFS Accelerate mark WebGPU audio as simulation; transformers.js runs Whisper on WebGPU for real")),
        (H::Webgpu, F::Multimodal) => (Limited, Low, "CLIP/SigLIP run in transformers.js on WebGPU; VLMs beyond ~2 B parameters exceed a tab's memory and buffer limits", Some("IPFS Accelerate mark WebGPU multimodal as simulation; small image-text encoders run for real")),
        (H::Webgpu, F::TextGeneration) => (Real, Medium, "web-llm and transformers.js run quantized LLMs on WebGPU; size is capped by maxBufferSize and device memory", None),
        (H::Webgpu, _) => (Real, Medium, "transformers.js and ONNX Runtime Web run encoders and vision models on WebGPU; small models can be slower than WASM (fixed per-call overhead)", None),
        (H::Webnn, F::Embedding | F::Vision) => (Limited, Medium, "ONNX Runtime Web's WebNN EP runs encoders and CNN/ViT models where the browser exposes WebNN (Chromium behind a flag; DirectML/Core ML back-ends, not Linux)", Some("IPFS Accelerate mark WebNN real; WebNN ships only behind a flag and has no Linux back-end")),
        (H::Webnn, F::Audio) => (Limited, Low, "Whisper demos run on WebNN through DirectML on Windows; elsewhere createContext fails", None),
        (H::Webnn, F::TextGeneration) => (Limited, Low, "WebNN lacks dynamic shapes and some ops that LLMs need; only demo-sized models run", Some("IPFS Accelerate mark WebNN text generation real; it is limited to demo-sized models")),
        (H::Webnn, F::Multimodal) => (Limited, Low, "WebNN lacks dynamic shapes and some ops that VLMs need; small image-text encoders run where WebNN has a back-end", None),
        (H::Wasm, F::TextGeneration | F::Multimodal) => (Limited, Low, "wllama (llama.cpp) and transformers.js run small models in WASM; 4 GB address space caps model size", None),
        (H::Wasm, _) => (Real, Low, "transformers.js and ONNX Runtime Web (WASM SIMD, threads) run encoders, vision and speech models on the CPU", None),
    }
}

/// The compatibility of a family with a hardware type.
#[must_use]
pub fn compatibility(family: Family, hardware: HardwareType) -> CompatibilityEntry {
    let (support, performance_rating, reason, differs) = cell(family, hardware);
    CompatibilityEntry {
        compatible: support != SupportLevel::Unsupported,
        support,
        performance_rating,
        reason: String::from(reason),
        differs_from_ipfs_accelerate: differs.map(String::from),
    }
}

/// How well `hardware` runs `precision`, if at all: numeric types by the hardware's math; 4-bit
/// checkpoint formats (int4, AWQ/GPTQ, NF4) where GPU kernels exist; FP4 microscaling where kernels
/// exist (MXFP4: vLLM/transformers on CUDA, llama.cpp and MLX elsewhere; NVFP4: Blackwell tensor
/// cores); GGUF file types wherever llama.cpp runs (WebGPU: llama.cpp's WebGPU build, in wllama and
/// webgpu-bench, runs every type — limited, as web-llm's and transformers.js's builds do not).
#[must_use]
#[allow(
    clippy::unnested_or_patterns,
    reason = "one pattern per hardware type reads as a table"
)]
pub fn precision_support(hardware: HardwareType, precision: Precision) -> Option<SupportLevel> {
    use HardwareType as H;
    use Precision as P;
    use SupportLevel::{Limited, Real};
    let gguf_everywhere = matches!(hardware, H::Cuda | H::Rocm | H::Mps | H::Cpu | H::Wasm);
    match (hardware, precision) {
        // MLX runs on Apple silicon (its GPU, or its CPU).
        (_, p) if p.is_mlx() => matches!(hardware, H::Mps).then_some(Real),
        (_, p) if p.is_gguf() => match hardware {
            _ if gguf_everywhere => Some(Real),
            H::Webgpu => Some(Limited),
            _ => None,
        },
        (H::Cuda, P::Fp32 | P::Fp16 | P::Bf16 | P::Int8 | P::Int4 | P::Awq | P::Nf4 | P::Mxfp4)
        | (H::Rocm | H::Mps, P::Fp32 | P::Fp16)
        | (H::Rocm, P::Bf16 | P::Int8)
        | (H::Cpu, P::Fp32 | P::Int8)
        | (H::Openvino, P::Fp32 | P::Fp16 | P::Int8 | P::Int4)
        | (H::Qnn, P::Int8)
        | (H::Webnn, P::Fp32 | P::Fp16)
        | (H::Webgpu, P::Fp32 | P::Int4)
        | (H::Wasm, P::Fp32 | P::Int8) => Some(Real),
        (H::Cuda | H::Rocm, P::Fp8)
        | (H::Cuda, P::Nvfp4)
        | (H::Rocm, P::Int4 | P::Awq | P::Mxfp4)
        | (H::Mps, P::Bf16 | P::Int8 | P::Int4 | P::Mxfp4)
        | (H::Cpu, P::Fp16 | P::Bf16 | P::Int4 | P::Mxfp4)
        | (H::Openvino, P::Bf16 | P::Awq)
        | (H::Qnn, P::Fp16 | P::Int4)
        | (H::Webnn, P::Int8 | P::Int4)
        | (H::Webgpu, P::Fp16 | P::Int8)
        | (H::Wasm, P::Fp16 | P::Int4) => Some(Limited),
        _ => None,
    }
}

/// Precisions a hardware type supports, and how well.
#[must_use]
pub fn supported_precisions(hardware: HardwareType) -> Vec<(Precision, SupportLevel)> {
    Precision::ALL
        .iter()
        .filter_map(|&p| precision_support(hardware, p).map(|s| (p, s)))
        .collect()
}

/// Why a precision is limited on a hardware type, where it is.
#[must_use]
pub fn precision_note(hardware: HardwareType, precision: Precision) -> Option<&'static str> {
    use HardwareType as H;
    use Precision as P;
    Some(match (hardware, precision) {
        (H::Cuda | H::Rocm, P::Fp8) => "FP8 tensor cores only on Ada/Hopper/Blackwell (CUDA) and MI300 (ROCm)",
        (H::Cuda, P::Nvfp4) => "NVFP4 tensor cores only on Blackwell; elsewhere dequantized by vLLM's Marlin kernels",
        (H::Rocm, P::Int4 | P::Awq) => "int4 kernels (GPTQ/AWQ) are partial on ROCm",
        (H::Rocm | H::Mps | H::Cpu, P::Mxfp4) => "MXFP4 through llama.cpp's MXFP4 type (and MLX on Apple)",
        (H::Mps, P::Bf16) => "bf16 needs macOS 14+ and M2 or later",
        (H::Mps, P::Int8 | P::Int4) => "PyTorch MPS has no int8/int4 matmul; MLX and llama.cpp formats do",
        (H::Openvino, P::Awq) => "OpenVINO compresses weights to int4 itself; AWQ/GPTQ checkpoints via optimum-intel",
        (H::Cpu, P::Fp16 | P::Bf16) => {
            "fast only with AVX512-FP16/BF16 or AMX (Sapphire Rapids+) or ARM FP16; otherwise converted to fp32"
        }
        (H::Cpu, P::Int4) => "GPTQ/AWQ kernels are GPU-first; use GGUF formats on CPU",
        (H::Openvino, P::Bf16) => "bf16 inference on AMX-capable Xeons only",
        (H::Qnn, P::Fp16) => "fp16 on Hexagon v73+ (Snapdragon 8 Gen 2 and later)",
        (H::Qnn, P::Int4) => "int4 weights only through Qualcomm's Genie/AI Hub exports",
        (H::Webnn, P::Int8 | P::Int4) => "quantized data types depend on opSupportLimits() of the context",
        (H::Webgpu, P::Fp16) => "needs the shader-f16 feature",
        (H::Webgpu, P::Int8) => {
            "dequantized in shaders by web-llm/transformers.js builds; not every runtime supports every format"
        }
        (H::Webgpu, p) if p.is_gguf() => {
            "GGUF through llama.cpp's WebGPU build (wllama, webgpu-bench runs Q2_K … Q8_0 and the i-quants); web-llm and transformers.js take 4/8-bit formats of their own"
        }
        (H::Wasm, P::Fp16) => "stored as fp16, computed in fp32",
        (H::Wasm, P::Int4) => "GPTQ/AWQ are GPU formats; use GGUF formats in WASM",
        _ => return None,
    })
}

/// The supported precisions, named: numeric and checkpoint formats one by one, GGUF file types as
/// one group when the hardware runs all of them.
fn supported_names(list: &[(Precision, SupportLevel)]) -> String {
    let all_gguf = Precision::ALL
        .iter()
        .filter(|p| p.is_gguf())
        .all(|p| list.iter().any(|(q, _)| q == p));
    let mlx = list.iter().any(|(p, _)| p.is_mlx());
    let mut names: Vec<&str> = list
        .iter()
        .filter(|(p, _)| !(p.is_mlx() || all_gguf && p.is_gguf()))
        .map(|(p, _)| p.as_str())
        .collect();
    if mlx {
        names.push("MLX's formats (mlx_2bit … mlx_8bit)");
    }
    if all_gguf {
        names.push("every GGUF type (q4_0 … q8_0, k-quants, i-quants, f16)");
    }
    names.join(", ")
}

/// Checks that `hardware` runs `precision`.
pub fn check_precision(hardware: HardwareType, precision: Precision) -> Result<SupportLevel, CoreError> {
    let list = supported_precisions(hardware);
    list.iter()
        .find(|(p, _)| *p == precision)
        .map(|(_, s)| *s)
        .ok_or_else(|| CoreError::UnsupportedPrecision {
            hardware: hardware.as_str(),
            precision: precision.as_str(),
            supported: supported_names(&list),
        })
}

/// One hardware type's precision support, for the matrix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PrecisionSupport {
    /// The precision.
    pub precision: Precision,
    /// How well it is supported.
    pub support: SupportLevel,
    /// The caveat, where there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One family's row of the matrix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FamilyRow {
    /// Compatibility per hardware type.
    pub hardware_compatibility: SortedMap<HardwareType, CompatibilityEntry>,
}

/// The whole matrix in IPFS Accelerate's shape, plus precision support per hardware type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CompatibilityMatrix {
    /// Hardware types, in hwfit's order.
    pub hardware_types: Vec<HardwareType>,
    /// Family → hardware → entry.
    pub model_families: SortedMap<Family, FamilyRow>,
    /// Hardware → supported precisions.
    pub precision_support: SortedMap<HardwareType, Vec<PrecisionSupport>>,
}

impl CompatibilityMatrix {
    /// The full matrix.
    #[must_use]
    pub fn build() -> Self {
        let model_families = Family::ALL
            .iter()
            .map(|&f| {
                (
                    f,
                    FamilyRow {
                        hardware_compatibility: HardwareType::ALL.iter().map(|&h| (h, compatibility(f, h))).collect(),
                    },
                )
            })
            .collect();
        let precision_support = HardwareType::ALL
            .iter()
            .map(|&h| {
                let list = supported_precisions(h)
                    .iter()
                    .map(|&(precision, support)| PrecisionSupport {
                        precision,
                        support,
                        note: precision_note(h, precision).map(String::from),
                    })
                    .collect();
                (h, list)
            })
            .collect();
        Self {
            hardware_types: HardwareType::ALL.to_vec(),
            model_families,
            precision_support,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn cuda_runs_everything_and_every_cell_has_a_reason() {
        for &f in Family::ALL {
            assert_eq!(compatibility(f, HardwareType::Cuda).support, SupportLevel::Real);
            for &h in HardwareType::ALL {
                assert!(!compatibility(f, h).reason.is_empty());
            }
        }
    }

    #[test]
    fn qnn_has_no_fp32_and_says_so() {
        let err = check_precision(HardwareType::Qnn, Precision::Fp32)
            .unwrap_err()
            .to_string();
        assert_eq!(err, "qnn does not support precision fp32 (supported: fp16, int8, int4)");
    }

    #[test]
    fn every_limited_precision_has_a_note() {
        for &h in HardwareType::ALL {
            for (p, s) in supported_precisions(h) {
                if s == SupportLevel::Limited {
                    assert!(precision_note(h, p).is_some(), "{h} {p}");
                }
            }
        }
    }
}
