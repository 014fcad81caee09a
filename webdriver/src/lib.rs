//! End-to-end tests of the devtools demo page (`www/`): `tests/page.rs` serves the repository over
//! HTTP, drives the page in headless Chromium through chromedriver (fantoccini) and checks what a
//! person sees against what the library answers. The tests need `pkg/` built and chromedriver, so
//! they are ignored by `cargo test --workspace`; `scripts/test-page` builds the package and runs them.
