//! hwfit's benchmark database: every measurement — public figures from `data/measured/`, IPFS
//! Accelerate's benchmark results, `hwfit bench` runs on this machine — in one schema
//! ([`BenchmarkRecord`]), behind one storage trait ([`Store`]): SQLite embedded by default (nothing to
//! start), PostgreSQL for fleets whose hosts all write into one database.
//!
//! Imports run in one transaction (a crash leaves the database as it was), add no duplicates on
//! re-import (each record has a content key), and report every malformed row with its line number
//! while keeping the rest.

mod columns;
mod error;
pub mod export;
pub mod import;
pub mod llama_bench;
mod postgres;
mod record;
mod schema;
mod sqlite;
mod store;

pub use error::DbError;
pub use import::{read_file, read_text, FileRecords, Rejected};
pub use postgres::PostgresStore;
pub use record::BenchmarkRecord;
pub use sqlite::SqliteStore;
pub use store::{open, Filter, Inserted, Stats, Store};
