//! Engine specifications and search limits, read from command-line text.

use std::fmt;
use std::path::PathBuf;

/// How to run one engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name in records and summaries.
    pub name: String,
    /// Program and arguments.
    pub argv: Vec<String>,
    /// Working directory (default: the runner's).
    pub dir: Option<PathBuf>,
    /// `setoption` lines sent after start, in order: (name, value).
    pub options: Vec<(String, String)>,
    /// Whether to send `uci`/`isready`/`ucinewgame` (as most runners do) or nothing but
    /// `setoption`, `position` and `go` (as JieqiArena does).
    pub handshake: bool,
    /// A fixed limit for this engine's searches (`nodes=`, `depth=`, `movetime=`), instead of
    /// the match's.
    pub limit: Option<Limit>,
    /// How the engine numbers ranks in move text (`ranks=0`, ours, or `ranks=1`, as
    /// Fairy-Stockfish writes Xiangqi moves: `h3e3` for our `h2e2`).
    pub ranks: RankNumbering,
}

/// How an engine numbers the ten ranks in the moves it reads and writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RankNumbering {
    /// Ranks 0-9, Red's back rank 0 (this engine, Pikafish and the Jieqi GUIs).
    #[default]
    FromZero,
    /// Ranks 1-10, Red's back rank 1 (Fairy-Stockfish's Xiangqi).
    FromOne,
}

impl RankNumbering {
    /// A move of ours (`h2e2`, with any identity suffix: `h2e2R`) in the engine's numbering.
    pub fn outgoing(self, text: &str) -> String {
        if self == RankNumbering::FromZero || text.len() < 4 || !text.is_ascii() {
            return text.to_string();
        }
        let b = text.as_bytes();
        let rank = |c: u8| u32::from(c - b'0') + 1;
        format!(
            "{}{}{}{}{}",
            b[0] as char,
            rank(b[1]),
            b[2] as char,
            rank(b[3]),
            &text[4..]
        )
    }

    /// A move word the engine wrote, in our numbering (`None`: not a move in its numbering).
    pub fn incoming(self, text: &str) -> Option<String> {
        if self == RankNumbering::FromZero {
            return Some(text.to_string());
        }
        // file letter, rank 1-10, file letter, rank 1-10
        let mut out = String::new();
        let mut rest = text;
        for _ in 0..2 {
            let file = rest.chars().next().filter(|c| c.is_ascii_lowercase())?;
            rest = &rest[1..];
            let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
            if digits == 0 || digits > 2 {
                return None;
            }
            let rank: u32 = rest[..digits].parse().ok()?;
            if !(1..=10).contains(&rank) {
                return None;
            }
            rest = &rest[digits..];
            out.push(file);
            out.push(char::from_digit(rank - 1, 10)?);
        }
        rest.is_empty().then_some(out)
    }
}

/// Why a command line cannot be split into words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WordsError {
    #[error("unclosed {quote} in: {text}")]
    UnclosedQuote { quote: char, text: String },
    #[error("trailing \\ in: {0}")]
    TrailingBackslash(String),
}

/// Why an `--engine` value was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineSpecError {
    #[error(transparent)]
    Words(#[from] WordsError),
    #[error(transparent)]
    TimeControl(#[from] TimeControlError),
    #[error("empty engine command")]
    Empty,
    #[error("engine: '{0}' is not key=value (with cmd=...)")]
    NotKeyValue(String),
    #[error("engine: '{0}' names no option")]
    NoOptionName(String),
    #[error("engine: {key} '{value}' is not a whole number")]
    NotWholeNumber { key: String, value: String },
    #[error("engine: ranks '{0}' is not 0 or 1")]
    Ranks(String),
    #[error("engine: handshake '{0}' is not true or false")]
    Handshake(String),
    #[error("engine: unknown key '{key}' in '{word}'")]
    UnknownKey { key: String, word: String },
    #[error("engine: cmd= is empty")]
    NoCommand,
}

/// Why a time control was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    #[error("time control: '{0}' is not a move count")]
    MoveCount(String),
    #[error("time control: '{0}' is not a number of seconds")]
    Seconds(String),
    #[error("time control: no time at all")]
    NoTime,
}

