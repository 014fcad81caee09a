//! `hwfit resources`.

use anyhow::Result;
use hwfit_core::{estimate_resources, Catalog, Family, ResourceRequest, ResourceRequirements, SpecSource, Subfamily};
use serde::Serialize;

use crate::cli::ResourcesArgs;
use crate::{model_input, output};

/// The JSON answer: the model, where its numbers come from, and the requirements.
#[derive(Serialize)]
struct Answer<'a> {
    model_name: &'a str,
    family: Family,
    subfamily: Subfamily,
    model_source: &'a SpecSource,
    resource_requirements: &'a ResourceRequirements,
}

fn print_text(answer: &Answer<'_>) {
    let r = answer.resource_requirements;
    let b = &r.breakdown;
    output::text(&format!(
        "{} ({}) on {} at {}, {} mode, batch {}, {} tokens",
        answer.model_name, answer.family, r.hardware, r.precision, r.mode, r.batch_size, r.seq_length
    ));
    if let SpecSource::NameEstimate { basis } = answer.model_source {
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
    let catalog = Catalog::builtin();
    let model = model_input::resolve(
        &catalog,
        args.model.model.as_deref(),
        args.model.model_config.as_deref(),
    )?;
    let req = ResourceRequest {
        hardware: args.hardware,
        precision: args.step.precision,
        mode: args.mode,
        batch_size: args.step.batch_size,
        seq_length: args.step.seq_length,
    };
    let requirements = estimate_resources(&model.spec, &req)?;
    let answer = Answer {
        model_name: &model.spec.name,
        family: model.spec.family,
        subfamily: model.spec.subfamily,
        model_source: &model.source,
        resource_requirements: &requirements,
    };
    if args.json {
        output::json(&answer)
    } else {
        print_text(&answer);
        Ok(())
    }
}
