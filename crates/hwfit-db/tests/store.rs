//! The SQLite store and the importers on the real files of `data/measured/`.

use hwfit_db::{export, read_file, read_text, DbError, SqliteStore, Store};

mod contract;

use contract::measured;

#[test]
fn sqlite_keeps_the_storage_contract() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bench.sqlite");
    let mut store = SqliteStore::open(path.to_str().unwrap()).unwrap();
    let total = contract::storage_contract(&mut store);
    // Reopening keeps everything (the file is the database).
    drop(store);
    let mut reopened = hwfit_db::open(path.to_str().unwrap()).unwrap();
    assert_eq!(reopened.stats().unwrap().records, total);
    assert!(matches!(hwfit_db::open("mysql://x"), Err(DbError::UnsupportedUrl(_))));
}

#[test]
fn tables_that_are_not_measurements_are_refused_by_name() {
    for file in ["hardware_specs.csv", "browser_cases.csv"] {
        let e = read_file(&measured(file)).unwrap_err();
        assert!(matches!(e, DbError::Format { .. }), "{file}: {e}");
        assert!(e.to_string().contains("not a measurement table"), "{e}");
    }
    let e = read_text("x.json", "{\"a\": 1}").unwrap_err();
    assert!(e.to_string().contains("aggregated_benchmarks.json"), "{e}");
}

#[test]
fn a_malformed_row_is_reported_by_line_and_the_rest_kept() {
    let text = "source,source_ref,model,params,precision,model_size_GB,hardware,hardware_kind,n_devices,batch_size,metric,value,units,framework,notes\n\
        s,r,Llama 3 8B,8B,GGUF Q4_K_M,4.6,RTX 4090,gpu,1,1,tg128,127.7,t/s,llama.cpp,\n\
        s,r,Llama 3 8B,8B,GGUF Q4_K_M,4.6,RTX 4090,gpu,1,1,pp512,not-a-number,t/s,llama.cpp,\n\
        s,r,Llama 3 8B,8B,GGUF Q4_K_M,4.6,RTX 4090,gpu,one,1,pp512,9000,t/s,llama.cpp,\n\
        s,r,Llama 3 8B,8B,GGUF Q4_K_M,4.6,RTX 4090,gpu,1,1,pp512,6899.7,t/s,llama.cpp,\n";
    let read = read_text("table.csv", text).unwrap();
    assert_eq!(read.records.len(), 2);
    assert_eq!(read.rejected.len(), 2);
    assert_eq!(read.rejected[0].at, "line 3");
    assert!(
        read.rejected[0].reason.contains("value 'not-a-number'"),
        "{:?}",
        read.rejected
    );
    assert_eq!(read.rejected[1].at, "line 4");
    assert!(read.rejected[1].reason.contains("n_devices"));
    assert_eq!(read.records[0].precision.as_deref(), Some("q4_k_m"));
    assert_eq!(read.records[1].sequence_length, Some(512));
    // The same file with Windows line ends names the same lines.
    let crlf = read_text("table.csv", &text.replace('\n', "\r\n")).unwrap();
    let lines: Vec<&str> = crlf.rejected.iter().map(|r| r.at.as_str()).collect();
    assert_eq!(lines, ["line 3", "line 4"]);
}

#[test]
fn ipfs_accelerate_aggregated_results_import() {
    let json = r#"{
      "inference": {"embedding": {"embedding/bert-base-uncased": {
        "cuda": [{"timestamp": "2025-03-02T10:00:00", "latency": 8.3, "throughput": 120.5, "memory_usage": 850.2, "batch_size": 1, "sequence_length": 128}],
        "cpu": [{"timestamp": "2025-03-02T10:05:00", "latency": 39.5, "throughput": 25.3, "memory_usage": 0, "batch_size": 8, "sequence_length": 128, "precision": "fp16"},
                {"latency": 0, "throughput": 0, "memory_usage": 0}],
        "tpu": [{"latency": 1.0}]
      }}},
      "training": {}, "hardware_compatibility": {}
    }"#;
    let read = read_text("aggregated_benchmarks.json", json).unwrap();
    assert_eq!(read.format, "IPFS Accelerate aggregated_benchmarks.json");
    assert_eq!(read.records.len(), 2, "{:?}", read.rejected);
    let cpu = read
        .records
        .iter()
        .find(|r| r.device == "cpu" || r.hardware_type.as_deref() == Some("cpu"))
        .unwrap();
    assert_eq!(cpu.batch_size, Some(8));
    assert_eq!(cpu.memory_mb, None, "0 is IPFS Accelerate's 'not measured'");
    assert_eq!(cpu.precision.as_deref(), Some("fp16"));
    assert_eq!(cpu.model_family.as_deref(), Some("embedding"));
    assert_eq!(read.rejected.len(), 2, "{:?}", read.rejected);
    assert!(read
        .rejected
        .iter()
        .any(|r| r.at == "inference.embedding.embedding/bert-base-uncased.tpu[0]"));
}

