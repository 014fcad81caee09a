//! The learned predictor every command predicts with: the built-in trained model, the one
//! `--predictor FILE` names, or none (`--predictor none`).

use std::sync::{Arc, OnceLock};

use anyhow::{Context, Result};
use hwfit_core::perf::ResidualModel;
use hwfit_core::Hwfit;
use hwfit_learn::TractPredictor;

static CHOICE: OnceLock<Option<String>> = OnceLock::new();

/// Records `--predictor` (once, from `main`).
pub fn choose(predictor: Option<String>) {
    let _ = CHOICE.set(predictor);
}

/// The predictor chosen, loaded (`None` for `--predictor none`).
pub fn load() -> Result<Option<TractPredictor>> {
    match CHOICE.get().cloned().flatten().as_deref() {
        Some("none") => Ok(None),
        Some(path) => {
            let bytes = std::fs::read(path).with_context(|| format!("--predictor {path}"))?;
            Ok(Some(
                TractPredictor::from_bytes(&bytes).with_context(|| format!("--predictor {path}"))?,
            ))
        }
        None => Ok(Some(
            TractPredictor::default_model().context("the built-in learned predictor")?,
        )),
    }
}

/// `hwfit` with the chosen predictor installed.
pub fn install(hwfit: Hwfit) -> Result<Hwfit> {
    let learned = load()?.map(|p| Arc::new(p) as Arc<dyn ResidualModel>);
    Ok(hwfit.with_learned(learned))
}
