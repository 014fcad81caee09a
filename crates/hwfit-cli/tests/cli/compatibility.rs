use std::collections::BTreeMap;

use crate::{run_json, run_ok};

/// Every family has a cell on every hardware type, with a support level and a rating; the digest is
/// one line per family (support per hardware type), not the whole matrix.
#[test]
fn compatibility_json_covers_every_family_on_every_type() {
    let v = run_json(&["compatibility", "--json"]);
    let types: Vec<&str> = v["hardware_types"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert!(types.len() >= 8, "{types:?}");
    let mut digest = BTreeMap::new();
    for (family, row) in v["model_families"].as_object().unwrap() {
        let cells = row["hardware_compatibility"].as_object().unwrap();
        let mut hw: Vec<&str> = cells.keys().map(String::as_str).collect();
        let mut all = types.clone();
        hw.sort_unstable();
        all.sort_unstable();
        assert_eq!(hw, all, "{family}: a cell per hardware type");
        let line: Vec<String> = cells
            .iter()
            .map(|(hw, e)| {
                assert!(e["performance_rating"].is_string(), "{family} on {hw}: {e}");
                format!("{hw}={}", e["support"].as_str().unwrap())
            })
            .collect();
        digest.insert(family.clone(), line.join(" "));
    }
    assert_eq!(digest.len(), 5);
    for (hw, list) in v["precision_support"].as_object().unwrap() {
        assert!(!list.as_array().unwrap().is_empty(), "{hw} computes in no precision");
    }
    insta::assert_json_snapshot!(digest);
}

#[test]
fn compat_is_an_alias() {
    assert_eq!(run_json(&["compat", "--json"]), run_json(&["compatibility", "--json"]));
}

#[test]
fn compatibility_table_shows_the_differences_from_ipfs_accelerate() {
    let text = run_ok(&["compatibility"]);
    assert!(text.contains("multimodal on mps"), "{text}");
    assert!(text.contains("✅ real (high)"), "{text}");
}
