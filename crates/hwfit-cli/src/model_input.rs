//! Turns `MODEL` / `--model-config PATH` into a resolved model.

use std::path::Path;

use anyhow::{Context, Result};
use hwfit_core::{Catalog, HfConfig, ResolvedModel};

/// Reads and parses a Hugging Face `config.json`.
pub fn read_config(path: &Path) -> Result<HfConfig> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read model config {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not a valid config.json", path.display()))
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
