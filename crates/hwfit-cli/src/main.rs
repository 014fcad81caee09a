//! `hwfit`: which hardware should this ML model run on, how fast, how big.

mod cli;
mod commands;
mod detection;
mod model_db;
mod model_input;
mod output;
mod predictor;
mod serve;
mod template;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    predictor::choose(cli.predictor.clone());
    match commands::run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            output::error(&err);
            ExitCode::FAILURE
        }
    }
}
