//! Turns `MODEL` / `--model-config PATH` into a resolved model.

use std::path::Path;

use anyhow::{Context, Result};
use hwfit_core::{Catalog, HfConfig, ResolvedModel};

/// Reads a file the user named and parses it with `parse`; errors say which file, and as what.
pub fn parse_file<T, E>(path: &Path, what: &str, parse: impl FnOnce(&str) -> Result<T, E>) -> Result<T>
where
    E: std::error::Error + Send + Sync + 'static,
{
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {what} {}", path.display()))?;
    parse(&text).with_context(|| format!("{} is not a valid {what}", path.display()))
}

/// Reads and parses a Hugging Face `config.json`.
pub fn read_config(path: &Path) -> Result<HfConfig> {
    parse_file(path, "model config", |text| serde_json::from_str(text))
}

/// Resolves the model named, or built from the config file given.
pub fn resolve(catalog: &Catalog, name: Option<&str>, config: Option<&Path>) -> Result<ResolvedModel> {
    if let Some(path) = config {
        let model = read_config(path)?.to_model(name)?;
        return Ok(model);
    }
    let name = name.context("a model name or --model-config is required")?;
    Ok(catalog.resolve(name)?)
}
