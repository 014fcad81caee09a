//! `hwfit models` and `hwfit model`.

use anyhow::Result;
use hwfit_core::api::{ModelDetail, ModelRequest, ModelsRequest};

use crate::cli::{ModelArg, ModelArgs, ModelsArgs};
use crate::{model_input, output};

fn print_detail(d: &ModelDetail) -> Result<()> {
    output::text(&format!("{} ({} / {})", d.name, d.family, d.subfamily));
    output::text(&format!(
        "parameters: {} ({})",
        output::params(d.parameters),
        d.parameters
    ));
    if d.active_parameters != d.parameters {
        output::text(&format!(
            "active parameters per token: {} ({})",
            output::params(d.active_parameters),
            d.active_parameters
        ));
    }
    // Models without token positions (convolutional networks, vision towers at their own image
    // size) take one input whatever the sequence length.
    let at = if d.flops_sequence_length > 1 {
        format!(" at {} tokens", d.flops_sequence_length)
    } else {
        String::new()
    };
    output::text(&format!(
        "forward GFLOPs per item{at}: {:.2}",
        d.flops_per_item as f64 / 1e9
    ));
    if d.kv_cache_bytes_per_token_fp16 > 0 {
        output::text(&format!(
            "KV cache per token (fp16): {} KiB",
            d.kv_cache_bytes_per_token_fp16 / 1024
        ));
    }
    if d.recurrent_state_bytes_fp16 > 0 {
        output::text(&format!(
            "recurrent state per sequence (fp16): {:.1} MiB, whatever its length",
            d.recurrent_state_bytes_fp16 as f64 / (1024.0 * 1024.0)
        ));
    }
    if let Some(c) = &d.checkpoint {
        let precision = c
            .precision
            .map_or_else(|| String::from("a format hwfit does not model"), |p| p.to_string());
        output::text(&format!("checkpoint: {precision} ({})", c.stated_by));
    }
    output::text(&format!("source: {}", serde_json::to_string(&d.source)?));
    output::json(&d.components)
}

/// Shows one model.
pub fn model(args: &ModelArgs) -> Result<()> {
    let (model_name, model_config) = model_input::model(&args.model)?;
    let detail = model_input::hwfit(None)?.ask(
        &ModelRequest {
            model_name,
            model_config,
        },
        &[],
    )?;
    if args.json {
        output::json(&detail)
    } else {
        print_detail(&detail)
    }
}

/// Lists the catalog, or with a model shows it (an alias of `hwfit model`).
pub fn run(args: &ModelsArgs) -> Result<()> {
    if args.model.is_some() || args.model_config.is_some() {
        return model(&ModelArgs {
            model: ModelArg {
                model: args.model.clone(),
                model_flag: None,
                model_config: args.model_config.clone(),
            },
            json: args.json,
        });
    }
    let hwfit = model_input::hwfit(None)?;
    let rows = hwfit.ask(&ModelsRequest { family: args.family }, &[])?;
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
