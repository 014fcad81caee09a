//! A record as column values and back, the same for every backend.

use crate::{BenchmarkRecord, DbError};

/// One column value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Cell {
    Text(Option<String>),
    Real(Option<f64>),
    Int(Option<i64>),
}

/// A record's column values, in [`crate::schema::COLUMNS`] order (JSON-valued fields as JSON text).
pub(crate) fn cells(r: &BenchmarkRecord) -> Vec<Cell> {
    let text = |s: &Option<String>| Cell::Text(s.clone());
    let json = |v: &Option<serde_json::Value>| Cell::Text(v.as_ref().map(ToString::to_string));
    let int = |v: Option<u32>| Cell::Int(v.map(i64::from));
    vec![
        Cell::Text(Some(r.model_name.clone())),
        text(&r.model_family),
        Cell::Real(r.model_parameters_m),
        json(&r.model_architecture),
        Cell::Text(Some(r.device.clone())),
        Cell::Text(Some(r.device_name.clone())),
        json(&r.device_profile),
        Cell::Int(Some(i64::from(r.device_count))),
        text(&r.hardware_type),
        Cell::Text(Some(r.runtime.clone())),
        text(&r.precision),
        text(&r.workload),
        int(r.batch_size),
        int(r.sequence_length),
        Cell::Real(r.throughput),
        text(&r.throughput_unit),
        Cell::Real(r.latency_mean_ms),
        Cell::Real(r.latency_p50_ms),
        Cell::Real(r.latency_p90_ms),
        Cell::Real(r.memory_mb),
        Cell::Text(Some(r.source.clone())),
        json(&r.host),
        text(&r.measured_at),
        text(&r.notes),
        text(&r.runtime_version),
        text(&r.execution),
        text(&r.math_mode),
        Cell::Real(r.memory_device_mb),
        int(r.warmup_runs),
        int(r.timed_runs),
    ]
}

/// Typed access to a selected row (`id, COLUMNS…`): column 0 is the id.
pub(crate) trait Columns {
    fn text(&self, i: usize) -> Result<Option<String>, DbError>;
    fn real(&self, i: usize) -> Result<Option<f64>, DbError>;
    fn int(&self, i: usize) -> Result<Option<i64>, DbError>;
}

/// A record from a selected row.
pub(crate) fn record(row: &impl Columns) -> Result<BenchmarkRecord, DbError> {
    let id = row.int(0)?.unwrap_or(0);
    let corrupt = |message: String| DbError::Corrupt { id, message };
    let required = |i: usize| -> Result<String, DbError> {
        row.text(i)?
            .ok_or_else(|| corrupt(format!("column {} is NULL", crate::schema::COLUMNS[i - 1])))
    };
    let json = |i: usize| -> Result<Option<serde_json::Value>, DbError> {
        row.text(i)?
            .map(|t| serde_json::from_str(&t))
            .transpose()
            .map_err(|e| corrupt(e.to_string()))
    };
    let count = |i: usize| -> Result<Option<u32>, DbError> {
        row.int(i)?
            .map(u32::try_from)
            .transpose()
            .map_err(|e| corrupt(e.to_string()))
    };
    Ok(BenchmarkRecord {
        model_name: required(1)?,
        model_family: row.text(2)?,
        model_parameters_m: row.real(3)?,
        model_architecture: json(4)?,
        device: required(5)?,
        device_name: required(6)?,
        device_profile: json(7)?,
        device_count: count(8)?.unwrap_or(1),
        hardware_type: row.text(9)?,
        runtime: required(10)?,
        runtime_version: row.text(25)?,
        execution: row.text(26)?,
        precision: row.text(11)?,
        math_mode: row.text(27)?,
        workload: row.text(12)?,
        batch_size: count(13)?,
        sequence_length: count(14)?,
        throughput: row.real(15)?,
        throughput_unit: row.text(16)?,
        latency_mean_ms: row.real(17)?,
        latency_p50_ms: row.real(18)?,
        latency_p90_ms: row.real(19)?,
        memory_mb: row.real(20)?,
        memory_device_mb: row.real(28)?,
        warmup_runs: count(29)?,
        timed_runs: count(30)?,
        source: required(21)?,
        host: json(22)?,
        measured_at: row.text(23)?,
        notes: row.text(24)?,
    })
}
