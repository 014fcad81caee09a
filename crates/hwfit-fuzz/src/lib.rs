//! hwfit's fuzz targets and a stable-Rust driver for them. The targets feed arbitrary bytes to
//! every input hwfit takes from strangers — HTTP requests on every route, `config.json` files,
//! device specs, selection configs, measurement files for import, model and device names — and
//! panic when an invariant breaks. `hwfit-fuzz` (this crate's binary) replays the committed
//! corpus in `fuzz/corpus/` and mutates it for a bounded time; `fuzz/` holds the same targets for
//! cargo-fuzz (libFuzzer, coverage-guided, nightly). See `docs/fuzzing.md`.

pub mod driver;
pub mod targets;

pub use driver::{run, Budget, Finding, Report};
pub use targets::{target, Target, TARGETS};

/// The committed corpus: `fuzz/corpus/` at the repository's root.
#[must_use]
pub fn corpus_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus")
}
