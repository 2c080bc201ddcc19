//! The engine's options: one table ([`OPTIONS`]) drives the `option ...` lines of the handshake,
//! the defaults, and what `setoption` accepts.
//!
//! Beside it, the tuning options ([`TUNING_OPTIONS`]): every search parameter as
//! `Param_<name>` (from `search::params::PARAMS`) and the evaluation weights as `WeightsFile`.
//! `setoption` accepts them always; `uci` lists them only in a build with the `tuning` cargo
//! feature, so that the list a GUI shows stays short.
//!
//! Names are matched case-insensitively and with blanks ignored, so `Clear Hash`, `clear hash`
//! and `ClearHash` are the same option. A bad or out-of-range value leaves the option unchanged
//! and is reported to the caller as an [`OptionError`].

use std::fmt;
use std::sync::Arc;

use super::command::{quote, Dialect};
use crate::core::Variant;
use crate::search::eval::{self, Weights};
use crate::search::params::PARAMS;
use crate::search::{Options, SearchMode, VariantParams};

/// What an option is, for the protocol: its type and limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A whole number. No option uses negative numbers (JieqiBox reads defaults as digits only).
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Combo {
        default: &'static str,
        values: &'static [&'static str],
    },
    Button,
    /// A text value (UCI `string`); `<empty>` or no value means none.
    Text,
}

/// How an empty text default is advertised (`string default <empty>`), and read back as empty
/// when a GUI sends it as a value.
pub const EMPTY_TEXT: &str = "<empty>";

impl OptionKind {
    /// The `type ...` part of an `option` line.
    pub fn type_text(&self) -> String {
        match *self {
            OptionKind::Spin { default, min, max } => {
                format!("spin default {default} min {min} max {max}")
            }
            OptionKind::Check { default } => format!("check default {default}"),
            OptionKind::Combo { default, values } => {
                let mut out = format!("combo default {default}");
                for v in values {
                    out.push_str(&format!(" var {v}"));
                }
                out
            }
            OptionKind::Button => "button".to_string(),
            OptionKind::Text => format!("string default {EMPTY_TEXT}"),
        }
    }

    /// The value an option of this kind has before any `setoption` (`None` for a button).
    pub fn default_value(&self) -> Option<OptionValue> {
        match *self {
            OptionKind::Spin { default, .. } => Some(OptionValue::Int(default)),
            OptionKind::Check { default } => Some(OptionValue::Bool(default)),
            OptionKind::Combo { default, .. } => Some(OptionValue::Choice(default)),
            OptionKind::Text => Some(OptionValue::Text(String::new())),
            OptionKind::Button => None,
        }
    }
}

/// Which option a table row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionId {
    Threads,
    Hash,
    ClearHash,
    Ponder,
    MultiPv,
    MoveOverhead,
    ShowWdl,
    Variant,
    SearchMode,
    Samples,
    Seed,
    /// Report what each identity of a flip best move would be worth.
    FlipOdds,
    /// Answer a game's first moves from the built-in opening book.
    OwnBook,
    /// UCCI: clock values in milliseconds instead of seconds.
    UseMillisec,
    /// UCCI's button for a new game (UCI has `ucinewgame`).
    NewGame,
    /// A weight file replacing the built-in evaluation weights in every variant.
    WeightsFile,
    /// The search parameter of this index in `search::params::PARAMS`.
    Param(usize),
}

/// When a `setoption` sent during a search takes effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// Protocol-side settings: at once (the running search is not affected by them).
    Now,
    /// Engine settings: stored at once, handed to the engine when the next search starts.
    NextSearch,
    /// Actions on the engine's memory: refused while a search runs.
    Idle,
}

/// One row of the option table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub id: OptionId,
    /// The UCI name.
    pub name: &'static str,
    /// The name listed after `ucci` (UCCI names are one lower-case word), if listed there.
    pub ucci_name: Option<&'static str>,
    /// Whether `uci` lists it (UCCI-only rows are not listed in UCI, but still accepted).
    pub uci: bool,
    pub kind: OptionKind,
    pub timing: Timing,
}

