//! From a `position` command to the engine's view of the game.
//!
//! The start (the variant's start position or a FEN of any dialect) is read and checked, then
//! every move is played on a copy with what its suffix reveals. Only when all of it succeeds does
//! the caller swap the result in, so a bad `position` never leaves a half-applied game behind.
//!
//! The belief state follows from the moves: a flip identity takes that identity out of the pool;
//! a captured identity on the capture of a face-down piece takes it out of the pool and adds it
//! to the known captures; a capture of a face-down piece without an identity keeps the pool,
//! because the sender does not know what was taken.

use std::fmt;

use super::command::{quote, MoveText, PositionCommand, StartSpec, Suffix};
use crate::core::{
    fen, FenError, Game, GameResult, Move, PlayError, Position, PositionError, Reveal,
    SetupWarning, Variant,
};
use crate::search::{Earlier, Root};

/// The game as the engine knows it: where it started, the moves since, and the hashes needed
/// for repetition detection.
#[derive(Clone, Debug)]
pub struct GameState {
    game: Game,
    /// The positions since the last capture or flip, oldest first, the current position last.
    reversible: Vec<Earlier>,
}

impl GameState {
    pub fn new(start: Position) -> GameState {
        GameState {
            game: Game::new(start),
            reversible: vec![earlier(&start)],
        }
    }

    pub fn startpos(variant: Variant) -> GameState {
        GameState::new(Position::startpos(variant))
    }

    /// The position after all moves.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Plays one move as written (suffix included). On error nothing changes.
    pub fn play(&mut self, text: &MoveText) -> Result<(), PlayError> {
        let before = *self.position();
        let mv = text.mv;
        let reveal = reveal_of(&before, text);
        self.game.play(mv, reveal)?;
        // A flip or a capture: no earlier position can come back.
        let irreversible = before.is_flip(mv) || before.is_capture(mv);
        if irreversible {
            self.reversible.clear();
        }
        self.reversible.push(earlier(self.position()));
        Ok(())
    }

    /// What the search needs: the position and the hashes of the earlier positions since the
    /// last irreversible move.
    pub fn root(&self) -> Root {
        let mut root = Root::new(*self.position());
        let n = self.reversible.len().saturating_sub(1);
        root.history = self.reversible[..n].to_vec();
        root
    }
}

fn earlier(pos: &Position) -> Earlier {
    Earlier {
        hash: pos.hash(),
        in_check: pos.in_check(),
    }
}

/// What a move's suffix says, read in `pos` (the position before the move): a lone letter is
/// the flip identity when the moving piece is face down, otherwise the captured identity.
pub fn reveal_of(pos: &Position, text: &MoveText) -> Reveal {
    match text.suffix {
        Suffix::None => Reveal::default(),
        Suffix::One(mark) if pos.is_flip(text.mv) => Reveal {
            flip: mark.piece(),
            captured: None,
        },
        Suffix::One(mark) => Reveal {
            flip: None,
            captured: mark.piece(),
        },
        Suffix::Two(flip, captured) => Reveal {
            flip: flip.piece(),
            captured: captured.piece(),
        },
    }
}

/// Why a `position` command was not applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionCommandError {
    Fen(FenError),
    Position(PositionError),
    Move {
        /// 1-based number of the move in the list.
        index: usize,
        text: String,
        error: PlayError,
        /// For a flip without an identity: an example of the letter to add.
        example: Option<String>,
    },
    /// A move after the end of the game (checkmate, no legal move, a Maniac or Xiangqi
    /// repetition, 120 plies without a capture).
    AfterEnd {
        /// 1-based number of the move in the list.
        index: usize,
        text: String,
        result: GameResult,
    },
}

impl fmt::Display for PositionCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionCommandError::Fen(e) => write!(f, "bad FEN: {e}"),
            PositionCommandError::Position(e) => write!(f, "impossible position: {e}"),
            PositionCommandError::Move {
                index,
                text,
                error,
                example,
            } => {
                write!(f, "move {index} '{}': {error}", quote(text))?;
                if let Some(example) = example {
                    write!(
                        f,
                        " (add the revealed identity as a 5th letter, e.g. '{example}')"
                    )?;
                }
                Ok(())
            }
            PositionCommandError::AfterEnd {
                index,
                text,
                result,
            } => write!(
                f,
                "move {index} '{}': the game is already over ({result}); no move can follow",
                quote(text)
            ),
        }
    }
}

impl std::error::Error for PositionCommandError {}

