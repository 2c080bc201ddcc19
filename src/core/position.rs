//! The position: board, pools, side to move, counters and the Maniac waiting turn.
//!
//! A `Position` is small and `Copy`-cheap (copy-make). It is built from a [`Setup`] through
//! [`Position::from_setup`], which checks it against the variant's rules, so that a position is
//! always playable. A position either knows the identity of every face-down piece (a *deal*: the
//! referee's view, or one sampled world) or of none; a flip then has exactly one outcome, or one
//! outcome per distinct identity in the pool that the piece draws from.

use std::fmt;

use super::attacks::{self, TBIT};
use super::bitboard::Bitboard;
use super::moves::Move;
use super::piece::{Color, Piece, Role};
use super::pool::{identity_index, identity_piece, Pool, IDENTITIES};
use super::setup::{Setup, SetupCell};
use super::square::Square;
use super::variant::Variant;
use super::zobrist;

/// The role each starting square gives to the face-down piece standing on it.
pub static START_ROLE: [Option<Role>; 90] = {
    const BACK: [Option<Role>; 9] = [
        Some(Role::Rook),
        Some(Role::Horse),
        Some(Role::Elephant),
        Some(Role::Advisor),
        None, // the king is never face down
        Some(Role::Advisor),
        Some(Role::Elephant),
        Some(Role::Horse),
        Some(Role::Rook),
    ];
    let mut t = [None; 90];
    let mut f = 0;
    while f < 9 {
        t[f] = BACK[f];
        t[81 + f] = BACK[f];
        if f % 2 == 0 {
            t[27 + f] = Some(Role::Pawn);
            t[54 + f] = Some(Role::Pawn);
        }
        f += 1;
    }
    t[18 + 1] = Some(Role::Cannon);
    t[18 + 7] = Some(Role::Cannon);
    t[63 + 1] = Some(Role::Cannon);
    t[63 + 7] = Some(Role::Cannon);
    t
};

/// The role of a face-down piece standing on `sq`, if `sq` is a starting square.
pub fn start_role(sq: Square) -> Option<Role> {
    START_ROLE[sq.index()]
}

/// Identities tried in this order when a pool is completed and the role identity has no room.
const FILL_ORDER: [Role; 6] = [
    Role::Rook,
    Role::Advisor,
    Role::Cannon,
    Role::Pawn,
    Role::Horse,
    Role::Elephant,
];

/// Whether a revealed piece can stand on `sq` in `xiangqi`: advisors on the five points of their
/// palace, elephants on their seven points, pawns from their starting points on (before the river
/// only on the files they start on). Kings are checked separately.
fn xiangqi_reachable(piece: Piece, sq: Square) -> bool {
    let file = sq.file().index();
    // Rank counted from the piece's own back rank.
    let rank = match piece.color {
        Color::Red => sq.rank().index(),
        Color::Black => 9 - sq.rank().index(),
    };
    match piece.role {
        Role::Advisor => sq.in_palace(piece.color) && (file + rank) % 2 == 1,
        Role::Elephant => rank <= 4 && rank % 2 == 0 && (file + rank) % 4 == 2,
        Role::Pawn => rank >= 5 || (rank >= 3 && file.is_multiple_of(2)),
        _ => true,
    }
}

/// What stands on a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Occupant {
    Revealed(Piece),
    /// A face-down piece: controlled by the side whose half it stands on; `identity` is known only
    /// in a deal.
    Hidden {
        controller: Color,
        identity: Option<Piece>,
    },
}

// Mailbox encoding of a point: 0 empty; 1..=14 a revealed piece (index + 1); face-down pieces
// have HIDDEN set, the controller in CTRL_BLACK, and the identity (index + 1, or 0) in the low bits.
const EMPTY: u8 = 0;
const HIDDEN: u8 = 0x40;
const CTRL_BLACK: u8 = 0x20;
const ID_MASK: u8 = 0x1F;

#[inline(always)]
fn revealed_cell(p: Piece) -> u8 {
    p.index() as u8 + 1
}

#[inline(always)]
fn hidden_cell(controller: Color, identity: Option<Piece>) -> u8 {
    HIDDEN
        | if controller == Color::Black {
            CTRL_BLACK
        } else {
            0
        }
        | identity.map_or(0, |p| p.index() as u8 + 1)
}

fn decode(cell: u8) -> Option<Occupant> {
    if cell == EMPTY {
        None
    } else if cell & HIDDEN != 0 {
        let controller = if cell & CTRL_BLACK != 0 {
            Color::Black
        } else {
            Color::Red
        };
        let id = cell & ID_MASK;
        let identity = (id != 0).then(|| Piece::from_index(id as usize - 1));
        Some(Occupant::Hidden {
            controller,
            identity,
        })
    } else {
        Some(Occupant::Revealed(Piece::from_index(cell as usize - 1)))
    }
}

