//! A `jieqi` process driven line by line as a GUI drives it (JieqiBox's JAI match mode, or a
//! plain UCI session): its output read on a thread, every read bounded by a deadline.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// A running `jieqi` with piped input and output (stderr discarded).
pub struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every line read so far.
    pub seen: Vec<String>,
}

impl Session {
    /// Starts `jieqi` with `args`, in `dir` when one is given.
    pub fn start(args: &[&str], dir: Option<&std::path::Path>) -> Session {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_jieqi"));
        cmd.args(args);
        if let Some(dir) = dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that satisfies `done`; none within `secs` seconds
    /// fails the test (`what` names the awaited line).
    pub fn until(&mut self, what: &str, secs: u64, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(secs);
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.seen.push(l.clone());
                    let end = done(&l);
                    got.push(l);
                    if end {
                        return got;
                    }
                }
                Err(_) => panic!("no '{what}' within {secs} s; got {got:?}"),
            }
        }
    }

    /// Waits for the process to end after `quit`; still running after 60 s (a hang guard, not
    /// a speed claim) fails the test.
    pub fn expect_exit(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.child.try_wait().unwrap().is_none() {
            assert!(Instant::now() < deadline, "the process hangs after quit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