#[test]
fn exports_import_back_unchanged() {
    let read = read_file(&measured("llm_tokens_per_second.csv")).unwrap();
    let json = export::to_json(&read.records).unwrap();
    assert_eq!(read_text("e.json", &json).unwrap().records, read.records);
    let csv = export::to_csv(&read.records).unwrap();
    let back = read_text("e.csv", &csv).unwrap();
    assert!(back.rejected.is_empty(), "{:?}", back.rejected);
    assert_eq!(back.records, read.records);
}

/// A database of the first schema is migrated on opening: its records are kept, and the columns
/// of how a measurement ran are added.
#[test]
fn a_first_schema_database_is_migrated() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite");
    let mut store = SqliteStore::open(path.to_str().unwrap()).unwrap();
    let mut old = hwfit_db::BenchmarkRecord::new("gpt2", "cpu", "tract", "measured here");
    old.throughput = Some(3.0);
    store.insert(&[old.clone()], "old").unwrap();
    drop(store);
    // Back to schema 1, as an earlier hwfit left it.
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(
        "DROP INDEX benchmark_results_runtime;
         ALTER TABLE benchmark_results DROP COLUMN runtime_version; ALTER TABLE benchmark_results DROP COLUMN execution;
         ALTER TABLE benchmark_results DROP COLUMN math_mode; ALTER TABLE benchmark_results DROP COLUMN memory_device_mb;
         ALTER TABLE benchmark_results DROP COLUMN warmup_runs; ALTER TABLE benchmark_results DROP COLUMN timed_runs;
         DROP TRIGGER benchmark_counts_insert; DROP TRIGGER benchmark_counts_delete;
         DROP TRIGGER benchmark_counts_update; DROP TABLE benchmark_counts;
         DELETE FROM schema_migrations WHERE version IN (2, 3);",
    )
    .unwrap();
    drop(conn);
    let mut reopened = SqliteStore::open(path.to_str().unwrap()).unwrap();
    assert_eq!(reopened.schema_version().unwrap(), 3);
    assert_eq!(
        reopened.stats().unwrap().records,
        1,
        "the counts start from the rows kept"
    );
    let mut new = old.clone();
    new.runtime_version = Some("0.23".into());
    new.timed_runs = Some(3);
    reopened.insert(&[new.clone()], "new").unwrap();
    let all = reopened.list(&hwfit_db::Filter::default()).unwrap();
    assert!(all.contains(&old) && all.contains(&new), "{all:?}");
}

/// The counts `stats` reads follow rows deleted and changed by hand, not only imports.
#[test]
fn counts_follow_rows_deleted_and_changed_outside_hwfit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("counts.sqlite");
    let mut store = SqliteStore::open(path.to_str().unwrap()).unwrap();
    let records: Vec<_> = (0..6)
        .map(|i| {
            let mut r = hwfit_db::BenchmarkRecord::new(&format!("model-{}", i % 3), "cpu", "tract", "measured here");
            r.batch_size = Some(i + 1);
            r.throughput = Some(1.0);
            r
        })
        .collect();
    store.insert(&records, "six").unwrap();
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(
        "DELETE FROM benchmark_results WHERE model_name = 'model-0';
         UPDATE benchmark_results SET runtime = 'onnxruntime', model_name = 'model-9' WHERE batch_size = 2;",
    )
    .unwrap();
    drop(conn);
    let stats = store.stats().unwrap();
    assert_eq!(stats.records, 4);
    assert_eq!(stats.models, 3, "model-1, model-2, model-9: {stats:?}");
    assert_eq!(stats.by_runtime.get("onnxruntime"), Some(&1));
    assert_eq!(stats.by_runtime.get("tract"), Some(&3));
    assert_eq!(stats.by_import.get("six"), Some(&4));
}

