//! The terminal board and the SVG picture, through the library and the `show` subcommand.

use std::process::Command;

use jieqi::core::{fen, Position, Variant};
use jieqi::render;

#[test]
fn text_board_shows_face_down_pieces_by_half() {
    let lines = render::text_board(&Position::startpos(Variant::Jieqi));
    assert_eq!(lines.len(), 14);
    assert_eq!(lines[1], " 9 | x x x x k x x x x |");
    assert_eq!(lines[11], " 0 | X X X X K X X X X |");
    assert!(lines.iter().any(|l| l.contains("river")));
}

#[test]
fn svg_draws_every_piece_once() {
    let svg = render::svg(&Position::startpos(Variant::Jieqi));
    assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches(r#"class="hidden""#).count(), 30);
    assert_eq!(svg.matches(r#"class="piece""#).count(), 2);
    assert!(svg.is_ascii());
    let setup = fen::parse("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1").unwrap();
    let (pos, _) = Position::from_setup(&setup, Variant::Xiangqi).unwrap();
    let svg = render::svg(&pos);
    assert_eq!(svg.matches(r#"class="hidden""#).count(), 0);
    assert_eq!(svg.matches(r#"class="piece""#).count(), 3);
    assert_eq!(svg.matches("<circle").count(), 3);
}

#[test]
fn show_writes_the_svg_and_refuses_bad_input() {
    let exe = env!("CARGO_BIN_EXE_jieqi");
    let path = std::env::temp_dir().join(format!("jieqi-show-{}.svg", std::process::id()));
    let out = Command::new(exe)
        .args(["show", "--variant", "maniac", "--svg"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(" 0 | X X X X K X X X X |") && text.contains("FEN: "));
    let svg = std::fs::read_to_string(&path).unwrap();
    assert_eq!(svg.matches(r#"class="hidden""#).count(), 30);
    let _ = std::fs::remove_file(&path);
    let bad = Command::new(exe)
        .args(["show", "--fen", "not a fen"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("error:"));
}
