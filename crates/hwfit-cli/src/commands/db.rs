//! `hwfit db import|list|stats|export`: the benchmark database.

use std::path::PathBuf;

use anyhow::{Context, Result};
use hwfit_db::{export, read_file, Filter, Inserted, Rejected, Store};
use serde::Serialize;

use crate::cli::{DatabaseArg, DbCommand};
use crate::output;

/// The database the flag, `$HWFIT_DATABASE` or the default names.
pub(crate) fn database(arg: &DatabaseArg) -> Result<(String, Box<dyn Store>)> {
    let url = arg.database.clone().unwrap_or_else(|| {
        let dir = dirs::data_dir().map_or_else(|| PathBuf::from(".hwfit"), |d| d.join("hwfit"));
        dir.join("benchmarks.sqlite").display().to_string()
    });
    let store = hwfit_db::open(&url).with_context(|| format!("cannot open the benchmark database {url}"))?;
    Ok((url, store))
}

/// One file's import.
#[derive(Serialize)]
struct FileReport {
    file: String,
    format: &'static str,
    #[serde(flatten)]
    inserted: Inserted,
    rejected: Vec<Rejected>,
}

/// Runs a `hwfit db` subcommand.
pub fn run(command: &DbCommand) -> Result<()> {
    match command {
        DbCommand::Import {
            files,
            database: arg,
            json,
        } => {
            let (url, mut store) = database(arg)?;
            let mut reports = Vec::new();
            for file in files {
                let read = read_file(file)?;
                let name = file.display().to_string();
                let inserted = store
                    .insert(&read.records, &name)
                    .with_context(|| format!("importing {name} (nothing of it was stored)"))?;
                reports.push(FileReport {
                    file: name,
                    format: read.format,
                    inserted,
                    rejected: read.rejected,
                });
            }
            if *json {
                return output::json(&serde_json::json!({"database": url, "files": reports}));
            }
            for r in &reports {
                output::text(&format!(
                    "{}: {} — {} added, {} already there, {} rejected",
                    r.file,
                    r.format,
                    r.inserted.added,
                    r.inserted.duplicates,
                    r.rejected.len()
                ));
                for rejected in &r.rejected {
                    output::text(&format!("  {}: {}", rejected.at, rejected.reason));
                }
            }
            output::text(&format!("database: {url}"));
            Ok(())
        }
        DbCommand::List {
            model,
            hardware,
            device,
            runtime,
            limit,
            database: arg,
            json,
        } => {
            let (_, mut store) = database(arg)?;
            let records = store.list(&Filter {
                model: model.clone(),
                hardware_type: hardware.clone(),
                device: device.clone(),
                runtime: runtime.clone(),
                limit: Some(*limit),
            })?;
            if *json {
                return output::json(&records);
            }
            let mut table = output::table([
                "model",
                "device",
                "hw",
                "runtime",
                "precision",
                "workload",
                "batch",
                "throughput",
                "latency ms",
                "memory",
            ]);
            let number = |v: Option<f64>| {
                v.map_or_else(
                    || String::from("–"),
                    |v| format!("{v:.4}").trim_end_matches('0').trim_end_matches('.').to_owned(),
                )
            };
            for r in &records {
                table.add_row([
                    r.model_name.clone(),
                    r.device.clone(),
                    r.hardware_type.clone().unwrap_or_default(),
                    r.runtime.clone(),
                    r.precision.clone().unwrap_or_default(),
                    r.workload.clone().unwrap_or_default(),
                    r.batch_size.map(|b| b.to_string()).unwrap_or_default(),
                    r.throughput.map_or_else(String::new, |t| {
                        format!("{} {}", number(Some(t)), r.throughput_unit.clone().unwrap_or_default())
                    }),
                    number(r.latency_mean_ms),
                    r.memory_mb.map_or_else(String::new, output::mb),
                ]);
            }
            output::text(&table.to_string());
            Ok(())
        }
        DbCommand::Stats { database: arg, json } => {
            let (url, mut store) = database(arg)?;
            let stats = store.stats()?;
            if *json {
                return output::json(&stats);
            }
            output::text(&format!(
                "{url} (schema {}): {} measurements of {} models on {} devices",
                stats.schema_version, stats.records, stats.models, stats.devices
            ));
            let line = |title: &str, counts: &std::collections::BTreeMap<String, usize>| {
                let parts: Vec<String> = counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
                output::text(&format!("{title}: {}", parts.join(", ")));
            };
            line("by hardware type", &stats.by_hardware_type);
            line("by runtime", &stats.by_runtime);
            line("by import", &stats.by_import);
            Ok(())
        }
        DbCommand::Export {
            format,
            output: path,
            database: arg,
        } => {
            let (_, mut store) = database(arg)?;
            let records = store.list(&Filter::default())?;
            let text = if format == "csv" {
                export::to_csv(&records)?
            } else {
                export::to_json(&records)? + "\n"
            };
            match path {
                Some(p) => {
                    std::fs::write(p, text).with_context(|| format!("cannot write {}", p.display()))?;
                    output::note(&format!("wrote {} measurements to {}", records.len(), p.display()));
                }
                None => output::text(text.trim_end()),
            }
            Ok(())
        }
    }
}
