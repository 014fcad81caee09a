//! `hwfit train`: the learned predictor fitted to the built-in measurements (plus `hwfit bench`'s),
//! with the leave-devices-out cross-validation report, written as ONNX.

use anyhow::{bail, Context, Result};
use hwfit_core::perf::fit::Accuracy;
use hwfit_core::{Catalog, DeviceCatalog, PerfModel};
use hwfit_db::{read_file, Filter};
use hwfit_learn::mlp::MlpConfig;
use hwfit_learn::records::training_set;
use hwfit_learn::train::{train, TrainConfig, TrainReport};

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
    if let Some(path) = &args.output {
        std::fs::write(path, &trained.onnx).with_context(|| format!("writing {}", path.display()))?;
    }
    if args.json {
        return output::json(&trained.report);
    }
    output::text(&render(&trained.report));
    if let Some(path) = &args.output {
        output::text(&format!(
            "wrote {} ({} bytes); use it with --predictor {}",
            path.display(),
            trained.onnx.len(),
            path.display()
        ));
    }
    Ok(())
}
