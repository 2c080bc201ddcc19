//! The protocol loop, command by command, through the real binary: replies and their order,
//! searches and their single `bestmove`, the extras (`d`, `perft`, `eval`, `bench`), and every
//! class of bad input of protocol.md section 13, ending with a long random stream.

mod common;

use std::thread;
use std::time::Duration;

use common::{check_bestmove, check_info, listed_options, Engine, Rng, FORBIDDEN};
use jieqi::core::{fen, perft, Position, Variant};
use jieqi::protocol::command::{parse, Command, Dialect};

const XIANGQI_START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A Jieqi middle game (from the perft tables).
const JIEQI_MID: &str =
    "x1xxkxxxx/9/c6x1/2x6/a3r1n1p/R1P3A2/4X3X/1X2B1AX1/4P4/1C2KXX1X w R1N1n1B1b2a1C1c1P3p4 1 8";

/// Black to move and checkmated (rook on e8 guarded by a pawn, the other rook and the red king
/// cover every flight square).
const MATED: &str = "4k4/4R4/3RP4/9/9/9/9/9/9/5K3 b - 0 1";

fn position(text: &str, variant: Variant) -> Position {
    let setup = fen::parse(text).expect("test FEN reads");
    Position::from_setup(&setup, variant)
        .expect("test FEN is valid")
        .0
}

fn info_strings(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string "))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// handshake and basic commands

#[test]
fn uci_handshake_lists_every_option() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.expect_line("uciok");
    assert!(lines[0].starts_with("id name jieqi "), "{lines:?}");
    assert_eq!(lines[1], "id author the jieqi developers");
    let options = listed_options(&lines);
    for name in [
        "Threads",
        "Hash",
        "Clear Hash",
        "Ponder",
        "MultiPV",
        "Move Overhead",
        "UCI_ShowWDL",
        "UCI_Variant",
        "SearchMode",
        "Samples",
        "Seed",
        "OwnBook",
    ] {
        assert!(options.iter().any(|o| o == name), "{name} not listed");
    }
    for line in &lines[2..lines.len() - 1] {
        assert!(line.starts_with("option name "), "{line}");
        // JieqiBox reads spin defaults with a digits-only pattern.
        assert!(!line.contains('-'), "negative number in {line}");
    }
    assert!(lines.contains(
        &"option name UCI_Variant type combo default jieqi var jieqi var maniac var xiangqi"
            .to_string()
    ));
    assert!(e.sync().is_empty());
    // Nothing protocol-like on stderr.
    e.send("quit");
    assert!(
        e.wait_exit(Duration::from_secs(60)).is_some(),
        "the engine hangs after quit"
    );
    let err = e.stderr_text();
    for word in ["bestmove", "readyok", "uciok", "info "] {
        assert!(!err.contains(word), "stderr: {err}");
    }
}

#[test]
fn works_without_a_handshake_and_answers_each_go_once() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go nodes 2000");
    let (infos, best) = e.bestmove();
    let start = Position::startpos(Variant::Jieqi);
    for l in &infos {
        check_info(l, &start, true);
    }
    check_bestmove(&best, &start).expect("a move");
    // An idle stop is silent, and no second bestmove appears.
    e.send("stop");
    e.send("ponderhit");
    assert!(e.sync().is_empty());
}

