//! Pictures of a position: a plain-text board for the terminal and an SVG drawing, with
//! face-down pieces shown as such (`X`/`x` in text, plain discs in SVG).

use std::fmt::Write as _;

use crate::core::{Color, Occupant, Position, Square};

fn cell_char(pos: &Position, sq: Square) -> char {
    match pos.occupant(sq) {
        None => '.',
        Some(Occupant::Revealed(p)) => p.char(),
        Some(Occupant::Hidden { controller, .. }) => match controller {
            Color::Red => 'X',
            Color::Black => 'x',
        },
    }
}

/// The board as text, rank 9 at the top, face-down pieces as `X` (Red's half) and `x` (Black's
/// half), empty points as `.`.
pub fn text_board(pos: &Position) -> Vec<String> {
    let mut lines = vec!["   +-------------------+".to_string()];
    for rank in (0..10u8).rev() {
        let mut row = format!(" {rank} |");
        for file in 0..9u8 {
            let sq = Square::from_index(rank as usize * 9 + file as usize);
            row.push(' ');
            row.push(cell_char(pos, sq));
        }
        row.push_str(" |");
        lines.push(row);
        if rank == 5 {
            lines.push("   |       river       |".to_string());
        }
    }
    lines.push("   +-------------------+".to_string());
    lines.push("     a b c d e f g h i".to_string());
    lines
}

const STEP: i32 = 60;
const MARGIN: i32 = 50;

/// Pixel centre of a point (rank 9 at the top).
fn xy(file: i32, rank: i32) -> (i32, i32) {
    (MARGIN + file * STEP, MARGIN + (9 - rank) * STEP)
}

fn line(out: &mut String, a: (i32, i32), b: (i32, i32)) {
    let _ = writeln!(
        out,
        r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#5a3a1a" stroke-width="2"/>"##,
        a.0, a.1, b.0, b.1
    );
}

/// The position as a standalone SVG document (ASCII only). Revealed pieces are discs with their
/// FEN letter in their colour; face-down pieces are dark discs ringed in the colour of the side
/// that controls them.
pub fn svg(pos: &Position) -> String {
    let width = 2 * MARGIN + 8 * STEP;
    let height = 2 * MARGIN + 9 * STEP;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">"#
    );
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#e8c88a"/>"##
    );
    for rank in 0..10 {
        line(&mut out, xy(0, rank), xy(8, rank));
    }
    for file in 0..9 {
        if file == 0 || file == 8 {
            line(&mut out, xy(file, 0), xy(file, 9));
        } else {
            line(&mut out, xy(file, 0), xy(file, 4));
            line(&mut out, xy(file, 5), xy(file, 9));
        }
    }
    for (r0, r2) in [(0, 2), (7, 9)] {
        line(&mut out, xy(3, r0), xy(5, r2));
        line(&mut out, xy(5, r0), xy(3, r2));
    }
    let (rx, ry) = xy(4, 4);
    let _ = writeln!(
        out,
        r##"<text x="{rx}" y="{}" font-family="sans-serif" font-size="20" fill="#5a3a1a" text-anchor="middle">river</text>"##,
        ry - STEP / 2 + 7
    );
    for file in 0..9 {
        let (x, _) = xy(file, 0);
        let _ = writeln!(
            out,
            r#"<text x="{x}" y="{}" font-family="sans-serif" font-size="14" text-anchor="middle">{}</text>"#,
            height - 12,
            (b'a' + file as u8) as char
        );
    }
    for rank in 0..10 {
        let (_, y) = xy(0, rank);
        let _ = writeln!(
            out,
            r#"<text x="14" y="{}" font-family="sans-serif" font-size="14" text-anchor="middle">{rank}</text>"#,
            y + 5
        );
    }
    for sq in Square::all() {
        let Some(occ) = pos.occupant(sq) else {
            continue;
        };
        let (x, y) = xy(sq.file().index() as i32, sq.rank().index() as i32);
        let ink = |c: Color| {
            if c == Color::Red {
                "#c0392b"
            } else {
                "#1a1a1a"
            }
        };
        match occ {
            Occupant::Revealed(p) => {
                let _ = writeln!(
                    out,
                    r##"<circle class="piece" cx="{x}" cy="{y}" r="25" fill="#f7e7c6" stroke="{}" stroke-width="3"/>"##,
                    ink(p.color)
                );
                let _ = writeln!(
                    out,
                    r#"<text x="{x}" y="{}" font-family="sans-serif" font-size="24" font-weight="bold" fill="{}" text-anchor="middle">{}</text>"#,
                    y + 8,
                    ink(p.color),
                    p.role.char()
                );
            }
            Occupant::Hidden { controller, .. } => {
                let _ = writeln!(
                    out,
                    r##"<circle class="hidden" cx="{x}" cy="{y}" r="25" fill="#4a4a4a" stroke="{}" stroke-width="3"/>"##,
                    ink(controller)
                );
            }
        }
    }
    out.push_str("</svg>\n");
    out
}
