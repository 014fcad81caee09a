//! `hwfit db import`: per-file reports, a failing file named, `--all-or-nothing`.

use assert_cmd::Command;

use super::repo_root;

fn import(database: &std::path::Path, files: &[&std::path::Path], extra: &[&str]) -> (bool, serde_json::Value, String) {
    let mut cmd = Command::cargo_bin("hwfit").unwrap();
    cmd.args(["db", "import", "--json", "--database"])
        .arg(database)
        .args(extra);
    for f in files {
        cmd.arg(f);
    }
    let out = cmd.output().unwrap();
    let report = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (
        out.status.success(),
        report,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn stored(database: &std::path::Path) -> u64 {
    let out = Command::cargo_bin("hwfit")
        .unwrap()
        .args(["db", "stats", "--json", "--database"])
        .arg(database)
        .output()
        .unwrap();
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    stats["records"].as_u64().unwrap()
}

#[test]
fn a_file_that_cannot_be_read_is_named_and_the_others_are_stored() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{ not json").unwrap();
    let good_a = repo_root().join("data/measured/llm_tokens_per_second.csv");
    let good_c = repo_root().join("data/measured/mlperf_inference_v4_1_offline.csv");
    let files = [good_a.as_path(), broken.as_path(), good_c.as_path()];

    // --all-or-nothing: checked before any write, so nothing is stored.
    let strict = dir.path().join("strict.sqlite");
    let (ok, report, stderr) = import(&strict, &files, &["--all-or-nothing"]);
    assert!(!ok && stderr.contains("3 files were not stored"), "{stderr}");
    assert_eq!(stored(&strict), 0);
    assert!(report["files"][0]["error"].as_str().unwrap().contains("broken.json"));

    // Default: every readable file is stored, the broken one is reported, the exit status fails.
    let db = dir.path().join("db.sqlite");
    let (ok, report, stderr) = import(&db, &files, &[]);
    assert!(!ok && stderr.contains("1 of 3 files were not stored"), "{stderr}");
    let files = report["files"].as_array().unwrap();
    assert_eq!(files.len(), 3, "every file has a report: {report}");
    assert!(files[0]["added"].as_u64().unwrap() > 0 && files[0].get("error").is_none());
    assert!(files[1]["error"].is_string(), "{}", files[1]);
    assert!(
        files[2]["added"].as_u64().unwrap() > 0,
        "the file after the broken one is stored"
    );
    assert!(stored(&db) > 0);
}