/// Why a setup is not a playable position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Face-down pieces exist only in `jieqi` and `maniac`.
    HiddenInXiangqi(Square),
    /// A face-down piece stands off the starting squares (or on a king square).
    HiddenOffStart(Square),
    /// `X` on Black's half or `x` on Red's half.
    HiddenWrongHalf(Square),
    MissingKing(Color),
    TooManyKings(Color),
    KingOutsidePalace(Square),
    /// More revealed pieces of one kind than a side owns.
    TooManyPieces(Piece),
    /// Revealed pieces, the pool and the known captures together hold more pieces of one kind
    /// than a side owns (each piece is in at most one of them).
    BeyondMaterial {
        piece: Piece,
        revealed: u8,
        pool: u8,
        captured: u8,
    },
    /// More face-down pieces than the pieces a side (in `maniac`: both sides) has left for them.
    TooManyHidden(Option<Color>),
    /// `xiangqi`: a revealed advisor, elephant or pawn on a point it can never reach.
    Unreachable(Piece, Square),
    /// A Maniac waiting turn in which the king of the side that just moved is attacked by a
    /// piece other than the flipped one (`attacker` is its square).
    WaitCheck {
        wait: Square,
        attacker: Square,
    },
    /// The side that just moved has its king attacked (only a Maniac waiting turn allows it).
    OpponentInCheck,
    /// A `wait=` square outside Maniac, or not holding a revealed piece of the side to move.
    BadWait(Square),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::HiddenInXiangqi(sq) => {
                write!(f, "face-down piece on {sq}, but xiangqi has no face-down pieces")
            }
            PositionError::HiddenOffStart(sq) => {
                write!(f, "face-down piece on {sq}, which is not a starting square")
            }
            PositionError::HiddenWrongHalf(sq) => write!(
                f,
                "face-down piece on {sq} has the colour of the other half (X belongs on ranks 0-4, x on 5-9)"
            ),
            PositionError::MissingKing(c) => write!(f, "no {} king", c.name()),
            PositionError::TooManyKings(c) => write!(f, "more than one {} king", c.name()),
            PositionError::KingOutsidePalace(sq) => write!(f, "king on {sq} is outside its palace"),
            PositionError::TooManyPieces(p) => write!(
                f,
                "more than {} revealed '{}' pieces",
                p.role.start_count(),
                p.char()
            ),
            PositionError::BeyondMaterial {
                piece,
                revealed,
                pool,
                captured,
            } => write!(
                f,
                "{} '{}' pieces ({revealed} revealed, {pool} in the pool, {captured} known captured), \
                 but a side has {}",
                *revealed as u32 + *pool as u32 + *captured as u32,
                piece.char(),
                piece.role.start_count()
            ),
            PositionError::TooManyHidden(group) => write!(
                f,
                "more face-down pieces{} than pieces left for them",
                group.map_or(String::new(), |c| format!(" on {}'s half", c.name()))
            ),
            PositionError::Unreachable(piece, sq) => write!(
                f,
                "'{}' on {sq} cannot arise in xiangqi ({})",
                piece.char(),
                match piece.role {
                    Role::Advisor => "an advisor stays on the five points of its palace",
                    Role::Elephant => "an elephant stays on its seven points on its own half",
                    _ => "a pawn never stands behind its starting rank, nor beside its start points before the river",
                }
            ),
            PositionError::WaitCheck { wait, attacker } => write!(
                f,
                "in the waiting turn only the flipped piece on {wait} may attack the king of the \
                 side that just moved, but the piece on {attacker} attacks it too"
            ),
            PositionError::OpponentInCheck => {
                write!(f, "the side not to move is in check")
            }
            PositionError::BadWait(sq) => write!(
                f,
                "wait={sq} needs maniac and a revealed piece of the side to move on {sq}"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// Something a setup needed fixing for (docs/rules.md, decision 10: inconsistent pools).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupWarning {
    /// The pool a group of face-down pieces draws from was smaller than the group; the role
    /// identities listed were added. `color` is `None` for Maniac's shared pool.
    PoolTooSmall { color: Option<Color>, added: Pool },
    /// A pool was given for `xiangqi`, which has no face-down pieces; it was dropped.
    PoolIgnored,
}

impl fmt::Display for SetupWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupWarning::PoolTooSmall { color, added } => write!(
                f,
                "{} pool smaller than the number of face-down pieces drawing from it; added role identities {}",
                color.map_or("shared", |c| c.name()),
                added
            ),
            SetupWarning::PoolIgnored => write!(f, "xiangqi has no face-down pieces; pool ignored"),
        }
    }
}

/// The result of reading the identities of a flip: one entry per distinct identity, with its
/// weight (the number of copies in the pool it is drawn from).
#[derive(Clone, Copy, Debug)]
pub struct Outcomes {
    items: [(Piece, u8); IDENTITIES],
    len: usize,
}