const VARIANTS: &[&str] = &["jieqi", "maniac", "xiangqi"];
const MODES: &[&str] = &["expectimax", "pimc", "hybrid"];

/// The option table: every option, in the order of the handshake.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        id: OptionId::Threads,
        name: "Threads",
        ucci_name: Some("threads"),
        uci: true,
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
        timing: Timing::NextSearch,
    },
    OptionSpec {
        id: OptionId::Hash,
        name: "Hash",
        ucci_name: Some("hashsize"),
        uci: true,
        kind: OptionKind::Spin {
            default: 64,
            min: 1,
            max: 65536,
        },
        timing: Timing::NextSearch,
    },
    OptionSpec {
        id: OptionId::ClearHash,
        name: "Clear Hash",
        ucci_name: Some("clearhash"),
        uci: true,
        kind: OptionKind::Button,
        timing: Timing::Idle,
    },
    OptionSpec {
        id: OptionId::Ponder,
        name: "Ponder",
        ucci_name: Some("ponder"),
        uci: true,
        kind: OptionKind::Check { default: false },
        timing: Timing::Now,
    },
    OptionSpec {
        id: OptionId::MultiPv,
        name: "MultiPV",
        ucci_name: Some("multipv"),
        uci: true,
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 32,
        },
        timing: Timing::NextSearch,
    },
    OptionSpec {
        id: OptionId::MoveOverhead,
        name: "Move Overhead",
        ucci_name: Some("moveoverhead"),
        uci: true,
        kind: OptionKind::Spin {
            default: 30,
            min: 0,
            max: 5000,
        },
        timing: Timing::NextSearch,
    },
    OptionSpec {
        id: OptionId::ShowWdl,
        name: "UCI_ShowWDL",
        ucci_name: None,
        uci: true,
        // On by default: JieqiBox never sets it and shows its WDL bar only when `wdl` comes;
        // GUIs that do not know `wdl` skip it.
        kind: OptionKind::Check { default: true },
        timing: Timing::Now,
    },
    OptionSpec {
        id: OptionId::Variant,
        name: "UCI_Variant",
        ucci_name: None,
        uci: true,
        kind: OptionKind::Combo {
            default: "jieqi",
            values: VARIANTS,
        },
        timing: Timing::Now,
    },
    OptionSpec {
        id: OptionId::SearchMode,
        name: "SearchMode",
        ucci_name: Some("searchmode"),
        uci: true,
        kind: OptionKind::Combo {
            default: "expectimax",
            values: MODES,
        },
        timing: Timing::NextSearch,
    },
    OptionSpec {
        id: OptionId::Samples,
        name: "Samples",
        ucci_name: Some("samples"),
        uci: true,
        kind: OptionKind::Spin {
            default: 8,
            min: 1,
            max: 256,
        },
        timing: Timing::NextSearch,
    },
    OptionSpec {
        id: OptionId::Seed,
        name: "Seed",
        ucci_name: Some("seed"),
        uci: true,
        kind: OptionKind::Spin {
            default: 1,
            min: 0,
            max: 2147483647,
        },
        timing: Timing::NextSearch,
    },
    OptionSpec {
        id: OptionId::FlipOdds,
        name: "FlipOdds",
        ucci_name: None,
        uci: true,
        kind: OptionKind::Check { default: false },
        timing: Timing::NextSearch,
    },
    OptionSpec {
        id: OptionId::OwnBook,
        name: "OwnBook",
        ucci_name: None,
        uci: true,
        kind: OptionKind::Check { default: false },
        timing: Timing::NextSearch,
    },
    OptionSpec {
        id: OptionId::UseMillisec,
        name: "usemillisec",
        ucci_name: Some("usemillisec"),
        uci: false,
        kind: OptionKind::Check { default: false },
        timing: Timing::Now,
    },
    OptionSpec {
        id: OptionId::NewGame,
        name: "newgame",
        ucci_name: Some("newgame"),
        uci: false,
        kind: OptionKind::Button,
        timing: Timing::Idle,
    },
];

/// Whether `uci` lists the tuning options.
const LIST_TUNING: bool = cfg!(feature = "tuning");