/// The game a `position` command describes, with the warnings of reading its FEN.
pub fn build(
    command: &PositionCommand,
    variant: Variant,
) -> Result<(GameState, Vec<SetupWarning>), PositionCommandError> {
    let (start, warnings) = match &command.start {
        StartSpec::StartPos => (Position::startpos(variant), Vec::new()),
        StartSpec::Fen(text) => {
            let setup = fen::parse(text).map_err(PositionCommandError::Fen)?;
            Position::from_setup(&setup, variant).map_err(PositionCommandError::Position)?
        }
    };
    let mut state = GameState::new(start);
    for (i, text) in command.moves.iter().enumerate() {
        if let Some(result) = state.game.result() {
            return Err(PositionCommandError::AfterEnd {
                index: i + 1,
                text: text.to_string(),
                result,
            });
        }
        let before = *state.position();
        state.play(text).map_err(|error| {
            let example = match error {
                PlayError::FlipNeeded(mv) => flip_example(&before, mv),
                _ => None,
            };
            PositionCommandError::Move {
                index: i + 1,
                text: text.to_string(),
                error,
                example,
            }
        })?;
    }
    Ok((state, warnings))
}

/// `b2e2C`-style example for a flip whose identity is missing: the first possible outcome.
fn flip_example(pos: &Position, mv: Move) -> Option<String> {
    let (piece, _) = pos.flip_outcomes(mv.from()).iter().next()?;
    Some(format!("{mv}{}", piece.char()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::command::{parse, Command, Dialect};

    fn command(line: &str) -> PositionCommand {
        match parse(line, Dialect::Uci) {
            Ok(Command::Position(p)) => p,
            other => panic!("{line}: {other:?}"),
        }
    }

    fn run(line: &str, variant: Variant) -> Result<GameState, PositionCommandError> {
        build(&command(line), variant).map(|(s, _)| s)
    }

    #[test]
    fn suffixes_reveal_and_learn() {
        // Red flips the b2 cannon-role piece as a rook, Black flips a pawn-role piece.
        let s = run("position startpos moves b2b9R a6a5p b9a9xp", Variant::Jieqi);
        let s = s.expect("legal");
        let pos = s.position();
        // Red's rook captured the face-down a9 piece and learned it was a pawn.
        assert_eq!(pos.known_captures().to_string(), "p1");
        assert_eq!(
            pos.pool()
                .count(crate::core::Piece::from_char('p').unwrap()),
            3
        );
        assert_eq!(s.root().history, Vec::<Earlier>::new());
    }

    #[test]
    fn a_capture_without_identity_keeps_the_pool() {
        let s = run("position startpos moves b2b9R a6a5p b9a9", Variant::Jieqi).unwrap();
        let pos = s.position();
        assert!(pos.known_captures().is_empty());
        // p5 minus the one revealed on a5.
        assert_eq!(
            pos.pool()
                .count(crate::core::Piece::from_char('p').unwrap()),
            4
        );
    }

    #[test]
    fn a_flip_without_identity_is_an_error_naming_the_move() {
        let e = run("position startpos moves b2e2C a6a5", Variant::Jieqi).unwrap_err();
        let text = e.to_string();
        assert!(text.starts_with("move 2 'a6a5'"), "{text}");
        assert!(text.contains("e.g. 'a6a5"), "{text}");
    }

    #[test]
    fn a_flip_with_one_possible_outcome_needs_no_identity() {
        // Black's only face-down piece can only be a pawn.
        let s = run(
            "position fen 4k4/9/9/x8/9/9/9/9/9/3K5 b p1 0 1 moves a6a5",
            Variant::Jieqi,
        )
        .unwrap();
        assert_eq!(s.position().fen(), "4k4/9/9/9/p8/9/9/9/9/3K5 w - 1 2");
    }

    #[test]
    fn history_restarts_after_irreversible_moves() {
        let s = run(
            "position fen 4k4/9/9/9/9/9/9/9/9/R2K5 w - 0 1 moves a0a1 e9f9 a1a0 f9e9",
            Variant::Xiangqi,
        )
        .unwrap();
        let root = s.root();
        assert_eq!(root.history.len(), 4);
        assert_eq!(root.history[0].hash, root.position.hash());
        let s = run("position startpos moves h2e2C h9g7", Variant::Xiangqi);
        assert!(s.is_err());
        let s = run("position startpos moves h2e2 h9g7", Variant::Xiangqi).unwrap();
        assert_eq!(s.root().history.len(), 2);
    }

    #[test]
    fn errors_name_what_is_wrong() {
        let e = run("position fen 9/9/9/9/9/9/9/9/9/9 w - 0 1", Variant::Jieqi).unwrap_err();
        assert!(matches!(e, PositionCommandError::Position(_)), "{e}");
        let e = run("position fen nonsense w", Variant::Jieqi).unwrap_err();
        assert!(matches!(e, PositionCommandError::Fen(_)), "{e}");
        let e = run("position startpos moves h2e2 e2e9", Variant::Xiangqi).unwrap_err();
        assert!(
            e.to_string().starts_with("move 2 'e2e9': illegal move"),
            "{e}"
        );
    }
}
