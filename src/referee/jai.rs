//! The JAI front: JieqiBox's match mode (`jieqi jai`). The GUI starts this process, sends `jai`,
//! sets the match up with `setoption`, sends `startmatch`, and shows the games of the match as
//! they are played. Specified in protocol.md, section "JAI".
//!
//! Input is read line by line; the match runs on its own thread, so `isready`, `stopmatch` and
//! `quit` are answered while games are played. Output lines are written whole and flushed.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

use super::config::{EngineSpec, Limit};
use super::game::{Adjudication, GameConfig};
use super::runner::{
    parse_openings, run_match, GameDone, LiveEvent, MatchConfig, MatchControl, MatchObserver,
    Schedule, Tournament,
};
use super::view;
use crate::core::Variant;
use crate::protocol::options::{parse_value, OptionError, OptionKind, OptionValue};

/// Where output lines go (shared by the input loop and the match thread).
pub type Out = Arc<Mutex<dyn Write + Send>>;

fn say(out: &Out, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// The options of the JAI front, in the order `jai` lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum JaiOption {
    Engine1Path,
    Engine1Options,
    Engine1Name,
    Engine2Path,
    Engine2Options,
    Engine2Name,
    TotalRounds,
    Concurrency,
    BookFile,
    MainTimeMs,
    IncTimeMs,
    TimeoutBufferMs,
    Variant,
    Seed,
    MaxPlies,
    OutFile,
}

const fn spin(default: i64, min: i64, max: i64) -> OptionKind {
    OptionKind::Spin { default, min, max }
}

/// The option table: each option's name and kind (with its default), in [`JaiOption`] order.
const OPTIONS: &[(JaiOption, &str, OptionKind)] = &[
    (JaiOption::Engine1Path, "Engine1Path", OptionKind::Text),
    (
        JaiOption::Engine1Options,
        "Engine1Options",
        OptionKind::Text,
    ),
    (JaiOption::Engine1Name, "Engine1Name", OptionKind::Text),
    (JaiOption::Engine2Path, "Engine2Path", OptionKind::Text),
    (
        JaiOption::Engine2Options,
        "Engine2Options",
        OptionKind::Text,
    ),
    (JaiOption::Engine2Name, "Engine2Name", OptionKind::Text),
    (JaiOption::TotalRounds, "TotalRounds", spin(10, 1, 100_000)),
    (JaiOption::Concurrency, "Concurrency", spin(1, 1, 64)),
    (JaiOption::BookFile, "BookFile", OptionKind::Text),
    (
        JaiOption::MainTimeMs,
        "MainTimeMs",
        spin(10_000, 0, 86_400_000),
    ),
    (JaiOption::IncTimeMs, "IncTimeMs", spin(100, 0, 600_000)),
    (
        JaiOption::TimeoutBufferMs,
        "TimeoutBufferMs",
        spin(100, 0, 600_000),
    ),
    (
        JaiOption::Variant,
        "Variant",
        OptionKind::Combo {
            default: "jieqi",
            values: &["jieqi", "maniac", "xiangqi"],
        },
    ),
    (JaiOption::Seed, "Seed", spin(1, 0, 2_147_483_647)),
    (JaiOption::MaxPlies, "MaxPlies", spin(0, 0, 100_000)),
    (JaiOption::OutFile, "OutFile", OptionKind::Text),
];

/// Why a JAI setting or the match it describes was refused.
#[derive(Debug, thiserror::Error)]
pub enum JaiError {
    #[error("no option named '{0}' (send 'jai' for the list)")]
    UnknownOption(String),
    #[error("{0}")]
    Value(#[from] OptionError),
    #[error("{option}: {error}")]
    Engine { option: String, error: SeatError },
    #[error("MainTimeMs and IncTimeMs are both 0: no time to play")]
    NoTime,
}

/// Why an engine's `EngineNPath` or `EngineNOptions` was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeatError {
    #[error("not set")]
    NoPath,
    #[error("{0}: no such program")]
    NoProgram(String),
    #[error(transparent)]
    Options(#[from] EngineOptionsError),
}

/// Why an `EngineNOptions` text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineOptionsError {
    #[error("option setting '{0}' is not Name=value")]
    NotNameValue(String),
    #[error("option setting '{0}' names no option")]
    NoName(String),
    #[error("option setting '{0}' has no value")]
    NoValue(String),
    #[error("'name' without an option name")]
    NameWithoutOption,
    #[error("option '{0}' has no value")]
    OptionWithoutValue(String),
}

