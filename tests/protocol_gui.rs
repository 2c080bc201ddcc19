//! Whole sessions as the GUIs drive the engine (protocol.md sections 6-14), replayed against
//! the real binary: JieqiBox analysis, play and ponder (FEN at the last flip, plain moves after
//! it), JieqiArena matches (no handshake, suffix moves redacted per side, raw and negative clocks)
//! and Mistboard's one-shot command blocks. Every reply line is checked for its format, its
//! order, and the bestmove for legality under the rules the GUI plays by.

mod common;

use std::thread;
use std::time::Duration;

use common::{check_bestmove, check_info, listed_options, parse_bestmove, Engine};
use jieqi::core::{fen, Color, Move, Occupant, Piece, Position, Reveal, Variant};

fn mv(text: &str) -> Move {
    Move::parse(text).unwrap_or_else(|| panic!("test move {text}"))
}

fn piece(c: char) -> Piece {
    Piece::from_char(c).expect("test piece letter")
}

/// Plays a move the way the GUI's referee would, giving a flip the first identity the pool
/// allows unless one is named. Returns whether the move flipped a piece.
fn play(pos: &mut Position, m: Move, flip: Option<Piece>) -> bool {
    let flipped = pos.is_flip(m);
    let flip = flip.or_else(|| {
        flipped
            .then(|| pos.flip_outcomes(m.from()).iter().next().map(|(p, _)| p))
            .flatten()
    });
    pos.play(
        m,
        Reveal {
            flip,
            captured: None,
        },
    )
    .unwrap_or_else(|e| panic!("test move {m}: {e}"));
    flipped
}

// ---------------------------------------------------------------------------------------------
// JieqiBox

/// JieqiBox's window on a game: the FEN at the last flip (6 fields) and the plain moves since.
struct BoxGame {
    pos: Position,
    fen_at_flip: String,
    moves: Vec<String>,
}

impl BoxGame {
    fn new(pos: Position) -> BoxGame {
        BoxGame {
            fen_at_flip: pos.fen6(),
            pos,
            moves: Vec::new(),
        }
    }

    fn play(&mut self, m: Move, flip: Option<Piece>) {
        if play(&mut self.pos, m, flip) {
            // The reveal is now part of the position: a new window starts.
            self.fen_at_flip = self.pos.fen6();
            self.moves.clear();
        } else {
            self.moves.push(m.to_string());
        }
    }

    fn command(&self) -> String {
        if self.moves.is_empty() {
            format!("position fen {}", self.fen_at_flip)
        } else {
            format!(
                "position fen {} moves {}",
                self.fen_at_flip,
                self.moves.join(" ")
            )
        }
    }
}

fn jieqibox_handshake(e: &mut Engine, ponder: bool) {
    e.send("uci");
    let lines = e.expect_line("uciok");
    let listed = listed_options(&lines);
    let sets = [
        ("Threads", "1"),
        ("Hash", "16"),
        ("MultiPV", "1"),
        ("Move Overhead", "20"),
        ("UCI_ShowWDL", "true"),
        ("Ponder", if ponder { "true" } else { "false" }),
    ];
    for (name, value) in sets {
        assert!(listed.iter().any(|l| l == name), "{name} not listed");
        e.send(&format!("setoption name {name} value {value}"));
    }
    assert!(e.sync().is_empty(), "setoption replies");
    e.send("ucinewgame");
    assert!(e.sync().is_empty());
}

#[test]
fn jieqibox_analysis_session() {
    let mut game = BoxGame::new(Position::startpos(Variant::Jieqi));
    game.play(mv("b2e2"), Some(piece('R')));
    game.play(mv("h7e7"), Some(piece('n')));
    // Plain moves after the last flip: the revealed pieces going back and forth.
    for m in ["e2d2", "e7c8", "d2e2", "c8e7"] {
        game.play(mv(m), None);
    }
    assert_eq!(game.moves.len(), 4);

    let mut e = Engine::start();
    jieqibox_handshake(&mut e, false);
    e.send(&game.command());
    assert_eq!(e.fen(), game.pos.fen(), "the engine's view of the position");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(150));
    // JieqiBox checks the engine is alive during analysis.
    e.send("isready");
    let before = e.expect_line("readyok");
    assert!(
        !before.iter().any(|l| l.starts_with("bestmove")),
        "{before:?}"
    );
    e.send("stop");
    let (infos, best) = e.bestmove();
    for line in before.iter().chain(&infos) {
        if line != "readyok" {
            check_info(line, &game.pos, true);
        }
    }
    check_bestmove(&best, &game.pos).expect("a move");
    // The user moves on: a new analysis of the next position, stopped again.
    let (b, _) = parse_bestmove(&best);
    game.play(b.expect("a move"), None);
    e.send(&game.command());
    e.send("go infinite");
    e.send("stop");
    let (infos, best) = e.bestmove();
    for line in &infos {
        check_info(line, &game.pos, true);
    }
    check_bestmove(&best, &game.pos);
    assert!(e.sync().iter().all(|l| !l.starts_with("bestmove")));
}

