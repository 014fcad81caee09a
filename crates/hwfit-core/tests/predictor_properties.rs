//! Property tests of the analytic model over the catalogs: every valid request gives finite, positive
//! numbers; throughput never exceeds the roofline; more memory never makes a model fit less.
//!
//! Each request is classified before it is sent: the refusals it must get are decided from the request
//! alone (the hardware type's precision table, whether the model generates text, which precisions can
//! be trained). A request with no refusal must be predicted; one with refusals must be refused with one
//! of them. So a property cannot pass by every request failing.

use hwfit_core::compat::supported_precisions;
use hwfit_core::{
    Catalog, CoreError, Device, DeviceCatalog, ModelSpec, PerfModel, PerfRequest, Precision, Prediction, Runtime,
    Workload,
};
use proptest::prelude::*;

fn workloads() -> impl Strategy<Value = Workload> {
    prop::sample::select(vec![
        Workload::Forward,
        Workload::Prefill,
        Workload::Decode,
        Workload::TrainStep,
    ])
}

/// A refusal the request must get, decided without the predictor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refusal {
    /// Training at a precision other than fp32, fp16 or bf16.
    Untrainable,
    /// A precision missing from the hardware type's table (and not the answering runtime's own).
    UnsupportedPrecision,
    /// Prefill or decode on a model that generates no text.
    NotGenerative,
}

/// Every refusal that applies to the request (empty: it must be predicted).
fn refusals(spec: &ModelSpec, device: &Device, req: &PerfRequest) -> Vec<Refusal> {
    let mut out = Vec::new();
    let trainable = matches!(req.precision, Precision::Fp32 | Precision::Fp16 | Precision::Bf16);
    if req.workload == Workload::TrainStep && !trainable {
        out.push(Refusal::Untrainable);
    }
    // The hardware type's table decides, unless the runtime answering brings its own kernels for
    // the format (llama.cpp's GGUF types on an Intel GPU).
    let runtime = req
        .runtime
        .unwrap_or(Runtime::default_for(device.hardware_type, req.workload, req.precision));
    if !supported_precisions(device.hardware_type)
        .iter()
        .any(|(p, _)| *p == req.precision)
        && !runtime.brings_kernels_for(req.precision, device.hardware_type)
    {
        out.push(Refusal::UnsupportedPrecision);
    }
    if matches!(req.workload, Workload::Prefill | Workload::Decode) && !spec.is_generative() {
        out.push(Refusal::NotGenerative);
    }
    out
}

/// Which refusal an error is, checking that it names the request's values.
fn refusal_of(err: &CoreError, device: &Device, req: &PerfRequest) -> Option<Refusal> {
    match err {
        CoreError::UntrainablePrecision { precision } if *precision == req.precision.as_str() => {
            Some(Refusal::Untrainable)
        }
        CoreError::UnsupportedPrecision {
            hardware, precision, ..
        } if *hardware == device.hardware_type.as_str() && *precision == req.precision.as_str() => {
            Some(Refusal::UnsupportedPrecision)
        }
        CoreError::WorkloadMismatch { workload, .. } if *workload == req.workload.as_str() => {
            Some(Refusal::NotGenerative)
        }
        _ => None,
    }
}

