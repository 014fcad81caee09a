//! The devices a detection report lets hwfit predict on: catalog devices where the catalog knows
//! them, measured profiles where it does not (or when calibrating). The browser's twin of this rule
//! is [`crate::browser::browser_candidates`]. Every face reads a report the same way: the CLI and the
//! server on this host's detection, the npm package on a report it is given (`configure`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{DetectedDevice, DetectionReport, GpuFacts, InstalledRuntime, Profile};
use crate::perf::{PerfModel, Runtime, WorkloadClass};
use crate::{
    calibrated_catalog_device, measured_device, Candidate, Device, DeviceCatalog, HardwareType, MeasuredIdentity,
};

/// The share of a hardware type's peak bandwidth a bandwidth-bound kernel achieves (the fitted
/// generation-class memory efficiency), for judging the copy microbenchmark of an identified device.
fn spec_memory_share(device: &Device) -> Option<f64> {
    let model = PerfModel::builtin().ok()?;
    let (e, _) = model
        .coefficients()
        .efficiency(device.hardware_type, WorkloadClass::Generate)?;
    Some(e.memory)
}

/// Candidates from a report, and the devices left out with the reason.
#[derive(Debug, Clone, PartialEq)]
pub struct DetectedCandidates {
    /// One candidate per distinct device (eight identical GPUs are one candidate, `cuda:0`).
    pub candidates: Vec<Candidate>,
    /// `key (name): why` for each device that cannot be predicted on.
    pub skipped: Vec<String>,
}

/// The device a detected one is predicted on, or why there is none.
fn profile_of(
    report: &DetectionReport,
    d: &DetectedDevice,
    catalog: &DeviceCatalog,
    calibrate: bool,
) -> Result<Device, String> {
    let identity = || MeasuredIdentity {
        id: format!("measured-{}", d.key.replace(':', "-")),
        name: d.name.clone(),
        vendor: String::new(),
        hardware_type: d.hardware_type,
        memory_gb: d.memory_mb as f64 / 1024.0,
    };
    let measured = |m: &crate::Measurement| measured_device(identity(), m);
    let identified = d.catalog_id.as_ref().and_then(|id| catalog.by_id(id));
    let from_facts = || GpuFacts::of_report(report, &d.key).map(|f| f.device());
    match (&d.catalog_id, &d.benchmark) {
        (_, Some(m)) if calibrate => Ok(
            match identified.and_then(|spec| Some((spec, spec_memory_share(spec)?))) {
                // A device the catalog knows keeps its peaks, which every runtime's fitted shares
                // apply to; the measurement lowers only the bandwidth, where the copy shows it slower.
                Some((spec, share)) => calibrated_catalog_device(m, spec, share),
                None => measured(m),
            },
        ),
        (Some(id), _) => catalog
            .by_id(id)
            .cloned()
            .ok_or_else(|| format!("catalog device '{id}' no longer exists (refresh the detection)")),
        // A GPU the catalog cannot name is built from what detection read (peaks the fitted
        // shares apply to), before its microbenchmark (a WGSL kernel far below a big GPU's peak).
        (None, benchmark) => match (from_facts(), benchmark) {
            (Some(Ok(device)), _) => Ok(device),
            (_, Some(m)) => Ok(measured(m)),
            (Some(Err(why)), None) => Err(format!(
                "unknown to the catalog, not benchmarked, and its facts do not describe it: {why}"
            )),
            (None, None) => Err(String::from("unknown to the catalog and not benchmarked")),
        },
    }
}

