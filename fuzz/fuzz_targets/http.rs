//! libFuzzer entry of the `http` target (`hwfit_fuzz::targets::http`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hwfit_fuzz::targets::http(data));