impl Outcomes {
    fn new() -> Outcomes {
        Outcomes {
            items: [(Piece::new(Color::Red, Role::Pawn), 0); IDENTITIES],
            len: 0,
        }
    }
    fn push(&mut self, p: Piece, w: u8) {
        self.items[self.len] = (p, w);
        self.len += 1;
    }
    pub fn as_slice(&self) -> &[(Piece, u8)] {
        &self.items[..self.len]
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Sum of the weights.
    pub fn total_weight(&self) -> u32 {
        self.as_slice().iter().map(|&(_, w)| w as u32).sum()
    }
    pub fn iter(&self) -> impl Iterator<Item = (Piece, u8)> + '_ {
        self.as_slice().iter().copied()
    }
}

/// Why `Position::play` refused a move (the position is left unchanged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    Illegal(Move),
    /// The move flips a piece and the position does not know its identity: one must be given.
    FlipNeeded(Move),
    /// The given flip identity cannot come out of the pool this piece draws from.
    ImpossibleFlip(Move, Piece),
    /// The given flip identity contradicts the known identity of the piece.
    WrongFlip(Move, Piece),
    /// A flip identity was given for a move that flips nothing.
    NotAFlip(Move),
    /// A captured identity was given for a move that captures no face-down piece.
    NotAHiddenCapture(Move),
    /// The captured identity is of the wrong colour or not in the pool.
    ImpossibleCapture(Move, Piece),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Illegal(m) => write!(f, "illegal move {m}"),
            PlayError::FlipNeeded(m) => write!(f, "move {m} flips a piece; its identity is needed"),
            PlayError::ImpossibleFlip(m, p) => {
                write!(
                    f,
                    "move {m}: '{}' is not in the pool the piece draws from",
                    p.char()
                )
            }
            PlayError::WrongFlip(m, p) => {
                write!(f, "move {m}: the piece is known not to be '{}'", p.char())
            }
            PlayError::NotAFlip(m) => write!(f, "move {m} does not flip a piece"),
            PlayError::NotAHiddenCapture(m) => {
                write!(f, "move {m} does not capture a face-down piece")
            }
            PlayError::ImpossibleCapture(m, p) => write!(
                f,
                "move {m}: the captured face-down piece cannot be '{}'",
                p.char()
            ),
        }
    }
}

impl std::error::Error for PlayError {}

/// What is learned while playing a move: the identity a flip reveals and, when the mover
/// captures a face-down piece and knows what it was, that identity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reveal {
    pub flip: Option<Piece>,
    pub captured: Option<Piece>,
}

#[derive(Clone, Copy)]
pub struct Position {
    pub(crate) board: [u8; 90],
    /// Pieces by controlling side (face-down pieces by the half they stand on).
    pub(crate) by_color: [Bitboard; 2],
    /// Pieces by how they move now (face-down pieces by their square's role).
    pub(crate) by_role: [Bitboard; 7],
    pub(crate) hidden: Bitboard,
    /// Occupancy in file-major order (bit file * 10 + rank), for file lookups.
    pub(crate) occ_t: u128,
    pub(crate) kings: [Square; 2],
    pub(crate) pool: Pool,
    pub(crate) captured: Pool,
    pub(crate) side: Color,
    pub(crate) variant: Variant,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) wait: Option<Square>,
    pub(crate) hash: u64,
    pub(crate) dealt: bool,
}

impl Position {
    /// The start position of a variant.
    pub fn startpos(variant: Variant) -> Position {
        let setup = super::fen::parse(variant.start_fen()).expect("built-in start FEN is valid");
        Position::from_setup(&setup, variant)
            .expect("built-in start position is valid")
            .0
    }

