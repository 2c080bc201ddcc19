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
        let irreversible = before.is_flip(mv) || before.is_capture(mv);
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

    /// Hash of position `j` of the game: 0 is the start, `j` the one after ply `j - 1`.
    fn position_hash(&self, j: usize) -> u64 {
        if j == 0 {
            self.start.hash()
        } else {
            self.plies[j - 1].hash
        }
    }

    /// The earliest position that can come back: the one right after the last capture or flip
    /// (or the start). Positions before it cannot repeat.
    fn earliest_repeatable(&self) -> usize {
        self.plies
            .iter()
            .rposition(|p| p.irreversible)
            .map_or(0, |i| i + 1)
    }

    /// Positions (indices) equal to the current one, oldest first, the current one included.
    fn occurrences(&self) -> Vec<usize> {
        let now = self.plies.len();
        let hash = self.current.hash();
        (self.earliest_repeatable()..=now)
            .filter(|&j| self.position_hash(j) == hash)
            .collect()
    }

    /// How many times the current position has occurred (1 = only now), counting the positions
    /// from the one right after the last capture or flip.
    pub fn repetitions(&self) -> usize {
        self.occurrences().len()
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
        let first = self.occurrences()[0];
        // Position `first` was produced by ply `first - 1`; the cycle is the plies after it.
        let cycle = &self.plies[first..];
        // Walk back from the last ply, made by the side not to move now.
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
