//! What every backend must do, run on SQLite (tests/store.rs) and PostgreSQL (tests/postgres.rs).

use std::path::{Path, PathBuf};

use hwfit_db::{read_file, BenchmarkRecord, Filter, Store};

pub fn measured(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/measured")
        .join(file)
}

pub const MEASUREMENT_FILES: [&str; 5] = [
    "llm_tokens_per_second.csv",
    "mlperf_inference_v4_1_offline.csv",
    "browser_measurements.csv",
    "browser_webgpu_vs_wasm.csv",
    "webllm_vram_requirements.csv",
];

/// Imports the measured data twice (the second time adds nothing), lists, counts, and checks an
/// import with a bad record stores nothing. Returns the number of records stored.
pub fn storage_contract(store: &mut dyn Store) -> usize {
    let mut total = 0;
    for file in MEASUREMENT_FILES {
        let read = read_file(&measured(file)).unwrap();
        assert!(
            read.records.len() >= 5,
            "{file}: {} records, rejected {:?}",
            read.records.len(),
            read.rejected
        );
        let inserted = store.insert(&read.records, file).unwrap();
        assert_eq!(inserted.added + inserted.duplicates, read.records.len());
        total += inserted.added;
        let again = store.insert(&read.records, file).unwrap();
        assert_eq!(again.added, 0, "{file}: re-importing adds nothing");
        assert_eq!(again.duplicates, read.records.len());
    }
    let stats = store.stats().unwrap();
    assert_eq!(stats.records, total);
    assert_eq!(stats.schema_version, 3);
    assert!(stats.by_hardware_type["cuda"] > 20, "{stats:?}");
    assert!(stats.by_hardware_type.contains_key("webgpu") && stats.by_hardware_type.contains_key("wasm"));
    assert_eq!(stats.by_import.values().sum::<usize>(), total);

    // llama.cpp rows resolve to catalog devices and keep their source.
    let rows = store
        .list(&Filter {
            model: Some("llama 2 7b".into()),
            device: Some("4090".into()),
            ..Filter::default()
        })
        .unwrap();
    assert_eq!(rows.len(), 2, "llama.cpp's pp512 and tg128 on an RTX 4090 D");
    let r = &rows[0];
    assert_eq!(r.hardware_type.as_deref(), Some("cuda"));
    assert_eq!(r.device, "nvidia-rtx-4090d");
    assert!(r.source.contains("github.com"), "{}", r.source);
    assert!(matches!(r.workload.as_deref(), Some("decode" | "prefill")));
    assert!(r.throughput.unwrap() > 0.0 && r.throughput_unit.as_deref() == Some("tokens/s"));
    let limited = store
        .list(&Filter {
            hardware_type: Some("WASM".into()),
            limit: Some(3),
            ..Filter::default()
        })
        .unwrap();
    assert_eq!(limited.len(), 3);
    assert!(limited.iter().all(|r| r.hardware_type.as_deref() == Some("wasm")));

    // Everything comes back as it went in.
    let all = store.list(&Filter::default()).unwrap();
    assert_eq!(all.len(), total);
    let read = read_file(&measured("webllm_vram_requirements.csv")).unwrap();
    assert!(read.records.iter().all(|r| all.contains(r)));
    // The counts the triggers keep are the table's.
    let distinct = |f: fn(&BenchmarkRecord) -> &str| all.iter().map(f).collect::<std::collections::BTreeSet<_>>().len();
    assert_eq!(stats.models, distinct(|r| r.model_name.as_str()));
    assert_eq!(stats.devices, distinct(|r| r.device.as_str()));
    let mut by_runtime = std::collections::BTreeMap::<String, usize>::new();
    let mut by_hardware = std::collections::BTreeMap::<String, usize>::new();
    for r in &all {
        *by_runtime.entry(r.runtime.clone()).or_default() += 1;
        *by_hardware
            .entry(r.hardware_type.clone().unwrap_or_else(|| "unknown".into()))
            .or_default() += 1;
    }
    assert_eq!(stats.by_runtime, by_runtime);
    assert_eq!(stats.by_hardware_type, by_hardware);
    // `%`, `_` and `\` in a name filter match themselves, not any text.
    for pattern in ["%", "_", "llama_2", "\\", "\0"] {
        let found = store
            .list(&Filter {
                model: Some(pattern.into()),
                ..Filter::default()
            })
            .unwrap();
        assert!(
            found.iter().all(|r| r.model_name.to_lowercase().contains(pattern)),
            "{pattern}: {} rows",
            found.len()
        );
    }

    // All or nothing: an import with a bad record stores none of it.
    let mut good = BenchmarkRecord::new("gpt2", "cpu", "tract", "measured here");
    good.throughput = Some(10.0);
    good.host = Some(serde_json::json!({"cpu": "test", "cores": 2}));
    let mut bad = good.clone();
    bad.latency_mean_ms = Some(f64::NAN);
    assert!(store.insert(&[good.clone(), bad], "bad").is_err());
    assert_eq!(
        store.stats().unwrap().records,
        total,
        "nothing of a failed import is kept"
    );
    assert_eq!(store.insert(&[good.clone()], "good").unwrap().added, 1);
    let back = store
        .list(&Filter {
            runtime: Some("tract".into()),
            ..Filter::default()
        })
        .unwrap();
    assert_eq!(back, vec![good]);

    // How a measurement taken here ran (migration 2) is kept.
    let mut ran = BenchmarkRecord::new("gpt2", "cpu", "ONNX Runtime", "measured here");
    ran.throughput = Some(12.0);
    ran.runtime_version = Some("1.32.0".into());
    ran.execution = Some("CPUExecutionProvider".into());
    ran.math_mode = Some("fp32".into());
    ran.memory_device_mb = Some(512.5);
    ran.warmup_runs = Some(1);
    ran.timed_runs = Some(5);
    assert_eq!(store.insert(&[ran.clone()], "ran").unwrap().added, 1);
    let back = store
        .list(&Filter {
            runtime: Some("ONNX Runtime".into()),
            ..Filter::default()
        })
        .unwrap();
    assert_eq!(back, vec![ran]);
    total + 2
}
