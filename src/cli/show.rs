//! `jieqi show`: the board in the terminal, and optionally as an SVG picture.

use std::process::ExitCode;

use jieqi::core::Position;
use jieqi::render;

/// Prints the text board and the FEN; writes the SVG to `svg_path` if given.
pub fn run(pos: &Position, svg_path: Option<&str>) -> ExitCode {
    for line in render::text_board(pos) {
        outln!("{line}");
    }
    outln!("FEN: {}", pos.fen());
    if let Some(path) = svg_path {
        if let Err(e) = std::fs::write(path, render::svg(pos)) {
            eprintln!("error: cannot write {path}: {e}");
            return ExitCode::from(1);
        }
        outln!("SVG: {path}");
    }
    ExitCode::SUCCESS
}
