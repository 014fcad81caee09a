//! `hwfit devices`.

use anyhow::Result;
use hwfit_core::api::DevicesRequest;

use crate::cli::DevicesArgs;
use crate::output;

fn rate(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |v| format!("{v}"))
}

/// Lists the device catalog.
pub fn run(args: &DevicesArgs) -> Result<()> {
    let hwfit = crate::model_input::hwfit(None)?;
    let devices = hwfit.devices(&DevicesRequest {
        hardware: args.hardware,
        all: args.all,
        query: args.query.clone(),
    });
    if args.json {
        return output::json(&devices);
    }
    let mut table = output::table([
        "id",
        "type",
        "memory GB",
        "GB/s",
        "fp32",
        "fp16",
        "fp8",
        "int8",
        "TDP W",
    ]);
    for d in &devices {
        let t = &d.dense_tflops;
        table.add_row([
            d.id.clone(),
            d.hardware_type.to_string(),
            format!("{}", d.memory_gb),
            format!("{}", d.memory_bandwidth_gbs),
            format!("{}", t.fp32),
            rate(t.fp16),
            rate(t.fp8),
            rate(t.int8),
            rate(d.tdp_w),
        ]);
    }
    output::text(&table.to_string());
    output::text(&format!(
        "{} devices; dense peak TFLOP/s (int8: TOPS); sources: hwfit devices --json",
        devices.len()
    ));
    Ok(())
}
