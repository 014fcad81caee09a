//! `hwfit serve`: builds the server's options from flags and environment, sets up logging and the
//! runtime, and runs `hwfit_server::serve`.

use std::time::Duration;

use anyhow::{Context, Result};
use hwfit_server::{HostHardware, ServerOptions};

use crate::cli::ServeArgs;
use crate::{model_input, output};

/// Serves until SIGINT/SIGTERM.
pub fn run(args: &ServeArgs) -> Result<()> {
    let filter = if args.debug { "debug" } else { "info,tower_http=info" };
    let subscriber = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| filter.into()))
        .with_writer(std::io::stderr);
    if args.log_format == "json" {
        subscriber.json().init();
    } else {
        subscriber.init();
    }
    let hwfit = model_input::hwfit(args.config.as_deref())?;
    let database = args
        .database
        .as_deref()
        .map(|url| hwfit_db::open(url).with_context(|| format!("cannot open the benchmark database {url}")))
        .transpose()?;
    let options = ServerOptions {
        api_key: match args.api_key.as_deref() {
            Some(key) if key.trim().is_empty() => {
                anyhow::bail!("--api-key (or HWFIT_API_KEY) is empty: give a key, or leave it out to serve without one")
            }
            key => key.map(str::to_owned),
        },
        cors_origins: args.cors_origins.clone(),
        max_body_bytes: args.max_body_bytes,
        request_timeout: Duration::from_secs(args.request_timeout),
        connections: hwfit_server::ConnectionLimits {
            max_connections: usize::try_from(args.max_connections).unwrap_or(usize::MAX),
            max_connections_per_client: usize::try_from(args.max_connections_per_client).unwrap_or(usize::MAX),
            header_timeout: Duration::from_secs(args.header_timeout),
        },
        max_concurrent_questions: args
            .max_concurrent_questions
            .map_or_else(hwfit_server::default_concurrent_questions, |n| {
                usize::try_from(n).unwrap_or(usize::MAX)
            }),
    };
    let host = match (&args.detection, args.no_detect) {
        (_, true) => HostHardware::Off,
        (Some(path), false) => HostHardware::Report(Box::new(hwfit_native::cache::read(path)?)),
        (None, false) => HostHardware::Detect,
    };
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    if let Some(n) = args.workers {
        anyhow::ensure!(n > 0, "--workers must be at least 1");
        runtime.worker_threads(n);
    }
    let runtime = runtime.enable_all().build().context("cannot start the async runtime")?;
    let addr = format!("{}:{}", args.host, args.port);
    let addr = if args.host.contains(':') && !args.host.starts_with('[') {
        format!("[{}]:{}", args.host, args.port)
    } else {
        addr
    };
    let hwfit = std::mem::ManuallyDrop::into_inner(hwfit);
    runtime.block_on(hwfit_server::serve(&addr, hwfit, host, database, &options, |bound| {
        output::text(&format!("hwfit serve: listening on http://{bound}"));
    }))?;
    Ok(())
}
