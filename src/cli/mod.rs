//! Command-line front end: subcommands other than the protocol loop.

/// Prints a line to stdout like `println!`, but ends the process quietly (status 0) when stdout
/// has been closed, as when the output is piped into `head`.
macro_rules! outln {
    () => {
        $crate::cli::write_line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::cli::write_line(format_args!($($arg)*))
    };
}

pub mod analyze;
pub mod bench;
pub mod match_cmd;
pub mod perft;
pub mod show;
pub mod tune;

use std::io::Write;

use jieqi::core::{fen, Position, Variant};

/// The body of `outln!`.
pub fn write_line(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{args}").and_then(|_| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// Builds a position from `--fen` (or `startpos`) and `--variant`, printing setup warnings to
/// stderr. Errors are returned as text for the caller to print.
pub fn load_position(fen_text: Option<&str>, variant: Variant) -> Result<Position, String> {
    let text = match fen_text {
        None => return Ok(Position::startpos(variant)),
        Some(t) if t.trim() == "startpos" => return Ok(Position::startpos(variant)),
        Some(t) => t,
    };
    let setup = fen::parse(text).map_err(|e| e.to_string())?;
    let (pos, warnings) = Position::from_setup(&setup, variant).map_err(|e| e.to_string())?;
    for w in warnings {
        eprintln!("warning: {w}");
    }
    Ok(pos)
}
