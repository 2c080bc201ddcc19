//! The engine facade: non-blocking `go`, `stop`, `ponderhit`, reports over a channel.
//! (Temporary body: the real search is being written.)

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

use crossbeam_channel::Sender;

use super::types::{Limits, Options, Report, Root};

pub struct Engine {
    options: Options,
    stop: Arc<AtomicBool>,
    searching: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Engine {
    pub fn new(options: Options) -> Engine {
        Engine {
            options,
            stop: Arc::new(AtomicBool::new(false)),
            searching: Arc::new(AtomicBool::new(false)),
            handle: None,
        }
    }
    pub fn options(&self) -> &Options {
        &self.options
    }
    /// Replaces the options. Refused while a search runs.
    pub fn set_options(&mut self, options: Options) -> Result<(), String> {
        if self.is_searching() {
            return Err("cannot change options while searching".into());
        }
        self.options = options;
        Ok(())
    }
    /// Empties the transposition table and learned move-ordering data. Refused while searching.
    pub fn clear_hash(&mut self) -> Result<(), String> {
        if self.is_searching() {
            return Err("cannot clear the hash while searching".into());
        }
        Ok(())
    }
    /// Starts a search and returns at once. Reports arrive on `reports`, ending with exactly one
    /// `Report::Done`. Refused if a search is running.
    pub fn go(&mut self, root: Root, limits: Limits, reports: Sender<Report>) -> Result<(), String> {
        if self.is_searching() {
            return Err("a search is already running".into());
        }
        self.wait();
        let _ = limits;
        self.stop.store(false, Ordering::SeqCst);
        self.searching.store(true, Ordering::SeqCst);
        let searching = self.searching.clone();
        self.handle = Some(std::thread::spawn(move || {
            let list = root.position.legal_move_list();
            let best = list.as_slice().first().copied();
            let _ = reports.send(Report::Done { best, ponder: None });
            searching.store(false, Ordering::SeqCst);
        }));
        Ok(())
    }
    /// Asks the running search to stop; its `Done` report follows promptly.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
    /// The pondered move was played: switch from pondering to the normal limits.
    pub fn ponderhit(&self) {}
    /// Whether a search is running (until its `Done` report has been sent).
    pub fn is_searching(&self) -> bool {
        self.searching.load(Ordering::SeqCst)
    }
    /// Blocks until the search thread has finished.
    pub fn wait(&mut self) {
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}