    /// Checks a setup against the rules of `variant` and builds the position, with the
    /// warnings of any fallback applied (docs/rules.md, decision 10: inconsistent pools).
    pub fn from_setup(
        setup: &Setup,
        variant: Variant,
    ) -> Result<(Position, Vec<SetupWarning>), PositionError> {
        let mut warnings = Vec::new();
        let mut pos = Position {
            board: [EMPTY; 90],
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 7],
            hidden: Bitboard::EMPTY,
            occ_t: 0,
            kings: [Square::from_index(0); 2],
            pool: setup.pool,
            captured: setup.captured,
            side: setup.side,
            variant,
            halfmove: setup.halfmove,
            fullmove: setup.fullmove.max(1),
            wait: None,
            hash: 0,
            dealt: false,
        };
        let mut king_count = [0; 2];
        let mut revealed_count = [0u8; 14];
        for sq in Square::all() {
            let Some(cell) = setup.get(sq) else { continue };
            match cell {
                SetupCell::Hidden(color) => {
                    if !variant.has_hidden() {
                        return Err(PositionError::HiddenInXiangqi(sq));
                    }
                    if start_role(sq).is_none() {
                        return Err(PositionError::HiddenOffStart(sq));
                    }
                    if sq.half() != color {
                        return Err(PositionError::HiddenWrongHalf(sq));
                    }
                    pos.put(sq, hidden_cell(color, None));
                }
                SetupCell::Revealed(piece) => {
                    if piece.role == Role::King {
                        if !sq.in_palace(piece.color) {
                            return Err(PositionError::KingOutsidePalace(sq));
                        }
                        king_count[piece.color.index()] += 1;
                    }
                    if variant == Variant::Xiangqi && !xiangqi_reachable(piece, sq) {
                        return Err(PositionError::Unreachable(piece, sq));
                    }
                    revealed_count[piece.index()] += 1;
                    if revealed_count[piece.index()] > piece.role.start_count() {
                        return Err(if piece.role == Role::King {
                            PositionError::TooManyKings(piece.color)
                        } else {
                            PositionError::TooManyPieces(piece)
                        });
                    }
                    pos.put(sq, revealed_cell(piece));
                }
            }
        }
        for color in Color::ALL {
            if king_count[color.index()] == 0 {
                return Err(PositionError::MissingKing(color));
            }
        }
        if let Some(sq) = setup.wait {
            let ok = variant == Variant::Maniac
                && matches!(pos.occupant(sq), Some(Occupant::Revealed(p)) if p.color == pos.side);
            if !ok {
                return Err(PositionError::BadWait(sq));
            }
            pos.wait = Some(sq);
        }
        if !variant.has_hidden() {
            if !pos.pool.is_empty() || !pos.captured.is_empty() {
                warnings.push(SetupWarning::PoolIgnored);
            }
            pos.pool = Pool::EMPTY;
            pos.captured = Pool::EMPTY;
        } else {
            // Every piece of a kind is revealed, unseen (in the pool) or a known capture, at
            // most one of them: together they cannot exceed what a side owns. (In `maniac` the
            // known captures only record what the viewer learned; they play no part in the
            // rules.)
            for i in 0..IDENTITIES {
                let piece = identity_piece(i);
                let revealed = revealed_count[piece.index()];
                let (pool, captured) = (pos.pool.count_at(i), pos.captured.count_at(i));
                if revealed as u32 + pool as u32 + captured as u32 > piece.role.start_count() as u32
                {
                    return Err(PositionError::BeyondMaterial {
                        piece,
                        revealed,
                        pool,
                        captured,
                    });
                }
            }
            pos.complete_pools(&revealed_count, &mut warnings)?;
        }
        pos.hash = pos.compute_hash();
        let their_king = pos.king(!pos.side);
        match pos.wait {
            None => {
                if pos.is_attacked_by(their_king, pos.side) {
                    return Err(PositionError::OpponentInCheck);
                }
            }
            Some(wait) => {
                // The check exception covers the flipped piece only; it still blocks and
                // screens for the others.
                let mut others = pos.attackers_with(
                    their_king,
                    pos.side,
                    pos.occ(),
                    pos.occ_t,
                    Bitboard::from_square(wait),
                );
                if let Some(attacker) = others.next() {
                    return Err(PositionError::WaitCheck { wait, attacker });
                }
            }
        }
        Ok((pos, warnings))
    }

    /// docs/rules.md, decision 10: add role identities of face-down pieces, in square order, until each pool is
    /// at least as large as the group of face-down pieces drawing from it. Where every piece of
    /// the role identity is already accounted for (revealed, in the pool or captured), the first
    /// identity of the group in the order R A C P N B that is not is added instead (in `maniac`
    /// the controller's colour first); if there is none, the setup has more face-down pieces than
    /// pieces left for them.
    fn complete_pools(
        &mut self,
        revealed: &[u8; 14],
        warnings: &mut Vec<SetupWarning>,
    ) -> Result<(), PositionError> {
        let groups: &[Option<Color>] = match self.variant {
            Variant::Maniac => &[None],
            _ => &[Some(Color::Red), Some(Color::Black)],
        };
        for &group in groups {
            let members: Vec<Square> = self
                .hidden
                .filter(|&sq| group.is_none_or(|c| sq.half() == c))
                .collect();
            let size = |pool: &Pool| match group {
                Some(c) => pool.total_of(c),
                None => pool.total(),
            };
            let mut added = Pool::EMPTY;
            for &sq in &members {
                if size(&self.pool) >= members.len() as u32 {
                    break;
                }
                let role = start_role(sq).unwrap_or(Role::Pawn);
                let has_room = |pool: &Pool, p: Piece| {
                    let held = u32::from(revealed[p.index()])
                        + u32::from(pool.count(p))
                        + u32::from(self.captured.count(p));
                    held < u32::from(p.role.start_count())
                };
                let colours = match group {
                    Some(c) => [c, c],
                    None => [sq.half(), !sq.half()],
                };
                let fallback = colours.iter().find_map(|&c| {
                    FILL_ORDER
                        .iter()
                        .map(|&r| Piece::new(c, r))
                        .find(|&p| has_room(&self.pool, p))
                });
                let own = Piece::new(sq.half(), role);
                let Some(piece) = Some(own).filter(|&p| has_room(&self.pool, p)).or(fallback)
                else {
                    return Err(PositionError::TooManyHidden(group));
                };
                self.pool.add(piece);
                added.add(piece);
            }
            if !added.is_empty() {
                warnings.push(SetupWarning::PoolTooSmall {
                    color: group,
                    added,
                });
            }
        }
        Ok(())
    }

    /// The unvalidated form of this position (for writing FEN).
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty();
        for sq in Square::all() {
            let cell = match self.occupant(sq) {
                None => None,
                Some(Occupant::Revealed(p)) => Some(SetupCell::Revealed(p)),
                Some(Occupant::Hidden { controller, .. }) => Some(SetupCell::Hidden(controller)),
            };
            setup.put(sq, cell);
        }
        setup.side = self.side;
        setup.pool = self.pool;
        setup.captured = self.captured;
        setup.halfmove = self.halfmove;
        setup.fullmove = self.fullmove;
        setup.wait = self.wait;
        setup
    }

    /// FEN in the 5-field form (`board side pool halfmove fullmove [wait=sq]`).
    pub fn fen(&self) -> String {
        super::fen::write(&self.to_setup(), super::fen::FenDialect::Pikafish)
    }

    /// FEN in JieqiBox's 6-field form (with the captured-identities field).
    pub fn fen6(&self) -> String {
        super::fen::write(&self.to_setup(), super::fen::FenDialect::JieqiBox)
    }

    // ---- accessors ----

    pub fn variant(&self) -> Variant {
        self.variant
    }
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    /// Identities not yet seen (per colour in `jieqi`; one shared pool in `maniac`).
    pub fn pool(&self) -> &Pool {
        &self.pool
    }
    /// Identities of face-down pieces the viewer captured and knows.
    pub fn known_captures(&self) -> &Pool {
        &self.captured
    }
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }
    /// Maniac: the square of the piece the side to move may not move this turn.
    pub fn waiting_square(&self) -> Option<Square> {
        self.wait
    }
    pub fn hash(&self) -> u64 {
        self.hash
    }
    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }
    pub fn occupant(&self, sq: Square) -> Option<Occupant> {
        decode(self.board[sq.index()])
    }
    pub fn is_hidden(&self, sq: Square) -> bool {
        self.hidden.contains(sq)
    }
    /// All face-down pieces.
    pub fn hidden(&self) -> Bitboard {
        self.hidden
    }
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }
    /// Pieces controlled by `color` (face-down pieces by the half they stand on).
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }
    /// Pieces of `color` that move as `role` now (face-down pieces by their square's role).
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }
    /// The side that controls the piece on `sq`.
    pub fn controller(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::Red)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }
    /// The role `sq`'s piece moves as now (a face-down piece: its square's role).
    pub fn moving_role(&self, sq: Square) -> Option<Role> {
        let cell = self.board[sq.index()];
        if cell == EMPTY {
            None
        } else if cell & HIDDEN != 0 {
            start_role(sq)
        } else {
            Some(Role::from_index((cell as usize - 1) % 7))
        }
    }
    /// Whether this position knows the identity of every face-down piece.
    pub fn is_dealt(&self) -> bool {
        self.dealt
    }
    /// Number of face-down pieces drawing from the same pool as a face-down piece of `color`'s
    /// half (all face-down pieces in Maniac).
    pub fn hidden_in_group(&self, color: Color) -> u32 {
        match self.variant {
            Variant::Maniac => self.hidden.count(),
            _ => (self.hidden & self.by_color[color.index()]).count(),
        }
    }

    // ---- board editing (keeps bitboards and hash in step) ----

    #[inline(always)]
    fn cell_hash(sq: Square, cell: u8) -> u64 {
        if cell & HIDDEN != 0 {
            let ctrl = (cell & CTRL_BLACK != 0) as usize;
            let id = cell & ID_MASK;
            let mut h = zobrist::HIDDEN[ctrl][sq.index()];
            if id != 0 {
                h ^= zobrist::IDENTITY[id as usize - 1][sq.index()];
            }
            h
        } else {
            zobrist::PIECE[cell as usize - 1][sq.index()]
        }
    }

    #[inline(always)]
    fn put(&mut self, sq: Square, cell: u8) {
        debug_assert!(self.board[sq.index()] == EMPTY && cell != EMPTY);
        self.board[sq.index()] = cell;
        let bb = Bitboard::from_square(sq);
        if cell & HIDDEN != 0 {
            let ctrl = (cell & CTRL_BLACK != 0) as usize;
            self.by_color[ctrl] |= bb;
            let role = START_ROLE[sq.index()].unwrap_or(Role::Pawn);
            self.by_role[role.index()] |= bb;
            self.hidden |= bb;
        } else {
            let p = Piece::from_index(cell as usize - 1);
            self.by_color[p.color.index()] |= bb;
            self.by_role[p.role.index()] |= bb;
            if p.role == Role::King {
                self.kings[p.color.index()] = sq;
            }
        }
        self.occ_t |= TBIT[sq.index()];
        self.hash ^= Self::cell_hash(sq, cell);
    }

    #[inline(always)]
    fn take(&mut self, sq: Square) -> u8 {
        let cell = self.board[sq.index()];
        debug_assert!(cell != EMPTY);
        self.board[sq.index()] = EMPTY;
        let keep = !Bitboard::from_square(sq);
        self.by_color[0] &= keep;
        self.by_color[1] &= keep;
        if cell & HIDDEN != 0 {
            let role = START_ROLE[sq.index()].unwrap_or(Role::Pawn);
            self.by_role[role.index()] &= keep;
            self.hidden &= keep;
        } else {
            self.by_role[(cell as usize - 1) % 7] &= keep;
        }
        self.occ_t &= !TBIT[sq.index()];
        self.hash ^= Self::cell_hash(sq, cell);
        cell
    }

    #[inline(always)]
    fn pool_change(&mut self, piece: Piece, add: bool) -> bool {
        let Some(i) = identity_index(piece) else {
            return false;
        };
        let before = self.pool.count_at(i);
        let changed = if add {
            self.pool.add(piece);
            true
        } else {
            self.pool.remove(piece)
        };
        let after = self.pool.count_at(i);
        self.hash ^= zobrist::POOL[i][before as usize] ^ zobrist::POOL[i][after as usize];
        changed
    }

    /// The hash computed from scratch (equals the incrementally kept one).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in Square::all() {
            let cell = self.board[sq.index()];
            if cell != EMPTY {
                h ^= Self::cell_hash(sq, cell);
            }
        }
        for i in 0..IDENTITIES {
            h ^= zobrist::POOL[i][self.pool.count_at(i) as usize] ^ zobrist::POOL[i][0];
        }
        if self.side == Color::Black {
            h ^= zobrist::SIDE;
        }
        if let Some(w) = self.wait {
            h ^= zobrist::WAIT[0][w.index()];
        }
        h
    }

    // ---- deals ----

    /// Gives every face-down piece an identity (a deal), in square order of the face-down pieces.
    /// Each identity must be drawable by that piece (right colour in `jieqi`) and the identities
    /// together must fit in the pool. Returns false and changes nothing otherwise.
    pub fn set_deal(&mut self, identities: &[Piece]) -> bool {
        let squares: Vec<Square> = self.hidden.collect();
        if squares.len() != identities.len() {
            return false;
        }
        let mut need = Pool::EMPTY;
        for (&sq, &id) in squares.iter().zip(identities) {
            if id.role == Role::King || (self.variant != Variant::Maniac && id.color != sq.half()) {
                return false;
            }
            need.add(id);
        }
        for i in 0..IDENTITIES {
            if need.count_at(i) > self.pool.count_at(i) {
                return false;
            }
        }
        for (&sq, &id) in squares.iter().zip(identities) {
            let cell = self.take(sq);
            let ctrl = if cell & CTRL_BLACK != 0 {
                Color::Black
            } else {
                Color::Red
            };
            self.put(sq, hidden_cell(ctrl, Some(id)));
        }
        self.dealt = true;
        true
    }

    /// Forgets the identities of face-down pieces (the public view of a deal).
    pub fn clear_deal(&mut self) {
        for sq in self.hidden {
            let cell = self.take(sq);
            self.put(sq, cell & !ID_MASK);
        }
        self.dealt = false;
    }

    // ---- attacks ----

    #[inline(always)]
    pub(crate) fn occ(&self) -> u128 {
        self.by_color[0].0 | self.by_color[1].0
    }

    /// Pieces of `by` attacking `sq` with the given occupancy, ignoring pieces on `removed`,
    /// for `sq` where a king of the other colour stands or would stand: `by`'s king counts
    /// along every clear line, which there is exactly the rule that the kings may not face
    /// each other (the kings' palaces share no rank). For other points see
    /// [`Position::attackers`].
    #[inline(always)]
    pub(crate) fn attackers_with(
        &self,
        sq: Square,
        by: Color,
        occ: u128,
        occ_t: u128,
        removed: Bitboard,
    ) -> Bitboard {
        let them = self.by_color[by.index()] & !removed;
        let r = &self.by_role;
        let mut a =
            attacks::rook_attacks(sq, occ, occ_t) & (r[Role::Rook.index()] | r[Role::King.index()]);
        a |= attacks::cannon_captures(sq, occ, occ_t) & r[Role::Cannon.index()];
        a |= attacks::horse_attackers(sq, occ) & r[Role::Horse.index()];
        a |= attacks::pawn_attackers(by, sq) & r[Role::Pawn.index()];
        let guards = them & (r[Role::Advisor.index()] | r[Role::Elephant.index()]);
        if guards.any() {
            a |= attacks::advisor_attacks(sq) & r[Role::Advisor.index()];
            a |= attacks::elephant_attacks(sq, occ) & r[Role::Elephant.index()];
        }
        a & them
    }

    /// Chariot moves from `sq` on the current board (empty points and the first piece each way).
    #[inline(always)]
    pub fn rook_attacks_at(&self, sq: Square) -> Bitboard {
        attacks::rook_attacks(sq, self.occ(), self.occ_t)
    }

    /// Pieces of `by` attacking `sq` now: the pieces that could take on `sq`, or give check
    /// there when the other king stands on it. `by`'s king attacks the points of its palace
    /// next to it, and the other king's point when the two face each other on a clear file.
    pub fn attackers(&self, sq: Square, by: Color) -> Bitboard {
        let all = self.attackers_with(sq, by, self.occ(), self.occ_t, Bitboard::EMPTY);
        let king = self.by_role[Role::King.index()] & self.by_color[by.index()];
        if !(all & king).any() || self.by_role[Role::King.index()].contains(sq) {
            return all;
        }
        let steps = if attacks::PALACE[by.index()].contains(sq) {
            attacks::king_attacks(sq)
        } else {
            Bitboard::EMPTY
        };
        all & !(king & !steps)
    }

    pub fn is_attacked_by(&self, sq: Square, by: Color) -> bool {
        self.attackers(sq, by).any()
    }

    /// Pieces giving check to the side to move.
    pub fn checkers(&self) -> Bitboard {
        self.attackers(self.king(self.side), !self.side)
    }

    pub fn in_check(&self) -> bool {
        self.checkers().any()
    }

    // ---- flips ----

    /// Whether `mv` moves a face-down piece (and so flips it).
    #[inline(always)]
    pub fn is_flip(&self, mv: Move) -> bool {
        !mv.is_pass() && self.hidden.contains(mv.from())
    }

    /// Whether `mv` takes a piece, face-down or revealed (a pass takes nothing).
    #[inline(always)]
    pub fn is_capture(&self, mv: Move) -> bool {
        !mv.is_pass() && self.occupant(mv.to()).is_some()
    }

    /// Whether `mv` captures a face-down piece.
    #[inline(always)]
    pub fn captures_hidden(&self, mv: Move) -> bool {
        !mv.is_pass() && self.hidden.contains(mv.to())
    }

    /// The pool identities a face-down piece on `sq` can turn out to be, with weights.
    /// In a deal, exactly its identity with weight 1. Empty if `sq` holds no face-down piece.
    pub fn flip_outcomes(&self, sq: Square) -> Outcomes {
        let mut out = Outcomes::new();
        let cell = self.board[sq.index()];
        if cell & HIDDEN == 0 {
            return out;
        }
        let id = cell & ID_MASK;
        if id != 0 {
            out.push(Piece::from_index(id as usize - 1), 1);
            return out;
        }
        let range = match self.variant {
            Variant::Maniac => 0..IDENTITIES,
            _ => {
                let base = sq.half().index() * 6;
                base..base + 6
            }
        };
        for i in range {
            let n = self.pool.count_at(i);
            if n > 0 {
                out.push(identity_piece(i), n);
            }
        }
        out
    }

    // ---- playing moves ----

    /// Plays a move the caller knows to be legal. For a flip of a piece whose identity the
    /// position does not know, `flip` gives the outcome (it should come from `flip_outcomes`);
    /// if it is missing the piece turns out as its square's role.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move, flip: Option<Piece>) {
        let us = self.side;
        if let Some(w) = self.wait.take() {
            self.hash ^= zobrist::WAIT[0][w.index()];
        }
        if !mv.is_pass() {
            let (from, to) = (mv.from(), mv.to());
            if self.board[to.index()] != EMPTY {
                self.take(to);
                self.halfmove = 0;
            } else {
                // Saturating: a FEN may give any counter up to u32::MAX.
                self.halfmove = self.halfmove.saturating_add(1);
            }
            let cell = self.take(from);
            if cell & HIDDEN != 0 {
                let id = cell & ID_MASK;
                let piece = if id != 0 {
                    Piece::from_index(id as usize - 1)
                } else {
                    flip.unwrap_or_else(|| {
                        Piece::new(us, START_ROLE[from.index()].unwrap_or(Role::Pawn))
                    })
                };
                self.pool_change(piece, false);
                self.put(to, revealed_cell(piece));
                if piece.color != us {
                    // Maniac: the receiver may not move this piece on its next turn.
                    self.wait = Some(to);
                    self.hash ^= zobrist::WAIT[0][to.index()];
                }
            } else {
                self.put(to, cell);
            }
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = !us;
        self.hash ^= zobrist::SIDE;
    }

    /// Passes the turn without moving: for null-move pruning in search only (not a legal move;
    /// a Maniac waiting turn ends with it).
    pub fn play_null(&mut self) {
        if let Some(w) = self.wait.take() {
            self.hash ^= zobrist::WAIT[0][w.index()];
        }
        self.side = !self.side;
        self.hash ^= zobrist::SIDE;
    }

    /// Replaces the pool (the belief layer samples pools). The caller keeps it consistent: at
    /// least as many identities per group as face-down pieces drawing from it, and a superset of
    /// any dealt identities.
    pub fn set_pool(&mut self, pool: Pool) {
        for i in 0..IDENTITIES {
            self.hash ^= zobrist::POOL[i][self.pool.count_at(i) as usize]
                ^ zobrist::POOL[i][pool.count_at(i) as usize];
        }
        self.pool = pool;
    }

    /// Records that a face-down piece the side to move is about to capture is `piece` (the
    /// capturer learns it): it leaves the pool and joins the known captures. Call it before
    /// `play_unchecked`; `piece` should come from `flip_outcomes` of the captured square.
    pub fn learn_capture(&mut self, piece: Piece) {
        self.pool_change(piece, false);
        self.captured.add(piece);
    }

    /// Plays a move after checking it: legality, and that the revealed identities are possible.
    /// On error the position is unchanged.
    pub fn play(&mut self, mv: Move, reveal: Reveal) -> Result<(), PlayError> {
        if !self.is_legal(mv) {
            return Err(PlayError::Illegal(mv));
        }
        let flip = if self.is_flip(mv) {
            let outcomes = self.flip_outcomes(mv.from());
            match reveal.flip {
                Some(p) => {
                    if !outcomes.iter().any(|(q, _)| q == p) {
                        return Err(if self.dealt {
                            PlayError::WrongFlip(mv, p)
                        } else {
                            PlayError::ImpossibleFlip(mv, p)
                        });
                    }
                    Some(p)
                }
                None if outcomes.len() == 1 => Some(outcomes.as_slice()[0].0),
                None => return Err(PlayError::FlipNeeded(mv)),
            }
        } else {
            if reveal.flip.is_some() {
                return Err(PlayError::NotAFlip(mv));
            }
            None
        };
        if let Some(victim) = reveal.captured {
            if !self.captures_hidden(mv) {
                return Err(PlayError::NotAHiddenCapture(mv));
            }
            let group_ok = self.variant == Variant::Maniac || victim.color == mv.to().half();
            let mut pool = self.pool;
            if let Some(p) = flip {
                pool.remove(p);
            }
            let dealt_other = matches!(
                self.occupant(mv.to()),
                Some(Occupant::Hidden { identity: Some(known), .. }) if known != victim
            );
            if !group_ok || victim.role == Role::King || pool.count(victim) == 0 || dealt_other {
                return Err(PlayError::ImpossibleCapture(mv, victim));
            }
        }
        if let Some(victim) = reveal.captured {
            self.learn_capture(victim);
        }
        self.play_unchecked(mv, flip);
        Ok(())
    }

    /// The position with colours swapped and the board turned (rank r becomes 9 - r).
    /// A deal and the waiting square carry over.
    pub fn mirrored(&self) -> Position {
        let mut out = *self;
        out.board = [EMPTY; 90];
        out.by_color = [Bitboard::EMPTY; 2];
        out.by_role = [Bitboard::EMPTY; 7];
        out.hidden = Bitboard::EMPTY;
        out.occ_t = 0;
        out.hash = 0;
        for sq in Square::all() {
            let cell = self.board[sq.index()];
            if cell == EMPTY {
                continue;
            }
            let new = match decode(cell) {
                Some(Occupant::Revealed(p)) => revealed_cell(Piece::new(!p.color, p.role)),
                Some(Occupant::Hidden {
                    controller,
                    identity,
                }) => hidden_cell(!controller, identity.map(|p| Piece::new(!p.color, p.role))),
                None => continue,
            };
            out.put(sq.flip_rank(), new);
        }
        out.pool = self.pool.mirrored();
        out.captured = self.captured.mirrored();
        out.side = !self.side;
        out.wait = self.wait.map(|s| s.flip_rank());
        out.hash = out.compute_hash();
        out
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {})", self.variant, self.fen())
    }
}

impl PartialEq for Position {
    /// Same board (with known identities), pools, side, counters and waiting square.
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.pool == other.pool
            && self.captured == other.captured
            && self.side == other.side
            && self.variant == other.variant
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
            && self.wait == other.wait
    }
}

impl Eq for Position {}
