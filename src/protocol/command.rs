//! One input line to one typed [`Command`].
//!
//! This module only reads text: it knows the shape of every command (which keywords, which values
//! are numbers) but nothing of the position or the engine. Whether a move is legal or an option
//! exists is decided by the layers that act on the command. Nothing here panics on any input.
//!
//! Command words and keywords are read case-insensitively; FEN text, option values and move
//! suffix letters keep their case (a suffix letter's case is the piece's colour).

use std::fmt;

use crate::core::{Move, Piece};

/// Which handshake the session speaks. Only `setoption`, `go` and a few replies differ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// The Universal Chess Interface, as JieqiBox, JieqiArena and Mistboard speak it.
    #[default]
    Uci,
    /// The Universal Chinese Chess Protocol of Xiangqi GUIs (after a `ucci` handshake).
    Ucci,
}

/// A command of the engine's protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// An empty or all-blank line: nothing to do.
    Empty,
    Uci,
    /// The UCCI handshake; switches the session to [`Dialect::Ucci`].
    Ucci,
    /// `debug on|off`: accepted and ignored (the engine has no debug output).
    Debug,
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    UciNewGame,
    Position(PositionCommand),
    Go(GoCommand),
    Stop,
    PonderHit,
    Quit,
    /// UCCI `banmoves`: moves the next search may not play.
    BanMoves(Vec<Move>),
    /// `d`: print the position.
    Display,
    /// `perft N` (also `go perft N`).
    Perft(u32),
    /// `bench [depth]`.
    Bench(Option<u32>),
    Eval,
}

/// Why a line is not a command the engine can act on. The messages are written for an
/// `info string` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The first word is not a command of this engine.
    NotACommand(String),
    /// A command this engine knows of but does not act on.
    NotSupported(&'static str),
    /// A known command with bad arguments.
    Invalid {
        command: &'static str,
        reason: String,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::NotACommand(word) => write!(
                f,
                "ignored input '{}': not a command of this engine",
                quote(word)
            ),
            ParseError::NotSupported(word) => {
                write!(f, "ignored '{word}': not supported by this engine")
            }
            ParseError::Invalid { command, reason } => {
                write!(f, "ignored '{command}': {reason}")
            }
        }
    }
}

impl std::error::Error for ParseError {}

fn invalid(command: &'static str, reason: impl Into<String>) -> ParseError {
    ParseError::Invalid {
        command,
        reason: reason.into(),
    }
}

/// Input text shortened for echoing in a reply: at most 40 characters, anything that is not
/// printable ASCII replaced by `?`, so that replies stay ASCII and one line.
pub fn quote(text: &str) -> String {
    const MAX: usize = 40;
    let mut out: String = text
        .chars()
        .take(MAX)
        .map(|c| {
            if c == ' ' || c.is_ascii_graphic() {
                c
            } else {
                '?'
            }
        })
        .collect();
    if text.chars().nth(MAX).is_some() {
        out.push_str("...");
    }
    out
}

// ---------------------------------------------------------------------------------------------
// position

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartSpec {
    /// The current variant's start position.
    StartPos,
    /// FEN text (tokens joined by single spaces), any dialect.
    Fen(String),
}

/// `position startpos|fen <FEN> [moves m1 m2 ...]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    pub start: StartSpec,
    pub moves: Vec<MoveText>,
}

/// One letter of a move suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// `x` or `X`: none, or unknown to the sender.
    Unknown,
    Piece(Piece),
}

impl Mark {
    pub fn piece(self) -> Option<Piece> {
        match self {
            Mark::Unknown => None,
            Mark::Piece(p) => Some(p),
        }
    }
}

/// What follows the four coordinate characters of a move in `position ... moves`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suffix {
    /// A plain 4-character move.
    None,
    /// 5 characters: the flip identity if the moving piece is face down, else the identity of
    /// the captured face-down piece. Which one depends on the position.
    One(Mark),
    /// 6 characters: the flip identity, then the captured identity.
    Two(Mark, Mark),
}

