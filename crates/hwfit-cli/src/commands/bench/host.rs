//! This machine as the records name it: the CPU as a device from its specifications, and the host's
//! facts (CPU, memory, GPUs with their driver) every record carries.

use anyhow::{Context, Result};
use hwfit_core::device::{DeviceSpec, SpecRates};
use hwfit_core::{Device, HardwareType};
use hwfit_native::DetectionReport;

/// Physical cores (logical where unknown): the default thread count.
pub fn physical_cores(report: &DetectionReport) -> usize {
    report.cpu.physical_cores.unwrap_or(report.cpu.logical_cores).max(1) as usize
}

/// This CPU, as a runner on `threads` threads uses it, as a device from its specifications:
/// peak = the cores used × clock × f32 FLOPs per cycle of its SIMD; bandwidth = the
/// microbenchmark's copy rate (no spec sheet for an unknown host).
pub fn cpu_device(report: &DetectionReport, threads: usize) -> Result<Device> {
    let cpu = &report.cpu;
    let cores = physical_cores(report).min(threads.max(1));
    let mhz = cpu
        .frequency_mhz
        .context("the CPU's clock is unknown, so its peak rate is too")?;
    let per_cycle = hwfit_native::cpu::peak_f32_flops_per_cycle(&cpu.simd);
    let peak_tflops = cores as f64 * mhz as f64 * 1e6 * per_cycle / 1e12;
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
        cpu_cores: None,
    };
    let mut device = spec.to_device()?;
    device.class = String::from("host");
    device.notes = None;
    device.source = format!(
        "this host: peak = {cores} core(s) the runner uses × {mhz} MHz × {per_cycle} f32 FLOP/cycle ({}); bandwidth = hwfit's copy microbenchmark",
        cpu.simd.join(", ")
    );
    Ok(device)
}

/// The host's facts: CPU, memory, OS, hwfit, the threads used, and the GPUs with their drivers
/// (NVML's and ROCm's view) when the run is on one.
pub fn facts(report: &DetectionReport, threads: usize, on_gpu: bool) -> serde_json::Value {
    let mut facts = serde_json::json!({
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
        "threads": threads,
    });
    if on_gpu {
        if report.cuda.available {
            facts["nvidia"] = serde_json::json!({
                "driver_version": report.cuda.driver_version,
                "cuda_version": report.cuda.cuda_version,
                "gpus": report.cuda.devices,
            });
        }
        if report.rocm.available {
            facts["rocm"] = serde_json::json!({ "gpus": report.rocm.devices });
        }
    }
    facts
}

/// The name of the GPU of `hardware` the run uses (the first one), from the detection.
pub fn gpu_name(report: &DetectionReport, hardware: HardwareType) -> Option<String> {
    match hardware {
        HardwareType::Cuda => report.cuda.devices.first().map(|d| d.name.clone()),
        HardwareType::Rocm => report.rocm.devices.first().map(|d| d.name.clone()),
        _ => report.gpus.first().map(|g| g.adapter.name.clone()),
    }
}

/// The current time, RFC 3339.
pub fn now_rfc3339() -> String {
    time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}
