//! The devtools demo page in headless Chromium: the probe panel, the recommendation against the
//! library's own answer, charts, a dropped config.json, a bad model name, the measure button, the
//! time to the first recommendation and the bytes transferred (printed, not asserted), screenshots.
//! Run by `scripts/test-page` (it builds `pkg/` first): `cargo test -p hwfit-webdriver -- --ignored`.
#![allow(
    clippy::print_stdout,
    reason = "the timings, bytes and screenshot paths are reported on stdout"
)]

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::{browser, chromedriver, evaluate, script, serve, workspace};
use fantoccini::{Client, Locator};
use serde_json::json;

/// Where screenshots go: `$HWFIT_SCREENSHOT_DIR`, else `screenshots/` in the cargo target dir.
fn screenshot_dir() -> PathBuf {
    std::env::var_os("HWFIT_SCREENSHOT_DIR").map_or_else(
        || {
            let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| workspace().join("target"), PathBuf::from);
            target.join("screenshots")
        },
        PathBuf::from,
    )
}

/// Waits until `#status` says `state` (or the page failed).
async fn wait_for_state(c: &Client, state: &str, timeout: Duration) {
    let deadline = Instant::now() + timeout;
    loop {
        let now = script(c, "const s = document.getElementById('status'); return [s.dataset.state, s.textContent, document.getElementById('error').textContent];").await;
        if now[0] == state {
            return;
        }
        assert_ne!(now[0], "failed", "the page failed: {now}");
        assert!(Instant::now() < deadline, "waited {timeout:?} for '{state}': {now}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn text(c: &Client, css: &str) -> String {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .text()
        .await
        .unwrap()
}

async fn attribute(c: &Client, css: &str, name: &str) -> Option<String> {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .attr(name)
        .await
        .unwrap()
}

async fn submit(c: &Client) {
    c.find(Locator::Id("recommend")).await.unwrap().click().await.unwrap();
}

async fn set_model(c: &Client, name: &str) {
    let input = c.find(Locator::Id("model-name")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(name).await.unwrap();
}

/// Chooses `value` in the page's precision list (`""`: the checkpoint's).
async fn set_precision(c: &Client, value: &str) {
    script(c, &format!("document.getElementById('precision').value = {value:?};")).await;
}

/// Waits until `css` exists.
async fn wait_for(c: &Client, css: &str) {
    c.wait()
        .at_most(Duration::from_secs(60))
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("waiting for {css}: {e}"));
}

/// Chooses the workspace file at `path` in the page's config.json input.
async fn drop_config(c: &Client, path: &str) {
    let config = workspace().join(path);
    c.find(Locator::Id("config-file"))
        .await
        .unwrap()
        .send_keys(config.to_str().unwrap())
        .await
        .unwrap();
}

/// Clears the page's config.json.
async fn clear_config(c: &Client) {
    c.find(Locator::Id("clear-config"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// Clears the page's config.json and chooses the workspace file at `path` instead.
async fn replace_config(c: &Client, path: &str) {
    clear_config(c).await;
    drop_config(c, path).await;
}

/// The text of `css` once it holds `needle`, or after 30 s, whatever it holds then.
async fn wait_for_text(c: &Client, css: &str, needle: &str) -> String {
    let mut seen = String::new();
    for _ in 0..60 {
        seen = text(c, css).await;
        if seen.contains(needle) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    seen
}

async fn screenshot(c: &Client, name: &str) {
    let dir = screenshot_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, c.screenshot().await.unwrap()).unwrap();
    println!("screenshot: {}", path.display());
}

#[tokio::test]
#[ignore = "needs pkg/ and chromedriver: scripts/test-page"]
async fn the_page_with_webgpu() {
    let addr = serve().await;
    let driver = chromedriver();
    let c = browser(&driver, "webgpu.json", 1280, 2200).await;
    c.goto(&format!("http://{addr}/www/")).await.unwrap();
    wait_for_state(&c, "ready", Duration::from_secs(60)).await;

    // The probe panel: SwiftShader is WebGPU's software fallback adapter, identified as such.
    assert!(text(&c, "#webgpu").await.contains("fallback adapter"));
    assert_eq!(
        attribute(&c, "#webgpu .adapter", "data-fallback").await.as_deref(),
        Some("true")
    );
    assert_eq!(
        attribute(&c, "#gpu .big", "data-confidence").await.as_deref(),
        Some("software")
    );
    assert!(text(&c, "#gpu").await.contains("SwiftShader"));

    // The recommendation equals the library's own answer to the same request.
    let request =
        r#"{modelName: "bert-base-uncased", batchSize: 1, sequenceLength: 128, precision: "fp32", mode: "inference"}"#;
    let answer = evaluate(&c, &format!(
        "const r = {request}; const [s, p] = await Promise.all([hwfit.select(r), hwfit.predict(r)]);
         return {{primary: s.primaryRecommendation, throughput: Object.fromEntries(Object.entries(p.predictions).map(([k, v]) => [k, v.throughput]))}};"
    ))
    .await;
    assert_eq!(answer["primary"], "wasm", "SwiftShader must not win over WASM");
    assert_eq!(
        attribute(&c, "#primary", "data-hardware").await.as_deref(),
        Some("wasm")
    );
    let rows = script(&c, "return [...document.querySelectorAll('#candidates tbody tr')].map((r) => [r.dataset.key, Number(r.dataset.throughput)]);").await;
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), answer["throughput"].as_object().unwrap().len(), "{rows:?}");
    for row in rows {
        let key = row[0].as_str().unwrap();
        assert_eq!(
            row[1], answer["throughput"][key],
            "{key}: the page shows the library's number"
        );
    }
    let explanation = text(&c, "#explanation").await;
    assert!(explanation.contains("dispatches"), "{explanation}");

    // Charts: throughput against batch size per back-end, memory, precision.
    wait_for(&c, "#chart-list figure[data-kind='batch_scaling'] svg").await;
    let kinds = script(
        &c,
        "return [...document.querySelectorAll('#chart-list figure')].map((f) => f.dataset.kind);",
    )
    .await;
    assert_eq!(kinds, json!(["batch_scaling", "memory", "precision_impact"]));
    let series = script(&c, "return [...document.querySelectorAll(\"figure[data-kind='batch_scaling'] .legend-entry\")].map((e) => e.textContent);").await;
    assert_eq!(series, json!(["webgpu", "wasm"]));

    // Timings and bytes: benchmark figures, printed.
    let timings = script(&c, "return window.hwfitTimings;").await;
    let bytes = script(&c, "return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource')).reduce((a, e) => a + (e.transferSize || 0), 0);").await;
    let by_file = script(&c, "return performance.getEntriesByType('resource').map((e) => [e.name.replace(location.origin, ''), e.transferSize]);").await;
    println!(
        "page timings: init() {:.1} ms, probe (loading the device database) {:.1} ms, first answer {:.1} ms; init() → first recommendation {:.1} ms; navigation → first recommendation {:.1} ms; transferred {bytes} bytes (gzip): {by_file}",
        timings["initMs"].as_f64().unwrap(),
        timings["probeMs"].as_f64().unwrap(),
        timings["answerMs"].as_f64().unwrap(),
        timings["firstRecommendationMs"].as_f64().unwrap(),
        timings["sinceNavigationMs"].as_f64().unwrap()
    );
    screenshot(&c, "desktop.png").await;

    // A bad model name: a readable error, and the page still answers afterwards.
    set_model(&c, "definitely-not-a-model-zzz").await;
    submit(&c).await;
    wait_for(&c, "#error:not([hidden])").await;
    let error = text(&c, "#error").await;
    assert!(error.contains("definitely-not-a-model-zzz"), "{error}");
    set_model(&c, "gpt2").await;
    submit(&c).await;
    c.wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::Css("#error[hidden]"))
        .await
        .unwrap();
    wait_for(&c, "#candidates tbody tr").await;
    assert!(text(&c, "#answer").await.contains("gpt2"));

    // A dropped config.json is used: the model's source says so.
    drop_config(&c, "tests/fixtures/hf_configs/whisper-base.json").await;
    wait_for(&c, "#drop-zone[data-loaded]").await;
    wait_for(&c, ".model-source[data-kind='hf_config']").await;
    assert!(text(&c, "#config-status").await.contains("whisper"));
    // transformers writes Python's Infinity into some configs (Nemotron-H's time_step_limit): the
    // page still reads them.
    replace_config(
        &c,
        "crates/hwfit-core/data/models/configs/nvidia__Nemotron-H-56B-Base-8K.json",
    )
    .await;
    let status = wait_for_text(&c, "#config-status", "nemotron_h").await;
    assert!(status.contains("nemotron_h"), "{status}");
    // Kokoro's config names no model_type: the page says how the core read it.
    replace_config(&c, "crates/hwfit-core/data/models/configs/hexgrad__Kokoro-82M.json").await;
    let status = wait_for_text(&c, "#config-status", "kokoro").await;
    assert!(status.contains("kokoro") && status.contains("81.8 M"), "{status}");
    // A pre-quantized checkpoint's config: the page says the format it is stored in, which the
    // answers use while the precision is left on the checkpoint's — no browser back-end reads
    // MXFP4, and the page says so; a GGUF precision the browser runs is answered.
    replace_config(&c, "crates/hwfit-core/data/models/configs/openai__gpt-oss-20b.json").await;
    let status = wait_for_text(&c, "#config-status", "mxfp4").await;
    assert!(status.contains("stored as mxfp4"), "{status}");
    let error = wait_for_text(&c, "#error", "mxfp4").await;
    assert!(error.contains("does not support precision mxfp4"), "{error}");
    set_precision(&c, "q4_k_m").await;
    submit(&c).await;
    let precision = wait_for_text(&c, "#answer .precision", "q4_k_m").await;
    assert_eq!(precision, "q4_k_m");
    set_precision(&c, "").await;

    // Measure: the benchmark runs and the predictions' source changes to the measured profile.
    clear_config(&c).await;
    c.find(Locator::Id("measure")).await.unwrap().click().await.unwrap();
    wait_for_state(&c, "measured", Duration::from_secs(120)).await;
    let sources = script(&c, "return [...document.querySelectorAll('#before-after tbody tr')].map((r) => [r.dataset.key, r.dataset.sourceBefore, r.dataset.sourceAfter]);").await;
    let wasm = sources
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r[0] == "wasm")
        .expect("a wasm row");
    assert_ne!(wasm[1], "measured_profile");
    assert_eq!(wasm[2], "measured_profile");
    assert!(text(&c, "#measured").await.contains("GFLOP/s"));

    // Phone width.
    c.set_window_size(390, 2400).await.unwrap();
    screenshot(&c, "phone.png").await;
    let overflow = script(
        &c,
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
    )
    .await;
    assert!(
        overflow.as_f64().unwrap() <= 1.0,
        "the page scrolls sideways at phone width by {overflow} px"
    );
    c.close().await.unwrap();
}

#[tokio::test]
#[ignore = "needs pkg/ and chromedriver: scripts/test-page"]
async fn the_page_without_webgpu() {
    let addr = serve().await;
    let driver = chromedriver();
    let c = browser(&driver, "plain.json", 1280, 1600).await;
    c.goto(&format!("http://{addr}/www/")).await.unwrap();
    wait_for_state(&c, "ready", Duration::from_secs(60)).await;
    let webgpu = text(&c, "#webgpu").await;
    assert!(webgpu.contains("WebGPU is unavailable"), "{webgpu}");
    assert_eq!(
        attribute(&c, "#primary", "data-hardware").await.as_deref(),
        Some("wasm")
    );
    let keys = script(
        &c,
        "return [...document.querySelectorAll('#candidates tbody tr')].map((r) => r.dataset.key);",
    )
    .await;
    assert_eq!(keys, json!(["wasm"]));
    c.close().await.unwrap();
}
