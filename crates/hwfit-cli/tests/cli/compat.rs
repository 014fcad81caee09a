use crate::{run_json, run_ok};

#[test]
fn compat_json() {
    insta::assert_json_snapshot!(run_json(&["compat", "--json"]));
}

#[test]
fn compat_table_shows_the_differences_from_ipfs_accelerate() {
    let text = run_ok(&["compat"]);
    assert!(text.contains("multimodal on mps"), "{text}");
    assert!(text.contains("✅ real (high)"), "{text}");
}
