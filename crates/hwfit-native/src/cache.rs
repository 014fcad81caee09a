//! The detection cache: IPFS Accelerate's `hardware_cache.json` in the user's cache directory
//! (`$HWFIT_CACHE_DIR` overrides it), trusted for a maximum age and only from the same hwfit version.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::report::DetectionReport;
use crate::NativeError;

/// The cache file name IPFS Accelerate use.
pub const FILE_NAME: &str = "hardware_cache.json";

/// `$HWFIT_CACHE_DIR/hardware_cache.json`, else `<user cache dir>/hwfit/hardware_cache.json`.
#[must_use]
pub fn default_path() -> Option<PathBuf> {
    std::env::var_os("HWFIT_CACHE_DIR")
        .map(PathBuf::from)
        .or_else(|| dirs::cache_dir().map(|d| d.join("hwfit")))
        .map(|d| d.join(FILE_NAME))
}

/// Seconds since the Unix epoch.
#[must_use]
pub fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// Reads a report written by `hwfit detect --json` or the cache; errors say which file and why.
pub fn read(path: &Path) -> Result<DetectionReport, NativeError> {
    let text = std::fs::read_to_string(path).map_err(|source| NativeError::Read {
        path: path.to_owned(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|e| NativeError::Parse {
        path: path.to_owned(),
        message: e.to_string(),
    })
}

/// The cached report, when it exists, parses, is from this hwfit version and is younger than `max_age`.
#[must_use]
pub fn load_fresh(path: &Path, max_age: Duration) -> Option<DetectionReport> {
    let report = read(path).ok()?;
    let age = now().saturating_sub(report.detected_at);
    (report.hwfit_version == env!("CARGO_PKG_VERSION") && age <= max_age.as_secs()).then_some(report)
}

/// Writes the report (creating the directory).
pub fn save(path: &Path, report: &DetectionReport) -> Result<(), NativeError> {
    let write = |source| NativeError::Write {
        path: path.to_owned(),
        source,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(write)?;
    }
    let json = serde_json::to_string_pretty(report).map_err(|e| NativeError::Parse {
        path: path.to_owned(),
        message: e.to_string(),
    })?;
    std::fs::write(path, json).map_err(write)
}