/// The tuning options: `WeightsFile`, then `Param_<name>` for every search parameter (listed
/// with its Jieqi default; where Maniac's or Xiangqi's default differs, it applies there until
/// the option is set, and a value set applies to every variant).
pub const TUNING_OPTIONS: [OptionSpec; PARAMS.len() + 1] = {
    let mut rows = [OptionSpec {
        id: OptionId::WeightsFile,
        name: "WeightsFile",
        ucci_name: None,
        uci: LIST_TUNING,
        kind: OptionKind::Text,
        timing: Timing::NextSearch,
    }; PARAMS.len() + 1];
    let mut i = 0;
    while i < PARAMS.len() {
        let p = &PARAMS[i];
        rows[i + 1] = OptionSpec {
            id: OptionId::Param(i),
            name: p.option,
            ucci_name: None,
            uci: LIST_TUNING,
            kind: if p.switch {
                OptionKind::Check {
                    default: p.jieqi != 0,
                }
            } else {
                OptionKind::Spin {
                    default: p.jieqi,
                    min: p.min,
                    max: p.max,
                }
            },
            timing: Timing::NextSearch,
        };
        i += 1;
    }
    rows
};

/// Every option: the table, then the tuning options.
fn all_options() -> impl Iterator<Item = &'static OptionSpec> {
    OPTIONS.iter().chain(TUNING_OPTIONS.iter())
}

impl OptionSpec {
    /// The handshake line for this option, or `None` if the dialect does not list it.
    pub fn line(&self, dialect: Dialect) -> Option<String> {
        let name = match dialect {
            Dialect::Uci if self.uci => self.name,
            Dialect::Ucci => self.ucci_name?,
            Dialect::Uci => return None,
        };
        let kind = self.kind.type_text();
        Some(match dialect {
            Dialect::Uci => format!("option name {name} type {kind}"),
            Dialect::Ucci => format!("option {name} type {kind}"),
        })
    }
}

/// The handshake's option lines, in table order (the tuning options last, in a `tuning` build).
pub fn option_lines(dialect: Dialect) -> impl Iterator<Item = String> {
    all_options().filter_map(move |spec| spec.line(dialect))
}

/// An option name without case and blanks, for matching.
fn key(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The table row of an option name (UCI or UCCI name), case- and blank-insensitive.
pub fn find(name: &str) -> Option<&'static OptionSpec> {
    let k = key(name);
    all_options().find(|spec| key(spec.name) == k || spec.ucci_name.is_some_and(|u| key(u) == k))
}

/// A value read for an option of some [`OptionKind`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Int(i64),
    Bool(bool),
    /// One of a combo's values, as the table spells it.
    Choice(&'static str),
    /// A text; empty for none (no value, or `<empty>`).
    Text(String),
    /// A button was pressed.
    Press,
}

/// Why a `setoption` changed nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name (`NoSuchName` says which list to ask for).
    NoSuchName(String),
    MissingValue(&'static str),
    NotANumber {
        name: &'static str,
        value: String,
    },
    OutOfRange {
        name: &'static str,
        value: i64,
        min: i64,
        max: i64,
    },
    NotABool {
        name: &'static str,
        value: String,
    },
    NotAChoice {
        name: &'static str,
        value: String,
        values: &'static [&'static str],
    },
    /// A file option whose file cannot be read or is not in its format.
    BadFile {
        name: &'static str,
        path: String,
        reason: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the phrases a web host treats as failure (see protocol.md, section 13).
        match self {
            OptionError::NoSuchName(name) => write!(
                f,
                "ignored setoption '{}': this engine has no option of that name (send 'uci' for the list)",
                quote(name)
            ),
            OptionError::MissingValue(name) => {
                write!(f, "ignored setoption '{name}': a value is needed")
            }
            OptionError::NotANumber { name, value } => write!(
                f,
                "ignored setoption '{name}': '{}' is not a whole number; unchanged",
                quote(value)
            ),
            OptionError::OutOfRange {
                name,
                value,
                min,
                max,
            } => write!(
                f,
                "ignored setoption '{name}': {value} is outside {min}..{max}; unchanged"
            ),
            OptionError::NotABool { name, value } => write!(
                f,
                "ignored setoption '{name}': '{}' is not true or false; unchanged",
                quote(value)
            ),
            OptionError::NotAChoice {
                name,
                value,
                values,
            } => write!(
                f,
                "ignored setoption '{name}': '{}' is not one of {}; unchanged",
                quote(value),
                values.join(", ")
            ),
            OptionError::BadFile { name, path, reason } => write!(
                f,
                "ignored setoption '{name}': '{}': {reason}; unchanged",
                quote(path)
            ),
        }
    }
}

