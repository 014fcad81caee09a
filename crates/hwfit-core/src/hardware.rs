//! Hardware types: the execution back-ends hwfit reasons about, with IPFS Accelerate's names as string form.

string_enum! {
    /// An execution back-end class. Concrete devices (an RTX 4090, an M2 Max) belong to one of these.
    pub enum HardwareType: "hardware type" {
        /// A general-purpose CPU (PyTorch/ONNX Runtime/llama.cpp on the host).
        Cpu => "cpu",
        /// An NVIDIA GPU through CUDA.
        Cuda => "cuda" | "nvidia" | "gpu",
        /// An AMD GPU through ROCm/HIP.
        Rocm => "rocm" | "amd" | "hip",
        /// An Apple-silicon GPU through Metal Performance Shaders.
        Mps => "mps" | "metal" | "apple",
        /// Intel OpenVINO (CPU, iGPU or NPU).
        Openvino => "openvino",
        /// Qualcomm AI Engine Direct (Hexagon NPU/DSP).
        Qnn => "qnn" | "hexagon",
        /// The W3C Web Neural Network API in a browser.
        Webnn => "webnn",
        /// WebGPU compute in a browser.
        Webgpu => "webgpu",
        /// WebAssembly on the browser's CPU.
        Wasm => "wasm" | "webassembly",
    }
}

impl HardwareType {
    /// Whether the hardware keeps model weights in its own memory separate from host RAM
    /// (a discrete accelerator), as opposed to sharing host memory.
    #[must_use]
    pub const fn has_device_memory(self) -> bool {
        matches!(self, Self::Cuda | Self::Rocm)
    }

    /// Whether this back-end runs inside a browser.
    #[must_use]
    pub const fn is_browser(self) -> bool {
        matches!(self, Self::Webnn | Self::Webgpu | Self::Wasm)
    }

    /// The PyTorch device string for this back-end (`cuda:0`, `mps`, `cpu`); ROCm builds of PyTorch
    /// use the `cuda` device. `None` where PyTorch does not run (OpenVINO, QNN, browser back-ends).
    #[must_use]
    pub const fn torch_device(self) -> Option<&'static str> {
        match self {
            Self::Cuda | Self::Rocm => Some("cuda:0"),
            Self::Mps => Some("mps"),
            Self::Cpu => Some("cpu"),
            Self::Openvino | Self::Qnn | Self::Webnn | Self::Webgpu | Self::Wasm => None,
        }
    }

    /// Fixed memory the runtime itself takes before any model is loaded, in MB: the allowance hwfit
    /// adds to every estimate. WebGPU's is fitted to web-llm's `vram_required_MB` figures (`hwfit
    /// calibrate`: the median residual is 0 MB, i.e. the other terms already cover web-llm's
    /// buffers); the others are stated assumptions, not measurements: a CUDA/ROCm context with
    /// cuBLAS/rocBLAS workspaces, a framework process on CPU/MPS, a browser tab's runtime.
    #[must_use]
    pub const fn runtime_overhead_mb(self) -> u64 {
        match self {
            Self::Cuda | Self::Rocm => 500,
            Self::Mps => 300,
            Self::Cpu | Self::Openvino => 150,
            Self::Qnn | Self::Webnn => 100,
            Self::Webgpu => 0,
            Self::Wasm => 50,
        }
    }

    /// Whether [`Self::runtime_overhead_mb`] is fitted to measurements (`true`) or assumed.
    #[must_use]
    pub const fn runtime_overhead_is_fitted(self) -> bool {
        matches!(self, Self::Webgpu)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn parses_seed_names_and_aliases_case_insensitively() {
        assert_eq!("CUDA".parse::<HardwareType>().unwrap(), HardwareType::Cuda);
        assert_eq!("WebGPU".parse::<HardwareType>().unwrap(), HardwareType::Webgpu);
        assert_eq!("metal".parse::<HardwareType>().unwrap(), HardwareType::Mps);
        let err = "tpu".parse::<HardwareType>().unwrap_err().to_string();
        assert!(err.contains("unknown hardware type 'tpu'"), "{err}");
        assert!(err.contains("cpu, cuda, rocm"), "{err}");
    }

    #[test]
    fn string_form_round_trips() {
        for hw in HardwareType::ALL {
            assert_eq!(hw.as_str().parse::<HardwareType>().unwrap(), *hw);
        }
    }
}
