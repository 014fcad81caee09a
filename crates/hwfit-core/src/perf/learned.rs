//! The learned correction to the analytic model: a model of ln(measured / analytic throughput)
//! from features that exist for devices it never saw (hardware type, vendor, release year, peak
//! rate at the precision, bandwidth, arithmetic intensity, batch, sequence, precision bits, family,
//! workload, runtime). The core defines the features and where the correction may be used (its
//! [`LearnedDomain`]); the model itself is an ONNX graph run by tract in `hwfit-learn` (natively and
//! as the npm package's `learn/` module), behind [`ResidualModel`].

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::cost::StepCost;
use super::runtime::Runtime;
use super::WorkloadClass;
use crate::spec::ModelSpec;
use crate::{Device, Family, HardwareType, Precision, Workload};

/// Hardware types, one feature each.
const HARDWARE: [HardwareType; 9] = [
    HardwareType::Cpu,
    HardwareType::Cuda,
    HardwareType::Rocm,
    HardwareType::Mps,
    HardwareType::Openvino,
    HardwareType::Qnn,
    HardwareType::Webnn,
    HardwareType::Webgpu,
    HardwareType::Wasm,
];

/// Vendors, one feature each (the last is "other").
const VENDORS: [&str; 6] = ["nvidia", "amd", "intel", "apple", "arm", "other"];

/// Families, one feature each.
const FAMILIES: [Family; 5] = [
    Family::Embedding,
    Family::TextGeneration,
    Family::Vision,
    Family::Audio,
    Family::Multimodal,
];

/// Workloads, one feature each.
const WORKLOADS: [Workload; 4] = [
    Workload::Forward,
    Workload::Prefill,
    Workload::Decode,
    Workload::TrainStep,
];

/// The continuous features, in order, after the one-hot blocks.
const CONTINUOUS: [&str; 9] = [
    "release_year",
    "release_known",
    "log10_peak_tflops",
    "log10_bandwidth_gbs",
    "log10_intensity",
    "log10_ridge",
    "log2_batch",
    "log2_seq",
    "precision_bits",
];

/// The runtimes of the runtime one-hot block, fixed so that a new runtime does not change the
/// vector a stored model reads (a runtime outside the list is all zeros; the correction applies only
/// to each cell's documented runtime anyway).
const RUNTIMES: [Runtime; 11] = [
    Runtime::LlamaCpp,
    Runtime::TensorRt,
    Runtime::Vllm,
    Runtime::Pytorch,
    Runtime::OnnxRuntime,
    Runtime::OnnxRuntimeWeb,
    Runtime::WebLlm,
    Runtime::Tract,
    Runtime::OpenVino,
    Runtime::Qnn,
    Runtime::Mlx,
];

/// Number of features.
pub const FEATURE_COUNT: usize =
    HARDWARE.len() + VENDORS.len() + FAMILIES.len() + WORKLOADS.len() + RUNTIMES.len() + CONTINUOUS.len() + 1;

/// A one-hot block of the vector: its names' prefix, its length, the name of its `i`-th value.
type OneHotBlock = (&'static str, usize, fn(usize) -> &'static str);

/// The one-hot blocks, in the order of the vector; the continuous features follow them.
const ONE_HOT_BLOCKS: [OneHotBlock; 5] = [
    ("hw_", HARDWARE.len(), |i| HARDWARE[i].as_str()),
    ("vendor_", VENDORS.len(), |i| VENDORS[i]),
    ("family_", FAMILIES.len(), |i| FAMILIES[i].as_str()),
    ("workload_", WORKLOADS.len(), |i| WORKLOADS[i].as_str()),
    ("runtime_", RUNTIMES.len(), |i| RUNTIMES[i].as_str()),
];

/// The last feature: the analytic model's step time.
const ANALYTIC_MS: &str = "log10_analytic_ms";

/// The feature names, in the order of the vector (stored in the ONNX model, checked on load).
#[must_use]
pub fn feature_names() -> Vec<String> {
    let mut names = Vec::with_capacity(FEATURE_COUNT);
    for (prefix, len, value) in ONE_HOT_BLOCKS {
        names.extend((0..len).map(|i| format!("{prefix}{}", value(i))));
    }
    names.extend(CONTINUOUS.iter().map(|c| String::from(*c)));
    names.push(String::from(ANALYTIC_MS));
    names
}