impl std::error::Error for OptionError {}

/// Reads the value text of a `setoption` for an option of `kind` named `name`: a whole number
/// within the limits, `true`/`false`, one of a combo's values (any case), or a text (`<empty>`
/// or none: empty). A button takes no value (one sent is ignored).
pub fn parse_value(
    name: &'static str,
    kind: OptionKind,
    text: Option<&str>,
) -> Result<OptionValue, OptionError> {
    let text = text.map(str::trim).unwrap_or("");
    match kind {
        OptionKind::Button => Ok(OptionValue::Press),
        OptionKind::Text if text == EMPTY_TEXT => Ok(OptionValue::Text(String::new())),
        OptionKind::Text => Ok(OptionValue::Text(text.to_string())),
        _ if text.is_empty() => Err(OptionError::MissingValue(name)),
        OptionKind::Spin { min, max, .. } => {
            let value = text.parse::<i64>().map_err(|_| OptionError::NotANumber {
                name,
                value: text.to_string(),
            })?;
            if value < min || value > max {
                return Err(OptionError::OutOfRange {
                    name,
                    value,
                    min,
                    max,
                });
            }
            Ok(OptionValue::Int(value))
        }
        OptionKind::Check { .. } => match text.to_ascii_lowercase().as_str() {
            "true" => Ok(OptionValue::Bool(true)),
            "false" => Ok(OptionValue::Bool(false)),
            _ => Err(OptionError::NotABool {
                name,
                value: text.to_string(),
            }),
        },
        OptionKind::Combo { values, .. } => values
            .iter()
            .find(|v| v.eq_ignore_ascii_case(text))
            .map(|v| OptionValue::Choice(v))
            .ok_or_else(|| OptionError::NotAChoice {
                name,
                value: text.to_string(),
                values,
            }),
    }
}

/// The current value of every option that has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub threads: usize,
    pub hash_mb: usize,
    pub ponder: bool,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    pub show_wdl: bool,
    pub variant: Variant,
    pub mode: SearchMode,
    pub samples: usize,
    pub seed: u64,
    pub flip_odds: bool,
    pub own_book: bool,
    pub use_millisec: bool,
    /// The search parameters (`Param_<name>`).
    pub params: VariantParams,
    /// The weight file's path as given (empty: the built-in weights) and its weights.
    pub weights_file: String,
    pub weights: Option<Arc<Weights>>,
}

