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

/// One file's import: what was stored and rejected, or why nothing of it was.
#[derive(Serialize)]
struct FileReport {
    file: String,
    format: Option<&'static str>,
    #[serde(flatten)]
    inserted: Inserted,
    rejected: Vec<Rejected>,
    /// Why the file was not stored (unreadable, refused by the database, or skipped under
    /// `--all-or-nothing`).
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

impl FileReport {
    fn failed(file: String, format: Option<&'static str>, rejected: Vec<Rejected>, error: String) -> Self {
        Self {
            file,
            format,
            inserted: Inserted::default(),
            rejected,
            error: Some(error),
        }
    }
}

/// Reads every file, then stores each (or, with `all_or_nothing`, none unless all are clean).
fn import(store: &mut dyn Store, files: &[PathBuf], all_or_nothing: bool) -> Vec<FileReport> {
    let read: Vec<(String, Result<hwfit_db::FileRecords, String>)> = files
        .iter()
        .map(|f| (f.display().to_string(), read_file(f).map_err(|e| e.to_string())))
        .collect();
    let blocker = all_or_nothing
        .then(|| {
            read.iter().find_map(|(name, r)| match r {
                Err(e) => Some(format!("{name} could not be read: {e}")),
                Ok(r) if !r.rejected.is_empty() => Some(format!("{name} has {} rejected rows", r.rejected.len())),
                Ok(_) => None,
            })
        })
        .flatten();
    read.into_iter()
        .map(|(name, r)| match (r, &blocker) {
            (Err(e), _) => FileReport::failed(name, None, Vec::new(), e),
            (Ok(r), Some(why)) => FileReport::failed(
                name,
                Some(r.format),
                r.rejected,
                format!("skipped: --all-or-nothing and {why}"),
            ),
            (Ok(r), None) => match store.insert(&r.records, &name) {
                Ok(inserted) => FileReport {
                    file: name,
                    format: Some(r.format),
                    inserted,
                    rejected: r.rejected,
                    error: None,
                },
                Err(e) => FileReport::failed(
                    name,
                    Some(r.format),
                    r.rejected,
                    format!("nothing of it was stored: {e}"),
                ),
            },
        })
        .collect()
}

/// Runs a `hwfit db` subcommand.
pub fn run(command: &DbCommand) -> Result<()> {
    match command {
        DbCommand::Import {
            files,
            database: arg,
            all_or_nothing,
            json,
        } => {
            let (url, mut store) = database(arg)?;
            let reports = import(store.as_mut(), files, *all_or_nothing);
            let failed = reports.iter().filter(|r| r.error.is_some()).count();
            if *json {
                output::json(&serde_json::json!({"database": url, "files": reports}))?;
            } else {
                for r in &reports {
                    match &r.error {
                        Some(e) => output::text(&format!("{}: not stored — {e}", r.file)),
                        None => output::text(&format!(
                            "{}: {} — {} added, {} already there, {} rejected",
                            r.file,
                            r.format.unwrap_or("?"),
                            r.inserted.added,
                            r.inserted.duplicates,
                            r.rejected.len()
                        )),
                    }
                    for rejected in &r.rejected {
                        output::text(&format!("  {}: {}", rejected.at, rejected.reason));
                    }
                }
                output::text(&format!("database: {url}"));
            }
            if failed > 0 {
                anyhow::bail!("{failed} of {} files were not stored (see the report)", reports.len());
            }
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
