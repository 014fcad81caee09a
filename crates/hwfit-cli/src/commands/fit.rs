//! `hwfit fit`: fit the performance model to the measured data (`data/measured/`, embedded) and
//! report its accuracy. The rules and the fit are the core's (`hwfit_core::perf::fitting`).

use anyhow::{Context, Result};
use hwfit_core::perf::fit::Accuracy;
use hwfit_core::perf::fitting::{fit_model, FitReport, MeasuredData};

use crate::cli::FitArgs;
use crate::output;

/// The public measurements the model is fitted to (with `hwfit bench`'s records, read at run time).
pub const MEASURED: MeasuredData<'static> = MeasuredData {
    llm_tokens_per_second: include_str!("../../../../data/measured/llm_tokens_per_second.csv"),
    llamacpp_cpu: include_str!("../../../../data/measured/llamacpp_cpu.csv"),
    mlperf_offline: include_str!("../../../../data/measured/mlperf_inference_v4_1_offline.csv"),
    webllm_vram: include_str!("../../../../data/measured/webllm_vram_requirements.csv"),
    browser_measurements: include_str!("../../../../data/measured/browser_measurements.csv"),
    browser_cases: include_str!("../../../../data/measured/browser_cases.csv"),
    browser_engines: include_str!("../../../../data/measured/browser_engines.csv"),
    llamacpp_wasm: include_str!("../../../../data/measured/llamacpp_wasm.csv"),
    runtime_steps: include_str!("../../../../data/measured/runtime_steps.csv"),
    moe_steps: include_str!("../../../../data/measured/moe_steps.csv"),
    runner_steps: &[],
};

fn describe(a: &Accuracy) -> String {
    format!(
        "{:.0} % of {} within ±25 %, median |ln error| {:.3} (×{:.2})",
        a.within_25_percent * 100.0,
        a.samples,
        a.median_abs_log_error,
        a.median_abs_log_error.exp()
    )
}

/// Per runtime: its fitted step costs and how well they predict, in-sample and held out.
fn runtime_table(report: &FitReport) -> comfy_table::Table {
    let mut table = output::table([
        "runtime",
        "hardware",
        "rows",
        "devices",
        "sources",
        "compute",
        "compute fp32",
        "memory",
        "µs/operator",
        "ms/step",
        "in-sample ±25 %",
        "without host costs ±25 %",
        "leave-one-source-out ±25 %",
        "leave-one-device-out ±25 %",
    ]);
    for r in &report.runtimes.runtimes {
        let c = report.coefficients.runtime(r.runtime, r.hardware);
        let coefficient = |f: fn(&hwfit_core::perf::RuntimeCoefficients) -> f64| {
            c.map_or(String::from("-"), |c| format!("{:.3}", f(c)))
        };
        table.add_row([
            r.runtime.to_string(),
            r.hardware.to_string(),
            r.rows.to_string(),
            r.devices.to_string(),
            r.sources.to_string(),
            coefficient(|c| c.compute),
            coefficient(|c| c.compute_fp32),
            coefficient(|c| c.memory),
            coefficient(|c| c.operator_us),
            coefficient(|c| c.step_ms),
            share(&r.in_sample),
            share(&r.class_model),
            share(&r.leave_one_source_out),
            share(&r.leave_one_device_out),
        ]);
    }
    table
}

/// A share within ±25 % with the median error factor, or `-` without rows.
fn share(a: &Accuracy) -> String {
    if a.samples == 0 {
        String::from("-")
    } else {
        format!(
            "{:.0} % (×{:.2})",
            a.within_25_percent * 100.0,
            a.median_abs_log_error.exp()
        )
    }
}

/// Per hardware type and workload class: the fit's own coefficients against the pooled ones, each
/// device left out.
fn cell_table(report: &FitReport) -> comfy_table::Table {
    let mut table = output::table([
        "workload class",
        "hardware",
        "rows",
        "devices",
        "in-sample ±25 %",
        "leave-one-device-out ±25 %",
        "pooled, leave-one-device-out ±25 %",
    ]);
    for c in &report.by_cell {
        table.add_row([
            format!("{:?}", c.class).to_lowercase(),
            c.hardware.to_string(),
            c.in_sample.samples.to_string(),
            c.devices.to_string(),
            share(&c.in_sample),
            share(&c.leave_one_device_out),
            share(&c.pooled_leave_one_device_out),
        ]);
    }
    table
}

