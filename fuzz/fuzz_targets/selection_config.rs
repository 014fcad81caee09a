//! libFuzzer entry of the `selection_config` target (`hwfit_fuzz::targets::selection_config`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hwfit_fuzz::targets::selection_config(data));
