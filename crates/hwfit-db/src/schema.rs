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
    // Migration 2: how a measurement taken here ran.
    "runtime_version",
    "execution",
    "math_mode",
    "memory_device_mb",
    "warmup_runs",
    "timed_runs",
];

/// The columns of the first schema (an export CSV from before migration 2 has only these).
pub(crate) const FIRST_COLUMNS: &[&str] = COLUMNS.split_at(24).0;

/// Every migration, oldest first.
pub(crate) const MIGRATIONS: &[Migration] = &[
    Migration {
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
    },
    Migration {
        version: 2,
        name: "how a measurement ran",
        sqlite: "ALTER TABLE benchmark_results ADD COLUMN runtime_version TEXT;
    ALTER TABLE benchmark_results ADD COLUMN execution TEXT;
    ALTER TABLE benchmark_results ADD COLUMN math_mode TEXT;
    ALTER TABLE benchmark_results ADD COLUMN memory_device_mb REAL;
    ALTER TABLE benchmark_results ADD COLUMN warmup_runs INTEGER;
    ALTER TABLE benchmark_results ADD COLUMN timed_runs INTEGER;
    CREATE INDEX benchmark_results_runtime ON benchmark_results (runtime);",
        postgres: "ALTER TABLE benchmark_results ADD COLUMN runtime_version TEXT,
        ADD COLUMN execution TEXT, ADD COLUMN math_mode TEXT, ADD COLUMN memory_device_mb DOUBLE PRECISION,
        ADD COLUMN warmup_runs INTEGER, ADD COLUMN timed_runs INTEGER;
    CREATE INDEX benchmark_results_runtime ON benchmark_results (runtime);",
    },
    Migration {
        version: 3,
        name: "counts kept by triggers (stats without reading the table)",
        sqlite: "CREATE TABLE benchmark_counts (
        kind TEXT NOT NULL, value TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (kind, value));
    INSERT INTO benchmark_counts (kind, value, n)
        SELECT 'hardware_type', COALESCE(hardware_type, 'unknown'), COUNT(*) FROM benchmark_results GROUP BY 2
        UNION ALL SELECT 'runtime', COALESCE(runtime, ''), COUNT(*) FROM benchmark_results GROUP BY 2
        UNION ALL SELECT 'import', COALESCE(imported_from, ''), COUNT(*) FROM benchmark_results GROUP BY 2
        UNION ALL SELECT 'model', model_name, COUNT(*) FROM benchmark_results GROUP BY 2
        UNION ALL SELECT 'device', device, COUNT(*) FROM benchmark_results GROUP BY 2;
    CREATE TRIGGER benchmark_counts_insert AFTER INSERT ON benchmark_results BEGIN
        INSERT INTO benchmark_counts (kind, value, n) VALUES
            ('hardware_type', COALESCE(NEW.hardware_type, 'unknown'), 1), ('runtime', COALESCE(NEW.runtime, ''), 1),
            ('import', COALESCE(NEW.imported_from, ''), 1), ('model', NEW.model_name, 1), ('device', NEW.device, 1)
            ON CONFLICT (kind, value) DO UPDATE SET n = n + 1;
    END;
    CREATE TRIGGER benchmark_counts_delete AFTER DELETE ON benchmark_results BEGIN
        UPDATE benchmark_counts SET n = n - 1 WHERE (kind, value) IN (VALUES
            ('hardware_type', COALESCE(OLD.hardware_type, 'unknown')), ('runtime', COALESCE(OLD.runtime, '')),
            ('import', COALESCE(OLD.imported_from, '')), ('model', OLD.model_name), ('device', OLD.device));
        DELETE FROM benchmark_counts WHERE n <= 0;
    END;
    CREATE TRIGGER benchmark_counts_update AFTER UPDATE OF hardware_type, runtime, imported_from, model_name, device
        ON benchmark_results BEGIN
        UPDATE benchmark_counts SET n = n - 1 WHERE (kind, value) IN (VALUES
            ('hardware_type', COALESCE(OLD.hardware_type, 'unknown')), ('runtime', COALESCE(OLD.runtime, '')),
            ('import', COALESCE(OLD.imported_from, '')), ('model', OLD.model_name), ('device', OLD.device));
        DELETE FROM benchmark_counts WHERE n <= 0;
        INSERT INTO benchmark_counts (kind, value, n) VALUES
            ('hardware_type', COALESCE(NEW.hardware_type, 'unknown'), 1), ('runtime', COALESCE(NEW.runtime, ''), 1),
            ('import', COALESCE(NEW.imported_from, ''), 1), ('model', NEW.model_name, 1), ('device', NEW.device, 1)
            ON CONFLICT (kind, value) DO UPDATE SET n = n + 1;
    END;",
        postgres: "CREATE TABLE benchmark_counts (
        kind TEXT NOT NULL, value TEXT NOT NULL, n BIGINT NOT NULL, PRIMARY KEY (kind, value));
    INSERT INTO benchmark_counts (kind, value, n)
        SELECT 'hardware_type', COALESCE(hardware_type, 'unknown'), COUNT(*) FROM benchmark_results GROUP BY 2
        UNION ALL SELECT 'runtime', COALESCE(runtime, ''), COUNT(*) FROM benchmark_results GROUP BY 2
        UNION ALL SELECT 'import', COALESCE(imported_from, ''), COUNT(*) FROM benchmark_results GROUP BY 2
        UNION ALL SELECT 'model', model_name, COUNT(*) FROM benchmark_results GROUP BY 2
        UNION ALL SELECT 'device', device, COUNT(*) FROM benchmark_results GROUP BY 2;
    CREATE FUNCTION benchmark_counts_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP IN ('DELETE', 'UPDATE') THEN
            UPDATE benchmark_counts SET n = n - 1 WHERE (kind, value) IN (VALUES
                ('hardware_type', COALESCE(OLD.hardware_type, 'unknown')), ('runtime', COALESCE(OLD.runtime, '')),
                ('import', COALESCE(OLD.imported_from, '')), ('model', OLD.model_name), ('device', OLD.device));
            DELETE FROM benchmark_counts WHERE n <= 0;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
            INSERT INTO benchmark_counts (kind, value, n) VALUES
                ('hardware_type', COALESCE(NEW.hardware_type, 'unknown'), 1), ('runtime', COALESCE(NEW.runtime, ''), 1),
                ('import', COALESCE(NEW.imported_from, ''), 1), ('model', NEW.model_name, 1), ('device', NEW.device, 1)
                ON CONFLICT (kind, value) DO UPDATE SET n = benchmark_counts.n + 1;
        END IF;
        RETURN NULL;
    END $$;
    CREATE TRIGGER benchmark_counts_change
        AFTER INSERT OR DELETE OR UPDATE OF hardware_type, runtime, imported_from, model_name, device
        ON benchmark_results FOR EACH ROW EXECUTE FUNCTION benchmark_counts_change();",
    },
];

/// The newest schema version this build knows.
pub(crate) fn latest() -> u32 {
    MIGRATIONS.last().map_or(0, |m| m.version)
}