/// What a successful `setoption` asks of the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// A value was stored (it may equal the old one).
    Set(&'static OptionSpec),
    /// A button was pressed.
    Press(&'static OptionSpec),
}

impl Default for Settings {
    /// The defaults of the table.
    fn default() -> Settings {
        let mut s = Settings {
            threads: 0,
            hash_mb: 0,
            ponder: false,
            multipv: 0,
            move_overhead_ms: 0,
            show_wdl: false,
            variant: Variant::default(),
            mode: SearchMode::default(),
            samples: 0,
            seed: 0,
            flip_odds: false,
            own_book: false,
            use_millisec: false,
            params: VariantParams::default(),
            weights_file: String::new(),
            weights: None,
        };
        for spec in OPTIONS {
            if let Some(value) = spec.kind.default_value() {
                s.store(spec.id, value);
            }
        }
        s
    }
}

impl Settings {
    /// Reads and stores `setoption name <name> [value <value>]`. On error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, OptionError> {
        let spec = find(name).ok_or_else(|| OptionError::NoSuchName(name.to_string()))?;
        self.apply(spec, value)
    }

    /// Reads and stores a value for the option of a table row. On error nothing changes.
    pub fn apply(
        &mut self,
        spec: &'static OptionSpec,
        value: Option<&str>,
    ) -> Result<Effect, OptionError> {
        match parse_value(spec.name, spec.kind, value)? {
            OptionValue::Press => Ok(Effect::Press(spec)),
            OptionValue::Text(path) if spec.id == OptionId::WeightsFile => {
                self.set_weights_file(spec.name, path)?;
                Ok(Effect::Set(spec))
            }
            v => {
                self.store(spec.id, v);
                Ok(Effect::Set(spec))
            }
        }
    }

    /// Reads the weight file at `path` (empty: the built-in weights). On error nothing
    /// changes.
    fn set_weights_file(&mut self, name: &'static str, path: String) -> Result<(), OptionError> {
        if path.is_empty() {
            self.weights_file.clear();
            self.weights = None;
            return Ok(());
        }
        let bad = |reason: String| OptionError::BadFile {
            name,
            path: path.clone(),
            reason,
        };
        let text = std::fs::read_to_string(&path).map_err(|e| bad(e.to_string()))?;
        let weights = eval::parse_weights(&text).map_err(|e| bad(e.to_string()))?;
        self.weights_file = path;
        self.weights = Some(Arc::new(weights));
        Ok(())
    }

    /// Stores a value already checked against the table.
    fn store(&mut self, id: OptionId, value: OptionValue) {
        // Values were range-checked, so the conversions below cannot lose anything.
        let int = |v: &OptionValue| match v {
            OptionValue::Int(n) => (*n).max(0) as u64,
            _ => 0,
        };
        let flag = matches!(value, OptionValue::Bool(true));
        match id {
            OptionId::Threads => self.threads = int(&value) as usize,
            OptionId::Hash => self.hash_mb = int(&value) as usize,
            OptionId::Ponder => self.ponder = flag,
            OptionId::MultiPv => self.multipv = int(&value) as usize,
            OptionId::MoveOverhead => self.move_overhead_ms = int(&value),
            OptionId::ShowWdl => self.show_wdl = flag,
            OptionId::Samples => self.samples = int(&value) as usize,
            OptionId::Seed => self.seed = int(&value),
            OptionId::UseMillisec => self.use_millisec = flag,
            OptionId::FlipOdds => self.flip_odds = flag,
            OptionId::OwnBook => self.own_book = flag,
            OptionId::Variant => {
                if let OptionValue::Choice(c) = value {
                    self.variant = c.parse().unwrap_or_default();
                }
            }
            OptionId::SearchMode => {
                if let OptionValue::Choice(c) = value {
                    self.mode = SearchMode::parse(c).unwrap_or_default();
                }
            }
            OptionId::Param(i) => {
                let v = match value {
                    OptionValue::Int(n) => n,
                    OptionValue::Bool(b) => b as i64,
                    _ => return,
                };
                // Checked against the same limits already.
                let _ = self.params.set(i, v);
            }
            OptionId::ClearHash | OptionId::NewGame | OptionId::WeightsFile => {}
        }
    }

    /// The engine's share of the settings.
    pub fn engine_options(&self) -> Options {
        Options {
            threads: self.threads,
            hash_mb: self.hash_mb,
            multipv: self.multipv,
            move_overhead_ms: self.move_overhead_ms,
            mode: self.mode,
            samples: self.samples,
            seed: self.seed,
            params: self.params.clone(),
            weights: self.weights.clone(),
            flip_odds: self.flip_odds,
            own_book: self.own_book,
            ..Options::default()
        }
    }

    /// `name=value` for every option with a value that `dialect` lists (for `d`).
    pub fn summary(&self, dialect: Dialect) -> String {
        all_options()
            .filter(|spec| spec.kind != OptionKind::Button && spec.line(dialect).is_some())
            .map(|spec| format!("{}={}", spec.name, self.value_text(spec.id)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The current value of an option as text (for messages and `d`).
    pub fn value_text(&self, id: OptionId) -> String {
        match id {
            OptionId::Threads => self.threads.to_string(),
            OptionId::Hash => self.hash_mb.to_string(),
            OptionId::Ponder => self.ponder.to_string(),
            OptionId::MultiPv => self.multipv.to_string(),
            OptionId::MoveOverhead => self.move_overhead_ms.to_string(),
            OptionId::ShowWdl => self.show_wdl.to_string(),
            OptionId::Variant => self.variant.name().to_string(),
            OptionId::SearchMode => self.mode.name().to_string(),
            OptionId::Samples => self.samples.to_string(),
            OptionId::Seed => self.seed.to_string(),
            OptionId::UseMillisec => self.use_millisec.to_string(),
            OptionId::WeightsFile if self.weights_file.is_empty() => EMPTY_TEXT.to_string(),
            OptionId::WeightsFile => self.weights_file.clone(),
            OptionId::Param(i) => {
                let v = self.params.get(self.variant).get(i).unwrap_or(0);
                match PARAMS.get(i) {
                    Some(p) if p.switch => (v != 0).to_string(),
                    _ => v.to_string(),
                }
            }
            OptionId::FlipOdds => self.flip_odds.to_string(),
            OptionId::OwnBook => self.own_book.to_string(),
            OptionId::ClearHash | OptionId::NewGame => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_come_from_the_table_and_match_the_engine() {
        let s = Settings::default();
        assert_eq!(s.engine_options(), Options::default());
        assert_eq!(s.variant, Variant::Jieqi);
        assert!(!s.ponder && s.show_wdl && !s.use_millisec);
    }

    #[test]
    fn uci_lines() {
        let lines: Vec<String> = option_lines(Dialect::Uci).collect();
        assert!(lines.contains(&"option name Threads type spin default 1 min 1 max 256".into()));
        assert!(lines.contains(&"option name Clear Hash type button".into()));
        assert!(lines.contains(
            &"option name UCI_Variant type combo default jieqi var jieqi var maniac var xiangqi"
                .into()
        ));
        assert!(!lines.iter().any(|l| l.contains("usemillisec")));
        for l in &lines {
            assert!(!l.contains('-'), "no negative numbers: {l}");
        }
        let ucci: Vec<String> = option_lines(Dialect::Ucci).collect();
        assert!(ucci.contains(&"option hashsize type spin default 64 min 1 max 65536".into()));
        assert!(ucci.contains(&"option usemillisec type check default false".into()));
    }

    #[test]
    fn set_values() {
        let mut s = Settings::default();
        assert!(s.set("move overhead", Some("100")).is_ok());
        assert_eq!(s.move_overhead_ms, 100);
        assert!(s.set("MOVEOVERHEAD", Some(" 7 ")).is_ok());
        assert_eq!(s.move_overhead_ms, 7);
        assert!(s.set("uci_variant", Some("Xiangqi")).is_ok());
        assert_eq!(s.variant, Variant::Xiangqi);
        assert!(s.set("ponder", Some("TRUE")).is_ok());
        assert!(s.ponder);
        assert!(s.set("hashsize", Some("16")).is_ok());
        assert_eq!(s.hash_mb, 16);
        assert!(matches!(
            s.set("Clear Hash", None),
            Ok(Effect::Press(OptionSpec {
                id: OptionId::ClearHash,
                ..
            }))
        ));
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut s = Settings::default();
        let before = s.clone();
        for (name, value) in [
            ("Threads", Some("0")),
            ("Threads", Some("-3")),
            ("Threads", Some("two")),
            ("Hash", None),
            ("Hash", Some("")),
            ("Hash", Some("99999999999999999999")),
            ("Ponder", Some("maybe")),
            ("UCI_Variant", Some("chess")),
            ("Seed", Some("2147483648")),
        ] {
            let e = s.set(name, value).unwrap_err();
            let text = e.to_string();
            assert!(
                text.contains("unchanged") || text.contains("needed"),
                "{text}"
            );
        }
        let e = s.set("Foo Bar", Some("1")).unwrap_err().to_string();
        for bad in ["Unknown command", "No such option", "Unknown option"] {
            assert!(!e.contains(bad));
        }
        assert_eq!(s, before);
    }
}
