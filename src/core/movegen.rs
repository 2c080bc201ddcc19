//! Legal move generation for all three variants.
//!
//! Pseudo-legal moves come from the attack tables; a move is then legal without a test unless it
//! could change the safety of the mover's king: king moves, any move while in check, moves of a
//! piece that shields the king (pinned on a chariot/king line, one of two cannon screens, a horse
//! leg or elephant eye of an attacker) and moves onto an open line between the king and a cannon
//! (which would become its screen). Those get a full attack test on the board after the move.
//!
//! Face-down pieces move by their square's role with Xiangqi's restrictions (advisor in the
//! palace, elephant on its own half); revealed advisors and elephants roam in `jieqi` and `maniac`.
//! A king is never captured (docs/rules.md, decision 8). In a Maniac waiting turn the waiting
//! piece does not move, and if nothing else can move the side passes (`0000`) unless it is in
//! check.

use super::attacks::{self, HALF, PALACE, TBIT};
use super::bitboard::Bitboard;
use super::moves::{Move, MoveList};
use super::piece::{Color, Role};
use super::position::Position;
use super::square::Square;

/// Squares whose change may expose the king of the side to move.
struct Danger {
    /// Moving a piece away from one of these may expose the king.
    from: Bitboard,
    /// Moving a piece onto one of these may expose the king (it becomes a cannon screen).
    to: Bitboard,
}

impl Position {
    fn danger(&self) -> Danger {
        let us = self.side;
        let them = !us;
        let k = self.king(us);
        let occ = self.occ();
        let theirs = self.by_color[them.index()];
        let r = &self.by_role;
        let mut from = Bitboard::EMPTY;
        let mut to = Bitboard::EMPTY;
        let lines = attacks::rook_lines(k);
        let snipers = lines & theirs & (r[Role::Rook.index()] | r[Role::King.index()]);
        for s in snipers {
            let between = attacks::between(k, s) & Bitboard(occ);
            if !between.more_than_one() {
                from |= between;
            }
        }
        let cannons = lines & theirs & r[Role::Cannon.index()];
        for s in cannons {
            let line = attacks::between(k, s);
            let between = line & Bitboard(occ);
            match between.count() {
                0 => to |= line,
                2 => from |= between,
                _ => {}
            }
        }
        let horses = theirs & r[Role::Horse.index()];
        if horses.any() {
            // Horses that would attack the king if their leg were empty.
            for h in attacks::horse_attackers(k, 0) & horses {
                if let Some(leg) = attacks::horse_leg_towards(k, h) {
                    from.set(leg);
                }
            }
        }
        let elephants = theirs & r[Role::Elephant.index()];
        if elephants.any() {
            for e in attacks::elephant_attacks(k, 0) & elephants {
                if let Some(eye) = attacks::elephant_eye_towards(k, e) {
                    from.set(eye);
                }
            }
        }
        Danger { from, to }
    }

    /// Whether the side to move's king is safe after moving `from` -> `to` (pseudo-legal).
    #[inline]
    pub(crate) fn king_safe_after(&self, from: Square, to: Square) -> bool {
        let us = self.side;
        let fb = 1u128 << from.index();
        let tb = 1u128 << to.index();
        let occ = (self.occ() & !fb) | tb;
        let occ_t = (self.occ_t & !TBIT[from.index()]) | TBIT[to.index()];
        let k = if from == self.king(us) {
            to
        } else {
            self.king(us)
        };
        self.attackers_with(k, !us, occ, occ_t, Bitboard(tb))
            .is_empty()
    }

    /// Destinations of the piece on `sq` (controlled by the side to move), before the king test.
    #[inline(always)]
    fn targets(&self, sq: Square, role: Role, occ: u128, allowed: Bitboard) -> Bitboard {
        let us = self.side;
        match role {
            Role::Rook => attacks::rook_attacks(sq, occ, self.occ_t) & allowed,
            Role::Cannon => {
                let quiet = attacks::rook_attacks(sq, occ, self.occ_t) & !Bitboard(occ) & allowed;
                let caps = attacks::cannon_captures(sq, occ, self.occ_t) & allowed;
                quiet | caps
            }
            Role::Horse => attacks::horse_attacks(sq, occ) & allowed,
            Role::Pawn => attacks::pawn_attacks(us, sq) & allowed,
            Role::Advisor => {
                let t = attacks::advisor_attacks(sq) & allowed;
                if self.variant.roaming_guards() && !self.hidden.contains(sq) {
                    t
                } else {
                    t & PALACE[us.index()]
                }
            }
            Role::Elephant => {
                let t = attacks::elephant_attacks(sq, occ) & allowed;
                if self.variant.roaming_guards() && !self.hidden.contains(sq) {
                    t
                } else {
                    t & HALF[us.index()]
                }
            }
            Role::King => attacks::king_attacks(sq) & allowed,
        }
    }

