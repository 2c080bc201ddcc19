//! FEN text to [`Setup`] and back.
//!
//! This module checks syntax only: whether the kings are there, whether face-down pieces stand on
//! starting squares of their own half and whether the pools fit the board is decided later, by
//! `Position::from_setup`. `startpos` is not a FEN; callers map it per variant.
//!
//! # Reading
//!
//! Tokens are separated by runs of ASCII whitespace. The first token is always the board: rank 9
//! first, ten ranks separated by `/`, one digit 1-9 for each run of empty points (two digits in
//! a row are an error), every rank exactly nine files. Piece letters are `K A B N R C P` for Red and lower case for Black (`E`/`H` are read as
//! `B`/`N`); `X` is a Red face-down piece and `x` a Black one.
//!
//! The fields after the board come in several dialects, told apart by content:
//!
//! | dialect | fields |
//! |---|---|
//! | JieqiBox | `board side hiddenPool capturedPool halfmove fullmove` |
//! | Pikafish, JieqiArena, Mistboard | `board side pool halfmove fullmove` |
//! | plain Xiangqi | `board side - - halfmove fullmove`, `board side - -` or `board side` |
//! | legacy | `board pool side [- - halfmove fullmove]` |
//!
//! - The side is `w` (or `r`) for Red and `b` for Black. When the second token is a side, the side
//!   comes first; otherwise the second token is a pool and the third must be the side (legacy).
//!   A legacy pool that is just `b` or `r` therefore cannot be told from a side and reads as one.
//! - After the side, a token that is a number starts the counters; a token that is not is a pool:
//!   the first such token is the hidden pool, a second one the captured pool (JieqiBox). So
//!   `board w - - 0 1` reads as empty pools and counters `0 1`, and `board w pool 0 1` as Pikafish.
//!   In the legacy layout up to two `-` placeholders may follow the side.
//! - Pools are letter+count pairs in any order. A letter without a count means one, a count may be
//!   zero or have several digits, a repeated letter adds up, missing letters mean zero and `-`
//!   means empty. Upper case letters are Red identities. Kings cannot be in a pool, and no count
//!   may exceed 255.
//! - Missing counters read as halfmove 0 and fullmove 1; a fullmove of 0 reads as 1.
//! - An optional last token `wait=<square>` names the piece under a Maniac waiting turn.
//! - Any other token is an error.
//!
//! # Writing
//!
//! [`write()`] produces the canonical form of one of two dialects (see [`FenDialect`]), which
//! [`parse()`] reads back to the same [`Setup`].

use std::fmt;

use super::piece::{Color, Piece, Role};
use super::pool::Pool;
use super::setup::{Setup, SetupCell};
use super::square::{File, Rank, Square};

/// The dialect [`write()`] produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FenDialect {
    /// `board side pool halfmove fullmove` (the captured pool is not written).
    Pikafish,
    /// `board side hiddenPool capturedPool halfmove fullmove`.
    JieqiBox,
}

/// What a token of the FEN stands for; used to say where an error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FenField {
    Board,
    Side,
    Pool,
    Captured,
    Halfmove,
    Fullmove,
    Wait,
    /// A token no dialect has room for.
    Extra,
}

impl FenField {
    fn name(self) -> &'static str {
        match self {
            FenField::Board => "board",
            FenField::Side => "side",
            FenField::Pool => "pool",
            FenField::Captured => "captured pool",
            FenField::Halfmove => "halfmove counter",
            FenField::Fullmove => "fullmove number",
            FenField::Wait => "wait token",
            FenField::Extra => "extra token",
        }
    }
}

/// What is wrong with a FEN.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FenErrorKind {
    /// Nothing but whitespace.
    Empty,
    /// The board is not followed by a side to move.
    MissingSide,
    /// The board does not have 10 ranks.
    WrongRankCount { found: usize },
    /// A rank covers more than 9 files.
    RankTooLong { files: u32 },
    /// A rank covers fewer than 9 files.
    RankTooShort { files: u32 },
    /// Two digits in a row (`4K13`): a run of empty points is written as one digit 1-9.
    AdjacentDigits { digits: String },
    /// A board character that is neither a piece letter, `X`/`x`, nor a digit 1-9.
    BadPieceChar { ch: char },
    /// The token where the side should be is not `w`, `r` or `b`.
    BadSide(String),
    /// A pool character that is neither a piece letter nor a digit.
    BadPoolChar { ch: char },
    /// A pool count that does not follow a letter.
    PoolCountWithoutLetter,
    /// More than 255 of one identity (`piece` is its canonical letter).
    PoolCountTooLarge { piece: char },
    /// A king in a pool: kings are never face down.
    KingInPool,
    /// The halfmove counter is not a non-negative integer that fits 32 bits.
    BadHalfmove(String),
    /// The fullmove number is not a non-negative integer that fits 32 bits.
    BadFullmove(String),
    /// `wait=` is not followed by a square `a0`..`i9`.
    BadWait(String),
    /// A `wait=` token that is not the last token.
    MisplacedWait,
    /// A token after everything a dialect can hold.
    UnexpectedToken(String),
}