#[test]
fn jieqibox_play_and_ponder_session() {
    let mut game = BoxGame::new(Position::startpos(Variant::Jieqi));
    game.play(mv("h2e2"), Some(piece('C')));
    game.play(mv("h9g7"), Some(piece('r')));
    let mut e = Engine::start();
    jieqibox_handshake(&mut e, true);
    let clock = "wtime 4000 btime 4000 winc 100 binc 100";

    // The engine's move.
    e.send(&game.command());
    e.send(&format!("go {clock}"));
    let (infos, best) = e.bestmove();
    for l in &infos {
        check_info(l, &game.pos, true);
    }
    let (b, ponder) = parse_bestmove(&best);
    check_bestmove(&best, &game.pos);
    game.play(b.expect("a move"), None);

    // Pondering on the expected reply (the engine's ponder move, or any quiet reply).
    let reply = ponder.unwrap_or_else(|| {
        *game
            .pos
            .legal_move_list()
            .iter()
            .find(|&&m| !game.pos.is_flip(m))
            .expect("a quiet reply")
    });
    let mut ponder_game = BoxGame {
        pos: game.pos,
        fen_at_flip: game.fen_at_flip.clone(),
        moves: game.moves.clone(),
    };
    ponder_game.play(reply, None);
    e.send(&ponder_game.command());
    e.send(&format!("go ponder {clock}"));
    let early = e.collect_for(Duration::from_millis(300));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "pondering ended by itself: {early:?}"
    );
    // The opponent played the expected move.
    e.send("ponderhit");
    let (infos, best) = e.bestmove();
    for l in early.iter().chain(&infos) {
        check_info(l, &ponder_game.pos, true);
    }
    check_bestmove(&best, &ponder_game.pos).expect("a move");

    // Pondering again, then the opponent plays something else: stop, then a normal search.
    e.send(&ponder_game.command());
    e.send(&format!("go ponder {clock}"));
    thread::sleep(Duration::from_millis(50));
    e.send("stop");
    let (_, best) = e.bestmove();
    check_bestmove(&best, &ponder_game.pos);
    e.send(&game.command());
    e.send(&format!("go {clock}"));
    let (_, best) = e.bestmove();
    check_bestmove(&best, &game.pos).expect("a move");
}

// ---------------------------------------------------------------------------------------------
// JieqiArena

/// The referee's game: the true identities of all face-down pieces (a deal), and each side's
/// view of the moves with the suffixes that side may see.
struct Arena {
    truth: Position,
    views: [Position; 2],
    texts: [Vec<String>; 2],
}

/// A fixed deal: each side's 15 identities in a scrambled but reproducible order.
fn deal(pos: &mut Position) {
    let mut pools: [Vec<Piece>; 2] = [Vec::new(), Vec::new()];
    for (p, n) in pos.pool().iter() {
        for _ in 0..n {
            pools[p.color.index()].push(p);
        }
    }
    let mut seed = 12345u64;
    for list in pools.iter_mut() {
        for i in (1..list.len()).rev() {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            list.swap(i, (seed >> 33) as usize % (i + 1));
        }
    }
    let identities: Vec<Piece> = pos
        .hidden()
        .map(|sq| pools[sq.half().index()].pop().expect("enough identities"))
        .collect();
    assert!(pos.set_deal(&identities));
}

impl Arena {
    fn new() -> Arena {
        let start = Position::startpos(Variant::Jieqi);
        let mut truth = start;
        deal(&mut truth);
        Arena {
            truth,
            views: [start, start],
            texts: [Vec::new(), Vec::new()],
        }
    }

    /// Plays a move: both see the flip; only the mover learns a face-down piece it captures.
    /// Black is sent `x` placeholders where Red is sent nothing, to cover both spellings.
    fn play(&mut self, m: Move) {
        let mover = self.truth.side_to_move();
        let flip = self.truth.is_flip(m);
        let victim = match self.truth.occupant(m.to()) {
            Some(Occupant::Hidden { identity, .. }) => identity,
            _ => None,
        };
        self.truth
            .play(m, Reveal::default())
            .unwrap_or_else(|e| panic!("referee: {m}: {e}"));
        let revealed = match (flip, self.truth.occupant(m.to())) {
            (true, Some(Occupant::Revealed(p))) => Some(p),
            _ => None,
        };
        for side in Color::ALL {
            let knows_victim = side == mover;
            let captured = victim.filter(|_| knows_victim);
            let mut text = m.to_string();
            match (revealed, captured) {
                (Some(f), Some(c)) => text.push_str(&format!("{}{}", f.char(), c.char())),
                (Some(f), None) => {
                    text.push(f.char());
                    if side == Color::Black && victim.is_some() {
                        text.push('x');
                    }
                }
                (None, Some(c)) if side == Color::Black => text.push_str(&format!("x{}", c.char())),
                (None, Some(c)) => text.push(c.char()),
                (None, None) => {}
            }
            self.views[side.index()]
                .play(
                    m,
                    Reveal {
                        flip: revealed,
                        captured,
                    },
                )
                .unwrap_or_else(|e| panic!("{} view: {m}: {e}", side.name()));
            self.texts[side.index()].push(text);
        }
    }

