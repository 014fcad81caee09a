//! `hwfit compatibility` (alias `compat`).

use anyhow::Result;
use hwfit_core::api::CompatibilityRequest;
use hwfit_core::compat::SupportLevel;

use crate::output;

fn mark(support: SupportLevel) -> &'static str {
    match support {
        SupportLevel::Real => "✅ real",
        SupportLevel::Limited => "⚠️ limited",
        SupportLevel::Unsupported => "❌ no",
    }
}

/// Prints the compatibility matrix.
pub fn run(json: bool) -> Result<()> {
    let hwfit = crate::model_input::hwfit(None)?;
    let matrix = hwfit.ask(&CompatibilityRequest {}, &[])?;
    if json {
        return output::json(&matrix);
    }
    let mut header = vec!["family".to_string()];
    header.extend(matrix.hardware_types.iter().map(ToString::to_string));
    let mut table = output::table::<0>([]);
    table.set_header(header);
    for (family, row) in &matrix.model_families {
        let mut cells = vec![family.to_string()];
        cells.extend(
            row.hardware_compatibility
                .values()
                .map(|e| format!("{} ({})", mark(e.support), e.performance_rating)),
        );
        table.add_row(cells);
    }
    output::text(&table.to_string());
    output::text("\nWhere hwfit differs from the IPFS Accelerate's matrix:");
    for (family, row) in &matrix.model_families {
        for (hw, e) in &row.hardware_compatibility {
            if let Some(why) = &e.differs_from_ipfs_accelerate {
                output::text(&format!("  {family} on {hw}: {why}"));
            }
        }
    }
    output::text("\nPrecisions per hardware type (⚠️ = limited, see --json for the caveats):");
    for (hw, list) in &matrix.precision_support {
        let names: Vec<String> = list
            .iter()
            .map(|p| {
                if p.support == SupportLevel::Limited {
                    format!("{}⚠️", p.precision)
                } else {
                    p.precision.to_string()
                }
            })
            .collect();
        output::text(&format!("  {:<9} {}", hw.as_str(), names.join(", ")));
    }
    Ok(())
}