#[test]
fn the_opening_book_answers_a_games_first_moves() {
    use jieqi::core::{Move, Reveal};
    use jieqi::search::book;
    let start = Position::startpos(Variant::Jieqi);
    let book = book::builtin(Variant::Jieqi);
    let mut e = Engine::start();
    // A game's search (a clock or movetime) from the start: the book's move at once.
    let searched = |e: &mut Engine, setup: &str, go: &str, pos: &Position| {
        e.send(setup);
        e.send(go);
        let (infos, best) = e.bestmove();
        for l in infos.iter().filter(|l| !l.starts_with("info string")) {
            check_info(l, pos, true);
        }
        let booked = infos
            .iter()
            .any(|l| l.starts_with("info string book move "));
        (booked, check_bestmove(&best, pos).expect("a move"))
    };
    let clock = "go wtime 10000 btime 10000 winc 100 binc 100";
    // Off by default.
    assert!(!searched(&mut e, "position startpos", clock, &start).0);
    e.send("setoption name OwnBook value true");
    let entry = book.get(&start).expect("the start is in the book");
    assert_eq!(
        searched(&mut e, "position startpos", clock, &start),
        (true, entry.mv)
    );
    // Black's first move, after a flip, under movetime.
    let mut child = start;
    let first = Move::parse("b0c2").unwrap();
    let (piece, _) = start.flip_outcomes(first.from()).as_slice()[0];
    let reveal = Reveal {
        flip: Some(piece),
        captured: None,
    };
    child.play(first, reveal).unwrap();
    let setup = format!("position fen {}", child.fen6());
    let entry = book.get(&child).expect("the reply is in the book");
    assert_eq!(
        searched(&mut e, &setup, "go movetime 300", &child),
        (true, entry.mv)
    );
    // Analysis (depth, nodes, infinite, ponder), other moves than the book's and MultiPV
    // search; so does a position two plies in.
    assert!(!searched(&mut e, "position startpos", "go depth 2", &start).0);
    assert!(!searched(&mut e, "position startpos", "go nodes 3000", &start).0);
    for go in ["go infinite", "go ponder wtime 10000 btime 10000"] {
        e.send("position startpos");
        e.send(go);
        thread::sleep(Duration::from_millis(100));
        e.send("stop");
        let (infos, best) = e.bestmove();
        assert!(
            !infos.iter().any(|l| l.contains("book move")),
            "{go}: {infos:?}"
        );
        check_bestmove(&best, &start).expect("a move");
    }
    let booked = book.get(&start).unwrap().mv;
    let other = Move::parse(if booked.to_string() == "a3a4" {
        "i3i4"
    } else {
        "a3a4"
    })
    .unwrap();
    let go = format!("{clock} searchmoves {other}");
    assert_eq!(
        searched(&mut e, "position startpos", &go, &start),
        (false, other)
    );
    e.send("setoption name MultiPV value 2");
    assert!(!searched(&mut e, "position startpos", "go movetime 200", &start).0);
    e.send("setoption name MultiPV value 1");
    let mut later = child;
    let reply = book.get(&child).unwrap().mv;
    let outcomes = child.flip_outcomes(reply.from());
    let reveal = Reveal {
        flip: outcomes.as_slice().first().map(|&(p, _)| p),
        captured: None,
    };
    later.play(reply, reveal).unwrap();
    assert!(book.get(&later).is_none());
    let setup = format!("position fen {}", later.fen6());
    assert!(!searched(&mut e, &setup, "go movetime 200", &later).0);
    // OwnBook off: the start is searched.
    e.send("setoption name OwnBook value false");
    assert!(!searched(&mut e, "position startpos", clock, &start).0);
    assert!(e.sync().is_empty());
}

#[test]
fn isready_is_answered_during_a_search_and_stop_ends_it() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(100));
    let during = e.sync();
    assert!(
        !during.iter().any(|l| l.starts_with("bestmove")),
        "an infinite search ended by itself: {during:?}"
    );
    e.send("stop");
    let (_, best) = e.bestmove();
    check_bestmove(&best, &Position::startpos(Variant::Jieqi));
    assert!(e.sync().iter().all(|l| !l.starts_with("bestmove")));
}

#[test]
fn a_second_go_stops_the_first_and_both_answer() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    e.send("go nodes 1000");
    let (first, _) = e.bestmove();
    assert!(
        info_strings(&first)
            .iter()
            .any(|l| l.contains("still running")),
        "{first:?}"
    );
    e.bestmove();
    e.send("stop");
    assert!(e.sync().iter().all(|l| !l.starts_with("bestmove")));
}

#[test]
fn position_and_setoption_during_a_search() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    let mid = position(JIEQI_MID, Variant::Jieqi);
    e.send(&format!("position fen {JIEQI_MID}"));
    let replies = e.reply_to("setoption name Clear Hash");
    assert!(
        replies
            .iter()
            .any(|l| l.starts_with("info string ignored setoption 'Clear Hash': not while")),
        "{replies:?}"
    );
    let replies = e.reply_to("setoption name multipv value 2");
    assert!(
        replies
            .iter()
            .any(|l| l.contains("MultiPV = 2: takes effect at the next search")),
        "{replies:?}"
    );
    // The running search still plays in the position it started from.
    e.send("stop");
    let (_, best) = e.bestmove();
    check_bestmove(&best, &Position::startpos(Variant::Jieqi));
    // The next search uses the new position and MultiPV.
    assert_eq!(e.fen(), mid.fen());
    let d = e.reply_to("d");
    assert!(d.iter().any(|l| l.contains("MultiPV=2")), "{d:?}");
    e.send("go nodes 3000");
    let (infos, best) = e.bestmove();
    for l in &infos {
        check_info(l, &mid, true);
    }
    check_bestmove(&best, &mid);
}

