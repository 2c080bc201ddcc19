//! Referee unit tests: redaction of the move history, deals, statistics, engine specifications,
//! time controls and the JSON reader/writer. Fast; no engine processes.

use jieqi::core::{Color, Game, Move, Piece, Position, Reveal, Variant};
use jieqi::referee::config::{split_words, EngineSpec, Limit};
use jieqi::referee::deal::{self, SplitMix64};
use jieqi::referee::game::true_ply;
use jieqi::referee::stats::{self, EloModel, Sprt, SprtVerdict};
use jieqi::referee::view::{self, TruePly};

/// Red's 15 identities on a0 b0 c0 d0 f0 g0 h0 i0 b2 h2 a3 c3 e3 g3 i3, then Black's on
/// a6 c6 e6 g6 i6 b7 h7 a9 b9 c9 d9 f9 g9 h9 i9.
const DEAL: &str = "PNBAABNPRCPCPRPppppccrrnbaabnp";

/// Plays `moves` on the true game of the Jieqi start with `DEAL`, returning the true plies.
fn play(moves: &[&str]) -> (Position, Vec<TruePly>) {
    let start = Position::startpos(Variant::Jieqi);
    let deal = deal::parse_deal(DEAL, &start).expect("the deal fits");
    let mut game = Game::new(deal::dealt(&start, &deal).unwrap());
    let mut plies = Vec::new();
    for m in moves {
        let mv = Move::parse(m).unwrap();
        assert!(game.position().is_legal(mv), "{m} is legal");
        let ply = true_ply(game.position(), mv);
        game.play(
            mv,
            Reveal {
                flip: ply.flip,
                captured: ply.captured,
            },
        )
        .unwrap();
        plies.push(ply);
    }
    (start, plies)
}

#[test]
fn redaction_of_flips_and_hidden_captures() {
    // 1. Red's b2 cannon-role piece jumps b7 and takes the face-down b9 piece: it is a chariot
    //    and took a horse (only Red learns the horse).
    // 2. Black's a6 piece steps forward: a pawn (both see it).
    // 3. Red's chariot takes the face-down a9 piece, a chariot (only Red learns it).
    // 4. Black's h7 cannon-role piece jumps h2 and takes the face-down h0 piece: it is a chariot
    //    and took a horse (only Black learns the horse).
    // 5. Red's e3 piece steps forward: a pawn.
    // 6. Black's chariot takes the face-down g0 piece, an elephant (only Black learns it).
    let (start, plies) = play(&["b2b9", "a6a5", "b9a9", "h7h0", "e3e4", "h0g0"]);
    let red = view::history(&plies, Color::Red);
    let black = view::history(&plies, Color::Black);
    assert_eq!(red, "b2b9Rn a6a5p b9a9r h7h0r e3e4P h0g0");
    assert_eq!(black, "b2b9R a6a5p b9a9 h7h0rN e3e4P h0g0B");
    let full: Vec<String> = plies.iter().map(|p| view::move_text(p, None)).collect();
    assert_eq!(full.join(" "), "b2b9Rn a6a5p b9a9r h7h0rN e3e4P h0g0B");
    let fen = start.fen();
    assert_eq!(
        fen,
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 0 1"
    );
    assert_eq!(
        view::position_command(&fen, &plies[..3], Color::Black),
        format!("position fen {fen} moves b2b9R a6a5p b9a9")
    );
    assert_eq!(
        view::position_command(&fen, &[], Color::Red),
        format!("position fen {fen}")
    );
}

