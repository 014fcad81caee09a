//! libFuzzer entry of the `names` target (`hwfit_fuzz::targets::names`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hwfit_fuzz::targets::names(data));
