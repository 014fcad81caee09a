//! `hwfit train`: the learned predictor fitted to the built-in measurements (plus `hwfit bench`'s),
//! with the leave-devices-out cross-validation report, written as ONNX.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use hwfit_core::perf::fit::Accuracy;
use hwfit_core::{Catalog, DeviceCatalog, PerfModel};
use hwfit_db::{read_file, Filter};
use hwfit_learn::mlp::MlpConfig;
use hwfit_learn::records::training_set;
use hwfit_learn::train::{train, TrainConfig, TrainReport, Trained};

use crate::cli::TrainArgs;
use crate::output;

fn pct(a: &Accuracy) -> String {
    format!(
        "{:>5.1}% within ±25%, median |log error| {:.3} (n = {})",
        a.within_25_percent * 100.0,
        a.median_abs_log_error,
        a.samples
    )
}

/// The report as text.
pub fn render(report: &TrainReport) -> String {
    let mut out = format!(
        "{} measurements, {} devices, {} leave-devices-out folds, MLP with {} parameters\n  analytic: {}\n  learned:  {}\n  hwfit (learned where better, else analytic): {}\n",
        report.samples,
        report.devices,
        report.folds,
        report.parameters,
        pct(&report.analytic),
        pct(&report.learned),
        pct(&report.combined),
    );
    let mut table = output::table(["hardware", "workload class", "devices", "analytic", "learned", "used"]);
    for c in &report.cells {
        let short = |a: &Accuracy| format!("{:.0}% / {:.3}", a.within_25_percent * 100.0, a.median_abs_log_error);
        table.add_row([
            c.hardware_type.to_string(),
            format!("{:?}", c.class).to_lowercase(),
            c.devices.to_string(),
            short(&c.analytic),
            short(&c.learned),
            if c.learned_used {
                "learned".into()
            } else {
                "analytic".into()
            },
        ]);
    }
    out.push_str(&table.to_string());
    out
}

/// Runs `hwfit train`.
pub fn run(args: &TrainArgs) -> Result<()> {
    let catalog = Catalog::builtin();
    let devices = DeviceCatalog::bundled()?;
    let mut records = Vec::new();
    for file in &args.records {
        records.extend(read_file(file)?.records);
    }
    if args.from_database {
        let (_, mut store) = super::db::database(&args.database)?;
        records.extend(store.list(&Filter {
            runtime: Some(String::from("tract")),
            ..Filter::default()
        })?);
    }
    let training = training_set(records, &catalog, &devices)?;
    if args.folds < 2 {
        bail!("--folds must be at least 2");
    }
    let config = TrainConfig {
        mlp: MlpConfig {
            seed: args.seed,
            ..MlpConfig::default()
        },
        folds: args.folds,
    };
    let trained = train(&training, &PerfModel::builtin()?, &config)?;
    let written = match &args.output {
        Some(path) => write_model(path, &trained)?,
        None => Vec::new(),
    };
    if args.json {
        return output::json(&trained.report);
    }
    output::text(&render(&trained.report));
    for (path, bytes, what) in &written {
        output::text(&format!("wrote {} ({bytes} bytes): {what}", path.display()));
    }
    Ok(())
}

/// Writes `FILE.onnx` and beside it `FILE.nnef.tar` (tract's NNEF form, for the npm package's
/// `loadPredictor`) and `FILE.reference.json` (the Rust network's and tract's answers on the training steps).
fn write_model(path: &Path, trained: &Trained) -> Result<Vec<(PathBuf, usize, &'static str)>> {
    let stem = path.with_extension("");
    let sibling = |suffix: &str| {
        let mut name = stem.clone().into_os_string();
        name.push(suffix);
        PathBuf::from(name)
    };
    let reference = serde_json::to_vec_pretty(&trained.reference)?;
    let files = [
        (
            path.to_path_buf(),
            trained.onnx.as_slice(),
            "the model, for --predictor and the server's --predictor",
        ),
        (
            sibling(".nnef.tar"),
            trained.nnef.as_slice(),
            "its NNEF form, for the npm package's loadPredictor(bytes)",
        ),
        (
            sibling(".reference.json"),
            reference.as_slice(),
            "the network's answers on the training steps, to check a runtime against",
        ),
    ];
    files
        .into_iter()
        .map(|(file, bytes, what)| {
            std::fs::write(&file, bytes).with_context(|| format!("writing {}", file.display()))?;
            Ok((file, bytes.len(), what))
        })
        .collect()
}