/// A FEN syntax error: what is wrong and where.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FenError {
    kind: FenErrorKind,
    /// 1-based token number and what that token stands for.
    at: Option<(usize, FenField)>,
    rank: Option<Rank>,
    file: Option<File>,
}

impl FenError {
    fn new(kind: FenErrorKind) -> FenError {
        FenError {
            kind,
            at: None,
            rank: None,
            file: None,
        }
    }
    fn at(kind: FenErrorKind, number: usize, field: FenField) -> FenError {
        FenError {
            at: Some((number, field)),
            ..FenError::new(kind)
        }
    }
    fn on_board(kind: FenErrorKind, rank: Option<Rank>, file: Option<File>) -> FenError {
        FenError {
            rank,
            file,
            ..FenError::at(kind, 1, FenField::Board)
        }
    }

    pub fn kind(&self) -> &FenErrorKind {
        &self.kind
    }
    /// The 1-based number of the whitespace-separated token at fault, if one is.
    pub fn field_number(&self) -> Option<usize> {
        self.at.map(|(n, _)| n)
    }
    /// What the token at fault stands for, if one is at fault.
    pub fn field(&self) -> Option<FenField> {
        self.at.map(|(_, f)| f)
    }
    /// For board errors: the rank, labelled as on the board (rank 9 is written first).
    pub fn rank(&self) -> Option<Rank> {
        self.rank
    }
    /// For board errors at one point: its file.
    pub fn file(&self) -> Option<File> {
        self.file
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some((_, FenField::Board)) => {
                write!(f, "FEN board")?;
                if let Some(rank) = self.rank {
                    write!(f, ", rank {}", rank.char())?;
                }
                if let Some(file) = self.file {
                    write!(f, ", file {}", file.char())?;
                }
            }
            Some((number, field)) => write!(f, "FEN field {number} ({})", field.name())?,
            None => write!(f, "FEN")?,
        }
        write!(f, ": ")?;
        match &self.kind {
            FenErrorKind::Empty => write!(f, "empty text"),
            FenErrorKind::MissingSide => write!(f, "no side to move after the board"),
            FenErrorKind::WrongRankCount { found } => {
                write!(f, "{found} ranks instead of 10")
            }
            FenErrorKind::RankTooLong { files } | FenErrorKind::RankTooShort { files } => {
                write!(f, "{files} files instead of 9")
            }
            FenErrorKind::AdjacentDigits { digits } => write!(
                f,
                "digits {digits:?} in a row: a run of empty points is one digit 1-9"
            ),
            FenErrorKind::BadPieceChar { ch } => write!(
                f,
                "{ch:?} is not a piece letter (KABNRCP, kabnrcp, X, x) or a digit 1-9"
            ),
            FenErrorKind::BadSide(text) => {
                write!(f, "{text:?} is not a side to move (w or b)")
            }
            FenErrorKind::BadPoolChar { ch } => {
                write!(f, "{ch:?} is not a pool letter (ABNRCP, abnrcp) or a digit")
            }
            FenErrorKind::PoolCountWithoutLetter => write!(f, "a count without a letter before it"),
            FenErrorKind::PoolCountTooLarge { piece } => {
                write!(f, "more than 255 of {piece:?}")
            }
            FenErrorKind::KingInPool => write!(f, "a king cannot be face down"),
            FenErrorKind::BadHalfmove(text) | FenErrorKind::BadFullmove(text) => {
                write!(f, "{text:?} is not a non-negative whole number below 2^32")
            }
            FenErrorKind::BadWait(text) => {
                write!(f, "{text:?} is not wait=<square> with a square a0..i9")
            }
            FenErrorKind::MisplacedWait => write!(f, "the wait token must be the last token"),
            FenErrorKind::UnexpectedToken(text) => write!(f, "unexpected token {text:?}"),
        }
    }
}

impl std::error::Error for FenError {}