/// Splits a command line into words: blanks separate words; `'...'` and `"..."` quote (the
/// quotes are removed); a backslash outside single quotes takes the next character literally.
pub fn split_words(text: &str) -> Result<Vec<String>, WordsError> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => cur.push(c),
                        None => {
                            return Err(WordsError::UnclosedQuote {
                                quote: '\'',
                                text: text.to_string(),
                            })
                        }
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c) => cur.push(c),
                            None => return Err(WordsError::TrailingBackslash(text.to_string())),
                        },
                        Some(c) => cur.push(c),
                        None => {
                            return Err(WordsError::UnclosedQuote {
                                quote: '"',
                                text: text.to_string(),
                            })
                        }
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => cur.push(c),
                    None => return Err(WordsError::TrailingBackslash(text.to_string())),
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

impl EngineSpec {
    /// Reads an `--engine` value. Two forms:
    ///
    /// - a plain command line: `./jieqi` or `"/path/to/engine" --flag` (the name is the
    ///   program's file name);
    /// - `key=value` words, recognised by a `cmd=` word: `cmd=<command line>` (quote it when it
    ///   has blanks: `cmd="./jieqi uci"`), `name=<name>`, `dir=<working directory>`,
    ///   `option.<Name>=<value>` (any number, sent in order; quote the word when the name has
    ///   blanks: `"option.Move Overhead=10"`), `handshake=true|false` (default true), and
    ///   `tc=<time control>`, `nodes=<n>`, `depth=<d>` or `movetime=<ms>` to give this engine
    ///   its own limit (its own clock with `tc=`, e.g. `tc=40/60+0.6`), and `ranks=0|1` for an
    ///   engine that numbers ranks 1-10 in its moves (see [`RankNumbering`]).
    pub fn parse(text: &str) -> Result<EngineSpec, EngineSpecError> {
        let words = split_words(text)?;
        if words.is_empty() {
            return Err(EngineSpecError::Empty);
        }
        let keyed = words.iter().any(|w| w.starts_with("cmd="));
        let mut spec = EngineSpec {
            name: String::new(),
            argv: Vec::new(),
            dir: None,
            options: Vec::new(),
            handshake: true,
            limit: None,
            ranks: RankNumbering::FromZero,
        };
        if !keyed {
            spec.argv = words;
        } else {
            for w in &words {
                let (k, v) = w
                    .split_once('=')
                    .ok_or_else(|| EngineSpecError::NotKeyValue(w.clone()))?;
                if let Some(opt) = k.strip_prefix("option.") {
                    if opt.trim().is_empty() {
                        return Err(EngineSpecError::NoOptionName(w.clone()));
                    }
                    spec.options.push((opt.trim().to_string(), v.to_string()));
                    continue;
                }
                match k {
                    "cmd" => spec.argv = split_words(v)?,
                    "name" => spec.name = v.to_string(),
                    "dir" => spec.dir = Some(PathBuf::from(v)),
                    "nodes" | "depth" | "movetime" => {
                        let n: u64 = v.parse().map_err(|_| EngineSpecError::NotWholeNumber {
                            key: k.to_string(),
                            value: v.to_string(),
                        })?;
                        spec.limit = Some(match k {
                            "nodes" => Limit::Nodes(n),
                            "depth" => Limit::Depth(n.min(u32::MAX as u64) as u32),
                            _ => Limit::MoveTime(n),
                        });
                    }
                    "tc" => spec.limit = Some(Limit::parse_tc(v)?),
                    "ranks" => {
                        spec.ranks = match v {
                            "0" => RankNumbering::FromZero,
                            "1" => RankNumbering::FromOne,
                            _ => return Err(EngineSpecError::Ranks(v.to_string())),
                        }
                    }
                    "handshake" => {
                        spec.handshake = parse_bool(v)
                            .ok_or_else(|| EngineSpecError::Handshake(v.to_string()))?
                    }
                    _ => {
                        return Err(EngineSpecError::UnknownKey {
                            key: k.to_string(),
                            word: w.clone(),
                        })
                    }
                }
            }
            if spec.argv.is_empty() {
                return Err(EngineSpecError::NoCommand);
            }
        }
        if spec.name.is_empty() {
            spec.name = std::path::Path::new(&spec.argv[0])
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| spec.argv[0].clone());
        }
        Ok(spec)
    }
}

