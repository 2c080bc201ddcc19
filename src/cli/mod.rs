//! Command-line front end: subcommands other than the protocol loop.

pub mod analyze;
pub mod bench;
pub mod match_cmd;
pub mod perft;
pub mod show;

use jieqi::core::{fen, Position, Variant};

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
