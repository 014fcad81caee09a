//! `hwfit models`.

use anyhow::Result;
use hwfit_core::catalog::{CatalogEntry, CatalogSummary};
use hwfit_core::{Catalog, ModelSpec, ResolvedModel};
use serde::Serialize;

use crate::cli::ModelsArgs;
use crate::{model_input, output};

/// Everything about one model, for `hwfit models MODEL`.
#[derive(Serialize)]
struct Detail<'a> {
    #[serde(flatten)]
    model: &'a ResolvedModel,
    parameters: u64,
    flops_per_item: u64,
    kv_cache_bytes_per_token_fp16: u64,
}

fn print_detail(model: &ResolvedModel, json: bool) -> Result<()> {
    let spec: &ModelSpec = &model.spec;
    let seq = spec.max_positions.clamp(1, 128);
    let detail = Detail {
        model,
        parameters: spec.parameters(),
        flops_per_item: spec.flops_per_item(seq),
        kv_cache_bytes_per_token_fp16: spec.kv_cache_bytes_per_token(2),
    };
    if json {
        return output::json(&detail);
    }
    output::text(&format!("{} ({} / {})", spec.name, spec.family, spec.subfamily));
    output::text(&format!(
        "parameters: {} ({})",
        output::params(detail.parameters),
        detail.parameters
    ));
    output::text(&format!(
        "forward GFLOPs per item at {seq} tokens: {:.2}",
        detail.flops_per_item as f64 / 1e9
    ));
    if detail.kv_cache_bytes_per_token_fp16 > 0 {
        output::text(&format!(
            "KV cache per token (fp16): {} KiB",
            detail.kv_cache_bytes_per_token_fp16 / 1024
        ));
    }
    output::text(&format!("source: {}", serde_json::to_string(&model.source)?));
    output::json(&spec.components)
}

/// Lists the catalog or shows one model.
pub fn run(args: &ModelsArgs) -> Result<()> {
    let catalog = Catalog::builtin();
    if args.model.is_some() || args.model_config.is_some() {
        let model = model_input::resolve(&catalog, args.model.as_deref(), args.model_config.as_deref())?;
        return print_detail(&model, args.json);
    }
    let rows: Vec<CatalogSummary<'_>> = catalog
        .entries()
        .iter()
        .filter(|e| args.family.is_none_or(|f| e.spec().family == f))
        .map(CatalogEntry::summary)
        .collect();
    if args.json {
        return output::json(&rows);
    }
    let mut table = output::table(["model", "family", "subfamily", "parameters", "max positions"]);
    for r in &rows {
        let positions = if r.max_positions == 0 {
            "-".to_string()
        } else {
            r.max_positions.to_string()
        };
        table.add_row([
            r.name.to_string(),
            r.family.to_string(),
            r.subfamily.to_string(),
            output::params(r.parameters),
            positions,
        ]);
    }
    output::text(&table.to_string());
    output::text(&format!("{} models", rows.len()));
    Ok(())
}
