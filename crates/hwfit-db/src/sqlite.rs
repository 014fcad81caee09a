//! The embedded backend: one SQLite file (rusqlite, SQLite compiled in), nothing to start.

use rusqlite::types::Value as SqlValue;
use rusqlite::{params_from_iter, Connection, OptionalExtension, Row};

use crate::columns::{cells, record, Cell, Columns};
use crate::schema::{latest, COLUMNS, MIGRATIONS};
use crate::store::{list_sql, stats_of, Filter, Inserted, Stats, Store, STATS_SQL};
use crate::{BenchmarkRecord, DbError};

/// A benchmark database in a SQLite file (or in memory).
pub struct SqliteStore {
    conn: Connection,
}

impl SqliteStore {
    /// Opens `path` (`:memory:` for a throwaway database), creating it and applying the missing
    /// migrations.
    pub fn open(path: &str) -> Result<Self, DbError> {
        let conn = if path == ":memory:" {
            Connection::open_in_memory()?
        } else {
            if let Some(dir) = std::path::Path::new(path)
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
            {
                std::fs::create_dir_all(dir).map_err(|source| DbError::Io {
                    path: dir.display().to_string(),
                    source,
                })?;
            }
            Connection::open(path)?
        };
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        let mut store = Self { conn };
        store.migrate()?;
        Ok(store)
    }

    /// The schema version the database is at.
    pub fn schema_version(&self) -> Result<u32, DbError> {
        Ok(self
            .conn
            .query_row("SELECT COALESCE(MAX(version), 0) FROM schema_migrations", [], |r| {
                r.get(0)
            })?)
    }

    fn migrate(&mut self) -> Result<(), DbError> {
        self.conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
        )?;
        let found = self.schema_version()?;
        if found > latest() {
            return Err(DbError::NewerSchema { found, known: latest() });
        }
        for m in MIGRATIONS.iter().filter(|m| m.version > found) {
            let tx = self.conn.transaction()?;
            tx.execute_batch(m.sqlite)?;
            tx.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, ?2, datetime('now'))",
                (m.version, m.name),
            )?;
            tx.commit()?;
        }
        Ok(())
    }
}

fn value(cell: Cell) -> SqlValue {
    match cell {
        Cell::Text(t) => t.map_or(SqlValue::Null, SqlValue::Text),
        Cell::Real(v) => v.map_or(SqlValue::Null, SqlValue::Real),
        Cell::Int(v) => v.map_or(SqlValue::Null, SqlValue::Integer),
    }
}

impl Columns for Row<'_> {
    fn text(&self, i: usize) -> Result<Option<String>, DbError> {
        Ok(self.get(i)?)
    }
    fn real(&self, i: usize) -> Result<Option<f64>, DbError> {
        Ok(self.get(i)?)
    }
    fn int(&self, i: usize) -> Result<Option<i64>, DbError> {
        Ok(self.get(i)?)
    }
}

impl Store for SqliteStore {
    fn insert(&mut self, records: &[BenchmarkRecord], imported_from: &str) -> Result<Inserted, DbError> {
        for r in records {
            r.validate()?;
        }
        let placeholders: Vec<String> = (1..=COLUMNS.len() + 3).map(|i| format!("?{i}")).collect();
        let sql = format!(
            "INSERT INTO benchmark_results (record_key, {}, imported_from, imported_at) VALUES ({}) ON CONFLICT (record_key) DO NOTHING",
            COLUMNS.join(", "),
            placeholders.join(", ")
        );
        let tx = self.conn.transaction()?;
        let now: String = tx.query_row("SELECT strftime('%Y-%m-%dT%H:%M:%SZ', 'now')", [], |r| r.get(0))?;
        let mut inserted = Inserted::default();
        {
            let mut statement = tx.prepare(&sql)?;
            for r in records {
                let mut row = vec![SqlValue::Text(r.key())];
                row.extend(cells(r).into_iter().map(value));
                row.push(SqlValue::Text(imported_from.into()));
                row.push(SqlValue::Text(now.clone()));
                if statement.execute(params_from_iter(row))? == 1 {
                    inserted.added += 1;
                } else {
                    inserted.duplicates += 1;
                }
            }
        }
        tx.commit()?;
        Ok(inserted)
    }

    fn list(&mut self, filter: &Filter) -> Result<Vec<BenchmarkRecord>, DbError> {
        let (sql, args) = list_sql(filter, |n| format!("?{n}"));
        let mut statement = self.conn.prepare(&sql)?;
        let mut rows = statement.query(params_from_iter(args))?;
        let mut out = Vec::new();
        while let Some(row) = rows.next()? {
            out.push(record(row)?);
        }
        Ok(out)
    }

    fn stats(&mut self) -> Result<Stats, DbError> {
        let mut statement = self.conn.prepare(STATS_SQL)?;
        let rows: Vec<(String, String, i64)> = statement
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<Result<_, _>>()?;
        Ok(stats_of(self.schema_version()?, &rows))
    }
}

impl SqliteStore {
    /// Whether a record with this content key is stored.
    pub fn contains(&self, record: &BenchmarkRecord) -> Result<bool, DbError> {
        Ok(self
            .conn
            .query_row(
                "SELECT 1 FROM benchmark_results WHERE record_key = ?1",
                [record.key()],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }
}
