//! The report of a run: a table of its records (printed, or Markdown with `--report`), the best
//! throughput per model and workload, or everything as JSON.

use std::fmt::Write as _;

use anyhow::Result;
use hwfit_db::BenchmarkRecord;
use serde::Serialize;

use super::RunContext;
use crate::output;

/// One model and workload's best throughput.
#[derive(Debug, Serialize)]
pub struct Best {
    /// The model.
    pub model: String,
    /// The workload.
    pub workload: String,
    /// Its best throughput.
    pub throughput: f64,
    /// In what unit.
    pub unit: String,
    /// At which batch size.
    pub batch_size: Option<u32>,
    /// At which sequence length.
    pub sequence_length: Option<u32>,
}

/// A run's report.
#[derive(Serialize)]
pub struct Report<'a> {
    runtime: &'a str,
    runtime_version: &'a str,
    execution: &'a str,
    hardware_type: String,
    device: &'a str,
    threads: usize,
    host: &'a serde_json::Value,
    best: Vec<Best>,
    records: &'a [BenchmarkRecord],
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(|| String::from("–"), |v| v.to_string())
}

fn ms(v: Option<f64>) -> String {
    v.map_or_else(|| String::from("–"), |v| format!("{v:.2}"))
}

const COLUMNS: [&str; 10] = [
    "model",
    "workload",
    "batch",
    "seq",
    "precision",
    "p50 ms",
    "p90 ms",
    "throughput",
    "unit",
    "runs",
];

fn row(r: &BenchmarkRecord) -> [String; 10] {
    [
        r.model_name.clone(),
        opt(r.workload.as_deref()),
        opt(r.batch_size),
        opt(r.sequence_length),
        opt(r.precision.as_deref()),
        ms(r.latency_p50_ms),
        ms(r.latency_p90_ms),
        r.throughput.map_or_else(|| String::from("–"), |t| format!("{t:.1}")),
        opt(r.throughput_unit.as_deref()),
        opt(r.timed_runs),
    ]
}

/// The best throughput of each model and workload, in the records' order.
fn best(records: &[BenchmarkRecord]) -> Vec<Best> {
    let mut out: Vec<Best> = Vec::new();
    for r in records {
        let (Some(throughput), Some(workload)) = (r.throughput, r.workload.clone()) else {
            continue;
        };
        let candidate = Best {
            model: r.model_name.clone(),
            workload,
            throughput,
            unit: r.throughput_unit.clone().unwrap_or_default(),
            batch_size: r.batch_size,
            sequence_length: r.sequence_length,
        };
        match out
            .iter_mut()
            .find(|b| b.model == candidate.model && b.workload == candidate.workload)
        {
            Some(b) if b.throughput < throughput => *b = candidate,
            Some(_) => {}
            None => out.push(candidate),
        }
    }
    out
}

impl<'a> Report<'a> {
    /// The report of `records`, measured in `context`.
    pub fn new(context: &'a RunContext, records: &'a [BenchmarkRecord]) -> Self {
        Self {
            runtime: context.runtime,
            runtime_version: &context.version,
            execution: &context.execution,
            hardware_type: context.hardware.to_string(),
            device: &context.device_name,
            threads: context.threads,
            host: &context.host,
            best: best(records),
            records,
        }
    }

    fn heading(&self) -> String {
        format!(
            "{} {} ({}) on {} [{}], {} thread(s)",
            self.runtime, self.runtime_version, self.execution, self.device, self.hardware_type, self.threads
        )
    }

    /// The report as Markdown: the run, every record, the best per model and workload.
    pub fn markdown(&self) -> String {
        let mut md = String::new();
        let _ = writeln!(md, "# hwfit bench\n\n{}\n", self.heading());
        let _ = writeln!(md, "| {} |", COLUMNS.join(" | "));
        let _ = writeln!(md, "|{}", "---|".repeat(COLUMNS.len()));
        for r in self.records {
            let _ = writeln!(md, "| {} |", row(r).join(" | ").replace('\n', " "));
        }
        let _ = writeln!(md, "\n## Best throughput per model and workload\n");
        let _ = writeln!(
            md,
            "| model | workload | throughput | unit | batch | seq |\n|---|---|---|---|---|---|"
        );
        for b in &self.best {
            let _ = writeln!(
                md,
                "| {} | {} | {:.1} | {} | {} | {} |",
                b.model,
                b.workload,
                b.throughput,
                b.unit,
                opt(b.batch_size),
                opt(b.sequence_length)
            );
        }
        md
    }

    /// Prints the report (a table, or JSON), and where the records were stored.
    pub fn print(&self, json: bool, stored: Option<(&str, usize)>) -> Result<()> {
        if json {
            let mut value = serde_json::to_value(self)?;
            value["database"] = serde_json::json!(stored.map(|(url, _)| url));
            return output::json(&value);
        }
        output::text(&self.heading());
        let mut table = output::table(COLUMNS);
        for r in self.records {
            table.add_row(row(r));
        }
        output::text(&table.to_string());
        if let Some((url, added)) = stored {
            output::text(&format!("{} records stored in {url} ({added} new)", self.records.len()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(model: &str, workload: &str, batch: u32, throughput: f64) -> BenchmarkRecord {
        let mut r = BenchmarkRecord::new(model, "cpu", "tract", "measured here");
        r.workload = Some(workload.into());
        r.batch_size = Some(batch);
        r.throughput = Some(throughput);
        r
    }

    #[test]
    fn best_keeps_the_fastest_case_of_each_model_and_workload() {
        let records = [
            record("gpt2", "prefill", 1, 100.0),
            record("gpt2", "prefill", 4, 300.0),
            record("gpt2", "decode", 1, 20.0),
            record("bert", "forward", 4, 50.0),
        ];
        let best = best(&records);
        assert_eq!(best.len(), 3);
        assert_eq!((best[0].batch_size, best[0].throughput), (Some(4), 300.0));
        assert_eq!(best[1].workload, "decode");
    }
}