#[test]
fn quit_during_a_search_exits() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(50));
    e.send("quit");
    // An infinite search never ends by itself: only the quit can end the process. The deadline
    // is a hang guard.
    assert!(
        e.wait_exit(Duration::from_secs(60)).is_some(),
        "hang: still running 60 s after quit"
    );
}

#[test]
fn end_of_input_lets_a_limited_search_finish_and_stops_an_infinite_one() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go nodes 2000");
    e.close_input();
    let rest = e.rest();
    assert_eq!(
        rest.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{rest:?}"
    );
    assert!(
        e.wait_exit(Duration::from_secs(60)).is_some(),
        "the engine hangs after quit"
    );

    let mut e = Engine::start();
    e.send("go infinite");
    e.close_input();
    let rest = e.rest();
    assert_eq!(
        rest.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{rest:?}"
    );
}

#[test]
fn no_legal_move_gives_bestmove_none() {
    let mut e = Engine::start();
    e.send(&format!("position fen {MATED}"));
    e.send("go nodes 1000");
    let (infos, best) = e.bestmove();
    assert_eq!(infos, vec!["info depth 0 score mate 0".to_string()]);
    assert_eq!(best, "bestmove (none)");
    // An infinite search waits for stop even then.
    e.send("go infinite");
    let early = e.sync();
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    e.send("stop");
    assert_eq!(e.bestmove().1, "bestmove (none)");
}

#[test]
fn ponder_waits_for_ponderhit() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos");
    e.send("go ponder wtime 3000 btime 3000 winc 0 binc 0");
    let early = e.collect_for(Duration::from_millis(300));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "pondering ended by itself: {early:?}"
    );
    e.send("ponderhit");
    let (_, best) = e.bestmove();
    check_bestmove(&best, &Position::startpos(Variant::Jieqi));
}

// ---------------------------------------------------------------------------------------------
// what `position ... moves` means

#[test]
fn suffixes_set_the_belief_state() {
    let mut e = Engine::start();
    // Red's view: its b2 piece flips as a chariot capturing the face-down b9 piece, which Red
    // learns was a horse. Black flips a pawn on a5, Red's chariot takes a9 without learning it.
    e.send("position startpos moves b2b9Rn a6a5p b9a9");
    let d = e.reply_to("d");
    assert!(
        d.iter()
            .any(|l| l == "Known captures (face-down pieces captured and identified): n1"),
        "{d:?}"
    );
    assert!(
        d.iter()
            .any(|l| l == "Pool (identities not yet seen): R1A2C2P5N2B2r2a2c2p4n1b2"),
        "{d:?}"
    );
    // Black's view of the same moves: nothing learned about its own captured pieces.
    e.send("position startpos moves b2b9R a6a5p b9a9x");
    let d = e.reply_to("d");
    assert!(
        d.iter()
            .any(|l| l.ends_with("face-down pieces captured and identified): -")),
        "{d:?}"
    );
    assert!(
        d.iter()
            .any(|l| l == "Pool (identities not yet seen): R1A2C2P5N2B2r2a2c2p4n2b2"),
        "{d:?}"
    );
    // The 6-character form with x for "no flip".
    e.send("position startpos moves b2b9Rx a6a5px");
    assert!(e.sync().is_empty());
}