/// The position of feature `name` in the vector, without building the names (the domain check runs
/// on every learned prediction).
fn feature_index(name: &str) -> Option<usize> {
    let mut offset = 0;
    for (prefix, len, value) in ONE_HOT_BLOCKS {
        if let Some(i) = name
            .strip_prefix(prefix)
            .and_then(|rest| (0..len).position(|i| value(i) == rest))
        {
            return Some(offset + i);
        }
        offset += len;
    }
    if name == ANALYTIC_MS {
        return Some(offset + CONTINUOUS.len());
    }
    CONTINUOUS.iter().position(|c| *c == name).map(|i| offset + i)
}

/// The vendor bucket of a device's vendor name.
fn vendor_index(vendor: &str) -> usize {
    let v = vendor.to_ascii_lowercase();
    let buckets: [&[&str]; 5] = [
        &["nvidia"],
        &["amd", "ati", "radeon"],
        &["intel"],
        &["apple"],
        &[
            "arm",
            "qualcomm",
            "mediatek",
            "samsung",
            "broadcom",
            "raspberry",
            "ampere",
            "aws",
            "google",
        ],
    ];
    buckets
        .iter()
        .position(|names| names.iter().any(|n| v.contains(n)))
        .unwrap_or(VENDORS.len() - 1)
}

/// The year a device was released, from `released` (`2020-05-14`, `2020`).
fn release_year(device: &Device) -> Option<f64> {
    let year: u32 = device.released.as_deref()?.get(..4)?.parse().ok()?;
    (1990..2100).contains(&year).then_some(f64::from(year))
}

fn one_hot<T: PartialEq>(out: &mut Vec<f32>, values: &[T], value: &T) {
    out.extend(values.iter().map(|v| if v == value { 1.0 } else { 0.0 }));
}

/// What a step looks like to the learned model.
#[derive(Debug, Clone, Copy)]
pub struct StepFacts<'a> {
    /// The model.
    pub spec: &'a ModelSpec,
    /// The device.
    pub device: &'a Device,
    /// Precision.
    pub precision: Precision,
    /// Workload.
    pub workload: Workload,
    /// Items per step.
    pub batch_size: u32,
    /// Tokens per sequence.
    pub seq_length: u32,
    /// The runtime the prediction describes.
    pub runtime: Runtime,
    /// The step's cost.
    pub cost: &'a StepCost,
    /// The device's peak at the precision, TFLOPS.
    pub peak_tflops: f64,
    /// The analytic model's step time, seconds.
    pub analytic_step_s: f64,
}

/// The feature vector of a step (see [`feature_names`]).
#[must_use]
pub fn features(facts: &StepFacts<'_>) -> Vec<f32> {
    let mut out = Vec::with_capacity(FEATURE_COUNT);
    one_hot(&mut out, &HARDWARE, &facts.device.hardware_type);
    let vendor = vendor_index(&facts.device.vendor);
    out.extend((0..VENDORS.len()).map(|i| if i == vendor { 1.0 } else { 0.0 }));
    one_hot(&mut out, &FAMILIES, &facts.spec.family);
    one_hot(&mut out, &WORKLOADS, &facts.workload);
    one_hot(&mut out, &RUNTIMES, &facts.runtime);
    let year = release_year(facts.device);
    let bandwidth = facts.device.memory_bandwidth_gbs.max(1e-3);
    let peak = facts.peak_tflops.max(1e-6);
    let continuous = [
        year.map_or(0.0, |y| (y - 2016.0) / 5.0),
        if year.is_some() { 1.0 } else { 0.0 },
        libm::log10(peak),
        libm::log10(bandwidth),
        libm::log10((facts.cost.flops / facts.cost.bytes.max(1.0)).max(1e-6)),
        libm::log10(peak * 1e3 / bandwidth),
        libm::log2(f64::from(facts.batch_size.max(1))),
        // A model without token sequences (a CNN) ignores the sequence length: 1, as it was trained.
        libm::log2(f64::from(if facts.spec.stacks().next().is_some() {
            facts.seq_length.max(1)
        } else {
            1
        })),
        facts.precision.bits_per_weight() / 32.0,
        libm::log10((facts.analytic_step_s * 1e3).max(1e-6)),
    ];
    out.extend(continuous.iter().map(|&x| x as f32));
    out
}

/// The range a continuous feature took in training.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FeatureRange {
    /// Feature name.
    pub feature: String,
    /// Smallest value seen.
    pub min: f32,
    /// Largest value seen.
    pub max: f32,
}

