//! Text in, text out: the UCI protocol (and the UCCI handshake variant) that JieqiBox,
//! JieqiArena, Mistboard and Xiangqi GUIs drive. `protocol.md` (sections 6-16) is the
//! specification this module implements.
//!
//! Layers, each knowing only the ones below it:
//! - [`command`]: one input line to a typed [`Command`](command::Command);
//! - [`options`]: the option table behind both the handshake and `setoption`;
//! - [`position`]: a `position` command to the game the engine searches from;
//! - [`format`](mod@format): replies as text;
//! - [`uci`]: the loop that ties input, engine reports and output together.

pub mod command;
pub mod format;
pub mod options;
pub mod position;
pub mod uci;

/// Runs the protocol loop on stdin/stdout until `quit` or end of input.
pub fn run_stdio() {
    uci::run(std::io::stdin(), std::io::stdout());
}