#[test]
fn an_illegal_move_keeps_the_previous_position() {
    let mut e = Engine::start();
    let before = position(JIEQI_MID, Variant::Jieqi);
    e.send(&format!("position fen {JIEQI_MID}"));
    assert!(e.sync().is_empty());
    for (line, needle) in [
        (
            "position startpos moves b2e2C a0a5",
            "move 2 'a0a5': illegal move a0a5",
        ),
        ("position startpos moves b2e2", "move 1 'b2e2'"),
        (
            "position startpos moves e0e1 e9e8 e1e0 e8e9 e0e1 e1e2",
            "move 6 'e1e2'",
        ),
        (
            "position startpos moves b2e2Q",
            "move 1 'b2e2Q' cannot be read",
        ),
        ("position startpos moves b2e2r", "'r' is not in the pool"),
        (
            "position startpos moves b2e2Rn",
            "does not capture a face-down piece",
        ),
        (
            "position fen 9/9/9/9/9/9/9/9/9/9 w - 0 1",
            "impossible position: no red king",
        ),
        ("position fen xxxxkxxxx/9 w", "bad FEN"),
    ] {
        let replies = e.reply_to(line);
        assert_eq!(replies.len(), 1, "{line}: {replies:?}");
        assert!(replies[0].starts_with("info string "), "{replies:?}");
        assert!(replies[0].contains(needle), "{line}: {replies:?}");
        assert!(
            replies[0].ends_with("the previous position is kept")
                || replies[0].starts_with("info string ignored 'position'"),
            "{replies:?}"
        );
        assert_eq!(e.fen(), before.fen(), "after {line}");
    }
}

#[test]
fn inconsistent_pools_are_repaired_with_a_warning() {
    let mut e = Engine::start();
    let replies = e.reply_to(
        "position fen xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w - 0 1",
    );
    assert_eq!(replies.len(), 2, "{replies:?}");
    assert!(replies
        .iter()
        .all(|l| l.starts_with("info string position: warning: ")));
    assert_eq!(e.fen(), Position::startpos(Variant::Jieqi).fen());
}

#[test]
fn maniac_waiting_turn_and_the_pass() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value maniac");
    // Red waits with its a5 pawn and its king has no move: the pass is the only move.
    let fen = "5k3/4r4/9/9/P8/9/9/9/8r/3K5 w - 0 1 wait=a5";
    e.send(&format!("position fen {fen}"));
    assert!(e.sync().is_empty());
    e.send("go nodes 1000");
    let (_, best) = e.bestmove();
    let pass = check_bestmove(&best, &position(fen, Variant::Maniac));
    assert_eq!(pass, Some(jieqi::core::Move::PASS), "{best}");
    e.send(&format!("position fen {fen} moves 0000"));
    let d = e.reply_to("d");
    assert!(d.iter().any(|l| l == "Waiting square: none"), "{d:?}");
    assert!(d.iter().any(|l| l == "Side to move: black (b)"), "{d:?}");
}

#[test]
fn variant_option_switches_the_rules() {
    let mut e = Engine::start();
    e.send("setoption name uci_variant value XIANGQI");
    e.send("position startpos moves h2e2 h9g7");
    let d = e.reply_to("d");
    assert!(d.iter().any(|l| l == "Variant: xiangqi"), "{d:?}");
    let mut pos = position(XIANGQI_START, Variant::Xiangqi);
    for m in ["h2e2", "h9g7"] {
        pos.play(jieqi::core::Move::parse(m).unwrap(), Default::default())
            .unwrap();
    }
    e.send("go depth 2");
    let (infos, best) = e.bestmove();
    for l in &infos {
        check_info(l, &pos, true);
    }
    check_bestmove(&best, &pos).expect("a move");
}

// ---------------------------------------------------------------------------------------------
// extras

