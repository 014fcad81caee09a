//! `hwfit detect` on this machine, checked against the kernel's own view (`/proc/cpuinfo`,
//! `/proc/meminfo`), the detection cache, and `select`/`predict` on detected hardware.

use std::collections::BTreeSet;
use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

use super::repo_root;

const FIXTURE: &str = "crates/hwfit-cli/tests/fixtures/detection_ci_2core_llvmpipe.json";

/// `hwfit` with its cache in `cache_dir`.
fn hwfit(cache_dir: &Path, args: &[&str]) -> std::process::Output {
    Command::cargo_bin("hwfit")
        .unwrap()
        .env("HWFIT_CACHE_DIR", cache_dir)
        .env_remove("HWFIT_DETECTION")
        .args(args)
        .output()
        .unwrap()
}

fn json_of(out: &std::process::Output) -> Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

/// Says on stderr that a host-dependent check did not run on this machine, and why.
#[allow(clippy::print_stderr)] // the test's own report, shown by `cargo test -- --nocapture` and in CI logs
fn skipped(test: &str, why: &str) {
    eprintln!("skipped: {test}: {why}");
}

fn cpuinfo_field<'a>(cpuinfo: &'a str, key: &str) -> Vec<&'a str> {
    cpuinfo
        .lines()
        .filter_map(|l| l.split_once(':'))
        .filter(|(k, _)| k.trim() == key)
        .map(|(_, v)| v.trim())
        .collect()
}