/// Reads a FEN of any accepted dialect (see the module documentation). Checks syntax only.
pub fn parse(text: &str) -> Result<Setup, FenError> {
    let mut tokens: Vec<&str> = text.split_ascii_whitespace().collect();
    if tokens.is_empty() {
        return Err(FenError::new(FenErrorKind::Empty));
    }
    let mut setup = Setup::empty();

    // The wait token may end any dialect; take it off so the rest need not know about it.
    if tokens.len() >= 2 {
        let number = tokens.len();
        if let Some(square) = tokens[number - 1].strip_prefix("wait=") {
            let sq = Square::parse(square).ok_or_else(|| {
                FenError::at(
                    FenErrorKind::BadWait(tokens[number - 1].to_string()),
                    number,
                    FenField::Wait,
                )
            })?;
            setup.wait = Some(sq);
            tokens.pop();
        }
    }
    if let Some(i) = tokens.iter().skip(1).position(|t| t.starts_with("wait=")) {
        return Err(FenError::at(
            FenErrorKind::MisplacedWait,
            i + 2,
            FenField::Wait,
        ));
    }

    parse_board(tokens[0], &mut setup.board)?;

    let next = match tokens.get(1) {
        None => return Err(FenError::new(FenErrorKind::MissingSide)),
        Some(&token) => {
            if let Some(side) = parse_side(token) {
                setup.side = side;
                read_pools(&tokens, 2, &mut setup)?
            } else {
                read_legacy_head(&tokens, &mut setup)?
            }
        }
    };
    read_counters(&tokens, next, &mut setup)?;
    Ok(setup)
}

/// Side-first layouts: up to two pools after the side (tokens from `start` on), until a number.
/// Returns the index of the first token not read.
fn read_pools(tokens: &[&str], start: usize, setup: &mut Setup) -> Result<usize, FenError> {
    let mut i = start;
    for (field, target) in [
        (FenField::Pool, &mut setup.pool),
        (FenField::Captured, &mut setup.captured),
    ] {
        match tokens.get(i) {
            Some(token) if !is_number(token) => {
                *target = parse_pool(token, i + 1, field)?;
                i += 1;
            }
            _ => break,
        }
    }
    Ok(i)
}

/// Legacy layout `board pool side [- -]`. Returns the index of the first token not read.
fn read_legacy_head(tokens: &[&str], setup: &mut Setup) -> Result<usize, FenError> {
    let bad_side = || {
        FenError::at(
            FenErrorKind::BadSide(tokens[1].to_string()),
            2,
            FenField::Side,
        )
    };
    let Some(side) = tokens.get(2) else {
        // `board pool` with a good pool lacks a side; anything else was meant as a bad side.
        return match parse_pool(tokens[1], 2, FenField::Pool) {
            Ok(_) => Err(FenError::new(FenErrorKind::MissingSide)),
            Err(_) => Err(bad_side()),
        };
    };
    setup.side = parse_side(side).ok_or_else(bad_side)?;
    setup.pool = parse_pool(tokens[1], 2, FenField::Pool)?;
    let mut i = 3;
    while i < 5 && tokens.get(i) == Some(&"-") {
        i += 1;
    }
    Ok(i)
}

/// Halfmove and fullmove from token `start` on; nothing may follow them.
fn read_counters(tokens: &[&str], start: usize, setup: &mut Setup) -> Result<(), FenError> {
    if let Some(token) = tokens.get(start) {
        setup.halfmove = parse_counter(token).ok_or_else(|| {
            FenError::at(
                FenErrorKind::BadHalfmove(token.to_string()),
                start + 1,
                FenField::Halfmove,
            )
        })?;
    }
    if let Some(token) = tokens.get(start + 1) {
        let fullmove = parse_counter(token).ok_or_else(|| {
            FenError::at(
                FenErrorKind::BadFullmove(token.to_string()),
                start + 2,
                FenField::Fullmove,
            )
        })?;
        setup.fullmove = fullmove.max(1);
    }
    if let Some(token) = tokens.get(start + 2) {
        return Err(FenError::at(
            FenErrorKind::UnexpectedToken(token.to_string()),
            start + 3,
            FenField::Extra,
        ));
    }
    Ok(())
}

fn parse_side(token: &str) -> Option<Color> {
    match token {
        "w" | "r" => Some(Color::Red),
        "b" => Some(Color::Black),
        _ => None,
    }
}