#[test]
fn d_perft_eval_and_bench() {
    let mut e = Engine::start();
    let d = e.reply_to("d");
    assert!(d.contains(&" 9 | x x x x k x x x x |".to_string()), "{d:?}");
    assert!(d.contains(&" 0 | X X X X K X X X X |".to_string()), "{d:?}");
    for prefix in [
        "Side to move: red (w)",
        "Fen: xxxxkxxxx/",
        "Fen6: xxxxkxxxx/",
        "Waiting square: none",
        "Legal moves: ",
        "Pool (identities not yet seen): R2A2C2P5N2B2r2a2c2p5n2b2",
    ] {
        assert!(d.iter().any(|l| l.starts_with(prefix)), "{prefix}: {d:?}");
    }

    e.send(&format!("position fen {JIEQI_MID}"));
    e.send("perft 2");
    let lines = e.expect("perft total", |l| l.starts_with("Nodes searched: "));
    let pos = position(JIEQI_MID, Variant::Jieqi);
    let total: u64 = perft::perft(&pos, 2);
    assert_eq!(lines.last().unwrap(), &format!("Nodes searched: {total}"));
    let divide: Vec<String> = perft::divide(&pos, 2)
        .iter()
        .map(|(m, n)| format!("{m}: {n}"))
        .collect();
    assert_eq!(lines[..divide.len()], divide[..]);
    e.send("go perft 1");
    let lines = e.expect("perft total", |l| l.starts_with("Nodes searched: "));
    assert_eq!(
        lines.last().unwrap(),
        &format!("Nodes searched: {}", pos.legal_move_list().len())
    );

    let eval = e.reply_to("eval");
    assert!(
        eval.iter().any(|l| l == "Side to move: red (w)"),
        "{eval:?}"
    );
    assert!(
        eval.iter()
            .any(|l| l.starts_with("Total for the side to move")),
        "{eval:?}"
    );
    // The phase of the blend of middle- and end-game weights.
    let phase = format!("Phase: {} of 32 ", jieqi::search::eval::phase(&pos));
    assert!(eval.iter().any(|l| l.starts_with(&phase)), "{eval:?}");

    // bench: stopping it prints the totals at once (its full run is a speed test, not this).
    e.send("bench 1");
    e.send("stop");
    let lines = e.expect("bench total", |l| l.starts_with("Nodes/second: "));
    assert!(
        lines.iter().any(|l| l.starts_with("Nodes searched: ")),
        "{lines:?}"
    );
    assert!(e.sync().is_empty());
}

#[test]
fn ucci_handshake_and_bye() {
    let mut e = Engine::start();
    e.send("ucci");
    let lines = e.expect_line("ucciok");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option hashsize type spin")));
    assert!(lines
        .iter()
        .any(|l| l == "option usemillisec type check default false"));
    e.send("setoption usemillisec true");
    e.send(&format!("position fen {XIANGQI_START}"));
    e.send("go time 2000 increment 0 opptime 2000 oppincrement 0");
    let (_, best) = e.bestmove();
    check_bestmove(&best, &position(XIANGQI_START, Variant::Xiangqi));
    e.send(&format!("position fen {MATED}"));
    e.send("go depth 3");
    assert_eq!(e.bestmove().1, "nobestmove");
    e.send("quit");
    assert_eq!(e.rest(), vec!["bye".to_string()]);
}

// ---------------------------------------------------------------------------------------------
// bad input

#[test]
fn unknown_and_truncated_commands_get_one_info_string_each() {
    let mut e = Engine::start();
    for line in [
        "foo",
        "Unknown command",
        "xyzzy 1 2 3",
        "position",
        "position fen",
        "position startpos moves h2",
        "position startpos junk",
        "setoption",
        "setoption name",
        "setoption Hash 4",
        "perft",
        "perft 0",
        "perft 99",
        "register later",
        "bench x",
    ] {
        let replies = e.reply_to(line);
        assert_eq!(replies.len(), 1, "{line:?}: {replies:?}");
        assert!(
            replies[0].starts_with("info string ignored "),
            "{replies:?}"
        );
    }
    // Words after an argument-less command are ignored.
    e.send("isready now");
    e.expect_line("readyok");
    let replies = e.reply_to("foo");
    assert_eq!(
        replies,
        vec!["info string ignored input 'foo': not a command of this engine".to_string()]
    );
}

#[test]
fn empty_lines_and_blanks_are_silent() {
    let mut e = Engine::start();
    e.send_raw(b"\n\n   \n\t\r\n\r\n");
    assert!(e.sync().is_empty());
    // Windows line endings and extra blanks around commands.
    e.send_raw(b"  isready  \r\n");
    e.expect_line("readyok");
}

