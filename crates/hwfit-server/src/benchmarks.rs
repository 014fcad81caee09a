//! `GET /benchmarks` and `GET /benchmarks/stats`: the benchmark database that `hwfit bench` and
//! `hwfit db import` write (SQLite, or one PostgreSQL for a fleet), read by any number of servers.

use schemars::JsonSchema;
use serde::Deserialize;

/// The most records one answer carries.
pub const MAX_LIMIT: usize = 10_000;

/// The records `GET /benchmarks` lists (every field optional; all given must match), newest first.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct BenchmarksQuery {
    /// Model name contains this (case-insensitive).
    pub model: Option<String>,
    /// Hardware type (`cuda`, `cpu`, …).
    pub hardware: Option<String>,
    /// Device id or name contains this (case-insensitive).
    pub device: Option<String>,
    /// Runtime (`llama.cpp`, `tract`, …).
    pub runtime: Option<String>,
    /// At most this many (default 100, at most 10,000).
    pub limit: Option<usize>,
}

impl BenchmarksQuery {
    /// The database filter.
    #[must_use]
    pub fn filter(self) -> hwfit_db::Filter {
        hwfit_db::Filter {
            model: self.model,
            hardware_type: self.hardware,
            device: self.device,
            runtime: self.runtime,
            limit: Some(self.limit.unwrap_or(100).min(MAX_LIMIT)),
        }
    }
}
