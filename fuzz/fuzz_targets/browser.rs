//! libFuzzer entry of the `browser` target (`hwfit_fuzz::targets::browser`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hwfit_fuzz::targets::browser(data));
