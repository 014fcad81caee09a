//! `hwfit classify`.

use anyhow::Result;
use hwfit_core::api::ClassifyModelRequest;
use hwfit_core::{Classification, Classifier};

use crate::cli::ClassifyArgs;
use crate::model_db::ModelDb;
use crate::{model_input, output};

fn print_text(c: &Classification) {
    let Some(family) = &c.family else {
        output::text(&format!(
            "{}: no family recognised (give --class, --task or --method)",
            c.model_name
        ));
        return;
    };
    output::text(&format!("Model:      {}", c.model_name));
    output::text(&format!("Family:     {family} (confidence {:.2})", c.confidence));
    if let Some(sub) = &c.subfamily {
        output::text(&format!("Subfamily:  {sub} (confidence {:.2})", c.subfamily_confidence));
    }
    if let Some(t) = &c.recommended_template {
        output::text(&format!("Template:   {t}"));
    }
    output::text(&format!("Source:     {}", c.source));
    let mut table = output::table(["analysis", "family", "confidence", "subfamily", "evidence"]);
    for a in &c.analyses {
        table.add_row([
            a.source.clone(),
            a.family.clone().unwrap_or_else(|| "-".into()),
            format!("{:.2}", a.confidence),
            a.subfamily.clone().unwrap_or_else(|| "-".into()),
            a.evidence.join(", "),
        ]);
    }
    output::text(&table.to_string());
}

/// Classifies the model, answering from and recording in the model database when one is given.
pub fn run(args: &ClassifyArgs) -> Result<()> {
    let (model_name, model_config) = model_input::model(&args.model)?;
    let req = ClassifyModelRequest {
        model_name,
        model_class: args.class.clone(),
        tasks: args.tasks.clone(),
        methods: args.methods.clone(),
        model_config,
    };
    let mut hwfit = model_input::hwfit(None)?;
    if let Some(path) = &args.families {
        hwfit = std::mem::ManuallyDrop::new(std::mem::ManuallyDrop::into_inner(hwfit).with_classifier(
            model_input::parse_file(path, "family definitions file", Classifier::with_custom_definitions)?,
        ));
    }
    let mut db = args.model_db.as_deref().map(ModelDb::open).transpose()?;
    let cached = db.as_ref().and_then(|db| db.get(&req.model_name));
    let result = if let Some(hit) = cached {
        hit
    } else {
        let fresh = hwfit.classify(&req)?;
        if let (Some(db), Some(path)) = (db.as_mut(), args.model_db.as_deref()) {
            if fresh.family.is_some() {
                db.record(path, &fresh)?;
            }
        }
        fresh
    };
    if args.json {
        output::json(&result)
    } else {
        print_text(&result);
        Ok(())
    }
}
