//! `hwfit bench`: catalog models through tract on this CPU, and the microbenchmark figures, stored
//! in the benchmark database with the host's facts.

use std::time::Duration;

use anyhow::{bail, Context, Result};
use hwfit_core::device::{DeviceSpec, SpecRates};
use hwfit_core::{Catalog, Device, HardwareType, Workload};
use hwfit_db::BenchmarkRecord;
use hwfit_learn::runner::{build, run, RunConfig, Timing};
use hwfit_native::{BenchConfig, BenchmarkScope, DetectionReport};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::cli::BenchArgs;
use crate::output;

/// Models measured when none are named: small enough for 2 cores in about a minute.
const DEFAULT_MODELS: [&str; 4] = [
    "sentence-transformers/all-MiniLM-L6-v2",
    "bert-base-uncased",
    "gpt2",
    "resnet-50",
];

/// Threads tract runs a graph on (its plans run on the calling thread).
const RUNNER_THREADS: u32 = 1;

/// Seed of the random weights.
const WEIGHT_SEED: u64 = 7;

/// One case to run.
#[derive(Debug, Clone)]
struct Case {
    model: String,
    workload: Workload,
    batch: u32,
    seq: u32,
}

/// One case's outcome.
#[derive(Serialize)]
struct Outcome {
    model: String,
    workload: Workload,
    batch_size: u32,
    sequence_length: u32,
    #[serde(flatten)]
    timing: Timing,
}

fn cases(args: &BenchArgs, catalog: &Catalog) -> Result<Vec<Case>> {
    let names: Vec<String> = if args.models.is_empty() {
        DEFAULT_MODELS.iter().map(|s| (*s).to_string()).collect()
    } else {
        args.models.clone()
    };
    if args.batch_sizes.iter().chain(&args.seq_lengths).any(|&n| n == 0) {
        bail!("batch sizes and sequence lengths must be at least 1");
    }
    let mut out = Vec::new();
    for name in names {
        let model = catalog.resolve(&name).with_context(|| format!("--model {name}"))?;
        let spec = &model.spec;
        if args.family.is_some_and(|f| f != spec.family) {
            continue;
        }
        let workloads: &[Workload] = if spec.is_generative() {
            &[Workload::Prefill, Workload::Decode]
        } else {
            &[Workload::Forward]
        };
        let images = spec.conv_nets().next().is_some();
        for &workload in workloads {
            for &batch in &args.batch_sizes {
                // Images have no sequence; one case per batch size.
                let seqs: &[u32] = if images { &[1] } else { &args.seq_lengths };
                for &seq in seqs {
                    out.push(Case {
                        model: spec.name.clone(),
                        workload,
                        batch,
                        seq,
                    });
                }
            }
        }
    }
    if out.is_empty() {
        bail!("no model left to measure (check --model and --family)");
    }
    Ok(out)
}

/// This CPU, as the runner uses it, as a device from its specifications: peak = the cores tract
/// uses × clock × f32 FLOPs per cycle of its SIMD; bandwidth = the microbenchmark's copy rate (no
/// spec sheet for an unknown host).
fn host_device(report: &DetectionReport) -> Result<Device> {
    let cpu = &report.cpu;
    let cores = cpu.physical_cores.unwrap_or(cpu.logical_cores).clamp(1, RUNNER_THREADS);
    let mhz = cpu
        .frequency_mhz
        .context("the CPU's clock is unknown, so its peak rate is too")?;
    let per_cycle = hwfit_native::cpu::peak_f32_flops_per_cycle(&cpu.simd);
    let peak_tflops = f64::from(cores) * mhz as f64 * 1e6 * per_cycle / 1e12;
    let copy = report
        .cpu_benchmark
        .as_ref()
        .map(|m| m.copy_gbs)
        .context("the CPU microbenchmark did not run")?;
    let spec = DeviceSpec {
        name: Some(format!("host {} ({cores} thread)", cpu.brand)),
        hardware_type: HardwareType::Cpu,
        vendor: Some(cpu.vendor.clone()),
        memory_gb: report.memory.total_mb as f64 / 1024.0,
        memory_bandwidth_gbs: copy,
        dense_tflops: SpecRates {
            fp32: peak_tflops,
            fp16: None,
            fp16_acc16: None,
            bf16: None,
            fp8: None,
            int8: None,
        },
        tdp_w: None,
    };
    let mut device = spec.to_device()?;
    device.class = String::from("host");
    device.notes = None;
    device.source = format!(
        "this host: peak = {cores} core(s) tract uses × {mhz} MHz × {per_cycle} f32 FLOP/cycle ({}); bandwidth = hwfit's copy microbenchmark",
        cpu.simd.join(", ")
    );
    Ok(device)
}

fn host_facts(report: &DetectionReport) -> serde_json::Value {
    serde_json::json!({
        "cpu": report.cpu.brand,
        "cpu_vendor": report.cpu.vendor,
        "physical_cores": report.cpu.physical_cores,
        "logical_cores": report.cpu.logical_cores,
        "frequency_mhz": report.cpu.frequency_mhz,
        "simd": report.cpu.simd,
        "memory_mb": report.memory.total_mb,
        "os": std::env::consts::OS,
        "arch": std::env::consts::ARCH,
        "hwfit": env!("CARGO_PKG_VERSION"),
        "tract_onnx": "0.23",
        "threads": RUNNER_THREADS,
    })
}