/// The current value of every option.
#[derive(Clone, Debug)]
pub struct Settings {
    /// In [`OPTIONS`] order.
    values: Vec<OptionValue>,
}

impl Default for Settings {
    fn default() -> Settings {
        let values = OPTIONS
            .iter()
            .map(|(_, _, kind)| kind.default_value().unwrap_or(OptionValue::Press))
            .collect();
        Settings { values }
    }
}

impl Settings {
    fn value(&self, option: JaiOption) -> &OptionValue {
        &self.values[option as usize]
    }

    /// A text option's value (empty for none).
    fn text(&self, option: JaiOption) -> &str {
        match self.value(option) {
            OptionValue::Text(t) => t,
            OptionValue::Choice(c) => c,
            _ => "",
        }
    }

    /// A spin option's value (spins here have no negative values).
    fn number(&self, option: JaiOption) -> u64 {
        match self.value(option) {
            OptionValue::Int(n) => (*n).max(0) as u64,
            _ => 0,
        }
    }

    /// Sets an option (names are case-insensitive). Refuses unknown names and bad values,
    /// keeping the old value.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), JaiError> {
        let (option, canon, kind) = OPTIONS
            .iter()
            .find(|(_, n, _)| n.eq_ignore_ascii_case(name))
            .ok_or_else(|| JaiError::UnknownOption(name.to_string()))?;
        self.values[*option as usize] = parse_value(canon, *kind, Some(value))?;
        Ok(())
    }

    /// The match these settings describe, with warnings about settings that were passed over
    /// (an opening file that cannot be used: the games start from the start position).
    pub fn match_config(&self) -> Result<(MatchConfig, Vec<String>), JaiError> {
        use JaiOption as O;
        let mut warnings = Vec::new();
        // A combo holds one of its values, each a variant's name.
        let variant: Variant = self.text(O::Variant).parse().unwrap_or_default();
        let mut engines = Vec::new();
        let seats = [
            (O::Engine1Path, O::Engine1Options, O::Engine1Name),
            (O::Engine2Path, O::Engine2Options, O::Engine2Name),
        ];
        for (i, (path, options, name)) in seats.into_iter().enumerate() {
            engines.push(engine_spec(
                self.text(path),
                self.text(options),
                self.text(name),
                i + 1,
            )?);
        }
        super::config::unique_names(&mut engines);
        let (main, inc) = (self.number(O::MainTimeMs), self.number(O::IncTimeMs));
        if main == 0 && inc == 0 {
            return Err(JaiError::NoTime);
        }
        let book = self.text(O::BookFile);
        let openings = if book.is_empty() {
            Vec::new()
        } else {
            let read = std::fs::read_to_string(book)
                .map_err(|e| e.to_string())
                .and_then(|text| parse_openings(&text, variant).map_err(|e| e.to_string()));
            read.unwrap_or_else(|e| {
                warnings.push(format!(
                    "warning: BookFile {book}: {e}; the games start from the start position"
                ));
                Vec::new()
            })
        };
        let out = self.text(O::OutFile);
        let max_plies = self.number(O::MaxPlies);
        let cfg = MatchConfig {
            engines,
            schedule: Schedule::RoundRobin,
            variant,
            pairs: self.number(O::TotalRounds).max(1),
            concurrency: self.number(O::Concurrency).max(1) as usize,
            seed: self.number(O::Seed),
            game: GameConfig {
                limit: Limit::Clock {
                    moves: None,
                    base_ms: main,
                    inc_ms: inc,
                },
                adjudication: Adjudication {
                    max_plies: (max_plies > 0).then_some(max_plies as u32),
                    ..Adjudication::default()
                },
                time_margin_ms: self.number(O::TimeoutBufferMs),
                move_timeout_ms: 60_000,
                startup_timeout_ms: 10_000,
            },
            out: (!out.is_empty()).then(|| PathBuf::from(out)),
            deals: None,
            openings,
            sprt: None,
            shard: None,
            resume: false,
        };
        Ok((cfg, warnings))
    }
}

