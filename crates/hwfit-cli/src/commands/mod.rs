//! One module per command; each parses nothing and prints through `output`.

mod bench;
mod calibrate;
mod classify;
mod compat;
mod db;
mod detect;
mod devices;
mod models;
mod plan;
mod predict;
mod resources;
mod select;
mod template;
mod train;

use anyhow::Result;

use crate::cli::{Cli, Command};

/// Runs the parsed command.
pub fn run(cli: &Cli) -> Result<()> {
    match &cli.command {
        Command::Classify(args) => classify::run(args),
        Command::Models(args) => models::run(args),
        Command::Resources(args) => resources::run(args),
        Command::Compat(args) => compat::run(args.json),
        Command::Devices(args) => devices::run(args),
        Command::Predict(args) => predict::run(args),
        Command::Calibrate(args) => calibrate::run(args),
        Command::Select(args) => select::run(args),
        Command::Batch(args) => select::batch(args),
        Command::Db(command) => db::run(command),
        Command::Analyze(args) => predict::analyze(args),
        Command::Matrix(args) => plan::matrix(args),
        Command::Map(args) => plan::map(args),
        Command::Distributed(args) => plan::distributed(args),
        Command::ResourceConfig(args) => plan::resource_config(args),
        Command::Recommend(args) => plan::recommend(args),
        Command::Compatible(args) => plan::compatible(args),
        Command::Template(args) => template::run(args),
        Command::Detect(args) => detect::run(args),
        Command::Serve(args) => crate::serve::run(args),
        Command::Bench(args) => bench::run_bench(args),
        Command::Train(args) => train::run(args),
    }
}
