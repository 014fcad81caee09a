//! The model database: a JSON file of classifications by model name (IPFS Accelerate's `model_db_path`).
//! A name found there is answered from it; a new classification is recorded in it.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use hwfit_core::Classification;

/// Classifications by model name.
pub struct ModelDb {
    entries: BTreeMap<String, Classification>,
}

impl ModelDb {
    /// Opens the database; a missing file is an empty database.
    pub fn open(path: &Path) -> Result<Self> {
        let entries = match std::fs::read_to_string(path) {
            Ok(text) => serde_json::from_str(&text).with_context(|| {
                format!(
                    "model database {} is not a JSON object of classifications",
                    path.display()
                )
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => BTreeMap::new(),
            Err(e) => return Err(e).with_context(|| format!("cannot read model database {}", path.display())),
        };
        Ok(Self { entries })
    }

    /// The recorded classification of `name`, marked as coming from the database.
    pub fn get(&self, name: &str) -> Option<Classification> {
        self.entries.get(name).cloned().map(|mut c| {
            c.source = "model_db".into();
            c
        })
    }

    /// Records a classification and writes the file.
    pub fn record(&mut self, path: &Path, classification: &Classification) -> Result<()> {
        self.entries
            .insert(classification.model_name.clone(), classification.clone());
        let text = serde_json::to_string_pretty(&self.entries)?;
        std::fs::write(path, text).with_context(|| format!("cannot write model database {}", path.display()))
    }
}
