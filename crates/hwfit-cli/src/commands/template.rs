//! `hwfit template`.

use anyhow::{Context, Result};
use hwfit_core::api::TemplateRequest;

use crate::cli::TemplateArgs;
use crate::{detection, model_input, output, template};

/// Decides and renders the starter file.
pub fn run(args: &TemplateArgs) -> Result<()> {
    let (model_name, model_config) = model_input::model(&args.model)?;
    let (hardware, devices, device_spec, browser) = model_input::targets(&args.targets)?;
    let hwfit = model_input::hwfit(args.config.config.as_deref())?;
    let request = TemplateRequest {
        model_name,
        model_config,
        runtime: args.runtime,
        hardware,
        devices,
        device_spec,
        browser,
        batch_size: args.batch_size,
        precision: args.precision,
    };
    let decision = detection::ask(&hwfit, &request, &args.detection)?;
    let rendered = template::render(&decision)?;
    if let Some(path) = &args.output {
        std::fs::write(path, &rendered.content).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        return output::json(&rendered);
    }
    if args.output.is_none() {
        output::text(rendered.content.trim_end());
    } else {
        output::text(&format!(
            "wrote {} from {} for {} at {}",
            args.output
                .as_deref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            rendered.decision.template,
            rendered.decision.hardware,
            rendered.decision.precision
        ));
    }
    Ok(())
}
