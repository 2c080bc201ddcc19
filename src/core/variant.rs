//! The three variants and their rule sets.

use std::fmt;
use std::str::FromStr;

/// Which game is played. `Jieqi` is the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Face-down Chinese chess under Mistboard rules (no repetition draw).
    #[default]
    Jieqi,
    /// Mixed-colour Jieqi: one shared pool, owner by true colour, waiting turns.
    Maniac,
    /// Plain Chinese chess.
    Xiangqi,
}

impl Variant {
    pub const ALL: [Variant; 3] = [Variant::Jieqi, Variant::Maniac, Variant::Xiangqi];

    pub fn name(self) -> &'static str {
        match self {
            Variant::Jieqi => "jieqi",
            Variant::Maniac => "maniac",
            Variant::Xiangqi => "xiangqi",
        }
    }
    /// Whether revealed advisors and elephants roam the whole board.
    pub fn roaming_guards(self) -> bool {
        !matches!(self, Variant::Xiangqi)
    }
    /// Whether a third occurrence of a position ends the game (draw, or loss for perpetual check).
    pub fn repetition_ends_game(self) -> bool {
        !matches!(self, Variant::Jieqi)
    }
    /// Whether face-down pieces exist in this variant.
    pub fn has_hidden(self) -> bool {
        !matches!(self, Variant::Xiangqi)
    }
    /// Plies without a capture after which the game is drawn.
    pub fn no_capture_draw_plies(self) -> u32 {
        120
    }
    /// The FEN of the start position (5-field form).
    pub fn start_fen(self) -> &'static str {
        match self {
            Variant::Xiangqi => "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            Variant::Jieqi | Variant::Maniac => {
                "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 0 1"
            }
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for an unknown variant name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant '{}' (expected jieqi, maniac or xiangqi)",
            self.0
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        match s.trim().to_ascii_lowercase().as_str() {
            "jieqi" => Ok(Variant::Jieqi),
            "maniac" => Ok(Variant::Maniac),
            "xiangqi" => Ok(Variant::Xiangqi),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}