/// The runtimes installed here that run on `hardware`, preferred first: PyTorch (what most of
/// hwfit's users run), ONNX Runtime, OpenVINO, MLX, then llama.cpp (its binary does not say its
/// back-ends, so the CPU only). PyTorch counts where its build has the back-end (`cuda 13.0`,
/// `rocm 6.2`, `mps`, `cpu`), ONNX Runtime where it has the execution provider.
fn installed_for(hardware: HardwareType, installed: &[InstalledRuntime]) -> Vec<InstalledRuntime> {
    let has = |i: &InstalledRuntime, prefixes: &[&str]| {
        i.builds
            .iter()
            .any(|b| prefixes.iter().any(|p| b.to_ascii_lowercase().starts_with(p)))
    };
    let runs_here = |i: &InstalledRuntime| match (i.runtime, hardware) {
        (Runtime::Pytorch, HardwareType::Cuda) => has(i, &["cuda"]),
        (Runtime::Pytorch, HardwareType::Rocm) => has(i, &["rocm"]),
        (Runtime::Pytorch, HardwareType::Mps) => has(i, &["mps"]),
        (Runtime::Pytorch, HardwareType::Cpu) => has(i, &["cpu"]),
        (Runtime::OnnxRuntime, HardwareType::Cuda) => has(i, &["cudaexecutionprovider", "tensorrtexecutionprovider"]),
        (Runtime::OnnxRuntime, HardwareType::Rocm) => has(i, &["rocmexecutionprovider", "migraphxexecutionprovider"]),
        (Runtime::OnnxRuntime, HardwareType::Mps) => has(i, &["coremlexecutionprovider"]),
        (Runtime::OnnxRuntime, HardwareType::Openvino) => has(i, &["openvinoexecutionprovider"]),
        (Runtime::OnnxRuntime, HardwareType::Cpu) => has(i, &["cpuexecutionprovider"]),
        (Runtime::OpenVino, HardwareType::Openvino | HardwareType::Cpu)
        | (Runtime::Mlx, HardwareType::Mps)
        | (Runtime::LlamaCpp, HardwareType::Cpu) => true,
        _ => false,
    };
    let order = [
        Runtime::Pytorch,
        Runtime::OnnxRuntime,
        Runtime::OpenVino,
        Runtime::Mlx,
        Runtime::LlamaCpp,
    ];
    order
        .iter()
        .flat_map(|r| installed.iter().filter(move |i| i.runtime == *r))
        .filter(|i| runs_here(i))
        .cloned()
        .collect()
}