/// Why a word is not a move of `position ... moves`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    #[error("not ASCII")]
    NotAscii,
    #[error("a move has 4 characters, or 5-6 with identity letters")]
    Length,
    #[error("'{0}' is not two different squares a0-i9")]
    Squares(String),
    #[error("the pass 0000 takes no identity letters")]
    PassWithLetters,
    #[error("'{0}' is not a piece letter (KABNRCP, kabnrcp) or x")]
    Letter(char),
}

/// A move as written in `position ... moves`: coordinates and an optional suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveText {
    pub mv: Move,
    pub suffix: Suffix,
}

impl MoveText {
    /// Reads `h2e2`, `0000`, `b7b0r`, `b7b0rP`, `b7b0xP`, ...
    pub fn parse(text: &str) -> Result<MoveText, MoveTextError> {
        if !text.is_ascii() {
            return Err(MoveTextError::NotAscii);
        }
        if text.len() < 4 || text.len() > 6 {
            return Err(MoveTextError::Length);
        }
        let (coords, rest) = text.split_at(4);
        let mv = Move::parse(coords).ok_or_else(|| MoveTextError::Squares(coords.to_string()))?;
        if mv.is_pass() && !rest.is_empty() {
            return Err(MoveTextError::PassWithLetters);
        }
        let mut marks = rest.chars().map(|c| match c {
            'x' | 'X' => Ok(Mark::Unknown),
            _ => Piece::from_char(c)
                .map(Mark::Piece)
                .ok_or(MoveTextError::Letter(c)),
        });
        let suffix = match (marks.next(), marks.next()) {
            (None, _) => Suffix::None,
            (Some(a), None) => Suffix::One(a?),
            (Some(a), Some(b)) => Suffix::Two(a?, b?),
        };
        Ok(MoveText { mv, suffix })
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = |m: Mark| match m {
            Mark::Unknown => 'x',
            Mark::Piece(p) => p.char(),
        };
        write!(f, "{}", self.mv)?;
        match self.suffix {
            Suffix::None => Ok(()),
            Suffix::One(a) => write!(f, "{}", mark(a)),
            Suffix::Two(a, b) => write!(f, "{}{}", mark(a), mark(b)),
        }
    }
}

fn parse_position(args: &[&str]) -> Result<PositionCommand, ParseError> {
    const CMD: &str = "position";
    let moves_at = args.iter().position(|t| t.eq_ignore_ascii_case("moves"));
    let (head, tail) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let start = match head.split_first() {
        None => return Err(invalid(CMD, "expected 'startpos' or 'fen <FEN>'")),
        Some((first, rest)) if first.eq_ignore_ascii_case("startpos") => {
            if let Some(extra) = rest.first() {
                return Err(invalid(
                    CMD,
                    format!("unexpected '{}' after startpos", quote(extra)),
                ));
            }
            StartSpec::StartPos
        }
        Some((first, rest)) if first.eq_ignore_ascii_case("fen") => {
            if rest.is_empty() {
                return Err(invalid(CMD, "'fen' needs a FEN"));
            }
            StartSpec::Fen(rest.join(" "))
        }
        // Some programs leave out the word `fen`; a board field is unmistakable.
        Some((first, _)) if first.contains('/') => StartSpec::Fen(head.join(" ")),
        Some((first, _)) => {
            return Err(invalid(
                CMD,
                format!("expected 'startpos' or 'fen <FEN>', not '{}'", quote(first)),
            ))
        }
    };
    let mut moves = Vec::with_capacity(tail.len());
    for (i, token) in tail.iter().enumerate() {
        let text = MoveText::parse(token).map_err(|why| {
            invalid(
                CMD,
                format!("move {} '{}' cannot be read: {why}", i + 1, quote(token)),
            )
        })?;
        moves.push(text);
    }
    Ok(PositionCommand { start, moves })
}

// ---------------------------------------------------------------------------------------------
// go

/// Everything a `go` line can say. Values are as written; the session turns them into search
/// limits (UCCI's own/opponent clock becomes Red/Black by the side to move).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<i64>,
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// `mate N`: there is no mate search; read as depth `2N` when no depth is given.
    pub mate: Option<u32>,
    pub searchmoves: Vec<Move>,
    /// UCCI `time`: the mover's clock.
    pub time: Option<i64>,
    /// UCCI `increment`.
    pub increment: Option<i64>,
    /// UCCI `opptime`.
    pub opptime: Option<i64>,
    /// UCCI `oppincrement`.
    pub oppincrement: Option<i64>,
    /// What was wrong with the line. A `go` always starts a search; bad parts are left out.
    pub problems: Vec<GoProblem>,
}

