//! libFuzzer target: the checks of `check_line` in tests/fuzz.rs on arbitrary bytes (read as
//! UTF-8 with invalid sequences replaced, as the protocol loop reads its input).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz.rs"]
#[allow(dead_code)]
mod checks;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = checks::check_line(&text) {
        panic!("{e}");
    }
});
