//! Static exchange evaluation: what a move wins or loses on its destination once both sides
//! have taken there in turn, each with its least valuable piece, each free to stop.
//!
//! The exchange is played on occupancy bitboards only: a piece that takes leaves its square, so
//! the chariots and cannons behind it see through (or lose their screen), and a horse or
//! elephant blocked by it is freed. Pins, checks and the rule that the kings may not face each
//! other are left out; a king takes only on the points of its palace next to it and, by its
//! value, only where nothing takes it back. What a piece is worth is the caller's (the rules
//! give pieces no values): a face-down piece is worth what the caller expects of it, both as a
//! victim and once it has moved and taken.

use super::attacks::{self, PALACE, TBIT};
use super::bitboard::Bitboard;
use super::moves::Move;
use super::piece::{Color, Role};
use super::position::{Occupant, Position};
use super::square::Square;

/// The longest exchange followed (one capture per piece on the board at most).
const MAX_CAPTURES: usize = 34;

impl Position {
    /// The material the side to move gains by `mv` and the exchange on its destination that
    /// follows, with `value` the worth of each occupant (a king's should exceed every other
    /// piece's together). A move that takes nothing scores 0 unless the mover's piece can be
    /// taken there at a profit. A pass scores 0.
    pub fn exchange(&self, mv: Move, value: impl Fn(Occupant) -> i32) -> i32 {
        if mv.is_pass() {
            return 0;
        }
        let (from, to) = (mv.from(), mv.to());
        let worth = |sq: Square| self.occupant(sq).map_or(0, &value);
        let mut gain = [0i32; MAX_CAPTURES];
        gain[0] = worth(to);
        // The worth of the piece standing on `to` after the last capture.
        let mut standing = worth(from);
        let mut occ = (self.occ() & !Bitboard::from_square(from).0) | Bitboard::from_square(to).0;
        let mut occ_t = (self.occ_t & !TBIT[from.index()]) | TBIT[to.index()];
        let mut gone = Bitboard::from_square(from);
        let mut side = !self.side_to_move();
        let mut d = 0;
        while d + 1 < MAX_CAPTURES {
            let takers = self.takers(to, side, occ, occ_t, gone);
            let Some((sq, w)) = takers.map(|sq| (sq, worth(sq))).min_by_key(|&(_, w)| w) else {
                break;
            };
            d += 1;
            gain[d] = standing - gain[d - 1];
            // Neither side can do better than stopping here, whatever follows.
            if (-gain[d - 1]).max(gain[d]) < 0 {
                break;
            }
            standing = w;
            occ &= !Bitboard::from_square(sq).0;
            occ_t &= !TBIT[sq.index()];
            gone.set(sq);
            side = !side;
        }
        while d > 0 {
            gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
            d -= 1;
        }
        gain[0]
    }