/// Something in a `go` line that was left out of the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoProblem {
    MissingValue(&'static str),
    BadValue {
        param: &'static str,
        value: String,
        expected: &'static str,
    },
    UnknownToken(String),
    BadSearchMove(String),
}

impl fmt::Display for GoProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoProblem::MissingValue(p) => write!(f, "go: '{p}' needs a value; left out"),
            GoProblem::BadValue {
                param,
                value,
                expected,
            } => write!(
                f,
                "go: '{param} {}' is not {expected}; left out",
                quote(value)
            ),
            GoProblem::UnknownToken(t) => {
                write!(f, "go: '{}' is not a go parameter; left out", quote(t))
            }
            GoProblem::BadSearchMove(t) => {
                write!(f, "go: searchmoves: '{}' is not a move; left out", quote(t))
            }
        }
    }
}

/// The kinds of value a `go` parameter takes.
#[derive(Clone, Copy)]
enum GoParam {
    Depth,
    Nodes,
    Movetime,
    Wtime,
    Btime,
    Winc,
    Binc,
    Movestogo,
    Mate,
    Perft,
    Time,
    Increment,
    Opptime,
    Oppincrement,
    // Flags.
    Infinite,
    Ponder,
    /// UCCI `draw` (a draw offer): read and ignored.
    Draw,
    Searchmoves,
}

impl GoParam {
    fn from_word(word: &str, dialect: Dialect) -> Option<(GoParam, &'static str)> {
        let lower = word.to_ascii_lowercase();
        let found = match lower.as_str() {
            "depth" => (GoParam::Depth, "depth"),
            "nodes" => (GoParam::Nodes, "nodes"),
            "movetime" => (GoParam::Movetime, "movetime"),
            "wtime" => (GoParam::Wtime, "wtime"),
            "btime" => (GoParam::Btime, "btime"),
            "winc" => (GoParam::Winc, "winc"),
            "binc" => (GoParam::Binc, "binc"),
            "movestogo" => (GoParam::Movestogo, "movestogo"),
            "mate" => (GoParam::Mate, "mate"),
            "perft" => (GoParam::Perft, "perft"),
            "infinite" => (GoParam::Infinite, "infinite"),
            "ponder" => (GoParam::Ponder, "ponder"),
            "searchmoves" => (GoParam::Searchmoves, "searchmoves"),
            "time" if dialect == Dialect::Ucci => (GoParam::Time, "time"),
            "increment" if dialect == Dialect::Ucci => (GoParam::Increment, "increment"),
            "opptime" if dialect == Dialect::Ucci => (GoParam::Opptime, "opptime"),
            "oppincrement" if dialect == Dialect::Ucci => (GoParam::Oppincrement, "oppincrement"),
            "draw" if dialect == Dialect::Ucci => (GoParam::Draw, "draw"),
            _ => return None,
        };
        Some(found)
    }
}

