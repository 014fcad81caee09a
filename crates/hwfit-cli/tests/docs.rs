//! The docs' examples are the CLI's output: every ```console block of `docs/*.md` (a `$ hwfit …`
//! line, then what it prints; `...` elides lines) is run against the built binary and compared.
//! `TRYCMD=overwrite cargo test -p hwfit-cli --test docs` rewrites the outputs after a deliberate change.

#[test]
fn docs_examples_are_the_cli_output() {
    trycmd::TestCases::new()
        .register_bin("hwfit", std::path::PathBuf::from(env!("CARGO_BIN_EXE_hwfit")))
        .env("HWFIT_DETECTION", "/nonexistent/hwfit-docs-detection.json")
        .case("../../docs/*.md");
}
