//! The runtime a prediction describes, and the default: the runtime the measurement set documents
//! best for the hardware type and workload (llama.cpp for generation on native hardware: 90
//! llama-bench rows; TensorRT for batched forward passes on NVIDIA: the MLPerf rows; tract for
//! forward passes on CPUs: `hwfit bench`'s rows; web-llm and ONNX Runtime Web in the browser), and
//! for training steps PyTorch, the runtime that trains.

use alloc::string::String;
use alloc::vec::Vec;

use crate::{HardwareType, Precision, Workload};

string_enum! {
    /// An inference runtime.
    pub enum Runtime: "runtime" {
        /// llama.cpp (GGUF; CUDA, HIP, Metal, Vulkan or CPU back-ends; in a browser its WebAssembly
        /// build, wllama).
        LlamaCpp => "llama.cpp" | "llamacpp" | "llama-cpp" | "ollama" | "wllama",
        /// NVIDIA TensorRT / TensorRT-LLM.
        TensorRt => "tensorrt" | "tensorrt-llm" | "trt" | "trt-llm",
        /// vLLM.
        Vllm => "vllm",
        /// PyTorch in eager mode (each operator dispatched from Python as it runs).
        Pytorch => "pytorch" | "torch" | "pytorch-eager" | "eager",
        /// PyTorch with `torch.compile` or CUDA graphs (operators fused and captured).
        PytorchCompiled => "pytorch-compiled" | "torch.compile" | "torch-compile" | "pytorch-compile" | "cuda-graphs",
        /// ONNX Runtime (native).
        OnnxRuntime => "onnxruntime" | "onnx runtime" | "ort",
        /// ONNX Runtime Web (transformers.js runs on it).
        OnnxRuntimeWeb => "onnxruntime-web" | "ort-web" | "transformers.js" | "transformersjs",
        /// web-llm (MLC, WebGPU).
        WebLlm => "web-llm" | "webllm" | "mlc",
        /// tract (Sonos' ONNX/NNEF engine; `hwfit bench`).
        Tract => "tract",
        /// Intel OpenVINO.
        OpenVino => "openvino",
        /// Qualcomm AI Engine Direct.
        Qnn => "qnn",
        /// Apple MLX.
        Mlx => "mlx",
    }
}

impl Runtime {
    /// The best-documented runtime for a hardware type, workload and precision: the one a prediction
    /// describes when the request names none (GGUF formats: llama.cpp, the runtime that reads them).
    #[must_use]
    pub const fn default_for(hardware: HardwareType, workload: Workload, precision: Precision) -> Self {
        let documented = Self::documented_for(hardware, workload, precision);
        if documented.runs(precision) {
            return documented;
        }
        // A format the documented runtime cannot read: the runtime that reads it.
        let trains = matches!(workload, Workload::TrainStep);
        if Self::LlamaCpp.runs(precision) && !trains && !hardware.is_browser() {
            Self::LlamaCpp
        } else if Self::Pytorch.runs(precision) {
            Self::Pytorch
        } else {
            documented
        }
    }

    /// The runtime the measurement set documents best for a hardware type and workload.
    const fn documented_for(hardware: HardwareType, workload: Workload, precision: Precision) -> Self {
        let generates = matches!(workload, Workload::Prefill | Workload::Decode);
        let trains = matches!(workload, Workload::TrainStep);
        match hardware {
            _ if precision.is_mlx() => Self::Mlx,
            _ if precision.is_gguf() && !hardware.is_browser() && !trains => Self::LlamaCpp,
            // GGUF files in a browser's WebAssembly: llama.cpp's WebAssembly build (wllama) reads them.
            HardwareType::Wasm if precision.is_gguf() && !trains => Self::LlamaCpp,
            HardwareType::Webgpu if generates => Self::WebLlm,
            HardwareType::Webgpu | HardwareType::Webnn | HardwareType::Wasm => Self::OnnxRuntimeWeb,
            HardwareType::Openvino if !trains => Self::OpenVino,
            HardwareType::Qnn if !trains => Self::Qnn,
            _ if trains => Self::Pytorch,
            _ if generates && Self::LlamaCpp.runs(precision) => Self::LlamaCpp,
            _ if generates => Self::Vllm,
            HardwareType::Cuda if Self::TensorRt.runs(precision) => Self::TensorRt,
            HardwareType::Cpu => Self::Tract,
            HardwareType::Cuda
            | HardwareType::Rocm
            | HardwareType::Mps
            | HardwareType::Openvino
            | HardwareType::Qnn => Self::Pytorch,
        }
    }

