//! libFuzzer entry of the `config_json` target (`hwfit_fuzz::targets::config_json`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hwfit_fuzz::targets::config_json(data));