#[test]
fn setoption_errors_leave_options_unchanged() {
    let mut e = Engine::start();
    let before: Vec<String> = e
        .reply_to("d")
        .into_iter()
        .filter(|l| l.starts_with("Options: "))
        .collect();
    for (line, needle) in [
        ("setoption name Threads value 0", "outside 1..256"),
        ("setoption name Hash value -1", "outside 1..65536"),
        ("setoption name Hash value lots", "is not a whole number"),
        ("setoption name MultiPV", "a value is needed"),
        ("setoption name Ponder value maybe", "is not true or false"),
        (
            "setoption name UCI_Variant value chess",
            "is not one of jieqi, maniac, xiangqi",
        ),
        (
            "setoption name Seed value 99999999999",
            "outside 0..2147483647",
        ),
        (
            "setoption name Skill Level value 20",
            "no option of that name",
        ),
        (
            "setoption name No such option value 1",
            "no option of that name",
        ),
    ] {
        let replies = e.reply_to(line);
        assert_eq!(replies.len(), 1, "{line}: {replies:?}");
        assert!(replies[0].contains(needle), "{line}: {replies:?}");
    }
    let after: Vec<String> = e
        .reply_to("d")
        .into_iter()
        .filter(|l| l.starts_with("Options: "))
        .collect();
    assert_eq!(before, after);
    // Good values, any case and spacing, are silent.
    for line in [
        "setoption name move overhead value 50",
        "setoption name THREADS value 1",
        "setoption name Clear Hash",
        "setoption name UCI_ShowWDL value TRUE",
    ] {
        assert!(e.reply_to(line).is_empty(), "{line}");
    }
    let d = e.reply_to("d");
    let options = d.iter().find(|l| l.starts_with("Options: ")).unwrap();
    assert!(options.contains("Move Overhead=50") && options.contains("UCI_ShowWDL=true"));
}

/// The nodes of the last `info` line before `bestmove` of a `go depth` search.
fn search_nodes(e: &mut Engine, go: &str) -> u64 {
    e.send(go);
    let (infos, _) = e.bestmove();
    let last = infos
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth "))
        .expect("an info line");
    let words: Vec<&str> = last.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "nodes").expect("nodes");
    words[at + 1].parse().expect("a node count")
}

/// The search's history tables carry over from one search of a game to the next
/// (`Param_keep_history`, on by default): a search from a new, empty table (here by resizing
/// `Hash`) then orders its moves by what the last one learned and searches another tree.
/// `ucinewgame` forgets them, and so does `Clear Hash`; with the parameter off every search
/// starts afresh.
#[test]
fn history_tables_last_the_game_and_ucinewgame_forgets_them() {
    let mut e = Engine::start();
    e.send("uci");
    e.expect_line("uciok");
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("setoption name Hash value 2");
    e.send("position startpos");
    let go = "go depth 6";
    let new_table = |e: &mut Engine| {
        e.send("setoption name Hash value 3");
        e.send("setoption name Hash value 2");
    };
    let first = search_nodes(&mut e, go);
    new_table(&mut e);
    assert_ne!(search_nodes(&mut e, go), first, "the history was not kept");
    e.send("ucinewgame");
    assert_eq!(
        search_nodes(&mut e, go),
        first,
        "ucinewgame kept the history"
    );
    search_nodes(&mut e, go);
    e.send("setoption name Clear Hash");
    assert_eq!(
        search_nodes(&mut e, go),
        first,
        "Clear Hash kept the history"
    );
    assert!(e
        .reply_to("setoption name Param_keep_history value false")
        .is_empty());
    e.send("ucinewgame");
    assert_eq!(search_nodes(&mut e, go), first);
    new_table(&mut e);
    assert_eq!(
        search_nodes(&mut e, go),
        first,
        "a search did not start afresh"
    );
}

/// The total line of `eval`.
fn eval_total(e: &mut Engine) -> String {
    e.reply_to("eval")
        .into_iter()
        .find(|l| l.starts_with("Total for the side to move"))
        .expect("a total")
}

