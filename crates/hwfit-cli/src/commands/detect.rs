//! `hwfit detect`.

use std::time::Duration;

use anyhow::Result;
use hwfit_core::Measurement;
use hwfit_native::{BenchmarkScope, DetectOptions, DetectionReport, Origin};

use crate::cli::DetectArgs;
use crate::output;

/// Detects (from the cache unless `--refresh`/`--no-cache`) and prints.
pub fn run(args: &DetectArgs) -> Result<()> {
    let detection = hwfit_native::detect(&DetectOptions {
        benchmark: if args.benchmark {
            BenchmarkScope::All
        } else {
            BenchmarkScope::None
        },
        // An interpreter named now is asked now, not read from an older report.
        refresh: args.refresh || args.python.is_some(),
        cache: if args.no_cache {
            None
        } else {
            hwfit_native::cache::default_path()
        },
        max_age: Duration::from_secs(args.max_age),
        python: args.python.clone(),
        ..DetectOptions::default()
    });
    for w in &detection.warnings {
        output::note(w);
    }
    if let Origin::Cache(path) = &detection.origin {
        output::note(&format!(
            "from the cache {} (use --refresh to probe again)",
            path.display()
        ));
    }
    if args.json {
        return output::json(&detection.report);
    }
    print_text(&detection.report);
    Ok(())
}

fn bench(m: Option<&Measurement>) -> String {
    m.map_or_else(
        || "-".into(),
        |m| {
            let f16 = m.matmul_f16_gflops.map(|g| format!(", f16 {g:.1}")).unwrap_or_default();
            format!("f32 {:.1}{f16} GFLOP/s, {:.1} GB/s", m.matmul_f32_gflops, m.copy_gbs)
        },
    )
}

fn print_text(r: &DetectionReport) {
    let present: Vec<String> = r.available.present().map(|h| h.to_string()).collect();
    output::text(&format!("hardware: {}", present.join(", ")));
    output::text(&format!("torch_device: {}", r.torch_device));
    let c = &r.cpu;
    output::text(&format!(
        "cpu: {} ({}, {} physical / {} logical cores, {} socket(s)); SIMD: {}",
        c.brand,
        c.architecture,
        c.physical_cores.map_or("?".into(), |n| n.to_string()),
        c.logical_cores,
        c.sockets.map_or("?".into(), |n| n.to_string()),
        if c.simd.is_empty() {
            "-".into()
        } else {
            c.simd.join(" ")
        }
    ));
    output::text(&format!(
        "memory: {} total, {} available",
        output::mb(r.memory.total_mb as f64),
        output::mb(r.memory.available_mb as f64)
    ));
    let absent = |name: &str, reason: Option<&String>| {
        output::text(&format!("{name}: not present ({})", reason.map_or("", String::as_str)));
    };
    if !r.cuda.available {
        absent("cuda", r.cuda.reason.as_ref());
    }
    if !r.rocm.available {
        absent("rocm", r.rocm.reason.as_ref());
    }
    if !r.mps.available {
        absent("mps", r.mps.reason.as_ref());
    }
    for (name, rt) in [("openvino", &r.openvino), ("qnn", &r.qnn)] {
        output::text(&match &rt.library {
            Some(lib) => format!("{name}: {lib} ({})", rt.version.as_deref().unwrap_or("version unknown")),
            None => format!("{name}: runtime library not found"),
        });
    }
    if r.installed_runtimes.is_empty() {
        output::text("frameworks: none found (PyTorch, ONNX Runtime, OpenVINO, MLX in Python; llama.cpp on PATH)");
    }
    for rt in &r.installed_runtimes {
        let builds = if rt.builds.is_empty() {
            String::new()
        } else {
            format!(" ({})", rt.builds.join(", "))
        };
        output::text(&format!("{}: {}{builds} — {}", rt.runtime, rt.version, rt.location));
    }
    let mut devices = output::table(["device", "name", "type", "memory", "profile", "catalog", "measured"]);
    for d in &r.devices {
        devices.add_row([
            d.key.clone(),
            d.name.clone(),
            d.hardware_type.to_string(),
            output::mb(d.memory_mb as f64),
            format!("{:?}", d.profile).to_lowercase(),
            d.catalog_id.clone().unwrap_or_else(|| "-".into()),
            bench(d.benchmark.as_ref()),
        ]);
    }
    output::text(&devices.to_string());
    let mut gpus = output::table(["#", "adapter", "backend", "type", "features", "max binding", "measured"]);
    for (i, g) in r.gpus.iter().enumerate() {
        gpus.add_row([
            i.to_string(),
            g.adapter.name.clone(),
            g.adapter.backend.clone(),
            g.adapter.device_type.clone(),
            g.adapter.features.join(" "),
            output::mb(g.adapter.limits.max_storage_buffer_binding_size as f64 / 1_048_576.0),
            g.benchmark.as_ref().map_or_else(
                || g.benchmark_note.clone().unwrap_or_else(|| "-".into()),
                |m| bench(Some(m)),
            ),
        ]);
    }
    if r.gpus.is_empty() {
        output::text("wgpu adapters: none");
    } else {
        output::text(&gpus.to_string());
    }
}