#[test]
fn cpu_and_memory_match_the_kernel() {
    const TEST: &str = "cpu_and_memory_match_the_kernel";
    if !cfg!(target_os = "linux") {
        skipped(TEST, "/proc/cpuinfo and /proc/meminfo exist only on Linux");
        return;
    }
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").expect("/proc/cpuinfo on Linux");
    // x86 kernels always print these fields; other architectures (ARM: "Features", no vendor_id)
    // may not, and there the checks that need them are reported as skipped.
    let x86 = cfg!(any(target_arch = "x86_64", target_arch = "x86"));
    let field = |key: &str| -> Option<String> {
        let value = cpuinfo_field(&cpuinfo, key).first().map(|v| (*v).to_owned());
        if value.is_none() {
            assert!(!x86, "/proc/cpuinfo of an x86 kernel has no '{key}' line");
            skipped(TEST, &format!("/proc/cpuinfo has no '{key}' line on this architecture"));
        }
        value
    };
    let dir = tempfile::tempdir().unwrap();
    let r = json_of(&hwfit(dir.path(), &["detect", "--json", "--no-cache"]));
    assert_eq!(r["hardware"]["cpu"], true);
    for browser_only in ["webgpu", "webnn", "wasm"] {
        assert_eq!(
            r["hardware"][browser_only], false,
            "{browser_only} exists only in browsers"
        );
    }
    let cpu = &r["cpu"];
    let processors = cpuinfo_field(&cpuinfo, "processor").len() as u64;
    let online = std::thread::available_parallelism().unwrap().get() as u64;
    assert!(cpu["logical_cores"] == online || cpu["logical_cores"] == processors);
    if let Some(model) = field("model name") {
        assert_eq!(cpu["brand"], model);
    }
    if let Some(vendor) = field("vendor_id") {
        assert_eq!(cpu["vendor"], vendor);
    }
    if field("physical id").is_some() {
        let sockets: BTreeSet<&str> = cpuinfo_field(&cpuinfo, "physical id").into_iter().collect();
        assert_eq!(cpu["sockets"], sockets.len() as u64);
        let cores: BTreeSet<(&str, &str)> = cpuinfo_field(&cpuinfo, "physical id")
            .into_iter()
            .zip(cpuinfo_field(&cpuinfo, "core id"))
            .collect();
        assert_eq!(cpu["physical_cores"], cores.len() as u64);
    }
    let flags = field("flags");
    let flags: BTreeSet<&str> = flags
        .as_deref()
        .map(|f| f.split_whitespace().collect())
        .unwrap_or_default();
    let simd: Vec<&str> = cpu["simd"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for (flag, feature) in [
        ("avx2", "avx2"),
        ("fma", "fma"),
        ("avx512f", "avx512f"),
        ("amx_tile", "amx-tile"),
    ] {
        if !flags.is_empty() {
            assert_eq!(
                flags.contains(flag),
                simd.contains(&feature),
                "{feature} vs /proc/cpuinfo"
            );
        }
    }
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
    let kernel_kb: u64 = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    let total_mb = r["memory"]["total_mb"].as_u64().unwrap();
    assert!(
        total_mb.abs_diff(kernel_kb / 1024) <= 1,
        "{total_mb} MiB vs MemTotal {kernel_kb} kB"
    );
    assert!(r["memory"]["available_mb"].as_u64().unwrap() <= total_mb);
    assert_eq!(r["devices"][0]["key"], "cpu");
}

#[test]
fn absent_vendors_are_reported_cleanly() {
    const TEST: &str = "absent_vendors_are_reported_cleanly";
    let dir = tempfile::tempdir().unwrap();
    let r = json_of(&hwfit(dir.path(), &["detect", "--json", "--no-cache"]));
    // On any machine: each vendor says whether it is available, and an unavailable one says why and
    // is not counted as hardware.
    for vendor in ["cuda", "rocm", "mps"] {
        let section = &r[vendor];
        if !section["available"].as_bool().unwrap() {
            assert!(!section["reason"].as_str().unwrap().is_empty(), "{vendor}: {section}");
            assert_eq!(r["hardware"][vendor], false, "{vendor}: {section}");
        }
    }
    if Path::new("/dev/nvidiactl").exists() {
        skipped(TEST, "absent CUDA: /dev/nvidiactl exists (an NVIDIA driver is loaded)");
    } else {
        assert_eq!(r["cuda"]["available"], false);
        assert!(r["cuda"]["reason"].as_str().unwrap().contains("NVML"));
    }
    if Path::new("/sys/class/kfd").exists() {
        skipped(
            TEST,
            "absent ROCm: /sys/class/kfd exists (the amdgpu KFD driver is loaded)",
        );
    } else {
        assert_eq!(r["rocm"]["available"], false);
        assert!(r["rocm"]["reason"].as_str().unwrap().contains("not present"));
    }
    if cfg!(target_os = "macos") {
        skipped(TEST, "absent MPS: this is macOS");
    } else {
        assert_eq!(r["mps"]["available"], false);
    }
    assert!(r["torch_device"].is_string());
}

/// f32 roofline of this CPU: logical cores × frequency × 16 lanes × 2 (FMA) × 2 pipes, with 1.5× for
/// turbo above the reported clock — an upper bound no f32 kernel can pass.
fn cpu_roofline_gflops(r: &Value) -> f64 {
    let cpu = &r["cpu"];
    let mhz = cpu["frequency_mhz"].as_f64().unwrap_or(5000.0);
    cpu["logical_cores"].as_f64().unwrap() * mhz / 1e3 * 1.5 * 16.0 * 2.0 * 2.0
}

#[test]
fn benchmark_figures_are_positive_and_below_the_roofline() {
    let dir = tempfile::tempdir().unwrap();
    let r = json_of(&hwfit(dir.path(), &["detect", "--json", "--benchmark", "--no-cache"]));
    let roofline = cpu_roofline_gflops(&r);
    let cpu = &r["cpu_benchmark"];
    let gflops = cpu["matmul_f32_gflops"].as_f64().unwrap();
    assert!(
        gflops > 0.0 && gflops < roofline,
        "CPU {gflops} GFLOP/s vs roofline {roofline}"
    );
    let gbs = cpu["copy_gbs"].as_f64().unwrap();
    assert!(gbs > 0.0 && gbs < 2000.0, "CPU copy {gbs} GB/s");
    let gpus = r["gpus"].as_array().unwrap();
    if std::env::var("HWFIT_REQUIRE_GPU_ADAPTER").is_ok() {
        assert!(
            gpus.iter().any(|g| g["backend"] == "vulkan"),
            "no Vulkan adapter: {gpus:?}"
        );
    }
    for g in gpus {
        assert!(
            g["benchmark"].is_object() || g["benchmark_note"].is_string(),
            "adapter without figure or reason: {g}"
        );
        if let Some(m) = g["benchmark"].as_object() {
            let f32_rate = m["matmul_f32_gflops"].as_f64().unwrap();
            assert!(f32_rate > 0.0 && m["copy_gbs"].as_f64().unwrap() > 0.0, "{g}");
            if g["device_type"] == "cpu" {
                // A software rasteriser (lavapipe) runs on these very cores.
                assert!(
                    f32_rate < roofline,
                    "{} {f32_rate} GFLOP/s above the CPU roofline",
                    g["name"]
                );
            }
            if let Some(f16) = m.get("matmul_f16_gflops") {
                assert!(g["features"].as_array().unwrap().contains(&Value::from("shader-f16")));
                assert!(f16.as_f64().unwrap() > 0.0);
            }
        }
    }
    // The CPU, unknown to the catalog here, gets the measured profile.
    let cpu_device = &r["devices"][0];
    if cpu_device["catalog_id"].is_null() {
        assert_eq!(cpu_device["profile"], "measured");
        assert_eq!(cpu_device["benchmark"], r["cpu_benchmark"]);
    }
}

#[test]
fn cache_is_written_reused_refreshed_and_expires() {
    let dir = tempfile::tempdir().unwrap();
    let first = hwfit(dir.path(), &["detect", "--json"]);
    let first_json = json_of(&first);
    let file = dir.path().join("hardware_cache.json");
    assert!(file.exists(), "hardware_cache.json written");
    let second = hwfit(dir.path(), &["detect", "--json"]);
    assert!(String::from_utf8_lossy(&second.stderr).contains("from the cache"));
    assert_eq!(json_of(&second)["detected_at"], first_json["detected_at"]);
    let refreshed = hwfit(dir.path(), &["detect", "--json", "--refresh"]);
    assert!(!String::from_utf8_lossy(&refreshed.stderr).contains("from the cache"));
    // An old report is probed again.
    let mut stale = first_json.clone();
    stale["detected_at"] = Value::from(1u64);
    std::fs::write(&file, stale.to_string()).unwrap();
    let after = json_of(&hwfit(dir.path(), &["detect", "--json"]));
    assert_ne!(after["detected_at"], Value::from(1u64));
    // --max-age 0 never trusts it; --no-cache neither reads nor writes.
    let none = tempfile::tempdir().unwrap();
    json_of(&hwfit(none.path(), &["detect", "--json", "--no-cache"]));
    assert!(!none.path().join("hardware_cache.json").exists());
    // A corrupt cache is ignored and replaced, not an error: the file then holds the fresh report.
    std::fs::write(&file, "{not json").unwrap();
    let replaced = hwfit(dir.path(), &["detect", "--json"]);
    assert!(!String::from_utf8_lossy(&replaced.stderr).contains("from the cache"));
    let replaced = json_of(&replaced);
    let cached: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(cached, replaced);
    assert!(cached["detected_at"].as_u64().unwrap() >= first_json["detected_at"].as_u64().unwrap());
}

fn with_fixture(args: &[&str]) -> Value {
    let out = Command::cargo_bin("hwfit")
        .unwrap()
        .env("HWFIT_DETECTION", repo_root().join(FIXTURE))
        .args(args)
        .output()
        .unwrap();
    json_of(&out)
}

#[test]
fn select_defaults_to_the_detected_hardware() {
    let s = with_fixture(&["select", "bert-base-uncased", "--json"]);
    assert_eq!(s["primary_recommendation"], "cpu");
    assert!(s["prediction_source"]
        .as_str()
        .unwrap()
        .contains("measured profile for: cpu"));
    insta::assert_json_snapshot!("select_on_detected_hardware", s);
}

#[test]
fn predict_defaults_to_the_detected_hardware() {
    let p = with_fixture(&["predict", "--model", "gpt2", "--json"]);
    let cpu = &p["predictions"]["cpu"];
    assert_eq!(cpu["source"], "measured_profile");
    insta::assert_json_snapshot!("predict_on_detected_hardware", p);
    // Naming hardware overrides detection.
    let named = with_fixture(&["predict", "--model", "gpt2", "--hardware", "cuda", "--json"]);
    assert!(named["predictions"].get("cpu").is_none());
    // Decode on CUDA is inside the embedded learned model's domain; `--predictor none` turns it off.
    assert_eq!(named["predictions"]["cuda"]["source"], "learned");
    let analytic = with_fixture(&[
        "--predictor",
        "none",
        "predict",
        "--model",
        "gpt2",
        "--hardware",
        "cuda",
        "--json",
    ]);
    let cuda = &analytic["predictions"]["cuda"];
    assert_eq!(cuda["source"], "analytic_model");
    assert_eq!(cuda["throughput"], named["predictions"]["cuda"]["analytic_throughput"]);
}

#[test]
fn a_bad_detection_file_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"hardware\": 1}").unwrap();
    let out = Command::cargo_bin("hwfit")
        .unwrap()
        .args(["select", "gpt2", "--detection"])
        .arg(&bad)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is not a hwfit detection report"), "{stderr}");
    let missing = Command::cargo_bin("hwfit")
        .unwrap()
        .args(["predict", "--model", "gpt2", "--detection", "/nonexistent/report.json"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read /nonexistent/report.json"));
}
