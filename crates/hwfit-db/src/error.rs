//! The database's errors.

/// What went wrong with the benchmark database or an import.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// SQLite refused an operation.
    #[error("SQLite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL refused an operation (or could not be reached).
    #[error("PostgreSQL: {0}")]
    Postgres(String),
    /// A file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A file is not in a format hwfit imports.
    #[error("{path}: {message}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong with it.
        message: String,
    },
    /// A record cannot be stored (a required field is missing or a number is out of range).
    #[error("invalid record: {0}")]
    InvalidRecord(String),
    /// A stored value cannot be read back.
    #[error("corrupt row {id}: {message}")]
    Corrupt {
        /// The row id.
        id: i64,
        /// What is wrong with it.
        message: String,
    },
    /// The database was written by a newer hwfit.
    #[error("the database is at schema version {found}; this hwfit knows up to {known}: upgrade hwfit")]
    NewerSchema {
        /// The database's version.
        found: u32,
        /// The newest this build knows.
        known: u32,
    },
    /// The database URL names no backend this build has.
    #[error("unsupported database '{0}': give a SQLite file path or a postgres:// URL")]
    UnsupportedUrl(String),
}