/// Runs the fit, optionally writing the coefficients.
pub fn run(args: &FitArgs) -> Result<()> {
    let catalog = hwfit_core::Catalog::builtin();
    let devices = hwfit_core::DeviceCatalog::bundled()?;
    let runner_steps = hwfit_learn::records::runner_steps(&catalog, &devices)?;
    let report: FitReport = fit_model(&MeasuredData {
        runner_steps: &runner_steps,
        ..MEASURED
    })?;
    if let Some(path) = &args.write {
        let json = serde_json::to_string_pretty(&report.coefficients)? + "\n";
        std::fs::write(path, json).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        return output::json(&report);
    }
    let mut table = output::table([
        "workload class",
        "hardware",
        "compute efficiency",
        "memory efficiency",
        "overhead ms",
        "",
    ]);
    let row = |table: &mut comfy_table::Table, class: &str, hw: String, e: &hwfit_core::perf::Efficiency| {
        table.add_row([
            class.to_string(),
            hw,
            format!("{:.3}", e.compute),
            format!("{:.3}", e.memory),
            format!("{:.3}", e.overhead_ms),
            String::new(),
        ]);
    };
    for (class, c) in [
        ("generate", &report.coefficients.generate),
        ("forward", &report.coefficients.forward),
    ] {
        for (hw, e) in &c.by_hardware {
            row(&mut table, class, hw.to_string(), e);
        }
        if let Some(p) = &c.pooled {
            row(&mut table, class, "(pooled)".into(), p);
        }
    }
    output::text(&table.to_string());
    output::text(&format!(
        "in-sample:                       {}",
        describe(&report.in_sample)
    ));
    output::text(&format!(
        "leave-one-device-out validation: {}",
        describe(&report.cross_validated_by_device)
    ));
    output::text(&cell_table(&report).to_string());
    let moe = &report.mixture_of_experts;
    output::text(&format!(
        "mixture of experts, held out (moe_steps.csv): decode {}; all rows {}; dense rows beside them {}",
        describe(&moe.mixture_of_experts_decode),
        describe(&moe.mixture_of_experts),
        describe(&moe.dense)
    ));
    let m = &report.memory;
    output::text(&format!(
        "web-llm memory: WebGPU runtime allowance {} MB (median residual over {} figures); estimates {:.0} % within ±25 %, median |ln error| {:.3}",
        m.webgpu_runtime_overhead_mb,
        m.samples.len(),
        m.within_25_percent * 100.0,
        m.median_abs_log_error
    ));
    if let Some(b) = &report.coefficients.browser {
        let v = &report.browser;
        output::text(&format!(
            "browser step model: {:.1} µs per WebGPU dispatch, {:.2} ms per round trip, WebGPU at {:.1} % of peak, WASM at {:.1} % of its SIMD peak, {:.1} ms per pipeline on the first call",
            b.dispatch_us,
            b.sync_ms,
            b.webgpu_compute * 100.0,
            b.wasm_compute * 100.0,
            b.compile_ms
        ));
        output::text(&format!(
            "  against {} WebGPU/WASM pairs ({} with a faster back-end): right back-end {:.0} % in-sample, {:.0} % leaving each source out; median |ln speed-up error| {:.2}",
            v.cases,
            v.decided,
            v.right_in_sample * 100.0,
            v.right_leave_one_source_out * 100.0,
            v.median_abs_log_error
        ));
        for e in &report.browser_engines {
            let errors: Vec<String> = e
                .sources
                .iter()
                .filter_map(|s| s.median_abs_log_error.map(|x| format!("×{:.1}", x.exp())))
                .collect();
            output::text(&format!(
                "  {}: +{:.1} ms per WebGPU round trip beside Chromium's ({} pairs, {} sources; each source from the others: {})",
                e.engine.display_name(),
                e.extra_round_trip_ms,
                e.pairs,
                e.sources.len(),
                if errors.is_empty() { String::from("no other source") } else { errors.join(", ") }
            ));
        }
        if let (Some(k), Some(v)) = (&b.llama_cpp_wasm, &report.llamacpp_wasm) {
            let kernels: Vec<String> = k
                .kernels
                .iter()
                .map(|s| format!("{} {:.1} %", s.kernel, s.share * 100.0))
                .collect();
            output::text(&format!(
                "  llama.cpp's WebAssembly build: {} of its SIMD peak per thread; other SIMD kernels {:.1} %, generic kernels {:.1} % ({} decode steps, {} models)",
                kernels.join(", "),
                k.simd * 100.0,
                k.generic * 100.0,
                v.rows,
                v.models
            ));
            let engines: Vec<String> = v
                .other_engines
                .iter()
                .map(|e| format!("{} ×{:.1} ({} rows)", e.engine, e.median_ratio, e.accuracy.samples))
                .collect();
            output::text(&format!(
                "    in-sample {}; leaving each model out {}; at ONNX Runtime Web's share {}; prefill, held out {}; other engines, held out (median predicted/measured): {}",
                describe(&v.in_sample),
                describe(&v.leave_one_model_out),
                describe(&v.onnx_runtime_web_share),
                describe(&v.prefill_held_out),
                engines.join(", ")
            ));
        }
    }
    output::text(&runtime_table(&report).to_string());
    for r in &report.runtimes.runtimes {
        if let Some(donor) = &r.host_costs_from {
            output::text(&format!(
                "{} on {}: host costs (µs/operator, ms/step, training factors) of {donor}, its device shares fitted to its {} rows (leaving each source out, they beat host costs fitted to those rows)",
                r.runtime, r.hardware, r.rows
            ));
        }
    }
    if let Some(t) = &report.database_twins {
        output::text(&format!(
            "device database: the {} measured curated devices predicted from their database rows alone: {}; on the curated entries: {} (both leave-one-device-out)",
            t.devices.len(),
            describe(&t.database),
            describe(&t.curated)
        ));
    }
    output::text(&format!(
        "{} rows excluded (--json lists them with reasons)",
        report.excluded.len()
    ));
    Ok(())
}