    /// Whether the runtime runs training steps (forward, backward and an optimizer update):
    /// PyTorch, eager or compiled, ONNX Runtime (its training build and `ORTModule`), ONNX Runtime
    /// Web (on-device training in the browser) and MLX (`mlx.optimizers`). The engines that run a
    /// model for inference only (TensorRT, vLLM, llama.cpp, web-llm, OpenVINO, tract, QNN) do not.
    #[must_use]
    pub const fn trains(self) -> bool {
        matches!(
            self,
            Self::Pytorch | Self::PytorchCompiled | Self::OnnxRuntime | Self::OnnxRuntimeWeb | Self::Mlx
        )
    }

    /// The runtimes that train, comma-separated (for errors).
    #[must_use]
    pub fn training_runtimes() -> String {
        Self::ALL
            .iter()
            .filter(|r| r.trains())
            .map(|r| r.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Tokens the runtime feeds its model per forward pass when it processes a prompt, by default:
    /// each pass reads the weights its tokens reach again (for a mixture of experts, the experts
    /// those tokens are routed to). llama.cpp splits a prompt into physical batches of `n_ubatch`
    /// = 512 tokens (`common/common.h`: "physical batch size for prompt processing"; llama-bench's
    /// `-ub` defaults to the same); mlx-lm's `generate_step` prefills in steps of
    /// `prefill_step_size` = 2,048 tokens. `None`: the whole prompt in one pass (PyTorch and
    /// transformers, ONNX Runtime, TensorRT engines built for the sequence; vLLM's chunked-prefill
    /// budget depends on how it is served and is not assumed).
    #[must_use]
    pub const fn prompt_chunk_tokens(self) -> Option<u32> {
        match self {
            Self::LlamaCpp => Some(512),
            Self::Mlx => Some(2048),
            _ => None,
        }
    }

    /// Whether the runtime runs weights stored at `precision`: llama.cpp's GGUF formats run on
    /// llama.cpp (and the browser runtimes that read 4-bit blocks), not on engines that read
    /// framework weights (PyTorch, TensorRT, ONNX Runtime, OpenVINO, tract, vLLM's default path);
    /// MXFP4 has kernels in llama.cpp, vLLM, TensorRT-LLM, transformers and MLX; NVFP4 in
    /// TensorRT-LLM, vLLM and PyTorch (ModelOpt); AWQ/GPTQ/NF4 checkpoints in the PyTorch-based
    /// engines, vLLM and TensorRT-LLM.
    #[must_use]
    pub const fn runs(self, precision: Precision) -> bool {
        if precision.is_gguf() {
            return matches!(self, Self::LlamaCpp | Self::WebLlm | Self::Mlx | Self::OnnxRuntimeWeb);
        }
        if precision.is_mlx() {
            return matches!(self, Self::Mlx);
        }
        match precision {
            Precision::Mxfp4 => matches!(
                self,
                Self::LlamaCpp | Self::Vllm | Self::TensorRt | Self::Pytorch | Self::PytorchCompiled | Self::Mlx
            ),
            Precision::Nvfp4 => matches!(
                self,
                Self::TensorRt | Self::Vllm | Self::Pytorch | Self::PytorchCompiled
            ),
            Precision::Awq => matches!(
                self,
                Self::Vllm | Self::TensorRt | Self::Pytorch | Self::PytorchCompiled | Self::OpenVino | Self::Mlx
            ),
            Precision::Nf4 => matches!(self, Self::Vllm | Self::Pytorch | Self::PytorchCompiled),
            _ => true,
        }
    }

    /// Whether the runtime brings its own kernels for `precision` on `hardware`, so that what the
    /// hardware type's usual stack reads does not decide: llama.cpp runs its GGUF formats on CPUs
    /// and on NVIDIA (CUDA), AMD (HIP), Apple (Metal) and Intel GPUs (SYCL, Vulkan) — an Intel Arc
    /// runs `q4_k_m` under llama.cpp whatever OpenVINO reads. Other precisions (fp8, say) stay the
    /// hardware's to decide.
    #[must_use]
    pub const fn brings_kernels_for(self, precision: Precision, hardware: HardwareType) -> bool {
        matches!(self, Self::LlamaCpp)
            && precision.is_gguf()
            && matches!(
                hardware,
                HardwareType::Cpu
                    | HardwareType::Cuda
                    | HardwareType::Rocm
                    | HardwareType::Mps
                    | HardwareType::Openvino
            )
    }

    /// The precisions the runtime reads, named for an error message.
    #[must_use]
    pub fn supported_precisions(self) -> String {
        let names: Vec<&str> = Precision::ALL
            .iter()
            .filter(|p| self.runs(**p) && !p.is_gguf())
            .map(|p| p.as_str())
            .collect();
        let gguf = if self.runs(Precision::Q4KM) {
            ", every GGUF type"
        } else {
            ""
        };
        alloc::format!("{}{gguf}", names.join(", "))
    }

    /// The runtime of a measurement source's framework text (`"TensorRT 10.2, CUDA 12.4"`,
    /// `"llama.cpp CUDA (llama-bench …)"`): the first known name it starts with.
    #[must_use]
    pub fn from_framework(text: &str) -> Option<Self> {
        let lower = text.trim().to_ascii_lowercase();
        let first = lower.split([' ', ',', '(']).next().unwrap_or("");
        first.parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_measurement_set() {
        assert_eq!(
            Runtime::default_for(HardwareType::Cuda, Workload::Decode, Precision::Fp16),
            Runtime::LlamaCpp
        );
        assert_eq!(
            Runtime::default_for(HardwareType::Cuda, Workload::Forward, Precision::Fp16),
            Runtime::TensorRt
        );
        assert_eq!(
            Runtime::default_for(HardwareType::Cpu, Workload::Forward, Precision::Fp16),
            Runtime::Tract
        );
        assert_eq!(
            Runtime::default_for(HardwareType::Webgpu, Workload::Decode, Precision::Fp16),
            Runtime::WebLlm
        );
        assert_eq!(
            Runtime::default_for(HardwareType::Wasm, Workload::Forward, Precision::Fp16),
            Runtime::OnnxRuntimeWeb
        );
        // A training step names a runtime that trains.
        for hw in [
            HardwareType::Cuda,
            HardwareType::Cpu,
            HardwareType::Rocm,
            HardwareType::Openvino,
        ] {
            assert_eq!(
                Runtime::default_for(hw, Workload::TrainStep, Precision::Fp16),
                Runtime::Pytorch,
                "{hw}"
            );
        }
        assert_eq!("torch.compile".parse::<Runtime>().unwrap(), Runtime::PytorchCompiled);
        // GGUF weights are llama.cpp's, whatever the workload; TensorRT does not read them.
        assert_eq!(
            Runtime::default_for(HardwareType::Cuda, Workload::Forward, Precision::Q4KM),
            Runtime::LlamaCpp
        );
        assert!(!Runtime::TensorRt.runs(Precision::Q4KM) && Runtime::LlamaCpp.runs(Precision::Q4KM));
        assert!(Runtime::Pytorch.runs(Precision::Bf16));
    }

    #[test]
    fn frameworks_parse() {
        assert_eq!(
            Runtime::from_framework("TensorRT 10.2, CUDA 12.4"),
            Some(Runtime::TensorRt)
        );
        assert_eq!(
            Runtime::from_framework("vLLM 0.4.3+rocm614, PyTorch 2.3.0"),
            Some(Runtime::Vllm)
        );
        assert_eq!(
            Runtime::from_framework("llama.cpp CUDA (llama-bench -ngl 99)"),
            Some(Runtime::LlamaCpp)
        );
        assert_eq!(Runtime::from_framework("Jetpack 6"), None);
        assert_eq!("Transformers.js".parse::<Runtime>().unwrap(), Runtime::OnnxRuntimeWeb);
    }
}
