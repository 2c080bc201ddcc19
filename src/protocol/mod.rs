//! Text in, text out: the UCI-style protocol loop (being written).

/// Runs the protocol loop on stdin/stdout until `quit` or end of input.
pub fn run_stdio() {
    eprintln!("the protocol loop is not built yet");
}
