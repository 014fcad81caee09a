//! The fleet backend: PostgreSQL, so many hosts write `hwfit bench` results into one database and
//! any number of `hwfit serve` instances read it. Same schema, same semantics as SQLite.

use postgres::types::ToSql;
use postgres::{Client, NoTls, Row};

use crate::columns::{cells, record, Cell, Columns};
use crate::schema::{latest, COLUMNS, MIGRATIONS};
use crate::store::{list_sql, stats_of, Filter, Inserted, Stats, Store, STATS_SQL};
use crate::{BenchmarkRecord, DbError};

/// A benchmark database on a PostgreSQL server.
pub struct PostgresStore {
    client: Client,
}

#[allow(clippy::needless_pass_by_value)] // used as `map_err(pg)`
fn pg(e: postgres::Error) -> DbError {
    DbError::Postgres(e.to_string())
}

impl PostgresStore {
    /// Connects to `url` (`postgres://user@host:port/db`, or `host=/socket/dir user=…`) and applies
    /// the missing migrations (serialized by an advisory lock, so hosts may start together).
    pub fn open(url: &str) -> Result<Self, DbError> {
        let client = Client::connect(url, NoTls).map_err(pg)?;
        let mut store = Self { client };
        store.migrate()?;
        Ok(store)
    }

    /// The schema version the database is at.
    pub fn schema_version(&mut self) -> Result<u32, DbError> {
        let v: i32 = self
            .client
            .query_one("SELECT COALESCE(MAX(version), 0) FROM schema_migrations", &[])
            .map_err(pg)?
            .get(0);
        Ok(u32::try_from(v).unwrap_or(0))
    }

    fn migrate(&mut self) -> Result<(), DbError> {
        let mut tx = self.client.transaction().map_err(pg)?;
        tx.batch_execute(
            "SELECT pg_advisory_xact_lock(7421986); CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
        )
        .map_err(pg)?;
        let found: i32 = tx
            .query_one("SELECT COALESCE(MAX(version), 0) FROM schema_migrations", &[])
            .map_err(pg)?
            .get(0);
        let found = u32::try_from(found).unwrap_or(0);
        if found > latest() {
            return Err(DbError::NewerSchema { found, known: latest() });
        }
        for m in MIGRATIONS.iter().filter(|m| m.version > found) {
            tx.batch_execute(m.postgres).map_err(pg)?;
            let version = i32::try_from(m.version).unwrap_or(i32::MAX);
            tx.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'))",
                &[&version, &m.name],
            )
            .map_err(pg)?;
        }
        tx.commit().map_err(pg)
    }
}

/// A parameter PostgreSQL's typed protocol accepts for the column's type.
fn parameter(cell: Cell) -> Box<dyn ToSql + Sync> {
    match cell {
        Cell::Text(t) => Box::new(t),
        Cell::Real(v) => Box::new(v),
        // INTEGER columns are 32-bit in PostgreSQL.
        Cell::Int(v) => Box::new(v.map(|n| i32::try_from(n).unwrap_or(i32::MAX))),
    }
}

impl Columns for Row {
    fn text(&self, i: usize) -> Result<Option<String>, DbError> {
        self.try_get(i).map_err(pg)
    }
    fn real(&self, i: usize) -> Result<Option<f64>, DbError> {
        self.try_get(i).map_err(pg)
    }
    fn int(&self, i: usize) -> Result<Option<i64>, DbError> {
        if i == 0 {
            return self.try_get(i).map_err(pg);
        }
        let v: Option<i32> = self.try_get(i).map_err(pg)?;
        Ok(v.map(i64::from))
    }
}

impl Store for PostgresStore {
    fn insert(&mut self, records: &[BenchmarkRecord], imported_from: &str) -> Result<Inserted, DbError> {
        for r in records {
            r.validate()?;
        }
        let placeholders: Vec<String> = (1..=COLUMNS.len() + 2).map(|i| format!("${i}")).collect();
        let sql = format!(
            "INSERT INTO benchmark_results (record_key, {}, imported_from, imported_at) VALUES ({}, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')) ON CONFLICT (record_key) DO NOTHING",
            COLUMNS.join(", "),
            placeholders.join(", ")
        );
        let mut tx = self.client.transaction().map_err(pg)?;
        // Imports take turns on the trigger-kept counts (two imports updating the same counters in
        // different orders would deadlock); readers are not blocked.
        tx.batch_execute("LOCK TABLE benchmark_counts IN SHARE ROW EXCLUSIVE MODE")
            .map_err(pg)?;
        let statement = tx.prepare(&sql).map_err(pg)?;
        let mut inserted = Inserted::default();
        for r in records {
            let mut row: Vec<Box<dyn ToSql + Sync>> = vec![Box::new(r.key())];
            row.extend(cells(r).into_iter().map(parameter));
            row.push(Box::new(imported_from.to_owned()));
            let refs: Vec<&(dyn ToSql + Sync)> = row.iter().map(AsRef::as_ref).collect();
            if tx.execute(&statement, &refs).map_err(pg)? == 1 {
                inserted.added += 1;
            } else {
                inserted.duplicates += 1;
            }
        }
        tx.commit().map_err(pg)?;
        Ok(inserted)
    }

    fn list(&mut self, filter: &Filter) -> Result<Vec<BenchmarkRecord>, DbError> {
        let (sql, args) = list_sql(filter, |n| format!("${n}"));
        let refs: Vec<&(dyn ToSql + Sync)> = args.iter().map(|a| a as &(dyn ToSql + Sync)).collect();
        let rows = self.client.query(&sql, &refs).map_err(pg)?;
        rows.iter().map(record).collect()
    }

    fn stats(&mut self) -> Result<Stats, DbError> {
        let rows = self.client.query(STATS_SQL, &[]).map_err(pg)?;
        let rows: Vec<(String, String, i64)> = rows.iter().map(|r| (r.get(0), r.get(1), r.get(2))).collect();
        Ok(stats_of(self.schema_version()?, &rows))
    }
}