    fn command(&self, side: Color) -> String {
        let start = Position::startpos(Variant::Jieqi).fen();
        format!(
            "position fen {start} moves {}",
            self.texts[side.index()].join(" ")
        )
    }
}

#[test]
fn jieqiarena_match_without_handshake() {
    let mut arena = Arena::new();
    // An opening with face-down captures: Red's cannon-role pieces jump to the back rank.
    for m in ["b2b9", "a9b9", "h2h9", "i9h9"] {
        arena.play(mv(m));
    }
    assert_eq!(arena.texts[0][0].len(), 6, "Red learned what it captured");
    assert_eq!(arena.texts[1][0].len(), 6, "Black: flip and x");

    // One process per side, as JieqiArena runs them: setoption lines, then position + go.
    let mut engines = [Engine::start(), Engine::start()];
    for e in engines.iter_mut() {
        e.send("setoption name Threads value 1");
        e.send("setoption name Hash value 16");
        e.send("setoption name Move Overhead value 10");
    }
    // Raw clocks, the mover's already negative on the first turns.
    let mut clocks = [-50i64, -20];
    for turn in 0..8 {
        let side = arena.truth.side_to_move();
        let e = &mut engines[side.index()];
        e.send(&arena.command(side));
        if turn < 2 {
            // The engine's belief state must be what this side may know.
            assert_eq!(
                e.fen(),
                arena.views[side.index()].fen(),
                "{} view",
                side.name()
            );
        }
        e.send(&format!(
            "go wtime {} btime {} winc 100 binc 100",
            clocks[0], clocks[1]
        ));
        let (infos, best) = e.bestmove();
        let view = arena.views[side.index()];
        for l in &infos {
            check_info(l, &view, true);
        }
        let Some(m) = check_bestmove(&best, &view) else {
            break; // a side without a move has lost
        };
        // The referee's rules agree (face-down identities do not change what is legal).
        assert!(arena.truth.is_legal(m));
        arena.play(m);
        clocks[side.index()] = 2000;
    }
    for e in engines.iter_mut() {
        assert!(e.is_alive());
        assert!(!e.seen.iter().any(|l| l == "uciok" || l.starts_with("id ")));
    }
}

// ---------------------------------------------------------------------------------------------
// Mistboard

const MISTBOARD_FEN: &str =
    "C1xx1x1xx/4k4/2a5c/1r2C4/2pA2p1b/p6p1/2X3X1X/2B3P1B/3N5/X2XKX2X b R1r1N1n1b1A1a1c1P4 0 12";

fn mistboard_block(extra: &str) -> String {
    format!(
        "uci\n\
         setoption name Threads value 1\n\
         setoption name Hash value 16\n\
         setoption name MultiPV value 1\n\
         setoption name UCI_ShowWDL value true\n\
         {extra}\
         isready\n\
         ucinewgame\n\
         position fen {MISTBOARD_FEN}\n\
         go movetime 200\n"
    )
}

fn check_mistboard_reply(e: &mut Engine, block: &str) {
    let (lines, best) = e.bestmove();
    // Every option the block sets is listed by `uci`.
    let listed = listed_options(&lines);
    for line in block.lines() {
        if let Some(rest) = line.strip_prefix("setoption name ") {
            let name = rest.split(" value").next().unwrap_or(rest);
            if !name.starts_with("Skill") {
                assert!(listed.iter().any(|l| l == name), "{name} is not listed");
            }
        }
    }
    let uciok = lines.iter().position(|l| l == "uciok").expect("uciok");
    let readyok = lines.iter().position(|l| l == "readyok").expect("readyok");
    assert!(uciok < readyok);
    let setup = fen::parse(MISTBOARD_FEN).unwrap();
    let (pos, _) = Position::from_setup(&setup, Variant::Jieqi).unwrap();
    for l in &lines[readyok + 1..] {
        check_info(l, &pos, true);
    }
    check_bestmove(&best, &pos).expect("a move");
    // (Forbidden phrases are checked on every line read.)
}

#[test]
fn mistboard_one_shot_block() {
    let block = mistboard_block("");
    let mut e = Engine::start();
    e.send_raw(block.as_bytes());
    check_mistboard_reply(&mut e, &block);
}

#[test]
fn mistboard_block_with_closed_input_and_unexpected_lines() {
    // A host that closes the pipe after the block, with lines this engine does not know.
    let block = mistboard_block("setoption name Skill Level value 20\nUnknown option\nflip\n\n");
    let mut e = Engine::start();
    e.send_raw(block.as_bytes());
    e.close_input();
    check_mistboard_reply(&mut e, &block);
    assert!(e.rest().is_empty());
    assert!(
        e.wait_exit(Duration::from_secs(60)).is_some(),
        "the engine hangs after quit"
    );
}