/// Reads `EngineNOptions`, in either of two forms:
/// - `name <Name> value <value> name <Name> value <value> ...`, as `setoption` writes them
///   (names and values may hold blanks; a value runs up to the next word `name`);
/// - `Name=value` settings separated by `;` or new lines. Within a part without `;`, several
///   settings may also be separated by blanks (`Threads=2 Hash=128`); words without `=` then
///   belong to the name that follows (`Move Overhead=30`).
pub fn parse_engine_options(text: &str) -> Result<Vec<(String, String)>, EngineOptionsError> {
    let first = text.split_whitespace().next();
    if first.is_some_and(|w| w.eq_ignore_ascii_case("name")) {
        return parse_name_value_options(text);
    }
    let mut out = Vec::new();
    for part in text.split([';', '\n']) {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        if part.matches('=').count() <= 1 {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| EngineOptionsError::NotNameValue(part.to_string()))?;
            if k.trim().is_empty() {
                return Err(EngineOptionsError::NoName(part.to_string()));
            }
            out.push((k.trim().to_string(), v.trim().to_string()));
            continue;
        }
        let mut name_words: Vec<&str> = Vec::new();
        for word in part.split_whitespace() {
            match word.split_once('=') {
                Some((k, v)) => {
                    name_words.push(k);
                    let name = name_words.join(" ");
                    if name.trim().is_empty() {
                        return Err(EngineOptionsError::NoName(word.to_string()));
                    }
                    out.push((name, v.to_string()));
                    name_words.clear();
                }
                None => name_words.push(word),
            }
        }
        if !name_words.is_empty() {
            return Err(EngineOptionsError::NoValue(name_words.join(" ")));
        }
    }
    Ok(out)
}

/// `name <Name...> value <value...>` repeated; the keywords are read in any case.
fn parse_name_value_options(text: &str) -> Result<Vec<(String, String)>, EngineOptionsError> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut name: Vec<&str> = Vec::new();
    let mut value: Vec<&str> = Vec::new();
    let mut in_value = false;
    let mut flush = |name: &mut Vec<&str>, value: &mut Vec<&str>, in_value: bool| {
        if name.is_empty() {
            return Err(EngineOptionsError::NameWithoutOption);
        }
        if !in_value {
            return Err(EngineOptionsError::OptionWithoutValue(name.join(" ")));
        }
        out.push((name.join(" "), value.join(" ")));
        name.clear();
        value.clear();
        Ok(())
    };
    let mut words = text.split_whitespace();
    words.next(); // the first `name`
    for w in words {
        if w.eq_ignore_ascii_case("name") && in_value {
            flush(&mut name, &mut value, in_value)?;
            in_value = false;
        } else if w.eq_ignore_ascii_case("value") && !in_value {
            in_value = true;
        } else if in_value {
            value.push(w);
        } else {
            name.push(w);
        }
    }
    flush(&mut name, &mut value, in_value)?;
    Ok(out)
}

/// Whether `p` names a file, or (a bare name) a file in one of the `PATH` folders.
fn program_exists(p: &Path) -> bool {
    if p.is_file() {
        return true;
    }
    if p.components().count() != 1 {
        return false;
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(p).is_file()))
}

/// One engine from its path, options and name. The path is one program (blanks allowed; a
/// path given in quotes loses them); the engine runs in its own folder, as GUIs run engines.
fn engine_spec(path: &str, options: &str, name: &str, i: usize) -> Result<EngineSpec, JaiError> {
    let error = |option: &str, error: SeatError| JaiError::Engine {
        option: format!("Engine{i}{option}"),
        error,
    };
    let mut path = path.trim().to_string();
    if path.len() >= 2 && path.starts_with('"') && path.ends_with('"') {
        path = path[1..path.len() - 1].to_string();
    }
    if path.is_empty() {
        return Err(error("Path", SeatError::NoPath));
    }
    let p = Path::new(&path);
    if !program_exists(p) {
        return Err(error("Path", SeatError::NoProgram(path)));
    }
    let dir = p
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map(Path::to_path_buf);
    // Run by its absolute path, so that the working folder does not change what it names.
    let program = std::fs::canonicalize(p)
        .map(|a| a.to_string_lossy().into_owned())
        .unwrap_or(path.clone());
    let name = if name.trim().is_empty() {
        p.file_stem()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| format!("engine{i}"))
    } else {
        name.trim().to_string()
    };
    Ok(EngineSpec {
        name,
        argv: vec![program],
        dir,
        options: parse_engine_options(options).map_err(|e| error("Options", e.into()))?,
        handshake: true,
        limit: None,
        ranks: Default::default(),
    })
}