fn now_rfc3339() -> String {
    time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

fn record(
    case: &Case,
    timing: &Timing,
    device: &Device,
    host: &serde_json::Value,
    catalog: &Catalog,
) -> BenchmarkRecord {
    let mut r = BenchmarkRecord::new(&case.model, &device.name, "tract", "measured here (hwfit bench)");
    let spec = catalog.resolve(&case.model).ok().map(|m| m.spec.clone());
    r.model_family = spec.as_ref().map(|s| s.family.to_string());
    r.model_parameters_m = spec.as_ref().map(|s| s.parameters() as f64 / 1e6);
    r.model_architecture = spec.and_then(|s| serde_json::to_value(s).ok());
    r.device.clone_from(&device.id);
    r.device_profile = serde_json::to_value(device).ok();
    r.hardware_type = Some(String::from("cpu"));
    r.precision = Some(String::from("fp32"));
    r.workload = Some(case.workload.to_string());
    r.batch_size = Some(case.batch);
    r.sequence_length = Some(case.seq);
    r.throughput = Some(timing.throughput);
    r.throughput_unit = Some(String::from(match case.workload {
        Workload::Prefill | Workload::Decode => "tokens/s",
        _ => "items/s",
    }));
    r.latency_mean_ms = Some(timing.mean_ms);
    r.latency_p50_ms = Some(timing.p50_ms);
    r.latency_p90_ms = Some(timing.p90_ms);
    r.host = Some(host.clone());
    r.measured_at = Some(now_rfc3339());
    r.notes = Some(format!(
        "random weights at the catalog architecture ({} parameters in the graph); {} timed runs after 1 warm-up",
        timing.parameters, timing.runs
    ));
    r
}

/// The microbenchmark figures of every benchmarked device, as records.
fn microbenchmark_records(report: &DetectionReport, host: &serde_json::Value) -> Vec<BenchmarkRecord> {
    let mut out = Vec::new();
    for d in &report.devices {
        let Some(m) = &d.benchmark else { continue };
        for (what, value, unit) in [
            ("f32 matmul", m.matmul_f32_gflops, "GFLOP/s"),
            ("memory copy", m.copy_gbs, "GB/s"),
        ] {
            let mut r = BenchmarkRecord::new(
                &format!("hwfit microbenchmark: {what}"),
                &d.name,
                "hwfit microbenchmark",
                "measured here (hwfit detect --benchmark)",
            );
            r.device = d.catalog_id.clone().unwrap_or_else(|| d.key.clone());
            r.hardware_type = Some(d.hardware_type.to_string());
            r.precision = Some(String::from("fp32"));
            r.throughput = Some(value);
            r.throughput_unit = Some(String::from(unit));
            r.host = Some(host.clone());
            r.measured_at = Some(now_rfc3339());
            r.notes = Some(m.method.clone());
            out.push(r);
        }
    }
    out
}

/// Runs `hwfit bench`.
pub fn run_bench(args: &BenchArgs) -> Result<()> {
    let catalog = Catalog::builtin();
    let cases = cases(args, &catalog)?;
    let scope = if args.no_microbenchmark {
        BenchmarkScope::Cpu
    } else {
        BenchmarkScope::All
    };
    let report = hwfit_native::probe(scope, &BenchConfig::default(), None);
    let device = host_device(&report)?;
    let host = host_facts(&report);
    let config = RunConfig {
        budget: Duration::from_millis(args.budget_ms),
        ..RunConfig::default()
    };
    let bar = if args.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(cases.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut outcomes = Vec::new();
    let mut records = if args.no_microbenchmark {
        Vec::new()
    } else {
        microbenchmark_records(&report, &host)
    };
    for case in &cases {
        bar.set_message(format!(
            "{} {} b{} s{}",
            case.model, case.workload, case.batch, case.seq
        ));
        let spec = &catalog.resolve(&case.model)?.spec;
        let graph = build(spec, case.workload, case.batch, case.seq, WEIGHT_SEED)?;
        let timing = run(graph, &config).with_context(|| format!("{} {}", case.model, case.workload))?;
        records.push(record(case, &timing, &device, &host, &catalog));
        outcomes.push(Outcome {
            model: case.model.clone(),
            workload: case.workload,
            batch_size: case.batch,
            sequence_length: case.seq,
            timing,
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    if let Some(path) = &args.output {
        let text = serde_json::to_string_pretty(&records)?;
        std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))?;
    }
    let stored = if args.no_store {
        None
    } else {
        let (url, mut store) = super::db::database(&args.database)?;
        let inserted = store.insert(&records, "hwfit bench")?;
        Some((url, inserted))
    };
    if args.json {
        return output::json(&serde_json::json!({
            "device": device,
            "host": host,
            "results": outcomes,
            "records": records.len(),
            "database": stored.as_ref().map(|(url, _)| url),
        }));
    }
    output::text(&format!("{} — {}", device.name, device.source));
    let mut table = output::table([
        "model",
        "workload",
        "batch",
        "seq",
        "p50 ms",
        "p90 ms",
        "throughput",
        "runs",
    ]);
    for o in &outcomes {
        table.add_row([
            o.model.clone(),
            o.workload.to_string(),
            o.batch_size.to_string(),
            o.sequence_length.to_string(),
            format!("{:.2}", o.timing.p50_ms),
            format!("{:.2}", o.timing.p90_ms),
            format!("{:.1}", o.timing.throughput),
            o.timing.runs.to_string(),
        ]);
    }
    output::text(&table.to_string());
    if let Some((url, inserted)) = stored {
        output::text(&format!(
            "{} records stored in {url} ({} new)",
            records.len(),
            inserted.added
        ));
    }
    Ok(())
}