/// Where the learned correction is used: the hardware types and workload classes where
/// leave-devices-out cross-validation showed it better than the analytic model, and the ranges of
/// the continuous features it was trained on (with `margin` either side).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct LearnedDomain {
    /// `(hardware type, workload class)` pairs.
    pub cells: Vec<(HardwareType, WorkloadClass)>,
    /// Feature ranges.
    pub ranges: Vec<FeatureRange>,
    /// Allowed distance outside a range, in the feature's units.
    pub margin: f32,
}

impl LearnedDomain {
    /// `Ok` when a step is inside the domain, else why not. Feature names are looked up by name,
    /// so a domain from a model with other features is refused rather than misread.
    pub fn admits(&self, hardware: HardwareType, class: WorkloadClass, features: &[f32]) -> Result<(), String> {
        if !self.cells.contains(&(hardware, class)) {
            return Err(format!("not trained for {hardware} {class:?} steps"));
        }
        for range in &self.ranges {
            let Some(i) = feature_index(&range.feature) else {
                return Err(format!("unknown feature '{}'", range.feature));
            };
            let x = features.get(i).copied().unwrap_or(f32::NAN);
            if !(x >= range.min - self.margin && x <= range.max + self.margin) {
                return Err(format!(
                    "{} = {x} is outside the trained range [{}, {}]",
                    range.feature, range.min, range.max
                ));
            }
        }
        Ok(())
    }
}

/// A learned model of ln(measured / analytic throughput).
pub trait ResidualModel: Send + Sync + core::fmt::Debug {
    /// The correction for one feature vector.
    fn log_correction(&self, features: &[f32]) -> Result<f64, String>;
    /// Whether a step is inside the model's training domain (usually [`LearnedDomain::admits`]).
    fn admits(&self, hardware: HardwareType, class: WorkloadClass, features: &[f32]) -> bool;
    /// What it is (name, training data).
    fn describe(&self) -> &str;
}

/// The largest correction applied, in log units (×20 either way): beyond that the analytic
/// model's inputs are wrong, not its efficiency.
pub const MAX_LOG_CORRECTION: f64 = 3.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_feature_is_found_where_the_names_put_it() {
        for (i, name) in feature_names().iter().enumerate() {
            assert_eq!(feature_index(name), Some(i), "{name}");
        }
        assert_eq!(feature_index("hw_quantum"), None);
        assert_eq!(feature_index("release"), None);
    }

    #[test]
    fn names_and_vector_agree() {
        let catalog = crate::Catalog::builtin();
        let devices = crate::DeviceCatalog::builtin();
        let spec = &catalog.resolve("bert-base-uncased").unwrap().spec;
        let device = devices.resolve("rtx-4090").unwrap();
        let cost = super::super::step_cost(spec, Precision::Fp16, Workload::Forward, 8, 128).unwrap();
        let f = features(&StepFacts {
            spec,
            device,
            precision: Precision::Fp16,
            workload: Workload::Forward,
            batch_size: 8,
            seq_length: 128,
            runtime: Runtime::TensorRt,
            cost: &cost,
            peak_tflops: 165.0,
            analytic_step_s: 0.002,
        });
        let names = feature_names();
        assert_eq!(f.len(), FEATURE_COUNT);
        assert_eq!(names.len(), FEATURE_COUNT);
        let at = |n: &str| f[names.iter().position(|x| x == n).unwrap()];
        let expected = [
            ("hw_cuda", 1.0),
            ("vendor_nvidia", 1.0),
            ("runtime_tensorrt", 1.0),
            ("log2_batch", 3.0),
        ];
        for (name, value) in expected {
            assert!((at(name) - value).abs() < 1e-6, "{name} = {}", at(name));
        }
        assert!((at("log10_analytic_ms") - libm::log10(2.0) as f32).abs() < 1e-6);
    }

    #[test]
    fn domain_refuses_other_cells_and_far_values() {
        let domain = LearnedDomain {
            cells: alloc::vec![(HardwareType::Cpu, WorkloadClass::Forward)],
            ranges: alloc::vec![FeatureRange {
                feature: String::from("log2_batch"),
                min: 0.0,
                max: 4.0
            }],
            margin: 1.0,
        };
        let names = feature_names();
        let mut f = alloc::vec![0.0_f32; FEATURE_COUNT];
        let batch = names.iter().position(|n| n == "log2_batch").unwrap();
        f[batch] = 5.0;
        assert!(domain.admits(HardwareType::Cpu, WorkloadClass::Forward, &f).is_ok());
        assert!(domain.admits(HardwareType::Cuda, WorkloadClass::Forward, &f).is_err());
        f[batch] = 5.5;
        assert!(domain.admits(HardwareType::Cpu, WorkloadClass::Forward, &f).is_err());
    }
}
