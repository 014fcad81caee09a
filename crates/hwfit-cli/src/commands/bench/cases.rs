//! What `hwfit bench` measures: the models named (catalog names or config.json files), a family's
//! catalog models, or the default set; and each model's cases (workload × batch × sequence).

use std::path::Path;

use anyhow::{bail, Context, Result};
use hwfit_core::spec::ModelSpec;
use hwfit_core::{Catalog, HfConfig, Mode, Workload};

use crate::cli::BenchArgs;

/// Models measured when none are named: small enough for 2 cores in about a minute.
const DEFAULT_MODELS: [&str; 4] = [
    "sentence-transformers/all-MiniLM-L6-v2",
    "bert-base-uncased",
    "gpt2",
    "resnet-50",
];

/// A model to measure.
#[derive(Debug, Clone)]
pub struct BenchModel {
    /// Its name in the records (the Hub id where known).
    pub name: String,
    /// Its architecture.
    pub spec: ModelSpec,
    /// The config.json it was read from (a file named, or the catalog's copy), for the runtimes
    /// that build the model themselves (PyTorch).
    pub config: Option<serde_json::Value>,
}

/// One case to run.
#[derive(Debug, Clone)]
pub struct Case {
    /// Index into the models.
    pub model: usize,
    /// What runs.
    pub workload: Workload,
    /// Items per step.
    pub batch: u32,
    /// Tokens per sequence (1 for images).
    pub seq: u32,
}

fn from_config_file(path: &Path) -> Result<BenchModel> {
    let config: serde_json::Value =
        crate::model_input::parse_file(path, "model config", |text| serde_json::from_str(text))?;
    let name = crate::model_input::config_model_name(path, &config);
    let model = HfConfig::deserialize_value(&config)
        .and_then(|c| c.to_model(Some(&name)))
        .with_context(|| format!("{} is not a config.json hwfit reads", path.display()))?;
    Ok(BenchModel {
        name,
        spec: model.spec,
        config: Some(config),
    })
}

fn from_catalog(catalog: &Catalog, name: &str) -> Result<BenchModel> {
    let model = catalog.resolve(name).with_context(|| format!("--model {name}"))?;
    let config = hwfit_core::catalog::config_of(&model.spec.name).and_then(|text| serde_json::from_str(text).ok());
    Ok(BenchModel {
        name: model.spec.name.clone(),
        spec: model.spec,
        config,
    })
}

/// The models to measure: those named; else the family's catalog models that `buildable` accepts
/// and whose fp32 weights take at most `memory_mb`, smallest first; else the default set.
pub fn models(
    args: &BenchArgs,
    catalog: &Catalog,
    memory_mb: f64,
    buildable: impl Fn(&BenchModel) -> bool,
) -> Result<Vec<BenchModel>> {
    let family_ok = |spec: &ModelSpec| args.family.is_none_or(|f| f == spec.family);
    let mut out = Vec::new();
    if !args.models.is_empty() {
        for name in &args.models {
            let path = Path::new(name);
            let model = if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")) && path.is_file() {
                from_config_file(path)?
            } else {
                from_catalog(catalog, name)?
            };
            if family_ok(&model.spec) {
                out.push(model);
            }
        }
    } else if let Some(family) = args.family {
        let mut found: Vec<BenchModel> = catalog
            .entries()
            .iter()
            .filter(|e| e.spec().family == family)
            .filter_map(|e| from_catalog(catalog, &e.spec().name).ok())
            .filter(|m| m.spec.parameters() as f64 * 4.0 / 1e6 <= memory_mb && buildable(m))
            .collect();
        found.sort_by_key(|m| m.spec.parameters());
        if found.is_empty() {
            bail!("no {family} model of the catalog fits this machine's memory with this runtime");
        }
        out = found;
    } else {
        for name in DEFAULT_MODELS {
            out.push(from_catalog(catalog, name)?);
        }
    }
    if out.is_empty() {
        bail!("no model left to measure (check --model and --family)");
    }
    Ok(out)
}

/// Checks the batch sizes and sequence lengths (each at least 1, at most 2^20).
pub fn check_sizes(args: &BenchArgs) -> Result<()> {
    const LIMIT: u32 = 1 << 20;
    for (what, values) in [
        ("batch sizes", &args.batch_sizes),
        ("sequence lengths", &args.seq_lengths),
    ] {
        if values.is_empty() || values.iter().any(|&n| n == 0 || n > LIMIT) {
            bail!("{what} must be between 1 and {LIMIT}");
        }
    }
    Ok(())
}

/// Checks `--workloads` against `--mode`: every workload named must belong to it.
pub fn check_workloads(args: &BenchArgs) -> Result<()> {
    if let Some(other) = args.workloads.iter().find(|w| w.mode() != args.mode) {
        bail!(
            "--workloads {other} is a {} workload, and this run's --mode is {}",
            other.mode(),
            args.mode
        );
    }
    Ok(())
}

/// Whether `--workloads` asks for `workload` (all do when it is not given).
pub fn wanted(args: &BenchArgs, workload: Workload) -> bool {
    args.workloads.is_empty() || args.workloads.contains(&workload)
}

/// The cases of the graph runners (tract, ONNX Runtime): every workload the runner builds for
/// each model × batch size × sequence length (one case per batch size for images). A model the
/// runner cannot build is an error naming it.
pub fn graph_cases(args: &BenchArgs, models: &[BenchModel]) -> Result<Vec<Case>> {
    if args.mode == Mode::Training {
        bail!("training steps are measured by the PyTorch runner (--runtime pytorch --mode training)");
    }
    check_sizes(args)?;
    check_workloads(args)?;
    let mut out = Vec::new();
    for (index, model) in models.iter().enumerate() {
        let workloads = hwfit_learn::runner::workloads(&model.spec);
        if workloads.is_empty() {
            bail!(
                "{}: the graph runners build single-stack text transformers without experts and ResNets; measure it with --runtime pytorch",
                model.name
            );
        }
        let chosen: Vec<Workload> = workloads.iter().copied().filter(|&w| wanted(args, w)).collect();
        if chosen.is_empty() {
            let names: Vec<String> = workloads.iter().map(ToString::to_string).collect();
            bail!(
                "{}: --workloads leaves it nothing to run (it runs {})",
                model.name,
                names.join(", ")
            );
        }
        let images = model.spec.conv_nets().next().is_some();
        for workload in chosen {
            for &batch in &args.batch_sizes {
                let seqs: &[u32] = if images { &[1] } else { &args.seq_lengths };
                for &seq in seqs {
                    out.push(Case {
                        model: index,
                        workload,
                        batch,
                        seq,
                    });
                }
            }
        }
    }
    Ok(out)
}

/// Whether a family's catalog model is one `hwfit bench` can build with the graph runners.
pub fn graph_buildable(model: &BenchModel) -> bool {
    !hwfit_learn::runner::workloads(&model.spec).is_empty()
}

/// Whether the PyTorch runner can build it (it needs the config.json).
pub fn config_buildable(model: &BenchModel) -> bool {
    model.config.is_some()
}
