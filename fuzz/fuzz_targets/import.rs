//! libFuzzer entry of the `import` target (`hwfit_fuzz::targets::import`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hwfit_fuzz::targets::import(data));
