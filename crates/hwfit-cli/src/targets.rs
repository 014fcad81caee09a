//! Candidates from `--hardware` (types on their reference devices) and `--device` (concrete devices).

use anyhow::Result;
use hwfit_core::{Candidate, DeviceCatalog, HardwareType};

/// Parses a comma-separated list, refusing one that names nothing.
pub fn list<'a>(flag: &str, value: &'a str) -> Result<Vec<&'a str>> {
    let items: Vec<&str> = value.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    anyhow::ensure!(!items.is_empty(), "the {flag} list is empty");
    Ok(items)
}

/// The candidates named; every hardware type with a reference device for `--hardware all` or when none is named.
pub fn candidates(hardware: Option<&str>, devices: &[String], catalog: &DeviceCatalog) -> Result<Vec<Candidate>> {
    let all = hardware.is_some_and(|v| v.trim().eq_ignore_ascii_case("all"));
    let mut types = Vec::new();
    if let Some(value) = hardware.filter(|_| !all) {
        for name in list("--hardware", value)? {
            types.push(name.parse::<HardwareType>()?);
        }
    }
    let mut names = Vec::new();
    for value in devices {
        names.extend(list("--device", value)?);
    }
    let mut out = hwfit_core::candidates_from(catalog, &types, &names)?;
    if all || (hardware.is_none() && devices.is_empty()) {
        out.extend(
            HardwareType::ALL
                .iter()
                .filter_map(|hw| Candidate::hardware(catalog, *hw).ok()),
        );
    }
    Ok(out)
}