/// Checks the answer against the classification: refused with one of the expected refusals, or
/// predicted when none applies. Returns the prediction, if there is one.
fn check_answer(
    spec: &ModelSpec,
    device: &Device,
    req: &PerfRequest,
    answer: Result<Prediction, CoreError>,
) -> Result<Option<Prediction>, TestCaseError> {
    let expected = refusals(spec, device, req);
    match answer {
        Ok(p) => {
            prop_assert!(
                expected.is_empty(),
                "{} on {} {req:?}: predicted, but must be refused ({expected:?})",
                spec.name,
                device.id
            );
            Ok(Some(p))
        }
        Err(e) => {
            let got = refusal_of(&e, device, req);
            prop_assert!(
                got.is_some_and(|r| expected.contains(&r)),
                "{} on {} {req:?}: refused with '{e}', expected {expected:?}",
                spec.name,
                device.id
            );
            Ok(None)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn predictions_are_finite_positive_and_under_the_roofline(
        model in 0usize..1000,
        device in 0usize..1000,
        precision in prop::sample::select(Precision::ALL.to_vec()),
        workload in workloads(),
        batch in 1u32..=512,
        seq in 1u32..=8192,
    ) {
        let catalog = Catalog::builtin();
        let devices = DeviceCatalog::builtin();
        let spec = &catalog.entries()[model % catalog.entries().len()].spec().clone();
        let device = &devices.devices()[device % devices.devices().len()];
        let seq = seq.min(spec.max_positions.max(1));
        let req = PerfRequest { precision, workload, batch_size: batch, seq_length: seq, runtime: None, prompt_chunk: None, mixed_precision: None };
        let answer = PerfModel::builtin().unwrap().predict(spec, device, &req);
        if let Some(p) = check_answer(spec, device, &req, answer)? {
            for v in [p.throughput, p.latency, p.memory_usage, p.flops_per_step, p.bytes_per_step, p.roofline_throughput] {
                prop_assert!(v.is_finite() && v > 0.0, "{v} in {p:?}");
            }
            prop_assert!(p.throughput <= p.roofline_throughput * 1.0001, "{p:?}");
            prop_assert_eq!(p.fits_in_memory, p.memory_usage <= p.memory_capacity);
        }
    }

    #[test]
    fn more_memory_never_fits_less(
        model in 0usize..1000,
        device in 0usize..1000,
        precision in prop::sample::select(Precision::ALL.to_vec()),
        batch in 1u32..=64,
        extra_gb in 0.0f64..1024.0,
    ) {
        let catalog = Catalog::builtin();
        let devices = DeviceCatalog::builtin();
        let spec = catalog.entries()[model % catalog.entries().len()].spec().clone();
        let small = devices.devices()[device % devices.devices().len()].clone();
        let mut big = small.clone();
        big.memory_gb += extra_gb;
        let req = PerfRequest { precision, workload: Workload::Forward, batch_size: batch, seq_length: spec.max_positions.clamp(1, 128), runtime: None, prompt_chunk: None, mixed_precision: None };
        let perf = PerfModel::builtin().unwrap();
        let a = check_answer(&spec, &small, &req, perf.predict(&spec, &small, &req))?;
        let b = check_answer(&spec, &big, &req, perf.predict(&spec, &big, &req))?;
        prop_assert_eq!(a.is_some(), b.is_some(), "memory size changed whether {} is refused", spec.name);
        if let (Some(a), Some(b)) = (a, b) {
            prop_assert!(!a.fits_in_memory || b.fits_in_memory);
            prop_assert!((a.memory_usage - b.memory_usage).abs() < f64::EPSILON);
        }
    }
}

/// The classification itself must not be degenerate: known requests land in each class, and the
/// predictor agrees.
#[test]
fn every_class_of_request_occurs_and_is_answered_as_classified() {
    let catalog = Catalog::builtin();
    let devices = DeviceCatalog::builtin();
    let perf = PerfModel::builtin().unwrap();
    let cases = [
        ("gpt2", "RTX 4090", Precision::Fp16, Workload::Decode, vec![]),
        ("bert-base-uncased", "T4", Precision::Fp32, Workload::Forward, vec![]),
        ("gpt2", "RTX 4090", Precision::Bf16, Workload::TrainStep, vec![]),
        (
            "gpt2",
            "RTX 4090",
            Precision::Int4,
            Workload::TrainStep,
            vec![Refusal::Untrainable],
        ),
        (
            "gpt2",
            "M2 Ultra 76-core",
            Precision::Fp8,
            Workload::Forward,
            vec![Refusal::UnsupportedPrecision],
        ),
        (
            "bert-base-uncased",
            "T4",
            Precision::Fp16,
            Workload::Decode,
            vec![Refusal::NotGenerative],
        ),
        (
            "bert-base-uncased",
            "M2 Ultra 76-core",
            Precision::Fp8,
            Workload::Prefill,
            vec![Refusal::UnsupportedPrecision, Refusal::NotGenerative],
        ),
    ];
    for (model, device, precision, workload, expected) in cases {
        let spec = catalog.resolve(model).unwrap().spec;
        let device = devices.resolve(device).unwrap();
        let req = PerfRequest {
            precision,
            workload,
            batch_size: 1,
            seq_length: 128,
            runtime: None,
            prompt_chunk: None,
            mixed_precision: None,
        };
        assert_eq!(
            refusals(&spec, device, &req),
            expected,
            "{model} on {} {req:?}",
            device.id
        );
        match perf.predict(&spec, device, &req) {
            Ok(_) => assert!(expected.is_empty(), "{model} on {} {req:?} was predicted", device.id),
            Err(e) => assert!(
                refusal_of(&e, device, &req).is_some_and(|r| expected.contains(&r)),
                "{model} on {} {req:?}: {e}",
                device.id
            ),
        }
    }
}
