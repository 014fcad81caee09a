//! fp32 steps on TF32 tensor cores: PyTorch's convolutions, and all of a TensorRT engine's
//! matrix products.
//!
//! TensorRT builds fp32 engines with TF32 allowed: `BuilderFlag::kTF32` — "Allow (but not require)
//! computations on tensors of type DataType::kFLOAT to use TF32 … Enabled by default." (NvInfer.h,
//! as docs.rs/trtx-sys 0.4.0 reproduces it) — so every FLOP of a TensorRT fp32 step runs at the
//! TF32 rate on GPUs that have it.
//!
//! PyTorch lets cuDNN compute fp32 convolutions in TF32 by default
//! (`torch.backends.cudnn.allow_tf32 = True`) while fp32 matrix products stay IEEE fp32
//! (`torch.backends.cuda.matmul.allow_tf32 = False` since PyTorch 1.12). On NVIDIA GPUs with TF32
//! tensor cores (Ampere, Ada Lovelace, Hopper, Blackwell) an fp32 step's convolution FLOPs therefore
//! run at the TF32 rate — half the dense FP16 rate with FP32 accumulation on these tensor cores
//! (NVIDIA's A100 and H100 datasheets: 156 of 312 and 495 of 989 TFLOP/s dense; the Ada whitepaper:
//! 82.6 of 165.2 for the RTX 4090) — at the runtime's tensor-core share, the rest at the FP32 rate.

use super::Runtime;
use crate::spec::{Component, ModelSpec};
use crate::{Device, DeviceProfile, HardwareType, Precision};

/// Architectures (the device catalog's names) whose tensor cores compute TF32.
const TF32_ARCHITECTURES: [&str; 4] = ["Ampere", "Ada Lovelace", "Hopper", "Blackwell"];

/// The dense TF32 peak of a catalog device that has TF32 tensor cores, TFLOP/s: an NVIDIA GPU of a
/// TF32 architecture, or — where the catalog entry names none — with a BF16 rate (BF16 and TF32
/// tensor cores arrived together, with Ampere).
#[must_use]
pub fn tf32_tflops(device: &Device) -> Option<f64> {
    let tf32_architecture = device
        .architecture
        .as_deref()
        .map(|a| TF32_ARCHITECTURES.iter().any(|t| a.starts_with(t)));
    let has_tf32 = device.hardware_type == HardwareType::Cuda
        && device.profile == DeviceProfile::Catalog
        && tf32_architecture.unwrap_or(device.dense_tflops.bf16.is_some());
    has_tf32.then_some(())?;
    device.dense_tflops.fp16.map(|fp16| fp16 / 2.0)
}

/// The share of a forward pass's FLOPs in convolutional parts.
#[must_use]
pub fn conv_flop_share(spec: &ModelSpec, seq_length: u32) -> f64 {
    let total = spec.flops_per_item(seq_length);
    if total == 0 {
        return 0.0;
    }
    let conv: u64 = spec
        .components
        .iter()
        .filter(|c| matches!(c, Component::Conv(_)))
        .map(|c| c.flops_per_item(seq_length))
        .sum();
    conv as f64 / total as f64
}

/// Where an fp32 step's products run on TF32 tensor cores: the share of its FLOPs that do (PyTorch:
/// the convolutions, which cuDNN may run on TF32 while matrix products stay IEEE fp32; TensorRT:
/// every product) and the TF32 peak (TFLOP/s). `None` for other runtimes, precisions and devices,
/// and for PyTorch models without convolutions.
#[must_use]
pub fn fp32_on_tf32(
    runtime: Runtime,
    device: &Device,
    spec: &ModelSpec,
    precision: Precision,
    seq_length: u32,
) -> Option<(f64, f64)> {
    if precision != Precision::Fp32 {
        return None;
    }
    let share = match runtime {
        Runtime::Pytorch | Runtime::PytorchCompiled => conv_flop_share(spec, seq_length),
        Runtime::TensorRt => 1.0,
        _ => return None,
    };
    let peak = tf32_tflops(device)?;
    (share > 0.0).then_some((share, peak))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Catalog, DeviceCatalog};

    fn device(name: &str) -> Device {
        DeviceCatalog::builtin().resolve(name).unwrap().clone()
    }

    #[test]
    fn tf32_is_half_the_fp16_tensor_rate_from_ampere_on() {
        assert_eq!(tf32_tflops(&device("nvidia-a100-sxm-40gb")), Some(156.0));
        assert!((tf32_tflops(&device("nvidia-h200-sxm")).unwrap() - 494.75).abs() < 1e-9);
        assert_eq!(tf32_tflops(&device("nvidia-t4")), None, "Turing has no TF32");
        assert_eq!(tf32_tflops(&device("NVIDIA V100 SXM2 32GB")), None, "nor has Volta");
    }

    #[test]
    fn pytorch_fp32_convolutions_and_tensorrt_fp32_move() {
        let resnet = Catalog::builtin().resolve("microsoft/resnet-50").unwrap().spec;
        let bert = Catalog::builtin().resolve("bert-base-uncased").unwrap().spec;
        let h200 = device("nvidia-h200-sxm");
        let on = |r, s: &ModelSpec, p| fp32_on_tf32(r, &h200, s, p, 128);
        assert_eq!(on(Runtime::Pytorch, &resnet, Precision::Fp32).map(|x| x.0), Some(1.0));
        assert!(on(Runtime::PytorchCompiled, &resnet, Precision::Fp32).is_some());
        assert_eq!(on(Runtime::Pytorch, &resnet, Precision::Bf16), None);
        assert_eq!(
            on(Runtime::TensorRt, &bert, Precision::Fp32).map(|x| x.0),
            Some(1.0),
            "TensorRT: every product, TF32 allowed by default"
        );
        assert_eq!(on(Runtime::TensorRt, &bert, Precision::Fp16), None);
        assert_eq!(on(Runtime::OnnxRuntime, &resnet, Precision::Fp32), None);
        assert_eq!(on(Runtime::Pytorch, &bert, Precision::Fp32), None, "matmuls stay fp32");
    }
}
