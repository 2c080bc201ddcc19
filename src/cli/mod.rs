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
pub mod book;
pub mod compare;
pub mod export;
pub mod match_cmd;
pub mod merge;
pub mod perft;
pub mod show;
pub mod tune;

use std::io::Write;

use jieqi::core::fen::{self, FenError};
use jieqi::core::{Position, PositionError, Variant};

/// The body of `outln!`.
pub fn write_line(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{args}").and_then(|_| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// Why `--fen` gives no position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error(transparent)]
    Fen(#[from] FenError),
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// Builds a position from `--fen` (or `startpos`) and `--variant`, printing setup warnings to
/// stderr. Errors are returned for the caller to print.
pub fn load_position(fen_text: Option<&str>, variant: Variant) -> Result<Position, LoadError> {
    let text = match fen_text {
        None => return Ok(Position::startpos(variant)),
        Some(t) if t.trim() == "startpos" => return Ok(Position::startpos(variant)),
        Some(t) => t,
    };
    let setup = fen::parse(text)?;
    let (pos, warnings) = Position::from_setup(&setup, variant)?;
    for w in warnings {
        eprintln!("warning: {w}");
    }
    Ok(pos)
}

/// Reads input up to its first non-blank line and says whether that line is the command `jai`
/// (JieqiBox's match mode starts the engine program without arguments and sends `jai` first).
/// Returns the whole input, the lines already read included, to run the chosen loop on. A
/// first line longer than 4 KiB is not `jai`; reading stops there.
pub fn first_command<R: std::io::BufRead>(
    mut input: R,
) -> (std::io::Chain<std::io::Cursor<Vec<u8>>, R>, bool) {
    use std::io::Read;
    const LIMIT: usize = 4096;
    let mut seen: Vec<u8> = Vec::new();
    let mut line_start = 0;
    let mut is_jai = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(c) => c,
        };
        let (take, line_done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        seen.extend_from_slice(&chunk[..take]);
        input.consume(take);
        if line_done {
            let line = String::from_utf8_lossy(&seen[line_start..]);
            let word = line.trim();
            if !word.is_empty() {
                is_jai = word == "jai";
                break;
            }
            line_start = seen.len();
        } else if seen.len() - line_start > LIMIT {
            break;
        }
    }
    // Input that ends without a newline after `jai`.
    is_jai = is_jai || String::from_utf8_lossy(&seen[line_start..]).trim() == "jai";
    (std::io::Cursor::new(seen).chain(input), is_jai)
}

#[cfg(test)]
mod tests {
    use super::first_command;
    use std::io::Read;

    fn run(input: &str) -> (String, bool) {
        let (mut r, jai) = first_command(input.as_bytes());
        let mut all = String::new();
        r.read_to_string(&mut all).unwrap();
        (all, jai)
    }

    #[test]
    fn the_first_non_blank_line_decides_and_nothing_is_lost() {
        assert_eq!(run("jai\nisready\n"), ("jai\nisready\n".to_string(), true));
        assert!(run("\n  \r\n jai \r\nquit\n").1);
        assert!(run("jai").1);
        assert_eq!(run("uci\njai\n"), ("uci\njai\n".to_string(), false));
        assert!(!run("jaiok\n").1);
        assert_eq!(run(""), (String::new(), false));
        let long = format!("{}\njai\n", "x".repeat(10_000));
        assert_eq!(run(&long), (long.clone(), false));
    }
}