/// The candidates of `report`: with `calibrate`, every benchmarked device on its measured figures
/// (a device the catalog identified keeps its peaks, its bandwidth lowered where the copy shows it
/// slower: [`calibrated_catalog_device`]).
#[must_use]
pub fn candidates(report: &DetectionReport, catalog: &DeviceCatalog, calibrate: bool) -> DetectedCandidates {
    let mut out = DetectedCandidates {
        candidates: Vec::new(),
        skipped: Vec::new(),
    };
    for d in &report.devices {
        match profile_of(report, d, catalog, calibrate) {
            Ok(mut device) => {
                // The host's cores, as the OS counts them, where the device does not say (a
                // measured profile): what a question's `threads` divides.
                if device.hardware_type == HardwareType::Cpu {
                    device.cpu_cores = device.cpu_cores.or(report.cpu.physical_cores.filter(|c| *c > 0));
                }
                let same = out
                    .candidates
                    .iter()
                    .any(|c| c.device == device || (d.profile == Profile::Catalog && c.device.id == device.id));
                if !same {
                    let installed = installed_for(d.hardware_type, &report.installed_runtimes);
                    out.candidates.push(Candidate {
                        key: d.key.clone(),
                        device,
                        resolved_from: d.resolved_from.clone(),
                        installed,
                    });
                }
            }
            Err(why) => out.skipped.push(format!("{} ({}): {why}", d.key, d.name)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A recorded `hwfit detect --json` report (snake_case, as printed) reads in every build — the
    /// npm package's camelCase one too — and gives its measured CPU as the one candidate.
    #[test]
    fn a_recorded_report_gives_its_devices() {
        let text = include_str!("../../../hwfit-cli/tests/fixtures/detection_ci_2core_llvmpipe.json");
        let report: DetectionReport = serde_json::from_str(text).unwrap();
        let found = candidates(&report, &DeviceCatalog::builtin(), false);
        assert_eq!(found.candidates.len(), 1, "{:?}", found.skipped);
        assert_eq!(found.candidates[0].key, "cpu");
        assert!(found.candidates[0].device.id.starts_with("measured-"));
        // The host's physical cores go with its CPU, so a question's `threads` can divide it.
        assert_eq!(found.candidates[0].device.cpu_cores, report.cpu.physical_cores);
        assert!(report.cpu.physical_cores.is_some());
        let none = DetectionReport {
            devices: Vec::new(),
            ..report
        };
        assert!(candidates(&none, &DeviceCatalog::builtin(), false)
            .candidates
            .is_empty());
    }

    /// The H200's own report and records (2026-11-26: the WGSL matmul at 3 % of the FP32 peak, the
    /// copy at 81 % of the bandwidth; 115 PyTorch steps measured on the same machine): with
    /// `calibrate`, every PyTorch prediction is at least as close to the measurement as the
    /// catalog's, and none is faster.
    #[test]
    fn calibrating_the_h200_never_predicts_worse_than_its_catalog_entry() {
        use crate::perf::{PerfModel, PerfRequest, Runtime};
        use crate::{Catalog, Precision, Workload};
        let text = include_str!("../../../hwfit-cli/tests/fixtures/detection_h200.json");
        let report: DetectionReport = serde_json::from_str(text).unwrap();
        let catalog = DeviceCatalog::builtin();
        let gpu = |calibrate: bool| {
            candidates(&report, &catalog, calibrate)
                .candidates
                .into_iter()
                .find(|c| c.key == "cuda:0")
                .unwrap()
                .device
        };
        let (spec_device, calibrated) = (gpu(false), gpu(true));
        assert_eq!(spec_device.id, "nvidia-h200-sxm");
        assert!(
            calibrated.source.contains("calibrated by hwfit's microbenchmark"),
            "{}",
            calibrated.source
        );
        let records: Vec<serde_json::Value> = serde_json::from_str(include_str!(
            "../../../../data/measured/hwfit_bench_pytorch_cuda_h200.json"
        ))
        .unwrap();
        let (models, perf) = (Catalog::builtin(), PerfModel::builtin().unwrap());
        let mut compared = 0;
        for r in &records {
            let text = |k: &str| r[k].as_str().unwrap_or_default();
            let math = text("math_mode");
            let precision: Precision = math
                .strip_prefix("autocast ")
                .unwrap_or(text("precision"))
                .parse()
                .unwrap();
            let request = PerfRequest {
                precision,
                workload: text("workload").parse::<Workload>().unwrap(),
                batch_size: r["batch_size"].as_u64().unwrap() as u32,
                seq_length: r["sequence_length"].as_u64().unwrap_or(1) as u32,
                runtime: Some(Runtime::Pytorch),
                prompt_chunk: None,
                mixed_precision: None,
            };
            let spec = models.resolve(text("model_name")).unwrap().spec;
            let measured = r["throughput"].as_f64().unwrap();
            let on = |d: &Device| perf.predict(&spec, d, &request).unwrap().throughput;
            let (by_spec, by_calibration) = (on(&spec_device), on(&calibrated));
            let err = |p: f64| libm::fabs(libm::log(p / measured));
            assert!(
                by_calibration <= by_spec * (1.0 + 1e-9),
                "{}: {by_calibration} > {by_spec}",
                text("model_name")
            );
            assert!(
                err(by_calibration) <= err(by_spec) + 0.02,
                "{} {:?}: {by_calibration} vs {by_spec}, measured {measured}",
                text("model_name"),
                request
            );
            compared += 1;
        }
        assert_eq!(compared, records.len());
    }

    /// The H200 machine had PyTorch 2.11 (CUDA 13.0 build) and ONNX Runtime 1.30 (CPU provider):
    /// a question about it naming no runtime is answered for PyTorch on the GPU, and says so; a GGUF
    /// format, which PyTorch does not read, keeps the documented runtime; a named runtime wins.
    #[test]
    fn a_local_question_is_answered_for_the_runtime_installed_here() {
        use crate::api::{Hwfit, PredictRequest};
        use crate::perf::Runtime;
        use crate::Precision;
        let report: DetectionReport =
            serde_json::from_str(include_str!("../../../hwfit-cli/tests/fixtures/detection_h200.json")).unwrap();
        let local = candidates(&report, &DeviceCatalog::builtin(), false).candidates;
        let runtimes = |key: &str| {
            let c = local.iter().find(|c| c.key == key).unwrap();
            c.installed.iter().map(|i| i.runtime).collect::<Vec<_>>()
        };
        assert_eq!(runtimes("cuda:0"), [Runtime::Pytorch]);
        assert_eq!(runtimes("cpu"), [Runtime::Pytorch, Runtime::OnnxRuntime]);
        let hwfit = Hwfit::builtin().unwrap();
        let ask = |precision: Precision, runtime: Option<Runtime>| {
            let req = PredictRequest {
                model_name: String::from("meta-llama/Llama-3.1-8B-Instruct"),
                precision: Some(precision),
                runtime,
                ..PredictRequest::default()
            };
            hwfit.predict(&req, &local).unwrap()
        };
        let answer = ask(Precision::Bf16, None);
        assert_eq!(answer.predictions["cuda:0"].prediction.runtime, Runtime::Pytorch);
        assert!(
            answer
                .notes
                .iter()
                .any(|n| n.starts_with("cuda:0: pytorch — the runtime installed here (pytorch 2.11.0+cu130")),
            "{:?}",
            answer.notes
        );
        let gguf = ask(Precision::Q4KM, None);
        assert_eq!(gguf.predictions["cuda:0"].prediction.runtime, Runtime::LlamaCpp);
        assert!(gguf.notes.iter().all(|n| !n.starts_with("cuda:0")), "{:?}", gguf.notes);
        let named = ask(Precision::Bf16, Some(Runtime::TensorRt));
        assert_eq!(named.predictions["cuda:0"].prediction.runtime, Runtime::TensorRt);
    }

    /// A GPU whose name no catalog has is not dropped: the H200's recorded report with its name
    /// replaced by one no catalog knows and its CUDA core count added (132 SMs × 128, the H200
    /// datasheet; that hwfit version did not record it) is predicted on a device built from its
    /// NVML facts, which says so, and selection with no device named recommends it.
    #[cfg(feature = "device-db")]
    #[test]
    fn a_gpu_the_catalog_cannot_name_is_built_from_its_facts_and_selected() {
        use crate::api::{Hwfit, SelectRequest};
        let mut report: DetectionReport =
            serde_json::from_str(include_str!("../../../hwfit-cli/tests/fixtures/detection_h200.json")).unwrap();
        let gpu = &mut report.cuda.devices[0];
        gpu.name = String::from("NVIDIA Hopper Engineering Sample");
        gpu.cuda_cores = Some(132 * 128);
        let cuda = report.devices.iter_mut().find(|d| d.key == "cuda:0").unwrap();
        cuda.name = gpu.name.clone();
        cuda.catalog_id = None;
        cuda.benchmark = None;
        cuda.profile = Profile::Facts;
        let local = candidates(&report, &DeviceCatalog::bundled().unwrap(), false);
        let built = &local
            .candidates
            .iter()
            .find(|c| c.key == "cuda:0")
            .expect("kept")
            .device;
        assert!(built.id.starts_with("detected-"), "{}", built.id);
        assert!(
            built
                .source
                .starts_with("built from the detected facts (NVML: memory 140.4 GiB, power limit 700 W"),
            "{}",
            built.source
        );
        let hwfit = Hwfit::bundled().unwrap();
        let req = SelectRequest {
            model_name: String::from("meta-llama/Meta-Llama-3-8B"),
            ..SelectRequest::default()
        };
        let selection = hwfit.select(&req, &local.candidates).unwrap();
        assert_eq!(
            selection.primary_recommendation.as_deref(),
            Some("cuda:0"),
            "{selection:?}"
        );
        // Without its core count the GPU cannot be built; unbenchmarked, it is skipped with the reason.
        report.cuda.devices[0].cuda_cores = None;
        let without = candidates(&report, &DeviceCatalog::bundled().unwrap(), false);
        assert!(
            without.skipped.iter().any(|s| s.contains("a shader count and clock")),
            "{:?}",
            without.skipped
        );
    }
}
