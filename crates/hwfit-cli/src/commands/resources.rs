//! `hwfit resources`.

use anyhow::Result;
use hwfit_core::api::{ResourcesAnswer, ResourcesRequest};
use hwfit_core::SpecSource;

use crate::cli::ResourcesArgs;
use crate::{model_input, output};

fn print_text(answer: &ResourcesAnswer) {
    let r = &answer.resource_requirements;
    let b = &r.breakdown;
    output::text(&format!(
        "{} ({}) on {} at {}, {} mode, batch {}, {} tokens",
        answer.model_name,
        answer.family,
        r.hardware,
        output::training_precision(r.precision, r.mixed_precision),
        r.mode,
        r.batch_size,
        r.seq_length
    ));
    if let SpecSource::NameEstimate { basis } = &answer.model_source {
        output::text(&format!("estimate: not in the catalog; {basis}"));
    }
    let mut table = output::table(["term", "MB"]);
    for (term, value) in [
        ("weights", b.weights_mb),
        ("activations", b.activations_mb),
        ("KV cache", b.kv_cache_mb),
        ("gradients", b.gradients_mb),
        ("optimizer state", b.optimizer_state_mb),
        ("runtime overhead", b.runtime_overhead_mb),
    ] {
        table.add_row([term.to_string(), format!("{value:.1}")]);
    }
    output::text(&table.to_string());
    output::text(&format!("minimum memory:     {}", output::mb(r.min_memory_mb as f64)));
    output::text(&format!(
        "recommended memory: {}",
        output::mb(r.recommended_memory_mb as f64)
    ));
    output::text(&format!("CPU cores:          {}", r.cpu_cores));
    output::text(&format!("disk space:         {}", output::mb(r.disk_space_mb as f64)));
    output::text(&format!("source:             {} ({})", r.source, r.notes.join("; ")));
}

/// Estimates and prints the requirements.
pub fn run(args: &ResourcesArgs) -> Result<()> {
    let (model_name, model_config) = model_input::model(&args.model)?;
    let answer = model_input::hwfit(None)?.resources(&ResourcesRequest {
        model_name,
        model_config,
        model_family: None,
        hardware: args.hardware,
        precision: args.step.precision,
        mode: args.mode,
        batch_size: args.step.batch_size,
        sequence_length: args.step.seq_length,
        mixed_precision: args.step.mixed_precision,
    })?;
    if args.json {
        output::json(&answer)
    } else {
        print_text(&answer);
        Ok(())
    }
}
