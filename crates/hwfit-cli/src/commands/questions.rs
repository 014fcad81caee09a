//! `hwfit questions`: the core's list of questions, as every face names and routes them.

use anyhow::Result;

use crate::output;

/// Prints the list.
pub fn run(json: bool) -> Result<()> {
    let questions = hwfit_core::api::questions();
    if json {
        return output::json(&questions);
    }
    let mut table = output::table(["question (CLI)", "JS", "Python", "HTTP", "local devices", "aliases"]);
    for q in &questions {
        table.add_row([
            q.name.to_owned(),
            q.js.clone(),
            q.python.clone(),
            format!("{} {}", q.method.as_str(), q.path),
            if q.targeted {
                "when none named".into()
            } else {
                "-".into()
            },
            q.aliases.join(", "),
        ]);
    }
    output::text(&table.to_string());
    Ok(())
}