/// Whether a token looks like a counter (an optional sign and digits): such a token is never a
/// pool, so it ends the pool fields. A negative one is then rejected as a counter.
fn is_number(token: &str) -> bool {
    let digits = token.strip_prefix(['-', '+']).unwrap_or(token);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn parse_counter(token: &str) -> Option<u32> {
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    token.parse().ok()
}

fn parse_board(text: &str, board: &mut [Option<SetupCell>; 90]) -> Result<(), FenError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != Rank::COUNT {
        return Err(FenError::on_board(
            FenErrorKind::WrongRankCount { found: rows.len() },
            None,
            None,
        ));
    }
    for (row, rank_index) in rows.iter().zip((0..10u8).rev()) {
        let rank = Rank::new(rank_index);
        // Saturating, so that absurdly long ranks cannot overflow the count.
        let mut files: u32 = 0;
        let mut chars = row.chars().peekable();
        while let Some(ch) = chars.next() {
            let cell = match ch {
                '1'..='9' => {
                    if chars.peek().is_some_and(|c| c.is_ascii_digit()) {
                        let mut digits = ch.to_string();
                        while let Some(d) = chars.next_if(|c| c.is_ascii_digit()) {
                            digits.push(d);
                        }
                        let file = u8::try_from(files).ok().and_then(File::new);
                        return Err(FenError::on_board(
                            FenErrorKind::AdjacentDigits { digits },
                            rank,
                            file,
                        ));
                    }
                    files = files.saturating_add(ch as u32 - '0' as u32);
                    continue;
                }
                'X' => Some(SetupCell::Hidden(Color::Red)),
                'x' => Some(SetupCell::Hidden(Color::Black)),
                _ => Piece::from_char(ch).map(SetupCell::Revealed),
            };
            let file = u8::try_from(files).ok().and_then(File::new);
            let Some(cell) = cell else {
                return Err(FenError::on_board(
                    FenErrorKind::BadPieceChar { ch },
                    rank,
                    file,
                ));
            };
            if let (Some(rank), Some(file)) = (rank, file) {
                board[Square::from_coords(file, rank).index()] = Some(cell);
            }
            files = files.saturating_add(1);
        }
        let kind = match files {
            9 => continue,
            n if n > 9 => FenErrorKind::RankTooLong { files: n },
            n => FenErrorKind::RankTooShort { files: n },
        };
        return Err(FenError::on_board(kind, rank, None));
    }
    Ok(())
}

/// Reads a pool token (token number `number`, standing for `field`).
fn parse_pool(text: &str, number: usize, field: FenField) -> Result<Pool, FenError> {
    let err = |kind| FenError::at(kind, number, field);
    let mut pool = Pool::EMPTY;
    if text == "-" {
        return Ok(pool);
    }
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch.is_ascii_digit() {
            return Err(err(FenErrorKind::PoolCountWithoutLetter));
        }
        let piece = Piece::from_char(ch).ok_or_else(|| err(FenErrorKind::BadPoolChar { ch }))?;
        if piece.role == Role::King {
            return Err(err(FenErrorKind::KingInPool));
        }
        let too_large = || {
            err(FenErrorKind::PoolCountTooLarge {
                piece: piece.char(),
            })
        };
        let mut count: Option<u32> = None;
        while let Some(digit) = chars.peek().and_then(|c| c.to_digit(10)) {
            chars.next();
            let value = count
                .unwrap_or(0)
                .checked_mul(10)
                .and_then(|v| v.checked_add(digit))
                .filter(|&v| v <= u8::MAX as u32)
                .ok_or_else(too_large)?;
            count = Some(value);
        }
        let total = pool.count(piece) as u32 + count.unwrap_or(1);
        let total = u8::try_from(total).map_err(|_| too_large())?;
        pool.set(piece, total);
    }
    Ok(pool)
}

/// Writes a setup in `dialect`, in canonical form (digits for empty runs, `B`/`N` rather than
/// aliases, pools in `Pool`'s order, `-` for an empty pool), then ` wait=<square>` if any.
pub fn write(setup: &Setup, dialect: FenDialect) -> String {
    let mut out = board_text(setup);
    out.push(' ');
    out.push(setup.side.fen_char());
    out.push(' ');
    out.push_str(&setup.pool.to_string());
    if dialect == FenDialect::JieqiBox {
        out.push(' ');
        out.push_str(&setup.captured.to_string());
    }
    out.push_str(&format!(" {} {}", setup.halfmove, setup.fullmove));
    if let Some(sq) = setup.wait {
        out.push_str(&format!(" wait={sq}"));
    }
    out
}

fn board_text(setup: &Setup) -> String {
    let mut out = String::with_capacity(90);
    for rank in (0..10u8).rev() {
        if rank != 9 {
            out.push('/');
        }
        let mut empty = 0u8;
        for file in 0..9u8 {
            let cell = setup.board[rank as usize * 9 + file as usize];
            let ch = match cell {
                None => {
                    empty += 1;
                    continue;
                }
                Some(SetupCell::Revealed(piece)) => piece.char(),
                Some(SetupCell::Hidden(Color::Red)) => 'X',
                Some(SetupCell::Hidden(Color::Black)) => 'x',
            };
            if empty > 0 {
                out.push((b'0' + empty) as char);
                empty = 0;
            }
            out.push(ch);
        }
        if empty > 0 {
            out.push((b'0' + empty) as char);
        }
    }
    out
}
