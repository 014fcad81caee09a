//! `hwfit template`.

use anyhow::{Context, Result};
use hwfit_core::{Catalog, DeviceCatalog};

use crate::cli::TemplateArgs;
use crate::{model_input, output, targets, template};

/// Renders the starter file.
pub fn run(args: &TemplateArgs) -> Result<()> {
    let model = model_input::resolve(
        &Catalog::builtin(),
        args.model.model.as_deref(),
        args.model.model_config.as_deref(),
    )?;
    let named = args.targets.hardware.is_some() || !args.targets.devices.is_empty();
    let candidates = named
        .then(|| {
            targets::candidates(
                args.targets.hardware.as_deref(),
                &args.targets.devices,
                &DeviceCatalog::builtin(),
            )
        })
        .transpose()?;
    let rendered = template::render(&model, args.runtime, candidates, args.batch_size, args.precision)?;
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
            rendered.template,
            rendered.hardware,
            rendered.precision
        ));
    }
    Ok(())
}