    /// Calls `f(from, targets, needs_test)` for every piece of the side to move with its
    /// pseudo-legal destinations, split into destinations that are legal without a test and
    /// those that need one.
    #[inline(always)]
    fn for_each_piece(&self, captures_only: bool, mut f: impl FnMut(Square, Bitboard, Bitboard)) {
        let us = self.side;
        let ours = self.by_color[us.index()];
        let occ = self.occ();
        // Never onto our own pieces, never onto the enemy king.
        let mut allowed = !(ours | Bitboard::from_square(self.king(!us)));
        if captures_only {
            allowed &= self.by_color[(!us).index()];
        }
        let mut movers = ours;
        if let Some(w) = self.wait {
            movers.clear(w);
        }
        let king = self.king(us);
        let in_check = self.checkers().any();
        let danger = if in_check { None } else { Some(self.danger()) };
        for role in Role::ALL {
            for sq in movers & self.by_role[role.index()] {
                let t = self.targets(sq, role, occ, allowed);
                if t.is_empty() {
                    continue;
                }
                match &danger {
                    Some(d) if sq != king && !d.from.contains(sq) => {
                        f(sq, t & !d.to, t & d.to);
                    }
                    _ => f(sq, Bitboard::EMPTY, t),
                }
            }
        }
    }

    /// Fills `out` with the legal moves of the side to move (captures only, if asked).
    fn collect_moves(&self, captures_only: bool, out: &mut MoveList) {
        out.clear();
        self.for_each_piece(captures_only, |from, safe, test| {
            for to in safe {
                out.push(Move::new(from, to));
            }
            for to in test {
                if self.king_safe_after(from, to) {
                    out.push(Move::new(from, to));
                }
            }
        });
    }

    /// Fills `out` with the legal moves of the side to move.
    pub fn legal_moves(&self, out: &mut MoveList) {
        self.collect_moves(false, out);
        if out.is_empty() && self.wait.is_some() && !self.in_check() {
            out.push(Move::PASS);
        }
    }

    /// Fills `out` with the legal captures of the side to move (never a king capture).
    pub fn legal_captures(&self, out: &mut MoveList) {
        self.collect_moves(true, out);
    }

    /// The legal moves as a list.
    pub fn legal_move_list(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list
    }

    /// The number of legal moves (fast: safe destinations are counted, not listed).
    pub fn count_legal(&self) -> usize {
        let mut n = 0usize;
        self.for_each_piece(false, |from, safe, test| {
            n += safe.count() as usize;
            for to in test {
                if self.king_safe_after(from, to) {
                    n += 1;
                }
            }
        });
        if n == 0 && self.wait.is_some() && !self.in_check() {
            n = 1;
        }
        n
    }

    /// Whether `mv` is a legal move here.
    pub fn is_legal(&self, mv: Move) -> bool {
        if mv.is_pass() {
            return self.wait.is_some() && self.count_legal() == 1 && {
                let list = self.legal_move_list();
                list.as_slice() == [Move::PASS]
            };
        }
        let (from, to) = (mv.from(), mv.to());
        let us = self.side;
        if !self.by_color[us.index()].contains(from) || self.wait == Some(from) {
            return false;
        }
        let Some(role) = self.moving_role(from) else {
            return false;
        };
        let allowed = !(self.by_color[us.index()] | Bitboard::from_square(self.king(!us)));
        self.targets(from, role, self.occ(), allowed).contains(to) && self.king_safe_after(from, to)
    }

    /// Whether the side to move has no legal move at all.
    pub fn has_no_moves(&self) -> bool {
        !self.has_legal_move()
    }

    /// Whether the side to move has a legal move (stops at the first one found).
    pub fn has_legal_move(&self) -> bool {
        let us = self.side;
        let ours = self.by_color[us.index()];
        let occ = self.occ();
        let allowed = !(ours | Bitboard::from_square(self.king(!us)));
        let mut movers = ours;
        if let Some(w) = self.wait {
            movers.clear(w);
        }
        let king = self.king(us);
        let in_check = self.checkers().any();
        let danger = if in_check { None } else { Some(self.danger()) };
        for role in Role::ALL {
            for sq in movers & self.by_role[role.index()] {
                let t = self.targets(sq, role, occ, allowed);
                let (safe, test) = match &danger {
                    Some(d) if sq != king && !d.from.contains(sq) => (t & !d.to, t & d.to),
                    _ => (Bitboard::EMPTY, t),
                };
                if safe.any() || Iterator::any(&mut { test }, |to| self.king_safe_after(sq, to)) {
                    return true;
                }
            }
        }
        // A Maniac waiting turn with nothing else to move: the pass, unless in check.
        self.wait.is_some() && !in_check
    }

    /// Whether `mv` (legal) gives check, judged on the board before any flip: a flipped piece is
    /// counted with its square's role. Exact for moves of revealed pieces.
    pub fn gives_check_before_flip(&self, mv: Move) -> bool {
        if mv.is_pass() {
            return false;
        }
        let mut after = *self;
        after.play_unchecked(mv, None);
        after.in_check()
    }
}

impl Color {
    /// The half of the board this colour starts on, as a set.
    pub fn half(self) -> Bitboard {
        HALF[self.index()]
    }
}
