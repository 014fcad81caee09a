//! Writing records out: JSON (an array of records, what `read_text` imports back) or CSV (one
//! column per field, JSON-valued fields as JSON text).

use crate::schema::COLUMNS;
use crate::{BenchmarkRecord, DbError};

/// The records as a JSON array.
pub fn to_json(records: &[BenchmarkRecord]) -> Result<String, DbError> {
    serde_json::to_string_pretty(records).map_err(|e| DbError::InvalidRecord(e.to_string()))
}

/// The records as CSV with a header of the schema's columns.
pub fn to_csv(records: &[BenchmarkRecord]) -> Result<String, DbError> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let io = |e: csv::Error| DbError::InvalidRecord(e.to_string());
    writer.write_record(COLUMNS).map_err(io)?;
    for r in records {
        let value = serde_json::to_value(r).map_err(|e| DbError::InvalidRecord(e.to_string()))?;
        let row: Vec<String> = COLUMNS
            .iter()
            .map(|c| match value.get(*c) {
                None | Some(serde_json::Value::Null) => String::new(),
                Some(serde_json::Value::String(s)) => s.clone(),
                Some(v) => v.to_string(),
            })
            .collect();
        writer.write_record(&row).map_err(io)?;
    }
    let bytes = writer.into_inner().map_err(|e| DbError::InvalidRecord(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| DbError::InvalidRecord(e.to_string()))
}
