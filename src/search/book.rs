//! The opening book: the first positions of a game, each with the move a long search chose for
//! it ahead of time, so that a game's first moves are answered at once and with more depth than
//! its clock would allow there.
//!
//! A book is text, one position per line: the move, its score in centipawns from the side to
//! move, the depth it was searched to, then the position's FEN (`a3a4 5 6 xxxxkxxxx/... w ...`).
//! Empty lines and lines starting with `#` are skipped. Positions are matched by their hash
//! (pieces, face-down pieces, pools and side to move), so the move counters do not matter.
//! `jieqi book` writes such a file; the Jieqi book built into the engine
//! (`src/search/book/jieqi.txt`) holds the start position and every position after Red's first
//! move that does not capture a face-down piece, each with every identity the flip can reveal.

use std::collections::{HashMap, HashSet};

use once_cell::sync::Lazy;

use crate::core::{fen, Move, Position, Reveal, Variant};

/// A book's move for one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    pub mv: Move,
    /// The search's score of the move, in centipawns from the side to move.
    pub cp: i32,
    /// The depth the move was searched to.
    pub depth: u32,
}

/// Positions of one variant with their moves.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: HashMap<u64, BookEntry>,
}

impl Book {
    /// Reads a book of `variant` (see the module's description). Every line is checked: the
    /// FEN must be a position of `variant`, the move legal there, no position given twice.
    pub fn parse(text: &str, variant: Variant) -> Result<Book, String> {
        let mut entries = HashMap::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |e: String| format!("line {}: {e}", i + 1);
            let mut parts = line.splitn(4, char::is_whitespace);
            let (Some(mv), Some(cp), Some(depth), Some(fen_text)) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                return Err(at("expected: move score depth FEN".into()));
            };
            let mv = Move::parse(mv).ok_or_else(|| at(format!("'{mv}' is not a move")))?;
            let cp = cp
                .parse::<i32>()
                .map_err(|_| at(format!("'{cp}' is not a score")))?;
            let depth = depth
                .parse::<u32>()
                .map_err(|_| at(format!("'{depth}' is not a depth")))?;
            let setup = fen::parse(fen_text.trim()).map_err(|e| at(e.to_string()))?;
            let (pos, _) = Position::from_setup(&setup, variant).map_err(|e| at(e.to_string()))?;
            if !pos.is_legal(mv) {
                return Err(at(format!("{mv} is not legal in this position")));
            }
            let entry = BookEntry { mv, cp, depth };
            if entries.insert(pos.hash(), entry).is_some() {
                return Err(at("the position is already in the book".into()));
            }
        }
        Ok(Book { entries })
    }

    /// The book's move for `pos`, if it has one and it is legal there.
    pub fn get(&self, pos: &Position) -> Option<BookEntry> {
        self.entries
            .get(&pos.hash())
            .copied()
            .filter(|e| pos.is_legal(e.mv))
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book line of `pos` (the format [`Book::parse`] reads).
    pub fn line(pos: &Position, entry: BookEntry) -> String {
        format!("{} {} {} {}", entry.mv, entry.cp, entry.depth, pos.fen6())
    }
}

/// The positions a book of `plies` plies covers (what `jieqi book` searches): the start of
/// `variant`, then breadth first every position after a move that does not capture a face-down
/// piece (only the capturer learns what it took), a flip giving one position per identity it
/// can reveal; each position once.
pub fn positions(variant: Variant, plies: u32) -> Vec<Position> {
    let mut all = vec![Position::startpos(variant)];
    let mut seen: HashSet<u64> = all.iter().map(|p| p.hash()).collect();
    let mut layer = all.clone();
    for _ in 1..plies {
        let mut next = Vec::new();
        for pos in &layer {
            for &mv in pos.legal_move_list().iter() {
                if pos.captures_hidden(mv) {
                    continue;
                }
                let flips: Vec<Option<_>> = if pos.is_flip(mv) {
                    let outcomes = pos.flip_outcomes(mv.from());
                    outcomes.as_slice().iter().map(|&(p, _)| Some(p)).collect()
                } else {
                    vec![None]
                };
                for flip in flips {
                    let mut child = *pos;
                    let reveal = Reveal {
                        flip,
                        captured: None,
                    };
                    if child.play(mv, reveal).is_ok() && seen.insert(child.hash()) {
                        next.push(child);
                    }
                }
            }
        }
        all.extend(next.iter().copied());
        layer = next;
    }
    all
}

const JIEQI_TEXT: &str = include_str!("book/jieqi.txt");

static JIEQI: Lazy<Book> =
    Lazy::new(|| Book::parse(JIEQI_TEXT, Variant::Jieqi).unwrap_or_default());

/// The book built into the engine for `variant` (Jieqi only; an empty book for the others).
pub fn builtin(variant: Variant) -> &'static Book {
    static EMPTY: Lazy<Book> = Lazy::new(Book::default);
    match variant {
        Variant::Jieqi => &JIEQI,
        Variant::Maniac | Variant::Xiangqi => &EMPTY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_book_reads_whole() {
        let book = Book::parse(JIEQI_TEXT, Variant::Jieqi).unwrap();
        assert_eq!(book.len(), builtin(Variant::Jieqi).len());
        let start = Position::startpos(Variant::Jieqi);
        assert!(book.get(&start).is_some());
        // The start and every position after a first move that takes nothing, once per
        // identity its flip can reveal.
        let covered = positions(Variant::Jieqi, 2);
        let first_moves = start.legal_move_list();
        let children: usize = (first_moves.iter())
            .filter(|&&mv| !start.is_capture(mv))
            .map(|&mv| start.flip_outcomes(mv.from()).len().max(1))
            .sum();
        assert_eq!(covered.len(), children + 1);
        for pos in &covered {
            assert!(book.get(pos).is_some(), "{} is not in the book", pos.fen6());
        }
        assert_eq!(book.len(), covered.len());
        assert!(builtin(Variant::Xiangqi).is_empty());
    }

    #[test]
    fn reading_checks_every_line() {
        let start = Position::startpos(Variant::Jieqi);
        let good = format!("# a comment\n\n{}\n", start_line(&start, "a3a4"));
        let book = Book::parse(&good, Variant::Jieqi).unwrap();
        assert_eq!(
            book.get(&start).map(|e| e.mv.to_string()),
            Some("a3a4".into())
        );
        // Move counters do not matter.
        let mut later = start;
        later.play_null();
        later.play_null();
        assert!(book.get(&later).is_some());
        for bad in [
            start_line(&start, "a3a5"),
            "a3a4 5 6".to_string(),
            format!("a3a4 x 6 {}", start.fen6()),
            format!("a3a4 5 -1 {}", start.fen6()),
            format!("a3a4 5 6 {}", "not a fen"),
            format!(
                "{}\n{}",
                start_line(&start, "a3a4"),
                start_line(&start, "e3e4")
            ),
        ] {
            assert!(Book::parse(&bad, Variant::Jieqi).is_err(), "{bad}");
        }
    }

    fn start_line(pos: &Position, mv: &str) -> String {
        let entry = BookEntry {
            mv: Move::parse(mv).unwrap(),
            cp: 5,
            depth: 6,
        };
        Book::line(pos, entry)
    }
}
