//! One module per command; each parses nothing and prints through `output`.

mod bench;
mod classify;
mod compatibility;
mod db;
mod detect;
mod devices;
mod fit;
mod models;
mod plan;
mod predict;
mod questions;
mod resources;
mod select;
mod template;
mod train;

use anyhow::Result;

use crate::cli::{Cli, Command};

/// Runs the parsed command.
pub fn run(cli: &Cli) -> Result<()> {
    match &cli.command {
        Command::Select(args) => select::run(args),
        Command::BatchSelect(args) => select::batch(args),
        Command::Map(args) => plan::map(args),
        Command::Predict(args) => predict::run(args),
        Command::Matrix(args) => plan::matrix(args),
        Command::Distributed(args) => plan::distributed(args),
        Command::Analyze(args) => predict::analyze(args),
        Command::Classify(args) => classify::run(args),
        Command::Models(args) => models::run(args),
        Command::Model(args) => models::model(args),
        Command::Recommend(args) => plan::recommend(args),
        Command::CompatibleModels(args) => plan::compatible_models(args),
        Command::Resources(args) => resources::run(args),
        Command::ResourcePool(args) => plan::resource_pool(args),
        Command::Compatibility(args) => compatibility::run(args.json),
        Command::Devices(args) => devices::run(args),
        Command::Template(args) => template::run(args),
        Command::Questions(args) => questions::run(args.json),
        Command::Fit(args) => fit::run(args),
        Command::Db(command) => db::run(command),
        Command::Detect(args) => detect::run(args),
        Command::Serve(args) => crate::serve::run(args),
        Command::Bench(args) => bench::run_bench(args),
        Command::Train(args) => train::run(args),
    }
}