/// Writes the match's events as JAI lines.
struct Reporter {
    out: Out,
    /// Games in the whole match (for `info game N/M`).
    total: u64,
}

/// A name as one word (JieqiBox splits `info engine` at blanks).
fn one_word(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join("_")
}

/// `info wld W-L-D`: the first engine's wins, losses and draws.
fn wld_line(t: &Tournament) -> String {
    let m = &t.encounters[0].summary;
    format!("info wld {}-{}-{}", m.wins, m.losses, m.draws)
}

impl MatchObserver for Reporter {
    fn live(&mut self, e: &LiveEvent) {
        match e {
            LiveEvent::Started {
                game_no,
                names,
                start_fen,
            } => {
                say(&self.out, &format!("info game {game_no}/{}", self.total));
                say(
                    &self.out,
                    &format!(
                        "info engine {} {}",
                        one_word(&names[0]),
                        one_word(&names[1])
                    ),
                );
                say(
                    &self.out,
                    &format!(
                        "info string game {game_no}: {} (red) vs {} (black)",
                        names[0], names[1]
                    ),
                );
                say(&self.out, &format!("info fen {start_fen}"));
            }
            // The engine's search lines (not its `info string` messages).
            LiveEvent::Info { line, .. } => {
                if line.split_whitespace().nth(1) == Some("depth") {
                    say(&self.out, line.trim());
                }
            }
            LiveEvent::Moved { ply, time_ms, .. } => say(
                &self.out,
                &format!("info move {} time {time_ms}", view::move_text(ply, None)),
            ),
        }
    }

    fn game(&mut self, f: &GameDone, t: &Tournament) {
        let r = &f.record;
        let line = format!("{} reason {}", r.outcome.text(), r.reason.as_str());
        if f.worker == 0 {
            say(&self.out, &format!("info result {line}"));
        }
        say(
            &self.out,
            &format!(
                "info string game {}: {} vs {}: {line} ({})",
                f.game_no, r.names[0], r.names[1], r.detail
            ),
        );
        say(&self.out, &wld_line(t));
    }
}

/// A match running on its own thread.
struct Running {
    control: MatchControl,
    handle: JoinHandle<()>,
}

impl Running {
    fn finished(&self) -> bool {
        self.handle.is_finished()
    }
}

/// Runs the JAI loop until `quit` or the end of input (which lets a running match finish
/// first). Never fails on input: bad lines are answered with `info string error: ...`.
pub fn run(input: impl BufRead, out: Out) {
    let mut settings = Settings::default();
    let mut running: Option<Running> = None;
    for line in input.split(b'\n') {
        let Ok(bytes) = line else { break };
        let text = String::from_utf8_lossy(&bytes);
        let text = text.trim();
        let mut words = text.split_whitespace();
        let Some(cmd) = words.next() else { continue };
        if running.as_ref().is_some_and(Running::finished) {
            if let Some(r) = running.take() {
                let _ = r.handle.join();
            }
        }
        match cmd {
            "jai" => {
                say(
                    &out,
                    &format!("id name jieqi match {}", env!("CARGO_PKG_VERSION")),
                );
                say(&out, "id author the jieqi developers");
                for (_, name, kind) in OPTIONS {
                    say(
                        &out,
                        &format!("option name {name} type {}", kind.type_text()),
                    );
                }
                say(&out, "jaiok");
            }
            "isready" => say(&out, "readyok"),
            "setoption" => {
                if running.is_some() {
                    say(
                        &out,
                        "info string error: setoption refused while a match runs (stopmatch first)",
                    );
                    continue;
                }
                match parse_setoption(text) {
                    Ok((name, value)) => {
                        if let Err(e) = settings.set(&name, &value) {
                            say(&out, &format!("info string error: {e}"));
                        }
                    }
                    Err(e) => say(&out, &format!("info string error: {e}")),
                }
            }
            "startmatch" => {
                if running.is_some() {
                    say(&out, "info string error: a match is already running");
                    continue;
                }
                match settings.match_config() {
                    Ok((cfg, warnings)) => {
                        for w in warnings {
                            say(&out, &format!("info string {w}"));
                        }
                        running = Some(start(cfg, out.clone()));
                    }
                    Err(e) => {
                        say(&out, &format!("info string error: {e}"));
                        say(&out, "info matchend error");
                    }
                }
            }
            "stopmatch" | "stop" => match running.take() {
                Some(r) => {
                    r.control.abort.store(true, Ordering::SeqCst);
                    let _ = r.handle.join();
                }
                None => say(&out, "info string no match is running"),
            },
            "quit" => {
                if let Some(r) = running.take() {
                    r.control.abort.store(true, Ordering::SeqCst);
                    let _ = r.handle.join();
                }
                return;
            }
            _ => say(
                &out,
                &format!(
                    "info string error: unknown command '{}'",
                    cmd.chars().take(40).collect::<String>()
                ),
            ),
        }
    }
    // End of input: the match (if any) plays on to its end.
    if let Some(r) = running.take() {
        let _ = r.handle.join();
    }
}

