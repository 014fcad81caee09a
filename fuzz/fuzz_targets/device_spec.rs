//! libFuzzer entry of the `device_spec` target (`hwfit_fuzz::targets::device_spec`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hwfit_fuzz::targets::device_spec(data));