#[test]
fn each_side_can_replay_its_view() {
    // What each side is sent must be a valid `position` for the engine's own reader: replay it
    // on the public start with the suffixes read as protocol.md section 9 says, and check
    // that the pools come out as that side's knowledge.
    let (start, plies) = play(&["b2b9", "a6a5", "b9a9", "h7h0", "e3e4", "h0g0"]);
    for viewer in Color::ALL {
        let mut pos = start;
        for p in &plies {
            let text = view::move_text(p, Some(viewer));
            let mv = Move::parse(&text[..4]).unwrap();
            let letters: Vec<Piece> = text[4..]
                .chars()
                .map(|c| Piece::from_char(c).unwrap())
                .collect();
            let flip = if pos.is_flip(mv) {
                letters.first().copied()
            } else {
                None
            };
            let captured = letters.get(flip.is_some() as usize).copied();
            pos.play(mv, Reveal { flip, captured }).unwrap();
        }
        let known = pos.known_captures().to_string();
        match viewer {
            Color::Red => assert_eq!(known, "r1n1"),
            Color::Black => assert_eq!(known, "N1B1"),
        }
    }
}

#[test]
fn maniac_flip_letters_carry_the_true_colour() {
    let start = Position::startpos(Variant::Maniac);
    // h2 is the 10th face-down square; give it a black cannon, and a red one elsewhere.
    let mut ids: Vec<char> = "PNBAABNPRcPCPRPppppCcrrnbaabnp".chars().collect();
    assert_eq!(ids[9], 'c');
    ids[9] = 'c';
    let text: String = ids.into_iter().collect();
    let d = deal::parse_deal(&text, &start).expect("maniac deals mix colours");
    let pos = deal::dealt(&start, &d).unwrap();
    let ply = true_ply(&pos, Move::parse("h2e2").unwrap());
    assert_eq!(view::move_text(&ply, Some(Color::Red)), "h2e2c");
    assert_eq!(view::move_text(&ply, Some(Color::Black)), "h2e2c");
    // The same deal is not a Jieqi deal (a black piece on Red's half).
    assert!(deal::parse_deal(&text, &Position::startpos(Variant::Jieqi)).is_err());
}