#[test]
fn tuning_options_set_the_search_and_the_weights() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.expect_line("uciok");
    let listed = listed_options(&lines);
    let tuning = listed
        .iter()
        .filter(|o| o.starts_with("Param_") || *o == "WeightsFile")
        .count();
    // Listed only in a build with the `tuning` feature; accepted in every build.
    if cfg!(feature = "tuning") {
        assert!(tuning > 10, "{listed:?}");
    } else {
        assert_eq!(tuning, 0, "{listed:?}");
    }
    for (line, needle) in [
        ("setoption name Param_moves_to_go value 0", "outside 1..100"),
        (
            "setoption name Param_probe value maybe",
            "is not true or false",
        ),
        (
            "setoption name Param_star1 value false",
            "no option of that name",
        ),
        (
            "setoption name WeightsFile value /nonexistent/weights.txt",
            "ignored setoption 'WeightsFile': '/nonexistent/weights.txt': ",
        ),
    ] {
        let replies = e.reply_to(line);
        assert_eq!(replies.len(), 1, "{line}: {replies:?}");
        assert!(replies[0].contains(needle), "{line}: {replies:?}");
    }

    // A parameter changes what the search does: the same search twice from an empty table
    // gives the same node count, and without probing a different one.
    e.send("position startpos");
    let go = "go depth 2";
    let first = search_nodes(&mut e, go);
    e.send("ucinewgame");
    assert_eq!(search_nodes(&mut e, go), first);
    assert!(e
        .reply_to("setoption name PARAM_PROBE value false")
        .is_empty());
    e.send("ucinewgame");
    let without = search_nodes(&mut e, go);
    assert_ne!(without, first, "probing off searched the same tree");
    assert!(e
        .reply_to("setoption name Param_probe value true")
        .is_empty());
    e.send("ucinewgame");
    assert_eq!(search_nodes(&mut e, go), first);

    // A weight file replaces the evaluation (names it leaves out keep their value); `<empty>`
    // restores the built-in weights. In the symmetric start position only the tempo counts.
    let built_in = eval_total(&mut e);
    let dir = std::env::temp_dir().join(format!("jieqi-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("tempo.txt");
    std::fs::write(&file, "# only the tempo\ntempo 321\n").unwrap();
    let set = format!("setoption name WeightsFile value {}", file.display());
    assert!(e.reply_to(&set).is_empty());
    assert!(
        eval_total(&mut e).ends_with(": 321"),
        "{}",
        eval_total(&mut e)
    );
    std::fs::write(&file, "tempo 3 4\n").unwrap();
    let replies = e.reply_to(&set);
    assert!(
        replies.len() == 1 && replies[0].contains("line 1: expected 'name value'; unchanged"),
        "{replies:?}"
    );
    assert!(eval_total(&mut e).ends_with(": 321"));
    assert!(e
        .reply_to("setoption name WeightsFile value <empty>")
        .is_empty());
    assert_eq!(eval_total(&mut e), built_in);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn malformed_go_values_are_reported_and_the_search_still_answers() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go nodes 1000 depth -3 wtime abc btime -500 movestogo x frobnicate searchmoves b2e2 zz a0a9");
    let (lines, best) = e.bestmove();
    let strings = info_strings(&lines);
    for needle in [
        "'depth -3' is not",
        "'wtime abc' is not",
        "'movestogo x' is not",
        "'frobnicate' is not a go parameter",
        "searchmoves: 'zz' is not a move",
        "searchmoves: a0a9 is not legal here",
    ] {
        assert!(
            strings.iter().any(|l| l.contains(needle)),
            "{needle}: {strings:?}"
        );
    }
    assert_eq!(
        best.split(' ').nth(1),
        Some("b2e2"),
        "searchmoves respected"
    );
}

#[test]
fn non_utf8_and_very_long_lines_are_survived() {
    let mut e = Engine::start();
    e.send_raw(b"\xff\xfe\xfd garbage \xc3\x28\n");
    let replies = e.sync();
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert!(replies[0].starts_with("info string ignored input '"));
    e.send_raw("position startpos moves \u{4e2d}\u{6587}\n".as_bytes());
    let replies = e.sync();
    assert_eq!(replies.len(), 1, "{replies:?}");

    let mut long = vec![b'x'; 3 << 20];
    long.push(b'\n');
    e.send_raw(&long);
    let replies = e.sync();
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert!(replies[0].contains("lines are limited to"), "{replies:?}");

    // A long line that reads: 4000 plies of horses going back and forth in Xiangqi. It is read
    // whole, and refused at its 9th move, which follows the third repetition of the start.
    e.send("setoption name UCI_Variant value xiangqi");
    let mut line = String::from("position startpos moves");
    for _ in 0..1000 {
        line.push_str(" h0g2 h9g7 g2h0 g7h9");
    }
    e.send(&line);
    let replies = e.sync();
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert!(
        replies[0].starts_with(
            "info string position: move 9 'h0g2': the game is already over (draw by threefold repetition)"
        ),
        "{replies:?}"
    );
    // A refused position leaves nothing to search (protocol.md section 10) ...
    e.send("go depth 1");
    let (_, best) = e.bestmove();
    assert_eq!(best, "bestmove (none)");
    // ... until the next accepted one.
    e.send("position startpos");
    e.send("go depth 1");
    let (_, best) = e.bestmove();
    check_bestmove(&best, &position(XIANGQI_START, Variant::Xiangqi));
}

/// One random line: pieces of real commands, moves, numbers and junk glued together. Never
/// `quit` (it would end the session), `perft`/`bench` (unbounded work) or large Hash/Threads.
fn random_line(rng: &mut Rng) -> String {
    const WORDS: &[&str] = &[
        "uci",
        "isready",
        "ucinewgame",
        "position",
        "startpos",
        "fen",
        "moves",
        "go",
        "stop",
        "ponderhit",
        "setoption",
        "name",
        "value",
        "d",
        "eval",
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "infinite",
        "ponder",
        "searchmoves",
        "mate",
        "h2e2",
        "b2e2",
        "b2e2R",
        "a3a4p",
        "0000",
        "b7b0rP",
        "x",
        "-",
        "w",
        "b",
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX",
        "R2A2C2P5N2B2r2a2c2p5n2b2",
        "4k4/9/9/9/9/9/9/9/9/3K5",
        "wait=e3",
        "-1",
        "0",
        "1",
        "7",
        "99999999999999999999",
        "-2147483649",
        "Hash",
        "Threads",
        "MultiPV",
        "Clear",
        "UCI_Variant",
        "maniac",
        "xiangqi",
        "jieqi",
        "true",
        "false",
        "\u{fffd}",
        "\t",
        "ucci",
        "banmoves",
        "debug",
    ];
    let words = 1 + rng.below(8);
    let mut parts: Vec<String> = (0..words).map(|_| rng.pick(WORDS).to_string()).collect();
    match rng.below(10) {
        // Mostly lines that start with a real command.
        0..=5 => {
            parts.insert(
                0,
                rng.pick(&[
                    "position",
                    "go",
                    "setoption name",
                    "isready",
                    "stop",
                    "d",
                    "position fen",
                    "go nodes 50",
                ])
                .to_string(),
            );
        }
        6 => parts.push(String::from_utf8_lossy(&[0xff, 0x00, 0x7f, b'a']).into_owned()),
        _ => {}
    }
    let mut line = parts.join(" ");
    // Keep the session alive and the work bounded.
    for (bad, good) in [
        ("quit", "qu1t"),
        ("exit", "ex1t"),
        ("perft", "p3rft"),
        ("bench", "b3nch"),
    ] {
        line = line.replace(bad, good);
    }
    if line.contains("Hash") || line.contains("Threads") {
        line = line.replace("99999999999999999999", "1").replace("7", "1");
    }
    line
}

#[test]
fn a_long_random_stream_never_kills_the_engine() {
    let mut e = Engine::start();
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut gos = 0;
    let mut dialect = Dialect::Uci;
    let mut block = Vec::new();
    for _ in 0..3000 {
        let line = random_line(&mut rng);
        // Count the searches the stream starts, reading lines as the engine does.
        match parse(&line, dialect) {
            Ok(Command::Go(_)) => gos += 1,
            Ok(Command::Ucci) => dialect = Dialect::Ucci,
            Ok(Command::Uci) => dialect = Dialect::Uci,
            _ => {}
        }
        block.extend_from_slice(line.as_bytes());
        block.push(b'\n');
    }
    assert!(
        gos > 100,
        "the stream should start many searches, not {gos}"
    );
    e.send_raw(&block);
    e.send("stop");
    // Exactly one bestmove per go, however the searches overlapped.
    let mut seen = 0;
    while seen < gos {
        e.expect("a bestmove per go", |l| {
            l.starts_with("bestmove ") || l == "nobestmove"
        });
        seen += 1;
    }
    e.send("stop");
    let extra = e.sync();
    assert!(
        !extra
            .iter()
            .any(|l| l.starts_with("bestmove") || l == "nobestmove"),
        "more bestmoves than gos: {extra:?}"
    );
    assert!(e.is_alive());
    for line in &e.seen {
        for bad in FORBIDDEN {
            assert!(!line.contains(bad));
        }
    }
    // Back to a normal session.
    e.send("uci");
    e.expect_line("uciok");
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("position startpos");
    e.send("go depth 1");
    let (_, best) = e.bestmove();
    check_bestmove(&best, &position(XIANGQI_START, Variant::Xiangqi));
}
