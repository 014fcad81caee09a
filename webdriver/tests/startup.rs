//! The npm package's start-up as a web app meets it, in fresh headless Chromium sessions: import
//! `pkg/hwfit.js` into an empty page served gzipped over loopback, `init()`, `import('hwfit/devices.js')` and
//! `loadDeviceDatabase(text)`,
//! `probe()`, then the first `select()`. A benchmark, not a test: it prints the figures (and checks
//! only that the answer is real). `scripts/bench-browser [RUNS]` runs it after building `pkg/`;
//! `HWFIT_BENCH_RUNS` sets how many fresh browsers it times, `HWFIT_BENCH_PKG` another build's folder to
//! time (under the repository root; `pkg` by default).
#![allow(clippy::print_stdout, reason = "the benchmark reports its figures on stdout")]

mod common;

use common::{browser, chromedriver, evaluate, serve};
use serde_json::json;

/// The steps, each timed with `performance.now()` in the page.
const STARTUP: &str = r"
const now = () => performance.now();
const t0 = now();
const hwfit = await import(`/${PKG}/hwfit.js`);
const t1 = now();
await hwfit.default();
const t2 = now();
const text = (await import(`/${PKG}/devices.js`)).default;
const tText = now();
const devices = await hwfit.loadDeviceDatabase(text);
const t3 = now();
await hwfit.probe();
const t4 = now();
const answer = await hwfit.select({modelName: 'bert-base-uncased'});
const t5 = now();
return {devices, primary: answer.primaryRecommendation,
        ms: [['import hwfit.js', t1 - t0], ['init()', t2 - t1], ['fetch devices.js', tText - t2], ['load the device database', t3 - tText],
             ['probe', t4 - t3], ['first select', t5 - t4], ['probe → first recommendation', t5 - t3]]};
";

#[tokio::test]
#[ignore = "a benchmark that needs pkg/ and chromedriver: scripts/bench-browser"]
async fn package_startup() {
    let runs: usize = std::env::var("HWFIT_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1);
    // Another build of the package to compare (a folder under the repository root), else `pkg/`.
    let package = std::env::var("HWFIT_BENCH_PKG").unwrap_or_else(|_| String::from("pkg"));
    let addr = serve().await;
    let driver = chromedriver();
    for _ in 0..runs {
        let c = browser(&driver, "webgpu.json", 800, 600).await;
        c.goto(&format!("http://{addr}/blank.html")).await.unwrap();
        let run = evaluate(&c, &format!("const PKG = {};\n{STARTUP}", json!(package))).await;
        assert!(run["devices"].as_u64().unwrap() >= 2000, "the device database: {run}");
        assert_eq!(run["primary"], "wasm", "SwiftShader must not win over WASM: {run}");
        let figures: Vec<String> = run["ms"]
            .as_array()
            .unwrap()
            .iter()
            .map(|step| format!("{} {:.1}", step[0].as_str().unwrap(), step[1].as_f64().unwrap()))
            .collect();
        println!("timings (ms, the npm package): {}", figures.join("; "));
        c.close().await.unwrap();
    }
}
