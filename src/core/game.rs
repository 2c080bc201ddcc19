//! A game: a start position, the moves played, and the end of the game under each variant's
//! rules (checkmate, no legal move, 120 plies without capture, repetition, perpetual check).

use std::fmt;

use super::moves::{Move, MoveList};
use super::piece::Color;
use super::position::{PlayError, Position, Reveal};

/// How a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinReason {
    /// The loser is in check and has no legal move.
    Checkmate,
    /// The loser is not in check and has no legal move (a loss in all three variants).
    NoLegalMoves,
    /// The loser gave check with every one of its moves in a thrice-repeated cycle.
    PerpetualCheck,
}

/// How a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    /// 120 consecutive plies without a capture.
    NoCapture,
    /// The same position for the third time (not in `jieqi`).
    Repetition,
    /// Both sides checked on every move of the repeated cycle.
    MutualPerpetualCheck,
}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win { winner: Color, reason: WinReason },
    Draw(DrawReason),
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Win { winner, reason } => {
                let why = match reason {
                    WinReason::Checkmate => "checkmate",
                    WinReason::NoLegalMoves => "no legal move",
                    WinReason::PerpetualCheck => "perpetual check",
                };
                write!(f, "{} wins by {why}", winner.name())
            }
            GameResult::Draw(reason) => {
                let why = match reason {
                    DrawReason::NoCapture => "120 plies without capture",
                    DrawReason::Repetition => "threefold repetition",
                    DrawReason::MutualPerpetualCheck => "perpetual check by both sides",
                };
                write!(f, "draw by {why}")
            }
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Ply {
    mv: Move,
    reveal: Reveal,
    /// Hash of the position after the move.
    hash: u64,
    /// Whether the move left the opponent in check.
    gave_check: bool,
    /// A capture or a flip: no earlier position can come back.
    irreversible: bool,
}

/// A start position and the moves played from it.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    current: Position,
    plies: Vec<Ply>,
}

impl Game {
    pub fn new(start: Position) -> Game {
        Game {
            start,
            current: start,
            plies: Vec::new(),
        }
    }
    pub fn start(&self) -> &Position {
        &self.start
    }
    pub fn position(&self) -> &Position {
        &self.current
    }
    /// The moves played, with what each revealed.
    pub fn moves(&self) -> impl Iterator<Item = (Move, Reveal)> + '_ {
        self.plies.iter().map(|p| (p.mv, p.reveal))
    }
    pub fn len(&self) -> usize {
        self.plies.len()
    }
    pub fn is_empty(&self) -> bool {
        self.plies.is_empty()
    }

    /// Plays a move (checked). On error nothing changes.
    pub fn play(&mut self, mv: Move, reveal: Reveal) -> Result<(), PlayError> {
        let before = self.current;
        let irreversible =
            before.is_flip(mv) || (!mv.is_pass() && before.occupant(mv.to()).is_some());
        let mut after = before;
        after.play(mv, reveal)?;
        let flip = if before.is_flip(mv) {
            after.occupant(mv.to()).and_then(|o| match o {
                super::position::Occupant::Revealed(p) => Some(p),
                _ => None,
            })
        } else {
            None
        };
        self.plies.push(Ply {
            mv,
            reveal: Reveal {
                flip,
                captured: reveal.captured,
            },
            hash: after.hash(),
            gave_check: after.in_check(),
            irreversible,
        });
        self.current = after;
        Ok(())
    }

    /// Index of the first ply after the last irreversible one (0 if there was none).
    fn reversible_tail(&self) -> usize {
        self.plies
            .iter()
            .rposition(|p| p.irreversible)
            .map_or(0, |i| i + 1)
    }

    /// How many times the current position has occurred (1 = only now), counting the positions
    /// since the last capture or flip.
    pub fn repetitions(&self) -> usize {
        let tail = self.reversible_tail();
        let now = self.current.hash();
        let mut count = 1;
        if tail == 0 && self.start.hash() == now && !self.plies.is_empty() {
            count += 1;
        }
        let end = self.plies.len().saturating_sub(1);
        if tail < end {
            count += self.plies[tail..end]
                .iter()
                .filter(|p| p.hash == now)
                .count();
        }
        count
    }

    /// The result if the game is over, by the variant's rules. Checked in this order: no legal
    /// move (checkmate or not: a loss), threefold repetition (not in `jieqi`; perpetual check
    /// loses), 120 plies without a capture.
    pub fn result(&self) -> Option<GameResult> {
        let pos = &self.current;
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            let reason = if pos.in_check() {
                WinReason::Checkmate
            } else {
                WinReason::NoLegalMoves
            };
            return Some(GameResult::Win {
                winner: !pos.side_to_move(),
                reason,
            });
        }
        if pos.variant().repetition_ends_game() && self.repetitions() >= 3 {
            return Some(self.repetition_result());
        }
        if pos.halfmove_clock() >= pos.variant().no_capture_draw_plies() {
            return Some(GameResult::Draw(DrawReason::NoCapture));
        }
        None
    }

    /// The cycle is every ply from the first of the three occurrences to now; a side that gave
    /// check with each of its moves in it loses, and if both did the game is drawn.
    fn repetition_result(&self) -> GameResult {
        let now = self.current.hash();
        let tail = self.reversible_tail();
        // Index (in plies) of the position of the first occurrence: ply i produced position i + 1.
        let first_pos = if tail == 0 && self.start.hash() == now {
            0
        } else {
            self.plies[tail..]
                .iter()
                .position(|p| p.hash == now)
                .map_or(self.plies.len(), |i| tail + i + 1)
        };
        let cycle = &self.plies[first_pos..];
        // The side to move now made the plies at even distance from the end + 1.
        let mut all_checks = [true, true];
        let mut mover = self.current.side_to_move();
        for p in cycle.iter().rev() {
            mover = !mover;
            if !p.gave_check {
                all_checks[mover.index()] = false;
            }
        }
        match all_checks {
            [true, true] => GameResult::Draw(DrawReason::MutualPerpetualCheck),
            [true, false] => GameResult::Win {
                winner: Color::Black,
                reason: WinReason::PerpetualCheck,
            },
            [false, true] => GameResult::Win {
                winner: Color::Red,
                reason: WinReason::PerpetualCheck,
            },
            [false, false] => GameResult::Draw(DrawReason::Repetition),
        }
    }
}
