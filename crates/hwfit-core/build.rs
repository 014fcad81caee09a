//! Compiles the catalog's `config.json` files in: reads `data/models/models.csv` and writes a table of
//! (id, subfamily, aliases, source, `include_str!` of the config) for `catalog::configs`; and extracts
//! the device database's rows of curated devices (`device_db_curated.csv`), which the bundled
//! catalog merges at once while the other rows wait for first use; and indexes those other rows at
//! compile time (`device_db_index.rs`: where each row lies in the text, and the rows' name table, built
//! by the same code resolution reads names with), so a question that reaches the database neither
//! parses it nor tokenizes its names.

#![allow(
    clippy::disallowed_methods,
    reason = "a build script runs on the host: it reads the manifest and writes the generated table"
)]
use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

extern crate alloc;

// The name reading and table building resolution uses, included as they are: the table written here
// is the one run time would build.
#[allow(dead_code, reason = "the build script uses only the name reading and table building")]
#[path = "src/device/name_table.rs"]
mod name_table;
#[allow(dead_code, reason = "the build script uses only the name reading and table building")]
#[path = "src/device/names.rs"]
mod names;
#[allow(dead_code, reason = "the build script uses only the name reading and table building")]
#[path = "src/text.rs"]
mod text;

fn main() {
    model_configs();
    curated_device_rows();
    database_index();
}

/// The positions of the named columns of a CSV file's header.
fn columns<const N: usize>(headers: &csv::StringRecord, file: &str, names: [&str; N]) -> [usize; N] {
    names.map(|name| {
        headers
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("{file} has no '{name}' column"))
    })
}

/// Writes `device_db_index.rs`: the byte range of each database row that adds a device (no curated
/// id, an FP32 rate), and the name table of those rows, as static arrays.
fn database_index() {
    let db =
        Path::new(&env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR")).join("data/device_db.csv");
    let text = fs::read_to_string(&db).expect("data/device_db.csv is readable");
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers = reader.headers().expect("device_db.csv has a header").clone();
    let [id, name, aliases, curated, fp32] = columns(
        &headers,
        "device_db.csv",
        ["id", "name", "aliases", "curated_id", "fp32_tflops"],
    );
    let records: Vec<(usize, csv::StringRecord)> = reader
        .records()
        .map(|r| {
            let r = r.expect("device_db.csv rows are well formed");
            let start = usize::try_from(r.position().expect("csv records have positions").byte()).expect("a position");
            (start, r)
        })
        .collect();
    let header_end = records.first().map_or(text.len(), |(start, _)| *start);
    let mut rows = Vec::new();
    let mut names = Vec::new();
    for (i, (start, record)) in records.iter().enumerate() {
        if !record[curated].trim().is_empty() || record[fp32].trim().is_empty() {
            continue;
        }
        let end = records.get(i + 1).map_or(text.len(), |(next, _)| *next);
        rows.push((*start, end));
        names.push((
            record[id].trim().to_string(),
            record[name].trim().to_string(),
            record[aliases].trim().to_string(),
        ));
    }
    let names_of = || {
        names.iter().map(|(id, name, aliases)| name_table::NamesOf {
            id,
            name,
            aliases: aliases.split('|').filter(|a| !a.is_empty()).collect(),
        })
    };
    let (exact, tokens) = (
        name_table::ExactNames::build(names_of()),
        name_table::TokenTable::build(names_of()),
    );
    let list = |values: &[u32]| values.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    let mut out = String::new();
    writeln!(out, "/// The compiled-in database's device rows and their name table.").expect("writing to a String");
    writeln!(out, "pub(crate) static BUNDLED: Bundled = Bundled {{").expect("writing to a String");
    writeln!(out, "    header_end: {header_end},").expect("writing to a String");
    let ranges: Vec<String> = rows.iter().map(|(s, e)| format!("({s},{e})")).collect();
    writeln!(out, "    rows: &[{}],", ranges.join(",")).expect("writing to a String");
    writeln!(out, "    keys: {:?},", exact.keys).expect("writing to a String");
    writeln!(out, "    key_ends: &[{}],", list(&exact.key_ends)).expect("writing to a String");
    writeln!(out, "    key_devices: &[{}],", list(&exact.key_devices)).expect("writing to a String");
    writeln!(out, "    tokens: {:?},", tokens.tokens).expect("writing to a String");
    writeln!(out, "    token_ends: &[{}],", list(&tokens.token_ends)).expect("writing to a String");
    writeln!(out, "    holder_starts: &[{}],", list(&tokens.holder_starts)).expect("writing to a String");
    writeln!(out, "    holders: &[{}],", list(&tokens.holders)).expect("writing to a String");
    writeln!(out, "}};").expect("writing to a String");
    let path = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("device_db_index.rs");
    fs::write(path, out).expect("OUT_DIR is writable");
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
    let [id, subfamily, aliases, config, source] = columns(
        &headers,
        "models.csv",
        ["id", "subfamily", "aliases", "config", "config_source"],
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
        // The config is the model's own (`org__name.json` for `org/name`), not a copy from another
        // release of the same architecture (a quantized upload's).
        let own = row[config].eq_ignore_ascii_case(&format!("{}.json", row[id].replace('/', "__")));
        writeln!(
            table,
            "    ConfigModel {{ id: {:?}, subfamily: {:?}, aliases: &[{}], source: {:?}, own_config: {own}, json: include_str!({:?}) }},",
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