/// Reads `go ...`: a search, or `go perft N` (the same as `perft N`).
fn parse_go(args: &[&str], dialect: Dialect) -> Result<Command, ParseError> {
    let mut go = GoCommand::default();
    let mut i = 0;
    while i < args.len() {
        let token = args[i];
        i += 1;
        let Some((param, name)) = GoParam::from_word(token, dialect) else {
            go.problems.push(GoProblem::UnknownToken(token.to_string()));
            continue;
        };
        match param {
            GoParam::Infinite => {
                go.infinite = true;
                continue;
            }
            GoParam::Ponder => {
                go.ponder = true;
                continue;
            }
            GoParam::Draw => continue,
            GoParam::Searchmoves => {
                // Always last: every remaining token is a move.
                for t in &args[i..] {
                    match Move::parse(t) {
                        Some(m) => go.searchmoves.push(m),
                        None => go.problems.push(GoProblem::BadSearchMove(t.to_string())),
                    }
                }
                break;
            }
            _ => {}
        }
        // A parameter with a value. A keyword where the value should be is not consumed, so
        // that `go depth wtime 100` loses only the depth.
        let value = match args.get(i) {
            Some(v) if GoParam::from_word(v, dialect).is_none() => {
                i += 1;
                *v
            }
            _ => {
                go.problems.push(GoProblem::MissingValue(name));
                continue;
            }
        };
        let bad = |expected| GoProblem::BadValue {
            param: name,
            value: value.to_string(),
            expected,
        };
        const TIME: &str = "a whole number of milliseconds";
        const COUNT: &str = "a non-negative whole number";
        let time = || value.parse::<i64>().map_err(|_| bad(TIME));
        let count32 = || value.parse::<u32>().map_err(|_| bad(COUNT));
        let result = match param {
            GoParam::Depth => count32().map(|v| go.depth = Some(v)),
            GoParam::Nodes => value
                .parse::<u64>()
                .map(|v| go.nodes = Some(v))
                .map_err(|_| bad(COUNT)),
            GoParam::Movetime => time().map(|v| go.movetime = Some(v)),
            GoParam::Wtime => time().map(|v| go.wtime = Some(v)),
            GoParam::Btime => time().map(|v| go.btime = Some(v)),
            GoParam::Winc => time().map(|v| go.winc = Some(v)),
            GoParam::Binc => time().map(|v| go.binc = Some(v)),
            GoParam::Movestogo => count32().map(|v| go.movestogo = Some(v)),
            GoParam::Mate => count32().map(|v| go.mate = Some(v)),
            GoParam::Time => time().map(|v| go.time = Some(v)),
            GoParam::Increment => time().map(|v| go.increment = Some(v)),
            GoParam::Opptime => time().map(|v| go.opptime = Some(v)),
            GoParam::Oppincrement => time().map(|v| go.oppincrement = Some(v)),
            GoParam::Perft => {
                return parse_depth(value, "go perft").map(Command::Perft);
            }
            GoParam::Infinite | GoParam::Ponder | GoParam::Draw | GoParam::Searchmoves => Ok(()),
        };
        if let Err(problem) = result {
            go.problems.push(problem);
        }
    }
    Ok(Command::Go(go))
}

/// The deepest `perft` the loop accepts (as on the command line).
pub const MAX_PERFT_DEPTH: u32 = 20;

fn parse_depth(text: &str, command: &'static str) -> Result<u32, ParseError> {
    match text.parse::<u32>() {
        Ok(d) if (1..=MAX_PERFT_DEPTH).contains(&d) => Ok(d),
        _ => Err(invalid(
            command,
            format!(
                "'{}' is not a depth from 1 to {MAX_PERFT_DEPTH}",
                quote(text)
            ),
        )),
    }
}

// ---------------------------------------------------------------------------------------------
// setoption

/// `setoption name <N...> [value <V...>]`; in UCCI also `setoption <N> [<V...>]`.
fn parse_setoption(line: &str, args: &[&str], dialect: Dialect) -> Result<Command, ParseError> {
    const CMD: &str = "setoption";
    let Some(first) = args.first() else {
        return Err(invalid(CMD, "expected 'name <option> [value <value>]'"));
    };
    if !first.eq_ignore_ascii_case("name") {
        if dialect == Dialect::Ucci {
            let value = (args.len() > 1).then(|| args[1..].join(" "));
            return Ok(Command::SetOption {
                name: first.to_string(),
                value,
            });
        }
        return Err(invalid(
            CMD,
            format!("expected 'name' after setoption, not '{}'", quote(first)),
        ));
    }
    let rest = &args[1..];
    let value_at = rest.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let name_tokens = &rest[..value_at.unwrap_or(rest.len())];
    if name_tokens.is_empty() {
        return Err(invalid(CMD, "the option name is missing"));
    }
    // The value keeps its inner spacing: take it from the line itself.
    let value = value_at.map(|_| value_text(line).to_string());
    Ok(Command::SetOption {
        name: name_tokens.join(" "),
        value,
    })
}