/// `setoption name <name...> value <value...>` (the value may be empty or missing).
fn parse_setoption(line: &str) -> Result<(String, String), String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let name_at = words
        .iter()
        .position(|&w| w == "name")
        .ok_or("setoption without 'name'")?;
    let value_at = words.iter().position(|&w| w == "value");
    let name_end = value_at.unwrap_or(words.len());
    if name_end <= name_at + 1 {
        return Err("setoption names no option".to_string());
    }
    let name = words[name_at + 1..name_end].join(" ");
    // The value is the rest of the line after the word `value`, blanks kept.
    let value = match value_at {
        Some(_) => line
            .split_once(" value")
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_default(),
        None => String::new(),
    };
    Ok((name, value))
}

/// Starts the match on its own thread.
fn start(cfg: MatchConfig, out: Out) -> Running {
    let control = MatchControl {
        live: true,
        ..MatchControl::default()
    };
    let c = control.clone();
    let handle = thread::spawn(move || {
        say(
            &out,
            &format!(
                "info string match started: {} vs {}, {}, {} games, {}, concurrency {}",
                cfg.engines[0].name,
                cfg.engines[1].name,
                cfg.variant,
                cfg.total_games(),
                cfg.game.limit,
                cfg.concurrency
            ),
        );
        let mut reporter = Reporter {
            out: out.clone(),
            total: cfg.total_games(),
        };
        match run_match(&cfg, &c, &mut reporter) {
            Ok(t) => {
                // The summary of section 17, its `Score of ...` line last: a front end that
                // shows the latest `info string` then shows the score.
                let report = t.report(None);
                let (score, rest): (Vec<&str>, Vec<&str>) =
                    report.lines().partition(|l| l.starts_with("Score of "));
                for line in rest.iter().chain(score.iter()) {
                    say(&out, &format!("info string {line}"));
                }
                say(&out, &wld_line(&t));
                say(
                    &out,
                    if t.interrupted {
                        "info matchend stopped"
                    } else {
                        "info matchend finished"
                    },
                );
            }
            Err(e) => {
                say(&out, &format!("info string error: {e}"));
                say(&out, "info matchend error");
            }
        }
    });
    Running { control, handle }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_option_order() {
        for (i, (option, name, _)) in OPTIONS.iter().enumerate() {
            assert_eq!(*option as usize, i, "{name}");
            assert_eq!(format!("{option:?}"), *name);
        }
    }

    #[test]
    fn engine_options_forms() {
        let o = |t: &str| parse_engine_options(t).unwrap();
        assert_eq!(
            o("Threads=2;Hash=128"),
            vec![
                ("Threads".to_string(), "2".to_string()),
                ("Hash".to_string(), "128".to_string())
            ]
        );
        assert_eq!(
            o("Threads=2 Move Overhead=30"),
            vec![
                ("Threads".to_string(), "2".to_string()),
                ("Move Overhead".to_string(), "30".to_string())
            ]
        );
        assert_eq!(
            o(" Move Overhead = 30 ;\nEvalFile=a b.nnue"),
            vec![
                ("Move Overhead".to_string(), "30".to_string()),
                ("EvalFile".to_string(), "a b.nnue".to_string())
            ]
        );
        assert_eq!(o(""), vec![]);
        assert!(parse_engine_options("Threads").is_err());
        assert!(parse_engine_options("=3").is_err());
        // One setting per part keeps blanks in its value; several need a name after each blank.
        assert_eq!(o("A=1 B"), vec![("A".to_string(), "1 B".to_string())]);
        assert!(parse_engine_options("A=1 B=2 C").is_err());
    }

    #[test]
    fn settings_refuse_bad_values_and_keep_old_ones() {
        let mut s = Settings::default();
        s.set("totalrounds", "7").unwrap();
        assert!(s.set("TotalRounds", "-1").is_err());
        assert!(s.set("TotalRounds", "x").is_err());
        assert!(s.set("NoSuch", "1").is_err());
        assert!(s.set("Variant", "chess").is_err());
        assert!(matches!(
            s.set("Engine1Pth", "x"),
            Err(JaiError::UnknownOption(n)) if n == "Engine1Pth"
        ));
        assert_eq!(s.number(JaiOption::TotalRounds), 7);
        s.set("variant", "MANIAC").unwrap();
        assert_eq!(s.text(JaiOption::Variant), "maniac");
        assert!(s.match_config().is_err(), "no engine paths yet");
        s.set("Engine1Path", "/bin/true").unwrap();
        s.set("Engine2Path", "/bin/true").unwrap();
        s.set("MainTimeMs", "0").unwrap();
        s.set("IncTimeMs", "0").unwrap();
        assert!(s.match_config().is_err(), "no time");
        s.set("IncTimeMs", "50").unwrap();
        let (cfg, warnings) = s.match_config().unwrap();
        assert!(warnings.is_empty());
        assert_eq!(cfg.pairs, 7);
        assert_eq!(cfg.variant, Variant::Maniac);
        assert_eq!(cfg.engines[0].name, "true-1");
        assert_eq!(
            cfg.game.limit,
            Limit::Clock {
                moves: None,
                base_ms: 0,
                inc_ms: 50
            }
        );
    }

    #[test]
    fn name_value_engine_options() {
        let o = |t: &str| parse_engine_options(t).unwrap();
        assert_eq!(
            o("name Threads value 4 name Hash value 256"),
            vec![
                ("Threads".to_string(), "4".to_string()),
                ("Hash".to_string(), "256".to_string())
            ]
        );
        assert_eq!(
            o("NAME Move Overhead VALUE 30 name EvalFile value C:/My Nets/a.nnue"),
            vec![
                ("Move Overhead".to_string(), "30".to_string()),
                ("EvalFile".to_string(), "C:/My Nets/a.nnue".to_string())
            ]
        );
        assert_eq!(
            o("name Ponder value"),
            vec![("Ponder".to_string(), String::new())]
        );
        assert!(parse_engine_options("name Threads").is_err());
        assert!(parse_engine_options("name value 3").is_err());
        assert!(parse_engine_options("name Threads value 1 name").is_err());
    }

    #[test]
    fn empty_placeholders_and_book_fallback() {
        let mut s = Settings::default();
        for (option, name) in [
            (JaiOption::Engine1Options, "Engine1Options"),
            (JaiOption::Engine1Name, "Engine1Name"),
            (JaiOption::BookFile, "BookFile"),
            (JaiOption::OutFile, "OutFile"),
        ] {
            s.set(name, "x").unwrap();
            s.set(name, "<empty>").unwrap();
            assert_eq!(s.text(option), "", "{name}");
        }
        s.set("Engine1Path", "/bin/true").unwrap();
        s.set("Engine2Path", "/bin/true").unwrap();
        let (cfg, warnings) = s.match_config().unwrap();
        assert!(cfg.out.is_none() && cfg.openings.is_empty() && warnings.is_empty());
        s.set("BookFile", "/no/such/book.txt").unwrap();
        let (cfg, warnings) = s.match_config().unwrap();
        assert!(cfg.openings.is_empty());
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("start position"), "{warnings:?}");
        s.set("Engine2Path", "/no/such/engine").unwrap();
        let e = s.match_config().unwrap_err().to_string();
        assert!(e.contains("Engine2Path"), "{e}");
    }

    #[test]
    fn setoption_lines() {
        assert_eq!(
            parse_setoption("setoption name Engine1Path value C:/My Engines/x.exe").unwrap(),
            ("Engine1Path".to_string(), "C:/My Engines/x.exe".to_string())
        );
        assert_eq!(
            parse_setoption("setoption name BookFile value").unwrap(),
            ("BookFile".to_string(), String::new())
        );
        assert!(parse_setoption("setoption value 3").is_err());
        assert!(parse_setoption("setoption name").is_err());
    }
}
