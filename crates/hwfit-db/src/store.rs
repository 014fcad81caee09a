//! The storage trait every backend implements, and what it answers.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::{BenchmarkRecord, DbError};

/// What an insert did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Inserted {
    /// New records.
    pub added: usize,
    /// Records the database already had (same content key).
    pub duplicates: usize,
}

/// Which records `list` returns (every field optional; all given must match).
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Model name contains this (case-insensitive).
    pub model: Option<String>,
    /// Hardware type equals this.
    pub hardware_type: Option<String>,
    /// Device id or name contains this (case-insensitive).
    pub device: Option<String>,
    /// Runtime equals this (case-insensitive).
    pub runtime: Option<String>,
    /// At most this many, newest first.
    pub limit: Option<usize>,
}

/// What the database holds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Stats {
    /// The schema version.
    pub schema_version: u32,
    /// Records.
    pub records: usize,
    /// Distinct models.
    pub models: usize,
    /// Distinct devices.
    pub devices: usize,
    /// Records per hardware type (`unknown` when not resolved).
    pub by_hardware_type: BTreeMap<String, usize>,
    /// Records per runtime.
    pub by_runtime: BTreeMap<String, usize>,
    /// Records per imported file (or `hwfit bench`).
    pub by_import: BTreeMap<String, usize>,
}

/// A benchmark database.
pub trait Store {
    /// Inserts `records` in one transaction (all or nothing), skipping those already stored;
    /// `imported_from` names their file.
    fn insert(&mut self, records: &[BenchmarkRecord], imported_from: &str) -> Result<Inserted, DbError>;
    /// The records `filter` selects, newest first.
    fn list(&mut self, filter: &Filter) -> Result<Vec<BenchmarkRecord>, DbError>;
    /// Counts.
    fn stats(&mut self) -> Result<Stats, DbError>;
}

/// Opens (creating and migrating) the database `url` names: a `postgres://` / `postgresql://` URL
/// (or a `host=… user=…` connection string), or a SQLite file path (`sqlite://PATH` or a plain path).
pub fn open(url: &str) -> Result<Box<dyn Store + Send>, DbError> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") || url.starts_with("host=") {
        return Ok(Box::new(crate::PostgresStore::open(url)?));
    }
    if let Some((scheme, _)) = url.split_once("://") {
        if scheme != "sqlite" {
            return Err(DbError::UnsupportedUrl(url.into()));
        }
    }
    let path = url.strip_prefix("sqlite://").unwrap_or(url);
    Ok(Box::new(crate::SqliteStore::open(path)?))
}

/// `text` matched literally inside a `LIKE … ESCAPE '\'` pattern: `%`, `_` and `\` escaped.
fn like_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The `WHERE … ORDER BY … LIMIT` tail of a `list` query and its text arguments; `placeholder(n)`
/// spells the backend's n-th parameter (`?n` in SQLite, `$n` in PostgreSQL).
pub(crate) fn list_sql(filter: &Filter, placeholder: fn(usize) -> String) -> (String, Vec<String>) {
    let mut clauses = Vec::new();
    let mut args = Vec::new();
    for (column, value, exact) in [
        ("model_name", &filter.model, false),
        ("hardware_type", &filter.hardware_type, true),
        ("device || ' ' || device_name", &filter.device, false),
        ("runtime", &filter.runtime, true),
    ] {
        if let Some(v) = value {
            if v.contains('\0') {
                // No stored text holds a NUL (records with one are refused), and PostgreSQL cannot
                // take one as a parameter: the filter matches nothing, on every backend.
                clauses.push(String::from("1 = 0"));
                continue;
            }
            args.push(if exact {
                v.to_lowercase()
            } else {
                format!("%{}%", like_literal(&v.to_lowercase()))
            });
            let op = if exact { "=" } else { "LIKE" };
            let escape = if exact { "" } else { " ESCAPE '\\'" };
            clauses.push(format!("LOWER({column}) {op} {}{escape}", placeholder(args.len())));
        }
    }
    let mut sql = format!(
        "SELECT id, {} FROM benchmark_results",
        crate::schema::COLUMNS.join(", ")
    );
    if !clauses.is_empty() {
        sql.push_str(" WHERE ");
        sql.push_str(&clauses.join(" AND "));
    }
    sql.push_str(" ORDER BY id DESC");
    if let Some(n) = filter.limit {
        sql.push_str(" LIMIT ");
        sql.push_str(&n.to_string());
    }
    (sql, args)
}

/// The query `stats` reads its counts from: `benchmark_counts`, which triggers keep in step with
/// every insert, update and delete (migration 3), one row per (what, key, count) — so a call reads
/// as many rows as there are distinct models, devices, runtimes and imports, never the table.
pub(crate) const STATS_SQL: &str = "\
    SELECT 'records', '', CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM benchmark_counts WHERE kind = 'hardware_type' \
    UNION ALL SELECT 'models', '', COUNT(*) FROM benchmark_counts WHERE kind = 'model' \
    UNION ALL SELECT 'devices', '', COUNT(*) FROM benchmark_counts WHERE kind = 'device' \
    UNION ALL SELECT kind, value, n FROM benchmark_counts WHERE kind IN ('hardware_type', 'runtime', 'import')";

/// The stats from [`STATS_SQL`]'s rows.
pub(crate) fn stats_of(schema_version: u32, rows: &[(String, String, i64)]) -> Stats {
    let total = |what: &str| {
        rows.iter()
            .find(|r| r.0 == what)
            .map_or(0, |r| usize::try_from(r.2).unwrap_or(0))
    };
    let groups = |what: &str| {
        rows.iter()
            .filter(|r| r.0 == what)
            .map(|r| (r.1.clone(), usize::try_from(r.2).unwrap_or(0)))
            .collect()
    };
    Stats {
        schema_version,
        records: total("records"),
        models: total("models"),
        devices: total("devices"),
        by_hardware_type: groups("hardware_type"),
        by_runtime: groups("runtime"),
        by_import: groups("import"),
    }
}
