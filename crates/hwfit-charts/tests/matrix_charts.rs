//! The five charts drawn from a real prediction matrix parse as SVG and carry the matrix's series,
//! numbers and axis labels.

use hwfit_charts::{matrix_charts, ChartKind};
use hwfit_core::api::MatrixRequest;
use hwfit_core::plan::matrix::{Cell, PredictionMatrix};
use hwfit_core::{Hwfit, Precision, SortedMap};

/// The names the matrix gives the guide's models (the catalog's Hub ids) and the charts show.
const GPT2: &str = "openai-community/gpt2";
const BERT: &str = "google-bert/bert-base-uncased";
const GPT2_SHOWN: &str = "gpt2";
const BERT_SHOWN: &str = "bert-base-uncased";

fn matrix(json: &str) -> PredictionMatrix {
    let request: MatrixRequest = serde_json::from_str(json).unwrap();
    Hwfit::builtin().unwrap().matrix(&request, &[]).unwrap()
}

fn guide_matrix() -> PredictionMatrix {
    matrix(
        r#"{"models": ["bert-base-uncased", "gpt2", "vit-base-patch16-224"], "hardware": ["cuda", "cpu", "webgpu", "wasm"],
            "batch_sizes": [1, 8, 32], "precisions": ["fp32", "fp16", "int8"]}"#,
    )
}

/// The attribute `name` of every element with class `class`.
fn attrs<'a>(doc: &'a roxmltree::Document, class: &str, name: &str) -> Vec<&'a str> {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .filter_map(|n| n.attribute(name))
        .collect()
}

fn text_of(doc: &roxmltree::Document, class: &str) -> String {
    doc.descendants()
        .find(|n| n.attribute("class") == Some(class))
        .and_then(|n| n.text())
        .unwrap_or_default()
        .to_owned()
}

fn throughput(m: &PredictionMatrix, model: &str, hw: &str, batch: &str, p: Precision) -> f64 {
    match &m.models[model].predictions[hw][batch][&p] {
        Cell::Predicted { throughput, .. } => *throughput,
        Cell::Refused { error } => panic!("{error}"),
    }
}

#[test]
fn five_charts_parse_and_carry_the_matrix() {
    let m = guide_matrix();
    let charts = matrix_charts(&m);
    let kinds: Vec<ChartKind> = charts.iter().map(|c| c.kind).collect();
    assert_eq!(kinds, ChartKind::ALL);
    for chart in &charts {
        let doc = roxmltree::Document::parse(&chart.svg).unwrap_or_else(|e| panic!("{:?}: {e}", chart.kind));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
        let title = root.children().find(|n| n.has_tag_name("title")).unwrap();
        assert_eq!(title.text(), Some(chart.title.as_str()));
        assert!(text_of(&doc, "chart-note").contains("predicted (analytic_model)"));
    }

    let doc = roxmltree::Document::parse(&charts[0].svg).unwrap();
    assert_eq!(text_of(&doc, "x-label"), "model");
    assert!(
        text_of(&doc, "y-label").starts_with("throughput ("),
        "{}",
        text_of(&doc, "y-label")
    );
    assert_eq!(
        attrs(&doc, "legend-entry", "data-series"),
        ["cuda", "cpu", "webgpu", "wasm"]
    );
    let bar = doc
        .descendants()
        .find(|n| n.attribute("data-series") == Some("cuda") && n.attribute("data-category") == Some(GPT2_SHOWN))
        .unwrap();
    let drawn: f64 = bar.attribute("data-value").unwrap().parse().unwrap();
    // Exactly the matrix's number: `data-value` is written with Rust's round-trip float format.
    let expected = throughput(&m, GPT2, "cuda", "1", Precision::Fp32);
    assert_eq!(drawn.to_bits(), expected.to_bits(), "{drawn} vs {expected}");
    assert_eq!(attrs(&doc, "bar", "data-value").len(), 3 * 4);

    let doc = roxmltree::Document::parse(&charts[1].svg).unwrap();
    assert_eq!(text_of(&doc, "x-label"), "batch size");
    let series = attrs(&doc, "series", "data-series");
    assert_eq!(series.len(), 3 * 4);
    assert!(series.contains(&"bert-base-uncased · webgpu"));
    assert_eq!(doc.descendants().filter(|n| n.has_tag_name("polyline")).count(), 12);
    assert_eq!(
        attrs(&doc, "point", "data-x").iter().filter(|x| **x == "32").count(),
        12
    );

    let doc = roxmltree::Document::parse(&charts[2].svg).unwrap();
    assert_eq!(text_of(&doc, "y-label"), "throughput relative to cpu (×)");
    assert_eq!(attrs(&doc, "legend-entry", "data-series"), ["cuda", "webgpu", "wasm"]);
    let ratio: f64 = doc
        .descendants()
        .find(|n| n.attribute("data-series") == Some("cuda") && n.attribute("data-category") == Some(BERT_SHOWN))
        .and_then(|n| n.attribute("data-value"))
        .unwrap()
        .parse()
        .unwrap();
    let expected =
        throughput(&m, BERT, "cuda", "1", Precision::Fp32) / throughput(&m, BERT, "cpu", "1", Precision::Fp32);
    assert!((ratio - expected).abs() < 1e-9 * expected);
    assert!(doc.descendants().any(|n| n.attribute("class") == Some("reference")));

    let doc = roxmltree::Document::parse(&charts[3].svg).unwrap();
    assert_eq!(text_of(&doc, "y-label"), "memory (MB)");
    assert_eq!(attrs(&doc, "category", "data-category").len(), 3 * 3);
    assert!(attrs(&doc, "category", "data-category").contains(&"gpt2 · batch 32"));

    let doc = roxmltree::Document::parse(&charts[4].svg).unwrap();
    assert_eq!(attrs(&doc, "legend-entry", "data-series"), ["fp32", "fp16", "int8"]);
    assert_eq!(text_of(&doc, "x-label"), "model and hardware");
}

#[test]
fn one_model_names_series_by_hardware_and_a_refused_cell_draws_nothing() {
    // Llama 3 70B does not fit a wasm device: its cells are refused, not drawn as zero.
    let m =
        matrix(r#"{"models": ["meta-llama/Meta-Llama-3-70B"], "hardware": ["cuda", "wasm"], "batch_sizes": [1, 4]}"#);
    let refused = m
        .models
        .values()
        .flat_map(|r| r.predictions["wasm"].values())
        .flat_map(SortedMap::values);
    let refused = refused.filter(|c| matches!(c, Cell::Refused { .. })).count();
    let charts = matrix_charts(&m);
    let doc = roxmltree::Document::parse(&charts[1].svg).unwrap();
    assert_eq!(attrs(&doc, "series", "data-series"), ["cuda", "wasm"]);
    let wasm_points = attrs(&doc, "point", "data-series")
        .iter()
        .filter(|s| **s == "wasm")
        .count();
    assert_eq!(wasm_points, 2 - refused);
}

#[test]
fn text_is_escaped() {
    let mut m = guide_matrix();
    let row = m.models.remove(GPT2).unwrap();
    m.models.insert(
        "a<b>&\"c\"".into(),
        hwfit_core::plan::matrix::ModelRow {
            name: "a<b>&\"c\"".into(),
            ..row
        },
    );
    for chart in matrix_charts(&m) {
        let doc = roxmltree::Document::parse(&chart.svg).unwrap();
        let name = "a<b>&\"c\"";
        let shown = doc
            .descendants()
            .any(|n| n.text().is_some_and(|t| t.contains(name)) || n.attributes().any(|a| a.value().contains(name)));
        assert!(shown, "{:?}", chart.kind);
    }
}