/// Makes names unique: every engine whose name is shared gets `-<its position>` appended
/// (`jieqi-1`, `jieqi-2`).
pub fn unique_names(engines: &mut [EngineSpec]) {
    let names: Vec<String> = engines.iter().map(|e| e.name.clone()).collect();
    for (i, e) in engines.iter_mut().enumerate() {
        if names.iter().filter(|n| **n == e.name).count() > 1 {
            e.name = format!("{}-{}", e.name, i + 1);
        }
    }
}

/// How long each engine may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// A clock: `base_ms` at the start, `inc_ms` added after each move, and `base_ms` added
    /// again every `moves` moves when set (`go wtime/btime/winc/binc [movestogo]`).
    Clock {
        moves: Option<u32>,
        base_ms: u64,
        inc_ms: u64,
    },
    /// `go movetime <ms>`.
    MoveTime(u64),
    /// `go nodes <n>`.
    Nodes(u64),
    /// `go depth <d>`.
    Depth(u32),
}

fn seconds_to_ms(text: &str) -> Result<u64, TimeControlError> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| TimeControlError::Seconds(text.to_string()))?;
    if !(v.is_finite() && v >= 0.0) {
        return Err(TimeControlError::Seconds(text.to_string()));
    }
    Ok((v * 1000.0).round() as u64)
}

impl Limit {
    /// Reads a time control `[moves/]seconds[+increment]`: `40/60+0.6`, `10+0.1`, `60`.
    pub fn parse_tc(text: &str) -> Result<Limit, TimeControlError> {
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => {
                let m: u32 = m
                    .trim()
                    .parse()
                    .ok()
                    .filter(|&m| m > 0)
                    .ok_or_else(|| TimeControlError::MoveCount(m.to_string()))?;
                (Some(m), r)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (seconds_to_ms(b)?, seconds_to_ms(i)?),
            None => (seconds_to_ms(rest)?, 0),
        };
        if base == 0 && inc == 0 {
            return Err(TimeControlError::NoTime);
        }
        Ok(Limit::Clock {
            moves,
            base_ms: base,
            inc_ms: inc,
        })
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Limit::Clock {
                moves,
                base_ms,
                inc_ms,
            } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}", base_ms as f64 / 1000.0)?;
                if inc_ms > 0 {
                    write!(f, "+{}", inc_ms as f64 / 1000.0)?;
                }
                Ok(())
            }
            Limit::MoveTime(ms) => write!(f, "movetime {ms}"),
            Limit::Nodes(n) => write!(f, "nodes {n}"),
            Limit::Depth(d) => write!(f, "depth {d}"),
        }
    }
}

#[cfg(test)]
mod rank_tests {
    use super::*;

    #[test]
    fn ranks_from_one_translate_both_ways() {
        let one = RankNumbering::FromOne;
        assert_eq!(one.outgoing("h2e2"), "h3e3");
        assert_eq!(one.outgoing("a9a0"), "a10a1");
        assert_eq!(one.outgoing("b7b0rP"), "b8b1rP");
        assert_eq!(one.incoming("h3e3").as_deref(), Some("h2e2"));
        assert_eq!(one.incoming("a10a1").as_deref(), Some("a9a0"));
        assert_eq!(one.incoming("e10e9").as_deref(), Some("e9e8"));
        for bad in [
            "", "h0e2", "h11e2", "h3e", "h3e3x", "3e3", "(none)", "a100a1",
        ] {
            assert_eq!(one.incoming(bad), None, "{bad}");
        }
        let zero = RankNumbering::FromZero;
        assert_eq!(zero.outgoing("h2e2R"), "h2e2R");
        assert_eq!(zero.incoming("h2e2").as_deref(), Some("h2e2"));
        let spec = EngineSpec::parse("cmd=./fsf ranks=1").unwrap();
        assert_eq!(spec.ranks, RankNumbering::FromOne);
        assert_eq!(
            EngineSpec::parse("./fsf").unwrap().ranks,
            RankNumbering::FromZero
        );
        assert!(EngineSpec::parse("cmd=./fsf ranks=2").is_err());
    }
}