/// The text after the first ` value ` word of a setoption line (already known to exist).
fn value_text(line: &str) -> &str {
    let mut rest = line;
    // Skip words until the one that is `value`.
    loop {
        rest = rest.trim_start();
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (word, after) = rest.split_at(end);
        rest = after;
        if word.eq_ignore_ascii_case("value") || word.is_empty() {
            return rest.trim();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// the line

/// Reads one input line (without its line ending; a trailing `\r` is ignored).
pub fn parse(line: &str, dialect: Dialect) -> Result<Command, ParseError> {
    let line = line.trim();
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&word, args)) = tokens.split_first() else {
        return Ok(Command::Empty);
    };
    // Words after an argument-less command are ignored (`ponderhit draw` in UCCI, or a line
    // that got glued to junk): the command is clear, and a GUI waiting for `readyok` or
    // `bestmove` must not hang over a typo.
    match word.to_ascii_lowercase().as_str() {
        "uci" => Ok(Command::Uci),
        "ucci" => Ok(Command::Ucci),
        "debug" => Ok(Command::Debug),
        "isready" => Ok(Command::IsReady),
        "setoption" => parse_setoption(line, args, dialect),
        "ucinewgame" => Ok(Command::UciNewGame),
        "position" => parse_position(args).map(Command::Position),
        "go" => parse_go(args, dialect),
        "stop" => Ok(Command::Stop),
        "ponderhit" => Ok(Command::PonderHit),
        "quit" | "exit" => Ok(Command::Quit),
        "banmoves" => {
            let mut moves = Vec::new();
            for t in args {
                let m = Move::parse(t)
                    .ok_or_else(|| invalid("banmoves", format!("'{}' is not a move", quote(t))))?;
                moves.push(m);
            }
            Ok(Command::BanMoves(moves))
        }
        "d" | "display" => Ok(Command::Display),
        "perft" => match args {
            [depth] => parse_depth(depth, "perft").map(Command::Perft),
            _ => Err(invalid("perft", "expected 'perft <depth>'")),
        },
        "bench" => match args {
            [] => Ok(Command::Bench(None)),
            [depth] => match depth.parse::<u32>() {
                Ok(d) if (1..=64).contains(&d) => Ok(Command::Bench(Some(d))),
                _ => Err(invalid(
                    "bench",
                    format!("'{}' is not a depth from 1 to 64", quote(depth)),
                )),
            },
            _ => Err(invalid("bench", "expected 'bench [depth]'")),
        },
        "eval" => Ok(Command::Eval),
        "register" => Err(ParseError::NotSupported("register")),
        "probe" => Err(ParseError::NotSupported("probe")),
        _ => Err(ParseError::NotACommand(word.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uci(line: &str) -> Result<Command, ParseError> {
        parse(line, Dialect::Uci)
    }

    fn go(line: &str) -> GoCommand {
        match uci(line) {
            Ok(Command::Go(g)) => g,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(uci("uci"), Ok(Command::Uci));
        assert_eq!(uci("  isready \r"), Ok(Command::IsReady));
        assert_eq!(uci("ISREADY"), Ok(Command::IsReady));
        assert_eq!(uci(""), Ok(Command::Empty));
        assert_eq!(uci(" \t "), Ok(Command::Empty));
        assert_eq!(uci("ponderhit draw"), Ok(Command::PonderHit));
        assert_eq!(uci("isready now"), Ok(Command::IsReady));
        assert_eq!(uci("perft 3"), Ok(Command::Perft(3)));
        assert_eq!(uci("go perft 2"), Ok(Command::Perft(2)));
        assert!(uci("perft 0").is_err());
        assert!(uci("perft x").is_err());
        assert_eq!(uci("bench"), Ok(Command::Bench(None)));
        assert_eq!(uci("bench 2"), Ok(Command::Bench(Some(2))));
    }

    #[test]
    fn unknown_words_never_use_the_forbidden_phrases() {
        let e = uci("foo bar").unwrap_err().to_string();
        assert_eq!(e, "ignored input 'foo': not a command of this engine");
        for bad in ["Unknown command", "No such option", "Unknown option"] {
            assert!(!e.contains(bad));
        }
    }

    #[test]
    fn setoption_names_with_spaces_and_values() {
        assert_eq!(
            uci("setoption name Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            uci("setoption  NAME  Move   Overhead VALUE  100 "),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            })
        );
        assert_eq!(
            uci("setoption name Foo value a  b"),
            Ok(Command::SetOption {
                name: "Foo".into(),
                value: Some("a  b".into())
            })
        );
        assert_eq!(
            uci("setoption name Hash value"),
            Ok(Command::SetOption {
                name: "Hash".into(),
                value: Some(String::new())
            })
        );
        assert!(uci("setoption").is_err());
        assert!(uci("setoption name").is_err());
        assert!(uci("setoption name value 3").is_err());
        assert!(uci("setoption Hash 3").is_err());
        assert_eq!(
            parse("setoption hashsize 32", Dialect::Ucci),
            Ok(Command::SetOption {
                name: "hashsize".into(),
                value: Some("32".into())
            })
        );
    }

    #[test]
    fn go_parameters_in_any_order_and_signed_times() {
        let g = go("go btime -1500 wtime 300000 winc 0 binc -5 movestogo 1 depth 7 nodes 1000");
        assert_eq!(g.wtime, Some(300000));
        assert_eq!(g.btime, Some(-1500));
        assert_eq!(g.binc, Some(-5));
        assert_eq!(g.movestogo, Some(1));
        assert_eq!(g.depth, Some(7));
        assert_eq!(g.nodes, Some(1000));
        assert!(g.problems.is_empty());
        let g = go("go ponder infinite movetime 50");
        assert!(g.ponder && g.infinite);
        assert_eq!(g.movetime, Some(50));
        let g = go("go depth 3 searchmoves h2e2 b0c2 zz");
        assert_eq!(g.searchmoves.len(), 2);
        assert_eq!(g.problems, vec![GoProblem::BadSearchMove("zz".into())]);
    }

    #[test]
    fn bad_go_values_are_left_out() {
        let g = go("go depth -1 wtime abc btime 100 foo movetime");
        assert_eq!(g.depth, None);
        assert_eq!(g.wtime, None);
        assert_eq!(g.btime, Some(100));
        assert_eq!(g.problems.len(), 4);
        let g = go("go depth wtime 100");
        assert_eq!(g.wtime, Some(100));
        assert_eq!(g.problems, vec![GoProblem::MissingValue("depth")]);
        let g = go("go wtime 99999999999999999999999");
        assert_eq!(g.wtime, None);
    }

    #[test]
    fn ucci_go() {
        let Ok(Command::Go(g)) = parse("go draw time 300 increment 2 opptime 200", Dialect::Ucci)
        else {
            panic!()
        };
        assert_eq!(
            (g.time, g.increment, g.opptime),
            (Some(300), Some(2), Some(200))
        );
        // In UCI these are not parameters.
        assert_eq!(go("go time 300").problems.len(), 2);
    }

    #[test]
    fn positions() {
        let Ok(Command::Position(p)) = uci("position startpos moves h2e2 b7b0rP a3a4x 0000") else {
            panic!()
        };
        assert_eq!(p.start, StartSpec::StartPos);
        assert_eq!(p.moves.len(), 4);
        assert_eq!(p.moves[1].to_string(), "b7b0rP");
        assert_eq!(p.moves[2].suffix, Suffix::One(Mark::Unknown));
        let Ok(Command::Position(p)) = uci("position fen 4k4/9/9/9/9/9/9/9/9/4K4  w  -  - 0 1")
        else {
            panic!()
        };
        assert_eq!(
            p.start,
            StartSpec::Fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1".into())
        );
        assert!(p.moves.is_empty());
        assert!(uci("position").is_err());
        assert!(uci("position fen").is_err());
        assert!(uci("position startpos junk").is_err());
        assert!(uci("position moves h2e2").is_err());
        let e = uci("position startpos moves h2e2 z9z9").unwrap_err();
        assert!(e.to_string().contains("move 2 'z9z9'"), "{e}");
        assert!(uci("position startpos moves h2e2Q").is_err());
        assert!(uci("position startpos moves h2h2").is_err());
        assert!(uci("position startpos moves 0000P").is_err());
        assert!(uci("position startpos moves h2e2rPP").is_err());
    }

    #[test]
    fn quote_is_short_ascii() {
        assert_eq!(quote("a\u{fffd}b\tc"), "a?b?c");
        assert_eq!(quote(&"y".repeat(100)).len(), 43);
    }
}
