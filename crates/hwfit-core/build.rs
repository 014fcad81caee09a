//! Compiles the catalog's `config.json` files in: reads `data/models/models.csv` and writes a table of
//! (id, subfamily, aliases, source, `include_str!` of the config) for `catalog::configs`; and extracts
//! the device database's rows of curated devices (`device_db_curated.csv`), which the bundled
//! catalog merges at once while the other rows wait for first use.

#![allow(
    clippy::disallowed_methods,
    reason = "a build script runs on the host: it reads the manifest and writes the generated table"
)]
use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

fn main() {
    model_configs();
    curated_device_rows();
}

fn curated_device_rows() {
    let db =
        Path::new(&env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR")).join("data/device_db.csv");
    println!("cargo:rerun-if-changed={}", db.display());
    let mut reader = csv::Reader::from_path(&db).expect("data/device_db.csv is readable");
    let headers = reader.headers().expect("device_db.csv has a header").clone();
    let curated = headers
        .iter()
        .position(|h| h == "curated_id")
        .expect("device_db.csv has a 'curated_id' column");
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("device_db_curated.csv");
    let mut writer = csv::Writer::from_path(out).expect("OUT_DIR is writable");
    writer.write_record(&headers).expect("writing the header");
    for row in reader.records() {
        let row = row.expect("device_db.csv rows are well formed");
        if !row[curated].is_empty() {
            writer.write_record(&row).expect("writing a row");
        }
    }
    writer.flush().expect("OUT_DIR is writable");
}

fn model_configs() {
    let dir = Path::new(&env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR")).join("data/models");
    let manifest = dir.join("models.csv");
    println!("cargo:rerun-if-changed={}", manifest.display());
    println!("cargo:rerun-if-changed={}", dir.join("configs").display());
    let mut reader = csv::Reader::from_path(&manifest).expect("data/models/models.csv is readable");
    let headers = reader.headers().expect("models.csv has a header").clone();
    let column = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("models.csv has no '{name}' column"))
    };
    let (id, subfamily, aliases, config, source) = (
        column("id"),
        column("subfamily"),
        column("aliases"),
        column("config"),
        column("config_source"),
    );
    let mut table = String::from("&[\n");
    for row in reader.records() {
        let row = row.expect("models.csv rows are well formed");
        let path = dir.join("configs").join(&row[config]);
        assert!(path.is_file(), "models.csv names a missing config: {}", path.display());
        let alias_list: Vec<String> = row[aliases]
            .split('|')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(|a| format!("{a:?}"))
            .collect();
        writeln!(
            table,
            "    ConfigModel {{ id: {:?}, subfamily: {:?}, aliases: &[{}], source: {:?}, json: include_str!({:?}) }},",
            &row[id],
            &row[subfamily],
            alias_list.join(", "),
            &row[source],
            path.display().to_string(),
        )
        .expect("writing to a String");
    }
    table.push(']');
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("model_configs.rs");
    fs::write(out, table).expect("OUT_DIR is writable");
}