    /// The pieces of `by` (not on `gone`) that can take on `to` with occupancy `occ` (and its
    /// transpose `occ_t`): a king only by a step inside its palace.
    fn takers(&self, to: Square, by: Color, occ: u128, occ_t: u128, gone: Bitboard) -> Bitboard {
        let kings = self.pieces(by, Role::King);
        let mut a = self.attackers_with(to, by, occ, occ_t, gone) & !kings;
        if PALACE[by.index()].contains(to) {
            a |= attacks::king_attacks(to) & kings & !gone;
        }
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fen;
    use crate::core::Variant;

    /// Worths in centipawns: pawn 100, advisor and elephant 200, horse 400, cannon 450, chariot
    /// 900, king 10 000, a face-down piece 400.
    fn value(o: Occupant) -> i32 {
        match o {
            Occupant::Revealed(p) => match p.role {
                Role::Pawn => 100,
                Role::Advisor | Role::Elephant => 200,
                Role::Horse => 400,
                Role::Cannon => 450,
                Role::Rook => 900,
                Role::King => 10_000,
            },
            Occupant::Hidden { .. } => 400,
        }
    }

    fn see(text: &str, variant: Variant, mv: &str) -> i32 {
        let setup = fen::parse(text).expect("fen");
        let pos = Position::from_setup(&setup, variant).expect("position").0;
        let mv = Move::parse(mv).expect("move");
        pos.exchange(mv, value)
    }

    fn xiangqi(text: &str, mv: &str) -> i32 {
        see(text, Variant::Xiangqi, mv)
    }

    #[test]
    fn an_undefended_piece_is_won_whole() {
        // Red chariot e2 takes the black horse on e6; nothing black reaches e6.
        assert_eq!(
            xiangqi("3k5/9/9/4n4/9/9/9/4R4/9/5K3 w - - 0 1", "e2e6"),
            400
        );
    }

    #[test]
    fn a_defended_piece_taken_by_a_dearer_one_loses_the_difference() {
        // The chariot takes a pawn that a black chariot guards.
        assert_eq!(
            xiangqi("3k5/4r4/9/9/4p4/9/9/4R4/9/5K3 w - - 0 1", "e2e5"),
            100 - 900
        );
    }

    #[test]
    fn a_chariot_behind_the_taker_backs_it_up() {
        // Red chariots e3 and e2 against the black chariot e8 guarding the horse e6: the black
        // chariot does not take back (it would lose itself for the chariot).
        assert_eq!(
            xiangqi("3k5/4r4/9/4n4/9/9/4R4/4R4/9/5K3 w - - 0 1", "e3e6"),
            400
        );
        // With one red chariot it does, and the exchange loses the chariot for the horse.
        assert_eq!(
            xiangqi("3k5/4r4/9/4n4/9/9/9/4R4/9/5K3 w - - 0 1", "e2e6"),
            400 - 900
        );
    }

    #[test]
    fn a_cannon_needs_its_screen_to_take_back() {
        // Red cannon e1 reaches e6 over the chariot e2. The chariot taking first leaves the
        // cannon without a screen, so the black chariot wins the exchange; the cannon taking
        // first keeps the chariot behind it, and black does not take back.
        let text = "3k5/4r4/9/4n4/9/9/9/4R4/4C4/5K3 w - - 0 1";
        assert_eq!(xiangqi(text, "e2e6"), 400 - 900);
        assert_eq!(xiangqi(text, "e1e6"), 400);
    }

    #[test]
    fn a_quiet_move_onto_a_guarded_point_loses_the_piece() {
        // The red horse d1 steps to f2, which the black pawn f3 takes.
        let text = "3k5/9/9/9/9/9/5p3/9/3N5/4K4 w - - 0 1";
        assert_eq!(xiangqi(text, "d1f2"), -400);
        // To b2 nothing takes it.
        assert_eq!(xiangqi(text, "d1b2"), 0);
    }

    #[test]
    fn a_king_takes_only_where_nothing_takes_back() {
        // A black pawn e1 next to the red king e0: taken if nothing guards e1.
        assert_eq!(xiangqi("3k5/9/9/9/9/9/9/9/4p4/4K4 w - - 0 1", "e0e1"), 100);
        // Guarded by the black chariot e8 down the open file: taking would lose the king.
        assert_eq!(
            xiangqi("3k5/4r4/9/9/9/9/9/9/4p4/4K4 w - - 0 1", "e0e1"),
            100 - 10_000
        );
    }

    #[test]
    fn face_down_pieces_take_and_are_taken_at_the_callers_worth() {
        // From the Jieqi start the red cannon-square piece b2 jumps over b7 onto the face-down
        // piece b9, which the chariot-square piece a9 takes back: an even trade at 400 each.
        let start = Position::startpos(Variant::Jieqi);
        let take = Move::parse("b2b9").expect("move");
        assert_eq!(start.exchange(take, value), 0);
        // A flip onto a point nothing black reaches loses nothing.
        let quiet = Move::parse("a0a2").expect("move");
        assert_eq!(start.exchange(quiet, value), 0);
    }
}