#[test]
fn random_deals_are_seeded_and_fit() {
    let jieqi = Position::startpos(Variant::Jieqi);
    let a = deal::random_deal(&jieqi, &mut SplitMix64(deal::pair_seed(1, 0)));
    let b = deal::random_deal(&jieqi, &mut SplitMix64(deal::pair_seed(1, 0)));
    let c = deal::random_deal(&jieqi, &mut SplitMix64(deal::pair_seed(1, 1)));
    let d = deal::random_deal(&jieqi, &mut SplitMix64(deal::pair_seed(2, 0)));
    assert_eq!(a, b, "same seed and pair, same deal");
    assert_ne!(a, c);
    assert_ne!(a, d);
    assert_eq!(a.len(), 30);
    // Jieqi: each side's own 15 identities on its own squares.
    let squares: Vec<_> = jieqi.hidden().collect();
    for (sq, p) in squares.iter().zip(&a) {
        assert_eq!(p.color, sq.half());
    }
    let text = deal::deal_text(&a);
    assert_eq!(deal::parse_deal(&text, &jieqi).unwrap(), a);
    assert!(deal::dealt(&jieqi, &a).is_ok());

    // Maniac: the 30 identities mixed over both halves (over 20 deals, some piece stands on the
    // other colour's half, and every deal still uses the full pool).
    let maniac = Position::startpos(Variant::Maniac);
    let mut mixed = 0;
    for pair in 0..20 {
        let m = deal::random_deal(&maniac, &mut SplitMix64(deal::pair_seed(7, pair)));
        assert!(deal::dealt(&maniac, &m).is_ok());
        let reds = m.iter().filter(|p| p.color == Color::Red).count();
        assert_eq!(reds, 15);
        mixed += squares
            .iter()
            .zip(&m)
            .filter(|(sq, p)| p.color != sq.half())
            .count();
    }
    assert!(mixed > 20 * 5, "colours are mixed: {mixed}");

    // Xiangqi: no deal.
    let x = Position::startpos(Variant::Xiangqi);
    assert!(deal::random_deal(&x, &mut SplitMix64(1)).is_empty());
    assert_eq!(deal::deal_text(&[]), "-");
    assert!(deal::parse_deal("-", &x).unwrap().is_empty());

    // Deal files.
    let file = format!("# deals\n\n{DEAL}\n{text}\n");
    assert_eq!(deal::parse_deal_file(&file, &jieqi).unwrap().len(), 2);
    assert!(deal::parse_deal_file("PNB\n", &jieqi).is_err());
    assert!(deal::parse_deal_file("RRRAABNPRCPCPNPppppccrrnbaabnp\n", &jieqi).is_err());
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn elo_and_los_worked_examples() {
    assert!(close(
        stats::elo_from_score(0.75),
        190.848_501_887_865,
        1e-9
    ));
    assert!(close(
        stats::elo_from_score(0.6),
        70.436_503_622_272_47,
        1e-9
    ));
    assert!(close(stats::elo_from_score(0.5), 0.0, 1e-12));
    assert!(close(
        stats::score_from_elo(190.848_501_887_865),
        0.75,
        1e-12
    ));
    assert_eq!(stats::elo_from_score(1.0), f64::INFINITY);

    // 60 wins, 20 draws, 20 losses: score 0.7, per-game variance 0.16.
    let e = stats::elo_wdl(60, 20, 20).unwrap();
    assert!(close(e.elo, 147.190_714_117_837_76, 1e-6));
    assert!(close(e.low, 86.225_015_200_304_23, 1e-6));
    assert!(close(e.high, 218.251_776_641_074_8, 1e-6));

    // Pairs 5, 20, 50, 20, 10 (first engine's points 0 .. 2).
    let p = stats::elo_pentanomial(&[5, 20, 50, 20, 10]).unwrap();
    assert!(close(p.score, 0.523_809_523_809_523_8, 1e-12));
    assert!(close(p.elo, 16.557_074_063_290_04, 1e-6));
    assert!(close(p.low, -15.738_146_974_555_676, 1e-6));
    assert!(close(p.high, 49.141_594_576_253_844, 1e-6));
    assert!(stats::elo_pentanomial(&[0; 5]).is_none());

    assert!(close(stats::los(60, 20), 0.999_996_127_891_784_5, 1e-6));
    assert!(close(stats::los(12, 10), 0.665_092_321_200_291_7, 1e-6));
    assert!(close(stats::los(10, 10), 0.5, 1e-6));
    assert!(close(stats::los(0, 0), 0.5, 1e-12));
    for (x, v) in [
        (0.5, 0.520_499_877_813_046_5),
        (-1.3, -0.934_007_944_940_652_4),
        (2.5, 0.999_593_047_982_555),
    ] {
        assert!(close(stats::erf(x), v, 2e-7), "erf({x})");
    }
    assert_eq!(stats::fmt_elo(-0.0), "+0.0");
    assert_eq!(stats::fmt_elo(12.345), "+12.3");
}

#[test]
fn sprt_worked_examples() {
    let t = Sprt::parse("elo0=0 elo1=5 alpha=0.05 beta=0.05").unwrap();
    assert_eq!(t.model, EloModel::Logistic);
    let (lo, hi) = t.bounds();
    assert!(close(lo, -2.944_438_979_166_440_3, 1e-12));
    assert!(close(hi, 2.944_438_979_166_440_3, 1e-12));
    let pairs = [5, 20, 50, 20, 10];
    assert!(close(
        t.llr_pentanomial(&pairs),
        0.258_999_660_104_187_1,
        1e-9
    ));
    assert_eq!(t.verdict(0.26), SprtVerdict::Continue);
    assert_eq!(t.verdict(3.0), SprtVerdict::AcceptH1);
    assert_eq!(t.verdict(-3.0), SprtVerdict::AcceptH0);
    let n = Sprt::parse("elo0=0,elo1=5,model=normalized").unwrap();
    assert!(close(
        n.llr_pentanomial(&pairs),
        0.187_801_843_383_512_72,
        1e-9
    ));
    // A clear winner is accepted, a clear loser rejected, whatever the first pairs.
    assert_eq!(
        t.verdict(t.llr_pentanomial(&[0, 0, 10, 40, 50])),
        SprtVerdict::AcceptH1
    );
    assert_eq!(
        t.verdict(t.llr_pentanomial(&[8, 0, 0, 0, 0])),
        SprtVerdict::AcceptH0
    );
    assert_eq!(t.llr_pentanomial(&[0; 5]), 0.0);
    // One pair scored 1 of 2 points: the approximation alone would decide at once, the
    // minimum number of pairs does not.
    let one = [0, 1, 0, 0, 0];
    let t20 = Sprt::parse("elo0=0 elo1=20").unwrap();
    assert_eq!(
        t20.verdict(t20.llr_pentanomial(&one)),
        SprtVerdict::AcceptH0
    );
    assert_eq!(t20.decide(&one).1, SprtVerdict::Continue);
    assert_eq!(t.min_pairs, 10);
    assert_eq!(t.decide(&[10, 0, 0, 0, 0]).1, SprtVerdict::AcceptH0);
    assert_eq!(t.decide(&[9, 0, 0, 0, 0]).1, SprtVerdict::Continue);
    let t3 = Sprt::parse("elo0=0 elo1=5 minpairs=3").unwrap();
    assert_eq!(t3.decide(&[3, 0, 0, 0, 0]).1, SprtVerdict::AcceptH0);
    assert!(Sprt::parse("elo0=0 elo1=5 minpairs=-1").is_err());
    assert!(Sprt::parse("elo0=5 elo1=0").is_err());
    assert!(Sprt::parse("elo1=5").is_err());
    assert!(Sprt::parse("elo0=0 elo1=5 gamma=1").is_err());
}

#[test]
fn engine_specs_and_time_controls() {
    assert_eq!(
        split_words(r#"a "b c" 'd e' f\ g"#).unwrap(),
        ["a", "b c", "d e", "f g"]
    );
    assert!(split_words("a \"b").is_err());
    let plain = EngineSpec::parse("/usr/bin/jieqi uci").unwrap();
    assert_eq!(plain.name, "jieqi");
    assert_eq!(plain.argv, ["/usr/bin/jieqi", "uci"]);
    assert!(plain.handshake);
    let keyed = EngineSpec::parse(
        r#"name=A cmd="./jieqi uci" option.Threads=1 "option.Move Overhead=10" handshake=no dir=/tmp"#,
    )
    .unwrap();
    assert_eq!(keyed.name, "A");
    assert_eq!(keyed.argv, ["./jieqi", "uci"]);
    assert_eq!(
        keyed.options,
        [
            ("Threads".to_string(), "1".to_string()),
            ("Move Overhead".to_string(), "10".to_string())
        ]
    );
    assert!(!keyed.handshake);
    assert_eq!(keyed.dir.as_deref(), Some(std::path::Path::new("/tmp")));
    assert!(EngineSpec::parse("cmd=x bogus=1").is_err());
    assert!(EngineSpec::parse("").is_err());

    assert_eq!(
        Limit::parse_tc("40/60+0.6").unwrap(),
        Limit::Clock {
            moves: Some(40),
            base_ms: 60_000,
            inc_ms: 600
        }
    );
    assert_eq!(
        Limit::parse_tc("10+0.1").unwrap(),
        Limit::Clock {
            moves: None,
            base_ms: 10_000,
            inc_ms: 100
        }
    );
    assert_eq!(
        Limit::parse_tc("40/60+0.6").unwrap().to_string(),
        "40/60+0.6"
    );
    assert!(Limit::parse_tc("x+1").is_err());
    assert!(Limit::parse_tc("0/10").is_err());
    assert!(Limit::parse_tc("0").is_err());
}
