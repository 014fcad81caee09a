//! Versioned migrations, one SQL text per backend. A database records the versions applied in
//! `schema_migrations`; opening it applies the missing ones in order, each in its transaction.

/// One migration.
pub(crate) struct Migration {
    pub version: u32,
    pub name: &'static str,
    pub sqlite: &'static str,
    pub postgres: &'static str,
}

/// The columns of `benchmark_results` after `record_key`, in [`crate::BenchmarkRecord`]'s order
/// (the JSON-valued ones hold JSON text).
pub(crate) const COLUMNS: &[&str] = &[
    "model_name",
    "model_family",
    "model_parameters_m",
    "model_architecture",
    "device",
    "device_name",
    "device_profile",
    "device_count",
    "hardware_type",
    "runtime",
    "precision",
    "workload",
    "batch_size",
    "sequence_length",
    "throughput",
    "throughput_unit",
    "latency_mean_ms",
    "latency_p50_ms",
    "latency_p90_ms",
    "memory_mb",
    "source",
    "host",
    "measured_at",
    "notes",
];

/// Every migration, oldest first.
pub(crate) const MIGRATIONS: &[Migration] = &[Migration {
    version: 1,
    name: "benchmark_results",
    sqlite: "CREATE TABLE benchmark_results (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        record_key TEXT NOT NULL UNIQUE,
        model_name TEXT NOT NULL, model_family TEXT, model_parameters_m REAL, model_architecture TEXT,
        device TEXT NOT NULL, device_name TEXT NOT NULL, device_profile TEXT, device_count INTEGER NOT NULL,
        hardware_type TEXT, runtime TEXT NOT NULL, precision TEXT, workload TEXT,
        batch_size INTEGER, sequence_length INTEGER,
        throughput REAL, throughput_unit TEXT, latency_mean_ms REAL, latency_p50_ms REAL, latency_p90_ms REAL,
        memory_mb REAL, source TEXT NOT NULL, host TEXT, measured_at TEXT, notes TEXT,
        imported_from TEXT NOT NULL, imported_at TEXT NOT NULL
    );
    CREATE INDEX benchmark_results_model ON benchmark_results (model_name);
    CREATE INDEX benchmark_results_hardware ON benchmark_results (hardware_type, device);",
    postgres: "CREATE TABLE benchmark_results (
        id BIGSERIAL PRIMARY KEY,
        record_key TEXT NOT NULL UNIQUE,
        model_name TEXT NOT NULL, model_family TEXT, model_parameters_m DOUBLE PRECISION, model_architecture TEXT,
        device TEXT NOT NULL, device_name TEXT NOT NULL, device_profile TEXT, device_count INTEGER NOT NULL,
        hardware_type TEXT, runtime TEXT NOT NULL, precision TEXT, workload TEXT,
        batch_size INTEGER, sequence_length INTEGER,
        throughput DOUBLE PRECISION, throughput_unit TEXT, latency_mean_ms DOUBLE PRECISION,
        latency_p50_ms DOUBLE PRECISION, latency_p90_ms DOUBLE PRECISION,
        memory_mb DOUBLE PRECISION, source TEXT NOT NULL, host TEXT, measured_at TEXT, notes TEXT,
        imported_from TEXT NOT NULL, imported_at TEXT NOT NULL
    );
    CREATE INDEX benchmark_results_model ON benchmark_results (model_name);
    CREATE INDEX benchmark_results_hardware ON benchmark_results (hardware_type, device);",
}];

/// The newest schema version this build knows.
pub(crate) fn latest() -> u32 {
    MIGRATIONS.last().map_or(0, |m| m.version)
}