/// Every value is checked: a number that is not finite, an unknown hardware type, an unreadable
/// time or a count that is not one rejects its row with its line, never vanishes.
#[test]
fn bad_values_reject_their_row_by_line() {
    let export = hwfit_db::export::to_csv(&[{
        let mut r = hwfit_db::BenchmarkRecord::new("gpt2", "cpu", "tract", "measured here");
        r.throughput = Some(10.0);
        r.latency_mean_ms = Some(5.0);
        r.memory_mb = Some(100.0);
        r.hardware_type = Some("cpu".into());
        r.measured_at = Some("2026-11-23T17:30:16Z".into());
        r
    }])
    .unwrap();
    let mut lines = export.lines();
    let header = lines.next().unwrap();
    let row = lines.next().unwrap();
    let columns: Vec<&str> = header.split(',').collect();
    let with = |column: &str, value: &str| {
        let i = columns.iter().position(|c| *c == column).unwrap();
        let mut cells: Vec<String> = row.split(',').map(str::to_owned).collect();
        cells[i] = value.to_owned();
        cells.join(",")
    };
    let rows = [
        with("latency_mean_ms", "NaN"),
        with("memory_mb", "1e400"),
        with("latency_p50_ms", "inf"),
        with("hardware_type", "tpu"),
        with("measured_at", "yesterday-ish"),
        with("batch_size", "two"),
        row.to_owned(),
    ];
    let text = format!("{header}\n{}\n", rows.join("\n"));
    let read = read_text("bad.csv", &text).unwrap();
    assert_eq!(read.records.len(), 1, "{:?}", read.rejected);
    let at: Vec<&str> = read.rejected.iter().map(|r| r.at.as_str()).collect();
    assert_eq!(at, ["line 2", "line 3", "line 4", "line 5", "line 6", "line 7"]);
    let reasons: Vec<&str> = read.rejected.iter().map(|r| r.reason.as_str()).collect();
    assert!(
        reasons[0].contains("latency_mean_ms 'NaN' is not a finite number"),
        "{reasons:?}"
    );
    assert!(reasons[1].contains("memory_mb '1e400'"), "{reasons:?}");
    assert!(reasons[3].contains("hardware_type 'tpu'"), "{reasons:?}");
    assert!(reasons[4].contains("measured_at 'yesterday-ish'"), "{reasons:?}");
    assert!(reasons[5].contains("batch_size"), "{reasons:?}");
    // A table's optional columns: absent is fine, nonsense is not.
    let table = "source,source_ref,model,params,precision,model_size_GB,hardware,hardware_kind,n_devices,batch_size,metric,value,units,framework,notes\n\
        s,r,Llama 3 8B,n/a,GGUF Q4_K_M,4.6,RTX 4090,gpu,1,,tg128,127.7,t/s,llama.cpp,\n\
        s,r,Llama 3 8B,eight,GGUF Q4_K_M,4.6,RTX 4090,gpu,1,1,pp512,9000,t/s,llama.cpp,\n\
        s,r,Llama 3 8B,8B,GGUF Q4_K_M,4.6,RTX 4090,gpu,1,0,pp512,9000,t/s,llama.cpp,\n";
    let read = read_text("table.csv", table).unwrap();
    assert_eq!(read.records.len(), 1, "{:?}", read.rejected);
    assert!(
        read.rejected[0].reason.contains("params 'eight'"),
        "{:?}",
        read.rejected
    );
    assert!(
        read.rejected[1].reason.contains("batch_size '0'"),
        "{:?}",
        read.rejected
    );
}

/// hwfit's sourced step tables import whole: one latency or rate per row, the quote kept.
#[test]
fn sourced_step_tables_import() {
    for (file, rows) in [("runtime_steps.csv", 1535), ("moe_steps.csv", 147)] {
        let read = read_file(&measured(file)).unwrap();
        assert_eq!(read.format, "sourced step measurements");
        assert!(read.rejected.is_empty(), "{file}: {:?}", read.rejected);
        assert_eq!(read.records.len(), rows, "{file}");
        assert!(read
            .records
            .iter()
            .all(|r| r.notes.as_deref().is_some_and(|n| n.starts_with('"'))));
    }
    let read = read_file(&measured("runtime_steps.csv")).unwrap();
    let first = &read.records[0];
    assert_eq!(first.runtime, "pytorch");
    assert_eq!(first.latency_mean_ms, Some(5.01));
    assert_eq!(
        first.hardware_type.as_deref(),
        Some("cuda"),
        "T4 resolves to a CUDA device"
    );
    assert!(read.records.iter().any(|r| r.workload.as_deref() == Some("train-step")));
}
